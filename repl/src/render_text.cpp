#include <algorithm>
#include <string>

#include "bn/repl/elide.h"
#include "bn/repl/render.h"
#include "bn/search/method_names.h"
#include "bn/search/text.h"

namespace bn::repl {
namespace {

using iface::Amount;

constexpr std::string_view kReset = "\033[0m";

// Everything printed that came from a profile, a label file or the user (names, labels, files,
// messages that quote them) goes through terminal_safe: a profile must not drive the terminal.
std::string safe(std::string_view s) { return search::terminal_safe(s); }

// "[a;b;c]" made safe, in at most `columns` columns when the width is limited (elide.h).
std::string path_text(const std::vector<std::string_view>& path, const RenderContext& c, std::size_t columns) {
  if (c.width == 0) return safe(search::display_path(path, c.names));
  std::vector<std::string> frames;
  frames.reserve(path.size());
  for (std::string_view m : path) frames.push_back(safe(search::display_name(m, c.names)));
  return fit_path(frames, columns);
}

// Left for the file, label and reason around a label that did not load: a path gets the rest.
constexpr std::size_t kReasonColumns = 40;

// The room left on a line of the context's width after `used` columns.
std::size_t room(const RenderContext& c, std::size_t used) { return c.width > used ? c.width - used : 0; }

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

std::string painted(const std::string& text, std::string_view color) {
  return color.empty() ? text : std::string(color) + text + std::string(kReset);
}

std::string pad_left(const std::string& s, std::size_t width) {
  const std::size_t used = columns(s);
  return used >= width ? s : std::string(width - used, ' ') + s;
}

// An amount in a table cell or a sentence: rounded, in the unit that suits it (units.h); a
// count's or a rate's unit is named once, in the table's header or after the sentence's total.
std::string value(Amount a, const RenderContext& c) { return iface::cell_text(a, c.denominator, c.unit); }
// The same with its unit always named: "97 samples", "0.700 CPUs", "12.3 ms".
std::string amount(Amount a, const RenderContext& c) { return iface::amount_text(a, c.denominator, c.unit); }
// What a table's costs are in, when its cells do not say: " (in samples)".
std::string unit_note(const RenderContext& c) {
  return iface::unit_in_header(c.unit) ? " (in " + safe(c.unit.name) + ")" : "";
}
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
      a_cum = std::max(a_cum, columns(side_value(r.sides->in_a, r.sides->a_cum, c)));
      b_cum = std::max(b_cum, columns(side_value(r.sides->in_b, r.sides->b_cum, c)));
    }
    fit(r.number, r.cum, r.base, c);
  }
  // Rows yet to be made, from their amounts (a comparative profile's are never pending: views.cpp).
  void fit(const PendingRows& p, const RenderContext& c) {
    const std::size_t size = p.listing->size();
    for (std::size_t i = 0; i < size; ++i) fit(-1, p.listing->cum(i), p.listing->base(i), c);
    if (size > 0) fit(p.first_number + static_cast<int>(size) - 1, 0, 0, c);
  }

 private:
  void fit(int n, Amount cum_amount, Amount base_amount, const RenderContext& c) {
    number = std::max(number, std::to_string(n).size());
    cum = std::max(cum, columns(value(cum_amount, c)));
    cum_share = std::max(cum_share, share(cum_amount, c).size());
    base = std::max(base, columns(value(base_amount, c)));
    base_share = std::max(base_share, share(base_amount, c).size());
  }
};

// The A and B columns after cum and base, so "absent in B" is visible at a glance.
std::string side_cells(const Widths& w, const std::string& a, const std::string& b) {
  return w.sides ? "  " + pad_left(a, w.a_cum) + "  " + pad_left(b, w.b_cum) : "";
}

void header(const Widths& w, const RenderContext& c, std::string_view indent, std::ostream& out) {
  out << indent << pad_left("#", w.number) << "  " << pad_left("cum", w.cum) << " " << pad_left("%", w.cum_share)
      << "  " << pad_left("base", w.base) << " " << pad_left("%", w.base_share) << side_cells(w, "A cum", "B cum")
      << "  summary" << unit_note(c) << "\n";
}

