"""The installable wheels: `envforge-runtime` (what environments import) and `envforge-env-<domain>`.

An environment wheel carries its package folder as data and depends only on `envforge-runtime`,
which holds `envforge.ir`, `envforge.runtime`, `envforge.adapters` and the scripted user of `envforge.users` (the
trainer adapters put it in the loop), and nothing of the generator.
"""

from __future__ import annotations

import re
from importlib.metadata import requires
from pathlib import Path

from envforge.errors import PackageError
from envforge.exporters.trl import render_trl_module
from envforge.exporters.wheel import WheelSpec, build_wheel, files_under, with_content_version
from envforge.exporters.wheels_names import distribution_name, module_name
from envforge.ir.manifest import MANIFEST
from envforge.runtime.episode import EnvPackage
from envforge.version import __version__

RUNTIME_DISTRIBUTION = "envforge-runtime"
RUNTIME_PACKAGES = ("ir", "runtime", "adapters", "users")
RUNTIME_EXCLUDED = ("envforge/users/persona.py",)
"""The model-played user needs `envforge.llm`, a generator package; `envforge.users` loads it only on use."""
RUNTIME_MODULES = ("errors.py", "hashing.py", "text.py", "version.py", "py.typed")
RUNTIME_INIT = '''"""The envforge runtime: what environment packages import. The generator and its verbs are not installed."""

from envforge.version import __version__

__all__ = ["__version__"]
'''
"""The runtime wheel's `envforge/__init__.py`: the generator's own face names verbs this wheel does not hold."""
RUNTIME_REQUIRES = ("pydantic", "sqlalchemy", "jsonschema", "pyyaml", "networkx", "gymnasium")
RUNTIME_EXTRAS = {"mcp": ("mcp", "uvicorn")}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")


def _envforge_requirements() -> dict[str, str]:
    """envforge's own requirement strings by package name, so the runtime pins what envforge pins."""
    found: dict[str, str] = {}
    for requirement in requires("envforge") or []:
        if "extra ==" in requirement:
            continue
        match = _NAME.match(requirement)
        if match:
            found[match.group(0).lower().replace("_", "-")] = requirement
    return found


def _pick(names: tuple[str, ...]) -> list[str]:
    pins = _envforge_requirements()
    missing = [name for name in names if name not in pins]
    if missing:
        raise PackageError(f"envforge's metadata lacks {', '.join(missing)}; reinstall envforge (pip install -e .)")
    return [pins[name] for name in names]


def runtime_wheel() -> tuple[WheelSpec, bytes]:
    """The `envforge-runtime` wheel, built from the envforge installed here, versioned by its content."""
    root = Path(__file__).parents[1]
    files = {"envforge/__init__.py": RUNTIME_INIT.encode()}
    for name in RUNTIME_MODULES:
        files[f"envforge/{name}"] = (root / name).read_bytes()
    for package in RUNTIME_PACKAGES:
        files |= files_under(root / package, f"envforge/{package}")
    files = {name: data for name, data in files.items() if name not in RUNTIME_EXCLUDED}
    spec = WheelSpec(
        name=RUNTIME_DISTRIBUTION,
        version=__version__,
        summary="The envforge runtime: sessions, tool dispatch, verifiers, Gymnasium and trainer adapters.",
        requires=_pick(RUNTIME_REQUIRES),
        extras={extra: _pick(names) for extra, names in RUNTIME_EXTRAS.items()},
    )
    spec = with_content_version(spec, files)
    return spec, build_wheel(spec, files)


def package_files(package: EnvPackage) -> dict[str, bytes]:
    """The files of the package folder that its manifest lists, each checked against its hash, and the manifest."""
    names = [MANIFEST, *sorted(package.files.manifest.files)]
    missing = [name for name in names if not package.files.exists(name)]
    if missing:
        raise PackageError(f"{package.path}: missing {', '.join(missing[:3])}; regenerate the package")
    return {name: package.files.read(name) for name in names}


def render_init(package: EnvPackage) -> str:
    env_id = package.env_id
    module = module_name(package.env.blueprint.domain)
    title = package.env.blueprint.title
    return f'''"""envforge environment {env_id}: {title}.

    import gymnasium as gym
    env = gym.make("{module}:{env_id}", task_id="{package.task_ids[0]}")

Importing this module registers the Gymnasium id. `PACKAGE` is the environment package folder.
"""

from pathlib import Path

from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.gym_env import register_package
from envforge.runtime.opened_package import open_package

ENV_ID = {env_id!r}
DOMAIN = {package.env.blueprint.domain!r}
PACKAGE = Path(__file__).parent / "package"

register_package(PACKAGE, ENV_ID)


def load() -> EnvPackage:
    """The environment package, loaded: environment, tasks and verifiers."""
    return load_package(open_package(PACKAGE))
'''


def render_main(package: EnvPackage) -> str:
    distribution = distribution_name(package.env.blueprint.domain)
    return f'''"""Serve this environment to one MCP client over stdio: `{distribution}` or `python -m {module_name(package.env.blueprint.domain)}`."""

import sys

from envforge.runtime.environment import load_environment
from envforge.runtime.opened_package import open_package

from . import PACKAGE


def main() -> None:
    try:
        from envforge.runtime.mcp_server import serve_stdio
    except ImportError:
        print("{distribution}: the MCP server needs the mcp extra: pip install '{distribution}[mcp]'", file=sys.stderr)
        raise SystemExit(2) from None
    serve_stdio(load_environment(open_package(PACKAGE)))


if __name__ == "__main__":
    main()
'''


def env_wheel(package: EnvPackage, runtime_version: str) -> tuple[WheelSpec, bytes]:
    """The `envforge-env-<domain>` wheel: the package as data, Gymnasium registration, MCP entry point; versioned
    by its content and pinned to the runtime wheel of `runtime_version` (the one built beside it)."""
    domain = package.env.blueprint.domain
    module = module_name(domain)
    files = {f"{module}/package/{name}": data for name, data in package_files(package).items()}
    files[f"{module}/__init__.py"] = render_init(package).encode()
    files[f"{module}/__main__.py"] = render_main(package).encode()
    files[f"{module}/trl_env.py"] = render_trl_module(package).encode()
    spec = WheelSpec(
        name=distribution_name(domain),
        version=__version__,
        summary=f"envforge environment {package.env_id}: {package.env.blueprint.title}",
        requires=[f"{RUNTIME_DISTRIBUTION}=={runtime_version}"],
        extras={"mcp": [f"{RUNTIME_DISTRIBUTION}[mcp]=={runtime_version}"]},
        console_scripts={distribution_name(domain): f"{module}.__main__:main"},
    )
    spec = with_content_version(spec, files)
    return spec, build_wheel(spec, files)
