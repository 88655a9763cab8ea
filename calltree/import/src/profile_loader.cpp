#include "bn/calltree/profile_loader.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>

#include "bn/base/error.h"
#include "bn/calltree/decompress.h"

namespace bn::calltree {
namespace {

// Enough bytes to tell the native magic from anything else.
constexpr std::size_t kSniffBytes = 8;
// Enough decompressed bytes to see a JFR magic and tell a protobuf message from text (pprof.h).
constexpr std::size_t kTextSniffBytes = 256;

std::vector<std::byte> read_head(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open profile '" + path.string() + "': " + std::strerror(errno));
  std::array<char, kSniffBytes> buffer{};
  in.read(buffer.data(), buffer.size());
  // Copied by range, not memcpy: an empty file gives an empty vector whose data() may be null,
  // and memcpy from or to null is undefined even for 0 bytes (UBSan found it).
  const auto* first = reinterpret_cast<const std::byte*>(buffer.data());
  return std::vector<std::byte>(first, first + in.gcount());
}

// The first decompressed bytes: pprof files are usually gzipped, collapsed stacks may be.
std::vector<std::byte> read_decompressed_head(const std::filesystem::path& path, const ImportOptions& options) {
  DecompressingInput input = DecompressingInput::open_file(path, options.max_decompressed_bytes);
  std::vector<char> buffer(kTextSniffBytes);
  std::size_t got = 0;
  while (got < buffer.size()) {
    const std::size_t n = input.read(std::span(buffer).subspan(got));
    if (n == 0) break;
    got += n;
  }
  const auto bytes = std::as_bytes(std::span(buffer).first(got));
  return {bytes.begin(), bytes.end()};
}

// A file too short to say what it is: empty (an interrupted copy, a recorder that never wrote), or
// the start of a native profile cut inside its header. Anything else is left to the text reader.
void refuse_too_short(const std::filesystem::path& path, std::span<const std::byte> head) {
  const std::string prefix = "cannot open profile '" + path.string() + "': ";
  if (head.empty()) throw Error(prefix + "the file is empty (0 bytes)");
  if (head.size() < kProfileMagic.size() && std::equal(head.begin(), head.end(), kProfileMagic.begin()))
    throw Error(prefix + "the file is cut off after " + std::to_string(head.size()) +
                " bytes, inside the 16-byte header of a native profile");
}

// A file no row recognises and the fallback refuses: the formats tried, and the fallback's reason.
[[noreturn]] void refuse_unknown(const std::filesystem::path& path, const std::string& why) {
  std::string tried;
  const std::span<const ProfileFormat> formats = profile_formats();
  for (std::size_t i = 0; i < formats.size(); ++i)
    tried.append(i == 0 ? "" : i + 1 == formats.size() ? " or " : ", ").append(formats[i].title);
  throw Error("cannot open profile '" + path.string() + "': not a profile this tool reads (" + tried + "): " + why);
}

OpenedProfile open_any(const std::filesystem::path& path, const OpenOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error("cannot open profile '" + path.string() + "': it is a directory");
  const ProfileHead head(path, options.import);
  refuse_too_short(path, head.stored());
  for (const ProfileFormat& format : profile_formats()) {
    if (format.sniff != nullptr && !format.sniff(head)) continue;
    if (format.refuse != nullptr)
      if (const std::optional<std::string> why = format.refuse(head)) refuse_unknown(path, *why);
    return {format.read(path, options), &format};
  }
  throw Error("cannot open profile '" + path.string() + "': no format recognises it");  // the fallback takes all
}

}  // namespace

ProfileHead::ProfileHead(std::filesystem::path path, const ImportOptions& options)
    : path_(std::move(path)), options_(options) {}

std::span<const std::byte> ProfileHead::stored() const {
  if (!stored_) stored_ = read_head(path_);
  return *stored_;
}

std::span<const std::byte> ProfileHead::decompressed() const {
  if (!decompressed_) decompressed_ = read_decompressed_head(path_, options_);
  return *decompressed_;
}

OpenedProfile open_profile(const std::filesystem::path& path, const OpenOptions& options) {
  try {
    return open_any(path, options);
  } catch (const std::bad_alloc&) {
    throw Error("cannot read profile '" + path.string() + "': out of memory");
  }
}

}  // namespace bn::calltree
