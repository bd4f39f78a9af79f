"""``python -m svmlab``: SVM Lab's command line (one subcommand, ``render``).

``python -m svmlab render URL -o FILE [--style slides|paper|print|screen] [--snapshot K]``
renders a share link headlessly to FILE (.png .svg .pdf .html .gif .mp4; see
:mod:`svmlab.render_link`). A bad link exits with status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import logging
import sys

__all__ = ["main", "parser"]


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m svmlab``."""
    p = argparse.ArgumentParser(prog="python -m svmlab", description="SVM Lab's command line.")
    sub = p.add_subparsers(dest="command", required=True)
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


def main(argv=None) -> int:
    """Run the command line; the exit status (0 written, 2 a bad link or option)."""
    args = parser().parse_args(argv)
    _quiet_streamlit()
    from svmlab.render_link import render_link

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
