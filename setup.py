"""The wheel's build step that pyproject.toml cannot say: the app's files into svmlab/_app/.

The checkout keeps the design card's layout (``app.py``, ``pages/``, ``assets/`` and
``.streamlit/config.toml`` beside the packages). An installed svmlab finds them in
``svmlab/_app/`` instead (``svmlab.ui.static_assets.APP_DIR``), so ``build_py`` copies them
there; an editable install reads them from the checkout and needs no copy. Everything else
(name, dependencies, packages, the ``svmlab`` command) is in ``pyproject.toml``.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: The app's files, relative to the checkout's root (and to svmlab/_app/ in the wheel).
APP_FILES = ("app.py", ".streamlit/config.toml")
#: Folder -> the files taken from it: the page scripts (not the static/ copy of plotly.js
#: that a headless page run leaves beside them), and every asset.
APP_DIRS = {"pages": "*.py", "assets": "**/*"}


def app_files() -> list[str]:
    """Every file the installed app needs beside the packages, relative to the root."""
    files = list(APP_FILES)
    for folder, pattern in APP_DIRS.items():
        for path in sorted((ROOT / folder).glob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files.append(path.relative_to(ROOT).as_posix())
    return files


class BuildPyWithApp(build_py):
    """``build_py``, then the app's files copied into ``<build>/svmlab/_app/``."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install runs from the checkout, files and all
        target = Path(self.build_lib) / "svmlab" / "_app"
        for name in app_files():
            dest = target / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, dest)


setup(cmdclass={"build_py": BuildPyWithApp})
