#pragma once
// The agent's only output besides the profile: one line on the JVM's stderr, prefixed so the
// user can tell it from the program's own output.

#include <cstdio>
#include <string>

namespace bn::agent {

inline void report(const std::string& message) { std::fprintf(stderr, "bottlenecks agent: %s\n", message.c_str()); }

}  // namespace bn::agent
