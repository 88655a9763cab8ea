// Labelling commands (seed 004 sec. 2.3) and their persistence.

#include <set>

#include "bn/base/error.h"
#include "bn/base/interruption.h"
#include "bn/iface/overlap.h"
#include "bn/repl/elide.h"
#include "bn/repl/views.h"
#include "bn/search/label_file.h"
#include "bn/search/method_names.h"
#include "bn/search/text.h"
#include "handlers.h"

namespace bn::repl::handlers {
namespace {

// The paper writes label ``bottleneck''; accept a name in matching quotes and drop them.
std::string label_name(const Arguments& args) {
  const std::string_view name = search::unquote(args[0].text);
  if (name.empty() || name.find_first_of("\n\r") != std::string_view::npos || name.front() == ' ' || name.back() == ' ')
    throw args.usage_error(0);
  return std::string(name);
}

iface::Summary require_current(const search::Session& session, std::string_view what) {
  if (!session.current())
    throw Error("no current summary to " + std::string(what) + ": `select N` or `path m1;m2;...` first");
  return *session.current();
}

// A label message's path, fitted to half the width (the message wraps around it).
std::string shown(search::Session& session, iface::Summary s) {
  const search::Settings& settings = session.settings();
  if (settings.width == 0) return search::display_path(session.profile().path_of(s), settings.names);
  std::vector<std::string> frames;
  for (std::string_view m : session.profile().path_of(s)) frames.push_back(search::display_name(m, settings.names));
  return fit_path(frames, settings.width / 2);
}

std::string file_argument(const Arguments& args) {
  const std::string_view file = search::unquote(args[0].text);
  if (file.empty()) throw args.usage_error(0);
  return std::string(file);
}

}  // namespace

Output label(Context& c, const Arguments& args) {
  const std::string name = label_name(args);
  search::Session& session = c.session();
  const iface::Summary s = require_current(session, "label");
  const bool added = session.labels().add(name, s);
  if (added) session.set_labels_dirty(true);
  return MessageOutput{(added ? "labelled " : "already labelled ") + shown(session, s) + " '" + name + "'",
                       {{"label", name}, {"added", added}}};
}

Output unlabel(Context& c, const Arguments& args) {
  const std::string name = label_name(args);
  search::Session& session = c.session();
  const iface::Summary s = require_current(session, "unlabel");
  if (!session.labels().remove(name, s)) {
    const std::vector<std::string> carried = session.labels().labels_of(s);
    std::string list;
    for (const std::string& l : carried) list += (list.empty() ? "" : ", ") + l;
    throw Error(shown(session, s) + " has no label '" + name + "'" + (carried.empty() ? "" : "; its labels: " + list));
  }
  session.set_labels_dirty(true);
  return MessageOutput{"removed label '" + name + "' from " + shown(session, s), {{"label", name}}};
}

Output labels(Context& c, const Arguments&) { return labels_report(c.session()); }

Output save(Context& c, const Arguments& args) {
  const std::string file = file_argument(args);
  search::Session& session = c.session();
  const search::LabelFile saved = session.label_file();
  const std::string& view = saved.view;
  search::write_label_file(file, view, saved.labels, saved.aspects);
  session.set_labels_dirty(false);
  const std::size_t count = saved.labels.size();
  std::set<std::string> names;
  for (const search::SavedLabel& label : saved.labels) names.insert(label.label);
  // Labels belong to a view; the file says which (label_file.h). Those set aside (under a filter)
  // are saved too: a filter changes what is searched, not what the analyst found.
  return MessageOutput{"saved " + search::counted(count, "labelled summary", "labelled summaries") + " (" +
                           search::counted(names.size(), "label") + ")" + (view == "tree" ? "" : " of view " + view) +
                           " to " + file,
                       {{"file", file}, {"summaries", count}, {"view", view}}};
}

Output load(Context& c, const Arguments& args) {
  const std::string file = file_argument(args);
  search::Session& session = c.session();
  // Parse everything first: a bad file changes no label.
  const search::LabelFile saved = search::read_label_file(file);
  LoadOutput out{file, 0, {}, saved.view != session.view() ? saved.view : ""};
  // The file's aspects must agree with the session's before any is defined.
  search::AspectTable aspects = session.aspects();
  for (const search::SavedAspect& a : saved.aspects) {
    const auto known = aspects.find(a.name);
    if (known && known->text() != a.pattern)
      throw Error(file + ":" + std::to_string(a.line) + ": aspect :" + a.name + " is " + a.pattern + " there but " +
                  known->text() + " in this session; `unaspect " + a.name + "` first");
    try {
      if (!known) aspects.define(session.profile(), a.name, a.pattern);
    } catch (const Error& e) {
      throw Error(file + ":" + std::to_string(a.line) + ": " + e.what());
    }
  }
  // Every sequence is checked before anything changes, so a file of 10^6 summaries (seconds) may
  // stop on Ctrl-C between any two of them.
  constexpr std::size_t kSummariesBetweenSteps = 4096;
  std::vector<std::optional<iface::Summary>> found;
  for (const search::SavedLabel& entry : saved.labels) {
    if (found.size() % kSummariesBetweenSteps == kSummariesBetweenSteps - 1)
      base::step("loading labels", found.size(), saved.labels.size());
    const std::vector<std::string_view> calls(entry.calls.begin(), entry.calls.end());
    try {
      found.push_back(search::summary_of_frames(session.profile(), calls, aspects));
    } catch (const Error& e) {
      throw Error(file + ":" + std::to_string(entry.line) + ": " + e.what());
    }
  }
  session.aspects() = std::move(aspects);
  for (std::size_t i = 0; i < saved.labels.size(); ++i) {
    const search::SavedLabel& entry = saved.labels[i];
    if (found[i]) {
      session.labels().add(entry.label, *found[i]);
      ++out.loaded;
    } else {
      const std::vector<std::string_view> calls(entry.calls.begin(), entry.calls.end());
      out.unresolved.push_back({entry, search::why_no_root(session.profile(), calls)});
    }
  }
  return out;
}

}  // namespace bn::repl::handlers
