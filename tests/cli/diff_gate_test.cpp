// The grammar of `bottlenecks diff --fail-if` (cli/diff_gate.h): what it reads and the one line
// it says about what it cannot.
#include "diff_gate.h"

#include <doctest/doctest.h>

#include <string>

#include "bn/base/error.h"

using bn::cli::Gate;
using bn::cli::parse_gate;

namespace {

std::string error_of(const std::string& text) {
  try {
    parse_gate(text);
  } catch (const bn::Error& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST_CASE("the three kinds of gate are read, spaces or none") {
  const Gate cum = parse_gate("cum > 2%");
  CHECK(cum.kind == Gate::Kind::cum);
  CHECK(cum.threshold == doctest::Approx(0.02));
  CHECK(cum.text == "cum > 2%");
  const Gate total = parse_gate("  total>0.5% ");
  CHECK(total.kind == Gate::Kind::total);
  CHECK(total.threshold == doctest::Approx(0.005));
  CHECK(total.text == "total>0.5%");
  const Gate method = parse_gate("method com.acme.* > 5%");
  CHECK(method.kind == Gate::Kind::method);
  CHECK(method.glob == "com.acme.*");
  CHECK(method.threshold == doctest::Approx(0.05));
  CHECK(parse_gate("cum > 0%").threshold == 0);
  CHECK(parse_gate("method a.B.run>12.5 %").threshold == doctest::Approx(0.125));
}

TEST_CASE("a bad gate is one line naming the expression and what is wrong") {
  CHECK(error_of("") == "--fail-if '': expected 'cum', 'total' or 'method GLOB' before '> P%'");
  CHECK(error_of("cpu > 2%") ==
        "--fail-if 'cpu > 2%': expected 'cum', 'total' or 'method GLOB' before '> P%', not 'cpu'");
  CHECK(error_of("cum >= 2%") == "--fail-if 'cum >= 2%': expected '>' after 'cum'");
  CHECK(error_of("cum < 2%") == "--fail-if 'cum < 2%': expected '>' after 'cum'");
  CHECK(error_of("cum 2%") == "--fail-if 'cum 2%': expected '>' after 'cum'");
  CHECK(error_of("cum >") == "--fail-if 'cum >': expected a percentage after '>' (e.g. 2%)");
  CHECK(error_of("cum > 2") == "--fail-if 'cum > 2': expected a percentage such as 2%, not '2'");
  CHECK(error_of("cum > -2%") == "--fail-if 'cum > -2%': '-2' is not a non-negative number");
  CHECK(error_of("cum > 2x%") == "--fail-if 'cum > 2x%': '2x' is not a non-negative number");
  CHECK(error_of("cum > 1.2.3%") == "--fail-if 'cum > 1.2.3%': '1.2.3' is not a non-negative number");
  CHECK(error_of("method > 5%") ==
        "--fail-if 'method > 5%': expected a method pattern after 'method' (e.g. com.acme.*)");
  CHECK(error_of("method a.* 5%") == "--fail-if 'method a.* 5%': expected '>' after 'method a.*'");
  CHECK(error_of("total > 1% extra") ==
        "--fail-if 'total > 1% extra': expected a percentage such as 2%, not '1% extra'");
}

TEST_CASE("--min-effect takes a percentage with or without its sign") {
  CHECK(bn::cli::parse_percent("0.5%", "--min-effect", false) == doctest::Approx(0.005));
  CHECK(bn::cli::parse_percent("2", "--min-effect", false) == doctest::Approx(0.02));
  CHECK_THROWS_WITH(bn::cli::parse_percent("lots", "--min-effect", false),
                    "--min-effect: 'lots' is not a non-negative number");
}
