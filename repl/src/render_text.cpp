#include <algorithm>
#include <string>

#include "bn/repl/elide.h"
#include "bn/repl/render.h"
#include "bn/search/method_names.h"
#include "bn/search/text.h"
#include "render_causal.h"

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

// One line of prose, wrapped to the context's width under a hanging indent.
void say(std::ostream& out, const RenderContext& c, std::string_view text) { out << wrap(text, c.width) << "\n"; }

// Left for the file, label and reason around a label that did not load: a path gets the rest.
constexpr std::size_t kReasonColumns = 40;
// The path in an autolabel proposal's reason: a line of its own when wrapped.
constexpr std::size_t kWhyPath = 50;

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
// A row's path after its numbers, then its marks; marks that leave the path too little room
// go on a line of their own, under the path or further left when they would not fit there.
void marked_path(const std::vector<std::string_view>& path, const std::string& numbers, const std::string& marks,
                 const RenderContext& c, std::string_view color, std::ostream& out) {
  const std::size_t beside = room(c, columns(numbers) + columns(marks));
  std::string text = path_text(path, c, beside);
  const bool below = c.width != 0 && columns(text) > beside;
  if (below) text = path_text(path, c, room(c, columns(numbers)));
  out << painted(text, color);
  if (below)
    out << "\n" << std::string(std::min(columns(numbers), std::max<std::size_t>(room(c, columns(marks)), 2)) - 2, ' ');
  out << marks << "\n";
}
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
  out << numbers.substr(0, before_cum) << painted(cum, color) << numbers.substr(before_cum + cum.size());
  marked_path(r.path, numbers, std::string(r.unreliable ? kUnreliable : "") + std::string(noise_mark(r)), c, color,
              out);
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
      out << kIndent << "<" << search::counted(path.size() - 2 * kEnds, "frame") << ": `show --full` lists them>\n";
      i = path.size() - kEnds - 1;
      continue;
    }
    const std::string name = safe(search::display_name(path[i], c.names));
    out << kIndent << (c.width == 0 ? name : iface::elide_name(name, room(c, kIndent.size()))) << "\n";
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
    say(out, c,
        "  difference of cum: |z| = " + s.noise->z_text() +
            (s.noise->significant() ? " (beyond sampling noise)"
                                    : " (within sampling noise: under " + std::to_string(iface::kSignificantZ) + ")") +
            (s.noise->several_runs() ? "; " + s.noise->estimates_text() : ""));
  for (const LabelOverlap& ov : o.overlaps)
    if (ov.cum != 0 || ov.base != 0)
      say(out, c,
          "  overlap with label " + safe(ov.label) + ": cum " + amount(ov.cum, c) + " (" +
              iface::percent_string(ov.cum, s.cum) + " of this cum), base " + amount(ov.base, c) + " (" +
              iface::percent_string(ov.base, s.base) + " of this base)");
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
      say(out, c,
          "    zooming stops at recursion: this calls " + safe(search::display_name(group.recursive_method, c.names)) +
              " again (select it to go one call deeper)");
    if (group.more > 0)
      say(out, c, "    ... and " + std::to_string(group.more) + " more (`set limit N` or `set limit all` lists them)");
  }
}

void set_aside_note(const LabelsOutput& o, const RenderContext& c, std::ostream& out) {
  if (o.set_aside > 0)
    say(out, c,
        "note: " + search::counted(o.set_aside, "labelled summary", "labelled summaries") +
            " set aside: they do not resolve in the profile in force, and come back when they do "
            "(`filters`, `unfilter`)");
}

// Why a coverage can pass 100% of what its percentages are of: on a comparison a cost may be
// negative (seed 004 sec. 2.2), so the rest of the profile can differ the other way and the
// summaries explain more than the net total. Nothing is said when it does not pass 100%.
void beyond_whole_note(Amount covered, const RenderContext& c, std::ostream& out) {
  const Amount whole = c.percent_base.amount;
  if (whole == 0 || (covered < 0) != (whole < 0) || iface::abs_amount(covered) <= iface::abs_amount(whole)) return;
  say(out, c, "note: over 100%: the rest of the profile sums to " + amount(whole - covered, c) + ", the other way");
}

void render(const LabelsOutput& o, const RenderContext& c, std::ostream& out) {
  if (o.labels.empty()) {
    out << "no labels yet: `label NAME` labels the current summary\n";
    set_aside_note(o, c, out);
    return;
  }
  Widths w;
  for (const LabelGroup& g : o.labels)
    for (const Row& r : g.rows) w.fit(r, c);
  for (const LabelGroup& g : o.labels) {
    say(out, c,
        "label " + safe(g.label) + ": cum " + amount(g.total_cum, c) + " (" + share_of(g.total_cum, c) + "), base " +
            amount(g.total_base, c) + " (" + share_of(g.total_base, c) + ")");
    rows(g.rows, w, c, "  ", out);
  }
  if (!o.overlaps.empty()) out << "labels that share cost (each measurement once):\n";
  for (const LabelPairOverlap& ov : o.overlaps)
    say(out, c,
        "  " + safe(ov.first) + " and " + safe(ov.second) + ": cum " + amount(ov.cum, c) + " (" + share_of(ov.cum, c) +
            "), base " + amount(ov.base, c) + " (" + share_of(ov.base, c) + ")");
  say(out, c,
      "all labels together: cum " + amount(o.coverage_cum, c) + " (" + share_of(o.coverage_cum, c) + "), base " +
          amount(o.coverage_base, c) + " (" + share_of(o.coverage_base, c) + ")");
  beyond_whole_note(o.coverage_cum, c, out);
  set_aside_note(o, c, out);
}

