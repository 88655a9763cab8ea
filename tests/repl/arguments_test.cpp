#include "bn/repl/arguments.h"

#include <doctest/doctest.h>

#include "bn/repl/commands.h"

using namespace bn::repl;

namespace {

// Rows shaped like the commands planned next, to show each is one row (their handlers are not
// called here).
const Command kView{"view", {choice("server|thread CLASS|tree", "view")}, "", nullptr};
const Command kModel{"set model", {choice("paper|cpus N|measured", "model")}, "", nullptr};
const Command kThreads{"set threads", {choice("by"), choice("class|name", "thread grouping")}, "", nullptr};
const Command kAutolabel{"autolabel", {optional(word("N"))}, "", nullptr};
const Command kFlame{"flame", {optional(text("FILE", ArgCompletion::kFiles))}, "", nullptr};
const Command kAspect{"aspect", {word("NAME"), choice("="), text("PATTERN")}, "", nullptr};

}  // namespace

TEST_CASE("usage text is rendered from the arguments of a row") {
  CHECK(usage_text(kView.args) == "server|thread CLASS|tree");
  CHECK(usage_text(kModel.args) == "paper|cpus N|measured");
  CHECK(usage_text(kThreads.args) == "by class|name");
  CHECK(usage_text(kAutolabel.args) == "[N]");
  CHECK(usage_text(kFlame.args) == "[FILE]");
  CHECK(usage_text(kAspect.args) == "NAME = PATTERN");
  CHECK(usage_text(ArgSpec{}).empty());
}

TEST_CASE("every row of the command table declares arguments the dispatcher can match") {
  for (const Command& command : command_table()) {
    CAPTURE(command.name);
    bool ended = false, optional_seen = false;
    for (const Arg& arg : command.args) {
      if (arg.kind == ArgKind::kNone) {
        ended = true;
        continue;
      }
      CHECK_FALSE(ended);  // no gaps
      CHECK_FALSE(arg.usage.empty());
      CHECK((arg.optional || !optional_seen));  // only trailing arguments may be left out
      optional_seen = optional_seen || arg.optional;
      if (arg.kind == ArgKind::kText) ended = true;  // text takes the rest of the line
      if (arg.kind == ArgKind::kChoice)
        for (const Alternative& a : alternatives(arg)) CHECK_FALSE((a.keyword.empty() && a.placeholder.empty()));
    }
  }
}

TEST_CASE("a choice picks its alternative by keyword in any case, or the bare placeholder") {
  const Command limit{"set limit", {choice("N|all")}, "", nullptr};
  CHECK(match_arguments(limit, "ALL")[0].keyword == "all");
  CHECK(match_arguments(limit, "12")[0].keyword.empty());
  CHECK(match_arguments(limit, "12")[0].text == "12");
  CHECK(match_arguments(kThreads, "BY Name")[1].keyword == "name");
  // As the row spells it, whatever the case typed.
  const Command suggester{"set suggester", {choice("HighCum|HighBase", "suggester")}, "", nullptr};
  CHECK(match_arguments(suggester, "highbase")[0].keyword == "HighBase");
}

TEST_CASE("an alternative with a placeholder takes the word after its keyword") {
  const Arguments thread = match_arguments(kView, "thread org.h2.Worker");
  CHECK(thread[0].keyword == "thread");
  CHECK(thread[0].param == "org.h2.Worker");
  CHECK(match_arguments(kView, "tree")[0].keyword == "tree");
  CHECK(match_arguments(kModel, "cpus 4")[0].param == "4");
  CHECK_THROWS_WITH_AS(match_arguments(kView, "thread"), "usage: view server|thread CLASS|tree", bn::Error);
  CHECK_THROWS_WITH_AS(match_arguments(kModel, "paper 4"), "usage: set model paper|cpus N|measured", bn::Error);
}

