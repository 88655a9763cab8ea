#!/usr/bin/env bash
# End-to-end checks of `bottlenecks diff`: the exit statuses a CI job reads (0 pass, 1 a
# regression trips the gate, 2 an error), the markdown verdict and table, the JSON schema's
# fields (docs/compare.md, "The diff gate"), several runs per side, -o and --flame.
# Usage: diff_test.sh BOTTLENECKS SOURCE_DIR CASE
set -uo pipefail
bin=$1 src=$2 case=$3
secure=$src/samples/security/secure.collapsed.gz
insecure=$src/samples/security/insecure.collapsed.gz
runs=$src/samples/compare-runs
source "$(dirname "$0")/testlib.sh"

# status EXPECTED CMD...: runs CMD with stdout in $work/out, stderr in $work/err.
status() {
  local want=$1; shift
  "$@" >"$work/out" 2>"$work/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "exit $got, not $want: $* ($(cat "$work/err"))"
}

case $case in
security_fails)
  # Security checks cost more than the whole insecure run: regressions trip the default gate.
  status 1 "$bin" diff "$secure" --base "$insecure"
  head -1 "$work/out" | grep -q "^FAIL: 'cum > 1%' tripped by [0-9]* significant regression" ||
    fail "verdict: $(head -1 "$work/out")"
  grep -q '^note: 1 run per side: run-to-run drift not measured' "$work/out" || fail "no 1-run note: $(cat "$work/out")"
  grep -q '^total: +[0-9.]*%' "$work/out" || fail "no total line"
  python3 -c 'import sys; sys.exit(any(len(l.rstrip("\n")) > 80 for l in open(sys.argv[1], encoding="utf-8")))' \
    "$work/out" || fail "a line over 80 columns: $(cat "$work/out")"
  [ -s "$work/err" ] && fail "stderr: $(cat "$work/err")"
  # A gate above every difference passes.
  status 0 "$bin" diff "$secure" --base "$insecure" --fail-if 'cum > 500%'
  head -1 "$work/out" | grep -q "^PASS: no gate tripped ('cum > 500%')" || fail "pass verdict: $(head -1 "$work/out")"
  # The total grew by far more than 1%; a method gate on the security code trips too.
  status 1 "$bin" diff "$secure" --base "$insecure" --fail-if 'total > 1%' --fail-if 'cum > 500%'
  head -1 "$work/out" | grep -q "^FAIL: 'total > 1%' tripped" || fail "total gate: $(head -1 "$work/out")"
  status 1 "$bin" diff "$secure" --base "$insecure" --fail-if 'method *Security* > 5%'
  # Compared by shape, the checks still regress; the total is not tested.
  status 1 "$bin" diff "$secure" --base "$insecure" --normalize total
  grep -q '^total: not tested' "$work/out" || fail "total under --normalize total: $(cat "$work/out")"
  ;;
same_runs_pass)
  # A run against itself: nothing differs, nothing trips.
  status 0 "$bin" diff "$insecure" --base "$insecure"
  head -1 "$work/out" | grep -q '^PASS' || fail "verdict: $(head -1 "$work/out")"
  grep -q '^no summary to report' "$work/out" || fail "rows for identical runs: $(cat "$work/out")"
  # The other way round the security checks are improvements, and nothing regresses by 1%.
  status 0 "$bin" diff "$insecure" --base "$secure"
  grep -q '^PASS.*significant regressions\?, [1-9][0-9]* significant improvements' <(tr '\n' ' ' <"$work/out") ||
    fail "improvements: $(head -2 "$work/out")"
  ;;
