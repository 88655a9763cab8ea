#pragma once
// The kinds of profile the tool can search in one opened file (search.h): the call tree as
// recorded, and the views of its per-sample records (docs/views.md). A new kind is one row of
// kViews in view_table.cpp.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bn/calltree/causal_data.h"
#include "bn/calltree/profile_loader.h"
#include "bn/calltree/sample_data.h"
#include "bn/iface/profile.h"
#include "bn/iface/profile_filter.h"
#include "bn/search/profile_source.h"
#include "bn/views/view.h"

namespace bn::cli {

// What the user asked to see: a view ("tree", "server", "thread CLASS") and the settings of the
// views (docs/views.md). A model of nullopt is the recording's default; states of nullopt the
// file's (default_states).
struct Wanted {
  std::string view = "tree";
  std::optional<views::Model> model;
  std::optional<views::States> states;
  views::Grouping grouping = views::Grouping::by_kind;
  // Server and Thread Views as amounts of time, not rates (views::ViewSpec::amounts): a comparison's.
  bool amounts = false;
  std::string metric;                         // a metric of the file's tree (`set metric`); empty: its metric 0
  std::vector<iface::ProfileFilter> filters;  // `exclude` and `focus`, oldest first
};

// One file opened for a search, with its per-sample records and its causal experiments decoded
// on first use.
struct OpenedFile {
  OpenedFile(calltree::OpenedProfile opened, std::string file_path)
      : file(std::move(opened)), path(std::move(file_path)) {}

  calltree::OpenedProfile file;
  std::string path;
  const calltree::SampleData& samples();
  const calltree::CausalData& causal();

 private:
  std::optional<calltree::SampleData> samples_;
  std::optional<calltree::CausalData> causal_;
};

// A profile to search, built from one file: the view (absent for the recorded tree), the
// recorded tree under another metric (absent for its metric 0), the tree of what passes the
// filters (absent without filters), the profile over the last of these, and the lines that
// describe it.
struct OpenedView {
  std::unique_ptr<views::View> view;
  std::unique_ptr<calltree::CallTree> metric_tree;
  std::unique_ptr<calltree::CallTree> filtered_tree;
  std::unique_ptr<iface::Profile> profile;
  std::vector<std::string> header;
  iface::Amount unfiltered_total = 0;  // the profile's total before the filters

  const calltree::CallTree& tree(const OpenedFile& file) const {
    return filtered_tree ? *filtered_tree : unfiltered_tree(file);
  }
  const calltree::CallTree& unfiltered_tree(const OpenedFile& file) const {
    return view ? view->tree : metric_tree ? *metric_tree : file.file.loaded.tree;
  }
};

// The tree view's states when none are asked: running (CPU) for a recording with per-sample
// records searched by its first metric, as async-profiler and JFR open on CPU; every sample
// otherwise (a profile without records has no states to choose from).
views::States default_states(OpenedFile& file, const Wanted& wanted);
// `wanted.states`, or the default.
views::States states_of(OpenedFile& file, const Wanted& wanted);

// Opens `wanted` in `file`, its filters applied. Throws bn::Error naming an unknown view (listing the table's rows),
// an unknown metric (listing the file's), a view asked of another metric than the tree's first
// (views count per-sample records), or what the view needs and the file lacks.
OpenedView open_view(OpenedFile& file, const Wanted& wanted);
// The views the table offers, in its order, for the REPL's `view` (search::ProfileSource).
std::vector<search::ViewKind> view_kinds();
// The views the table offers, for errors: "tree, server, thread CLASS".
std::string view_names();
// Each with its help, for `--view`: "tree: the call tree as recorded ...; server: ...".
std::string view_help();

}  // namespace bn::cli
