// `autolabel [N]` and `autolabel undo`: propose a bottleneck set, label it, take it back.

#include <string>

#include "bn/base/error.h"
#include "bn/repl/views.h"
#include "bn/search/autolabel.h"
#include "bn/search/parse.h"
#include "bn/search/suggest.h"
#include "bn/search/text.h"
#include "handlers.h"

namespace bn::repl::handlers {
namespace {

constexpr std::int64_t kDefaultProposals = 15;  // the paper's expert labelled 14 (seed 004 Table 2)
// Each proposal asked for draws suggestions from both suggesters; beyond this the pairwise
// overlaps of the candidates cost more than an interactive command should.
constexpr std::int64_t kMostProposals = 100;

// "auto-K" for the lowest K >= `from` that names no label yet.
std::string free_label(const search::LabelSet& labels, std::size_t& from) {
  for (;; ++from) {
    std::string name = "auto-" + std::to_string(from);
    if (!labels.all().contains(name)) return name;
  }
}

Output undo(search::Session& session) {
  auto& added = session.autolabelled();
  if (added.empty()) throw Error("nothing to undo: no labels added by `autolabel` since the last undo or view change");
  std::size_t removed = 0;
  for (const auto& [name, s] : added) removed += session.labels().remove(name, s) ? 1 : 0;
  added.clear();
  if (removed > 0) session.set_labels_dirty(true);
  return MessageOutput{"removed the " + search::counted(removed, "label") + " the last autolabel added",
                       {{"removed", removed}}};
}

}  // namespace

Output autolabel(Context& c, const Arguments& args) {
  search::Session& session = c.session();
  if (args[0].keyword == "undo") return undo(session);
  const std::string_view typed = args[0].text;
  const std::int64_t n = typed.empty() ? kDefaultProposals : search::parse_whole(typed, 1, kMostProposals, "count");

  search::AutolabelOptions options;
  options.count = static_cast<std::size_t>(n);
  options.cutoff = session.settings().cutoff;
  options.labelled = session.labels().all_summaries();
  if (session.settings().skip_noise) {
    iface::Profile& p = session.profile();
    options.keep = [&p](iface::Summary s) { return search::beyond_noise(p, s); };
  }
  const search::AutolabelResult found = search::autolabel(session.profile(), options);

  AutolabelOutput out;
  out.asked = options.count;
  out.candidates = found.candidates;
  out.skipped = found.skipped;
  out.best_of_candidates = found.best_of_candidates;
  std::vector<std::pair<std::string, iface::Summary>> added;
  std::vector<iface::Summary> numbered;
  std::size_t next_label = 1;
  for (const search::AutolabelProposal& p : found.proposals) {
    std::string label = free_label(session.labels(), next_label);
    session.labels().add(label, p.summary);
    added.emplace_back(label, p.summary);
    AutolabelRow row{make_row(session, p.summary, static_cast<int>(numbered.size())),
                     label,
                     p.covered,
                     p.origin,
                     session.profile().path_of(p.origin.suggestion),
                     std::nullopt};
    if (p.instead_of) row.instead_of = make_row(session, *p.instead_of, -1);
    numbered.push_back(p.summary);
    out.rows.push_back(std::move(row));
  }
  // An autolabel that proposes nothing leaves the previous one undoable.
  if (!added.empty()) {
    session.autolabelled() = std::move(added);
    session.set_labels_dirty(true);
  }
  session.set_numbered(std::move(numbered));
  return out;
}

}  // namespace bn::repl::handlers
