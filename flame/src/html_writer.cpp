// The self-contained page: web/flame.html with the stylesheet, the picture's data (JSON), the
// causal charts' section when there are any, and the viewer script put in place. Nothing is
// fetched: the page works from a file, offline.

#include <nlohmann/json.hpp>
#include <string>

#include "bn/flame/writers.h"
#include "causal_section.h"
#include "colors.h"
#include "embedded_web.h"
#include "xml_text.h"

namespace bn::flame {
namespace {

// Exact in JSON: a number while a double holds it exactly, else the decimal text (the page
// reads both with BigInt).
nlohmann::json amount_json(Amount a) {
  constexpr Amount kExact = Amount{1} << 53;
  if (iface::abs_amount(a) < kExact) return static_cast<std::int64_t>(a);
  return iface::to_string(a);
}

nlohmann::json amounts_json(const std::vector<Amount>& values) {
  nlohmann::json array = nlohmann::json::array();
  for (const Amount a : values) array.push_back(amount_json(a));
  return array;
}

nlohmann::json part_json(const FlamePart& part) {
  nlohmann::json p{{"name", part.name},
                   {"depth", part.depth},
                   {"total", amounts_json(part.total)},
                   {"self", amounts_json(part.self)},
                   {"labels", part.labels}};
  if (part.comparison()) {
    p["btotal"] = amounts_json(part.b_total);
    p["bself"] = amounts_json(part.b_self);
    p["presence"] = part.presence;
  }
  return p;
}

const char* kind_name(iface::UnitKind kind) {
  switch (kind) {
    case iface::UnitKind::duration:
      return "duration";
    case iface::UnitKind::rate:
      return "rate";
    case iface::UnitKind::bytes:
      return "bytes";
    case iface::UnitKind::count:
      break;
  }
  return "count";
}

// What iface::amount_text needs, for its port in web/flame.js: the page prints amounts as the
// SVG and the REPL do.
nlohmann::json unit_json(const iface::DisplayUnit& unit) {
  return {{"kind", kind_name(unit.kind)}, {"name", unit.name}, {"scale", amount_json(unit.scale)}};
}

std::string data_json(const FlameGraph& graph) {
  nlohmann::json labels = nlohmann::json::array();
  for (const Label& l : graph.labels) labels.push_back({{"name", l.name}, {"color", l.color}});
  nlohmann::json data{{"title", graph.title},
                      {"unit", unit_json(graph.unit)},
                      {"denominator", amount_json(graph.denominator)},
                      {"names", graph.names},
                      {"focus", graph.focus},
                      {"focusCum", amount_json(graph.focus_cum)},
                      {"focusBase", amount_json(graph.focus_base)},
                      {"comparison", graph.comparison()},
                      {"diffScale", amount_json(diff_scale(graph))},
                      {"labels", labels},
                      {"notes", graph.notes},
                      {"callees", part_json(graph.callees)},
                      {"callers", graph.callers ? part_json(*graph.callers) : nlohmann::json()}};
  std::string text = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // Inside <script>, "</script>" or "<!--" in a name would end or confuse the element; '<' only
  // occurs in strings, where \u003c means the same.
  std::string safe;
  safe.reserve(text.size());
  for (const char c : text) {
    if (c == '<')
      safe += "\\u003c";
    else
      safe += c;
  }
  return safe;
}

// Replaces the first occurrence of `marker` in `page`.
void fill(std::string& page, std::string_view marker, std::string_view content) {
  const std::size_t at = page.find(marker);
  page.replace(at, marker.size(), content);
}

}  // namespace

void write_html(const FlameGraph& graph, std::ostream& out) {
  std::string page(web::kFlameHtml);
  // The charts' style and script only with charts: a page without them is byte for byte the
  // flame graph's page alone.
  const bool charts = !graph.causal.empty();
  // From the template's last marker to its first: each one searched for is then the first
  // occurrence, whatever the content put in after it holds.
  fill(page, "/*{{JS}}*/", std::string(web::kFlameJs).append(charts ? web::kCausalJs : std::string_view()));
  fill(page, "{{DATA}}", data_json(graph));
  fill(page, "{{CAUSAL}}", causal_section_html(graph.causal));
  fill(page, "/*{{CSS}}*/", std::string(web::kFlameCss).append(charts ? web::kCausalCss : std::string_view()));
  fill(page, "{{TITLE}}", xml_text(graph.title));
  out << page;
}

}  // namespace bn::flame