errors)
  # Every error is one line and exit 2, never 1 (a regression).
  expect_error "missing.collapsed" "$bin" diff "$work/missing.collapsed" --base "$insecure"
  status 2 "$bin" diff "$work/missing.collapsed" --base "$insecure"
  status 2 "$bin" diff "$secure" --base "$work/missing.collapsed"
  expect_error "--fail-if 'cum >= 2%': expected '>' after 'cum'" "$bin" diff "$secure" --base "$insecure" --fail-if 'cum >= 2%'
  status 2 "$bin" diff "$secure" --base "$insecure" --fail-if 'cum >= 2%'
  expect_error "no method matches 'com.nowhere.\*'" "$bin" diff "$secure" --base "$insecure" --fail-if 'method com.nowhere.* > 1%'
  status 2 "$bin" diff "$secure" --base "$insecure" --fail-if 'method com.nowhere.* > 1%'
  status 2 "$bin" diff "$secure" --base "$insecure" --format yaml
  # Under --normalize total both totals are made equal: a total gate could never trip.
  expect_error "under --normalize total" "$bin" diff "$secure" --base "$insecure" --normalize total --fail-if 'total > 1%'
  status 2 "$bin" diff "$secure" --base "$insecure" --normalize total --fail-if 'total > 1%'
  status 2 "$bin" diff "$secure"
  expect_error "--min-effect" "$bin" diff "$secure" --base "$insecure" --min-effect lots
  status 2 "$bin" diff "$secure" --base "$insecure" --min-effect lots
  status 2 "$bin" diff "$secure" --base "$insecure" --flame "$work/x.png"
  echo "not a profile" >"$work/bad.collapsed"
  status 2 "$bin" diff "$work/bad.collapsed" --base "$insecure"
  # The runs are read several at a time, and the error is still the one of the first bad run in
  # the command's order, alone on its line: here the second of A's runs, though B's bad run is
  # smaller and a missing one fails at once.
  echo "a;b x" >"$work/worse.collapsed"
  expect_error "'$work/bad.collapsed'" "$bin" diff "$secure" "$work/bad.collapsed" "$insecure" \
    --base "$work/missing.collapsed" "$work/worse.collapsed"
  status 2 "$bin" diff "$secure" "$work/bad.collapsed" --base "$work/worse.collapsed"
  if grep -q worse "$work/err"; then fail "the later bad run is named: $(cat "$work/err")"; fi
  ;;
markdown)
  status 1 "$bin" diff "$secure" --base "$insecure" --format markdown
  head -1 "$work/out" | grep -q "^\*\*FAIL: 'cum > 1%' tripped by" || fail "verdict first: $(head -1 "$work/out")"
  grep -q '^| | change | 95% interval | p | significant | gate | A | B | call sequence |$' "$work/out" ||
    fail "table header: $(cat "$work/out")"
  # Top regressions first: the first row is slower and tripped, rows of "faster" come after.
  first=$(grep -m1 '^| slower\|^| faster' "$work/out")
  echo "$first" | grep -q '^| slower | +[0-9.]*% | .* | yes | \*\*tripped\*\* |' || fail "first row: $first"
  grep -n '^| slower\|^| faster' "$work/out" | awk -F: '/faster/ { f = 1 } /slower/ && f { exit 1 }' ||
    fail "a regression after an improvement"
  ;;
json)
  status 1 "$bin" diff "$secure" --base "$insecure" --format json
  [ "$(wc -l <"$work/out")" -eq 1 ] || fail "not one JSON object"
  python3 - "$work/out" <<'PY' || fail "schema"
import json, sys
j = json.load(open(sys.argv[1]))
for k in ["schema", "verdict", "verdict_text", "a", "b", "unit", "normalization", "baseline_total", "min_effect",
          "false_discovery_rate", "confidence", "tests", "notes", "summaries", "total", "gates"]:
    assert k in j, k
assert j["schema"] == "bottlenecks-diff/1" and j["verdict"] == "fail"
assert j["a"] == [{"file": "secure.collapsed.gz", "total": "4565"}], j["a"]
assert j["b"] == [{"file": "insecure.collapsed.gz", "total": "1829"}], j["b"]
assert j["unit"] == "samples" and j["baseline_total"] == "1829"
s = j["summaries"][0]
for k in ["calls", "direction", "difference", "low", "high", "p", "df", "tested", "significant", "trips_gate",
          "a_cum", "b_cum"]:
    assert k in s, k
assert s["direction"] == "regression" and s["significant"] and s["trips_gate"] and s["df"] is None
assert s["low"] <= s["difference"] <= s["high"]
# Regressions first, significant ones first, each group largest first.
rows = [(x["difference"] > 0, x["significant"], abs(x["difference"])) for x in j["summaries"]]
assert rows == sorted(rows, reverse=True), rows
for k in ["difference", "low", "high", "p", "significant", "trips_gate", "a", "b"]:
    assert k in j["total"], k
g = j["gates"][0]
assert g == {"expression": "cum > 1%", "kind": "cum", "threshold": 0.01, "tripped": True,
             "tripped_by": g["tripped_by"]} and g["tripped_by"] >= 1, g
PY
  ;;
several_runs)
  # Three runs with a check against two without (samples/compare-runs/README.md); 10 labellings
  # of the five runs, too few for max-t: Welch and Benjamini-Hochberg. autolabel proposes
  # [check;verify], a regression of 32/3 samples over B's mean total 35, about +30%, with
  # df = 2 (B never calls it: no spread, no sampling variance) and p about 0.023; the method
  # gate on verify tests the same samples. Benjamini-Hochberg over the row, the total and the
  # gate: 0.023 <= 2 * 0.05 / 3. A gate on gc, which scatters from run to run, adds a fourth.
  a_runs=("$runs/a1.collapsed" "$runs/a2.collapsed" "$runs/a3.collapsed")
  status 1 "$bin" diff "${a_runs[@]}" --base "$runs/b1.collapsed" "$runs/b2.collapsed" --format json \
    --fail-if 'method *verify > 5%'
  python3 - "$work/out" <<'PY' || fail "several runs: $(cat "$work/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert [r["file"] for r in j["a"]] == ["a1.collapsed", "a2.collapsed", "a3.collapsed"], j["a"]
