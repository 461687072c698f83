#!/usr/bin/env bash
# Makes sure Debian's chromium is at /usr/bin/chromium for the browser tests (the /docs page and the
# packaged browser page; playwright-core downloads no browser of its own). Run by `npm test` as its
# `pretest` step. Idempotent: does nothing when chromium is already there.
#
# Where it cannot be installed (not root, no apt-get): in CI (CI=true) that is a failure, since the
# browser tests must run there; elsewhere it says how to install it and lets `npm test` go on, and the
# browser tests skip, each file saying why.
set -euo pipefail

CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}
if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  # What it costs, said before it starts (README says so next to `npm test`): the package's own size.
  size=$(apt-cache show chromium 2>/dev/null | awk '/^Installed-Size:/ { printf "%d MiB", $2 / 1024; exit }')
  echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium package system-wide" \
    "(apt-get; ${size:-its size unknown until apt-get update} installed, plus its dependencies)…" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  if [ -x "$CHROMIUM" ]; then
    echo "ensure-chromium: installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)" >&2
    exit 0
  fi
  echo "ensure-chromium: apt-get install chromium finished but $CHROMIUM is still missing" >&2
  exit 1
fi

cat >&2 <<MSG
ensure-chromium: $CHROMIUM is missing, and it cannot be installed from here (this needs root and apt-get).
The browser tests (test/docs/docs-page.e2e.test.ts, test/package) run Debian's chromium package. Install it with:
  sudo apt-get update && sudo apt-get install -y chromium
MSG
if [ "${CI:-}" = "true" ]; then
  echo "ensure-chromium: CI=true, so the browser tests must run: failing." >&2
  exit 1
fi
echo "ensure-chromium: going on without it; the browser tests will skip and say so." >&2
exit 0
