#include "bn/calltree/synthetic_tree.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "bn/base/error.h"

namespace bn::calltree {
namespace {

// Mean out-degree of interior nodes (seed 004 Table 5 reports 1.89).
constexpr double kOutDegree = 1.9;
// The depth bell: density ~ d^shape * exp(-d / scale), of mean (shape + 1) * scale before the
// taper to max_depth and the growth limit near the top pull it down.
struct Bell {
  double shape;
  double scale;
  double mode() const { return shape * scale; }
};
// Mean 49.5 before the taper: about 47.
constexpr Bell kUsualBell{8.0, 5.5};
// Seed 004 Table 1 (Trade3 on WebSphere): mean depth 59.9 and 64.6, max depth 135 in both
// runs. Mean 72 before the taper to 135: about 66.
constexpr Bell kDeepBell{11.0, 6.0};
constexpr std::uint32_t kDeepMaxDepth = 135;
// Application methods are drawn per band of this many depths (framework frames keep their depth).
constexpr std::uint32_t kBandDepths = 6;
// Fleet hosts (synthetic_tree.h): a rare leaf is taken on a host with a probability between
// 1/kRarestTaken and 1; a host's costs are the program's times a factor between 1/kHostSpread
// and kHostSpread.
constexpr double kRarestTaken = 100;
constexpr double kHostSpread = 2;
// Sets the fleet's draws apart from the shape's.
constexpr std::uint64_t kFleetSalt = 0x6a09e667f3bcc909;

// splitmix64: tiny, fast, and the same sequence everywhere.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [0, n), n > 0.
  std::uint64_t below(std::uint64_t n) { return static_cast<std::uint64_t>(unit() * static_cast<double>(n)); }
  bool chance(double p) { return unit() < p; }
  // Zipf-like rank in [0, n): log-uniform, so rank r has probability ~ 1 / ((r + 1.5) ln(n + 1)).
  std::uint32_t zipf(std::uint32_t n) {
    const auto r = static_cast<std::uint64_t>(std::exp(unit() * std::log(n + 1.0)));
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(r == 0 ? 0 : r - 1, n - 1));
  }
  // Heavy-tailed sample count >= 1: P(c >= k) = k^-1.25, capped.
  Cost samples() { return static_cast<Cost>(std::min(1e6, std::floor(std::pow(1.0 - unit(), -0.8)))); }

 private:
  std::uint64_t state_;
};

std::uint32_t max_depth_for(std::uint64_t nodes) {
  const double d = 60.0 + 12.0 * std::log10(static_cast<double>(nodes) / 1000.0);
  return static_cast<std::uint32_t>(std::clamp(std::lround(d), 20L, 135L));
}

// counts[d] = nodes at depth d (counts[0] = 1, the synthetic root). Depth 1 holds `threads`
// nodes; each later depth follows the bell scaled by `scale`, but at most kOutDegree times the
// depth above (every node of it interior), never fewer than the depth above before the bell's
// mode (the threads' framework frames), and at least 1.
std::vector<std::uint64_t> counts_for(const std::vector<double>& bell, double mode, std::uint64_t threads,
                                      double scale) {
  std::vector<std::uint64_t> counts(bell.size());
  counts[0] = 1;
  counts[1] = threads;
  for (std::size_t d = 2; d < bell.size(); ++d) {
    const auto cap = static_cast<std::uint64_t>(kOutDegree * static_cast<double>(counts[d - 1]));
    const std::uint64_t floor = static_cast<double>(d) < mode ? counts[d - 1] : 1;
    const auto target = static_cast<std::uint64_t>(std::llround(scale * bell[d]));
    counts[d] = std::max(floor, std::min(cap, target));
  }
  return counts;
}

std::vector<std::uint64_t> level_counts(std::uint64_t nodes, bool deep) {
  const Bell shape = deep ? kDeepBell : kUsualBell;
  const std::uint32_t max_depth = deep ? kDeepMaxDepth : max_depth_for(nodes);
  std::vector<double> bell(max_depth + 1, 0.0);
  for (std::uint32_t d = 1; d <= max_depth; ++d) {
    // The taper takes the bell's long right tail to zero at max_depth + 1.
    const double taper = 1.0 - std::pow(d / (max_depth + 1.0), 6.0);
    bell[d] = std::exp(shape.shape * std::log(d / shape.mode()) - (d - shape.mode()) / shape.scale) * taper;
  }
  // Few threads, fewer still in tiny trees, whose trunk must fit under the mode.
  const std::uint64_t threads =
      std::clamp<std::uint64_t>(std::llround(std::log2(static_cast<double>(nodes))), 1,
                                std::clamp<std::uint64_t>(nodes / (std::uint64_t{4} * max_depth), 1, 32));
  auto total = [](const std::vector<std::uint64_t>& c) {
    std::uint64_t s = 0;
    for (std::size_t d = 1; d < c.size(); ++d) s += c[d];
    return s;
  };
  // The largest scale whose total does not exceed `nodes`; the rounding residual goes to the
  // widest depth, which is far from its growth limit.
  double lo = 0.0, hi = static_cast<double>(nodes);
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (total(counts_for(bell, shape.mode(), threads, mid)) <= nodes ? lo : hi) = mid;
  }
  std::vector<std::uint64_t> counts = counts_for(bell, shape.mode(), threads, lo);
  const std::uint64_t sum = total(counts);
  if (sum > nodes) throw Error("cannot generate a synthetic tree of " + std::to_string(nodes) + " nodes: too few");
  *std::max_element(counts.begin() + 1, counts.end()) += nodes - sum;
  return counts;
}

