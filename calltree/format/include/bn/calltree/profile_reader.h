#pragma once
// Reading the native profile format (docs/profile-format.md). Every malformed input gives a
// bn::Error naming the source, the byte offset or chunk and what is wrong; nothing is allocated
// from a declared size before the bytes backing it are present.

#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bn/base/error.h"
#include "bn/calltree/call_tree.h"
#include "bn/calltree/profile_format.h"

namespace bn::calltree {

struct LoadOptions {
  // Accept a file without END chunk (a recorder killed by SIGKILL): keep every complete chunk,
  // ignore a cut-off last chunk, and report it in LoadedProfile::unfinished/warning.
  bool accept_unfinished = false;
};

struct LoadedProfile {
  CallTree tree;
  bool unfinished = false;  // no END chunk (only with LoadOptions::accept_unfinished)
  std::string warning;      // one line explaining `unfinished`, empty otherwise
  // Ancillary chunks this reader does not interpret, decompressed, in file order.
  std::vector<std::pair<ChunkTag, std::vector<std::byte>>> extra_chunks;
};

// What read_profile throws for a file that ends before its END chunk when unfinished files are not
// accepted: a truncated copy, or a recorder that did not finish. Its own type so that a front end
// can say how to read the complete chunks anyway.
class UnfinishedProfileError : public Error {
 public:
  using Error::Error;
};

LoadedProfile read_profile(const std::filesystem::path& path, const LoadOptions& options = {});
LoadedProfile read_profile_bytes(std::span<const std::byte> bytes, std::string_view source_name,
                                 const LoadOptions& options = {});
// Whether the file's last chunk is an END chunk, judged from its last bytes alone: a cheap test
// for a file a recorder is still appending to (a long recording's file is re-read from byte 0
// by read_profile). False if the file is missing or shorter. read_profile still decides whether
// a file that passes is valid.
bool ends_with_end_chunk(const std::filesystem::path& path);
// True if `head` (the first bytes of a file, at least 8) starts with the native magic.
bool is_native_profile(std::span<const std::byte> head);

}  // namespace bn::calltree
