#include "bn/comparative/max_t.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>

#include "bn/base/error.h"

namespace bn::comparative {
namespace {

using Labelling = std::vector<bool>;  // true: the run is A's; runs in the family's order

std::vector<Labelling> all_labellings(std::size_t a_runs, std::size_t runs) {
  // Combinations of a_runs out of runs in lexicographic order, the real one (A first) first.
  std::vector<Labelling> out;
  Labelling current(runs, false);
  std::fill(current.begin(), current.begin() + static_cast<std::ptrdiff_t>(a_runs), true);
  do out.push_back(current);
  while (std::prev_permutation(current.begin(), current.end()));
  return out;
}

std::vector<Labelling> drawn_labellings(std::size_t a_runs, std::size_t runs) {
  std::vector<Labelling> out;
  Labelling real(runs, false);
  std::fill(real.begin(), real.begin() + static_cast<std::ptrdiff_t>(a_runs), true);
  out.push_back(real);
  std::mt19937_64 random(20040615);  // fixed: the same report for the same runs
  while (out.size() < kMaxLabellings) {
    Labelling l = real;
    std::shuffle(l.begin(), l.end(), random);
    out.push_back(std::move(l));
  }
  return out;
}

// One member's runs, A's then B's, as one array each for the shares and sampling variances.
struct Member {
  std::vector<double> shares, sampling;
};

Member member_of(const RunShares& r) {
  Member m;
  for (const SideShares* side : {&r.a, &r.b}) {
    m.shares.insert(m.shares.end(), side->shares.begin(), side->shares.end());
    m.sampling.insert(m.sampling.end(), side->sampling.begin(), side->sampling.end());
  }
  return m;
}

// Welch's t of one member under one labelling; ±infinity when the difference has no variance.
class Statistic {
 public:
  explicit Statistic(std::size_t runs) { reserve(runs); }
  double operator()(const Member& m, const Labelling& l) {
    a_.clear(), b_.clear(), a_sampling_.clear(), b_sampling_.clear();
    for (std::size_t i = 0; i < l.size(); ++i) {
      (l[i] ? a_ : b_).push_back(m.shares[i]);
      (l[i] ? a_sampling_ : b_sampling_).push_back(m.sampling[i]);
    }
    const SideMoments a = side_moments(a_, a_sampling_), b = side_moments(b_, b_sampling_);
    const double difference = a.mean - b.mean, se = standard_error(a, b);
    if (se > 0) return difference / se;
    if (difference == 0) return 0;
    return std::copysign(std::numeric_limits<double>::infinity(), difference);
  }

 private:
  void reserve(std::size_t n) {
    for (std::vector<double>* v : {&a_, &b_, &a_sampling_, &b_sampling_}) v->reserve(n);
  }
  std::vector<double> a_, b_, a_sampling_, b_sampling_;
};

// The value c of the sorted largest statistics above which at most alpha of the labellings lie.
double critical(std::vector<double> largest, double alpha) {
  std::sort(largest.begin(), largest.end(), std::greater<>());
  const auto allowed = static_cast<std::size_t>(std::floor(alpha * static_cast<double>(largest.size())));
  return largest[std::min(allowed, largest.size() - 1)];
}

// Labellings that give the same t in exact arithmetic (tied shares, a side's runs in another
// order) differ in the last bits: a maximum within this relative distance reaches t.
constexpr double kTies = 1e-9;

double share_reaching(const std::vector<double>& largest, double t) {
  const auto reached =
      std::count_if(largest.begin(), largest.end(), [t](double m) { return m >= t || m >= t - kTies * std::abs(t); });
  return static_cast<double>(reached) / static_cast<double>(largest.size());
}

}  // namespace

std::size_t labellings_of(std::size_t a_runs, std::size_t b_runs) {
  // C(n, k) by the product formula; each partial product is itself a binomial coefficient.
  const std::size_t k = std::min(a_runs, b_runs), n = a_runs + b_runs;
  std::uint64_t c = 1;
  for (std::size_t i = 1; i <= k; ++i) {
    c = c * (n - k + i) / i;
    if (c > kMaxLabellings) return kMaxLabellings + 1;
  }
  return static_cast<std::size_t>(c);
}

MaxTTest max_t_test(std::span<const RunShares> family, double alpha) {
  MaxTTest out;
  if (family.empty()) return out;
  const std::size_t a_runs = family.front().a.shares.size(), b_runs = family.front().b.shares.size();
  if (a_runs == 0 || b_runs == 0) throw Error("max_t_test: a side has no runs");
  std::vector<Member> members;
  for (const RunShares& r : family) {
    if (r.a.shares.size() != a_runs || r.b.shares.size() != b_runs)
      throw Error("max_t_test: the family's members have different runs");
    members.push_back(member_of(r));
  }
  const std::size_t runs = a_runs + b_runs;
  out.exhaustive = labellings_of(a_runs, b_runs) <= kMaxLabellings;
  const std::vector<Labelling> labellings =
      out.exhaustive ? all_labellings(a_runs, runs) : drawn_labellings(a_runs, runs);
  out.labellings = labellings.size();

  Statistic statistic(runs);
  std::vector<double> largest_up, largest_down;
  largest_up.reserve(labellings.size());
  largest_down.reserve(labellings.size());
  for (const Labelling& l : labellings) {
    double up = -std::numeric_limits<double>::infinity(), down = up;
    for (const Member& m : members) {
      const double t = statistic(m, l);
      if (&l == &labellings.front()) out.t.push_back(t);
      up = std::max(up, t);
      down = std::max(down, -t);
    }
    largest_up.push_back(up);
    largest_down.push_back(down);
  }
  for (const double t : out.t)
    out.p.push_back(t > 0 ? share_reaching(largest_up, t) : t < 0 ? share_reaching(largest_down, -t) : 1.0);
  out.up = critical(largest_up, alpha);
  out.down = critical(largest_down, alpha);
  return out;
}

}  // namespace bn::comparative
