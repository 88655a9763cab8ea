#pragma once
// The viewer's sources (flame/web/), embedded at build time by embed_web.cmake: they are edited
// as the HTML, CSS and JavaScript they are, never as C++ strings.

#include <string_view>

namespace bn::flame::web {

extern const std::string_view kFlameHtml;
extern const std::string_view kFlameCss;
extern const std::string_view kFlameJs;
// Added to the page only when it has causal charts (causal_section.h).
extern const std::string_view kCausalCss;
extern const std::string_view kCausalJs;

}  // namespace bn::flame::web
