#!/usr/bin/env bash
# The browser rules need Debian's Chromium at /usr/bin/chromium (playwright-core never downloads a browser).
# Installs it when missing and this user may (root or sudo); otherwise says exactly what to run.
# Run before `npm test`, and by `conformance run` when it selects a browser rule on a machine without Chromium.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo"; else
  echo "The browser rules need Chromium at /usr/bin/chromium: run 'sudo apt-get install -y chromium', then the command again." >&2
  exit 1
fi
echo "installing Debian's chromium for the browser rules (once)…" >&2
$SUDO apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
