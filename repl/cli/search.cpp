#include "search.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "bn/iface/error.h"
#include "bn/views/thread_table.h"
#include "flame_drawing.h"

namespace bn::cli {
namespace {

Wanted wanted_of(const SearchOptions& o) {
  Wanted w;
  w.view = o.view;
  if (!o.model.empty()) w.model = parsing_option("--model", [&] { return views::parse_model(o.model); });
  w.states = parsing_option("--states", [&] { return views::parse_states(o.states); });
  w.grouping = parsing_option("--thread-classes", [&] { return views::parse_grouping(o.threads); });
  return w;
}

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace

void add_view_options(CLI::App& sub, SearchOptions& options) {
  sub.add_option("--view", options.view, "What to search: " + view_help() + " (default tree; docs/views.md)");
  sub.add_option("--model", options.model,
                 "Typed time: paper (Table 1, one CPU), 'cpus N' or measured (schedstat ns); default: measured "
                 "when the recording has CPU figures");
  sub.add_option("--states", options.states, "The tree view of running threads only, runnable ones, or all (default)")
      ->check(CLI::IsMember({"running", "runnable", "all"}));
  sub.add_option("--thread-classes", options.threads,
                 "Thread classes of the views by the Thread object's class (default) or by name with numbers folded")
      ->check(CLI::IsMember({"class", "name"}));
}

struct Search::Run {
  std::shared_ptr<OpenedFile> file;
  OpenedView opened;
};

struct Search::State {
  Wanted wanted;  // as in force: a thread view names its class in full
  Run a, b;       // b only with --base
  std::unique_ptr<comparative::ComparativeProfile> comparison;
};

Search::Search(const SearchOptions& options) : options_(options) {
  // Options are checked before the slow loads.
  const Wanted wanted = wanted_of(options);
  compare_ = to_compare_options(options.compare);
  a_file_ = std::make_shared<OpenedFile>(open_profile_from(options.profile), options.profile.path);
  if (!options.compare.base.empty()) {
    ProfileOptions b_loading = options.profile;  // B is loaded as A is
    b_loading.path = options.compare.base;
    b_file_ = std::make_shared<OpenedFile>(open_profile_from(b_loading), b_loading.path);
  }
  state_ = open(wanted);
}

Search::~Search() = default;

std::unique_ptr<Search::State> Search::open(const Wanted& wanted) const {
  auto s = std::make_unique<State>();
  s->wanted = wanted;
  s->a = {a_file_, open_view(*a_file_, wanted)};
  if (const views::View* v = s->a.opened.view.get(); v && v->spec.kind == views::ViewKind::thread)
    s->wanted.view = "thread " + v->spec.thread_class;
  if (!b_file_) return s;
  // B is seen as A is: the same view under the same model, even where B's default would differ.
  Wanted for_b = s->wanted;
  if (const views::View* v = s->a.opened.view.get()) for_b.model = v->spec.model;
  try {
    s->b = {b_file_, open_view(*b_file_, for_b)};
  } catch (const Error& e) {
    throw Error("--base " + options_.compare.base + ": " + e.what());
  }
  s->comparison = make_comparison(*s->a.opened.profile, *s->b.opened.profile, compare_, options_.compare);
  return s;
}

iface::Profile& Search::profile() { return state_->comparison ? *state_->comparison : *state_->a.opened.profile; }

bool Search::has_views() { return views::has_records(a_file_->samples()); }

std::string Search::view() const { return state_->wanted.view; }

const std::string& Search::format() const { return a_file_->file.format; }

const calltree::CallTree& Search::tree() const { return state_->a.opened.tree(*a_file_); }

const calltree::CallTree* Search::base_tree() const { return b_file_ ? &state_->b.opened.tree(*b_file_) : nullptr; }

const comparative::ComparativeProfile* Search::comparison() const { return state_->comparison.get(); }

repl::FlameResult Search::draw_flame(const repl::FlameRequest& request) { return draw_flame_graph(*this, request); }

const views::View* Search::built_view() const { return state_->a.opened.view.get(); }

calltree::MetricSpec Search::metric_in_force() const {
  const calltree::CallTree& recorded = a_file_->file.loaded.tree;
  const std::string& wanted = state_->wanted.metric;
  return recorded.metric_spec(wanted.empty() ? 0 : *recorded.find_metric(wanted));
}

std::string Search::metric_line() const {
  const calltree::MetricSpec m = metric_in_force();
  return "metric: " + m.name + (m.unit.empty() ? "" : " (" + m.unit + ")") + ", one of " +
         metric_list(a_file_->file.loaded.tree) + "; `set metric NAME` switches";
}

std::vector<std::string> Search::metrics() const {
  const calltree::CallTree& recorded = a_file_->file.loaded.tree;
  std::vector<std::string> names{metric_in_force().name};
  for (std::size_t k = 0; k < recorded.metric_count(); ++k)
    if (recorded.metric_spec(k).name != names.front()) names.push_back(recorded.metric_spec(k).name);
  return names;
}

std::vector<std::string> Search::header() const {
  std::vector<std::string> lines;
  if (a_file_->file.loaded.tree.metric_count() > 1) lines.push_back(metric_line());
  for (const std::string& line : state_->a.opened.header) lines.push_back(line);
  if (state_->comparison)
    for (std::string& line :
         comparison_header(*state_->comparison, {options_.profile.path, state_->a.opened.profile->total()},
                           {options_.compare.base, state_->b.opened.profile->total()}))
      lines.push_back(std::move(line));
  if (!filters().empty()) lines.push_back(filters_line());
  return lines;
}

std::string Search::filters_line() const {
  const auto kept = [](const OpenedView& side) {
    iface::Profile& p = *side.profile;
    const std::string unit = p.metric().unit.empty() ? "" : " " + p.metric().unit;
    return iface::decimal_string(p.total(), p.denominator()) + " of " +
           iface::decimal_string(side.unfiltered_total, p.denominator()) + unit + " (" +
           iface::percent_string(p.total(), side.unfiltered_total) + ")";
  };
  const std::string what = state_->comparison
                               ? "A keeps " + kept(state_->a.opened) + ", B keeps " + kept(state_->b.opened)
                               : kept(state_->a.opened) + " kept";
  return "filters: " + iface::filters_text(filters()) + ": " + what +
         "; percentages are of what is kept (`filters` lists them, `unfilter` drops the last)";
}

const std::vector<iface::ProfileFilter>& Search::filters() const { return state_->wanted.filters; }

void Search::set_filters(std::vector<iface::ProfileFilter> filters) {
  Wanted next = state_->wanted;
  next.filters = std::move(filters);
  std::unique_ptr<State> filtered = open(next);
  const auto empty = [](const Run& side) { return side.opened.tree(*side.file).node_count() == 1; };
  if (!next.filters.empty() && empty(filtered->a) && (!b_file_ || empty(filtered->b)))
    throw Error(next.filters.back().text() + ": no measurement of " + file_name(options_.profile.path) +
                (b_file_ ? " or " + file_name(options_.compare.base) : "") + " would be left");
  state_ = std::move(filtered);
}

std::string Search::header_json() const {
  std::string out;
  if (a_file_->file.loaded.tree.metric_count() > 1) {
    const calltree::MetricSpec m = metric_in_force();
    out = nlohmann::json{{"command", "metric"}, {"ok", true},           {"metric", m.name},
                         {"unit", m.unit},      {"metrics", metrics()}, {"header", {metric_line()}}}
              .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  if (!state_->a.opened.header.empty())
    out += std::string(out.empty() ? "" : "\n") + nlohmann::json{{"command", "view"},
                                                                 {"ok", true},
                                                                 {"view", view()},
                                                                 {"model", knob(Knob::model)},
                                                                 {"header", state_->a.opened.header}}
                                                      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (state_->comparison)
    out += (out.empty() ? "" : "\n") +
           comparison_header_json(*state_->comparison, {options_.profile.path, state_->a.opened.profile->total()},
                                  {options_.compare.base, state_->b.opened.profile->total()});
  return out;
}

std::string Search::knob(Knob knob) const {
  const Wanted& w = state_->wanted;
  switch (knob) {
    case Knob::view:
      return w.view;
    case Knob::model:
      if (const views::View* v = state_->a.opened.view.get()) return views::to_string(*v->spec.model);
      return w.model ? views::to_string(*w.model) : "default";
    case Knob::states:
      return std::string(views::to_string(w.states));
    case Knob::threads:
      return std::string(views::to_string(w.grouping));
    case Knob::metric:
      return metric_in_force().name;
  }
  return "";
}

void Search::set(Knob knob, std::string_view value) {
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

repl::ThreadsOutput Search::threads() {
  const Wanted& w = state_->wanted;
  const views::View* v = state_->a.opened.view.get();
  const views::ThreadTable table =
      views::thread_table(a_file_->file.loaded.tree, a_file_->samples(), w.grouping, v ? v->spec.model : w.model);
  repl::ThreadsOutput out;
  out.header.push_back("thread classes of " + std::filesystem::path(a_file_->path).filename().string() +
                       " (grouped by " + std::string(views::to_string(w.grouping)) + "), model " +
                       views::to_string(table.model) + " (" + table.model_why + "); time as its Thread View counts it");
  for (const std::string& note : table.notes) out.header.push_back("note: " + note);
  for (const views::TimeType t : views::kAllTimeTypes) out.types.emplace_back(views::name_of(t));
  out.denominator = table.denominator;
  for (const views::ThreadClassRow& r : table.rows)
    out.rows.push_back({r.name, r.threads, r.instances, r.lifetime_ns, {r.time.begin(), r.time.end()}, r.total});
  return out;
}

}  // namespace bn::cli