// Why autolabel proposed a summary: the suggestion it started from and the move that led here.
std::string origin_text(const AutolabelRow& r, const RenderContext& c) {
  std::string text = std::string(search::suggester_name(r.origin.suggester)) + " #" + std::to_string(r.origin.rank) +
                     " " + path_text(r.suggestion, c, kWhyPath);
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

// The candidates autolabel did not propose, by reason; reasons that kept none out are left out,
// so every count printed is one that applied.
void not_proposed(const search::AutolabelSkipped& k, const RenderContext& c, std::ostream& out) {
  std::vector<std::string> parts;
  const auto add = [&](std::size_t n, const std::string& what) {
    if (n > 0) parts.push_back(std::to_string(n) + " " + what);
  };
  add(k.too_general, "too general (trunk, pass-through or typed time alone)");
  add(k.within_noise, "within noise or under 10 samples");
  add(k.idle_waits, k.idle_waits == 1 ? "idle wait" : "idle waits");
  add(k.overlapping_labels, "overlapping a label");
  if (parts.empty()) return;
  std::string text = "not proposed:";
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? " " : ", ") + parts[i];
  say(out, c, text);
}

void render(const AutolabelOutput& o, const RenderContext& c, std::ostream& out) {
  say(out, c,
      "autolabel: " + search::counted(o.rows.size(), "non-overlapping proposal") + " (at most " +
          std::to_string(o.asked) + ") from " + search::counted(o.candidates, "candidate") + "; " +
          (o.best_of_candidates ? "the heaviest such set of candidates"
                                : "the heaviest set found within the search budget (not proven best)"));
  not_proposed(o.skipped, c, out);
  if (o.rows.empty()) return;
  beyond_whole_note(o.rows.back().covered, c, out);
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
  const std::string under(w.number + 4, ' ');
  for (const AutolabelRow& r : o.rows) {
    const std::string marks = std::string(r.row.unreliable ? kUnreliable : "") + std::string(noise_mark(r.row));
    const std::string numbers =
        "  " + pad_left(std::to_string(r.row.number), w.number) + "  " + pad_left(value(r.row.cum, c), w.cum) + " " +
        pad_left(share(r.row.cum, c), w.cum_share) + "  " + pad_left(value(r.covered, c), covered) + " " +
        pad_left(share(r.covered, c), covered_share) + "  " + pad_left(safe(r.label), label) + "  ";
    out << numbers;
    marked_path(r.row.path, numbers, marks, c, {}, out);
    say(out, c, under + "why: " + origin_text(r, c));
    if (r.instead_of)
      say(out, c,
          under + "preferred to " + path_text(r.instead_of->path, c, kWhyPath) + " (cum " +
              amount(r.instead_of->cum, c) + "), which overlaps it: the set covers more without it");
  }
  say(out, c,
      "percentages are of " + c.percent_base.name +
          "; `labels` shows the coverage, `autolabel undo` removes these labels");
}

// A message may hold several lines (`set`); each is made safe on its own.
void render(const MessageOutput& o, const RenderContext& c, std::ostream& out) {
  std::string_view rest = o.text;
  for (std::size_t end; (end = rest.find('\n')) != std::string_view::npos; rest.remove_prefix(end + 1))
    say(out, c, safe(rest.substr(0, end)));
  say(out, c, safe(rest));
}

void render(const LoadOutput& o, const RenderContext& c, std::ostream& out) {
  say(out, c,
      "loaded " + search::counted(o.loaded, "labelled summary", "labelled summaries") + " from " + safe(o.file));
  if (!o.saved_view.empty())
    say(out, c,
        "note: the labels were saved from view " + safe(o.saved_view) + "; their costs here are those of view " +
            safe(c.view));
  for (const UnresolvedLabel& u : o.unresolved) {
    const std::vector<std::string_view> calls(u.saved.calls.begin(), u.saved.calls.end());
    say(out, c,
        "  not loaded: " + safe(o.file) + ":" + std::to_string(u.saved.line) + ": label " + safe(u.saved.label) + " " +
            path_text(calls, c, room(c, kReasonColumns)) + ": " + safe(u.reason));
  }
}

