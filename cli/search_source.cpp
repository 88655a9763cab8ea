#include "search_source.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "bn/base/error.h"
#include "bn/calltree/causal_records.h"
#include "bn/calltree/probe_cost.h"
#include "bn/iface/units.h"
#include "bn/views/thread_table.h"
#include "causal_report.h"
#include "comparison_states.h"
#include "flame_drawing.h"

namespace bn::cli {
namespace {

// What the derived metric time-less-probes left out, when the tree has it (probe_cost.h).
std::optional<std::string> probe_cost_line(const calltree::CallTree& tree) {
  const std::optional<std::size_t> kept = tree.find_metric(calltree::kTimeLessProbes);
  const std::optional<std::size_t> time = tree.find_metric("time");
  const std::optional<std::int64_t> picos = calltree::recorded_picos_per_call(tree.metadata());
  if (!kept || !time || !picos) return std::nullopt;
  const iface::Amount recorded = tree.metric_total(*time);
  const iface::Amount removed = recorded - tree.metric_total(*kept);
  return "note: " + std::string(calltree::kTimeLessProbes) + " is the time recorded less the probes' estimated cost (" +
         iface::duration_text(*picos, 1000) +
         " per instrumented call, measured by the recorder): " + iface::duration_text(removed, 1) + " of " +
         iface::duration_text(recorded, 1) + " (" + iface::percent_string(removed, recorded) +
         "); `set metric time` for the time as recorded (docs/recorder.md, " + "\"Probe cost\")";
}

Wanted wanted_of(const SearchOptions& o) {
  Wanted w;
  w.view = o.view;
  if (!o.model.empty()) w.model = parsing_option("--model", [&] { return views::parse_model(o.model); });
  if (!o.states.empty()) w.states = parsing_option("--states", [&] { return views::parse_states(o.states); });
  w.grouping = parsing_option("--thread-classes", [&] { return views::parse_grouping(o.threads); });
  return w;
}

}  // namespace

void add_view_options(CLI::App& sub, SearchOptions& options) {
  sub.add_option("--view", options.view, "What to search: " + view_help() + " (default tree; docs/views.md)");
  sub.add_option("--model", options.model,
                 "Typed time: paper (Table 1, one CPU), 'cpus N' or measured (schedstat ns); default: measured "
                 "when the recording has CPU figures");
  sub.add_option("--states", options.states,
                 "The tree view of running threads only (CPU time; a recording's default), runnable ones, or all "
                 "(wall time)")
      ->check(CLI::IsMember({"running", "runnable", "all"}));
  sub.add_option("--thread-classes", options.threads,
                 "Thread classes of the views by kind (default: the program's Thread subclasses by class, other "
                 "threads by name), by the Thread object's class, or by name with numbers folded")
      ->check(CLI::IsMember({"kind", "class", "name"}));
}

struct SearchSource::OpenedRun {
  std::shared_ptr<OpenedFile> file;
  OpenedView opened;
};

struct SearchSource::State {
  Wanted wanted;                // as in force: a thread view names its class in full
  std::vector<OpenedRun> a, b;  // PROFILE and RUNS; b only with --base
  std::unique_ptr<comparative::ComparativeProfile> comparison;
};

SearchSource::SearchSource(const SearchOptions& options) : options_(options) {
  // Options are checked before the slow loads.
  Wanted wanted = wanted_of(options);
  // Two runs differ in duration and in threads: their rates or shares would hide a drop of CPU
  // time, so a comparison subtracts amounts of time.
  wanted.amounts = !options.compare.base.empty();
  compare_ = to_compare_options(options.compare);
  // Every other run is loaded as PROFILE is; a fleet slice with --runs-by is several runs.
  std::vector<ProfileOptions> sources{options.profile};
  const auto add = [&](const std::string& path) {
    sources.push_back(options.profile);
    sources.back().path = path;
  };
  std::for_each(options.compare.more.begin(), options.compare.more.end(), add);
  std::for_each(options.compare.base.begin(), options.compare.base.end(), add);
  std::vector<std::vector<OpenedRunOf>> runs = open_each_runs_from(sources);
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (OpenedRunOf& run : runs[i])
      (i <= options.compare.more.size() ? a_files_ : b_files_)
          .push_back(std::make_shared<OpenedFile>(std::move(run.opened), std::move(run.name)));
  if (!wanted.states) wanted.states = aligned_states(compared());
  state_ = open(wanted);
}

SearchSource::~SearchSource() = default;

std::unique_ptr<SearchSource::State> SearchSource::open(const Wanted& wanted) const {
  check_states(compared(), wanted);
  // A file without thread states is searched as it is, beside recordings aligned to it.
  const auto wanted_in = [&](OpenedFile& file, Wanted w) {
    if (!views::has_records(file.samples())) w.states.reset();
    return w;
  };
  auto s = std::make_unique<State>();
  s->wanted = wanted;
  s->a.push_back({a_files_.front(), open_view(*a_files_.front(), wanted_in(*a_files_.front(), wanted))});
  if (const views::View* v = s->a.front().opened.view.get(); v && v->spec.kind == views::ViewKind::thread)
    s->wanted.view = "thread " + v->spec.thread_class;
  if (b_files_.empty()) return s;
  // Every other run is seen as PROFILE is: the same view under the same model, even where its
  // own default would differ.
  Wanted for_others = s->wanted;
  if (const views::View* v = s->a.front().opened.view.get()) for_others.model = v->spec.model;
  const auto open_run = [&](const std::shared_ptr<OpenedFile>& file, const std::string& option) {
    try {
      return OpenedRun{file, open_view(*file, wanted_in(*file, for_others))};
    } catch (const Error& e) {
      throw Error(option + file->path + ": " + e.what());
    }
  };
  for (std::size_t i = 1; i < a_files_.size(); ++i) s->a.push_back(open_run(a_files_[i], ""));
  for (const auto& file : b_files_) s->b.push_back(open_run(file, "--base "));
  const auto profiles = [](const std::vector<OpenedRun>& runs) {
    std::vector<iface::Profile*> out;
    out.reserve(runs.size());
    for (const OpenedRun& r : runs) out.push_back(r.opened.profile.get());
    return out;
  };
  s->comparison = make_comparison(profiles(s->a), profiles(s->b), compare_, options_.compare, profile_name());
  return s;
}

iface::Profile& SearchSource::profile() {
  return state_->comparison ? *state_->comparison : *state_->a.front().opened.profile;
}

bool SearchSource::has_views() { return views::has_records(a_files_.front()->samples()); }

std::string SearchSource::view() const { return state_->wanted.view; }

std::vector<search::ViewKind> SearchSource::view_kinds() const { return cli::view_kinds(); }

std::string SearchSource::format() const { return std::string(a_files_.front()->file.format->name); }

const calltree::CallTree& SearchSource::tree() const { return state_->a.front().opened.tree(*a_files_.front()); }

namespace {

template <class Runs>
std::vector<const calltree::CallTree*> trees_of(const Runs& runs) {
  std::vector<const calltree::CallTree*> trees;
  trees.reserve(runs.size());
  for (const auto& r : runs) trees.push_back(&r.opened.tree(*r.file));
  return trees;
}

}  // namespace

std::vector<const calltree::CallTree*> SearchSource::a_trees() const { return trees_of(state_->a); }

std::vector<const calltree::CallTree*> SearchSource::base_trees() const { return trees_of(state_->b); }

namespace {

std::vector<std::string> paths_of(const std::vector<std::shared_ptr<OpenedFile>>& files) {
  std::vector<std::string> paths;
  paths.reserve(files.size());
  for (const auto& f : files) paths.push_back(f->path);
  return paths;
}

}  // namespace

std::vector<std::string> SearchSource::a_paths() const { return paths_of(a_files_); }

std::string SearchSource::profile_name() const { return joined(a_paths()); }

std::string SearchSource::base_name() const { return joined(paths_of(b_files_)); }

Side SearchSource::side_of(const std::vector<OpenedRun>& runs) {
  Side side;
  for (const OpenedRun& r : runs)
    side.push_back({r.file->path, r.opened.profile->total(), r.opened.profile->denominator()});
  return side;
}

ComparedFiles SearchSource::compared() const { return {a_files_, b_files_, options_.profile.sample_type}; }

const comparative::ComparativeProfile* SearchSource::comparison() const { return state_->comparison.get(); }

comparative::ComparativeProfile* SearchSource::comparison() { return state_->comparison.get(); }

Side SearchSource::a_side() const { return side_of(state_->a); }

Side SearchSource::b_side() const { return side_of(state_->b); }

search::FlameResult SearchSource::draw_flame(const search::FlameRequest& request) {
  return draw_flame_graph(*this, request);
}

const calltree::CausalData& SearchSource::pooled_causal() {
  if (!causal_) {
    std::vector<calltree::CausalData> parts;
    for (const auto& file : a_files_) parts.push_back(file->causal());
    try {
      causal_ = calltree::merge_causal(std::move(parts));
    } catch (const Error& e) {
      throw Error("the causal experiments of " + profile_name() + " do not pool: " + e.what());
    }
  }
  return *causal_;
}

search::CausalReport SearchSource::causal(std::string_view progress) {
  return causal_report(pooled_causal(), a_files_.size(), *state_->a.front().opened.profile, progress);
}

bool SearchSource::has_causal_experiments() {
  const calltree::CausalData& data = pooled_causal();
  return !data.empty() && !data.points.empty();
}

const views::View* SearchSource::built_view() const { return state_->a.front().opened.view.get(); }

calltree::MetricSpec SearchSource::metric_in_force() const {
  const calltree::CallTree& recorded = a_files_.front()->file.loaded.tree;
  const std::string& wanted = state_->wanted.metric;
  return recorded.metric_spec(wanted.empty() ? 0 : *recorded.find_metric(wanted));
}

std::vector<std::string> SearchSource::metric_lines() const {
  const calltree::CallTree& tree = a_files_.front()->file.loaded.tree;
  const calltree::MetricSpec m = metric_in_force();
  std::vector<std::string> lines{"metric: " + m.name + (m.unit.empty() ? "" : " (" + m.unit + ")") + ", one of " +
                                 metric_list(tree) + "; `set metric NAME` switches"};
  if (std::optional<std::string> probes = probe_cost_line(tree)) lines.push_back(std::move(*probes));
  return lines;
}

std::vector<std::string> SearchSource::metrics() const {
  const calltree::CallTree& recorded = a_files_.front()->file.loaded.tree;
  std::vector<std::string> names{metric_in_force().name};
  for (std::size_t k = 0; k < recorded.metric_count(); ++k)
    if (recorded.metric_spec(k).name != names.front()) names.push_back(recorded.metric_spec(k).name);
  return names;
}

std::vector<std::string> SearchSource::header() const {
  std::vector<std::string> lines;
  if (a_files_.front()->file.loaded.tree.metric_count() > 1)
    for (std::string& line : metric_lines()) lines.push_back(std::move(line));
  for (const std::string& line : state_->a.front().opened.header) lines.push_back(line);
  if (state_->comparison) {
    for (std::string& line : comparison_header(*state_->comparison, side_of(state_->a), side_of(state_->b)))
      lines.push_back(std::move(line));
    if (std::string states = states_line(compared(), state_->wanted); !states.empty())
      lines.push_back(std::move(states));
  }
  if (!state_->comparison && a_files_.size() > 1)
    lines.push_back("note: " + std::to_string(a_files_.size() - 1) +
                    (a_files_.size() == 2 ? " more recording" : " more recordings") +
                    " without --base: the tree searched is " + a_files_.front()->path +
                    "'s; `causal` pools the experiments of all " + std::to_string(a_files_.size()));
  if (!filters().empty()) lines.push_back(filters_line());
  return lines;
}

std::string SearchSource::filters_line() const {
  const auto kept = [](const OpenedView& run) {
    iface::Profile& p = *run.profile;
    const iface::DisplayUnit unit = iface::display_unit(p.metric());
    return iface::cell_text(p.total(), p.denominator(), unit) + " of " +
           iface::amount_text(run.unfiltered_total, p.denominator(), unit) + " (" +
           iface::percent_string(p.total(), run.unfiltered_total) + ")";
  };
  // Run by run: each run has its own denominator, so their kept shares are not added up.
  const auto kept_side = [&](const std::vector<OpenedRun>& runs) {
    std::string text;
    for (const OpenedRun& r : runs) text += (text.empty() ? "" : ", ") + kept(r.opened);
    return text;
  };
  const std::string what = state_->comparison ? "A keeps " + kept_side(state_->a) + ", B keeps " + kept_side(state_->b)
                                              : kept_side(state_->a) + " kept";
  return "filters: " + iface::filters_text(filters()) + ": " + what +
         "; percentages are of what is kept (`filters` lists them, `unfilter` drops the last)";
}

const std::vector<iface::ProfileFilter>& SearchSource::filters() const { return state_->wanted.filters; }

void SearchSource::set_filters(std::vector<iface::ProfileFilter> filters) {
  Wanted next = state_->wanted;
  next.filters = std::move(filters);
  std::unique_ptr<State> filtered = open(next);
  const auto all_empty = [](const std::vector<OpenedRun>& runs) {
    return std::all_of(runs.begin(), runs.end(),
                       [](const OpenedRun& r) { return r.opened.tree(*r.file).node_count() == 1; });
  };
  const auto names = [](std::vector<std::string> paths) {
    for (std::string& p : paths) p = file_name(p);
    return joined(paths);
  };
  if (!next.filters.empty() && all_empty(filtered->a) && (b_files_.empty() || all_empty(filtered->b))) {
    throw Error(next.filters.back().text() + ": no measurement of " + names(a_paths()) +
                (b_files_.empty() ? "" : " or " + names(options_.compare.base)) + " would be left");
  }
  state_ = std::move(filtered);
}

std::string SearchSource::header_json() const {
  std::string out;
  if (a_files_.front()->file.loaded.tree.metric_count() > 1) {
    const calltree::MetricSpec m = metric_in_force();
    out = nlohmann::json{{"command", "metric"}, {"ok", true},           {"metric", m.name},
                         {"unit", m.unit},      {"metrics", metrics()}, {"header", metric_lines()}}
              .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  if (!state_->a.front().opened.header.empty())
    out += std::string(out.empty() ? "" : "\n") + nlohmann::json{{"command", "view"},
                                                                 {"ok", true},
                                                                 {"view", view()},
                                                                 {"model", knob(Knob::model)},
                                                                 {"header", state_->a.front().opened.header}}
                                                      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (state_->comparison)
    out +=
        (out.empty() ? "" : "\n") + comparison_header_json(*state_->comparison, side_of(state_->a), side_of(state_->b));
  return out;
}

std::string SearchSource::knob(Knob knob) const {
  const Wanted& w = state_->wanted;
  switch (knob) {
    case Knob::view:
      return w.view;
    case Knob::model:
      if (const views::View* v = state_->a.front().opened.view.get()) return views::to_string(*v->spec.model);
      return w.model ? views::to_string(*w.model) : "default";
    case Knob::states:
      return std::string(views::to_string(states_of(*a_files_.front(), w)));
    case Knob::threads:
      return std::string(views::to_string(w.grouping));
    case Knob::metric:
      return metric_in_force().name;
  }
  return "";
}

void SearchSource::set(Knob knob, std::string_view value) {
  Wanted next = state_->wanted;
  switch (knob) {
    case Knob::view:
      next.view = std::string(value);
      break;
    case Knob::model:
      next.model = views::parse_model(value);
      break;
    case Knob::states:
      next.states = views::parse_states(value);
      break;
    case Knob::threads:
      next.grouping = views::parse_grouping(value);
      break;
    case Knob::metric:
      next.metric = std::string(value);
      break;
  }
  try {
    state_ = open(next);
  } catch (const Error& e) {
    // A thread view names a class of one grouping; the other grouping has other classes.
    if (knob == Knob::threads && next.view.starts_with("thread "))
      throw Error(std::string(e.what()) +
                  "; `view server` or `view tree` first, then `set threads` and `view thread "
                  "CLASS`");
    throw;
  }
}

std::vector<std::string> SearchSource::typed_time() {
  std::vector<std::string> names;
  if (!has_views()) return names;
  names.reserve(views::kAllTimeTypes.size());
  for (const views::TimeType t : views::kAllTimeTypes) names.emplace_back(views::name_of(t));
  return names;
}

search::ThreadsOutput SearchSource::threads() {
  const Wanted& w = state_->wanted;
  // The model asked for, so that the header says why a default was chosen; every view of the
  // file resolves it alike.
  const views::ThreadTable table =
      views::thread_table(a_files_.front()->file.loaded.tree, a_files_.front()->samples(), w.grouping, w.model);
  search::ThreadsOutput out;
  out.header.push_back("thread classes of " + file_name(a_files_.front()->path) + " (grouped by " +
                       std::string(views::to_string(w.grouping)) + "), model " + views::to_string(table.model) + " (" +
                       table.model_why + "); time as its Thread View counts it");
  for (const std::string& note : table.notes) out.header.push_back("note: " + note);
  for (const views::TimeType t : views::kAllTimeTypes) out.types.emplace_back(views::name_of(t));
  out.denominator = table.denominator;
  for (const views::ThreadClassRow& r : table.rows)
    out.rows.push_back(
        {r.name, r.jvm_service, r.threads, r.instances, r.lifetime_ns, {r.time.begin(), r.time.end()}, r.total});
  return out;
}

}  // namespace bn::cli
