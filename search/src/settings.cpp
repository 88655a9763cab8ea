#include "bn/search/settings.h"

namespace bn::search {

std::string_view suggester_name(Suggester s) { return s == Suggester::kHighCum ? "HighCum" : "HighBase"; }

std::string_view name_style_name(NameStyle s) { return s == NameStyle::kFull ? "full" : "short"; }

std::string limit_text(std::size_t limit) { return limit == SIZE_MAX ? "all" : std::to_string(limit); }

std::string width_text(std::size_t width) { return width == 0 ? "off" : std::to_string(width); }

}  // namespace bn::search
