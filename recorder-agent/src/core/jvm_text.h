#pragma once
// JVMTI hands out names in the JVM's "modified UTF-8" (NUL as C0 80, characters beyond U+FFFF
// as two encoded surrogates), which the profile format's strict UTF-8 check rejects: a thread
// called "worker-😀" would make the whole profile unreadable. Every name goes through here.

#include <string>
#include <string_view>

namespace bn::agent {

// Standard UTF-8 for a modified-UTF-8 string; NUL, lone surrogates and malformed bytes become
// U+FFFD.
std::string standard_utf8(std::string_view modified);

}  // namespace bn::agent
