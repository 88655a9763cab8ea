#include "pprof_input.h"

#include <google/protobuf/io/coded_stream.h>

#include <algorithm>
#include <limits>

#include "bn/base/error.h"
#include "bn/calltree/pprof.h"

namespace bn::calltree {
namespace pprof_input {
namespace {

// protobuf sizes and offsets are `int`: no message may exceed 2 GiB - 1 bytes.
constexpr std::size_t kMaxMessageBytes = std::numeric_limits<int>::max();
constexpr std::size_t kPprofReadChunk = std::size_t{1} << 20;

}  // namespace

void FieldWalker::fail(std::size_t offset, const std::string& what) const {
  throw Error(source_ + ": pprof: " + what + " at byte " + std::to_string(offset) +
              (compressed_ ? " of the decompressed data" : ""));
}

void FieldWalker::for_each_field(const std::function<void(const Field&)>& f) const {
  const int size = static_cast<int>(bytes_.size());
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const std::uint8_t*>(bytes_.data()), size);
  in.SetTotalBytesLimit(size);
  for (;;) {
    Field field;
    const int at = in.CurrentPosition();
    if (at == size) return;
    field.offset = static_cast<std::size_t>(at);
    const std::uint32_t tag = in.ReadTagNoLastTag();
    if (tag == 0) fail(field.offset, "invalid or truncated field tag");
    field.number = static_cast<int>(tag >> 3);
    field.wire_type = static_cast<int>(tag & 7);
    bool ok = true;
    switch (field.wire_type) {
      case kVarint:
        ok = in.ReadVarint64(&field.value);
        break;
      case 1: {  // I64
        ok = in.ReadLittleEndian64(&field.value);
        break;
      }
      case 5: {  // I32
        std::uint32_t v = 0;
        ok = in.ReadLittleEndian32(&v);
        field.value = v;
        break;
      }
      case kLengthDelimited: {
        std::uint64_t length = 0;
        if (!in.ReadVarint64(&length)) fail(field.offset, "truncated field length");
        const auto start = static_cast<std::size_t>(in.CurrentPosition());
        if (length > bytes_.size() - start)
          fail(field.offset, "field " + std::to_string(field.number) + " of " + std::to_string(length) +
                                 " bytes runs past the end of the data (" + std::to_string(bytes_.size() - start) +
                                 " bytes left)");
        field.body = bytes_.subspan(start, static_cast<std::size_t>(length));
        in.Skip(static_cast<int>(length));
        break;
      }
      default:  // groups (3, 4) are deprecated and absent from profile.proto; 6 and 7 do not exist
        fail(field.offset, "unsupported wire type " + std::to_string(field.wire_type));
    }
    if (!ok) fail(field.offset, "truncated value of field " + std::to_string(field.number));
    f(field);
  }
}

std::vector<char> read_message(DecompressingInput& input) {
  // Grown as bytes actually arrive, never from a size the file declares.
  std::vector<char> bytes;
  for (;;) {
    const std::size_t had = bytes.size();
    bytes.resize(had + kPprofReadChunk);
    const std::size_t got = input.read(std::span(bytes).subspan(had));
    bytes.resize(had + got);
    if (got == 0) return bytes;
    if (bytes.size() > kMaxMessageBytes)
      throw Error(input.source_name() + ": pprof: more than " + std::to_string(kMaxMessageBytes) +
                  " bytes, the most a protobuf message may hold");
  }
}

}  // namespace pprof_input

bool looks_like_pprof(std::span<const std::byte> head) {
  if (head.empty()) return false;
  // A Profile starts with one of its fields (numbers 1-14, profile.proto), each with the wire
  // type its declaration gives: length-delimited for messages, strings and packed lists, varint
  // for the scalars.
  const auto tag = std::to_integer<unsigned>(head[0]);
  const unsigned number = tag >> 3, wire = tag & 7;
  const bool message_field = number <= 6 || number == 11 || number == 13;
  if (number == 0 || number > 14 || wire != (message_field ? 2u : 0u)) return false;
  // Text never holds control bytes other than tab, newline and carriage return; protobuf
  // tags and lengths soon do.
  return std::any_of(head.begin(), head.end(), [](std::byte b) {
    const auto c = std::to_integer<unsigned>(b);
    return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
  });
}

}  // namespace bn::calltree
