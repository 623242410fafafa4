"""The depth limit is envforge's own: whatever nesting limit the YAML parser has, the refusal names ours and the line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from envforge.errors import BlueprintError
from envforge.ir.bounded_yaml import MAX_DEPTH, BoundedLoader, PythonBoundedLoader, compose_bounded, load_bounded
from tests.conftest import REPO

DEEP_FLOW = "x: 1\ny: 2\na: " + "[" * 50_000 + "]" * 50_000 + "\n"
"""Past libyaml's own limit of 1,000 levels (PyYAML 6.0.4), which it reaches while scanning ahead."""
DEEP_BLOCK = (
    "".join("  " * level + f"k{level}:\n" for level in range(MAX_DEPTH + 5)) + "  " * (MAX_DEPTH + 5) + "v: 1\n"
)
JUST_DEEP_ENOUGH = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"

LOADERS = {"libyaml": BoundedLoader, "pure Python": PythonBoundedLoader}


def loader_or_skip(name: str) -> type[object]:
    loader: type[object] = LOADERS[name]
    if name == "libyaml" and not yaml.__with_libyaml__:
        pytest.skip("this PyYAML was built without libyaml, so only the pure-Python loader exists here")
    return loader


@pytest.mark.parametrize("name", sorted(LOADERS))
@pytest.mark.parametrize(("text", "line"), [(DEEP_FLOW, 3), (DEEP_BLOCK, MAX_DEPTH)], ids=["flow", "block"])
def test_a_document_nested_past_the_limit_is_refused_with_the_limit_and_its_line(
    name: str, text: str, line: int
) -> None:
    loader = loader_or_skip(name)
    with pytest.raises(BlueprintError) as info:
        compose_bounded(text, "deep.yaml", loader_type=loader)
    assert f"more than {MAX_DEPTH} levels deep" in info.value.detail
    assert info.value.line == line
    with pytest.raises(BlueprintError, match=f"more than {MAX_DEPTH} levels deep"):
        load_bounded(text, "deep.yaml", loader_type=loader)


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_a_document_at_the_limit_loads_with_either_parser(name: str) -> None:
    loader = loader_or_skip(name)
    value = load_bounded(JUST_DEEP_ENOUGH, "deep.yaml", loader_type=loader)
    for _ in range(MAX_DEPTH - 1):
        value = value["a"] if isinstance(value, dict) else value[0] if value else value
    assert value == []


def test_real_syntax_errors_are_not_taken_for_depth() -> None:
    with pytest.raises(yaml.MarkedYAMLError):
        load_bounded("a: [1, 2\nb: 3\n", "broken.yaml")


CHILD = """
import json, sys, yaml
from envforge.errors import BlueprintError
from envforge.ir.bounded_yaml import PythonBoundedLoader, load_bounded
outcomes = {"version": yaml.__version__, "libyaml": bool(yaml.__with_libyaml__)}
for name, loader in (("default", None), ("pure Python", PythonBoundedLoader)):
    try:
        load_bounded(sys.argv[1], "deep.yaml", loader_type=loader)
        outcomes[name] = "loaded"
    except BlueprintError as exc:
        outcomes[name] = f"{exc.line}: {exc.detail}"
print(json.dumps(outcomes))
"""


@pytest.mark.parametrize("version", ["6.0.3", "6.0.4"])
def test_every_admitted_pyyaml_release_refuses_deep_nesting_with_our_limit(version: str, tmp_path: Path) -> None:
    """Installs the release beside the locked one (pip --target), so both are checked whichever the lock holds."""
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            "--target",
            str(target),
            f"pyyaml=={version}",
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    result = subprocess.run(
        [sys.executable, "-c", CHILD, DEEP_FLOW],
        cwd=REPO,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    outcomes = json.loads(result.stdout)
    assert outcomes["version"] == version
    assert outcomes["libyaml"] is True
    for name in ("default", "pure Python"):
        assert (
            outcomes[name]
            == f"3: the YAML nests more than {MAX_DEPTH} levels deep (aliases counted in full); flatten it"
        )
