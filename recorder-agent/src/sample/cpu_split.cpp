#include "sample/cpu_split.h"

namespace bn::agent {

bool CpuSplit::worth_reading(std::int64_t clock_ns) const {
  return !has_baseline_ || clock_ns < 0 || clock_ns != clock_ns_;
}

void CpuSplit::on_reading(std::int64_t now_ns, std::int64_t clock_ns, const SchedStat& s, calltree::SampleRecord& r) {
  if (has_baseline_ && s.run_ns >= run_ns_ && s.wait_ns >= wait_ns_) {
    r.has_cpu = true;
    r.elapsed_ns = static_cast<std::uint64_t>(now_ns - time_ns_);
    r.run_ns = s.run_ns - run_ns_;
    r.wait_ns = s.wait_ns - wait_ns_;
  }
  has_baseline_ = true;
  time_ns_ = now_ns;
  clock_ns_ = clock_ns;
  run_ns_ = s.run_ns;
  wait_ns_ = s.wait_ns;
}

void CpuSplit::on_unchanged(std::int64_t now_ns, calltree::SampleRecord& r) {
  if (!has_baseline_) return;
  r.has_cpu = true;
  r.elapsed_ns = static_cast<std::uint64_t>(now_ns - time_ns_);
  r.run_ns = 0;
  r.wait_ns = 0;
  time_ns_ = now_ns;
}

}  // namespace bn::agent
