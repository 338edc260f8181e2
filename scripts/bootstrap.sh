# Sourced by run.sh and test.sh: a virtual environment in .venv with Tenbou and its dependencies.
# Needs only Python 3.11+ on the machine; safe to run again (pip skips what is already there).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "Creating the virtual environment in .venv ..."
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${EXTRAS:-}"
