#include "bn/repl/dispatch.h"

#include <algorithm>

#include "bn/base/error.h"
#include "bn/search/text.h"

namespace bn::repl {
namespace {

std::string word_of(std::string_view name, int index) {
  const auto [first, rest] = search::split_word(name);
  return std::string(index == 0 ? first : rest);
}

std::vector<std::string_view> distinct_words(const std::vector<const Command*>& rows, int index) {
  std::vector<std::string_view> out;
  for (const Command* c : rows) {
    const auto [first, rest] = search::split_word(c->name);
    const std::string_view w = index == 0 ? first : rest;
    if (!w.empty() && std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  }
  return out;
}

std::string join(const std::vector<std::string_view>& words, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) out += (i ? std::string(sep) : "") + std::string(words[i]);
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The one word of `known` that `typed` names exactly or as a unique prefix; throws otherwise.
std::string_view resolve_word(std::string_view typed, const std::vector<std::string_view>& known,
                              const std::string& what) {
  std::vector<std::string_view> prefixed;
  for (std::string_view k : known) {
    if (search::equals_nocase(k, typed)) return k;
    if (search::starts_with_nocase(k, typed)) prefixed.push_back(k);
  }
  if (prefixed.size() == 1) return prefixed.front();
  if (prefixed.size() > 1)
    throw Error("ambiguous " + what + " '" + std::string(typed) + "': it could be " + join(prefixed, ", "));
  const std::string_view guess = closest_match(typed, known);
  throw Error("unknown " + what + " '" + std::string(typed) + "'" +
              (guess.empty() ? "; one of " + join(known, ", ") : "; did you mean '" + std::string(guess) + "'?"));
}

std::vector<const Command*> rows_with_first_word(std::string_view first) {
  std::vector<const Command*> rows;
  for (const Command& c : command_table())
    if (word_of(c.name, 0) == first) rows.push_back(&c);
  return rows;
}

std::vector<const Command*> all_rows() {
  std::vector<const Command*> rows;
  for (const Command& c : command_table()) rows.push_back(&c);
  return rows;
}

void keep_prefixed(std::vector<std::string>& words, std::string_view prefix) {
  std::erase_if(words, [&](const std::string& w) { return !search::starts_with_nocase(w, prefix); });
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
}

// Whether text[i] ends a command (split_commands); a ';' at the end of the text does when the text
// is `closed` (a whole line), not when it is what is typed before the cursor.
bool ends_command(std::string_view text, std::size_t i, bool closed) {
  if (text[i] == '\n') return true;
  if (text[i] != ';') return false;
  return i + 1 == text.size() ? closed : search::is_blank(text[i + 1]);
}

}  // namespace

std::vector<std::string_view> split_commands(std::string_view text) {
  std::vector<std::string_view> commands;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (ends_command(text, i, true)) {
      commands.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  commands.push_back(text.substr(start));
  return commands;
}

std::string_view closest_match(std::string_view typed, const std::vector<std::string_view>& known) {
  std::string_view best;
  std::size_t best_distance = 0;
  for (std::string_view k : known) {
    const std::size_t d = edit_distance(search::lower(typed), search::lower(k));
    if (best.empty() || d < best_distance) {
      best = k;
      best_distance = d;
    }
  }
  // A plausible typo changes at most a third of the word (and at least one letter may differ).
  return best_distance <= std::max<std::size_t>(1, typed.size() / 3) ? best : std::string_view{};
}

Invocation parse_command(std::string_view line) {
  const auto [typed_first, rest] = search::split_word(line);
  const std::string_view first = resolve_word(typed_first, distinct_words(all_rows(), 0), "command");
  const std::vector<const Command*> rows = rows_with_first_word(first);
  const std::vector<std::string_view> seconds = distinct_words(rows, 1);
  const Command* bare = nullptr;
  for (const Command* c : rows)
    if (word_of(c->name, 1).empty()) bare = c;
  if (seconds.empty() || (rest.empty() && bare)) return {bare, rest};
  if (rest.empty()) throw Error("'" + std::string(first) + "' needs one of: " + join(seconds, ", "));
  const auto [typed_second, args] = search::split_word(rest);
  const std::string_view second = resolve_word(typed_second, seconds, "'" + std::string(first) + "' setting");
  for (const Command* c : rows)
    if (word_of(c->name, 1) == second) return {c, args};
  throw Error("internal: command table lost '" + std::string(second) + "'");
}

Output call(Context& context, const Invocation& invocation) {
  const Command& row = context.row(*invocation.command);
  return row.handler(context, match_arguments(row, invocation.args));
}

namespace {

// Method names that may end the call sequence `current` ("a;b;ru"): after "a;b;" only the
// methods that a;b calls, each returned with the typed head so it replaces the whole word. A gap
// `..` (once a '.' is typed, so that a single callee still completes at once, and when the head
// calls something) and the aspects `:NAME` are offered too; after a gap
// ("a;..;") any method may follow. A name typed in its short form, or not typed yet, completes
// in its short form ("Foo.r" to "Foo.run", not "org.x.Foo.run"), unless two of the candidates
// share that short name.
std::vector<std::string> complete_call_sequence(Context& context, std::string_view current) {
  const std::size_t semi = current.rfind(';');
  const std::string_view head = semi == std::string_view::npos ? std::string_view{} : current.substr(0, semi + 1);
  const std::string_view typed = current.substr(head.size());
  std::vector<std::string_view> names = context.methods().complete(typed);
  std::vector<std::string> extra;
  if (!head.empty() && !typed.empty() && iface::kGapText.starts_with(typed)) extra.emplace_back(iface::kGapText);
  for (const auto& [name, pattern] : context.session().aspects().all())
    if (std::string_view(":" + name).starts_with(typed)) extra.push_back(":" + name);
  if (!head.empty() && !head.ends_with(std::string(iface::kGapText) + ";")) {
    iface::Profile& profile = context.session().profile();
    try {
      const std::vector<std::string_view> callees =
          profile.bottom_extensions(context.resolve(head.substr(0, head.size() - 1)));
      std::erase_if(names, [&](std::string_view n) { return !std::binary_search(callees.begin(), callees.end(), n); });
      if (callees.empty()) std::erase(extra, std::string(iface::kGapText));
    } catch (const Error&) {
      return {};  // the typed head has no root: nothing can complete it
    }
  }
  std::vector<std::string> shorts;
  shorts.reserve(names.size());
  for (std::string_view name : names) shorts.push_back(search::short_name(name));
  std::vector<std::string> out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const bool by_short =
        (typed.empty() || !names[i].starts_with(typed)) && std::count(shorts.begin(), shorts.end(), shorts[i]) == 1;
    out.push_back(std::string(head) + (by_short ? shorts[i] : std::string(names[i])));
  }
  for (const std::string& e : extra) out.push_back(std::string(head) + e);
  std::sort(out.begin(), out.end());
  return out;
}

// Candidates for the argument `arg` (null: none is expected there).
Completion complete_argument(Context& context, const Arg* arg, std::string_view current) {
  Completion out;
  if (!arg) return out;
  if (arg->kind == ArgKind::kChoice)
    for (const Alternative& a : alternatives(*arg))
      if (!a.keyword.empty()) out.words.emplace_back(a.keyword);
  switch (arg->completion) {
    case ArgCompletion::kNone:
      break;
    case ArgCompletion::kLabels:
      for (const auto& entry : context.session().labels().all()) out.words.push_back(entry.first);
      break;
    case ArgCompletion::kMethods:
      out.words = complete_call_sequence(context, current);
      out.call_sequence = true;
      return out;
    case ArgCompletion::kFiles:
      out.files = true;
      break;
    case ArgCompletion::kCommands:
      for (std::string_view w : distinct_words(all_rows(), 0)) out.words.emplace_back(w);
      break;
    case ArgCompletion::kMetrics:
      if (const search::ProfileSource* source = context.session().source()) out.words = source->metrics();
      break;
  }
  keep_prefixed(out.words, current);
  return out;
}

}  // namespace

Completion complete(Context& context, std::string_view typed) {
  std::string_view before_cursor = typed;
  for (std::size_t i = 0; i < typed.size(); ++i)
    if (ends_command(typed, i, false)) before_cursor = typed.substr(i + 1);
  std::vector<std::string_view> done = search::split_words(before_cursor);
  std::string_view current;
  if (!before_cursor.empty() && !search::is_blank(before_cursor.back())) {
    current = done.back();
    done.pop_back();
  }
  Completion out;
  try {
    std::vector<std::string_view> words = distinct_words(all_rows(), 0);
    if (!done.empty()) {
      const std::vector<const Command*> rows = rows_with_first_word(resolve_word(done.front(), words, "command"));
      words = distinct_words(rows, 1);
      if (done.size() >= 2 || words.empty()) {
        const Command& command =
            *parse_command(std::string(done.front()) + " " + std::string(done.size() >= 2 ? done[1] : "")).command;
        done.erase(done.begin(), done.begin() + static_cast<std::ptrdiff_t>(search::split_words(command.name).size()));
        return complete_argument(context, next_arg(context.row(command), done), current);
      }
    }
    for (std::string_view w : words) out.words.emplace_back(w);
    keep_prefixed(out.words, current);
  } catch (const Error&) {
    // An unknown command has nothing to complete.
  }
  return out;
}

}  // namespace bn::repl
