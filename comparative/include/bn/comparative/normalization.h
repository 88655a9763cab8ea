#pragma once
// How run B is weighed against run A before subtracting (seed 004 sec. 2.2 compares raw costs,
// which assumes both runs did the same work). The factor k is exact: the comparative profile
// reports A − k·B, and every Amount it returns is an integer numerator over one common
// denominator, so sums stay integer adds and nothing drifts (docs/architecture.md "Costs are exact").

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bn/iface/amount.h"

namespace bn::comparative {

struct Normalization {
  enum class Kind {
    none,   // k = 1: the paper's setting (equal work in both runs)
    total,  // k = total(A) / total(B): B scaled to A's total, so the difference sums to zero
    scale,  // k = factor, given by the user
  };
  Kind kind = Kind::none;
  iface::Rational factor = 1;  // used by Kind::scale only
};

// "none" or "total". Throws bn::Error naming the bad value.
Normalization parse_normalize_mode(std::string_view text);
// A positive decimal or fraction, parsed exactly: "2", "0.25", "1/3", "1.5/2". Throws bn::Error
// naming the bad text; refuses zero, signs, exponents and more than 30 digits.
iface::Rational parse_scale_factor(std::string_view text);

// One run of a side as the scaling needs it: its denominator (positive) and total (a numerator).
struct RunFacts {
  iface::Amount denominator = 1;
  iface::Amount total = 0;
};

// A normalisation resolved against concrete runs. Each side is the mean of its runs (n_A, n_B >=
// 1), so value = Σ_i a_i·A_multiplier_i − Σ_j b_j·B_multiplier_j over denominator(), where a_i
// and b_j are numerators over each run's own denominator: A_multiplier_i stands for 1 / (n_A ·
// den_i) and B_multiplier_j for k / (n_B · den_j). The mean of n runs is thus their exact sum
// over n. Computed once, with overflow of the 128-bit Amount refused.
class Scaling {
 public:
  // `total` weighs B's mean so that its total is A's mean total. Throws bn::Error when a side has
  // no runs, when `total` meets a B whose total is 0, or when the common denominator or a
  // multiplier does not fit in an Amount.
  Scaling(const Normalization& normalization, std::span<const RunFacts> a, std::span<const RunFacts> b);

  std::size_t a_runs() const { return a_multipliers_.size(); }
  std::size_t b_runs() const { return b_multipliers_.size(); }
  // Run `run` of A's a over its denominator → its share of A's mean, over denominator().
  iface::Amount scale_a(iface::Amount a, std::size_t run = 0) const;
  // Run `run` of B's b over its denominator → its share of k times B's mean, over denominator().
  iface::Amount scale_b(iface::Amount b, std::size_t run = 0) const;
  // Σ scale_a(a[i], i) − Σ scale_b(b[j], j), one value per run (0 where a run lacks what is
  // measured). Throws bn::Error on overflow; never clamps.
  iface::Amount difference(std::span<const iface::Amount> a, std::span<const iface::Amount> b) const;
  iface::Amount denominator() const { return denominator_; }
  const iface::Rational& factor() const { return factor_; }
  Normalization::Kind kind() const { return kind_; }
  // For the header: "none", "total (B × 7/5)", "scale (B × 1/2)".
  std::string describe() const;

 private:
  Normalization::Kind kind_;
  iface::Rational factor_;
  std::vector<iface::Amount> a_multipliers_, b_multipliers_;  // by run
  iface::Amount denominator_ = 1;
};

}  // namespace bn::comparative
