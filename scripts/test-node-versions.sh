#!/usr/bin/env bash
# Runs what of `npm test` runs the project's code under other Node majors: the spec lint (the CLI) and
# both vitest lanes, with Node taken from the npm registry's `node` package (`npx -p node@MAJOR`); its
# directory goes first on PATH, so npm, vitest and every child process the tests spawn
# (process.execPath) run on it. Prettier, ESLint, the generated-code check and tsc read files and answer
# the same on every Node: .ci/run's `npm test` has run them once already (decisions/059).
#
#   scripts/test-node-versions.sh          # Node 22 and 24
#   scripts/test-node-versions.sh 22       # only 22
#
# Needs the dependencies installed (`npm install`) and the npm registry reachable (the first run per
# major downloads Node, ~30 MB). Exits 1 when any version fails, after trying all, and says which.
set -uo pipefail
cd "$(dirname "$0")/.."

majors=("$@")
[[ ${#majors[@]} -eq 0 ]] && majors=(22 24)

declare -a summary=()
failed=0
for major in "${majors[@]}"; do
  if [[ ! $major =~ ^[0-9]+$ ]]; then
    echo "test-node-versions: \"$major\" is not a Node major version (e.g. 22)" >&2
    exit 2
  fi
  echo "=== Node $major: npx -p node@$major … lint:spec and vitest ==="
  started=$(date +%s)
  version=$(npx -y -p "node@$major" node --version 2>/dev/null | tail -n 1)
  if [[ ! $version =~ ^v$major\. ]]; then
    echo "test-node-versions: could not get Node $major from the npm registry (got \"$version\")" >&2
    summary+=("Node $major: FAILED (no Node $major binary)")
    failed=1
    continue
  fi
  # Put that Node's directory first on PATH and run the tests in a plain shell: running them inside
  # `npx -c` would leak npm_config_call/npm_config_package into every child, so a test's own
  # `npx vitest` or a consumer project's `npx videotask mock` would run the -c command instead.
  bindir=$(npx -y -p "node@$major" -c 'dirname "$(command -v node)"' 2>/dev/null | tail -n 1)
  if PATH="$bindir:$PATH" bash -c "test \"\$(node --version)\" = \"$version\" && echo \"node \$(node --version) at \$(command -v node)\" && npm run -s lint:spec && npx vitest run"; then
    summary+=("Node $major ($version): passed in $(($(date +%s) - started)) s")
  else
    summary+=("Node $major ($version): FAILED after $(($(date +%s) - started)) s")
    failed=1
  fi
done

echo "=== test-node-versions summary ==="
printf '%s\n' "${summary[@]}"
exit $failed
