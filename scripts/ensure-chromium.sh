#!/usr/bin/env bash
# Makes sure Debian's chromium is at /usr/bin/chromium for the browser test of the /docs page
# (test/docs/docs-page.test.ts, driven by playwright-core, which downloads no browser of its own).
# Run by `npm test` as its `pretest` step. Idempotent: does nothing when chromium is already there.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
  exit 0
fi

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing; installing Debian's chromium package (apt-get)…" >&2
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
The /docs browser test (test/docs/docs-page.test.ts) runs Debian's chromium package. Install it with:
  sudo apt-get update && sudo apt-get install -y chromium
MSG
exit 1