// Usage in a column, help beside it wrapped under itself; a usage too wide for the column
// gets a line of its own.
void render(const HelpOutput& o, const RenderContext& c, std::ostream& out) {
  constexpr std::size_t kMaxUsage = 34;
  std::size_t width = 0;
  for (const HelpEntry& e : o.entries) {
    const std::size_t usage = e.name.size() + (e.args.empty() ? 0 : e.args.size() + 1);
    if (c.width == 0 || usage <= kMaxUsage) width = std::max(width, usage);
  }
  const std::size_t column = width + 4;
  for (const HelpEntry& e : o.entries) {
    const std::string usage = "  " + e.name + (e.args.empty() ? "" : " " + e.args);
    const bool own_line = columns(usage) + 2 > column;
    if (own_line) out << usage << "\n";
    const std::string line =
        (own_line ? std::string(column, ' ') : usage + std::string(column - columns(usage), ' ')) + e.help;
    // Continued lines start under the help's column.
    out << wrap(line, c.width, column - std::min(column, line.find_first_not_of(' '))) << "\n";
  }
}

void unresolved(const std::vector<UnresolvedLabel>& labels, const RenderContext& c, std::ostream& out) {
  for (const UnresolvedLabel& u : labels) {
    const std::vector<std::string_view> calls(u.saved.calls.begin(), u.saved.calls.end());
    say(out, c,
        "  label " + safe(u.saved.label) + " " + path_text(calls, c, room(c, kReasonColumns)) +
            " set aside, until it resolves again: " + safe(u.reason));
  }
}

void render(const ViewOutput& o, const RenderContext& c, std::ostream& out) {
  out << o.setting << " = " << safe(o.value) << "\n";
  for (const std::string& line : o.header) say(out, c, safe(line));
  if (!o.left.empty() && o.left_labels > 0)
    say(out, c,
        search::counted(o.left_labels, "labelled summary", "labelled summaries") + " of view " + safe(o.left) +
            " kept for `view " + safe(o.left) + "`");
  if (o.labels > 0)
    say(out, c,
        search::counted(o.labels, "labelled summary", "labelled summaries") + " of view " + safe(o.view) + " restored");
  unresolved(o.unresolved, c, out);
  if (!o.current.empty()) say(out, c, "current summary: " + safe(o.current));
}

// A share of a class's time, "12.5%".
std::string typed_share(Amount part, Amount whole) { return iface::percent_string(part, whole); }

void render(const search::ThreadsOutput& o, const RenderContext& c, std::ostream& out) {
  for (const std::string& line : o.header) say(out, c, safe(line));
  std::vector<std::vector<std::string>> table{{"class", "threads", "instances", "lifetime"}};
  for (const std::string& t : o.types) table.front().push_back(t);
  table.front().push_back("started by");
  for (const search::ThreadClassLine& r : o.rows) {
    std::vector<std::string> cells{safe(r.name), std::to_string(r.threads), std::to_string(r.instances),
                                   iface::duration_text(r.lifetime_ns, 1)};
    for (const Amount t : r.time) cells.push_back(typed_share(t, r.total));
    cells.emplace_back(r.jvm_service ? "JVM" : "program");
    table.push_back(std::move(cells));
  }
  std::vector<std::size_t> width(table.front().size(), 0);
  for (const auto& cells : table)
    for (std::size_t i = 0; i < cells.size(); ++i) width[i] = std::max(width[i], columns(cells[i]));
  // A class name is what `view thread CLASS` takes, so it is never cut: one too wide for the
  // width gets a line of its own, its numbers on the next.
  std::size_t numbers = 0;
  for (std::size_t i = 1; i < width.size(); ++i) numbers += 1 + width[i];
  if (c.width != 0 && 2 + width[0] + numbers > c.width) {
    width[0] = columns(table.front()[0]);
    for (const auto& cells : table)
      if (2 + columns(cells[0]) + numbers <= c.width) width[0] = std::max(width[0], columns(cells[0]));
  }
  for (const auto& cells : table) {
    const bool own_line = columns(cells[0]) > width[0];
    if (own_line) out << "  " << cells[0] << "\n";
    out << " ";
    for (std::size_t i = 0; i < cells.size(); ++i)
      out << " "
          << (i + 1 == cells.size() ? cells[i]  // the last column, left-aligned: no trailing blanks
              : i == 0
                  ? (own_line ? std::string(width[0], ' ') : cells[0] + std::string(width[0] - columns(cells[0]), ' '))
                  : pad_left(cells[i], width[i]));
    out << "\n";
  }
}

void render(const CausalOutput& o, const RenderContext& c, std::ostream& out) { render_causal(o, c, out); }

void render(const QuitOutput& o, const RenderContext&, std::ostream& out) {
  if (o.unsaved_labels) out << "note: labels changed since the last save were not saved (`save FILE` keeps them)\n";
}

}  // namespace

void render_text(const Output& output, const RenderContext& context, std::ostream& out) {
  std::visit([&](const auto& o) { render(o, context, out); }, output);
}

}  // namespace bn::repl