void row(const Row& r, const Widths& w, const RenderContext& c, std::string_view indent, std::ostream& out) {
  const std::string_view color = heat(r.cum, c);
  const std::string cum = pad_left(value(r.cum, c), w.cum) + " " + pad_left(share(r.cum, c), w.cum_share);
  const std::string numbers = std::string(indent) + pad_left(std::to_string(r.number), w.number) + "  " + cum + "  " +
                              pad_left(value(r.base, c), w.base) + " " + pad_left(share(r.base, c), w.base_share) +
                              (r.sides ? side_cells(w, side_value(r.sides->in_a, r.sides->a_cum, c),
                                                    side_value(r.sides->in_b, r.sides->b_cum, c))
                                       : "") +
                              "  ";
  const std::size_t before_cum = indent.size() + w.number + 2;
  // The unreliable note may run over the width: the path keeps the room.
  out << numbers.substr(0, before_cum) << painted(cum, color) << numbers.substr(before_cum + cum.size())
      << painted(path_text(r.path, c, room(c, columns(numbers))), color) << (r.unreliable ? kUnreliable : "")
      << noise_mark(r) << "\n";
}

void rows(const std::vector<Row>& list, const Widths& w, const RenderContext& c, std::string_view indent,
          std::ostream& out, const std::optional<PendingRows>& pending = std::nullopt) {
  const std::size_t pending_rows = pending ? pending->listing->size() : 0;
  if (list.empty() && pending_rows == 0) {
    out << indent << "(none)\n";
    return;
  }
  header(w, c, indent, out);
  for (const Row& r : list) row(r, w, c, indent, out);
  for (std::size_t i = 0; i < pending_rows; ++i) {
    row(pending->row(i), w, c, indent, out);
    if (i == 0) out.flush();  // on screen while the others are made
  }
}

void render(const ListOutput& o, const RenderContext& c, std::ostream& out) {
  Widths w;
  for (const Row& r : o.rows) w.fit(r, c);
  out << safe(o.title) << ":\n";
  rows(o.rows, w, c, "  ", out);
}

// The detail's call path, one method per line. Under a width limit a long path keeps its first
// and last frames and counts the others, as rows do; `show --full` lists every one.
void call_path(const std::vector<std::string_view>& path, const RenderContext& c, std::ostream& out) {
  constexpr std::size_t kEnds = 5;  // frames kept at each end of a path longer than 2 * kEnds + 2
  constexpr std::string_view kIndent = "    ";
  out << "  call path:\n";
  const bool elide = c.width != 0 && path.size() > 2 * kEnds + 2;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (elide && i == kEnds) {
      out << kIndent << "<" << path.size() - 2 * kEnds << " frames: `show --full` lists them>\n";
      i = path.size() - kEnds - 1;
      continue;
    }
    const std::string name = safe(search::display_name(path[i], c.names));
    out << kIndent << (c.width == 0 ? name : elide_middle(name, room(c, kIndent.size()))) << "\n";
  }
}

