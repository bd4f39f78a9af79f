#!/usr/bin/env bash
# Build the documentation into docs/_build/html (offline, warnings as errors); extra
# arguments go to sphinx-build. The gallery's figures are drawn by the export's Chromium
# (Debian's, which scripts/app.sh and scripts/test.sh install).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q --disable-pip-version-check -r requirements-docs.txt
python3 -m sphinx -W --keep-going -b html docs docs/_build/html "$@"
echo "The docs: docs/_build/html/index.html"
