// The agent's option parser (recorder-agent/options/src/options.cpp): every option of docs/recorder.md,
// its default, and a message naming the option for every bad value.

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bn/agent/option_table.h"
#include "bn/agent/options.h"

namespace {

bn::agent::ParsedOptions parse_options(const char* text) { return bn::agent::parse_options(text); }

}  // namespace

TEST_CASE("no options give the documented defaults") {
  const auto p = parse_options(nullptr);
  CHECK(p.status.ok());
  CHECK(p.options.mode == "sample");
  CHECK(p.options.file == "bottlenecks.bnp");
  CHECK(p.options.interval_ns == 20'000'000);
  CHECK(p.options.max_overhead == 0);
  CHECK(p.options.delay_ns == 0);
  CHECK(p.options.duration_ns == 0);
  CHECK(p.options.flush_ns == 1'000'000'000);
  CHECK(p.options.snapshot_ns == 0);
  CHECK(p.options.max_depth == 2048);
  CHECK(p.options.signal_stacks);
  CHECK_FALSE(p.options.strict);
  CHECK_FALSE(p.options.quiet);
  CHECK_FALSE(p.options.stop);
  CHECK_FALSE(p.options.file_given);
}

TEST_CASE("every option is parsed with its unit") {
  const auto p = parse_options(
      "mode=sample,file=/tmp/x.bnp,interval=1.5ms,maxoverhead=2%,delay=2s,duration=1m,flush=250ms,"
      "snapshot=10s,depth=64,stacks=handshake,strict,quiet=false");
  REQUIRE(p.status.ok());
  CHECK(p.options.file == "/tmp/x.bnp");
  CHECK(p.options.interval_ns == 1'500'000);
  CHECK(p.options.max_overhead == doctest::Approx(0.02));
  CHECK(p.options.delay_ns == 2'000'000'000);
  CHECK(p.options.duration_ns == 60'000'000'000);
  CHECK(p.options.flush_ns == 250'000'000);
  CHECK(p.options.snapshot_ns == 10'000'000'000);
  CHECK(p.options.max_depth == 64);
  CHECK_FALSE(p.options.signal_stacks);
  CHECK(p.options.strict);
  CHECK_FALSE(p.options.quiet);
  CHECK(parse_options("maxoverhead=0.5").options.max_overhead == doctest::Approx(0.005));
  CHECK(p.options.file_given);  // `stop` names the recording it ends by its file, if given
  const auto stop = parse_options("stop");
  CHECK(stop.options.stop);
  CHECK_FALSE(stop.options.file_given);
  CHECK_FALSE(parse_options("stop=false").options.stop);
}

TEST_CASE("a bad option is named in the error, and strict is honoured anyway") {
  const auto check = [](const char* text, const char* named) {
    const auto p = parse_options(text);
    INFO(text << " -> " << p.status.message());
    CHECK(p.status.message().find(named) != std::string::npos);
  };
  check("interval=20", "'interval=20'");        // no unit
  check("interval=0.5ms", "'interval=0.5ms'");  // below 1 ms
  check("interval=2h", "'interval=2h'");        // above 1 h
  check("maxoverhead=0%", "'maxoverhead=0%'");
  check("maxoverhead=150%", "'maxoverhead=150%'");
  check("delay=soon", "'delay=soon'");
  check("flush=1ms", "'flush=1ms'");
  check("snapshot=10ms", "'snapshot=10ms'");
  check("depth=0", "'depth=0'");
  check("depth=12x", "'depth=12x'");
  check("file=", "'file='");
  check("stacks=async", "'stacks=async'");
  check("mode=trace", "'mode=trace'");
  check("strict=maybe", "'strict=maybe'");
  check("stop=now", "'stop=now'");
  check("colour=red", "unknown option 'colour=red'");
  const auto p = parse_options("bogus,strict");
  CHECK(p.options.strict);
  CHECK(p.status.message().find("'bogus'") != std::string::npos);
  CHECK(parse_options("interval=1x,depth=0").status.message().find("interval") != std::string::npos);  // first one
}

TEST_CASE("mode= accepts every mode of the table and lists them all when it is bad") {
  for (const bn::agent::Mode& m : bn::agent::modes()) {
    const auto p = parse_options(("mode=" + std::string(m.name)).c_str());
    CHECK(p.status.ok());
    CHECK(p.options.mode == m.name);
  }
  CHECK(parse_options("mode=trace").status.message() ==
        "bad option 'mode=trace': expected mode=sample (stacks and states of every thread at jittered intervals) or "
        "mode=calltree (every call of every instrumented method: exact call counts and times per calling context) or "
        "mode=causal (what speeding up a call path would gain the program: experiments of virtual speedup, beside the "
        "sampler's stacks)");
}

TEST_CASE("the call-tree options are parsed, and refused for a mode that does not instrument") {
  const auto p =
      parse_options("mode=calltree,include=com.acme.*:org.x.*,exclude=com.acme.gen.*,trivial=count,methods=h.labels");
  REQUIRE(p.status.ok());
  CHECK(p.options.include == "com.acme.*:org.x.*");
  CHECK(p.options.exclude == "com.acme.gen.*");
  CHECK(p.options.trivial == bn::agent::Options::Trivial::kCount);
  CHECK(p.options.methods_file == "h.labels");
  CHECK(parse_options("").options.trivial == bn::agent::Options::Trivial::kSkip);
  CHECK(parse_options("mode=calltree,trivial=wrappers").options.trivial == bn::agent::Options::Trivial::kWrappers);
  CHECK(parse_options("mode=calltree,trivial=some").status.message() ==
        "bad option 'trivial=some': expected trivial=skip, trivial=wrappers or trivial=count");
  CHECK_FALSE(parse_options("mode=calltree").options.exact_clock);
  CHECK(parse_options("mode=calltree,clock=exact").options.exact_clock);
  CHECK_FALSE(parse_options("mode=calltree,clock=exact,clock=tick").options.exact_clock);
  CHECK(parse_options("mode=calltree,clock=fast").status.message() ==
        "bad option 'clock=fast': expected clock=tick or clock=exact");
  CHECK(parse_options("include=com.*").status.message() ==
        "include= applies to mode=calltree only, not to mode=sample");
  // Wherever mode= stands among them.
  CHECK(parse_options("clock=exact,mode=sample").status.message() ==
        "clock= applies to mode=calltree only, not to mode=sample");
  CHECK(parse_options("treememory=2g,mode=calltree").status.ok());
}

TEST_CASE("latency= takes BEGIN:END, repeatable, for the causal mode only") {
  const auto p = parse_options("mode=causal,latency=a.S.receive:a.S.reply,latency=a.S.handle:a.S.handle");
  REQUIRE(p.status.ok());
  CHECK(p.options.latency == std::vector<std::string>{"a.S.receive:a.S.reply", "a.S.handle:a.S.handle"});
  for (const char* bad :
       {"mode=causal,latency=a.S.reply", "mode=causal,latency=:a.S.reply", "mode=causal,latency=a.S.x:"})
    CHECK(parse_options(bad).status.message().find(
              "expected BEGIN:END, two methods, e.g. latency=com.acme.Server.receive:com.acme.Server.reply") !=
          std::string::npos);
  CHECK(parse_options("latency=a.B.c:a.B.d").status.message() ==
        "latency= applies to mode=causal only, not to mode=sample");
}

TEST_CASE("treememory= takes a size in bytes with an optional binary suffix, at least 64k") {
  CHECK(parse_options("mode=calltree").options.tree_memory == 0);  // the default: an eighth of physical memory
  CHECK(parse_options("mode=calltree,treememory=2g").options.tree_memory == std::uint64_t{2} << 30);
  CHECK(parse_options("mode=calltree,treememory=512m").options.tree_memory == std::uint64_t{512} << 20);
  CHECK(parse_options("mode=calltree,treememory=64k").options.tree_memory == std::uint64_t{64} << 10);
  CHECK(parse_options("mode=calltree,treememory=1t").options.tree_memory == std::uint64_t{1} << 40);
  CHECK(parse_options("mode=calltree,treememory=1048576").options.tree_memory == std::uint64_t{1} << 20);
  for (const char* bad : {"treememory=63k", "treememory=2x", "treememory=", "treememory=-1g", "treememory=1.5g",
                          "treememory=99999999999t"}) {
    INFO(bad);
    const auto p = parse_options((std::string("mode=calltree,") + bad).c_str());
    CHECK(p.status.message() == "bad option '" + std::string(bad) +
                                    "': expected a size of at least 64k (bytes, or with k, m, g or t), e.g. "
                                    "treememory=2g");
  }
}