// Links each depth to the one above: about count/kOutDegree of the upper nodes, picked at
// random, get one child each plus the rest spread uniformly. Fills table.parent in BFS order.
void link_levels(const std::vector<std::uint64_t>& counts, NodeTable& table, Rng& rng) {
  table.parent.assign(1, kNoNode);
  std::uint64_t upper_begin = 0;
  std::vector<std::uint32_t> kids;
  for (std::size_t d = 1; d < counts.size(); ++d) {
    const std::uint64_t upper = counts[d - 1], lower = counts[d];
    const std::uint64_t interior =
        d == 1 ? 1 : std::min(upper, static_cast<std::uint64_t>(std::ceil(static_cast<double>(lower) / kOutDegree)));
    kids.assign(interior, 1);
    for (std::uint64_t extra = lower - interior; extra > 0; --extra) ++kids[rng.below(interior)];
    // Selection sampling (Knuth, TAOCP 3.4.2 algorithm S) keeps the chosen parents in order.
    std::uint64_t chosen = 0;
    for (std::uint64_t j = 0; j < upper && chosen < interior; ++j) {
      if (rng.below(upper - j) >= interior - chosen) continue;
      for (std::uint32_t k = 0; k < kids[chosen]; ++k) table.parent.push_back(static_cast<NodeId>(upper_begin + j));
      ++chosen;
    }
    upper_begin += upper;
  }
}

struct MethodPools {
  std::uint32_t utilities;  // ids [0, utilities)
  std::uint32_t apps;       // ids [utilities, utilities + apps)
};

StringTable method_names(const MethodPools& pools) {
  StringTable names;
  for (std::uint32_t k = 0; k < pools.utilities; ++k)
    names.append("java.util.Helper" + std::to_string(k / 8) + ".op" + std::to_string(k % 8));
  for (std::uint32_t k = 0; k < pools.apps; ++k)
    names.append("com.example.app.pkg" + std::to_string(k / 64) + ".Service" + std::to_string(k / 8) + ".handle" +
                 std::to_string(k % 8));
  return names;
}

// Assigns methods (siblings distinct) and costs, depth by depth.
void label_nodes(const std::vector<std::uint64_t>& counts, const MethodPools& pools, NodeTable& table, Rng& rng) {
  const std::size_t n = table.parent.size();
  std::vector<std::uint8_t> interior(n, 0);
  for (std::size_t i = 1; i < n; ++i) interior[table.parent[i]] = 1;
  table.method.assign(n, kNoMethod);
  table.cost.assign(n, 0);
  auto app = [&](std::uint32_t depth) {
    const std::uint64_t band = depth / kBandDepths;
    return pools.utilities + static_cast<MethodId>((rng.zipf(pools.apps) + band * 7919) % pools.apps);
  };
  std::vector<MethodId> siblings;
  std::size_t i = 1;
  for (std::uint32_t depth = 1; depth < counts.size(); ++depth) {
    for (std::uint64_t k = 0; k < counts[depth]; ++k, ++i) {
      const NodeId p = table.parent[i];
      if (p != table.parent[i - 1]) siblings.clear();
      const MethodId up = table.method[p];
      const MethodId up2 = p == kRootNode ? kNoMethod : table.method[table.parent[p]];
      auto draw = [&]() -> MethodId {
        const double u = rng.unit();
        if (interior[i]) {
          if (u < 0.03 && up != kNoMethod) return up;    // direct recursion
          if (u < 0.04 && up2 != kNoMethod) return up2;  // a -> b -> a
          if (u < 0.14) return rng.zipf(pools.utilities);
          return app(depth);
        }
        if (u < 0.02 && up != kNoMethod) return up;
        if (u < 0.85) return rng.zipf(pools.utilities);
        return app(depth);
      };
      auto taken = [&](MethodId m) { return std::find(siblings.begin(), siblings.end(), m) != siblings.end(); };
      MethodId m = draw();
      for (int tries = 0; tries < 16 && taken(m); ++tries) m = draw();
      // Siblings are few (their count is ~1 + Poisson(0.9)) and apps >= 768, so this ends.
      while (taken(m))
        m = m < pools.utilities ? pools.utilities : pools.utilities + (m + 1 - pools.utilities) % pools.apps;
      siblings.push_back(m);
      table.method[i] = m;
      if (!interior[i] || rng.chance(0.25)) table.cost[i] = rng.samples();
    }
  }
}

