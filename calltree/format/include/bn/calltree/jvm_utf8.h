#pragma once
// Names from JVMTI (GetMethodName, GetClassSignature) are in the JVM's "modified UTF-8" (JNI
// spec, "Modified UTF-8 Strings"): NUL is C0 80 and a supplementary character is a surrogate
// pair of two 3-byte sequences. The native profile format stores standard UTF-8 and its writer
// refuses anything else, so the agent converts every name first.

#include <string>
#include <string_view>

namespace bn::calltree {

// Standard UTF-8 for `modified`: C0 80 becomes NUL, surrogate pairs become 4-byte sequences,
// well-formed UTF-8 is kept, and any other byte (a lone surrogate, a stray continuation byte)
// becomes U+FFFD, so the result is always valid and a damaged name still shows where it broke.
std::string utf8_from_modified_utf8(std::string_view modified);

}  // namespace bn::calltree
