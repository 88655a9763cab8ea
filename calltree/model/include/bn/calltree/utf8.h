#pragma once
// Method names are UTF-8 (the native format stores nothing else, docs/profile-format.md). Every
// name an importer interns is checked here, and bytes that are not UTF-8 become U+FFFD, so that
// what one command reads another can write.

#include <cstddef>
#include <string>
#include <string_view>

namespace bn::calltree {

// Length of the well-formed UTF-8 sequence starting at s[i] (i < s.size()), or 0 if there is
// none: no overlong forms, surrogates or code points past U+10FFFF.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);
// True if `s` is well-formed UTF-8.
bool is_valid_utf8(std::string_view s);
// `s` with every byte that starts no well-formed sequence replaced by U+FFFD.
std::string repaired_utf8(std::string_view s);

}  // namespace bn::calltree
