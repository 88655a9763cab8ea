#include "bn/calltree/decompress.h"

#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <vector>

#include "bn/base/error.h"

namespace bn::calltree {
namespace {

// File reads happen in chunks of this size; it also bounds the bytes handed to zlib at once.
constexpr std::size_t kChunkBytes = std::size_t{64} << 10;

bool starts_with_bytes(std::span<const std::byte> head, std::initializer_list<unsigned> magic) {
  if (head.size() < magic.size()) return false;
  std::size_t i = 0;
  for (unsigned b : magic)
    if (std::to_integer<unsigned>(head[i++]) != b) return false;
  return true;
}

}  // namespace

Compression detect_compression(std::span<const std::byte> head) {
  if (head.size() < 4) return Compression::none;
  // RFC 1952: ID1 ID2 CM, with CM = 8 (deflate), the only method gzip defines.
  if (starts_with_bytes(head, {0x1f, 0x8b, 0x08})) return Compression::gzip;
  // RFC 8878: a zstd frame, or a skippable frame (magic 0x184D2A5?), both little-endian.
  if (starts_with_bytes(head, {0x28, 0xb5, 0x2f, 0xfd})) return Compression::zstd;
  if ((std::to_integer<unsigned>(head[0]) & 0xf0) == 0x50 && starts_with_bytes(head.subspan(1), {0x2a, 0x4d, 0x18}))
    return Compression::zstd;
  return Compression::none;
}

std::string_view compression_name(Compression c) {
  switch (c) {
    case Compression::gzip:
      return "gzip";
    case Compression::zstd:
      return "zstd";
    case Compression::none:
      break;
  }
  return "plain";
}

struct DecompressingInput::Impl {
  std::string source;
  std::uint64_t max_output = 0;
  std::uint64_t total_out = 0;
  std::uint64_t total_in = 0;  // raw bytes handed to the decoder so far, for error messages
  Compression kind = Compression::none;
  bool finished = false;

  // Raw input: the unconsumed bytes [in, in + in_len), refilled from `file` when it is set.
  std::ifstream file;
  bool from_file = false;
  std::vector<char> buffer;
  ProgressFn progress;
  std::uint64_t file_read = 0, file_size = 0;
  const char* in = nullptr;
  std::size_t in_len = 0;
  bool raw_eof = false;

  z_stream z{};
  bool z_ready = false;
  bool gzip_member_done = false;
  ZSTD_DCtx* zstd = nullptr;
  std::size_t zstd_hint = 1;  // last ZSTD_decompressStream result; 0 = frame complete

  ~Impl() {
    if (z_ready) inflateEnd(&z);
    ZSTD_freeDCtx(zstd);
  }

  [[noreturn]] void fail(const std::string& what) const { throw Error(source + ": " + what); }

  void refill() {
    if (in_len > 0 || raw_eof) return;
    if (!from_file) {
      raw_eof = true;
      return;
    }
    errno = 0;
    file.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<std::size_t>(file.gcount());
    if (got == 0) {
      if (file.bad())
        fail("read error after byte " + std::to_string(total_in) + ": " + std::strerror(errno != 0 ? errno : EIO));
      raw_eof = true;
      return;
    }
    in = buffer.data();
    in_len = got;
    file_read += got;
    if (progress) progress(file_read, file_size);
  }

  void consume(std::size_t n) {
    in += n;
    in_len -= n;
    total_in += n;
  }

  void start() {
    refill();
    kind = detect_compression(std::as_bytes(std::span(in, in_len)));
    if (kind == Compression::gzip) {
      // 16 + MAX_WBITS: accept only the gzip wrapper (RFC 1952), checking its CRC and length.
      if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) fail("cannot initialise the gzip decoder");
      z_ready = true;
    } else if (kind == Compression::zstd) {
      zstd = ZSTD_createDCtx();
      if (zstd == nullptr) fail("cannot initialise the zstd decoder");
    }
  }

  std::size_t read_plain(std::span<char> out) {
    refill();
    const std::size_t n = std::min(out.size(), in_len);
    if (n == 0) return 0;  // `in` may be null at the end of an empty input: memcpy(_, nullptr, 0) is undefined
    std::memcpy(out.data(), in, n);
    consume(n);
    return n;
  }

