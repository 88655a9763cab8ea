#include "jfr_values.h"

namespace bn::calltree::jfr {
namespace {

// Objects inside objects: JDK types nest three or four deep (StackTrace → StackFrame); a class
// that contains itself inline would recurse without reading a byte.
constexpr int kMaxNesting = 16;

}  // namespace

void ValueReader::skip_field(const JfrField& f, int depth) {
  if (!f.array) return skip_one(f, depth);
  for (std::size_t n = in_.count("array"); n > 0; --n) skip_one(f, depth);
}

void ValueReader::skip_one(const JfrField& f, int depth) {
  if (f.pooled) {
    in_.i64();
    return;
  }
  switch (f.type->kind) {
    case Kind::boolean:
    case Kind::byte:
      in_.skip(1);
      return;
    case Kind::int_like:
      in_.i64();  // one varint whatever the width
      return;
    case Kind::float32:
      in_.skip(4);
      return;
    case Kind::float64:
      in_.skip(8);
      return;
    case Kind::string:
      in_.skip_string();
      return;
    case Kind::object:
      skip_object(*f.type, depth + 1);
      return;
  }
}

void ValueReader::skip_object(const JfrClass& c, int depth) {
  if (depth > kMaxNesting) in_.fail("objects nested deeper than " + std::to_string(kMaxNesting) + " (" + c.name + ")");
  for (const JfrField& f : c.fields) skip_field(f, depth);
}

std::int64_t ValueReader::key(const JfrField& f) {
  if (!f.pooled || f.array) {
    skip(f);
    return -1;
  }
  return in_.i64();
}

JfrString ValueReader::string(const JfrField& f) {
  if (!plain(f, Kind::string)) {
    skip(f);
    return {};
  }
  return in_.string();
}

std::int64_t ValueReader::integer(const JfrField& f) {
  if (!plain(f, Kind::int_like)) {
    skip(f);
    return 0;
  }
  return in_.i64();
}

bool ValueReader::boolean(const JfrField& f) {
  if (!plain(f, Kind::boolean)) {
    skip(f);
    return false;
  }
  return in_.u8() != 0;
}

}  // namespace bn::calltree::jfr
