"""``svmlab`` (or ``python -m svmlab``): SVM Lab's command line.

``svmlab serve [STREAMLIT OPTIONS]`` starts the app from wherever svmlab is installed
(``streamlit run`` on its ``app.py``, with the options given, e.g. ``--server.port 8600``).

``svmlab render URL -o FILE [--style slides|paper|print|screen] [--snapshot K]`` renders a
share link headlessly to FILE (.png .svg .pdf .html .gif .mp4; see
:mod:`svmlab.ui.render_link`). A bad link exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
from pathlib import Path

__all__ = ["main", "parser", "served_script"]

#: One BLAS thread (as ``scripts/app.sh``): every session already runs in a thread of its
#: own, and BLAS's helper threads would spin on the cores those sessions need.
BLAS_THREADS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``svmlab``."""
    import svmcore

    p = argparse.ArgumentParser(
        prog="svmlab",
        description="SVM Lab's command line: start the app, or render a share link to a file.",
    )
    p.add_argument("--version", action="version", version=f"svmlab {svmcore.__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="{serve,render}")
    sub.add_parser(
        "serve",
        help="start the app (Streamlit's options follow, e.g. --server.port 8600)",
        description="Start SVM Lab: `streamlit run` on the app installed with svmlab. Every "
        "other option is Streamlit's (see `streamlit run --help`), e.g. "
        "`svmlab serve --server.port 8600 --server.address 0.0.0.0`.",
    )
    r = sub.add_parser(
        "render",
        help="render a share link to a figure or animation file",
        description="Render a share link (the whole URL or its page path and query) "
        "headlessly to FILE; the format follows the extension: .png .svg .pdf (the plane "
        "at the snapshot), .html .gif .mp4 (the run's animation).",
    )
    r.add_argument("url", help="the share link, e.g. 'http://localhost:8501/kernel_pegasos?…'")
    r.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="the file to write (replaced if it exists; a symbolic link is followed, so the "
        "file it points to is written: as any command you run, it writes where you can)",
    )
    r.add_argument(
        "--style",
        default="screen",
        choices=("screen", "slides", "paper", "print"),
        help="style preset (default: screen)",
    )
    r.add_argument("--snapshot", type=int, metavar="K", help="snapshot k (negative: from the end)")
    r.add_argument("--width", choices=("single", "double"), help="paper width: 3.5 in or 7 in")
    r.add_argument("--no-shading", action="store_true", help="hide the shaded decision values")
    r.add_argument("--no-legend", action="store_true", help="hide the legend")
    r.add_argument("--no-ticks", action="store_true", help="hide the axes' ticks and labels")
    return p


def _quiet_streamlit() -> None:
    """Streamlit's bare-mode warnings would bury the one line a bad link prints.

    Its config, once parsed (when the page's test runner is imported), sets the log level
    again from ``logger.level``, and an "Uncaught app execution" traceback is logged at
    ERROR: the option is set as well. A failing page's own message is given in full
    (``client.showErrorDetails``): the one line is all the user sees.
    """
    import streamlit.logger
    from streamlit import config

    config.set_option("logger.level", "critical")
    config.set_option("client.showErrorDetails", "full")
    streamlit.logger.set_log_level(logging.CRITICAL)


def served_script(app_dir: Path | None = None) -> Path:
    """The ``app.py`` that ``svmlab serve`` runs, with plotly.js in its ``static/`` folder.

    Streamlit serves ``static/`` from beside the main script and reads the
    ``.streamlit/config.toml`` beside it, so the app runs from where svmlab keeps its files
    (:data:`svmlab.ui.static_assets.APP_DIR`). Where that folder is read-only (a system-wide
    install), a copy of ``app.py`` and its settings in the user's cache folder is run
    instead; the router finds the pages through svmlab, wherever the script is.
    """
    from svmlab.ui import static_assets

    app_dir = static_assets.APP_DIR if app_dir is None else Path(app_dir)
    try:
        static_assets.ensure_plotly_js(app_dir / "static")
        return app_dir / "app.py"
    except OSError:
        pass
    import svmcore

    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    mirror = cache / "svmlab" / f"app-{svmcore.__version__}"
    (mirror / ".streamlit").mkdir(parents=True, exist_ok=True)
    for name in ("app.py", ".streamlit/config.toml"):
        shutil.copyfile(app_dir / name, mirror / name)
    static_assets.ensure_plotly_js(mirror / "static")
    return mirror / "app.py"


def serve(options: list[str]) -> int:
    """``streamlit run <app.py> OPTIONS`` in this process; Streamlit's exit status."""
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")  # before NumPy loads its BLAS
    script = served_script()
    from streamlit.web import cli

    try:
        cli.main.main(args=["run", str(script), *options], prog_name="svmlab serve")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return 0


def main(argv=None) -> int:
    """Run the command line; the exit status (0 done, 2 a bad link or option)."""
    p = parser()
    args, rest = p.parse_known_args(argv)
    if args.command == "serve":
        return serve(rest)
    if rest:
        p.error(f"unrecognized arguments: {' '.join(rest)}")
    _quiet_streamlit()
    from svmlab.ui.render_link import render_link

    try:
        path = render_link(
            args.url,
            args.output,
            style=args.style,
            snapshot=args.snapshot,
            shading=not args.no_shading,
            legend=not args.no_legend,
            ticks=not args.no_ticks,
            width=args.width,
        )
    except Exception as exc:  # one line, never a traceback: the link or the renderer
        text = " ".join(str(exc).split()) or type(exc).__name__
        print(f"svmlab render: error: {text}", file=sys.stderr)
        return 2
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
