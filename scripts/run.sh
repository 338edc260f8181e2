#!/usr/bin/env bash
# Quick start: install, create the SQLite database with a demo league, and serve http://127.0.0.1:8000
# with a background worker beside the server (ratings rebuilds, imports: docs/tasks.md), stopped with it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
.venv/bin/python manage.py migrate --noinput
if .venv/bin/python manage.py help seed_demo >/dev/null 2>&1; then
  .venv/bin/python manage.py seed_demo
fi
.venv/bin/python manage.py worker --verbosity 0 &
WORKER=$!
trap 'kill "$WORKER" 2>/dev/null || true; wait "$WORKER" 2>/dev/null || true' EXIT INT TERM
.venv/bin/python manage.py runserver "${ADDRESS:-127.0.0.1:8000}"
