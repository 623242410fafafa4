"""Every committed notebook runs top to bottom on a fresh kernel."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests.conftest import REPO

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_the_notebook_executes_without_errors(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    NotebookClient(
        notebook, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute()
    outputs = [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.get("output_type") == "error"]
    texts = [output.get("text", "") for output in outputs]
    if path.stem == "quickstart":
        assert any("policy_violation" in text for text in texts)
        assert any("reward=1.0 passed=True" in text for text in texts)
        assert any("gym reward=1.0 terminated=True" in text for text in texts)
    if path.stem == "rollouts":
        assert any("8 episodes; 15 responses from the cache" in text for text in texts)
        assert any("{'format': 1, 'model': 7}" in text for text in texts)
        assert any("0 verdicts changed" in text for text in texts)
