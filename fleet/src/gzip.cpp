#include "gzip.h"

#include <zlib.h>

#include <algorithm>
#include <memory>

#include "bn/base/error.h"

namespace bn::fleet::detail {
namespace {

// zlib counts in uInt: feed at most this much at a time.
constexpr std::size_t kStep = std::size_t{1} << 30;

unsigned char* input(std::string_view bytes) {
  // zlib's next_in is not const-qualified but is only read.
  return reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data()));
}

}  // namespace

std::string gzip(std::string_view bytes) {
  z_stream z{};
  // 15 window bits + 16: a gzip header and trailer instead of zlib's. Level 1: the transfer
  // is on a network far faster than deflate at higher levels.
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw Error("gzip: out of memory");
  const std::unique_ptr<z_stream, int (*)(z_stream*)> end(&z, deflateEnd);
  std::string out;
  out.resize(deflateBound(&z, static_cast<uLong>(bytes.size())) + 64);
  std::size_t consumed = 0;
  z.next_out = reinterpret_cast<unsigned char*>(out.data());
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    const std::size_t chunk = std::min(kStep, bytes.size() - consumed);
    z.next_in = input(bytes.substr(consumed, chunk));
    z.avail_in = static_cast<uInt>(chunk);
    const std::size_t written = static_cast<std::size_t>(reinterpret_cast<char*>(z.next_out) - out.data());
    if (out.size() - written < 64) out.resize(out.size() * 2);
    z.next_out = reinterpret_cast<unsigned char*>(out.data()) + written;
    z.avail_out = static_cast<uInt>(std::min(kStep, out.size() - written));
    const bool last = consumed + chunk == bytes.size();
    rc = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
    if (rc == Z_STREAM_ERROR) throw Error("gzip: stream error");
    consumed += chunk - z.avail_in;
  }
  out.resize(static_cast<std::size_t>(reinterpret_cast<char*>(z.next_out) - out.data()));
  return out;
}

std::string gunzip(std::string_view bytes, std::uint64_t limit, std::string_view what) {
  z_stream z{};
  // 15 + 32: a gzip or zlib header, detected.
  if (inflateInit2(&z, 15 + 32) != Z_OK) throw Error(std::string(what) + ": out of memory");
  const std::unique_ptr<z_stream, int (*)(z_stream*)> end(&z, inflateEnd);
  std::string out;
  out.resize(std::min<std::uint64_t>(limit, std::max<std::size_t>(bytes.size() * 4, 4096)));
  std::size_t consumed = 0, produced = 0;
  for (;;) {
    if (produced == out.size()) {
      if (out.size() >= limit)
        throw Error(std::string(what) + ": the response expands past " + std::to_string(limit >> 20) + " MiB");
      out.resize(std::min<std::uint64_t>(limit, out.size() * 2));
    }
    const std::size_t chunk = std::min(kStep, bytes.size() - consumed);
    z.next_in = input(bytes.substr(consumed, chunk));
    z.avail_in = static_cast<uInt>(chunk);
    z.next_out = reinterpret_cast<unsigned char*>(out.data() + produced);
    z.avail_out = static_cast<uInt>(std::min(kStep, out.size() - produced));
    const uInt out_before = z.avail_out;
    const int rc = inflate(&z, Z_NO_FLUSH);
    consumed += chunk - z.avail_in;
    produced += out_before - z.avail_out;
    if (rc == Z_STREAM_END) break;
    if (rc != Z_OK && rc != Z_BUF_ERROR) throw Error(std::string(what) + ": corrupt gzip response");
    if (rc == Z_BUF_ERROR && consumed == bytes.size() && z.avail_out != 0)
      throw Error(std::string(what) + ": the gzip response is cut short");
  }
  out.resize(produced);
  return out;
}

}  // namespace bn::fleet::detail
