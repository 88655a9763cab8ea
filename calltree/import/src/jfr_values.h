#pragma once
// Decoding field values of a JFR chunk as the metadata (jfr_metadata.h) describes them: a
// constant-pool field is a long key; otherwise the value is encoded by its class: primitives as
// in jfr_cursor.h, strings as StringParser writes them, objects as their fields in order,
// arrays as a count then the elements. Nesting is bounded, and every count is checked against
// the bytes left (Cursor::count), so a hostile chunk costs time and memory in proportion to its
// size.

#include <cstdint>

#include "jfr_cursor.h"
#include "jfr_metadata.h"

namespace bn::calltree::jfr {

class ValueReader {
 public:
  explicit ValueReader(Cursor& in) : in_(in) {}

  void skip(const JfrField& f) { skip_field(f, 0); }
  // A pooled field's key; any other field is skipped and gives -1.
  std::int64_t key(const JfrField& f);
  // An inline string field; any other field is skipped and gives an empty string.
  JfrString string(const JfrField& f);
  // An integer field (long, int, short, char) that is not pooled; any other gives 0.
  std::int64_t integer(const JfrField& f);
  // A boolean field; any other field is skipped and gives false.
  bool boolean(const JfrField& f);
  // An inline object of class `c`, field by field.
  void skip_object(const JfrClass& c, int depth);

 private:
  void skip_field(const JfrField& f, int depth);
  void skip_one(const JfrField& f, int depth);
  bool plain(const JfrField& f, Kind kind) const { return !f.pooled && !f.array && f.type->kind == kind; }

  Cursor& in_;
};

}  // namespace bn::calltree::jfr
