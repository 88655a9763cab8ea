#include "colors.h"

#include <algorithm>
#include <bit>
#include <cstdint>

#include "bn/flame/build.h"

namespace bn::flame {
namespace {

// FNV-1a over the UTF-8 bytes (web/flame.js hashes the same bytes).
std::uint32_t name_hash(std::string_view name) {
  std::uint32_t h = 2166136261u;
  for (const char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 16777619u;
  }
  return h;
}

std::string hsl(int hue, int saturation, int lightness) {
  return "hsl(" + std::to_string(hue) + "," + std::to_string(saturation) + "%," + std::to_string(lightness) + "%)";
}

void widen(Amount& scale, const FlamePart& part) {
  for (std::size_t i = 1; i < part.size(); ++i) scale = std::max(scale, iface::abs_amount(part.value(i)));
}

}  // namespace

Amount diff_scale(const FlameGraph& graph) {
  Amount scale = 0;
  if (graph.comparison()) {
    widen(scale, graph.callees);
    if (graph.callers) widen(scale, *graph.callers);
  }
  return scale == 0 ? 1 : scale;
}

bool is_merged_frame(std::string_view name) { return name.starts_with("[") && name.ends_with(" frames merged]"); }

std::string frame_color(const FlameGraph& graph, const FlamePart& part, std::size_t i, Amount scale) {
  const std::string& name = graph.names[part.name[i]];
  if (part.labels[i] != 0) return label_color(static_cast<std::size_t>(std::countr_zero(part.labels[i])));
  if (is_merged_frame(name)) return hsl(0, 0, 75);
  if (graph.comparison()) {
    const Amount v = part.value(i);
    if (v == 0) return hsl(0, 0, 90);
    // 95% light at no difference, 50% at the scale; integer percentages, as the page rounds.
    const Amount magnitude = iface::abs_amount(v);
    const int lightness = 95 - static_cast<int>((magnitude * 45 + scale / 2) / scale);
    return hsl(v > 0 ? 0 : 220, 85, lightness);
  }
  const std::uint32_t h = name_hash(name);
  return hsl(static_cast<int>(h % 50), 70 + static_cast<int>((h >> 8) % 20), 55 + static_cast<int>((h >> 16) % 15));
}

}  // namespace bn::flame
