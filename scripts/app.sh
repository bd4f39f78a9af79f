#!/usr/bin/env bash
# Install what the app needs on a fresh machine (Python 3.11), then start it.
# Extra arguments go to `streamlit run` (for example --server.port 8600).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q --disable-pip-version-check -r requirements.txt
exec python3 -m streamlit run app.py "$@"
