// JSON Lines rendering. Amounts are exact strings ("97", "-3/2") because they can exceed a
// double's precision and may be fractions; method names are always full. Schema: docs/repl.md.

#include <nlohmann/json.hpp>
#include <variant>

#include "bn/repl/render.h"

namespace bn::repl {
namespace {

using nlohmann::json;

std::string exact(iface::Amount a, const RenderContext& c) { return iface::exact_string(a, c.denominator); }

json row(const Row& r, const RenderContext& c) {
  json path = json::array();
  for (std::string_view m : r.path) path.push_back(std::string(m));
  json j = {{"path", path}, {"cum", exact(r.cum, c)}, {"base", exact(r.base, c)}, {"unreliable", r.unreliable}};
  if (r.number >= 0) j["number"] = r.number;
  // Comparisons of sampled runs: the two-sample test of the difference (docs/compare.md, "Noise").
  if (r.noise) {
    j["significant"] = r.noise->significant();
    j["z"] = r.noise->z_text();
    // Several runs per side: which estimate of each side's variance the test used.
    if (r.noise->several_runs())
      j["variance"] = {{"a", iface::to_string(r.noise->a_estimate)}, {"b", iface::to_string(r.noise->b_estimate)}};
  }
  // Comparative profiles: each side's values (B normalised), so cum == a.cum - b.cum.
  if (r.sides) {
    j["a"] = {{"present", r.sides->in_a}, {"cum", exact(r.sides->a_cum, c)}, {"base", exact(r.sides->a_base, c)}};
    j["b"] = {{"present", r.sides->in_b}, {"cum", exact(r.sides->b_cum, c)}, {"base", exact(r.sides->b_base, c)}};
  }
  return j;
}

json rows(const std::vector<Row>& list, const RenderContext& c) {
  json a = json::array();
  for (const Row& r : list) a.push_back(row(r, c));
  return a;
}

void fill(json& j, const ListOutput& o, const RenderContext& c) {
  j["title"] = o.title;
  j["summaries"] = rows(o.rows, c);
}

void fill(json& j, const DetailOutput& o, const RenderContext& c) {
  j["summary"] = row(o.summary, c);
  j["labels"] = o.labels;
  j["overlaps"] = json::array();
  for (const LabelOverlap& ov : o.overlaps)
    j["overlaps"].push_back({{"label", ov.label}, {"cum", exact(ov.cum, c)}, {"base", exact(ov.base, c)}});
  j["zoomed"] = o.zoomed;
  j["nearby"] = json::object();
  j["more"] = json::object();
  for (const NearbyRows& g : o.nearby) {
    json& listed = j["nearby"][std::string(search::nearby_kind_key(g.kind))] = rows(g.rows, c);
    for (std::size_t i = 0; g.pending && i < g.pending->listing->size(); ++i)
      listed.push_back(row(g.pending->row(i), c));
    j["more"][std::string(search::nearby_kind_key(g.kind))] = g.more;
    if (!g.recursive_method.empty())
      j["zoom_stopped_at_recursion"][std::string(search::nearby_kind_key(g.kind))] = g.recursive_method;
  }
}

void fill(json& j, const LabelsOutput& o, const RenderContext& c) {
  j["labels"] = json::array();
  for (const LabelGroup& g : o.labels)
    j["labels"].push_back({{"label", g.label},
                           {"cum", exact(g.total_cum, c)},
                           {"base", exact(g.total_base, c)},
                           {"summaries", rows(g.rows, c)}});
  j["overlaps"] = json::array();
  for (const LabelPairOverlap& ov : o.overlaps)
    j["overlaps"].push_back(
        {{"labels", {ov.first, ov.second}}, {"cum", exact(ov.cum, c)}, {"base", exact(ov.base, c)}});
  j["coverage"] = {{"cum", exact(o.coverage_cum, c)}, {"base", exact(o.coverage_base, c)}};
  if (o.set_aside > 0) j["set_aside"] = o.set_aside;
}

void fill(json& j, const MessageOutput& o, const RenderContext&) {
  j["message"] = o.text;
  // An init-capture: clang 14 cannot capture a structured binding (C++20 allows it).
  for (const auto& [key, value] : o.fields) std::visit([&j, &name = key](const auto& v) { j[name] = v; }, value);
}

json unresolved(const std::vector<UnresolvedLabel>& labels) {
  json a = json::array();
  for (const UnresolvedLabel& u : labels)
    a.push_back({{"label", u.saved.label}, {"path", u.saved.calls}, {"line", u.saved.line}, {"reason", u.reason}});
  return a;
}

void fill(json& j, const LoadOutput& o, const RenderContext&) {
  j["file"] = o.file;
  j["loaded"] = o.loaded;
  j["unresolved"] = unresolved(o.unresolved);
  if (!o.saved_view.empty()) j["saved_view"] = o.saved_view;
}

void fill(json& j, const ViewOutput& o, const RenderContext&) {
  j["setting"] = o.setting;
  j["value"] = o.value;
  j["header"] = o.header;
  if (!o.left.empty()) j["left"] = {{"view", o.left}, {"labels_kept", o.left_labels}};
  j["labels_restored"] = o.labels;
  j["unresolved"] = unresolved(o.unresolved);
  if (!o.current.empty()) j["current"] = o.current;
}

void fill(json& j, const search::ThreadsOutput& o, const RenderContext&) {
  j["header"] = o.header;
  j["classes"] = json::array();
  for (const search::ThreadClassLine& r : o.rows) {
    json time = json::object();
    for (std::size_t i = 0; i < o.types.size(); ++i) time[o.types[i]] = iface::exact_string(r.time[i], o.denominator);
    j["classes"].push_back({{"class", r.name},
                            {"jvm_service", r.jvm_service},
                            {"threads", r.threads},
                            {"instances", r.instances},
                            {"lifetime_ns", r.lifetime_ns},
                            {"time", time},
                            {"total", iface::exact_string(r.total, o.denominator)}});
  }
}

std::string_view move_key(search::AutolabelMove move) {
  switch (move) {
    case search::AutolabelMove::kSuggestion:
      return "suggestion";
    case search::AutolabelMove::kCallers:
      return "callers";
    case search::AutolabelMove::kCallees:
      return "callees";
  }
  return "";
}

void fill(json& j, const AutolabelOutput& o, const RenderContext& c) {
  j["asked"] = o.asked;
  j["candidates"] = o.candidates;
  j["not_proposed"] = {{"too_general", o.skipped.too_general},
                       {"within_noise", o.skipped.within_noise},
                       {"idle_waits", o.skipped.idle_waits},
                       {"overlapping_labels", o.skipped.overlapping_labels}};
  j["best_of_candidates"] = o.best_of_candidates;
  j["proposals"] = json::array();
  for (const AutolabelRow& r : o.rows) {
    json p = row(r.row, c);
    p["label"] = r.label;
    p["covered"] = exact(r.covered, c);
    json suggestion = json::array();
    for (std::string_view m : r.suggestion) suggestion.push_back(std::string(m));
    p["why"] = {{"suggester", std::string(search::suggester_name(r.origin.suggester))},
                {"rank", r.origin.rank},
                {"suggestion", suggestion},
                {"move", std::string(move_key(r.origin.move))}};
    if (r.instead_of) p["instead_of"] = row(*r.instead_of, c);
    j["proposals"].push_back(std::move(p));
  }
}

// Speedups as fractions, as computed: the text rounds them to percentages.
json causal_estimate(const search::CausalEstimate& e) {
  json j = {{"experiments", e.experiments}};
  j["program_speedup"] = e.speedup ? json(*e.speedup) : json(nullptr);
  if (e.low && e.high) {
    j["low"] = *e.low;
    j["high"] = *e.high;
  }
  return j;
}

void fill(json& j, const CausalOutput& o, const RenderContext&) {
  const search::CausalReport& r = o.report;
  j["progress"] = r.progress;
  j["progress_kind"] = r.progress_kind;
  j["progress_points"] = r.points;
  j["experiments"] = r.experiments;
  j["baseline_experiments"] = r.baseline_experiments;
  j["recordings"] = r.recordings;
  if (!r.notes.empty()) j["notes"] = r.notes;
  j["targets"] = json::array();
  for (std::size_t i = 0; i < r.targets.size(); ++i) {
    if (o.target && *o.target != i) continue;
    const search::CausalTargetLine& t = r.targets[i];
    json target = {{"rank", i + 1}};
    if (t.is_label) {
      target["label"] = t.name;
      target["summaries"] = t.summaries;
    } else {
      target["path"] = t.summaries.front();
    }
    target["cost_share"] = t.cost_share;
    target["if_50_percent_faster"] = causal_estimate(t.summary);
    target["points"] = json::array();
    for (const auto& p : t.curve) {
      json point = causal_estimate(p.estimate);
      point["speedup"] = p.speedup / 100.0;
      target["points"].push_back(std::move(point));
    }
    target["flags"] = json::array();
    for (const search::CausalFlag& f : t.flags) target["flags"].push_back(f.name);
    j["targets"].push_back(std::move(target));
  }
}

void fill(json& j, const HelpOutput& o, const RenderContext&) {
  j["commands"] = json::array();
  for (const HelpEntry& e : o.entries) j["commands"].push_back({{"name", e.name}, {"args", e.args}, {"help", e.help}});
}

void fill(json& j, const QuitOutput& o, const RenderContext&) { j["unsaved_labels"] = o.unsaved_labels; }

}  // namespace

std::string render_json(const Output& output, std::string_view command, std::string_view line,
                        const RenderContext& context) {
  json j = {{"command", std::string(command)},
            {"input", std::string(line)},
            {"ok", true},
            {"total", exact(context.total, context)},
            {"metric", context.metric.metric}};  // what the amounts count (a profile may have several)
  if (!context.view.empty()) j["view"] = context.view;
  if (!context.filters.empty()) j["filters"] = context.filters;
  std::visit([&](const auto& o) { fill(j, o, context); }, output);
  // Replace invalid UTF-8 (method names come from the profile) instead of throwing.
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string render_json_error(std::string_view line, std::string_view location, std::string_view message) {
  json j = {{"input", std::string(line)},
            {"ok", false},
            {"location", std::string(location)},
            {"error", std::string(message)}};
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace bn::repl
