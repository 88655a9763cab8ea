// Views of one recording (seed 000 sec. 4-5): `threads`, `view`, `set model`, `set states` and
// `set threads`; and `set metric`, which switches the tree's metric as a view switch would. The session's source builds
// the views; these commands only ask it to switch and keep each view's labels (labels belong to a view).

#include "bn/base/error.h"
#include "bn/search/label_file.h"
#include "handlers.h"

namespace bn::repl::handlers {

search::ProfileSource& source_of(Context& c) {
  if (search::ProfileSource* source = c.session().source()) return *source;
  throw Error("this session searches one profile and has no views");
}

ViewOutput switch_profile(Context& c, const std::function<void(search::ProfileSource&)>& change) {
  search::Session& session = c.session();
  search::ProfileSource& source = source_of(c);
  const std::string left = source.view();
  std::vector<search::SavedLabel> labels = search::saved_labels(session.profile(), session.labels());
  const std::size_t left_labels = labels.size();
  change(source);  // throws, changing nothing, when the profile cannot be built
  c.profile_changed();
  ViewOutput out;
  out.view = source.view();
  out.header = source.header();
  if (out.view != left) {
    out.left = left;
    out.left_labels = left_labels;
  }
  for (auto& [label, reason] : session.switched(left, std::move(labels)))
    out.unresolved.push_back({std::move(label), std::move(reason)});
  for (const auto& entry : session.labels().all()) out.labels += entry.second.size();
  return out;
}

namespace {

// Sets a knob of the source and moves the session, and its labels, to the profile now in force.
Output switch_to(Context& c, search::ProfileSource::Knob knob, std::string_view setting, std::string_view value) {
  ViewOutput out = switch_profile(c, [&](search::ProfileSource& source) { source.set(knob, value); });
  out.setting = std::string(setting);
  out.value = source_of(c).knob(knob);
  return out;
}

// The value of a choice as the source takes it: the keyword as the row spells it (keywords match
// in any case) and the word after it ("thread Sender", "cpus 4").
std::string chosen(const ArgValue& arg) {
  return std::string(arg.keyword) + (arg.param.empty() ? "" : " " + std::string(arg.param));
}

}  // namespace

Output threads(Context& c, const Arguments&) { return source_of(c).threads(); }

Output view(Context& c, const Arguments& args) {
  return switch_to(c, search::ProfileSource::Knob::view, "view", chosen(args[0]));
}

Output set_model(Context& c, const Arguments& args) {
  return switch_to(c, search::ProfileSource::Knob::model, "model", chosen(args[0]));
}

Output set_states(Context& c, const Arguments& args) {
  return switch_to(c, search::ProfileSource::Knob::states, "states", chosen(args[0]));
}

Output set_metric(Context& c, const Arguments& args) {
  return switch_to(c, search::ProfileSource::Knob::metric, "metric", args[0].text);
}

Output set_threads(Context& c, const Arguments& args) {
  return switch_to(c, search::ProfileSource::Knob::threads, "threads", chosen(args[1]));
}

}  // namespace bn::repl::handlers
