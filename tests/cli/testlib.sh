# Shared by the CLI end-to-end scripts: a scratch directory removed on exit, and assertions.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Labels a session leaves unsaved are kept here, never in the user's home.
export XDG_STATE_HOME=$work/state

fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_error PATTERN CMD...: the command must exit non-zero and print exactly one line on
# stderr that mentions PATTERN (the project's rule for bad input).
expect_error() {
  local pattern=$1; shift
  "$@" >"$work/out" 2>"$work/err" && fail "expected failure: $*"
  [ "$(wc -l <"$work/err")" -eq 1 ] || fail "expected one error line, got: $(cat "$work/err")"
  grep -q -- "$pattern" "$work/err" || fail "error '$(cat "$work/err")' does not mention '$pattern'"
}
