"""The notebooks in examples/ run from top to bottom (nbclient, a fresh kernel each), in a
temporary folder, with this checkout on the kernel's path, and write what they say.

They are committed without outputs (a test checks it), so a diff shows code only.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Tolerance table: none — the notebooks' own asserts and the files they write are checked.

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "examples").glob("*.ipynb"))
#: What each notebook writes into its working folder.
WRITES = {
    "svmcore_tour.ipynb": ["plane.svg", "alpha.png"],
    "lecture_from_links.ipynb": [
        f"lecture_figures/{name}.{ext}"
        for name in ("fig1_linear", "fig2_kernel", "fig3_dual")
        for ext in ("png", "py")
    ],
}


def test_there_are_notebooks_and_they_are_committed_clean():
    import nbformat

    assert {nb.name for nb in NOTEBOOKS} == set(WRITES)
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert not cell.outputs and cell.execution_count is None, path.name


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_notebook_runs(path, tmp_path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    )
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(name, "1")
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError on the first failing cell
    for name in WRITES[path.name]:
        assert (tmp_path / name).is_file() and (tmp_path / name).stat().st_size > 0, name
    if path.name == "lecture_from_links.ipynb":  # the scripts it wrote compile
        for script in (tmp_path / "lecture_figures").glob("*.py"):
            compile(script.read_text(), script.name, "exec")
