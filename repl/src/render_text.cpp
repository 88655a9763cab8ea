#include <algorithm>
#include <string>

#include "bn/repl/method_names.h"
#include "bn/repl/render.h"

namespace bn::repl {
namespace {

using iface::Amount;

constexpr std::string_view kReset = "\033[0m";

// Warmer for a larger share of the total, like CPPROFJ's colouring of hot paths.
std::string_view heat(Amount cum, const RenderContext& c) {
  if (!c.color || c.percent_base.amount == 0) return {};
  const iface::Rational share = iface::to_rational(iface::abs_amount(cum), iface::abs_amount(c.percent_base.amount));
  if (share >= iface::Rational(1, 2)) return "\033[1;31m";
  if (share >= iface::Rational(1, 5)) return "\033[31m";
  if (share >= iface::Rational(1, 20)) return "\033[33m";
  if (share >= iface::Rational(1, 100)) return "\033[32m";
  return "\033[34m";
}

std::string painted(std::string text, std::string_view colour) {
  return colour.empty() ? text : std::string(colour) + text + std::string(kReset);
}

std::string pad_left(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

std::string value(Amount a, const RenderContext& c) { return iface::decimal_string(a, c.denominator); }
std::string share(Amount a, const RenderContext& c) { return iface::percent_string(a, c.percent_base.amount); }
// "12.5% of total", "12.5% of A".
std::string share_of(Amount a, const RenderContext& c) { return share(a, c) + " of " + c.percent_base.name; }

constexpr std::string_view kUnreliable = "  (unreliable: under 10 samples)";
// The mark of a difference within sampling noise (noise.h); docs/compare.md, "Noise".
std::string_view noise_mark(const Row& r) { return r.noise && !r.noise->significant() ? "  (within noise)" : ""; }

// A comparative profile's side value, "-" when the call sequence has no root in that run.
std::string side_value(bool present, Amount a, const RenderContext& c) { return present ? value(a, c) : "-"; }

// Column widths shared by every row of one output, so groups line up.
struct Widths {
  std::size_t number = 1, cum = 3, cum_share = 1, base = 4, base_share = 1;
  std::size_t a_cum = 5, b_cum = 5;  // "A cum" and "B cum" columns of a comparative profile
  bool sides = false;
  void fit(const Row& r, const RenderContext& c) {
    if (r.sides) {
      sides = true;
      a_cum = std::max(a_cum, side_value(r.sides->in_a, r.sides->a_cum, c).size());
      b_cum = std::max(b_cum, side_value(r.sides->in_b, r.sides->b_cum, c).size());
    }
    number = std::max(number, std::to_string(r.number).size());
    cum = std::max(cum, value(r.cum, c).size());
    cum_share = std::max(cum_share, share(r.cum, c).size());
    base = std::max(base, value(r.base, c).size());
    base_share = std::max(base_share, share(r.base, c).size());
  }
};

// The A and B columns after cum and base, so "absent in B" is visible at a glance.
std::string side_cells(const Widths& w, const std::string& a, const std::string& b) {
  return w.sides ? "  " + pad_left(a, w.a_cum) + "  " + pad_left(b, w.b_cum) : "";
}

void header(const Widths& w, std::string_view indent, std::ostream& out) {
  out << indent << pad_left("#", w.number) << "  " << pad_left("cum", w.cum) << " " << pad_left("%", w.cum_share)
      << "  " << pad_left("base", w.base) << " " << pad_left("%", w.base_share) << side_cells(w, "A cum", "B cum")
      << "  summary\n";
}

void row(const Row& r, const Widths& w, const RenderContext& c, std::string_view indent, std::ostream& out) {
  const std::string_view colour = heat(r.cum, c);
  out << indent << pad_left(std::to_string(r.number), w.number) << "  "
      << painted(pad_left(value(r.cum, c), w.cum) + " " + pad_left(share(r.cum, c), w.cum_share), colour) << "  "
      << pad_left(value(r.base, c), w.base) << " " << pad_left(share(r.base, c), w.base_share)
      << (r.sides ? side_cells(w, side_value(r.sides->in_a, r.sides->a_cum, c),
                               side_value(r.sides->in_b, r.sides->b_cum, c))
                  : "")
      << "  " << painted(display_path(r.path, c.names), colour) << (r.unreliable ? kUnreliable : "") << noise_mark(r)
      << "\n";
}

void rows(const std::vector<Row>& list, const Widths& w, const RenderContext& c, std::string_view indent,
          std::ostream& out) {
  if (list.empty()) {
    out << indent << "(none)\n";
    return;
  }
  header(w, indent, out);
  for (const Row& r : list) row(r, w, c, indent, out);
}

void render(const ListOutput& o, const RenderContext& c, std::ostream& out) {
  Widths w;
  for (const Row& r : o.rows) w.fit(r, c);
  out << o.title << ":\n";
  rows(o.rows, w, c, "  ", out);
}

void render(const DetailOutput& o, const RenderContext& c, std::ostream& out) {
  const Row& s = o.summary;
  out << painted(display_path(s.path, c.names), heat(s.cum, c)) << (s.unreliable ? kUnreliable : "") << noise_mark(s)
      << "\n";
  if (!o.labels.empty()) {
    out << "  labels:";
    for (const std::string& l : o.labels) out << " " << l;
    out << "\n";
  }
  const std::size_t width = std::max(value(s.cum, c).size(), value(s.base, c).size());
  out << "  cum  " << pad_left(value(s.cum, c), width) << "  (" << share_of(s.cum, c) << ")\n";
  out << "  base " << pad_left(value(s.base, c), width) << "  (" << share_of(s.base, c) << ")\n";
  if (s.sides) {
    const auto side = [&](std::string_view name, bool present, Amount cum, Amount base) {
      out << "  in " << name << ": "
          << (present ? "cum " + value(cum, c) + ", base " + value(base, c) : std::string("absent (counts 0)")) << "\n";
    };
    side("A", s.sides->in_a, s.sides->a_cum, s.sides->a_base);
    side("B", s.sides->in_b, s.sides->b_cum, s.sides->b_base);
  }
  if (s.noise)
    out << "  difference of cum: |z| = " << s.noise->z_text()
        << (s.noise->significant() ? " (beyond sampling noise)" : " (within sampling noise: under ")
        << (s.noise->significant() ? "" : std::to_string(iface::kSignificantZ) + ")") << "\n";
  for (const LabelOverlap& ov : o.overlaps)
    out << "  overlap with label " << ov.label << ": cum " << value(ov.cum, c) << " ("
        << iface::percent_string(ov.cum, s.cum) << " of this cum), base " << value(ov.base, c) << " ("
        << iface::percent_string(ov.base, s.base) << " of this base)\n";
  out << "  call path:\n";
  for (std::string_view m : s.path) out << "    " << display_name(m, c.names) << "\n";
  Widths w;
  for (const NearbyRows& group : o.nearby)
    for (const Row& r : group.rows) w.fit(r, c);
  for (const NearbyRows& group : o.nearby) {
    out << "  " << nearby_kind_name(group.kind) << (o.zoomed ? " (zoomed)" : "") << ":\n";
    rows(group.rows, w, c, "    ", out);
    if (group.more > 0) out << "    ... and " << group.more << " more (set limit all)\n";
  }
}

void render(const LabelsOutput& o, const RenderContext& c, std::ostream& out) {
  if (o.labels.empty()) {
    out << "no labels yet: `label NAME` labels the current summary\n";
    return;
  }
  Widths w;
  for (const LabelGroup& g : o.labels)
    for (const Row& r : g.rows) w.fit(r, c);
  for (const LabelGroup& g : o.labels) {
    out << "label " << g.label << ": cum " << value(g.total_cum, c) << " (" << share_of(g.total_cum, c) << "), base "
        << value(g.total_base, c) << " (" << share_of(g.total_base, c) << ")\n";
    rows(g.rows, w, c, "  ", out);
  }
  out << "all labels together: cum " << value(o.coverage_cum, c) << " (" << share_of(o.coverage_cum, c) << "), base "
      << value(o.coverage_base, c) << " (" << share_of(o.coverage_base, c) << ")\n";
}

// Why autolabel proposed a summary: the suggestion it started from and the move that led here.
std::string origin_text(const AutolabelRow& r, const RenderContext& c) {
  std::string text = std::string(suggester_name(r.origin.suggester)) + " #" + std::to_string(r.origin.rank) + " " +
                     display_path(r.suggestion, c.names);
  switch (r.origin.move) {
    case AutolabelMove::kSuggestion:
      return text + " itself";
    case AutolabelMove::kCallers:
      return text + ", extended through its callers while one held the cutoff share (bottom-up)";
    case AutolabelMove::kCallees:
      return text + ", extended through its callees while one held the cutoff share (top-down)";
  }
  return text;
}

void render(const AutolabelOutput& o, const RenderContext& c, std::ostream& out) {
  out << "autolabel: " << o.rows.size() << " non-overlapping proposals (at most " << o.asked << ") from "
      << o.candidates << " candidates; "
      << (o.best_of_candidates ? "the heaviest such set of candidates"
                               : "the heaviest set found within the search budget (not proven best)")
      << "\n";
  const std::size_t skipped = o.too_general + o.overlapping_labels + o.within_noise;
  if (skipped > 0)
    out << "not proposed: " << o.too_general << " too general (ending in a trunk method), " << o.overlapping_labels
        << " overlapping a label, " << o.within_noise << " within noise\n";
  if (o.rows.empty()) return;
  std::size_t label = 5, covered = 7, covered_share = 1;
  Widths w;
  for (const AutolabelRow& r : o.rows) {
    w.fit(r.row, c);
    label = std::max(label, r.label.size());
    covered = std::max(covered, value(r.covered, c).size());
    covered_share = std::max(covered_share, share(r.covered, c).size());
  }
  out << "  " << pad_left("#", w.number) << "  " << pad_left("cum", w.cum) << " " << pad_left("%", w.cum_share) << "  "
      << pad_left("covered", covered) << " " << pad_left("%", covered_share) << "  " << std::string(label - 5, ' ')
      << "label  summary\n";
  for (const AutolabelRow& r : o.rows) {
    out << "  " << pad_left(std::to_string(r.row.number), w.number) << "  " << pad_left(value(r.row.cum, c), w.cum)
        << " " << pad_left(share(r.row.cum, c), w.cum_share) << "  " << pad_left(value(r.covered, c), covered) << " "
        << pad_left(share(r.covered, c), covered_share) << "  " << pad_left(r.label, label) << "  "
        << display_path(r.row.path, c.names) << (r.row.unreliable ? kUnreliable : "") << noise_mark(r.row) << "\n";
    out << "  " << std::string(w.number, ' ') << "  why: " << origin_text(r, c) << "\n";
    if (r.instead_of)
      out << "  " << std::string(w.number, ' ') << "  preferred to " << display_path(r.instead_of->path, c.names)
          << " (cum " << value(r.instead_of->cum, c) << "), which overlaps it: the set covers more without it\n";
  }
  out << "percentages are of " << c.percent_base.name << "; `labels` shows the coverage, `autolabel undo` removes "
      << "these labels\n";
}

void render(const MessageOutput& o, const RenderContext&, std::ostream& out) { out << o.text << "\n"; }

void render(const LoadOutput& o, const RenderContext& c, std::ostream& out) {
  out << "loaded " << o.loaded << " labelled summaries from " << o.file << "\n";
  if (!o.saved_view.empty())
    out << "note: the labels were saved from view " << o.saved_view << "; their costs here are those of view " << c.view
        << "\n";
  for (const UnresolvedLabel& u : o.unresolved) {
    const std::vector<std::string_view> calls(u.saved.calls.begin(), u.saved.calls.end());
    out << "  not loaded: " << o.file << ":" << u.saved.line << ": label " << u.saved.label << " "
        << display_path(calls, c.names) << ": " << u.reason << "\n";
  }
}

void render(const HelpOutput& o, const RenderContext&, std::ostream& out) {
  std::size_t width = 0;
  for (const HelpEntry& e : o.entries)
    width = std::max(width, e.name.size() + (e.args.empty() ? 0 : e.args.size() + 1));
  for (const HelpEntry& e : o.entries) {
    const std::string usage = e.name + (e.args.empty() ? "" : " " + e.args);
    out << "  " << usage << std::string(width - usage.size() + 2, ' ') << e.help << "\n";
  }
}

void unresolved(const std::vector<UnresolvedLabel>& labels, const RenderContext& c, std::ostream& out) {
  for (const UnresolvedLabel& u : labels) {
    const std::vector<std::string_view> calls(u.saved.calls.begin(), u.saved.calls.end());
    out << "  label " << u.saved.label << " " << display_path(calls, c.names) << " not restored: " << u.reason << "\n";
  }
}

void render(const ViewOutput& o, const RenderContext& c, std::ostream& out) {
  out << o.setting << " = " << o.value << "\n";
  for (const std::string& line : o.header) out << line << "\n";
  if (!o.left.empty() && o.left_labels > 0)
    out << o.left_labels << " labelled summaries of view " << o.left << " kept for `view " << o.left << "`\n";
  if (o.labels > 0) out << o.labels << " labelled summaries of view " << o.view << " restored\n";
  unresolved(o.unresolved, c, out);
}

// A share of a class's time, "12.5%".
std::string typed_share(Amount part, Amount whole) { return iface::percent_string(part, whole); }

void render(const ThreadsOutput& o, const RenderContext&, std::ostream& out) {
  for (const std::string& line : o.header) out << line << "\n";
  std::vector<std::vector<std::string>> table{{"class", "threads", "instances", "lifetime"}};
  for (const std::string& t : o.types) table.front().push_back(t);
  for (const ThreadClassLine& r : o.rows) {
    std::vector<std::string> cells{r.name, std::to_string(r.threads), std::to_string(r.instances),
                                   iface::decimal_string(r.lifetime_ns, 1'000'000'000, 3) + " s"};
    for (const Amount t : r.time) cells.push_back(typed_share(t, r.total));
    table.push_back(std::move(cells));
  }
  std::vector<std::size_t> width(table.front().size(), 0);
  for (const auto& cells : table)
    for (std::size_t i = 0; i < cells.size(); ++i) width[i] = std::max(width[i], cells[i].size());
  for (const auto& cells : table) {
    out << " ";
    for (std::size_t i = 0; i < cells.size(); ++i)
      out << " " << (i == 0 ? cells[i] + std::string(width[i] - cells[i].size(), ' ') : pad_left(cells[i], width[i]));
    out << "\n";
  }
}

void render(const QuitOutput& o, const RenderContext&, std::ostream& out) {
  if (o.unsaved_labels) out << "note: labels changed since the last save were not saved (`save FILE` keeps them)\n";
}

}  // namespace

void render_text(const Output& output, const RenderContext& context, std::ostream& out) {
  std::visit([&](const auto& o) { render(o, context, out); }, output);
}

}  // namespace bn::repl
