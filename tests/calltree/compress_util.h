#pragma once
// Test helpers: gzip and zstd encoders built on zlib and libzstd, streaming, so a test can make
// a small input that expands to gigabytes without holding the expansion.

#include <zlib.h>
#include <zstd.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace bn::test {

// `repeat` copies of `text`, gzip-compressed as one member.
inline std::vector<std::byte> gzip(std::string_view text, std::size_t repeat = 1) {
  z_stream z{};
  if (deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("deflateInit2 failed");
  std::vector<std::byte> out;
  std::vector<unsigned char> chunk(1 << 16);
  for (std::size_t i = 0; i <= repeat; ++i) {
    const bool last = i == repeat;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = last ? 0 : static_cast<uInt>(text.size());
    do {
      z.next_out = chunk.data();
      z.avail_out = static_cast<uInt>(chunk.size());
      deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
      const auto* p = reinterpret_cast<const std::byte*>(chunk.data());
      out.insert(out.end(), p, p + (chunk.size() - z.avail_out));
    } while (z.avail_out == 0);
  }
  deflateEnd(&z);
  return out;
}

// `repeat` copies of `text`, zstd-compressed as one frame.
inline std::vector<std::byte> zstd(std::string_view text, std::size_t repeat = 1) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);  // as the zstd command line does
  std::vector<std::byte> out;
  std::vector<char> chunk(ZSTD_CStreamOutSize());
  for (std::size_t i = 0; i <= repeat; ++i) {
    const bool last = i == repeat;
    ZSTD_inBuffer in{text.data(), last ? 0 : text.size(), 0};
    for (;;) {
      ZSTD_outBuffer ob{chunk.data(), chunk.size(), 0};
      const std::size_t left = ZSTD_compressStream2(cctx, &ob, &in, last ? ZSTD_e_end : ZSTD_e_continue);
      if (ZSTD_isError(left)) throw std::runtime_error(ZSTD_getErrorName(left));
      const auto* p = reinterpret_cast<const std::byte*>(chunk.data());
      out.insert(out.end(), p, p + ob.pos);
      if (last ? left == 0 : in.pos == in.size) break;
    }
  }
  ZSTD_freeCCtx(cctx);
  return out;
}

inline std::vector<std::byte> bytes_of(std::string_view text) {
  const auto* p = reinterpret_cast<const std::byte*>(text.data());
  return {p, p + text.size()};
}

}  // namespace bn::test
