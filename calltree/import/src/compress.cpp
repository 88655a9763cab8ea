#include "bn/calltree/compress.h"

#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "bn/base/error.h"

namespace bn::calltree {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{64} << 10;
// zlib's default trade-off and zstd's: an export of a large profile should not be CPU-bound
// on compression.
constexpr int kGzipLevel = 6;
constexpr int kZstdLevel = 3;

}  // namespace

Compression compression_for_name(const std::filesystem::path& path) {
  const auto ext = path.extension();
  if (ext == ".gz") return Compression::gzip;
  if (ext == ".zst") return Compression::zstd;
  return Compression::none;
}

std::filesystem::path uncompressed_name(const std::filesystem::path& path) {
  std::filesystem::path name = path;
  if (compression_for_name(name) != Compression::none) name.replace_extension();
  return name;
}

struct CompressingStreambuf::Impl {
  std::FILE* file = nullptr;
  Compression kind = Compression::none;
  std::string name;
  ProgressFn progress;
  std::vector<char> in = std::vector<char>(kBufferBytes);   // the put area: uncompressed bytes
  std::vector<char> out = std::vector<char>(kBufferBytes);  // compressed bytes on their way to the file
  std::uint64_t written = 0;
  std::string error;  // the first failure, empty while all is well
  bool finished = false;
  z_stream z{};
  bool z_ready = false;
  ZSTD_CCtx* zstd = nullptr;

  ~Impl() {
    if (z_ready) deflateEnd(&z);
    ZSTD_freeCCtx(zstd);
  }

  bool put(const char* data, std::size_t n) {
    if (n == 0) return true;
    if (std::fwrite(data, 1, n, file) != n) {
      error = std::strerror(errno != 0 ? errno : EIO);
      return false;
    }
    written += n;
    if (progress) progress(written, 0);
    return true;
  }

  bool gzip(const char* data, std::size_t n, bool end) {
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
    z.avail_in = static_cast<uInt>(n);
    for (;;) {
      z.next_out = reinterpret_cast<Bytef*>(out.data());
      z.avail_out = static_cast<uInt>(out.size());
      const int rc = deflate(&z, end ? Z_FINISH : Z_NO_FLUSH);
      if (rc == Z_STREAM_ERROR) {
        error = "gzip compression failed";
        return false;
      }
      if (!put(out.data(), out.size() - z.avail_out)) return false;
      if (end ? rc == Z_STREAM_END : (z.avail_in == 0 && z.avail_out != 0)) return true;
    }
  }

  bool zstd_stream(const char* data, std::size_t n, bool end) {
    ZSTD_inBuffer ib{data, n, 0};
    for (;;) {
      ZSTD_outBuffer ob{out.data(), out.size(), 0};
      const std::size_t left = ZSTD_compressStream2(zstd, &ob, &ib, end ? ZSTD_e_end : ZSTD_e_continue);
      if (ZSTD_isError(left)) {
        error = std::string("zstd compression failed: ") + ZSTD_getErrorName(left);
        return false;
      }
      if (!put(out.data(), ob.pos)) return false;
      if (end ? left == 0 : ib.pos == ib.size) return true;
    }
  }
};

CompressingStreambuf::CompressingStreambuf(std::FILE* file, Compression kind, std::string name, ProgressFn progress)
    : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.file = file;
  s.kind = kind;
  s.name = std::move(name);
  s.progress = std::move(progress);
  if (kind == Compression::gzip) {
    // 16 + MAX_WBITS: a gzip wrapper (RFC 1952) rather than a raw zlib stream.
    if (deflateInit2(&s.z, kGzipLevel, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
      throw Error("cannot write '" + s.name + "': cannot initialise the gzip encoder");
    s.z_ready = true;
  } else if (kind == Compression::zstd) {
    s.zstd = ZSTD_createCCtx();
    if (s.zstd == nullptr) throw Error("cannot write '" + s.name + "': cannot initialise the zstd encoder");
    // The checksum lets readers (ours refuses frames without one in native files) verify it.
    ZSTD_CCtx_setParameter(s.zstd, ZSTD_c_checksumFlag, 1);
    ZSTD_CCtx_setParameter(s.zstd, ZSTD_c_compressionLevel, kZstdLevel);
  }
  setp(s.in.data(), s.in.data() + s.in.size());
}

CompressingStreambuf::~CompressingStreambuf() = default;

// Hands the put area to the encoder (and, at the end, closes the compressed stream).
bool CompressingStreambuf::drain(bool end) {
  Impl& s = *impl_;
  if (!s.error.empty()) return false;
  const auto n = static_cast<std::size_t>(pptr() - pbase());
  bool ok = true;
  switch (s.kind) {
    case Compression::none:
      ok = s.put(pbase(), n);
      break;
    case Compression::gzip:
      ok = s.gzip(pbase(), n, end);
      break;
    case Compression::zstd:
      ok = s.zstd_stream(pbase(), n, end);
      break;
  }
  setp(s.in.data(), s.in.data() + s.in.size());
  return ok;
}

CompressingStreambuf::int_type CompressingStreambuf::overflow(int_type c) {
  if (!drain(false)) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

int CompressingStreambuf::sync() { return drain(false) ? 0 : -1; }

void CompressingStreambuf::finish() {
  if (!impl_->finished) {
    impl_->finished = true;
    if (drain(true) && std::fflush(impl_->file) != 0) impl_->error = std::strerror(errno);
  }
  throw_if_failed();
}

void CompressingStreambuf::throw_if_failed() const {
  if (!impl_->error.empty()) throw Error("cannot write '" + impl_->name + "': " + impl_->error);
}

}  // namespace bn::calltree