void render(const DetailOutput& o, const RenderContext& c, std::ostream& out) {
  // `show --full` prints every name whole, whatever the width.
  RenderContext shown = c;
  if (o.full) shown.width = 0;
  const Row& s = o.summary;
  out << painted(path_text(s.path, shown, shown.width), heat(s.cum, c)) << (s.unreliable ? kUnreliable : "")
      << noise_mark(s) << "\n";
  if (!o.labels.empty()) {
    out << "  labels:";
    for (const std::string& l : o.labels) out << " " << safe(l);
    out << "\n";
  }
  // `show` is the exact view: the exact amount follows the rounded one wherever they differ.
  const std::size_t width = std::max(columns(amount(s.cum, c)), columns(amount(s.base, c)));
  const auto measure = [&](std::string_view name, Amount a) {
    const std::string exact = iface::exact_text(a, c.denominator, c.unit);
    out << "  " << name << pad_left(amount(a, c), width) << "  (" << share_of(a, c)
        << (exact == amount(a, c) ? "" : "; exactly " + exact) << ")\n";
  };
  measure("cum  ", s.cum);
  measure("base ", s.base);
  if (s.sides) {
    const auto side = [&](std::string_view name, bool present, Amount cum, Amount base) {
      out << "  in " << name << ": "
          << (present ? "cum " + amount(cum, c) + ", base " + amount(base, c) : std::string("absent (counts 0)"))
          << "\n";
    };
    side("A", s.sides->in_a, s.sides->a_cum, s.sides->a_base);
    side("B", s.sides->in_b, s.sides->b_cum, s.sides->b_base);
  }
  // Overlaps with labels this summary shares nothing with are left out: JSON lists them all.
  if (s.noise)
    out << "  difference of cum: |z| = " << s.noise->z_text()
        << (s.noise->significant() ? " (beyond sampling noise)" : " (within sampling noise: under ")
        << (s.noise->significant() ? "" : std::to_string(iface::kSignificantZ) + ")")
        << (s.noise->several_runs() ? "; " + s.noise->estimates_text() : "") << "\n";
  for (const LabelOverlap& ov : o.overlaps)
    if (ov.cum != 0 || ov.base != 0)
      out << "  overlap with label " << safe(ov.label) << ": cum " << amount(ov.cum, c) << " ("
          << iface::percent_string(ov.cum, s.cum) << " of this cum), base " << amount(ov.base, c) << " ("
          << iface::percent_string(ov.base, s.base) << " of this base)\n";
  call_path(s.path, shown, out);
  Widths w;
  for (const NearbyRows& group : o.nearby) {
    for (const Row& r : group.rows) w.fit(r, c);
    if (group.pending) w.fit(*group.pending, c);
  }
  for (const NearbyRows& group : o.nearby) {
    out << "  " << search::nearby_kind_name(group.kind) << (o.zoomed ? " (zoomed)" : "") << ":\n";
    rows(group.rows, w, shown, "    ", out, group.pending);
    if (!group.recursive_method.empty())
      out << "    zooming stops at recursion: this calls "
          << safe(search::display_name(group.recursive_method, c.names))
          << " again (select it to go one call deeper)\n";
    if (group.more > 0) out << "    ... and " << group.more << " more (`set limit N` or `set limit all` lists them)\n";
  }
}

void set_aside_note(const LabelsOutput& o, std::ostream& out) {
  if (o.set_aside > 0)
    out << "note: " << o.set_aside
        << " labelled summaries set aside: they do not resolve in the profile in force, and come back when they do "
           "(`filters`, `unfilter`)\n";
}

void render(const LabelsOutput& o, const RenderContext& c, std::ostream& out) {
  if (o.labels.empty()) {
    out << "no labels yet: `label NAME` labels the current summary\n";
    set_aside_note(o, out);
    return;
  }
  Widths w;
  for (const LabelGroup& g : o.labels)
    for (const Row& r : g.rows) w.fit(r, c);
  for (const LabelGroup& g : o.labels) {
    out << "label " << safe(g.label) << ": cum " << amount(g.total_cum, c) << " (" << share_of(g.total_cum, c)
        << "), base " << amount(g.total_base, c) << " (" << share_of(g.total_base, c) << ")\n";
    rows(g.rows, w, c, "  ", out);
  }
  if (!o.overlaps.empty()) out << "labels that share cost (each measurement once):\n";
  for (const LabelPairOverlap& ov : o.overlaps)
    out << "  " << ov.first << " and " << ov.second << ": cum " << amount(ov.cum, c) << " (" << share_of(ov.cum, c)
        << "), base " << amount(ov.base, c) << " (" << share_of(ov.base, c) << ")\n";
  out << "all labels together: cum " << amount(o.coverage_cum, c) << " (" << share_of(o.coverage_cum, c) << "), base "
      << amount(o.coverage_base, c) << " (" << share_of(o.coverage_base, c) << ")\n";
  set_aside_note(o, out);
}

