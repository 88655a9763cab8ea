#include "bn/repl/views.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <string_view>
#include <utility>

namespace bn::repl {
namespace {

// The order `labels` lists labels and their summaries in: by |cum|, then |base|.
std::pair<iface::Amount, iface::Amount> heaviness(iface::Amount cum, iface::Amount base) {
  return {iface::abs_amount(cum), iface::abs_amount(base)};
}

}  // namespace

Row make_row(search::Session& session, iface::Summary s, int number) {
  iface::Profile& p = session.profile();
  Row row{number, s, p.path_of(s), p.cum_of(s), p.base_of(s), false, p.sides(s), p.noise(s)};
  row.unreliable = !search::reliable(p, row.cum);
  return row;
}

ListOutput numbered_list(search::Session& session, std::string title, const std::vector<iface::Summary>& summaries) {
  ListOutput out{std::move(title), {}};
  for (std::size_t i = 0; i < summaries.size(); ++i)
    out.rows.push_back(make_row(session, summaries[i], static_cast<int>(i)));
  session.set_numbered(summaries);
  return out;
}

DetailOutput detail(search::Session& session, iface::Summary s) {
  const search::Settings& settings = session.settings();
  return detail(session, s, search::nearby(session.profile(), s, settings.zoom, settings.cutoff, settings.limit));
}

DetailOutput detail(search::Session& session, iface::Summary s, std::vector<search::NearbyGroup> groups) {
  DetailOutput out;
  out.summary = make_row(session, s, -1);
  out.labels = session.labels().labels_of(s);
  const std::vector<iface::Overlap> shared = session.label_overlaps(s);
  std::size_t i = 0;
  for (const auto& entry : session.labels().all()) {
    out.overlaps.push_back({entry.first, shared[i].cum, shared[i].base});
    ++i;
  }
  out.zoomed = session.settings().zoom;
  // Columns are sized from amounts known before the rows are made: a comparative profile's
  // rows also have each side's values, so its lists are made here, whole.
  const bool stream = !out.summary.sides;
  std::vector<search::Session::NumberedPart> numbered(1);
  int number = 0;
  for (search::NearbyGroup& group : groups) {
    NearbyRows rows{group.kind, {}, group.more, std::nullopt, group.recursive_method};
    std::vector<iface::Summary> summaries = std::move(group.summaries);
    if (group.listing && stream) {
      rows.pending = PendingRows{group.listing, number, [&session, listing = group.listing, number](std::size_t k) {
                                   return make_row(session, listing->summary(k), number + static_cast<int>(k));
                                 }};
      number += static_cast<int>(group.listing->size());
      numbered.push_back({{}, group.listing});
      numbered.emplace_back();
    } else {
      if (group.listing)
        for (std::size_t k = 0; k < group.listing->size(); ++k) summaries.push_back(group.listing->summary(k));
      for (iface::Summary t : summaries) rows.rows.push_back(make_row(session, t, number++));
      numbered.back().summaries.insert(numbered.back().summaries.end(), summaries.begin(), summaries.end());
    }
    out.nearby.push_back(std::move(rows));
  }
  session.set_numbered(std::move(numbered));
  return out;
}

LabelsOutput labels_report(search::Session& session) {
  LabelsOutput out;
  for (const auto& [name, members] : session.labels().all()) {
    iface::SummarySet& set = session.label_set(name);
    LabelGroup group{name, {}, set.total_cum(), set.total_base()};
    for (iface::Summary s : members) group.rows.push_back(make_row(session, s, -1));
    std::ranges::stable_sort(group.rows, std::greater<>(), [](const Row& r) { return heaviness(r.cum, r.base); });
    out.labels.push_back(std::move(group));
  }
  // Heaviest first; the map gave name order, which breaks ties.
  std::vector<std::size_t> order(out.labels.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::ranges::stable_sort(order, std::greater<>(),
                           [&](std::size_t i) { return heaviness(out.labels[i].total_cum, out.labels[i].total_base); });
  std::vector<LabelGroup> sorted;
  std::vector<iface::Summary> numbered;
  for (std::size_t i : order) {
    for (Row& r : out.labels[i].rows) {
      r.number = static_cast<int>(numbered.size());
      numbered.push_back(r.summary);
    }
    sorted.push_back(std::move(out.labels[i]));
  }
  // The pairs that overlap, each in the order the labels are listed.
  std::map<std::string_view, std::size_t> rank;
  for (std::size_t i = 0; i < sorted.size(); ++i) rank.emplace(sorted[i].label, i);
  struct Listed {
    std::pair<std::size_t, std::size_t> ranks;
    iface::Overlap shared;
  };
  std::vector<Listed> listed;
  for (const search::LabelMeasures::LabelPair& pair : session.label_pairs())
    listed.push_back({std::minmax(rank.at(pair.first), rank.at(pair.second)), pair.overlap});
  std::ranges::sort(listed, {}, &Listed::ranks);
  for (const Listed& l : listed)
    out.overlaps.push_back({sorted[l.ranks.first].label, sorted[l.ranks.second].label, l.shared.cum, l.shared.base});
  out.labels = std::move(sorted);
  if (const auto kept = session.kept_labels().find(session.view()); kept != session.kept_labels().end())
    out.set_aside = kept->second.size();
  iface::SummarySet& all = session.all_labelled();
  out.coverage_cum = all.total_cum();
  out.coverage_base = all.total_base();
  session.set_numbered(std::move(numbered));
  return out;
}

}  // namespace bn::repl