  std::size_t read_gzip(std::span<char> out) {
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    while (z.avail_out == out.size()) {
      refill();
      if (in_len == 0) {
        if (gzip_member_done) {
          finished = true;
          break;
        }
        fail("truncated gzip data (" + std::to_string(total_in) + " compressed bytes)");
      }
      // `gzip a b > c` and `cat x.gz y.gz` give several members; each is a complete stream.
      if (gzip_member_done) {
        inflateReset(&z);
        gzip_member_done = false;
      }
      const auto offered = static_cast<uInt>(std::min<std::size_t>(in_len, kChunkBytes));
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in));
      z.avail_in = offered;
      const int rc = inflate(&z, Z_NO_FLUSH);
      consume(offered - z.avail_in);
      if (rc == Z_STREAM_END) {
        gzip_member_done = true;
      } else if (rc != Z_OK && !(rc == Z_BUF_ERROR && z.avail_in == 0)) {
        fail("corrupt gzip data near compressed byte " + std::to_string(total_in) + ": " +
             (z.msg != nullptr ? z.msg : "error " + std::to_string(rc)));
      }
    }
    return out.size() - z.avail_out;
  }

  std::size_t read_zstd(std::span<char> out) {
    ZSTD_outBuffer ob{out.data(), out.size(), 0};
    while (ob.pos == 0) {
      refill();
      if (in_len == 0 && zstd_hint == 0) {
        finished = true;
        break;
      }
      const bool had_input = in_len > 0;
      ZSTD_inBuffer ib{in, in_len, 0};
      const std::size_t rc = ZSTD_decompressStream(zstd, &ob, &ib);
      if (ZSTD_isError(rc))
        fail("corrupt zstd data near compressed byte " + std::to_string(total_in + ib.pos) + ": " +
             ZSTD_getErrorName(rc));
      consume(ib.pos);
      zstd_hint = rc;
      // With no input left and nothing flushed, the frame can never complete.
      if (!had_input && ob.pos == 0) fail("truncated zstd data (" + std::to_string(total_in) + " compressed bytes)");
    }
    return ob.pos;
  }
};

DecompressingInput::DecompressingInput(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) { impl_->start(); }
DecompressingInput::DecompressingInput(DecompressingInput&&) noexcept = default;
DecompressingInput& DecompressingInput::operator=(DecompressingInput&&) noexcept = default;
DecompressingInput::~DecompressingInput() = default;

DecompressingInput DecompressingInput::open_file(const std::filesystem::path& path, std::uint64_t max_output_bytes,
                                                 ProgressFn progress) {
  auto impl = std::make_unique<Impl>();
  impl->progress = std::move(progress);
  impl->source = path.string();
  impl->max_output = max_output_bytes;
  impl->from_file = true;
  impl->file.open(path, std::ios::binary);
  if (!impl->file) throw Error("cannot open '" + path.string() + "': " + std::strerror(errno));
  std::error_code ec;
  impl->file_size = std::filesystem::file_size(path, ec);
  if (ec) impl->file_size = 0;  // a pipe or device: size unknown
  impl->buffer.resize(kChunkBytes);
  return DecompressingInput(std::move(impl));
}

DecompressingInput DecompressingInput::from_bytes(std::span<const std::byte> bytes, std::string source_name,
                                                  std::uint64_t max_output_bytes) {
  auto impl = std::make_unique<Impl>();
  impl->source = std::move(source_name);
  impl->max_output = max_output_bytes;
  impl->in = reinterpret_cast<const char*>(bytes.data());
  impl->in_len = bytes.size();
  return DecompressingInput(std::move(impl));
}

std::size_t DecompressingInput::read(std::span<char> out) {
  Impl& s = *impl_;
  if (out.empty() || s.finished) return 0;
  if (s.kind == Compression::none) return s.read_plain(out);
  // Ask for at most one byte beyond the cap: enough to notice the cap is exceeded without
  // expanding further.
  const std::uint64_t room = s.max_output - s.total_out;
  const std::uint64_t wanted = room >= out.size() ? out.size() : room + 1;
  const auto limit = static_cast<std::size_t>(std::min<std::uint64_t>(wanted, std::numeric_limits<uInt>::max()));
  const std::size_t n = s.kind == Compression::gzip ? s.read_gzip(out.first(limit)) : s.read_zstd(out.first(limit));
  s.total_out += n;
  if (s.total_out > s.max_output)
    s.fail(std::string(compression_name(s.kind)) + " data expands beyond the cap of " + std::to_string(s.max_output) +
           " bytes (a decompression bomb?)");
  return n;
}

Compression DecompressingInput::compression() const { return impl_->kind; }
const std::string& DecompressingInput::source_name() const { return impl_->source; }

}  // namespace bn::calltree
