"""The notebook docs/notebooks/heuristics.ipynb runs on a real Jupyter kernel; no cell fails or shows nothing."""

from __future__ import annotations

import pytest

from conftest import ROOT

NOTEBOOK = ROOT / "docs" / "notebooks" / "heuristics.ipynb"


def test_the_notebook_is_committed_without_outputs():
    nbformat = pytest.importorskip("nbformat")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)


def test_the_notebook_runs_and_every_code_cell_shows_something(tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # a cell that raises fails here (CellExecutionError, with the cell and its traceback)
    for number, cell in enumerate(nb.cells, 1):
        if cell.cell_type != "code":
            continue
        assert cell.outputs, f"cell {number} shows nothing:\n{cell.source}"
        for out in cell.outputs:
            assert out.output_type != "error", f"cell {number}: {out.get('ename')}: {out.get('evalue')}"
            if out.output_type == "stream":
                assert out.name == "stdout", f"cell {number} wrote to {out.name}: {out.text}"
    rich = {key for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
            for key in out.get("data", {})}
    assert {"text/html", "image/svg+xml"} <= rich  # the table, the outcome's page and the pictures drew themselves
    outcome_page = [out["data"]["text/html"] for cell in nb.cells if cell.cell_type == "code"
                    for out in cell.outputs if "<iframe srcdoc=" in out.get("data", {}).get("text/html", "")]
    assert outcome_page and "solved" in outcome_page[0]
