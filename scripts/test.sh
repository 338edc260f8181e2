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
# GNU gettext: tests/test_i18n.py runs makemessages (xgettext) to check that the .po files hold every
# marked string. The .mo files are committed, so running Tenbou never needs it.
if ! command -v xgettext >/dev/null || ! command -v msgfmt >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing GNU gettext for the translation tests ..."
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext) >/dev/null
  else
    echo "The translation tests need GNU gettext (xgettext, msgfmt): sudo apt-get install gettext" >&2
    exit 1
  fi
fi
# axe-core for the accessibility tests (tests/e2e/test_accessibility.py), at the version
# tests/e2e/node/package-lock.json pins; installed again only when the lock file changes.
AXE_LOCK=tests/e2e/node/package-lock.json
AXE_INSTALLED=tests/e2e/node/node_modules/.package-lock.json
if [ ! -f tests/e2e/node/node_modules/axe-core/axe.min.js ] || [ "$AXE_LOCK" -nt "$AXE_INSTALLED" ]; then
  if ! command -v npm >/dev/null; then
    echo "The accessibility tests need Node.js and npm (for axe-core): sudo apt-get install nodejs npm" >&2
    exit 1
  fi
  echo "Installing axe-core for the accessibility tests ..."
  npm ci --prefix tests/e2e/node --no-audit --no-fund --loglevel=error >/dev/null
fi
.venv/bin/ruff check .
.venv/bin/lint-imports --no-cache
exec .venv/bin/python -m pytest "$@"
