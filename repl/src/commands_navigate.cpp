// Suggestion and navigation commands (seed 004 sec. 2.3).

#include <algorithm>
#include <cstdint>

#include "bn/iface/error.h"
#include "bn/repl/parse.h"
#include "bn/repl/suggest.h"
#include "bn/repl/text.h"
#include "bn/repl/views.h"
#include "handlers.h"

namespace bn::repl::handlers {
namespace {

constexpr std::int64_t kDefaultSuggestions = 10;

iface::Summary require_current(const Session& session) {
  if (!session.current()) throw Error("no current summary yet: `select N` or `path m1;m2;...` first");
  return *session.current();
}

Output go_to(Session& session, iface::Summary s) {
  session.make_current(s);
  return detail(session, s);
}

}  // namespace

std::vector<std::string_view> arguments(std::string_view args, std::size_t min, std::size_t max,
                                        std::string_view usage) {
  const std::vector<std::string_view> words = split_words(args);
  if (words.size() < min || words.size() > max) throw Error("usage: " + std::string(usage));
  return words;
}

Output suggest(Context& c, std::string_view args) {
  const auto words = arguments(args, 0, 1, "suggest [N]");
  const std::int64_t n = words.empty() ? kDefaultSuggestions : parse_whole(words[0], 1, INT64_MAX, "count");
  Session& session = c.session();
  const Shortlist ranked = suggest(session.profile(), session.settings().suggester, static_cast<std::size_t>(n));
  const std::size_t methods = ranked.shown.size() + ranked.more;
  const bool by_cum = session.settings().suggester == Suggester::kHighCum;
  return numbered_list(session,
                       std::string(suggester_name(session.settings().suggester)) + ": " +
                           std::to_string(ranked.shown.size()) + " of " + std::to_string(methods) + " methods by " +
                           (by_cum ? "|cum|" : "|base|"),
                       ranked.shown);
}

Output select(Context& c, std::string_view args) {
  const auto words = arguments(args, 1, 1, "select N");
  return go_to(c.session(), c.session().numbered_summary(words[0]));
}

Output path(Context& c, std::string_view args) {
  if (args.empty()) throw Error("usage: path m1;m2;...");
  return go_to(c.session(), resolve_call_sequence(c.session().profile(), c.methods(), args));
}

Output show(Context& c, std::string_view args) {
  arguments(args, 0, 0, "show");
  return detail(c.session(), require_current(c.session()));
}

Output back(Context& c, std::string_view args) {
  arguments(args, 0, 0, "back");
  require_current(c.session());
  if (!c.session().back()) throw Error("nothing to go back to: this is the first summary made current");
  return detail(c.session(), *c.session().current());
}

Output history(Context& c, std::string_view args) {
  arguments(args, 0, 0, "history");
  const std::span<const iface::Summary> trail = c.session().trail();
  return numbered_list(c.session(), "summaries made current, oldest first",
                       std::vector<iface::Summary>(trail.begin(), trail.end()));
}

}  // namespace bn::repl::handlers
