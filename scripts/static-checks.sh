#!/usr/bin/env bash
# `npm test`'s checks before vitest, in two lanes at once (decisions/060): ESLint alone in one (its
# typed rules, about 45 s of one core), and Prettier, the spec lint, the generated-code check and tsc
# one after the other in the other (about as long together). Each is single-threaded, so on 2 cores
# they finish in the time of the longer lane instead of the sum.
#
# Each check's output is kept and printed whole when both lanes are done, in the order above, so
# nothing interleaves; the script fails when any check failed, after all ran, naming which.
#
#   bash scripts/static-checks.sh
set -uo pipefail
cd "$(dirname "$0")/.."

out=$(mktemp -d "${TMPDIR:-/tmp}/videotask-checks.XXXXXX")
trap 'rm -rf "$out"' EXIT

# check NAME COMMAND…: runs it with its output in $out/NAME.log and its exit status in $out/NAME.status.
check() {
  local name=$1
  shift
  "$@" >"$out/$name.log" 2>&1
  echo $? >"$out/$name.status"
}

check eslint bash scripts/lint.sh --eslint &
eslint_pid=$!
check prettier bash scripts/lint.sh --format-check
check lint:spec npm run -s lint:spec
check check:generated npm run -s check:generated
check typecheck npm run -s typecheck
wait "$eslint_pid"

failed=()
for name in prettier eslint lint:spec check:generated typecheck; do
  cat "$out/$name.log"
  [[ $(cat "$out/$name.status") == 0 ]] || failed+=("$name")
done
if ((${#failed[@]} > 0)); then
  echo "static checks failed: ${failed[*]}; each runs alone as npm run format:check, lint, lint:spec," \
    "check:generated, typecheck (npm run format fixes Prettier's findings)" >&2
  exit 1
fi
