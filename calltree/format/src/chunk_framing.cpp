#include "chunk_framing.h"

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_d_stableOutBuffer: a growing payload written in place
#include <zstd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

#include "bn/base/error.h"

namespace bn::calltree {
namespace {

// Caps the decoder's window buffer (8 MiB). Frames from encode_chunk use a smaller window, so
// only a forged frame header could ask for more, and it must not make the reader allocate it.
constexpr int kMaxWindowLog = 23;
constexpr std::uint32_t kZstdMagic = 0xFD2FB528;
constexpr std::size_t kMinFrameSize = 9;  // magic, frame header byte, empty last block, checksum

struct CCtxFree {
  void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};
struct DCtxFree {
  void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

void check_zstd(std::size_t ret, const std::string& context) {
  if (ZSTD_isError(ret)) throw Error(context + ": " + ZSTD_getErrorName(ret));
}

}  // namespace

void put_u32le(std::vector<std::byte>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::byte>(v >> (8 * i)));
}

std::uint32_t get_u32le(std::span<const std::byte> at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | std::to_integer<std::uint32_t>(at[i]);
  return v;
}

bool is_valid_tag(ChunkTag tag) {
  const char c0 = tag.chars[0];
  if (!((c0 >= 'A' && c0 <= 'Z') || (c0 >= 'a' && c0 <= 'z'))) return false;
  return std::all_of(tag.chars.begin() + 1, tag.chars.end(), [](char c) { return c >= 0x20 && c <= 0x7e; });
}

ChunkTag tag_at(std::span<const std::byte> at) {
  return ChunkTag(std::array<char, 4>{static_cast<char>(at[0]), static_cast<char>(at[1]), static_cast<char>(at[2]),
                                      static_cast<char>(at[3])});
}

std::string describe_tag(ChunkTag tag) {
  std::string out = "'";
  for (char c : tag.chars) {
    if (c >= 0x20 && c <= 0x7e && c != '\\') {
      out += c;
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
      out += hex;
    }
  }
  return out + "'";
}

struct ChunkCompressor::Context {
  std::unique_ptr<ZSTD_CCtx, CCtxFree> cctx{ZSTD_createCCtx()};
  bool configured = false;
};

ChunkCompressor::ChunkCompressor(int level) : context_(std::make_unique<Context>()), level_(level) {}
ChunkCompressor::~ChunkCompressor() = default;

std::span<const std::byte> ChunkCompressor::encode(ChunkTag tag, std::span<const std::byte> raw) {
  const std::string context = "cannot encode chunk " + describe_tag(tag);
  if (!is_valid_tag(tag)) throw Error(context + ": a tag is an ASCII letter and three printable characters");
  if (raw.size() > kMaxChunkRawSize)
    throw Error(context + ": " + std::to_string(raw.size()) + " bytes exceed the chunk limit of " +
                std::to_string(kMaxChunkRawSize));
  ZSTD_CCtx* cctx = context_->cctx.get();
  if (cctx == nullptr) throw Error(context + ": out of memory");
  // The parameters stay with the context; ZSTD_compress2 always starts a new frame, forgetting
  // whatever a failed one left.
  if (!context_->configured) {
    check_zstd(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level_), context);
    check_zstd(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1), context);
    check_zstd(ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, kMaxWindowLog), context);
    context_->configured = true;
  }
  // Header: the tag, the payload size (below, once known) and the raw size, u32le each.
  out_.resize(kChunkHeaderSize + ZSTD_compressBound(raw.size()));
  std::memcpy(out_.data(), tag.chars.data(), 4);
  const auto raw_size = static_cast<std::uint32_t>(raw.size());
  for (int i = 0; i < 4; ++i) out_[8 + i] = static_cast<std::byte>(raw_size >> (8 * i));
  const std::size_t n =
      ZSTD_compress2(cctx, out_.data() + kChunkHeaderSize, out_.size() - kChunkHeaderSize, raw.data(), raw.size());
  check_zstd(n, context);
  out_.resize(kChunkHeaderSize + n);
  for (int i = 0; i < 4; ++i) out_[4 + i] = static_cast<std::byte>(n >> (8 * i));
  return out_;
}

std::vector<std::byte> encode_chunk(ChunkTag tag, std::span<const std::byte> raw) {
  ChunkCompressor compressor;
  const std::span<const std::byte> chunk = compressor.encode(tag, raw);
  return {chunk.begin(), chunk.end()};
}

ChunkHeader chunk_header_fields(std::span<const std::byte> at) {
  return {tag_at(at), get_u32le(at.subspan(4)), get_u32le(at.subspan(8))};
}

ChunkHeader decode_chunk_header(std::span<const std::byte> at, const std::string& context) {
  const ChunkHeader h = chunk_header_fields(at);
  if (!is_valid_tag(h.tag))
    throw Error(context + ": invalid chunk tag " + describe_tag(h.tag) +
                " (expected an ASCII letter and three printable characters)");
  if (h.raw_size > kMaxChunkRawSize)
    throw Error(context + ": declares " + std::to_string(h.raw_size) + " raw bytes, more than the limit of " +
                std::to_string(kMaxChunkRawSize));
  if (h.payload_size < kMinFrameSize)
    throw Error(context + ": declares a payload of " + std::to_string(h.payload_size) +
                " bytes, too small for a zstd frame");
  return h;
}

