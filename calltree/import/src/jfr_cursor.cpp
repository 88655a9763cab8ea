#include "jfr_cursor.h"

#include "bn/base/error.h"

namespace bn::calltree::jfr {
namespace {

// StringParser's encodings (jdk.jfr.internal.consumer.StringParser).
enum StringEncoding : std::uint8_t { kNull = 0, kEmpty = 1, kPool = 2, kUtf8 = 3, kCharArray = 4, kLatin1 = 5 };

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

void Cursor::fail_at(std::size_t pos, const std::string& what) const {
  throw Error(*place_.source + ": JFR chunk " + std::to_string(place_.index) + " at byte " +
              std::to_string(place_.file_offset + pos) + (place_.decompressed ? " of the decompressed data" : "") +
              ": " + what);
}

void Cursor::need(std::size_t n, const char* what) {
  if (n > remaining())
    fail(std::string("truncated ") + what + " (" + std::to_string(n) + " bytes needed, " + std::to_string(remaining()) +
         " left in the chunk)");
}

void Cursor::seek(std::size_t pos) {
  if (pos > bytes_.size()) fail("offset " + std::to_string(pos) + " lies past the end of the chunk");
  pos_ = pos;
}

void Cursor::skip(std::size_t n) {
  need(n, "value");
  pos_ += n;
}

std::uint8_t Cursor::u8() {
  need(1, "byte");
  return bytes_[pos_++];
}

std::uint64_t Cursor::fixed(int width) {
  need(static_cast<std::size_t>(width), "integer");
  std::uint64_t v = 0;
  for (int i = 0; i < width; ++i) v = (v << 8) | bytes_[pos_++];
  return v;
}

std::uint64_t Cursor::varint() {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) {
    const std::uint8_t b = u8();
    v |= std::uint64_t{b & 0x7Fu} << (7 * i);
    if ((b & 0x80) == 0) return v;
  }
  return v | (std::uint64_t{u8()} << 56);  // RecordingInput.readLong: the 9th byte is taken whole
}

std::size_t Cursor::count(const char* what) {
  const std::size_t at = pos_;
  const std::int64_t n = i64();
  if (n < 0 || static_cast<std::uint64_t>(n) > remaining())
    fail_at(at, std::string(what) + " of " + std::to_string(n) + " items does not fit in the " +
                    std::to_string(remaining()) + " bytes left");
  return static_cast<std::size_t>(n);
}

JfrString Cursor::string() {
  JfrString s;
  const std::size_t at = pos_;
  switch (u8()) {
    case kNull:
    case kEmpty:
      break;
    case kPool:
      s.pool_key = i64();
      if (s.pool_key < 0) fail_at(at, "negative string pool key");
      break;
    case kUtf8: {
      const std::size_t n = count("UTF-8 string");
      s.text.assign(reinterpret_cast<const char*>(bytes_.data() + pos_), n);
      pos_ += n;
      break;
    }
    case kCharArray: {
      // UTF-16 code units, each a JFR char; pairs of surrogates make one code point.
      const std::size_t n = count("char array string");
      for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t unit = static_cast<std::uint16_t>(varint());
        if (unit >= 0xD800 && unit < 0xDC00 && i + 1 < n) {
          const std::size_t mark = pos_;
          const auto low = static_cast<std::uint16_t>(varint());
          if (low >= 0xDC00 && low < 0xE000) {
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
            ++i;
          } else {
            pos_ = mark;
          }
        }
        append_utf8(s.text, unit >= 0xD800 && unit < 0xE000 ? 0xFFFD : unit);
      }
      break;
    }
    case kLatin1: {
      const std::size_t n = count("Latin-1 string");
      for (std::size_t i = 0; i < n; ++i) append_utf8(s.text, bytes_[pos_++]);
      break;
    }
    default:
      fail_at(at, "unknown string encoding " + std::to_string(bytes_[at]));
  }
  return s;
}

void Cursor::skip_string() {
  const std::size_t at = pos_;
  const std::uint8_t encoding = u8();
  if (encoding == kPool) {
    i64();
  } else if (encoding == kUtf8 || encoding == kLatin1) {
    skip(count("string"));
  } else if (encoding == kCharArray) {
    for (std::size_t n = count("char array string"); n > 0; --n) varint();
  } else if (encoding > kLatin1) {
    fail_at(at, "unknown string encoding " + std::to_string(encoding));
  }
}

}  // namespace bn::calltree::jfr
