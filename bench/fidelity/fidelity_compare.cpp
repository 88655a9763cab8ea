// Self-time shares of one thread's running samples in two profiles, and how far apart they are
// (docs/performance.md, "Recorder fidelity"). Each input is either a profile the agent wrote
// (its per-sample records: RUNNABLE samples of the thread, by leaf frame) or async-profiler's
// collapsed output recorded with `threads` and `ann` (lines of the thread, by innermost Java
// frame: frames annotated _[j] compiled, _[i] inlined, _[0] interpreted, _[1] C1; native and
// kernel frames above them are the JVM's or the OS's, which the agent never sees; a sample with
// no Java frame at all is left out). Frame names are normalised alike (normalize_frame).
//
//   bn_fidelity_compare THREAD PROFILE [PROFILE]
//
// A PROFILE may be a comma-separated list of files of one kind, pooled (several rounds).
//
// Prints each profile's sample count and top 10, then, for two, the total-variation distance
// (half the sum of absolute differences of the shares) and how many of one top 10 are in the
// other. Exit status 1 on unreadable input.

#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bn/calltree/frame_names.h"
#include "bn/calltree/profile_reader.h"
#include "bn/calltree/sample_records.h"

namespace {

namespace ct = bn::calltree;

struct Shares {
  std::map<std::string, double> counts;  // leaf method -> samples
  double total = 0;
  double without_java = 0;  // samples with no Java frame, left out
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_java_frame(const std::string& f) {
  for (const char* a : {"_[j]", "_[i]", "_[0]", "_[1]"})
    if (ends_with(f, a)) return true;
  return false;
}

Shares from_collapsed(const std::string& path, const std::string& thread) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  Shares s;
  const std::string prefix = "[" + thread + " tid=";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) != 0) continue;
    const std::size_t space = line.rfind(' ');
    if (space == std::string::npos) continue;
    const double n = std::stod(line.substr(space + 1));
    std::string leaf;
    std::size_t end = space;
    while (end > 0) {
      const std::size_t start = line.rfind(';', end - 1);
      const std::string frame =
          line.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1));
      if (is_java_frame(frame)) {
        leaf = ct::normalize_frame(frame);
        break;
      }
      if (start == std::string::npos) break;
      end = start;
    }
    // No Java frame: the thread was inside the VM, or in the agent's own signal handler when
    // both profilers run in one JVM (async-profiler cannot walk past that handler's frame);
    // the agent never records such a sample, so neither side counts it.
    if (leaf.empty()) {
      s.without_java += n;
      continue;
    }
    s.counts[leaf] += n;
    s.total += n;
  }
  return s;
}

Shares from_agent(const std::string& path, const std::string& thread) {
  const ct::LoadedProfile loaded = ct::read_profile(path);
  const ct::SampleData data = ct::decode_sample_data(loaded, path);
  std::uint32_t index = ct::kNoThread;
  for (const ct::ThreadEntry& t : data.threads)
    if (t.name == thread) index = t.index;
  Shares s;
  // How many of the thread's stacks the agent took by handshake (safepoint-biased), to read
  // beside the distance.
  if (const auto share = loaded.tree.metadata().find_extra("handshake_share_percent"))
    std::printf("%s: running threads' stacks %s%% by handshake\n", path.c_str(), std::string(*share).c_str());
  for (const ct::SampleRecord& r : data.records) {
    if (r.thread != index || (r.state & ct::thread_state::kRunnable) == 0) continue;
    s.counts[std::string(loaded.tree.node_name(r.node))] += 1;
    s.total += 1;
  }
  return s;
}

// A comma-separated list of files is pooled: several runs (rounds) as one profile.
Shares load(const std::string& paths, const std::string& thread) {
  Shares pooled;
  std::size_t start = 0;
  while (start <= paths.size()) {
    const std::size_t comma = std::min(paths.find(',', start), paths.size());
    const std::string path = paths.substr(start, comma - start);
    const Shares s = ends_with(path, ".bnp") ? from_agent(path, thread) : from_collapsed(path, thread);
    for (const auto& [name, count] : s.counts) pooled.counts[name] += count;
    pooled.total += s.total;
    pooled.without_java += s.without_java;
    start = comma + 1;
  }
  return pooled;
}

std::vector<std::string> top(const Shares& s, std::size_t n) {
  std::vector<std::pair<double, std::string>> v;
  for (const auto& [name, count] : s.counts) v.emplace_back(-count, name);
  std::sort(v.begin(), v.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < v.size() && i < n; ++i) out.push_back(v[i].second);
  return out;
}

double share(const Shares& s, const std::string& m) {
  const auto it = s.counts.find(m);
  return it == s.counts.end() || s.total == 0 ? 0 : it->second / s.total;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: %s THREAD PROFILE [PROFILE]\n", argv[0]);
    return 2;
  }
  try {
    const std::string thread = argv[1];
    std::vector<Shares> shares;
    for (int i = 2; i < argc; ++i) shares.push_back(load(argv[i], thread));
    for (std::size_t p = 0; p < shares.size(); ++p) {
      std::printf("%s: %.0f running samples of %s (%.0f more without a Java frame, left out)\n", argv[p + 2],
                  shares[p].total, thread.c_str(), shares[p].without_java);
      for (const std::string& m : top(shares[p], 10)) {
        std::printf("  %6.2f%%  %s", share(shares[p], m) * 100, m.c_str());
        if (shares.size() == 2) std::printf("  (other: %.2f%%)", share(shares[1 - p], m) * 100);
        std::printf("\n");
      }
    }
    if (shares.size() == 2) {
      std::set<std::string> all;
      for (const Shares& s : shares)
        for (const auto& [name, count] : s.counts) all.insert(name);
      double tvd = 0;
      for (const std::string& m : all) tvd += std::abs(share(shares[0], m) - share(shares[1], m));
      const std::vector<std::string> a = top(shares[0], 10), b = top(shares[1], 10);
      int overlap = 0;
      for (const std::string& m : a) overlap += std::find(b.begin(), b.end(), m) != b.end();
      // Where the distance comes from: the methods whose shares differ most.
      std::vector<std::pair<double, std::string>> diffs;
      for (const std::string& m : all) diffs.emplace_back(-std::abs(share(shares[0], m) - share(shares[1], m)), m);
      std::sort(diffs.begin(), diffs.end());
      std::printf("largest differences:\n");
      for (std::size_t i = 0; i < diffs.size() && i < 10; ++i)
        std::printf("  %+6.2f points  %s\n",
                    (share(shares[0], diffs[i].second) - share(shares[1], diffs[i].second)) * 100,
                    diffs[i].second.c_str());
      std::printf("tvd %.3f top10_overlap %d\n", tvd / 2, overlap);
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", argv[0], e.what());
    return 1;
  }
}
