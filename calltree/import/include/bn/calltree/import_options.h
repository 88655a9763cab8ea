#pragma once
// What every reader of another tool's format shares (collapsed stacks, pprof, JFR): how frame
// names are normalised (frame_names.h, docs/architecture.md "Java frame names"), the cap on decompressed bytes, which
// of several values a file holds becomes the cost, and how far a long read has got.

#include <cstdint>
#include <functional>
#include <string>

namespace bn::calltree {

// Told how many bytes of the file (as stored, before decompression) have been consumed and the
// file's size (0 if unknown). Called often (every 64 KiB); a listener that draws decides how
// often to redraw. Libraries never print (docs/architecture.md "Libraries never print"): the command-line tool draws.
using ProgressFn = std::function<void(std::uint64_t done_bytes, std::uint64_t total_bytes)>;

struct ImportOptions {
  // Keep JVM signatures (`Foo.bar(I)V`) so overloads stay apart; dropped by default.
  bool keep_signatures = false;
  // Apply normalize_frame to every frame; off keeps the file's names verbatim.
  bool normalize = true;
  // A compressed input that expands beyond this many bytes is refused (decompression bomb).
  std::uint64_t max_decompressed_bytes = std::uint64_t{4} << 30;
  // pprof: the sample type (ValueType.type, e.g. "cpu", "alloc_space") whose values become the
  // costs; JFR: the event kind ("cpu", "native", "monitor-enter", "monitor-wait", "park").
  // Empty: the format's default (docs/formats.md). Collapsed stacks have one value and refuse it.
  std::string sample_type{};
  // Put the sampled thread above the outermost frame as a `[thread NAME]` frame (pprof: the
  // string label "thread"; JFR: the event's thread). Off by default so that recordings by
  // different tools compare frame by frame.
  bool thread_frames = false;
  ProgressFn progress{};
};

}  // namespace bn::calltree
