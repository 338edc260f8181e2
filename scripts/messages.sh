#!/usr/bin/env bash
# The translation catalogues: locale/<language>/LC_MESSAGES/django.po, and the compiled django.mo beside
# each (committed, so that installing or running Tenbou never needs GNU gettext).
#
#   bash scripts/messages.sh           # makemessages: every marked string of the code and templates into
#                                      # the .po files — new ones empty, changed ones fuzzy, gone ones dropped
#   (translate: fill every empty msgstr, check and unflag every "#, fuzzy" entry)
#   bash scripts/messages.sh compile   # compilemessages: the .mo files from the .po files
#
# tests/test_i18n.py runs the first step on a copy of the tree and fails while it finds a string the .po
# files lack, while an entry is untranslated or fuzzy, or while a .mo file differs from its .po file.
# Needs GNU gettext (xgettext, msgmerge, msgfmt): apt-get install gettext.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
LANGUAGES=(fr pl)
# Not the project's own user-facing strings: tests, benchmarks, docs, collected static files, tools.
IGNORE=(-i .venv -i tests -i bench -i docs -i staticfiles -i node_modules -i build -i "*.egg-info")

locales=()
for language in "${LANGUAGES[@]}"; do locales+=(-l "$language"); done

case "${1:-make}" in
  make)
    # File names without line numbers: a .po file changes when a string does, not when code moves.
    "$PYTHON" manage.py makemessages "${locales[@]}" "${IGNORE[@]}" --add-location file --no-obsolete -v 0
    ;;
  compile)
    "$PYTHON" manage.py compilemessages "${locales[@]}" "${IGNORE[@]}" -v 0
    ;;
  *)
    echo "usage: scripts/messages.sh [make|compile]" >&2
    exit 2
    ;;
esac
