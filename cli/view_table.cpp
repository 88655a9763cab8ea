#include "view_table.h"

#include <algorithm>
#include <filesystem>
#include <iterator>

#include "bn/base/error.h"
#include "bn/calltree/causal_records.h"
#include "bn/calltree/sample_records.h"
#include "bn/calltree/tree_filter.h"
#include "bn/calltree/tree_profile.h"
#include "profile_options.h"

namespace bn::cli {
namespace {

// A view built by bn_views, searched by the call-tree backend over its weighted tree.
OpenedView searched(views::View built) {
  OpenedView out;
  out.view = std::make_unique<views::View>(std::move(built));
  const views::View& v = *out.view;
  const calltree::Metadata& md = v.tree.metadata();
  out.profile = std::make_unique<calltree::TreeProfile>(v.tree, v.denominator,
                                                        iface::MetricInfo{md.metric, md.unit, v.hit != 0, v.hit});
  out.header = v.header;
  return out;
}

// The index of the metric `w` asks for in the file's tree.
std::size_t metric_of(const OpenedFile& file, const Wanted& w) {
  return w.metric.empty() ? 0
                          : find_metric_or_throw(file.file.loaded.tree, w.metric,
                                                 std::filesystem::path(file.path).filename().string());
}

views::ViewSpec spec_of(OpenedFile& file, views::ViewKind kind, const Wanted& w, std::string_view param) {
  views::ViewSpec spec;
  spec.kind = kind;
  spec.thread_class = std::string(param);
  spec.states = states_of(file, w);
  spec.model = w.model;
  spec.grouping = w.grouping;
  spec.amounts = w.amounts;
  return spec;
}

// The line after the first of a tree view's header: the other ways of looking at the recording,
// one command each (docs/views.md).
std::string see_also(views::States states) {
  return std::string(states == views::States::all ? "`set states running` for CPU time"
                                                  : "`set states all` for wall time (waiting threads too)") +
         ", `threads` and `view thread CLASS` for the threads";
}

// The views weigh each sample's stack (seed 000 sec. 5.2), whatever metric the tree's costs have.
views::View built(OpenedFile& file, views::ViewKind kind, const Wanted& w, std::string_view param) {
  if (metric_of(file, w) != 0)
    throw Error("the views and `set states` count per-sample records, not metric '" + w.metric + "': `set metric " +
                file.file.loaded.tree.metadata().metric + "` first");
  return views::build_view(file.file.loaded.tree, file.samples(), spec_of(file, kind, w, param));
}

// A kind of profile the tool can search in one opened file. A new backend is one row: `--view`,
// and through SearchSource::view_kinds the REPL's `view` (its alternatives, usage, help and
// completion), all read this table.
struct ViewRow {
  std::string_view name;   // a lowercase keyword
  std::string_view param;  // the word after the name, if it takes one, in capitals ("CLASS")
  // What it searches, a phrase that completes "search ..." (the REPL's help joins them).
  std::string_view help;
  OpenedView (*open)(OpenedFile& file, const Wanted& wanted, std::string_view param);
};

const ViewRow kViews[] = {
    // Seed 004 sec. 2.2; `--states` and `set states` keep only runnable or running threads, and a
    // recording opens on running time (default_states).
    {"tree", "", "the call tree (of a recording: CPU time unless `set states all`)",
     [](OpenedFile& file, const Wanted& w, std::string_view) {
       if (const views::States states = states_of(file, w); states != views::States::all) {
         OpenedView out = searched(built(file, views::ViewKind::tree, w, ""));
         out.header.insert(out.header.begin() + 1, see_also(states));
         return out;
       }
       OpenedView out;
       if (const std::size_t metric = metric_of(file, w); metric != 0)
         out.metric_tree = std::make_unique<calltree::CallTree>(file.file.loaded.tree.with_metric(metric));
       out.profile = std::make_unique<calltree::TreeProfile>(out.tree(file));
       if (views::has_records(file.samples())) {
         out.header.emplace_back("wall time: every sample of every thread, in any state (as recorded)");
         out.header.emplace_back(see_also(views::States::all));
       }
       return out;
     }},
    // The Server View and Thread View of seed 000 sec. 4.
    {"server", "", "the CPU time of all threads",
     [](OpenedFile& file, const Wanted& w, std::string_view) {
       return searched(built(file, views::ViewKind::server, w, ""));
     }},
    {"thread", "CLASS", "all the time of one thread class (a unique prefix names it), waiting included",
     [](OpenedFile& file, const Wanted& w, std::string_view cls) {
       return searched(built(file, views::ViewKind::thread, w, cls));
     }},
};

// Searches only what passes the filters: the tree in force, pruned, under the same denominator and
// metric (a view's unit stays its own).
void apply_filters(OpenedView& opened, const OpenedFile& file, std::span<const iface::ProfileFilter> filters) {
  opened.unfiltered_total = opened.profile->total();
  if (filters.empty()) return;
  opened.filtered_tree = std::make_unique<calltree::CallTree>(calltree::filtered_tree(opened.tree(file), filters));
  opened.profile = std::make_unique<calltree::TreeProfile>(*opened.filtered_tree, opened.profile->denominator(),
                                                           opened.profile->metric());
}

}  // namespace

views::States default_states(OpenedFile& file, const Wanted& wanted) {
  return views::has_records(file.samples()) && metric_of(file, wanted) == 0 ? views::States::running
                                                                            : views::States::all;
}

views::States states_of(OpenedFile& file, const Wanted& wanted) {
  return wanted.states ? *wanted.states : default_states(file, wanted);
}

const calltree::SampleData& OpenedFile::samples() {
  if (!samples_) samples_ = calltree::decode_sample_data(file.loaded, path);
  return *samples_;
}

const calltree::CausalData& OpenedFile::causal() {
  if (!causal_) causal_ = calltree::decode_causal(file.loaded, path);
  return *causal_;
}

std::string view_names() {
  std::string names;
  for (const ViewRow& v : kViews)
    names += (names.empty() ? "" : ", ") + std::string(v.name) + (v.param.empty() ? "" : " " + std::string(v.param));
  return names;
}

std::vector<search::ViewKind> view_kinds() {
  std::vector<search::ViewKind> kinds;
  for (const ViewRow& v : kViews) kinds.push_back({std::string(v.name), std::string(v.param), std::string(v.help)});
  return kinds;
}

std::string view_help() {
  std::string help;
  for (const ViewRow& v : kViews)
    help += (help.empty() ? "" : "; ") + std::string(v.name) + (v.param.empty() ? "" : " " + std::string(v.param)) +
            ": " + std::string(v.help);
  return help;
}

OpenedView open_view(OpenedFile& file, const Wanted& wanted) {
  const std::string_view text = wanted.view;
  const std::size_t blank = text.find(' ');
  const std::string_view name = text.substr(0, blank);
  const std::string_view param = blank == std::string_view::npos ? std::string_view() : text.substr(blank + 1);
  const auto it = std::find_if(std::begin(kViews), std::end(kViews), [&](const ViewRow& v) { return v.name == name; });
  if (it == std::end(kViews) || it->param.empty() != param.empty())
    throw Error("unknown view '" + std::string(text) + "' (expected " + view_names() + ")");
  OpenedView opened = it->open(file, wanted, param);
  apply_filters(opened, file, wanted.filters);
  return opened;
}

}  // namespace bn::cli
