#pragma once
// The text rules of a command line, in one place so the dispatcher, the runner, the handlers and
// the call-sequence parser agree on them: blanks separate words, line ends are never part of a
// word, and command words and choices compare in ASCII case only (method names and files are
// never folded).

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bn::search {

// ' ' or '\t': what separates words (tab completion breaks words at the same characters).
bool is_blank(char c);
// `s` without blanks and line ends ('\r' of a CRLF script, '\n') at either end.
std::string_view trim(std::string_view s);
// The first word of `s` and the trimmed rest; both empty when `s` is blank.
std::pair<std::string_view, std::string_view> split_word(std::string_view s);
// The blank-separated words of `s`.
std::vector<std::string_view> split_words(std::string_view s);
// `s` without one pair of matching quotes around it ("x" or 'x'), as the paper writes
// label ``bottleneck'' and shells quote file names.
std::string_view unquote(std::string_view s);

// ASCII lower case.
std::string lower(std::string_view s);
bool equals_nocase(std::string_view a, std::string_view b);
bool starts_with_nocase(std::string_view s, std::string_view prefix);

// A count and its noun, singular for exactly one: counted(1, "method") is "1 method",
// counted(3, "method") "3 methods"; nouns that do not just add an 's' give their plural
// (counted(2, "summary", "summaries")).
std::string counted(std::size_t n, std::string_view singular, std::string_view plural = {});

// `s` as it may be shown on a terminal: names come from profiles, and a profile must not be able
// to move the cursor, recolour the text or retitle the window. Control characters (C0, DEL and
// the C1 range U+0080-U+009F, which some terminals obey too) and the bidirectional overrides
// (U+202A-U+202E, U+2066-U+2069: they reorder what the reader sees) become `\x1b` and `\u202e`
// escapes; bytes that are not UTF-8 become `\xff`. Everything else is kept as it is.
std::string terminal_safe(std::string_view s);

}  // namespace bn::search
