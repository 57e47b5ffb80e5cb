#!/usr/bin/env bash
# Before the tests: the browser rules need Debian's Chromium at /usr/bin/chromium (playwright-core never downloads a
# browser). Installs it when missing and this user may (root or sudo); otherwise says exactly what to run.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo"; else
  echo "The browser tests need Chromium at /usr/bin/chromium: run 'sudo apt-get install -y chromium', then npm test again." >&2
  exit 1
fi
echo "installing Debian's chromium for the browser tests (once)…" >&2
$SUDO apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
