"""The lock agrees with pyproject.toml, the tests run on what it locks, and what shapes a package's bytes is pinned."""

from __future__ import annotations

import tomllib
from importlib import metadata

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import REPO

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
LOCKED_EXTRAS = PYPROJECT["tool"]["pip-tools"]["extra"]
BYTES_DEPEND_ON = ("faker", "hypothesis", "matplotlib")
"""Fake values, the tool tests' drawn examples and the tool graph's SVG change with these releases. The others were
checked by generating the showcase with the lowest release each range admits (PyYAML, networkx, SQLAlchemy,
pydantic, Jinja2, jsonschema): the same bytes."""


def locked() -> dict[str, str]:
    versions: dict[str, str] = {}
    for line in (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith((" ", "#")):
            name, _, version = line.partition("==")
            versions[canonicalize_name(name)] = version.strip()
    return versions


def requirements() -> list[Requirement]:
    listed = list(PYPROJECT["project"]["dependencies"])
    for extra in LOCKED_EXTRAS:
        listed += PYPROJECT["project"]["optional-dependencies"][extra]
    return [Requirement(text) for text in listed]


def test_every_locked_extra_exists_and_the_test_command_installs_them() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert set(LOCKED_EXTRAS) <= set(PYPROJECT["project"]["optional-dependencies"])
    assert f'pip install -q -c constraints.txt -e ".[{",".join(LOCKED_EXTRAS)}]"' in readme


def test_the_lock_holds_every_dependency_at_a_version_pyproject_admits() -> None:
    versions = locked()
    outside = {
        str(requirement): versions.get(canonicalize_name(requirement.name), "missing")
        for requirement in requirements()
        if versions.get(canonicalize_name(requirement.name)) is None
        or not requirement.specifier.contains(versions[canonicalize_name(requirement.name)], prereleases=True)
    }
    assert outside == {}, "run the README's lock update (pip-compile --upgrade) after changing pyproject.toml"


@pytest.mark.parametrize("name", BYTES_DEPEND_ON)
def test_what_shapes_a_packages_bytes_is_pinned_for_library_users_too(name: str) -> None:
    pins: dict[str, Requirement] = {canonicalize_name(r.name): r for r in requirements()}
    specifiers = list(pins[name].specifier)
    assert [spec.operator for spec in specifiers] == ["=="], f"{name} must be pinned exactly in pyproject.toml"


def test_the_environment_running_the_tests_is_the_locked_one() -> None:
    versions = locked()
    installed: dict[str, str] = {
        canonicalize_name(dist.metadata["Name"]): dist.version for dist in metadata.distributions()
    }
    drifted = {
        name: (version, installed.get(name, "not installed"))
        for name, version in versions.items()
        if installed.get(name) != version
    }
    assert drifted == {}, "install with `pip install -c constraints.txt ...` as the README's test command does"
