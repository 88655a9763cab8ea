#pragma once
// Rendering of command outputs: human text (aligned columns, optional warm-to-cool colours by
// cost like CPPROFJ) and JSON Lines (exact values as strings). See docs/repl.md for the schema.

#include <ostream>
#include <string>
#include <string_view>

#include "bn/repl/output.h"

namespace bn::repl {

void render_text(const Output& output, const RenderContext& context, std::ostream& out);

// One JSON object on one line, without the newline. `command` is the table name of the
// command ("set zoom"), `line` what the user typed.
std::string render_json(const Output& output, std::string_view command, std::string_view line,
                        const RenderContext& context);
std::string render_json_error(std::string_view line, std::string_view location, std::string_view message);

}  // namespace bn::repl
