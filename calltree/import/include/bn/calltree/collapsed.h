#pragma once
// Collapsed ("folded") stacks: the text format written by async-profiler (`-o collapsed`) and by
// FlameGraph's stackcollapse-*.pl scripts. One line per distinct stack, outermost frame first:
//
//   java/lang/Thread.run_[j];org/h2/Foo.bar_[j];__GI___libc_write 42
//
// Importing these lets the analyzer work on profiles recorded by other tools; frame names are
// normalised (frame_names.h) so two runs compare by name (docs/architecture.md "Java frame names").
//
// Reading: the count is the token after the LAST space (frames may contain spaces) and must be
// a plain non-negative decimal integer within int64; frames are split at every ';' and none may
// be empty. Lines with only spaces and tabs are skipped, a '\r' before '\n' is dropped, equal
// stacks on several lines add up, and a zero count creates the nodes without cost. Lines over
// 1 MiB, stacks over 65536 frames and NUL bytes are errors. The stacks become paths below the
// synthetic root of the tree (call_tree.h).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "bn/calltree/call_tree.h"
#include "bn/calltree/frame_names.h"
#include "bn/calltree/import_options.h"

namespace bn::calltree {

// Collapsed stacks have one value per stack: ImportOptions::sample_type and thread_frames do
// not apply (profile_loader refuses a sample type for them).
using CollapsedOptions = ImportOptions;

// Reads a whole collapsed file (plain, .gz or .zst, recognised by content). The tree has
// Metadata mode "collapsed", metric and unit "samples", and extra key "source" = file name.
// Throws bn::Error "file:line: what" on the first malformed line.
CallTree read_collapsed(const std::filesystem::path& path, const CollapsedOptions& options = {});
CallTree read_collapsed_bytes(std::span<const std::byte> bytes, std::string_view source_name,
                              const CollapsedOptions& options = {});

// Why `head`, the first bytes of a file named `source`, is not collapsed stacks: the reader's
// error for its first non-blank line ("x.txt:1: sample count 'world' is not a non-negative
// integer"), or nullopt when that line is a stack or does not end within `head`. A file whose
// first line is a stack and a later one malformed is malformed collapsed stacks, not this.
std::optional<std::string> first_line_not_a_stack(std::span<const std::byte> head, std::string_view source);

// One line per node with nonzero self cost, in preorder: "a;b;c 10". Throws bn::Error on a node
// whose name cannot be represented (empty, or containing ';', a newline or NUL), on a negative
// cost, or on a nonzero cost at the synthetic root (an empty stack). Output that would begin
// like a gzip or zstd file starts with a blank line instead, so it reads back as text.
void write_collapsed(const CallTree& tree, std::ostream& out);

}  // namespace bn::calltree
