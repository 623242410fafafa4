"""Any blueprint input is loaded or refused within a second and 200 MB, with one line naming the file and the limit."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from envforge.errors import BlueprintError
from envforge.ir.bounded_yaml import MAX_BYTES, MAX_DEPTH, MAX_NODES, MAX_TEXT
from envforge.ir.loading import load_blueprint, load_blueprint_text
from tests.blueprint_edits import RETAIL_TEXT
from tests.conftest import REPO, envforge_cli

SECOND = 1.0
MEGABYTES = 200
ADDRESS_SPACE = 2 * 1024**3
"""The child measuring a load may not grow past this, so a regression fails the test instead of the machine."""


def alias_bomb(levels: int = 9) -> str:
    """Nine levels of nine aliases each: under 1 KB on disk, 9**9 nodes when expanded."""
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 9)}]" for level in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


HOSTILE = {
    "alias bomb": (alias_bomb(), f"more than {MAX_NODES:,} keys and items"),
    "deep nesting": ("a: " + "[" * 50_000 + "]" * 50_000 + "\n", f"more than {MAX_DEPTH} levels deep"),
    "huge scalar": ('domain: "' + "x" * 10_000_000 + '"\n', f"over the limit of {MAX_BYTES:,}"),
    "huge number of keys": (
        "".join(f"k{index}: {index}\n" for index in range(300_000)),
        f"over the limit of {MAX_BYTES:,}",
    ),
    "keys under the byte limit": ("".join(f"k{index}: 1\n" for index in range(25_000)), f"more than {MAX_NODES:,}"),
    "long text repeated by aliases": (
        'text: &t "' + "y" * 200_000 + '"\nmany: [' + ", ".join(["*t"] * 100) + "]\n",
        f"more than {MAX_TEXT:,} characters",
    ),
    "recursive alias": ("a: &a [*a]\n", "refers to a node that contains it"),
}

MEASURE = """
import json, resource, sys, time
from pathlib import Path
from envforge.errors import BlueprintError
from envforge.ir.loading import load_blueprint
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
try:
    load_blueprint(Path(sys.argv[1]))
    outcome = "loaded"
except BlueprintError as exc:
    outcome = str(exc)
seconds = time.perf_counter() - start
grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
print(json.dumps({"seconds": seconds, "megabytes": grown, "outcome": outcome}))
"""


def measured_load(path: Path) -> dict[str, object]:
    """Load `path` in a fresh interpreter held to ADDRESS_SPACE; its time, memory growth and outcome."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    result = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=cap,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    measured: dict[str, object] = json.loads(result.stdout)
    return measured


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_yaml_is_refused_within_a_second_and_200_mb_naming_the_file_and_the_limit(
    case: str, tmp_path: Path
) -> None:
    text, limit = HOSTILE[case]
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    measured = measured_load(path)
    outcome = str(measured["outcome"])
    assert outcome.startswith(f"{path}"), outcome
    assert limit in outcome
    assert "\n" not in outcome and len(outcome) < 400
    assert float(str(measured["seconds"])) < SECOND
    assert float(str(measured["megabytes"])) < MEGABYTES


def test_the_largest_shipped_blueprint_loads_well_inside_the_limits(tmp_path: Path) -> None:
    path = tmp_path / "retail.yaml"
    path.write_text(RETAIL_TEXT, encoding="utf-8")
    measured = measured_load(path)
    assert measured["outcome"] == "loaded"
    assert float(str(measured["seconds"])) < SECOND


def test_generate_refuses_an_alias_bomb_with_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb(), encoding="utf-8")
    result = envforge_cli("generate", str(path), "-o", str(tmp_path / "out"), timeout=30)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"envforge: error: {path}:")
    assert f"more than {MAX_NODES:,} keys and items" in result.stderr
    assert not (tmp_path / "out").exists()


def test_blueprint_text_from_a_description_is_held_to_the_same_limits() -> None:
    # `generate --from-description` validates the LLM's blueprint through load_blueprint_text.
    with pytest.raises(BlueprintError) as info:
        load_blueprint_text(alias_bomb(), "drafts/blueprint.yaml")
    assert str(info.value).startswith("drafts/blueprint.yaml:")
    assert f"more than {MAX_NODES:,} keys and items" in info.value.detail


def test_a_refused_value_is_quoted_short_so_the_line_stays_readable(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    path.write_text(RETAIL_TEXT.replace("domain: retail", "domain: " + "X" * 200_000, 1), encoding="utf-8")
    with pytest.raises(BlueprintError) as info:
        load_blueprint(path)
    assert len(str(info.value)) < 400
    assert "lower_snake_case" in str(info.value)
