#pragma once
// What a session searches when that can change at run time: the views of one recording (seed 000
// sec. 4: a Server View, a Thread View per thread class, under a model of typed time). The
// command-line tool's SearchSource implements it; the REPL's `view`, `threads` and `set
// model|states|threads` use it, and every other command sees only profile(). bn_repl knows no
// backend: a view is whatever profile the source hands over, and the kinds of view there are
// come from the source too (view_kinds), so the tool's view table is the one list of them.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bn/base/error.h"
#include "bn/iface/amount.h"
#include "bn/iface/profile.h"
#include "bn/iface/profile_filter.h"
#include "bn/search/causal_report.h"

namespace bn::search {

// One thread class of `threads` (seed 000 sec. 5: "summary information about the thread classes").
struct ThreadClassLine {
  std::string name;
  bool jvm_service = false;  // threads the JVM starts for itself (Reference Handler, ...), listed last
  std::uint32_t threads = 0;
  std::uint64_t instances = 0;
  std::int64_t lifetime_ns = 0;     // average over its threads
  std::vector<iface::Amount> time;  // per type of ThreadsOutput::types, over its denominator
  iface::Amount total = 0;          // their sum
};

// `threads`.
struct ThreadsOutput {
  std::vector<std::string> header;  // grouping, model and why, notes
  std::vector<std::string> types;   // column names: ":RUN", ...
  iface::Amount denominator = 1;
  std::vector<ThreadClassLine> rows;
};

// `flame [FILE]`: what to draw. The source draws it, since a picture needs the call trees behind
// the profile in force (flame/include/bn/flame/build.h says why), which only it knows.
struct FlameRequest {
  std::string file;                // .svg: a static SVG; .html or .htm: an HTML page; else refused
  std::vector<std::string> focus;  // the current summary's call sequence; empty: the whole profile
  struct Label {
    std::string name;
    std::vector<std::vector<std::string>> sequences;
  };
  std::vector<Label> labels;  // drawn in their own colours
};

struct FlameResult {
  std::string format;  // "html" or "svg"
  std::size_t frames = 0;
  std::uint64_t merged = 0;  // frames merged below the width bound
};

// One kind of view a source opens, as `view NAME [PARAM]` takes it: a row of the tool's view table.
struct ViewKind {
  std::string name;   // a lowercase keyword: "thread"
  std::string param;  // the word it takes, in capitals: "CLASS"; empty when it takes none
  // What it searches, a phrase that completes "search ...": "the CPU time of all threads".
  std::string help;
};

class ProfileSource {
 public:
  // What `set` changes: the view, the model of typed time, the state filter of the tree view,
  // how threads form classes, and the metric searched when the profile has several.
  enum class Knob { view, model, states, threads, metric };

  virtual ~ProfileSource() = default;

  // The profile in force. Valid until the next successful set().
  virtual iface::Profile& profile() = 0;
  // True when the recording has per-sample records, so that it has views besides its call tree;
  // `set` then shows the knobs and JSON output names the view.
  virtual bool has_views() = 0;
  // The view in force as `view` takes it ("tree", "server", "thread Sender"). Labels belong to a
  // view: the session keeps each view's labels apart.
  virtual std::string view() const = 0;
  // The kinds of view set(Knob::view, "NAME [PARAM]") opens, in the order `help` lists them. The
  // same for every recording: one without per-sample records refuses all but its call tree when
  // asked, with the reason.
  virtual std::vector<ViewKind> view_kinds() const = 0;
  // Lines describing the profile in force: the view and its unit, the model and why, what the
  // recording lacks, a comparison's header, and the filters with what they keep. Empty for a plain
  // call tree without filters.
  virtual std::vector<std::string> header() const = 0;
  // A knob as `set` shows it ("thread Sender", "measured", "all", "class", "calls").
  virtual std::string knob(Knob knob) const = 0;
  // Sets a knob and rebuilds the profile in force. On error (an unknown class, a recording without
  // per-sample records, a model it cannot support) throws bn::Error with one line and changes
  // nothing.
  virtual void set(Knob knob, std::string_view value) = 0;
  // Pruning and focus in force (bn/iface/profile_filter.h), oldest first. They apply to every
  // view, model and metric, and to both sides of a comparison.
  virtual const std::vector<iface::ProfileFilter>& filters() const = 0;
  // Replaces the filters and rebuilds the profile in force. On error (no measurement would be
  // left, a sequence a backend refuses) throws bn::Error with one line and changes nothing.
  virtual void set_filters(std::vector<iface::ProfileFilter> filters) = 0;
  // The names of the profile's metrics, the one in force first; `set metric` takes one.
  virtual std::vector<std::string> metrics() const = 0;
  // The thread classes of the recording under the model and grouping in force.
  virtual ThreadsOutput threads() = 0;
  // The pseudo-methods of typed time a view may hold (":RUN", ..., ":MONITOR"), whether or not the
  // profile in force has any: `path :MONITOR` where no thread waited is then told apart from a
  // typo. Empty for a source without views.
  virtual std::vector<std::string> typed_time() { return {}; }
  // The causal profile of the recordings searched at the progress point named `progress` (empty:
  // the first recorded), their experiments pooled, cost shares of the profile in force. Throws
  // bn::Error with one line when there are no experiments (saying how to record them), for an
  // unknown point (listing them) or a malformed recording.
  virtual CausalReport causal(std::string_view /*progress*/) { throw Error(std::string(kNoCausalExperiments)); }
  // Draws the profile in force as a flame graph into request.file. Throws bn::Error naming the
  // file or the focus.
  virtual FlameResult draw_flame(const FlameRequest& request) = 0;
};

}  // namespace bn::search
