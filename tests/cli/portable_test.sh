#!/usr/bin/env bash
# The executable needs nothing on a machine but glibc (cmake/StaticDeps.cmake): its dynamic
# section names no library outside glibc's, but for those ALLOWED here (the sanitized build's
# libstdc++ and libgcc_s).
# Usage: portable_test.sh BOTTLENECKS [ALLOWED...]
set -uo pipefail
bin=$1; shift
source "$(dirname "$0")/testlib.sh"
readelf -d "$bin" >"$work/dynamic" || fail "readelf -d $bin failed"
sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' "$work/dynamic" >"$work/needed"
grep -q '^libc\.so\.' "$work/needed" || fail "no NEEDED libc: is the dynamic section read? $(cat "$work/dynamic")"
while read -r lib; do
  case $lib in
    libc.so.* | libm.so.* | libpthread.so.* | libdl.so.* | librt.so.* | ld-linux*.so.*) continue ;;
  esac
  for allowed in "$@"; do [[ $lib == "$allowed".* ]] && continue 2; done
  fail "$bin needs $lib: it should be linked from its static archive (cmake/StaticDeps.cmake)"
done <"$work/needed"
"$bin" --version | grep -q '^bottlenecks ' || fail "the binary does not run"
