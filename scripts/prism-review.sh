#!/usr/bin/env bash
# Prism as an independent reviewer (issue 17): the mock behind Prism's validating proxy, with the
# reference client, the contract suite and the request script (scripts/prism-requests.ts) sending their
# traffic through it, for each profile of the mock; then every violation Prism reported is counted.
#
#   bash scripts/prism-review.sh [--keep-logs DIR]
#
# Prism (@stoplight/prism-cli, pinned below) is fetched on demand with npx: it is not a dependency.
# Per profile: a strict Prism (`proxy --errors`: an answer that breaks spec/openapi.yaml becomes a 500,
# so the client and the contract suite fail on it), a lenient one (no --errors: for requests that are
# invalid on purpose, which a strict Prism answers itself, and whose answers it still validates), and a
# strict one over spec/mock-control.yaml. Binary bodies (Prism corrupts them) and invalid JSON (Prism
# hangs on it) go to the mock directly and are judged by our own check.
# Exit 0: every step passed and Prism reported zero response violations; 1 otherwise; 2 bad usage.
set -euo pipefail

PRISM_PACKAGE="@stoplight/prism-cli@5.16.0"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
keep=""
if [[ $# -eq 2 && $1 == --keep-logs ]]; then keep="$2"; mkdir -p "$keep"
elif [[ $# -ne 0 ]]; then echo "usage: bash scripts/prism-review.sh [--keep-logs DIR]" >&2; exit 2; fi

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [[ -n $keep ]]; then cp "$work"/*.log "$keep"/ 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "prism-review: fetching $PRISM_PACKAGE (npx, on demand)" >&2
prism_bin="$(npx -y -p "$PRISM_PACKAGE" which prism)"
prism_version="$(node "$prism_bin" --version)"

# Waits for a line matching $2 in log $1 (30 s) and sets $url to the first match of $3 in it.
url=""
await_line() {
  for _ in $(seq 300); do
    if grep -qsE "$2" "$1"; then url="$(grep -oE "$3" "$1" | head -1)"; return 0; fi
    sleep 0.1
  done
  echo "prism-review: no \"$2\" in $1 within 30 s:" >&2; cat "$1" >&2; return 1
}

free_port() {
  node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

start_mock() { # name, mock flags… (sets $url)
  local name=$1; shift
  node bin/videotask.js mock --port 0 "$@" >"$work/$name.log" 2>&1 &
  pids+=($!)
  await_line "$work/$name.log" 'listening on' 'http://[0-9.:]+'
}

start_prism() { # name, spec, upstream, extra flags… (sets $url)
  local name=$1 spec=$2 upstream=$3 port; shift 3
  port="$(free_port)"
  node "$prism_bin" proxy -m false -h 127.0.0.1 -p "$port" "$@" "$spec" "$upstream" >"$work/$name.log" 2>&1 &
  pids+=($!)
  await_line "$work/$name.log" 'Prism is listening' 'http://127\.0\.0\.1:[0-9]+'
}

failed=0
step() { # description, command…
  local what=$1 rc=0; shift
  "$@" >"$work/step.out" 2>&1 || rc=$?
  if [[ $rc -eq 0 ]]; then echo "ok   $what"; return; fi
  failed=1
  echo "FAIL $what (exit $rc)"
  # The request script marks its failing lines; other commands show their last lines.
  if grep -q '^FAIL ' "$work/step.out"; then grep -A4 '^FAIL ' "$work/step.out" | sed 's/^/     /'
  else tail -30 "$work/step.out" | sed 's/^/     /'; fi
}

cli() { node bin/videotask.js "$@"; }

review_profile() { # profile, mock flags…
  local profile=$1; shift
  local mock strict lenient control id
  start_mock "mock-$profile" --profile "$profile" --speed 1000 "$@"; mock=$url
  start_prism "prism-strict-$profile" spec/openapi.yaml "$mock" --errors; strict=$url
  start_prism "prism-lenient-$profile" spec/openapi.yaml "$mock"; lenient=$url
  start_prism "prism-control-$profile" spec/mock-control.yaml "$mock" --errors; control=$url
  echo "== $profile profile: mock $mock, Prism strict $strict, lenient $lenient, control $control"
  export VIDEOTASK_API_KEY=sk-mock-alice
  local journal="$work/tasks-$profile.jsonl" poll=(--poll-initial 0.05 --poll-max 0.2 --poll-timeout 60)
  id="$(cli submit --base-url "$strict" --model video-pro-v1 --prompt 'a red kite' --journal "$journal")"
  echo "ok   client: videotask submit → $id"
  step "client: videotask status" cli status "$id" --base-url "$strict"
  step "client: videotask status --wrapper" cli status "$id" --wrapper --json --base-url "$strict"
  step "client: videotask wait" cli wait "$id" --base-url "$strict" "${poll[@]}"
  step "client: videotask wait --journal" cli wait --journal "$journal" --base-url "$strict" "${poll[@]}"
  step "client: videotask download (bytes from the mock)" cli download "$id" -o "$work/$profile.mp4" --base-url "$mock"
  if [[ $profile == observed ]]; then
    step "client: the openai SDK's videos.create (multipart)" npx tsx scripts/prism-openai-sdk.ts "$strict"
  fi
  step "contract suite: videotask contract" cli contract --base-url "$strict" --other-api-key sk-mock-bob \
    "${poll[@]}" --report-dir "$work/reports-$profile"
  step "request script: scripts/prism-requests.ts" npx tsx scripts/prism-requests.ts \
    --profile "$profile" --mock "$mock" --strict "$strict" --lenient "$lenient" --control "$control"
  grep -E '^\{' "$work/step.out" | tail -1 >"$work/requests-$profile.json" || true
}

review_profile documented
review_profile observed --content-redirect

# Prism's own record: every violation it logged, every answer it made itself, every one it could not read.
count() { cat "$work"/prism-*.log | grep -cE "$1" || true; }
response_violations=$(count 'Violation: response|VIOLATIONS')
request_violations=$(count 'Violation: request')
refused=$(count 'terminated with error: https://stoplight.io/prism/errors#(UNAUTHORIZED|UNPROCESSABLE_ENTITY)')
unreadable=$(count 'terminated with error: (FetchError|Error)')
grep -hE 'Violation: response|VIOLATIONS|terminated with error: (FetchError|Error)' "$work"/prism-*.log | head -20 | sed 's/^/     /' || true
requests=$(count 'Request received')
echo "== Prism $prism_version: $requests requests reviewed, $response_violations response violation(s), $unreadable answer(s) Prism could not read"
echo "   on purpose: $request_violations request violation(s) through the lenient Prisms, $refused invalid request(s) the strict Prisms answered themselves (the contract suite's keyless and empty-prompt probes)"
for profile in documented observed; do echo "   request script, $profile: $(cat "$work/requests-$profile.json")"; done
if [[ $failed -ne 0 || $response_violations -ne 0 || $unreadable -ne 0 ]]; then echo "prism-review: FAILED"; exit 1; fi
echo "prism-review: zero violations"
