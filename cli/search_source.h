#pragma once
// The one place that opens the profile a user asked to search: a file in any format
// open_profile reads, the view of it to search (view_table.h), and with --base the same view of
// a second file subtracted (A minus B, seed 004 sec. 2.2); each side may be several runs,
// averaged exactly. A SearchSource is the REPL's ProfileSource: `view`, `set model|states|threads`
// switch the view in force at run time, `exclude`/`focus` filter it (both sides of a comparison
// alike, every run), and `threads` lists the thread classes. The session knows nothing but
// profile-iface and that interface.

#include <memory>
#include <string>
#include <vector>

#include "bn/comparative/comparative_profile.h"
#include "bn/iface/profile.h"
#include "bn/search/profile_source.h"
#include "comparison.h"
#include "comparison_states.h"
#include "profile_options.h"
#include "view_table.h"

namespace bn::cli {

struct SearchOptions {
  ProfileOptions profile;     // PROFILE and how to load it
  std::string view = "tree";  // a row of the view table: "tree", "server", "thread CLASS"
  std::string model;          // "paper", "cpus N", "measured"; empty: the recording's default
  std::string states;         // empty: the file's default (default_states)
  std::string threads = "kind";
  CompareCliOptions compare;  // --base: search A minus B
};

// Registers --view, --model, --states and --thread-classes on `sub`.
void add_view_options(CLI::App& sub, SearchOptions& options);

class SearchSource final : public search::ProfileSource {
 public:
  // Loads PROFILE (and BASE), builds the view and the comparison. Throws bn::Error naming the
  // file, the option, the view or the refused combination.
  explicit SearchSource(const SearchOptions& options);
  ~SearchSource() override;

  iface::Profile& profile() override;
  bool has_views() override;
  std::string view() const override;
  // The rows of the view table (view_table.h).
  std::vector<search::ViewKind> view_kinds() const override;
  // The metric in force when PROFILE has several, the view's description (for a recording with
  // per-sample records), a comparison's, then the filters in force.
  std::vector<std::string> header() const override;
  std::string knob(Knob knob) const override;
  void set(Knob knob, std::string_view value) override;
  search::ThreadsOutput threads() override;
  std::vector<std::string> typed_time() override;
  std::vector<std::string> metrics() const override;
  const std::vector<iface::ProfileFilter>& filters() const override;
  // Refuses filters that would leave no measurement (on neither side of a comparison).
  void set_filters(std::vector<iface::ProfileFilter> filters) override;

  // The name of PROFILE's format as open_profile recognised it ("native", "collapsed").
  std::string format() const;
  // The header as JSON Lines: a "metric" object for a profile with several metrics, a "view"
  // object for a view, a "compare" object for a comparison; "" for a plain profile. (Filters are
  // set only in a session: each JSON line then names them.)
  std::string header_json() const;
  // PROFILE's view in force as a call tree (for export): its costs are numerators over the
  // denominator of profile() without --base.
  const calltree::CallTree& tree() const;
  // PROFILE and BASE as the user named them (several runs: their names joined by ", ").
  std::string profile_name() const;
  // PROFILE and the further A runs, as given.
  std::vector<std::string> a_paths() const;
  std::string base_name() const;
  // With --base: the view in force of each run (PROFILE and RUNS; every --base), as call trees,
  // in the order of the comparison's runs.
  std::vector<const calltree::CallTree*> a_trees() const;
  std::vector<const calltree::CallTree*> base_trees() const;
  const comparative::ComparativeProfile* comparison() const;
  comparative::ComparativeProfile* comparison();
  // With --base: each side's runs as the header names them (file and raw total).
  Side a_side() const;
  Side b_side() const;
  search::FlameResult draw_flame(const search::FlameRequest& request) override;
  // The experiments of PROFILE and RUNS pooled (BASE is another program), cost shares of
  // PROFILE's view in force (causal_report.h).
  search::CausalReport causal(std::string_view progress) override;
  // Whether causal() has experiments to report, so that a flame graph draws their curves.
  bool has_causal_experiments();
  // PROFILE's view in force, or null for the call tree as recorded.
  const views::View* built_view() const;
  // PROFILE as opened, with its per-sample records decoded.
  OpenedFile& file() { return *a_files_.front(); }

 private:
  struct OpenedRun;  // one opened file and the view over it
  struct State;      // the runs and comparison for one Wanted

  // Opens everything for `wanted`; the current state is untouched if that throws.
  std::unique_ptr<State> open(const Wanted& wanted) const;
  // The runs of a side as the header names them.
  static Side side_of(const std::vector<OpenedRun>& runs);
  // The name and unit of the metric in force, the line saying which of PROFILE's it is, and
  // for a call-tree recording the line saying what its probes' estimated cost is.
  calltree::MetricSpec metric_in_force() const;
  std::vector<std::string> metric_lines() const;
  // Every file, for the states each side counts (comparison_states.h).
  ComparedFiles compared() const;
  // The filters in force and what each side keeps of its total.
  std::string filters_line() const;
  // A's experiments, pooled on first use.
  const calltree::CausalData& pooled_causal();

  SearchOptions options_;
  comparative::CompareOptions compare_;
  // Loaded once, shared by every state: PROFILE, then RUNS; each --base.
  // PROFILE (the first of A's) gives the search its views, metrics and per-sample records.
  std::vector<std::shared_ptr<OpenedFile>> a_files_, b_files_;
  std::unique_ptr<State> state_;
  std::optional<calltree::CausalData> causal_;  // pooled_causal()
};

}  // namespace bn::cli
