#include "bn/comparative/run_shares.h"

#include <numeric>
#include <vector>

namespace bn::comparative {
namespace {

double to_double(const iface::Rational& r) { return r.convert_to<double>(); }

struct Runs {
  std::vector<double> cums, totals;  // A's runs first, in each run's unit
  std::size_t a_runs = 0;
  double k = 1;  // B's weight
  bool own_totals = false;
  bool samples = false;
  double b_total = 0;  // k times B's mean total
};

Runs runs_of(ComparativeProfile& p, std::vector<iface::Rational> cums) {
  Runs r;
  for (const iface::Rational& c : cums) r.cums.push_back(to_double(c));
  for (const iface::Rational& t : p.run_totals()) r.totals.push_back(to_double(t));
  r.a_runs = p.scaling().a_runs();
  r.k = to_double(p.scaling().factor());
  r.own_totals = p.scaling().kind() == Normalization::Kind::total;
  r.samples = p.metric().is_sample_count;
  const double b_sum = std::accumulate(r.totals.begin() + static_cast<std::ptrdiff_t>(r.a_runs), r.totals.end(), 0.0);
  r.b_total = r.k * b_sum / static_cast<double>(r.totals.size() - r.a_runs);
  if (r.b_total <= 0) throw Error("the baseline's total is 0: there is nothing to take a share of");
  return r;
}

// `variance(i)`: the sampling variance of run i's count, before dividing by the denominator.
template <class Variance>
RunShares shares(const Runs& r, Variance variance) {
  RunShares out;
  for (std::size_t i = 0; i < r.cums.size(); ++i) {
    const bool in_a = i < r.a_runs;
    const double weight = in_a || r.own_totals ? 1 : r.k;
    const double denominator = r.own_totals ? r.totals[i] : r.b_total;
    SideShares& side = in_a ? out.a : out.b;
    side.shares.push_back(denominator > 0 ? weight * r.cums[i] / denominator : 0);
    side.sampling.push_back(r.samples && denominator > 0 ? weight * weight * variance(i) / (denominator * denominator)
                                                         : 0);
  }
  return out;
}

}  // namespace

RunShares run_shares(ComparativeProfile& p, std::span<const iface::Summary> S) {
  const Runs r = runs_of(p, p.run_cums(S));
  return shares(r, [&](std::size_t i) {
    const double n = r.totals[i];
    const double share = n > 0 ? r.cums[i] / n : 0;
    return n * share * (1 - share);
  });
}

std::optional<RunShares> total_shares(ComparativeProfile& p) {
  const Runs r = runs_of(p, p.run_totals());
  if (r.own_totals) return std::nullopt;
  return shares(r, [&](std::size_t i) { return r.totals[i]; });
}

}  // namespace bn::comparative
