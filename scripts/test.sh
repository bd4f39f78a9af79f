#!/usr/bin/env bash
# Install everything the tests need on a fresh machine (Python 3.11, root), then run every test
# (the docs' build and the notebooks included).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ]; then
    # Debian's Chromium drives the browser tests (never `playwright install`: it downloads).
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium > /dev/null
fi
python3 -m pip install -q --disable-pip-version-check -r requirements-test.txt -r requirements-docs.txt
python3 -m ruff check .
python3 -m ruff format --check .
python3 -m pytest "$@"
