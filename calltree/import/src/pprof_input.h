#pragma once
// The top level of a pprof Profile message as a sequence of fields (protobuf encoding:
// https://protobuf.dev/programming-guides/encoding/), walked with protobuf's CodedInputStream so
// that nested messages can be parsed one at a time (pprof_reader.cpp says why).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "bn/calltree/decompress.h"

namespace bn::calltree::pprof_input {

inline constexpr int kVarint = 0;
inline constexpr int kLengthDelimited = 2;

struct Field {
  int number = 0;
  int wire_type = 0;
  std::size_t offset = 0;      // of the field's tag in the message
  std::span<const char> body;  // a length-delimited field's bytes
  std::uint64_t value = 0;     // a varint field's value (fixed-width fields: their bits)
  bool length_delimited() const { return wire_type == kLengthDelimited; }
};

class FieldWalker {
 public:
  // `compressed` only changes how offsets read in errors (bytes of the decompressed data).
  FieldWalker(std::span<const char> bytes, std::string source, bool compressed)
      : bytes_(bytes), source_(std::move(source)), compressed_(compressed) {}

  // Calls `f` for every top-level field in order. Throws bn::Error on a malformed field.
  void for_each_field(const std::function<void(const Field&)>& f) const;
  std::size_t size() const { return bytes_.size(); }
  // Throws bn::Error "source: pprof: what at byte N".
  [[noreturn]] void fail(std::size_t offset, const std::string& what) const;

 private:
  std::span<const char> bytes_;
  std::string source_;
  bool compressed_;
};

// All of `input`'s decompressed bytes, refusing more than a protobuf message may hold (2 GiB).
std::vector<char> read_message(DecompressingInput& input);

}  // namespace bn::calltree::pprof_input
