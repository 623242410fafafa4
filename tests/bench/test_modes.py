"""`envforge bench --base-url`: the concurrency levels are checked before anything is measured."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.bench.modes import bench_served_model
from envforge.errors import UserInputError


@pytest.mark.parametrize("levels", ["", "1,x", "8,0", " , "])
def test_concurrency_that_is_not_a_list_of_positive_integers_is_a_one_line_error(levels: str, tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match=f"--concurrency: '{levels}' is not a comma-separated list"):
        bench_served_model(tmp_path, "http://127.0.0.1:9/v1", "model", concurrency=levels, episodes=1)