// Why autolabel proposed a summary: the suggestion it started from and the move that led here.
std::string origin_text(const AutolabelRow& r, const RenderContext& c) {
  std::string text = std::string(search::suggester_name(r.origin.suggester)) + " #" + std::to_string(r.origin.rank) +
                     " " + safe(search::display_path(r.suggestion, c.names));
  switch (r.origin.move) {
    case search::AutolabelMove::kSuggestion:
      return text + " itself";
    case search::AutolabelMove::kCallers:
      return text + ", extended through its callers while one held the cutoff share (bottom-up)";
    case search::AutolabelMove::kCallees:
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
    out << "not proposed: " << o.too_general << " too general (a trunk method, or typed time alone), "
        << o.overlapping_labels << " overlapping a label, " << o.within_noise << " within noise\n";
  if (o.rows.empty()) return;
  std::size_t label = 5, covered = 7, covered_share = 1;
  Widths w;
  for (const AutolabelRow& r : o.rows) {
    w.fit(r.row, c);
    label = std::max(label, r.label.size());
    covered = std::max(covered, columns(value(r.covered, c)));
    covered_share = std::max(covered_share, share(r.covered, c).size());
  }
  out << "  " << pad_left("#", w.number) << "  " << pad_left("cum", w.cum) << " " << pad_left("%", w.cum_share) << "  "
      << pad_left("covered", covered) << " " << pad_left("%", covered_share) << "  " << std::string(label - 5, ' ')
      << "label  summary" << unit_note(c) << "\n";
  for (const AutolabelRow& r : o.rows) {
    out << "  " << pad_left(std::to_string(r.row.number), w.number) << "  " << pad_left(value(r.row.cum, c), w.cum)
        << " " << pad_left(share(r.row.cum, c), w.cum_share) << "  " << pad_left(value(r.covered, c), covered) << " "
        << pad_left(share(r.covered, c), covered_share) << "  " << pad_left(safe(r.label), label) << "  "
        << safe(search::display_path(r.row.path, c.names)) << (r.row.unreliable ? kUnreliable : "") << noise_mark(r.row)
        << "\n";
    out << "  " << std::string(w.number, ' ') << "  why: " << origin_text(r, c) << "\n";
    if (r.instead_of)
      out << "  " << std::string(w.number, ' ') << "  preferred to "
          << safe(search::display_path(r.instead_of->path, c.names)) << " (cum " << amount(r.instead_of->cum, c)
          << "), which overlaps it: the set covers more without it\n";
  }
  out << "percentages are of " << c.percent_base.name << "; `labels` shows the coverage, `autolabel undo` removes "
      << "these labels\n";
}

// A message may hold several lines (`set`); each is made safe on its own.
void render(const MessageOutput& o, const RenderContext&, std::ostream& out) {
  std::string_view rest = o.text;
  for (std::size_t end; (end = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(end + 1))
    out << safe(rest.substr(0, end)) << "\n";
  out << safe(rest) << "\n";
}

void render(const LoadOutput& o, const RenderContext& c, std::ostream& out) {
  out << "loaded " << o.loaded << " labelled summaries from " << safe(o.file) << "\n";
  if (!o.saved_view.empty())
    out << "note: the labels were saved from view " << safe(o.saved_view) << "; their costs here are those of view "
        << safe(c.view) << "\n";
  for (const UnresolvedLabel& u : o.unresolved) {
    const std::vector<std::string_view> calls(u.saved.calls.begin(), u.saved.calls.end());
    out << "  not loaded: " << safe(o.file) << ":" << u.saved.line << ": label " << safe(u.saved.label) << " "
        << path_text(calls, c, room(c, kReasonColumns)) << ": " << safe(u.reason) << "\n";
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
    out << "  label " << safe(u.saved.label) << " " << path_text(calls, c, room(c, kReasonColumns))
        << " set aside, until it resolves again: " << safe(u.reason) << "\n";
  }
}

void render(const ViewOutput& o, const RenderContext& c, std::ostream& out) {
  out << o.setting << " = " << safe(o.value) << "\n";
  for (const std::string& line : o.header) out << safe(line) << "\n";
  if (!o.left.empty() && o.left_labels > 0)
    out << o.left_labels << " labelled summaries of view " << safe(o.left) << " kept for `view " << safe(o.left)
        << "`\n";
  if (o.labels > 0) out << o.labels << " labelled summaries of view " << safe(o.view) << " restored\n";
  unresolved(o.unresolved, c, out);
  if (!o.current.empty()) out << "current summary: " << safe(o.current) << "\n";
}

// A share of a class's time, "12.5%".
std::string typed_share(Amount part, Amount whole) { return iface::percent_string(part, whole); }

void render(const search::ThreadsOutput& o, const RenderContext&, std::ostream& out) {
  for (const std::string& line : o.header) out << safe(line) << "\n";
  std::vector<std::vector<std::string>> table{{"class", "threads", "instances", "lifetime"}};
  for (const std::string& t : o.types) table.front().push_back(t);
  for (const search::ThreadClassLine& r : o.rows) {
    std::vector<std::string> cells{safe(r.name), std::to_string(r.threads), std::to_string(r.instances),
                                   iface::duration_text(r.lifetime_ns, 1)};
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