// Seeds the draws of host `host` >= 1, its own for every (seed, host), and with host 0 the
// program's fleet-wide ones.
std::uint64_t host_seed(std::uint64_t seed, std::uint64_t host) {
  return Rng(Rng(seed ^ kFleetSalt).next() + host).next();
}

// Turns the program's tree in `table` into host `host`'s profile (synthetic_tree.h, "Fleet"):
// costs scaled by the host's factors, each rare leaf kept with its own probability, and the nodes
// left without cost below them removed.
void run_on_host(NodeTable& table, std::uint64_t seed, std::uint64_t host) {
  const std::size_t n = table.parent.size();
  std::vector<std::uint8_t> interior(n, 0);
  for (std::size_t i = 1; i < n; ++i) interior[table.parent[i]] = 1;
  // How often each rare path is taken is the program's, the same on every host.
  Rng program(host_seed(seed, 0));
  Rng rng(host_seed(seed, host));
  for (std::size_t i = 1; i < n; ++i) {
    Cost& cost = table.cost[i];
    if (cost == 0) continue;
    if (!interior[i] && cost == 1) {
      const double taken = std::exp(-program.unit() * std::log(kRarestTaken));
      if (!rng.chance(taken)) {
        cost = 0;
        continue;
      }
    }
    const double factor = std::exp((2 * rng.unit() - 1) * std::log(kHostSpread));
    cost = std::max<Cost>(1, static_cast<Cost>(std::llround(static_cast<double>(cost) * factor)));
  }
  // Parents come before their children: one pass up marks the nodes with cost below them, one
  // pass down renumbers them.
  std::vector<std::uint8_t> keep(n, 0);
  keep[kRootNode] = 1;
  for (std::size_t i = n - 1; i > 0; --i)
    if (keep[i] || table.cost[i] != 0) keep[i] = keep[table.parent[i]] = 1;
  std::vector<NodeId> renumbered(n, kNoNode);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!keep[i]) continue;
    renumbered[i] = static_cast<NodeId>(kept);
    table.parent[kept] = i == kRootNode ? kNoNode : renumbered[table.parent[i]];
    table.method[kept] = table.method[i];
    table.cost[kept] = table.cost[i];
    ++kept;
  }
  table.parent.resize(kept);
  table.method.resize(kept);
  table.cost.resize(kept);
}

}  // namespace

CallTree generate_synthetic_tree(const SyntheticOptions& options) {
  if (options.nodes < 100 || options.nodes > kMaxNodes)
    throw Error("cannot generate a synthetic tree of " + std::to_string(options.nodes) +
                " nodes: the size must be between 100 and " + std::to_string(kMaxNodes));
  Rng rng(options.seed);
  const std::vector<std::uint64_t> counts = level_counts(options.nodes, options.deep);
  const auto methods = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(options.nodes / 64, 1024, 1 << 18));
  const MethodPools pools{methods / 4, methods - methods / 4};

  NodeTable table;
  table.parent.reserve(options.nodes + 1);
  link_levels(counts, table, rng);
  label_nodes(counts, pools, table, rng);
  if (options.host != 0) run_on_host(table, options.seed, options.host);

  Metadata metadata;
  metadata.mode = "synthetic";
  metadata.metric = "samples";
  metadata.unit = "samples";
  metadata.set_extra("synthetic.nodes", std::to_string(options.nodes));
  metadata.set_extra("synthetic.seed", std::to_string(options.seed));
  if (options.deep) metadata.set_extra("synthetic.shape", "deep");
  if (options.host != 0) metadata.set_extra("synthetic.host", std::to_string(options.host));
  std::vector<MetricColumn> extra;
  if (options.calls) {
    Rng calls_rng((options.host == 0 ? options.seed : host_seed(options.seed, options.host)) ^ 0x9e3779b97f4a7c15);
    MetricColumn calls{{"calls", "count"}, std::vector<Cost>(table.parent.size(), 0)};
    for (std::size_t i = 1; i < calls.cost.size(); ++i) calls.cost[i] = 1 + calls_rng.samples();
    extra.push_back(std::move(calls));
  }
  return CallTree::build(std::move(table), method_names(pools), std::move(metadata), std::move(extra));
}

}  // namespace bn::calltree
