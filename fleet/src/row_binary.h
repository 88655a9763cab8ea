#pragma once
// ClickHouse's RowBinary format: the columns of each row in order, little-endian integers, a
// String or an Array as a LEB128 length and its elements, a Date as days since 1970 (UInt16), a
// DateTime as Unix seconds (UInt32). The inserts write it; the queries' answers are read in it,
// with every length checked against the bytes that remain.

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "bn/base/error.h"

namespace bn::fleet::detail {

class RowWriter {
 public:
  void u16(std::uint16_t v) { raw(&v, 2); }
  void u32(std::uint32_t v) { raw(&v, 4); }
  void u64(std::uint64_t v) { raw(&v, 8); }
  void i64(std::int64_t v) { raw(&v, 8); }
  void length(std::uint64_t n) {
    do {
      const auto byte = static_cast<char>((n & 0x7f) | (n > 0x7f ? 0x80 : 0));
      out_ += byte;
      n >>= 7;
    } while (n != 0);
  }
  void string(std::string_view s) {
    length(s.size());
    out_ += s;
  }
  template <class Strings>
  void strings(const Strings& list) {
    length(list.size());
    for (const auto& s : list) string(s);
  }

  std::size_t size() const { return out_.size(); }
  std::string take() { return std::exchange(out_, {}); }

 private:
  void raw(const void* p, std::size_t n) { out_.append(static_cast<const char*>(p), n); }
  std::string out_;
};

class RowReader {
 public:
  // `what` names the answer in errors: "clickhouse://h:p/db: stacks".
  RowReader(std::string_view bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {}

  bool done() const { return at_ == bytes_.size(); }
  std::uint32_t u32() { return fixed<std::uint32_t>(); }
  std::uint64_t u64() { return fixed<std::uint64_t>(); }
  std::int64_t i64() { return fixed<std::int64_t>(); }
  std::uint16_t u16() { return fixed<std::uint16_t>(); }
  std::string_view string() {
    const std::uint64_t n = length();
    if (n > bytes_.size() - at_) fail("a string runs past the end");
    const std::string_view s = bytes_.substr(at_, n);
    at_ += n;
    return s;
  }
  std::uint64_t length() {
    std::uint64_t n = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ == bytes_.size()) fail("a length runs past the end");
      const auto byte = static_cast<unsigned char>(bytes_[at_++]);
      n |= std::uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return n;
    }
    fail("a length is longer than 64 bits");
  }

 private:
  template <class T>
  T fixed() {
    if (sizeof(T) > bytes_.size() - at_) fail("a row is cut short");
    T v;
    std::memcpy(&v, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  [[noreturn]] void fail(const char* what) const {
    throw Error(what_ + ": unexpected answer at byte " + std::to_string(at_) + ": " + what);
  }

  std::string_view bytes_;
  std::size_t at_ = 0;
  std::string what_;
};

}  // namespace bn::fleet::detail
