#include "bn/calltree/decompress.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "bn/base/error.h"
#include "compress_util.h"

using namespace bn::calltree;
using bn::test::bytes_of;

namespace {

constexpr std::uint64_t kNoCap = ~std::uint64_t{0};

// Everything the input yields, read through a buffer of `chunk` bytes.
std::string drain(DecompressingInput input, std::size_t chunk = 4096) {
  std::string out, buffer(chunk, '\0');
  while (const std::size_t n = input.read(buffer)) out.append(buffer, 0, n);
  return out;
}

std::string drain_bytes(const std::vector<std::byte>& bytes, std::uint64_t cap = kNoCap, std::size_t chunk = 4096) {
  return drain(DecompressingInput::from_bytes(bytes, "in", cap), chunk);
}

std::vector<std::byte> concat(std::vector<std::byte> a, const std::vector<std::byte>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("compression is detected from magic bytes") {
  CHECK(detect_compression(bn::test::gzip("x")) == Compression::gzip);
  CHECK(detect_compression(bn::test::zstd("x")) == Compression::zstd);
  CHECK(detect_compression(bytes_of("\x50\x2a\x4d\x18....")) == Compression::zstd);  // skippable frame
  CHECK(detect_compression(bytes_of("a;b 1\n")) == Compression::none);
  CHECK(detect_compression(bytes_of("\x1f\x8b")) == Compression::none);  // too short to be gzip
  CHECK(detect_compression(bytes_of("")) == Compression::none);
  CHECK(compression_name(Compression::zstd) == "zstd");
}

TEST_CASE("plain, gzip and zstd inputs decode to the same bytes, whatever the read size") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "frame" + std::to_string(i % 97) + ";x " + std::to_string(i) + "\n";
  for (const auto& bytes : {bytes_of(text), bn::test::gzip(text), bn::test::zstd(text)}) {
    CHECK(drain_bytes(bytes) == text);
    CHECK(drain_bytes(bytes, kNoCap, 1) == text);
    CHECK(drain_bytes(bytes, text.size()) == text);  // exactly at the cap is allowed
  }
  CHECK(drain_bytes(bn::test::gzip("")).empty());
  CHECK(drain_bytes(bn::test::zstd("")).empty());
  CHECK(drain_bytes({}).empty());
}

TEST_CASE("concatenated gzip members and zstd frames are read as one stream") {
  CHECK(drain_bytes(concat(bn::test::gzip("a 1\n"), bn::test::gzip("b 2\n"))) == "a 1\nb 2\n");
  CHECK(drain_bytes(concat(bn::test::zstd("a 1\n"), bn::test::zstd("b 2\n"))) == "a 1\nb 2\n");
}

TEST_CASE("truncated and corrupt compressed data are errors naming the source") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i * 7919 % 10007) + " ";
  for (const auto& whole : {bn::test::gzip(text), bn::test::zstd(text)}) {
    const std::vector<std::byte> cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(whole.size() / 2));
    CHECK_THROWS_WITH_AS(drain_bytes(cut), doctest::Contains("in: truncated"), bn::Error);
    std::vector<std::byte> bad = whole;
    for (std::size_t i = 12; i < bad.size(); i += 7) bad[i] = std::byte{0x5a};
    CHECK_THROWS_WITH_AS(drain_bytes(bad), doctest::Contains("in: corrupt"), bn::Error);
  }
  CHECK_THROWS_WITH_AS(drain_bytes(concat(bn::test::gzip("a\n"), bytes_of("garbage"))),
                       doctest::Contains("in: corrupt gzip data near compressed byte"), bn::Error);
}

TEST_CASE("a compressed input expanding beyond the cap is refused") {
  const auto bomb = bn::test::zstd(std::string(1 << 20, '\0'), 256);  // 256 MiB of zeros
  CHECK(bomb.size() < 100000);
  CHECK_THROWS_WITH_AS(drain_bytes(bomb, 1 << 20),
                       "in: zstd data expands beyond the cap of 1048576 bytes (a decompression bomb?)", bn::Error);
  const auto gz = bn::test::gzip(std::string(1 << 20, '\0'), 16);
  CHECK_THROWS_WITH_AS(drain_bytes(gz, 1000),
                       "in: gzip data expands beyond the cap of 1000 bytes (a decompression bomb?)", bn::Error);
}

TEST_CASE("a missing file is an error naming it") {
  CHECK_THROWS_WITH_AS(DecompressingInput::open_file("/nonexistent/p.gz", kNoCap),
                       "cannot open '/nonexistent/p.gz': No such file or directory", bn::Error);
}
