// Aspects, name search and the refinements through a gap (seed 000 sec. 2-3).

#include <algorithm>
#include <string>

#include "bn/base/error.h"
#include "bn/repl/views.h"
#include "bn/search/parse.h"
#include "bn/search/suggest.h"
#include "bn/search/text.h"
#include "handlers.h"

namespace bn::repl::handlers {
namespace {

std::string definitions_text(const search::AspectTable& aspects) {
  std::string out;
  for (const auto& [name, pattern] : aspects.all())
    out += (out.empty() ? "" : ", ") + (":" + name) + " = " + pattern->text();
  return out;
}

// The name as typed: `aspect io = ...` or `aspect :io = ...`, since sequences spell it `:io`.
std::string aspect_name(std::string_view typed) {
  if (typed.starts_with(':')) typed.remove_prefix(1);
  return std::string(typed);
}

}  // namespace

Output aspect(Context& c, const Arguments& args) {
  search::Session& session = c.session();
  const std::string name = aspect_name(args[0].text);
  const bool redefined = session.aspects().find(name) != nullptr;
  session.aspects().define(session.profile(), name, args[2].text);
  const auto s = session.profile().pattern_summary(
      iface::CallPattern{{{iface::PatternElement::Kind::aspect, name, session.aspects().find(name)}}});
  std::string text = (redefined ? "redefined aspect :" : "defined aspect :") + name + " = " + std::string(args[2].text);
  if (!s) text += " (it matches no method of this profile)";
  return MessageOutput{text, {{"aspect", name}, {"pattern", std::string(args[2].text)}, {"matches", s.has_value()}}};
}

Output unaspect(Context& c, const Arguments& args) {
  const std::string name = aspect_name(args[0].text);
  if (!c.session().aspects().undefine(name))
    throw Error("no aspect is named '" + name + "'" +
                (c.session().aspects().all().empty() ? std::string()
                                                     : "; defined: " + definitions_text(c.session().aspects())));
  return MessageOutput{"undefined aspect :" + name + " (summaries built with it keep their definition)",
                       {{"aspect", name}}};
}

// Each aspect as the summary of its pseudo-method, ranked like `suggest` ranks methods.
Output aspects(Context& c, const Arguments&) {
  search::Session& session = c.session();
  std::vector<iface::Summary> found;
  std::size_t unmatched = 0;
  for (const auto& [name, pattern] : session.aspects().all()) {
    const auto s =
        session.profile().pattern_summary(iface::CallPattern{{{iface::PatternElement::Kind::aspect, name, pattern}}});
    if (s)
      found.push_back(*s);
    else
      ++unmatched;
  }
  const search::Shortlist ranked = search::rank_summaries(session.profile(), found, session.settings().suggester);
  std::string title =
      session.aspects().all().empty()
          ? "no aspects yet: `aspect NAME = PATTERN` defines one"
          : "aspects by " +
                std::string(session.settings().suggester == search::Suggester::kHighCum ? "|cum|" : "|base|") + ": " +
                definitions_text(session.aspects());
  if (unmatched > 0) title += " (" + std::to_string(unmatched) + " match no method)";
  return numbered_list(session, title, ranked.shown);
}

// Methods whose full or short name matches, as `suggest` ranks them. A plain word (no '*', '|'
// or `re:`) is looked for inside names, as pprof's -focus does: `find Parse` finds
// `XPathParser.parse` and `Parser.next`, where a pattern must match a whole name.
Output find(Context& c, const Arguments& args) {
  search::Session& session = c.session();
  const std::string_view typed = args[0].text;
  const bool word = typed.find_first_of("*|") == std::string_view::npos && !typed.starts_with("re:");
  const base::MethodPattern pattern(word ? "*" + std::string(typed) + "*" : std::string(typed));
  std::vector<iface::Summary> found;
  for (const std::string_view name : c.methods().names())
    if (pattern.matches(name) || pattern.matches(search::short_name(name)))
      if (const auto s = session.profile().method_summary(name)) found.push_back(*s);
  const search::Shortlist ranked =
      search::rank_summaries(session.profile(), found, session.settings().suggester, session.settings().limit);
  return numbered_list(session,
                       "find " + std::string(args[0].text) + ": " + search::counted(found.size(), "method") +
                           (ranked.more > 0 ? ", the first " + std::to_string(ranked.shown.size()) + " shown" : ""),
                       ranked.shown);
}

Output refine(Context& c, const Arguments& args) {
  search::Session& session = c.session();
  if (!session.current()) throw Error("no current summary yet: `select N` or `path m1;m2;...` first");
  const iface::Summary s = *session.current();
  const bool split = args[0].keyword == "split";
  std::size_t gap = 0;
  if (split) {
    const std::vector<std::size_t> gaps = session.profile().pattern_of(s).gaps();
    if (gaps.empty()) throw Error("the current summary has no gap '..' to split at: `path P1;..;P2` first");
    const std::int64_t k =
        args[1].text.empty()
            ? 1
            : search::parse_whole(args[1].text, 1, static_cast<std::int64_t>(gaps.size()), "gap number");
    gap = gaps[static_cast<std::size_t>(k - 1)];
  } else if (!args[1].text.empty()) {
    throw args.usage_error(1);
  }
  const search::Settings& settings = session.settings();
  return detail(session, s,
                {search::refinement(session.profile(), s,
                                    split ? search::NearbyKind::kUpwardSplit : search::NearbyKind::kExtendedDownward,
                                    settings.zoom, settings.cutoff, settings.limit, gap)});
}

}  // namespace bn::repl::handlers
