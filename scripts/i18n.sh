#!/usr/bin/env bash
# Extract -> update -> compile the gettext catalogs of ginrummy (see docs/i18n.md).
#
#   scripts/i18n.sh            extract messages.pot, update every .po, compile every .mo
#   scripts/i18n.sh init LANG  start a new language (then add it to i18n.LANGUAGES)
#   scripts/i18n.sh compile    compile only (after editing a .po)
#
# Uses pybabel from $PYBABEL, else the venv's, else the one on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL=${PYBABEL:-$( [ -x /tmp/venv/bin/pybabel ] && echo /tmp/venv/bin/pybabel || echo pybabel )}
LOCALE=src/ginrummy/locale
POT=$LOCALE/messages.pot
# _/n_/p_: Translator methods; N_: engine messages (ginrummy.errors.N_); gettext & co.: plain gettext
KEYWORDS=(-k _ -k n_:1,2 -k p_:1c,2 -k N_ -k gettext -k ngettext:1,2 -k pgettext:1c,2)

extract() {
    "$PYBABEL" extract -F babel.cfg --no-default-keywords "${KEYWORDS[@]}" \
        --project=ginrummy --copyright-holder="ginrummy contributors" \
        --msgid-bugs-address="" --sort-by-file --add-location=file --width=100 -o "$POT" src/ginrummy
}

compile() {
    "$PYBABEL" compile -d "$LOCALE" -D messages --statistics
}

case "${1:-all}" in
    all)
        extract
        "$PYBABEL" update -i "$POT" -d "$LOCALE" -D messages --width=100 --no-fuzzy-matching --ignore-obsolete
        compile
        ;;
    init)
        extract
        "$PYBABEL" init -i "$POT" -d "$LOCALE" -D messages -l "$2" --width=100
        ;;
    compile)
        compile
        ;;
    *)
        echo "usage: scripts/i18n.sh [all|init LANG|compile]" >&2
        exit 2
        ;;
esac
