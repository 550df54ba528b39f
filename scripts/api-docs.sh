#!/usr/bin/env bash
# Build the API reference (docs/api: Sphinx autodoc of the engine's public API and the web's
# error type) into OUT (default docs/api/_build), failing on any warning.
#
#   scripts/api-docs.sh [OUT]
#
# Uses sphinx-build from $SPHINX_BUILD, else the one on PATH (pip install -e '.[dev]' has it).
set -euo pipefail
cd "$(dirname "$0")/.."
SPHINX_BUILD=${SPHINX_BUILD:-sphinx-build}
"$SPHINX_BUILD" -W --keep-going -q -b html docs/api "${1:-docs/api/_build}"
