// The varint reader (ByteSource, internal to the format) against a byte-at-a-time decoder written
// from the definition (docs/profile-format.md, "Primitive encodings"): the inline path decodes up
// to eight bytes from one 64-bit load, so every length, padded (non-canonical) encodings, values
// near the end of a payload and the out-of-line cases must read as the definition says.

#include "byte_codec.h"

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bn/base/error.h"

using namespace bn::calltree;

namespace {

// Unsigned LEB128 as the format defines it: seven bits a byte, least significant first, the high
// bit set on every byte but the last; at most ten bytes, the tenth holding bit 63 only. nullopt
// where the bytes end inside a varint or it does not fit in 64 bits.
std::optional<std::uint64_t> naive_varint(const std::vector<std::byte>& bytes, std::size_t& pos) {
  std::uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (pos == bytes.size()) return std::nullopt;
    const auto b = std::to_integer<std::uint64_t>(bytes[pos++]);
    if (shift == 63 && b > 1) return std::nullopt;
    v |= (b & 0x7f) << shift;
    if (b < 0x80) return v;
  }
}

// `value` in `length` bytes (at least its canonical length): padding bytes carry zero groups.
void put_varint(std::vector<std::byte>& out, std::uint64_t value, unsigned length) {
  for (unsigned i = 0; i < length; ++i) {
    const std::uint64_t group = value & 0x7f;
    value >>= 7;
    out.push_back(static_cast<std::byte>(group | (i + 1 < length ? 0x80 : 0)));
  }
}

unsigned canonical_length(std::uint64_t v) {
  unsigned n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

// `count` varints of random values of 0 to 64 significant bits, one in four padded to a longer
// encoding, within the ten bytes a 64-bit value may take.
std::vector<std::byte> random_varints(std::mt19937_64& rng, int count) {
  std::vector<std::byte> bytes;
  for (int i = 0; i < count; ++i) {
    const unsigned bits = static_cast<unsigned>(rng() % 65);
    const std::uint64_t value = bits == 0 ? 0 : rng() >> (64 - bits);
    const unsigned length = canonical_length(value);
    put_varint(bytes, value, rng() % 4 == 0 ? length + static_cast<unsigned>(rng() % (11 - length)) : length);
  }
  return bytes;
}

}  // namespace

TEST_CASE("varints of every length, canonical and padded, read as the definition says") {
  std::mt19937_64 rng(20261124);
  for (int round = 0; round < 200; ++round) {
    const int count = 1 + static_cast<int>(rng() % 60);
    std::vector<std::byte> bytes = random_varints(rng, count);
    // Sometimes a varint cut off at the end, sometimes one that overflows 64 bits.
    const int tail = static_cast<int>(rng() % 4);
    if (tail == 1) bytes.push_back(std::byte{0x80});
    if (tail == 2) {
      for (int i = 0; i < 9; ++i) bytes.push_back(std::byte{0xff});
      bytes.push_back(std::byte{0x02});
    }

    ByteSource in(bytes, "test");
    std::size_t pos = 0;
    while (pos < bytes.size()) {
      const std::optional<std::uint64_t> expected = naive_varint(bytes, pos);
      if (!expected) {
        CHECK_THROWS_AS(in.varint("value"), bn::Error);
        break;
      }
      CHECK(in.varint("value") == *expected);
      CHECK(in.offset() == pos);
    }
  }
}

TEST_CASE("the eight- and nine-byte boundary of the one-load path") {
  for (unsigned length = 1; length <= 10; ++length) {
    for (const std::uint64_t value : {std::uint64_t{0}, std::uint64_t{1}, (std::uint64_t{1} << (7 * (length - 1))) - 1,
                                      length == 10 ? ~std::uint64_t{0} : (std::uint64_t{1} << (7 * length)) - 1}) {
      if (canonical_length(value) > length) continue;
      std::vector<std::byte> bytes;
      put_varint(bytes, value, length);
      const std::size_t end = bytes.size();
      bytes.resize(end + 10, std::byte{0});  // followed by zeros: the one-load path is taken
      ByteSource in(bytes, "test");
      CHECK(in.varint("value") == value);
      CHECK(in.offset() == end);
    }
  }
}

// Where a column of varints ends, counted without decoding (ByteSource::offset_after_varints),
// against a byte-by-byte search for the bytes that end a varint: random bytes, so runs of
// continuation bytes of any length, from every start and for every count up to one past the ends
// there are; and on well-formed varints of every length, against where decoding them stops.
TEST_CASE("the end of the next n varints is where decoding n of them stops") {
  std::mt19937_64 rng(17);
  for (int round = 0; round < 300; ++round) {
    CAPTURE(round);
    std::vector<std::byte> bytes(rng() % 70);
    const unsigned high = static_cast<unsigned>(rng() % 4);  // how often a byte continues a varint
    for (std::byte& b : bytes) b = static_cast<std::byte>((rng() % 4 < high ? 0x80 : 0) | (rng() & 0x7f));
    for (std::size_t start = 0; start <= bytes.size(); ++start) {
      CAPTURE(start);
      ByteSource in(bytes, "test");
      in.seek(start);
      std::size_t pos = start;
      for (std::size_t count = 0;; ++count) {
        CAPTURE(count);
        if (count > 0) {  // pos moves past one more end byte, as a varint's decoder would
          while (pos < bytes.size() && std::to_integer<unsigned>(bytes[pos]) >= 0x80) ++pos;
          if (pos == bytes.size()) {
            CHECK(!in.offset_after_varints(count).has_value());
            break;
          }
          ++pos;
        }
        REQUIRE(in.offset_after_varints(count) == std::optional<std::size_t>(pos));
      }
    }
  }
}

TEST_CASE("the end of the next n well-formed varints is where decoding n of them stops") {
  std::mt19937_64 rng(18);
  for (int round = 0; round < 200; ++round) {
    const int count = 1 + static_cast<int>(rng() % 60);
    const std::vector<std::byte> bytes = random_varints(rng, count);
    ByteSource counted(bytes, "test"), decoded(bytes, "test");
    for (int n = 1; n <= count; ++n) {
      CAPTURE(n);
      decoded.varint("value");
      CHECK(counted.offset_after_varints(static_cast<std::size_t>(n)) == std::optional<std::size_t>(decoded.offset()));
    }
  }
}
