#!/usr/bin/env bash
# Quick start: install, create the SQLite database with a demo league, and serve http://127.0.0.1:8000
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
.venv/bin/python manage.py migrate --noinput
if .venv/bin/python manage.py help seed_demo >/dev/null 2>&1; then
  .venv/bin/python manage.py seed_demo
fi
exec .venv/bin/python manage.py runserver "${ADDRESS:-127.0.0.1:8000}"
