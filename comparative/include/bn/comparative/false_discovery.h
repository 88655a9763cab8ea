#pragma once
// False-discovery control over every difference a report tests (Benjamini & Hochberg 1995,
// the step-up procedure): of m p-values sorted ascending, p_(1) ≤ ... ≤ p_(m), reject the k
// smallest for the largest k with p_(k) ≤ k·q/m. Among the differences called significant, the
// expected share of chance ones is then at most q (for independent or positively dependent
// tests, Benjamini & Yekutieli 2001), so "3 significant regressions" means about that.

#include <span>
#include <vector>

namespace bn::comparative {

// Whether each hypothesis, in the order given, is rejected at false-discovery rate q.
std::vector<bool> benjamini_hochberg(std::span<const double> p, double q = 0.05);

}  // namespace bn::comparative
