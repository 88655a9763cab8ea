// `flame [FILE]`: the current summary in context (its callers above, its callees below) or, with
// none, the whole profile, drawn as a flame graph into FILE (an HTML page; NAME.svg a static SVG).
// The session's labels are drawn in their own colours. The source draws: a picture needs the
// call trees behind the profile in force, which bn_repl does not know.

#include "bn/base/error.h"
#include "bn/search/method_names.h"
#include "bn/search/text.h"
#include "handlers.h"

namespace bn::repl::handlers {

Output flame(Context& c, const Arguments& args) {
  search::Session& session = c.session();
  search::ProfileSource* source = session.source();
  if (!source) throw Error("flame graphs are drawn by the bottlenecks tool's sessions only");
  iface::Profile& profile = session.profile();
  search::FlameRequest request;
  const std::string_view typed = search::unquote(args[0].text);
  request.file = typed.empty() ? "flame.html" : std::string(typed);
  if (const std::optional<iface::Summary> current = session.current())
    for (const std::string_view call : profile.path_of(*current)) request.focus.emplace_back(call);
  for (const auto& [name, summaries] : session.labels().all()) {
    search::FlameRequest::Label label{name, {}};
    for (const iface::Summary s : summaries) {
      const std::vector<std::string_view> calls = profile.path_of(s);
      label.sequences.emplace_back(calls.begin(), calls.end());
    }
    request.labels.push_back(std::move(label));
  }
  const search::FlameResult drawn = source->draw_flame(request);
  const std::string what = request.focus.empty()
                               ? std::string("the whole profile")
                               : search::display_path(profile.path_of(*session.current()), session.settings().names) +
                                     " with its callers and callees";
  return MessageOutput{"drew " + what + " into " + request.file + " (" + drawn.format + ", " +
                           search::counted(drawn.frames, "frame") +
                           (drawn.merged > 0 ? ", " + std::to_string(drawn.merged) + " narrow ones merged" : "") + ")",
                       {{"file", request.file},
                        {"format", drawn.format},
                        {"frames", drawn.frames},
                        {"merged", static_cast<std::size_t>(drawn.merged)}}};
}

}  // namespace bn::repl::handlers