assert [r["file"] for r in j["b"]] == ["b1.collapsed", "b2.collapsed"], j["b"]
assert j["test"] == {"kind": "false-discovery"}, j["test"]
(verify,) = j["gates"]
assert verify["tripped"] and verify["methods"] == 1, verify
t = verify["test"]
assert abs(t["difference"] - (32 / 3) / 35) < 1e-9 and t["df"] == 2 and 0.02 < t["p"] < 0.025, t
assert t["significant"] and t["low"] > 0, t
(row,) = j["summaries"]
assert row["calls"] == ["check", "verify"] and row["significant"] and row["p"] == t["p"], row
assert j["tests"] == 3, j["tests"]
assert any("2 runs on the smaller side" in n for n in j["notes"]), j["notes"]
PY
  status 1 "$bin" diff "${a_runs[@]}" --base "$runs/b1.collapsed" "$runs/b2.collapsed" --format json \
    --fail-if 'method *verify > 5%' --fail-if 'method gc > 1%'
  python3 - "$work/out" <<'PY' || fail "several runs, four tests: $(cat "$work/out")"
import json, sys
j = json.load(open(sys.argv[1]))
verify, gc = j["gates"]
assert j["tests"] == 4 and verify["tripped"] and verify["test"]["significant"], verify
assert abs(gc["test"]["difference"] - (4 - 5) / 35) < 1e-9 and not gc["test"]["significant"], gc
PY
  ;;
relabelled)
  # Four runs per side: the test is max-t over the 70 labellings of the eight runs. check is
  # new in A (29 to 31 of about 170 samples in every run, never in B) and is as extreme as it
  # can be: only the real labelling puts all four of its runs on one side, so p = 1/70. work
  # moves by a sample or two either way and is not significant.
  for i in 1 2 3 4; do
    printf 'main;work %d\nmain;check %d\nmain;parse 40\n' $((100 + i % 2)) $((28 + i % 3 + 1)) >"$work/a$i.collapsed"
    printf 'main;work %d\nmain;parse 40\n' $((100 + i % 3)) >"$work/b$i.collapsed"
  done
  status 1 "$bin" diff "$work"/a{1,2,3,4}.collapsed --base "$work"/b{1,2,3,4}.collapsed --format json \
    --fail-if 'method check > 5%' --fail-if 'method work > 0.1%'
  python3 - "$work/out" <<'PY' || fail "relabelled: $(cat "$work/out")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["test"] == {"kind": "max-t", "labellings": 70, "exhaustive": True, "methods_added": 4}, j["test"]
assert j["tests"] == 8, j["tests"]  # the row [check], the total, two gates, four methods
(row,) = j["summaries"]
assert row["calls"] == ["check"] and row["significant"] and abs(row["p"] - 1 / 70) < 1e-12, row
check, work = (g["test"] for g in j["gates"])
assert check["significant"] and check["trips_gate"] and abs(check["p"] - 1 / 70) < 1e-12, check
assert 0 < check["low"] < check["difference"] < check["high"], check
assert not work["significant"] and work["low"] < 0 < work["high"], work
PY
  # Runs of one build on both sides: nothing is significant.
  status 0 "$bin" diff "$work"/b{1,2,3}.collapsed --base "$work"/b{2,3,4}.collapsed
  grep -q 'max-t over all 20 labellings of the runs' "$work/out" || fail "how tested: $(cat "$work/out")"
  ;;
output_and_flame)
  status 1 "$bin" diff "$secure" --base "$insecure" --format markdown -o "$work/report.md" --flame "$work/diff.html"
  [ -s "$work/out" ] && fail "report on stdout with -o"
  head -1 "$work/report.md" | grep -q '^\*\*FAIL' || fail "report.md: $(head -3 "$work/report.md")"
  grep -q '<html' "$work/diff.html" || fail "no flame graph"
  ls "$work" | grep -q '\.tmp\|report.md.' && fail "temporary file left: $(ls "$work")"
  # A report that cannot be written is an error, not a verdict.
  status 2 "$bin" diff "$secure" --base "$insecure" -o "$work/no/such/dir/report.md"
  ;;
*) fail "unknown case $case" ;;
esac
