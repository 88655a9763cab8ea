#include "bn/repl/views.h"

#include "bn/iface/overlap.h"

namespace bn::repl {
namespace {

// Seed 000 sec. 5.1: estimates from fewer than ten samples are within random noise.
constexpr int kReliableSamples = 10;

}  // namespace

Row make_row(Session& session, iface::Summary s, int number) {
  iface::Profile& p = session.profile();
  Row row{number, s, p.path_of(s), p.cum_of(s), p.base_of(s), false, p.sides(s), p.noise(s)};
  const iface::MetricInfo m = p.metric();
  row.unreliable =
      m.is_sample_count && iface::abs_amount(row.cum) < kReliableSamples * (m.sample != 0 ? m.sample : p.denominator());
  return row;
}

ListOutput numbered_list(Session& session, std::string title, const std::vector<iface::Summary>& summaries) {
  ListOutput out{std::move(title), {}};
  for (std::size_t i = 0; i < summaries.size(); ++i)
    out.rows.push_back(make_row(session, summaries[i], static_cast<int>(i)));
  session.set_numbered(summaries);
  return out;
}

DetailOutput detail(Session& session, iface::Summary s) {
  iface::Profile& p = session.profile();
  DetailOutput out;
  out.summary = make_row(session, s, -1);
  out.labels = session.labels().labels_of(s);
  for (const auto& [name, members] : session.labels().all())
    out.overlaps.push_back({name, iface::cum_overlap(p, s, members), iface::base_overlap(p, s, members)});
  out.zoomed = session.settings().zoom;
  std::vector<iface::Summary> numbered;
  for (NearbyGroup& group : nearby(p, s, out.zoomed, session.settings().cutoff, session.settings().limit)) {
    NearbyRows rows{group.kind, {}, group.more};
    for (iface::Summary t : group.summaries) {
      rows.rows.push_back(make_row(session, t, static_cast<int>(numbered.size())));
      numbered.push_back(t);
    }
    out.nearby.push_back(std::move(rows));
  }
  session.set_numbered(std::move(numbered));
  return out;
}

LabelsOutput labels_report(Session& session) {
  iface::Profile& p = session.profile();
  LabelsOutput out;
  std::vector<iface::Summary> numbered;
  for (const auto& [name, members] : session.labels().all()) {
    LabelGroup group{name, {}, p.total_cum_of(members), p.total_base_of(members)};
    for (iface::Summary s : members) {
      group.rows.push_back(make_row(session, s, static_cast<int>(numbered.size())));
      numbered.push_back(s);
    }
    out.labels.push_back(std::move(group));
  }
  const std::vector<iface::Summary> all = session.labels().all_summaries();
  out.coverage_cum = p.total_cum_of(all);
  out.coverage_base = p.total_base_of(all);
  session.set_numbered(std::move(numbered));
  return out;
}

}  // namespace bn::repl
