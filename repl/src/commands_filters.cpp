// Pruning and focus (bn/iface/profile_filter.h): `exclude SEQUENCE`, `focus SEQUENCE`,
// `filters` and `unfilter [all]`. The session's source applies the filters to every view and to
// both sides of a comparison; these commands read the sequence as `path` does and carry the
// labels (Session::switched) and the current summary over to the filtered profile.

#include "bn/base/error.h"
#include "bn/search/method_names.h"
#include "handlers.h"

namespace bn::repl::handlers {
namespace {

using Kind = iface::ProfileFilter::Kind;

// Puts `filters` in force and keeps the current summary when it resolves in the new profile.
ViewOutput refilter(Context& c, std::vector<iface::ProfileFilter> filters) {
  search::Session& session = c.session();
  std::vector<std::string> current;
  if (session.current())
    for (std::string_view frame : session.profile().path_of(*session.current())) current.emplace_back(frame);
  ViewOutput out = switch_profile(c, [&](search::ProfileSource& source) { source.set_filters(std::move(filters)); });
  out.setting = "filters";
  out.value = iface::filters_text(source_of(c).filters());
  if (out.value.empty()) out.value = "none";
  const std::vector<std::string_view> frames(current.begin(), current.end());
  if (const auto s = search::summary_of_frames(session.profile(), frames, session.aspects())) {
    session.make_current(*s);
    out.current = search::display_path(session.profile().path_of(*s), session.settings().names);
  }
  return out;
}

Output add_filter(Context& c, const Arguments& args, Kind kind) {
  search::Session& session = c.session();
  std::vector<iface::ProfileFilter> filters = source_of(c).filters();
  // As `path` reads it, so a typo or a sequence nothing satisfies is refused here.
  const iface::Summary s = [&] {
    try {
      return c.resolve(args[0].text);
    } catch (const Error& e) {
      if (filters.empty()) throw;
      throw Error(std::string(e.what()) + " (in the profile as filtered: `filters` lists the filters in force)");
    }
  }();
  const iface::ProfileFilter added{kind, session.profile().pattern_of(s)};
  for (const iface::ProfileFilter& f : filters)
    if (f.kind == added.kind && f.pattern.key() == added.pattern.key())
      throw Error(added.text() + " is already in force (`filters` lists them)");
  filters.push_back(added);
  return refilter(c, std::move(filters));
}

}  // namespace

Output exclude(Context& c, const Arguments& args) { return add_filter(c, args, Kind::exclude); }

Output focus(Context& c, const Arguments& args) { return add_filter(c, args, Kind::focus); }

Output filters(Context& c, const Arguments&) {
  search::ProfileSource& source = source_of(c);
  const std::string text = iface::filters_text(source.filters());
  ViewOutput out;
  out.setting = "filters";
  out.value = text.empty() ? "none (`exclude SEQUENCE` or `focus SEQUENCE` adds one)" : text;
  out.view = source.view();
  out.header = source.header();
  return out;
}

Output unfilter(Context& c, const Arguments& args) {
  std::vector<iface::ProfileFilter> filters = source_of(c).filters();
  if (filters.empty()) throw Error("no filter to drop: `exclude SEQUENCE` or `focus SEQUENCE` adds one");
  if (args[0].text.empty())
    filters.pop_back();
  else
    filters.clear();  // all
  return refilter(c, std::move(filters));
}

}  // namespace bn::repl::handlers
