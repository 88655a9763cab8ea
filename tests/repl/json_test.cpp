// --json output of a whole session on the real single-tree backend, parsed back with nlohmann:
// every line is one object and every numbered summary carries its exact cum and base.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "bn/calltree/profile_loader.h"
#include "bn/calltree/tree_profile.h"
#include "bn/iface/overlap.h"
#include "bn/repl/runner.h"

namespace {

// Checks one printed summary against the profile; returns 1 if it was numbered.
int check_row(bn::iface::Profile& p, const nlohmann::json& row) {
  std::vector<std::string> names = row.at("path").get<std::vector<std::string>>();
  std::vector<std::string_view> path(names.begin(), names.end());
  const auto s = p.path_summary(path);
  REQUIRE(s);
  CHECK(row.at("cum").get<std::string>() == bn::iface::to_string(p.cum_of(*s)));
  CHECK(row.at("base").get<std::string>() == bn::iface::to_string(p.base_of(*s)));
  return row.contains("number") ? 1 : 0;
}

}  // namespace

TEST_CASE("--json prints one parsable object per command with exact cum and base for every summary") {
  auto opened = bn::calltree::open_profile(BN_SOURCE_DIR "/samples/figure2/figure2.collapsed");
  bn::calltree::TreeProfile profile(opened.loaded.tree);
  bn::search::Session session(profile);
  std::ostringstream out, err;
  bn::repl::Runner runner(session, out, err, {.json = true});
  std::istringstream script(
      "suggest\nselect 0\nlabel A\npath c\nset zoom on\npath c;d\nselect 0\nlabels\nhistory\nselet\nset\nhelp quit\n");
  CHECK(bn::repl::run_script(runner, script, "j", true).failures == 1);

  std::istringstream lines(out.str());
  std::string line;
  int objects = 0, numbered = 0;
  nlohmann::json by_input;
  while (std::getline(lines, line)) {
    const nlohmann::json j = nlohmann::json::parse(line);
    ++objects;
    by_input[j.at("input").get<std::string>()] = j;
    if (!j.at("ok").get<bool>()) continue;
    CHECK(j.at("total") == "100");
    if (j.contains("summaries"))
      for (const auto& row : j["summaries"]) numbered += check_row(profile, row);
    if (j.contains("summary")) check_row(profile, j["summary"]);
    if (j.contains("nearby"))
      for (const auto& [kind, rows] : j["nearby"].items())
        for (const auto& row : rows) numbered += check_row(profile, row);
    if (j.contains("labels") && j["labels"].is_array() && !j["labels"].empty() && j["labels"][0].is_object())
      for (const auto& group : j["labels"])
        for (const auto& row : group["summaries"]) numbered += check_row(profile, row);
  }
  CHECK(objects == 12);
  CHECK(numbered >= 15);
  // Paper numbers: [c] overlaps a labelled [a] in all of its cum and none of its base.
  const nlohmann::json& c = by_input["path c"];
  CHECK(c["summary"]["cum"] == "97");
  CHECK(c["summary"]["base"] == "15");
  CHECK(c["overlaps"][0] == nlohmann::json({{"label", "A"}, {"cum", "97"}, {"base", "0"}}));
  // Zooming from [c;d] lists [a;b;c;d] as its only top extension.
  const nlohmann::json& top = by_input["path c;d"]["nearby"]["top_extensions"];
  REQUIRE(top.size() == 1);
  CHECK(top[0]["path"] == nlohmann::json({"a", "b", "c", "d"}));
  CHECK(top[0]["number"] == 0);
  CHECK(by_input["selet"]["ok"] == false);
  CHECK(by_input["selet"]["location"] == "j:10");
  CHECK(by_input["labels"]["coverage"] == nlohmann::json({{"cum", "100"}, {"base", "1"}}));
}