struct ChunkDecompressor::Context {
  std::unique_ptr<ZSTD_DCtx, DCtxFree> dctx{ZSTD_createDCtx()};
};

ChunkDecompressor::ChunkDecompressor() : zstd_(std::make_unique<Context>()) {
  if (!zstd_->dctx) throw std::bad_alloc();
}

ChunkDecompressor::~ChunkDecompressor() = default;

std::span<const std::byte> ChunkDecompressor::reserve(std::uint32_t raw_size) {
  // One byte of slack tells a frame that holds more than declared from one that fits.
  const std::size_t size = std::size_t{raw_size} + 1;
  if (buffer_.capacity() < size) {
    buffer_ = FreshBuffer();  // the old buffer goes first: never both at once
    buffer_ = FreshBuffer(size);
  }
  return {buffer_.data(), raw_size};
}

namespace {

// Frame header (RFC 8878 sec. 3.1.1): magic, then the descriptor whose bit 2 says a content
// checksum follows the last block. Without it corruption could go unnoticed.
const char* frame_header_fault(std::span<const std::byte> payload) {
  if (payload.size() < kMinFrameSize || get_u32le(payload) != kZstdMagic) return "payload is not a zstd frame";
  if ((std::to_integer<unsigned>(payload[4]) & 0x04) == 0) return "zstd frame has no content checksum";
  return nullptr;
}

// A new frame, with every parameter as the reader sets it (a reset of the session alone keeps the
// last frame's output mode).
std::size_t start_frame(ZSTD_DCtx* dctx, bool output_in_place) {
  std::size_t ret = ZSTD_DCtx_reset(dctx, ZSTD_reset_session_and_parameters);
  if (!ZSTD_isError(ret)) ret = ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, kMaxWindowLog);
  if (!ZSTD_isError(ret) && output_in_place) ret = ZSTD_DCtx_setParameter(dctx, ZSTD_d_stableOutBuffer, 1);
  return ret;
}

// Compressed bytes given to zstd per call while a payload grows: ~100-200 KB of NODE columns out
// per piece, a few hundred wake-ups of the decoders at 10M nodes.
constexpr std::size_t kGrowthPiece = std::size_t{128} << 10;

}  // namespace

std::span<const std::byte> ChunkDecompressor::decompress(std::span<const std::byte> payload, std::uint32_t raw_size,
                                                         const std::string& context) {
  if (const char* fault = frame_header_fault(payload)) throw Error(context + ": " + fault);
  ZSTD_DCtx* dctx = zstd_->dctx.get();
  check_zstd(start_frame(dctx, false), context);
  reserve(raw_size);
  const std::size_t size = std::size_t{raw_size} + 1;
  ZSTD_inBuffer in{payload.data(), payload.size(), 0};
  ZSTD_outBuffer out{buffer_.data(), size, 0};
  std::size_t ret = 0;
  do {
    ret = ZSTD_decompressStream(dctx, &out, &in);
    if (ZSTD_isError(ret)) throw Error(context + ": corrupt payload: " + ZSTD_getErrorName(ret));
  } while (ret != 0 && out.pos < out.size && in.pos < in.size);
  if (out.pos > raw_size)
    throw Error(context + ": payload decompresses to more than the declared " + std::to_string(raw_size) + " bytes");
  if (ret != 0) throw Error(context + ": zstd frame is cut off");
  if (out.pos != raw_size)
    throw Error(context + ": payload decompresses to " + std::to_string(out.pos) + " bytes, but the header declares " +
                std::to_string(raw_size));
  if (in.pos != in.size)
    throw Error(context + ": " + std::to_string(in.size - in.pos) + " bytes follow the zstd frame inside the payload");
  return {buffer_.data(), out.pos};
}

void ChunkDecompressor::decompress_growing(std::span<const std::byte> payload, std::uint32_t raw_size,
                                           GrowingPayload& growing) {
  ZSTD_DCtx* dctx = zstd_->dctx.get();
  if (frame_header_fault(payload) != nullptr || ZSTD_isError(start_frame(dctx, true))) return growing.finish(false);
  reserve(raw_size);
  // The same size in every call, as ZSTD_d_stableOutBuffer requires.
  ZSTD_outBuffer out{buffer_.data(), std::size_t{raw_size} + 1, 0};
  ZSTD_inBuffer in{payload.data(), 0, 0};
  std::size_t ret = 0;
  do {
    in.size = std::min(payload.size(), in.pos + kGrowthPiece);
    ret = ZSTD_decompressStream(dctx, &out, &in);
    if (ZSTD_isError(ret)) return growing.finish(false);
    growing.publish(out.pos);
  } while (ret != 0 && out.pos < out.size && in.pos < payload.size());
  growing.finish(ret == 0 && out.pos == raw_size && in.pos == payload.size());
}

}  // namespace bn::calltree
