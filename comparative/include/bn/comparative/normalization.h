#pragma once
// How run B is weighed against run A before subtracting (seed 004 sec. 2.2 compares raw costs,
// which assumes both runs did the same work). The factor k is exact: the comparative profile
// reports A − k·B, and every Amount it returns is an integer numerator over one common
// denominator, so sums stay integer adds and nothing drifts (GUIDE.md sec. 3).

#include <string>
#include <string_view>

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

// A normalisation resolved against two concrete sides: value = (a·a_multiplier −
// b·b_multiplier) / denominator, where a and b are numerators over each side's own
// denominator. Computed once, with overflow of the 128-bit Amount refused.
class Scaling {
 public:
  // a_den, b_den: the sides' denominators (positive); a_total, b_total: their totals (numerators).
  // Throws bn::Error when `total` meets an empty B or when the combined denominator or a
  // multiplier does not fit in an Amount.
  Scaling(const Normalization& normalization, iface::Amount a_den, iface::Amount b_den, iface::Amount a_total,
          iface::Amount b_total);

  iface::Amount scale_a(iface::Amount a) const;  // a over a_den → numerator over denominator()
  iface::Amount scale_b(iface::Amount b) const;  // k·b over b_den → numerator over denominator()
  // scale_a(a) − scale_b(b). Throws bn::Error on overflow; never clamps.
  iface::Amount difference(iface::Amount a, iface::Amount b) const;
  iface::Amount denominator() const { return denominator_; }
  const iface::Rational& factor() const { return factor_; }
  // For the header: "none", "total (B × 7/5)", "scale (B × 1/2)".
  std::string describe() const;

 private:
  Normalization::Kind kind_;
  iface::Rational factor_;
  iface::Amount a_multiplier_ = 1;
  iface::Amount b_multiplier_ = 1;
  iface::Amount denominator_ = 1;
};

}  // namespace bn::comparative
