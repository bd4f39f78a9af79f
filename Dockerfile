# SVM Lab: one Streamlit server per container (see docs/deploy.md, "Deploying for a class").
#   docker build -t svmlab .            docker run --rm -p 8501:8501 svmlab
# Several replicas behind nginx with sticky websocket sessions: deploy/compose.yaml.
FROM python:3.11-slim

# One BLAS thread per server: the sessions share the process; replicas share the cores.
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    OMP_NUM_THREADS=1 \
    OPENBLAS_NUM_THREADS=1 \
    MKL_NUM_THREADS=1

# Debian's Chromium for the figure export (the export panel's PNG/SVG/PDF/GIF/MP4 and
# `python -m svmlab render`): Kaleido drives it headless; DejaVu draws the figures' text
# (x₁, α, γ). About 0.8 GB of the image (see docs/deploy.md); the app runs without it.
RUN apt-get update \
    && apt-get install -y --no-install-recommends chromium fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*
ENV SVMLAB_CHROMIUM=/usr/bin/chromium

RUN useradd --create-home --uid 10001 --shell /usr/sbin/nologin svmlab
WORKDIR /app

COPY requirements.txt ./
RUN python -m pip install -r requirements.txt

COPY app.py ./
COPY .streamlit/ ./.streamlit/
COPY assets/ ./assets/
COPY pages/ ./pages/
COPY svmcore/ ./svmcore/
COPY svmlab/ ./svmlab/
# plotly.js for the data canvas, copied from the installed plotly package at build time (the
# app would copy it at start; this way the image works with a read-only file system).
RUN python -c "from svmlab.ui.static_assets import ensure_plotly_js; ensure_plotly_js('static')"

USER svmlab
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; r = urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4); sys.exit(0 if r.read().strip() == b'ok' else 1)"]

# The public-deployment settings (.streamlit/config.toml holds the app's own settings:
# static serving, theme, toolbar). Uploads are point files (CSV / LIBSVM) of a few KB.
CMD ["python", "-m", "streamlit", "run", "app.py", \
     "--server.port=8501", \
     "--server.address=0.0.0.0", \
     "--server.headless=true", \
     "--server.runOnSave=false", \
     "--server.fileWatcherType=none", \
     "--server.maxUploadSize=2", \
     "--server.maxMessageSize=50", \
     "--server.enableXsrfProtection=true", \
     "--server.enableCORS=true", \
     "--server.enableWebsocketCompression=false", \
     "--browser.gatherUsageStats=false", \
     "--client.showErrorDetails=type", \
     "--client.toolbarMode=minimal", \
     "--global.developmentMode=false"]
