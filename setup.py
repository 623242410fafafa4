"""The packages list, which pyproject.toml cannot give: every `envforge*` package found, plus two top-level folders
that users read, travelling in the wheel as package data so an installed envforge needs no source tree:
`envforge.blueprints` (`blueprints/`, so it finds `retail`) and `envforge.conformance` (`validators/`, the pytest
face of `envforge check`, found by `envforge check --pytest-path`)."""

from setuptools import find_namespace_packages, setup

setup(
    packages=[
        *find_namespace_packages(include=["envforge*"]),
        "envforge.blueprints",
        "envforge.blueprints.fused",
        "envforge.conformance",
    ],
    package_dir={"envforge.blueprints": "blueprints", "envforge.conformance": "validators"},
)