TEST_CASE("text takes the rest of the line with its blanks, and may follow a keyword") {
  const Arguments aspect = match_arguments(kAspect, " db = org.h2.*  java.sql.* ");
  CHECK(aspect[0].text == "db");
  CHECK(aspect[2].text == "org.h2.*  java.sql.*");
  CHECK_THROWS_WITH_AS(match_arguments(kAspect, "db org.h2.*"), "usage: aspect NAME = PATTERN", bn::Error);
  CHECK_THROWS_WITH_AS(match_arguments(kAspect, "db ="), "usage: aspect NAME = PATTERN", bn::Error);
  CHECK(match_arguments(kFlame, "my flame.svg")[0].text == "my flame.svg");
}

TEST_CASE("an optional argument left out comes back empty") {
  CHECK(match_arguments(kAutolabel, "")[0].text.empty());
  CHECK(match_arguments(kAutolabel, " 3 ")[0].text == "3");
  CHECK(match_arguments(kFlame, "  ")[0].text.empty());
  CHECK_THROWS_WITH_AS(match_arguments(kAutolabel, "3 4"), "usage: autolabel [N]", bn::Error);
}

TEST_CASE("a wrong number of words is reported before a choice typed wrong") {
  const Command zoom{"set zoom", {choice("on|off", "zoom setting")}, "", nullptr};
  CHECK_THROWS_WITH_AS(match_arguments(zoom, "maybe"), "bad zoom setting 'maybe': expected on/off", bn::Error);
  CHECK_THROWS_WITH_AS(match_arguments(zoom, "maybe not"), "usage: set zoom on|off", bn::Error);
  CHECK_THROWS_WITH_AS(match_arguments(zoom, ""), "usage: set zoom on|off", bn::Error);
  CHECK_THROWS_WITH_AS(match_arguments(kView, "thrad x"), "usage: view server|thread CLASS|tree", bn::Error);
  CHECK_THROWS_WITH_AS(match_arguments(kView, "thrad"),
                       "bad view 'thrad': expected server/thread/tree; did you mean 'thread'?", bn::Error);
  CHECK_THROWS_WITH_AS(match_arguments(kView, "sideways"), "bad view 'sideways': expected server/thread/tree",
                       bn::Error);
  // A keyword without a name for errors is part of the usage.
  CHECK_THROWS_WITH_AS(match_arguments(kThreads, "with class"), "usage: set threads by class|name", bn::Error);
  CHECK_THROWS_WITH_AS(match_arguments(kThreads, "by size"), "bad thread grouping 'size': expected class/name",
                       bn::Error);
}

TEST_CASE("a usage error says what a missing or malformed argument must be") {
  const Command label{"label", {text("NAME", ArgCompletion::kLabels, "a non-empty name")}, "", nullptr};
  CHECK_THROWS_WITH_AS(match_arguments(label, " "), "usage: label NAME (a non-empty name)", bn::Error);
  CHECK(match_arguments(label, "x").usage_error(0).what() == std::string("usage: label NAME (a non-empty name)"));
  const Command quit{"quit", {}, "", nullptr};
  CHECK_THROWS_WITH_AS(match_arguments(quit, "now"), "usage: quit", bn::Error);
}

TEST_CASE("completion asks for the argument the next word fills") {
  using Words = std::vector<std::string_view>;
  CHECK(next_arg(kThreads, Words{})->usage == "by");
  CHECK(next_arg(kThreads, Words{"by"})->usage == "class|name");
  CHECK(next_arg(kThreads, Words{"by", "name"}) == nullptr);
  CHECK(next_arg(kView, Words{}) == &kView.args[0]);
  CHECK(next_arg(kView, Words{"thread"}) == nullptr);  // the class name is free
  CHECK(next_arg(kView, Words{"tree"}) == nullptr);
  CHECK(next_arg(kAspect, Words{"db", "=", "org.h2.*"})->usage == "PATTERN");
  CHECK(next_arg(kFlame, Words{})->completion == ArgCompletion::kFiles);
}
