#pragma once
// What a command computed, as plain structs (the LLVM XRay habit): the engine fills them, the
// text and JSON renderers print them, and neither side knows about the other.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "bn/iface/profile.h"
#include "bn/iface/units.h"
#include "bn/search/autolabel.h"
#include "bn/search/label_file.h"
#include "bn/search/listing.h"
#include "bn/search/nearby.h"
#include "bn/search/profile_source.h"
#include "bn/search/settings.h"

namespace bn::repl {

// A summary as printed. Amounts are numerators over the profile's denominator.
struct Row {
  int number = -1;  // its number for `select`, -1 when not numbered (the current summary)
  iface::Summary summary;
  std::vector<std::string_view> path;  // full names, outermost first
  iface::Amount cum = 0;
  iface::Amount base = 0;
  bool unreliable = false;  // ten-samples rule (seed 000 sec. 5.1)
  // A comparative profile's values in A and in B behind cum and base (Profile::sides).
  std::optional<iface::SideBySide> sides;
  // A comparison of sampled runs: whether cum's difference exceeds sampling noise (noise.h).
  std::optional<iface::Noise> noise;
};

// `suggest`, `history`.
struct ListOutput {
  std::string title;
  std::vector<Row> rows;
};

struct LabelOverlap {
  std::string label;
  iface::Amount cum = 0;   // cum_overlap of the summary with the summaries carrying the label
  iface::Amount base = 0;  // base_overlap, likewise
};

// The rows of a long list, made as they are printed so that the first is on screen at once
// (nearby.h, Listing): a renderer asks row(i) for i = 0, 1, ... in order; cum and base of
// every one are known before, for the column widths.
struct PendingRows {
  std::shared_ptr<search::Listing> listing;
  int first_number = 0;                 // the number of row 0
  std::function<Row(std::size_t)> row;  // made from the session when asked
};

struct NearbyRows {
  search::NearbyKind kind;
  std::vector<Row> rows;
  std::size_t more = 0;                // summaries of this group left out by `set limit`
  std::optional<PendingRows> pending;  // instead of rows, for a long list
  std::string recursive_method;        // zooming stopped at a call of this method again
};

// `select`, `path`, `show`, `back`: seed 004 sec. 2.3's list of details, in its order.
struct DetailOutput {
  Row summary;
  std::vector<std::string> labels;
  std::vector<LabelOverlap> overlaps;
  bool zoomed = false;
  std::vector<NearbyRows> nearby;
  bool full = false;  // `show --full`: every frame and name in full, whatever the width
};

struct LabelGroup {
  std::string label;
  std::vector<Row> rows;
  iface::Amount total_cum = 0;  // over the union of its summaries: overlap counted once
  iface::Amount total_base = 0;
};

// The cost two labels share: total_cum(A) + total_cum(B) - total_cum(A ∪ B), and with base.
struct LabelPairOverlap {
  std::string first, second;  // in the order `labels` lists them
  iface::Amount cum = 0;
  iface::Amount base = 0;
};

// `labels`: each label and the coverage of all labels together (seed 004 Table 2), the labels
// by |total cum| (then |total base|, then name), the summaries of each by |cum| (then |base|,
// then the order they were labelled in); the overlap of each pair of labels that share cost.
struct LabelsOutput {
  std::vector<LabelGroup> labels;
  iface::Amount coverage_cum = 0;
  iface::Amount coverage_base = 0;
  std::vector<LabelPairOverlap> overlaps;
  std::size_t set_aside = 0;  // labelled summaries that do not resolve in the profile in force
};

// `set ...`, `label`, `unlabel`, `save`: one sentence plus the same facts as key/value pairs
// (a yes/no fact as a bool and a count as a number, so JSON readers need not parse them).
using MessageField = std::variant<std::string, bool, std::size_t>;
struct MessageOutput {
  std::string text;
  std::vector<std::pair<std::string, MessageField>> fields;
};

struct UnresolvedLabel {
  search::SavedLabel saved;
  std::string reason;
};

// `load`.
struct LoadOutput {
  std::string file;
  int loaded = 0;
  std::vector<UnresolvedLabel> unresolved;  // call sequences with no root in this profile
  std::string saved_view;                   // the view the file was saved from, when not this one
};

// `view`, `set model|states|threads|metric`, `exclude`, `focus`, `unfilter`: the profile in force
// changed (seed 000 sec. 4).
struct ViewOutput {
  std::string setting;                      // what changed: "view", "model", ..., "filters"
  std::string value;                        // as `set` shows it
  std::string view;                         // the view in force
  std::vector<std::string> header;          // the source's description of it
  std::string left;                         // the view left, when the view changed
  std::size_t left_labels = 0;              // labels kept for a return to it
  std::size_t labels = 0;                   // labels of the view in force, brought back
  std::vector<UnresolvedLabel> unresolved;  // its labels that do not resolve now, set aside
  std::string current;                      // the current summary, kept (filters), as a path; or ""
};

// `autolabel [N]`: the proposals, each labelled, and what the search considered.
struct AutolabelRow {
  Row row;                    // numbered for `select`
  std::string label;          // the label it was given
  iface::Amount covered = 0;  // total_cum_of this proposal and the ones before it
  search::AutolabelOrigin origin;
  std::vector<std::string_view> suggestion;  // the origin's suggested method, as a call path
  std::optional<Row> instead_of;             // a heavier candidate it was preferred to
};

struct AutolabelOutput {
  std::vector<AutolabelRow> rows;
  std::size_t asked = 0;  // N
  std::size_t candidates = 0;
  search::AutolabelSkipped skipped;
  bool best_of_candidates = true;
};

struct HelpEntry {
  std::string name;
  std::string args;
  std::string help;
};

struct HelpOutput {
  std::vector<HelpEntry> entries;
};

struct QuitOutput {
  bool unsaved_labels = false;
};

// `causal`: the ranked targets, or with `causal N|LABEL|SEQ` the curve of one of them.
struct CausalOutput {
  search::CausalReport report;
  std::optional<std::size_t> target;  // the index in report.targets whose curve is shown
};

using Output = std::variant<ListOutput, DetailOutput, LabelsOutput, MessageOutput, LoadOutput, HelpOutput, QuitOutput,
                            ViewOutput, search::ThreadsOutput, AutolabelOutput, CausalOutput>;

// What the renderers need besides an Output: profile-wide facts and the display settings.
struct RenderContext {
  iface::Amount total = 0;
  iface::Profile::PercentBase percent_base;  // what text percentages are of ("of total", "of A")
  iface::Amount denominator = 1;
  iface::MetricInfo metric;
  iface::DisplayUnit unit;  // how text prints the metric's amounts (units.h)
  search::NameStyle names = search::NameStyle::kFull;
  bool color = false;
  std::size_t width = 0;             // columns text output fits in (`set width`); 0: no limit
  std::string view;                  // the view the numbers are of (JSON "view"); empty for a session on one profile
  std::vector<std::string> filters;  // the filters in force (JSON "filters", when there are any)
};

}  // namespace bn::repl
