#!/usr/bin/env bash
# Extract -> update -> compile the web table's gettext domain "web" (docs/i18n.md, "Web").
# The terminal table's "messages" domain is scripts/i18n.sh's; the two never share a msgid:
# web code marks its strings with W_/t/nt/pt (Python), t/nt/pt (JavaScript) and data-i18n
# (HTML), and reads the messages domain's card and level names with tm() (not extracted here).
#
#   scripts/i18n-web.sh            extract web.pot, update every web.po, compile every web.mo
#   scripts/i18n-web.sh extract    extract web.pot only
#   scripts/i18n-web.sh init LANG  start web.po of a new language
#   scripts/i18n-web.sh compile    compile only (after editing a .po)
#
# Uses pybabel from $PYBABEL, else the venv's, else the one on PATH.  The html extractor is
# ginrummy.web.texts:extract_html, so the package must be importable by that pybabel.
set -euo pipefail
cd "$(dirname "$0")/.."
PYBABEL=${PYBABEL:-$( [ -x /tmp/venv/bin/pybabel ] && echo /tmp/venv/bin/pybabel || echo pybabel )}
LOCALE=src/ginrummy/locale
POT=$LOCALE/web.pot
KEYWORDS=(-k W_ -k t -k tEl -k nt:1,2 -k pt:1c,2)

extract() {
    "$PYBABEL" extract -F scripts/i18n-web.cfg --no-default-keywords "${KEYWORDS[@]}" \
        --project=ginrummy --copyright-holder="ginrummy contributors" \
        --msgid-bugs-address="" --sort-by-file --add-location=file --no-wrap -o "$POT" .
}

compile() {
    "$PYBABEL" compile -d "$LOCALE" -D web --statistics
}

case "${1:-all}" in
    all)
        extract
        "$PYBABEL" update -i "$POT" -d "$LOCALE" -D web --no-wrap --no-fuzzy-matching --ignore-obsolete
        compile
        ;;
    extract)
        extract
        ;;
    init)
        extract
        "$PYBABEL" init -i "$POT" -d "$LOCALE" -D web -l "$2" --no-wrap
        ;;
    compile)
        compile
        ;;
    *)
        echo "usage: scripts/i18n-web.sh [all|extract|init LANG|compile]" >&2
        exit 2
        ;;
esac
