#pragma once
// Handlers of the command table (command_table.cpp), grouped by file: navigation
// (commands_navigate.cpp), aspects and refinements through gaps (commands_aspects.cpp), labels (commands_labels.cpp,
// commands_autolabel.cpp), pictures (commands_flame.cpp), pruning and focus (commands_filters.cpp), views
// (commands_views.cpp), causal profiles (commands_causal.cpp), settings and help
// (commands_settings.cpp). Each gets its arguments already matched against its row (arguments.h). Internal to bn_repl.

#include <functional>

#include "bn/repl/commands.h"

namespace bn::repl::handlers {

// Shared by the commands that change the profile in force (commands_views.cpp,
// commands_filters.cpp): the session's source, or an error for a session on one profile; and
// change(source), which throws, changing nothing, when the profile cannot be built, followed by
// moving the session and its labels to the profile now in force (Session::switched).
search::ProfileSource& source_of(Context& c);
ViewOutput switch_profile(Context& c, const std::function<void(search::ProfileSource&)>& change);

Output suggest(Context& c, const Arguments& args);
Output select(Context& c, const Arguments& args);
Output path(Context& c, const Arguments& args);
Output show(Context& c, const Arguments& args);
Output back(Context& c, const Arguments& args);
Output history(Context& c, const Arguments& args);

Output aspect(Context& c, const Arguments& args);
Output unaspect(Context& c, const Arguments& args);
Output aspects(Context& c, const Arguments& args);
Output find(Context& c, const Arguments& args);
Output refine(Context& c, const Arguments& args);

Output label(Context& c, const Arguments& args);
Output unlabel(Context& c, const Arguments& args);
Output labels(Context& c, const Arguments& args);
Output autolabel(Context& c, const Arguments& args);
Output save(Context& c, const Arguments& args);
Output load(Context& c, const Arguments& args);

Output flame(Context& c, const Arguments& args);

Output exclude(Context& c, const Arguments& args);
Output focus(Context& c, const Arguments& args);
Output filters(Context& c, const Arguments& args);
Output unfilter(Context& c, const Arguments& args);

Output threads(Context& c, const Arguments& args);
Output causal(Context& c, const Arguments& args);
Output view(Context& c, const Arguments& args);
Output set_model(Context& c, const Arguments& args);
Output set_states(Context& c, const Arguments& args);
Output set_threads(Context& c, const Arguments& args);
Output set_metric(Context& c, const Arguments& args);

Output settings(Context& c, const Arguments& args);
Output set_suggester(Context& c, const Arguments& args);
Output set_zoom(Context& c, const Arguments& args);
Output set_cutoff(Context& c, const Arguments& args);
Output set_limit(Context& c, const Arguments& args);
Output set_width(Context& c, const Arguments& args);
Output set_names(Context& c, const Arguments& args);
Output set_noise(Context& c, const Arguments& args);
Output help(Context& c, const Arguments& args);
Output quit(Context& c, const Arguments& args);

}  // namespace bn::repl::handlers
