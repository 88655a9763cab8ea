#pragma once
// Stable Java frame names. Analysis compares frames by name across runs (docs/architecture.md "Java frame names"), so
// names from async-profiler, FlameGraph scripts and our own agent must agree: `pkg.Class.method`
// with dots, no JIT/inlining annotations, and no per-run numbers in generated class names.

#include <string>
#include <string_view>

namespace bn::calltree {

// The normalised form of one frame name; the rules are listed in frame_names.cpp. Non-Java frames
// (native, kernel) only lose a trailing async-profiler `_[x]` annotation. Idempotent:
// normalize_frame(normalize_frame(f)) == normalize_frame(f).
std::string normalize_frame(std::string_view frame, bool keep_signatures = false);

}  // namespace bn::calltree
