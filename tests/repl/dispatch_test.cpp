#include "bn/repl/dispatch.h"

#include <doctest/doctest.h>

#include "../search/fake_profile.h"
#include "bn/base/error.h"

using bn::repl::parse_command;

TEST_CASE("exact names and unambiguous prefixes select a row of the command table") {
  CHECK(parse_command("select 3").command->name == "select");
  CHECK(parse_command("select 3").args == "3");
  CHECK(parse_command("sel 3").command->name == "select");
  CHECK(parse_command("  labels  ").command->name == "labels");
  CHECK(parse_command("label hot path").args == "hot path");
  CHECK(parse_command("set zoom on").command->name == "set zoom");
  CHECK(parse_command("set z on").command->name == "set zoom");
  CHECK(parse_command("set").command->name == "set");
  CHECK(parse_command("SUGGEST").command->name == "suggest");
}

TEST_CASE("an unknown command gets a one-line error with a did-you-mean") {
  CHECK_THROWS_WITH_AS(parse_command("selet 1"), "unknown command 'selet'; did you mean 'select'?", bn::Error);
  CHECK_THROWS_WITH_AS(parse_command("set zom on"), "unknown 'set' setting 'zom'; did you mean 'zoom'?", bn::Error);
}

TEST_CASE("an ambiguous prefix lists what it could be") {
  CHECK_THROWS_WITH_AS(parse_command("s"), "ambiguous command 's': it could be suggest, select, show, save, set",
                       bn::Error);
}

TEST_CASE("a plausible typo is recognised only within a third of the word") {
  const std::vector<std::string_view> known{"select", "suggest", "labels"};
  CHECK(bn::repl::closest_match("sugest", known) == "suggest");
  CHECK(bn::repl::closest_match("xyzzy", known).empty());
}

TEST_CASE("completion offers commands, settings, choices, labels and methods from the table") {
  bn::search::testing::FakeProfile p({{"org.x.Foo.run;org.x.Foo.call", 3}, {"org.y.Bar.go", 1}});
  bn::search::Session session(p);
  bn::repl::Context context(session);
  using Words = std::vector<std::string>;
  CHECK(bn::repl::complete(context, "sel").words == Words{"select"});
  CHECK(bn::repl::complete(context, "la").words == Words{"label", "labels"});
  CHECK(bn::repl::complete(context, "set ").words == Words{"cutoff", "limit", "metric", "model", "names", "noise",
                                                           "states", "suggester", "threads", "width", "zoom"});
  // A session without a source has no views to offer (views_session_test: one that has).
  CHECK(bn::repl::complete(context, "view ").words.empty());
  CHECK(bn::repl::complete(context, "set model c").words == Words{"cpus"});
  CHECK(bn::repl::complete(context, "set suggester h").words == Words{"HighBase", "HighCum"});
  CHECK(bn::repl::complete(context, "path org.x.Foo.r").words == Words{"org.x.Foo.run"});
  // A short name completes as a short name, a full one as a full one.
  CHECK(bn::repl::complete(context, "path org.x.Foo.run;Foo.c").words == Words{"org.x.Foo.run;Foo.call"});
  CHECK(bn::repl::complete(context, "path Foo.r").words == Words{"Foo.run"});
  CHECK(bn::repl::complete(context, "path Ba").words == Words{"Bar.go"});
  CHECK(bn::repl::complete(context, "path org.x.Foo.run;").words == Words{"org.x.Foo.run;Foo.call"});
  // A gap is offered once a '.' is typed, so a single callee above still completes at once.
  CHECK(bn::repl::complete(context, "path org.x.Foo.run;.").words == Words{"org.x.Foo.run;.."});
  CHECK(bn::repl::complete(context, "path org.y.Bar.go;").words.empty());
  CHECK(bn::repl::complete(context, "path org.y.Bar.go;").call_sequence);
  CHECK_FALSE(bn::repl::complete(context, "set ").call_sequence);
  CHECK(bn::repl::complete(context, "save ").files);
  session.labels().add("hot", *p.method_summary("org.y.Bar.go"));
  CHECK(bn::repl::complete(context, "unlabel h").words == Words{"hot"});
  CHECK(bn::repl::complete(context, "help sh").words == Words{"show"});
}

TEST_CASE("commands on one line are split at a line end or a ';' before a blank, never inside a call sequence") {
  using Parts = std::vector<std::string_view>;
  CHECK(bn::repl::split_commands("path a;b; label hot") == Parts{"path a;b", " label hot"});
  CHECK(bn::repl::split_commands("suggest\nselect 0;\tshow") == Parts{"suggest", "select 0", "\tshow"});
  CHECK(bn::repl::split_commands("path a;b;") == Parts{"path a;b", ""});
  CHECK(bn::repl::split_commands("labels") == Parts{"labels"});
}

TEST_CASE("completion after '; ' completes the words of the command being typed") {
  bn::search::testing::FakeProfile p({{"org.x.Foo.run;org.x.Foo.call", 3}, {"org.y.Bar.go", 1}});
  bn::search::Session session(p);
  bn::repl::Context context(session);
  using Words = std::vector<std::string>;
  CHECK(bn::repl::complete(context, "suggest; sel").words == Words{"select"});
  CHECK(bn::repl::complete(context, "suggest 3; set suggester h").words == Words{"HighBase", "HighCum"});
  CHECK(bn::repl::complete(context, "show; path org.x.Foo.run;").words == Words{"org.x.Foo.run;Foo.call"});
  // A ';' just typed goes on with the call sequence: it is not a separator yet.
  CHECK(bn::repl::complete(context, "path org.x.Foo.run;").words == Words{"org.x.Foo.run;Foo.call"});
}

TEST_CASE("a short name shared by two methods completes to their full names") {
  bn::search::testing::FakeProfile p({{"org.x.Foo.run", 3}, {"org.y.Foo.run", 1}, {"org.y.Foo.rest", 1}});
  bn::search::Session session(p);
  bn::repl::Context context(session);
  using Words = std::vector<std::string>;
  CHECK(bn::repl::complete(context, "path Foo.r").words == Words{"Foo.rest", "org.x.Foo.run", "org.y.Foo.run"});
}

TEST_CASE("completion offers what the argument under the cursor takes, and nothing past the last one") {
  bn::search::testing::FakeProfile p({{"a;b", 1}});
  bn::search::Session session(p);
  bn::repl::Context context(session);
  using Words = std::vector<std::string>;
  CHECK(bn::repl::complete(context, "set limit a").words == Words{"all"});
  CHECK(bn::repl::complete(context, "set zoom on o").words.empty());
  CHECK(bn::repl::complete(context, "select ").words.empty());
}
