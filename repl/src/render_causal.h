#pragma once
// The text of `causal` (docs/causal.md): the ranked targets, or one target's curve with a small
// chart. Its own file beside render_text.cpp, which calls it. Internal to bn_repl.

#include <ostream>

#include "bn/repl/output.h"

namespace bn::repl {

void render_causal(const CausalOutput& o, const RenderContext& c, std::ostream& out);

}  // namespace bn::repl
