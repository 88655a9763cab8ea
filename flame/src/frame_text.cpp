#include "frame_text.h"

namespace bn::flame {

std::string amount_text(const FlameGraph& graph, Amount a) {
  return iface::amount_text(a, graph.denominator, graph.unit);
}

std::string frame_text(const FlameGraph& graph, const FlamePart& part, std::size_t i) {
  std::string text = graph.names[part.name[i]] + "\n";
  const Amount whole = part.value(0);
  // A caller's own cost means nothing here: it is the focus's cost reached through it.
  const bool caller = graph.callers && &part == &*graph.callers;
  const auto base = [&](Amount b) { return caller ? std::string() : ", base " + amount_text(graph, b); };
  if (i == 0 && !graph.focus.empty()) {
    text += "summary: cum " + amount_text(graph, graph.focus_cum) + ", base " + amount_text(graph, graph.focus_base);
  } else {
    text += "cum " + amount_text(graph, part.value(i)) + " (" + iface::percent_string(part.value(i), whole) + ")" +
            (caller ? " of the summary through these callers"
                    : base(part.comparison() ? part.self[i] - part.b_self[i] : part.self[i]));
  }
  if (part.comparison()) {
    text += "\nA: cum " + amount_text(graph, part.total[i]) + base(part.self[i]) + "\nB: cum " +
            amount_text(graph, part.b_total[i]) + base(part.b_self[i]);
    if (part.presence[i] == kInA) text += "\nonly in A";
    if (part.presence[i] == kInB) text += "\nonly in B";
  }
  return text;
}

}  // namespace bn::flame
