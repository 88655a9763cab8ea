// Suggestion and navigation commands (seed 004 sec. 2.3).

#include <algorithm>
#include <cstdint>
#include <functional>

#include "bn/base/error.h"
#include "bn/repl/views.h"
#include "bn/search/parse.h"
#include "bn/search/suggest.h"
#include "bn/search/text.h"
#include "handlers.h"

namespace bn::repl::handlers {
namespace {

constexpr std::int64_t kDefaultSuggestions = 10;

iface::Summary require_current(const search::Session& session) {
  if (!session.current()) throw Error("no current summary yet: `select N` or `path m1;m2;...` first");
  return *session.current();
}

// Makes the summary `find` gives current. When there is none (a typo), none is current either:
// a `label` typed next must not label the summary the user was leaving.
Output go_to(search::Session& session, const std::function<iface::Summary()>& find) {
  iface::Summary s{};
  try {
    s = find();
  } catch (const Error&) {
    session.withdraw_current();
    throw;
  }
  session.make_current(s);
  return detail(session, s);
}

}  // namespace

Output suggest(Context& c, const Arguments& args) {
  const std::string_view typed = args[0].text;
  const std::int64_t n = typed.empty() ? kDefaultSuggestions : search::parse_whole(typed, 1, INT64_MAX, "count");
  search::Session& session = c.session();
  iface::Profile& p = session.profile();
  const search::Shortlist ranked =
      search::suggest(p, session.settings().suggester, static_cast<std::size_t>(n),
                      session.settings().skip_noise ? [&p](iface::Summary s) { return search::beyond_noise(p, s); }
                                                    : std::function<bool(iface::Summary)>{});
  const std::size_t methods = ranked.shown.size() + ranked.more;
  const bool by_cum = session.settings().suggester == search::Suggester::kHighCum;
  return numbered_list(session,
                       std::string(search::suggester_name(session.settings().suggester)) + ": " +
                           std::to_string(ranked.shown.size()) + " of " + search::counted(methods, "method") + " by " +
                           (by_cum ? "|cum|" : "|base|") +
                           (session.settings().skip_noise && p.total_noise() ? " beyond noise" : ""),
                       ranked.shown);
}

Output select(Context& c, const Arguments& args) {
  return go_to(c.session(), [&] { return c.session().numbered_summary(args[0].text); });
}

Output path(Context& c, const Arguments& args) {
  return go_to(c.session(), [&] { return c.resolve(args[0].text); });
}

Output show(Context& c, const Arguments& args) {
  DetailOutput out = detail(c.session(), require_current(c.session()));
  out.full = !args[0].text.empty();  // --full
  return out;
}

Output back(Context& c, const Arguments&) {
  if (!c.session().back()) {
    require_current(c.session());
    throw Error("nothing to go back to: this is the first summary made current");
  }
  return detail(c.session(), *c.session().current());
}

Output history(Context& c, const Arguments&) {
  const std::span<const iface::Summary> trail = c.session().trail();
  return numbered_list(c.session(), "summaries made current, oldest first",
                       std::vector<iface::Summary>(trail.begin(), trail.end()));
}

}  // namespace bn::repl::handlers
