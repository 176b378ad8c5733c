#!/bin/bash
# Copies the table of times the last tests/run.sh of a tier wrote
# ($OOPSLIMIT_CACHE/test-times.TIER.md: each stage's wall time, the ten
# slowest tests) into bench/test-times-TIER.md, where review sees it change.
#
# Usage: scripts/test-times.sh [test|full]      (make test-times TIER=...)
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

tier=${1:-test}
case $tier in test | full) ;; *) die "the tier is test or full, not '$tier'" ;; esac
src=$OOPSLIMIT_CACHE/test-times.$tier.md
cmd="make test"
[ "$tier" = test ] || cmd="make test-full"
[ -r "$src" ] || die "no $src: run $cmd first"
ol_write_atomic "$OOPSLIMIT_TOP/bench/test-times-$tier.md" 644 <"$src" || die "cannot write bench/test-times-$tier.md"
say "bench/test-times-$tier.md: $(sed -n 3p "$src")"
