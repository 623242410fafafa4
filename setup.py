"""The packages list, which pyproject.toml cannot give: every `envforge*` package found, plus `envforge.blueprints`,
the top-level `blueprints/` folder that users read, travelling in the wheel as package data so an installed
envforge finds `retail` without the source tree."""

from setuptools import find_namespace_packages, setup

setup(
    packages=[*find_namespace_packages(include=["envforge*"]), "envforge.blueprints", "envforge.blueprints.fused"],
    package_dir={"envforge.blueprints": "blueprints"},
)
