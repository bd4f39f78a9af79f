#!/usr/bin/env bash
# Install what the app needs on a fresh machine (Python 3.11), then start it.
# Extra arguments go to `streamlit run` (for example --server.port 8600).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x /usr/bin/chromium ] && command -v apt-get > /dev/null; then
    # Figure export (svmlab.export) renders with Debian's Chromium through kaleido (never a
    # browser download of its own). Root or sudo; without them the app runs, export does not.
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    if [ -z "$SUDO" ] || command -v sudo > /dev/null; then
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium > /dev/null
    fi
fi
python3 -m pip install -q --disable-pip-version-check -r requirements.txt
# One BLAS thread: every session already runs in a thread of its own, and BLAS's helper
# threads would spin on the cores those sessions (and the server's event loop) need.
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" OPENBLAS_NUM_THREADS="${OPENBLAS_NUM_THREADS:-1}"
export MKL_NUM_THREADS="${MKL_NUM_THREADS:-1}"
exec python3 -m streamlit run app.py "$@"
