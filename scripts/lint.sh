#!/usr/bin/env bash
# `npm run lint`, `npm run format:check` and `npm run format` (npm test runs the parts side by side:
# scripts/static-checks.sh): Prettier and ESLint over the files git tracks (issue 22). A report
# folder, a scratch file or a note a developer keeps untracked in the checkout is theirs: it must
# neither fail the tests nor be rewritten. A CI
# clone has no untracked files, so it checks exactly what it did before; a new file counts once it is
# `git add`ed. .prettierignore and eslint.config.js's ignores still apply. Outside a git work tree (an
# unpacked source tarball) every file under the folder is checked, as `prettier --check .` would.
#
#   bash scripts/lint.sh                 Prettier --check, then ESLint
#   bash scripts/lint.sh --format-check  Prettier --check only
#   bash scripts/lint.sh --format        Prettier --write only
#   bash scripts/lint.sh --eslint        ESLint only (scripts/static-checks.sh runs it beside the rest)
set -euo pipefail

mode=${1:-all}
case "$mode" in
  all | --format-check | --format | --eslint) ;;
  *) echo "usage: bash scripts/lint.sh [--format-check | --format | --eslint]" >&2; exit 2 ;;
esac

files=()
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Tracked files under this folder that are still there (a deletion not yet committed is no file).
  while IFS= read -r -d '' path; do
    [[ -f "$path" ]] && files+=("$path")
  done < <(git ls-files -z --cached)
else
  files=(.)
fi

code=()
for path in "${files[@]}"; do
  case "$path" in
    . | *.js | *.mjs | *.cjs | *.jsx | *.ts | *.mts | *.cts | *.tsx) code+=("$path") ;;
  esac
done

((${#files[@]} > 0)) || exit 0
# --ignore-unknown: files Prettier has no parser for (LICENSE, *.sh, *.mp4) are skipped, not errors.
if [[ "$mode" == --format ]]; then
  exec prettier --write --ignore-unknown --log-level warn -- "${files[@]}"
fi
if [[ "$mode" != --eslint ]]; then
  prettier --check --ignore-unknown -- "${files[@]}"
  [[ "$mode" == --format-check ]] && exit 0
fi
if ((${#code[@]} > 0)); then
  eslint --no-warn-ignored -- "${code[@]}"
fi
