#!/usr/bin/env bash
# The whole test suite: engine, database (SQLite, or DATABASE_URL), views and browser tests.
# Installs what it needs first: the Python dependencies in .venv, and Debian's chromium for the
# browser tests (never a downloaded browser).
set -euo pipefail
EXTRAS="[test]" source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's chromium for the browser tests ..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null
  else
    echo "The browser tests need Debian's chromium at /usr/bin/chromium: sudo apt-get install chromium" >&2
    exit 1
  fi
fi
.venv/bin/ruff check .
.venv/bin/lint-imports --no-cache
exec .venv/bin/python -m pytest "$@"
