#include "bn/calltree/profile_loader.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "bn/iface/error.h"

namespace bn::calltree {
namespace {

// Enough bytes to tell the native magic from text or a compressed text file.
constexpr std::size_t kSniffBytes = 8;

std::vector<std::byte> read_head(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open profile '" + path.string() + "': " + std::strerror(errno));
  std::array<char, kSniffBytes> buffer{};
  in.read(buffer.data(), buffer.size());
  const auto got = static_cast<std::size_t>(in.gcount());
  std::vector<std::byte> head(got);
  std::memcpy(head.data(), buffer.data(), got);
  return head;
}

}  // namespace

OpenedProfile open_profile(const std::filesystem::path& path, const OpenOptions& options) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error("cannot open profile '" + path.string() + "': it is a directory");
  if (is_native_profile(read_head(path))) {
    return {read_profile(path, LoadOptions{options.accept_unfinished}), "native"};
  }
  return {LoadedProfile{read_collapsed(path, options.collapsed), false, {}, {}}, "collapsed"};
}

}  // namespace bn::calltree
