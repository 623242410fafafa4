"""The README's five-minute tour as a new user runs it: envforge built as a wheel, installed into a fresh venv, and
every line of the tour run in order from an empty folder, with no checkout in sight."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import mcp
import pytest
from mcp.client.stdio import StdioServerParameters

from tests.conftest import PIP_INSTALL, REPO

TOUR_HEADING = "## A five-minute tour"
INSTALL_TIMEOUT_S = 900
COMMAND_TIMEOUT_S = 900


def tour_commands(readme: str) -> list[list[str]]:
    """The `envforge ...` lines of the tour's first bash block, comments dropped, as argument lists."""
    section = readme[readme.index(TOUR_HEADING) :]
    block = section[section.index("```bash\n") + len("```bash\n") :]
    block = block[: block.index("```")]
    lines = [shlex.split(line, comments=True) for line in block.splitlines()]
    return [words for words in lines if words and words[0] == "envforge"]


def test_the_tour_is_read_from_the_readme_and_names_each_output_folder_once() -> None:
    """A command of the tour that wrote into the folder an earlier one made, with other options, would replace the
    package the later commands use (the 150-task `generated/retail` of the first line)."""
    commands = tour_commands((REPO / "README.md").read_text(encoding="utf-8"))
    assert [words[1] for words in commands][:3] == ["generate", "generate", "run-task"]
    generates = [words for words in commands if words[1] == "generate"]
    outputs = [words[words.index("-o") + 1] if "-o" in words else "generated" for words in generates]
    assert len(set(outputs)) == len(outputs), outputs


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the envforge wheel built from this checkout's files (tracked and new, not ignored ones),
    its dependencies installed from the package index under the lock; returns the venv's bin folder."""
    root = tmp_path_factory.mktemp("wheel")
    source = root / "source"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_bytes((REPO / name).read_bytes())
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--disable-pip-version-check"]
    subprocess.run([*build, "-w", str(root), str(source)], check=True, timeout=INSTALL_TIMEOUT_S)
    wheel = next(root.glob("envforge-*.whl"))
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], env=clean_env(), check=True)
    pip = [str(venv / "bin" / "python"), *PIP_INSTALL]
    install = [*pip, "-c", str(REPO / "constraints.txt"), str(wheel)]
    subprocess.run(install, env=clean_env(), check=True, timeout=INSTALL_TIMEOUT_S)
    return venv / "bin"


def clean_env() -> dict[str, str]:
    """This process's environment without a PYTHONPATH, which would hand the fresh venv this checkout (and make pip
    take envforge as installed already)."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


@contextmanager
def http_server(command: list[str], cwd: Path) -> Iterator[str]:
    """The tour's `serve --transport http` on a free port (the README's port may be taken on a test machine)."""
    port = command.index("--port") + 1
    command = [*command[:port], "0", *command[port + 1 :]]
    process = subprocess.Popen(
        command, cwd=cwd, env={**clean_env(), "PYTHONUNBUFFERED": "1"}, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stderr is not None
        # The first line names the harness token the server chose; the next says where it listens.
        lines = [process.stderr.readline() for _ in range(2)]
        assert " at http://" in lines[-1], lines
        yield lines[-1].rsplit(" at ", 1)[1].strip()
    finally:
        process.kill()
        process.wait(timeout=30)


def listed_tools(target: StdioServerParameters | str) -> list[str]:
    async def run() -> list[str]:
        async with mcp.Client(target) as session:
            return [tool.name for tool in (await session.list_tools()).tools]

    return anyio.run(run)


@pytest.mark.slow
def test_the_readme_tour_runs_from_an_empty_folder_on_the_installed_wheel(installed: Path, tmp_path: Path) -> None:
    commands = tour_commands((REPO / "README.md").read_text(encoding="utf-8"))
    folder = tmp_path / "tour"
    folder.mkdir()
    outputs: dict[str, str] = {}
    for words in commands:
        command = [str(installed / "envforge"), *words[1:]]
        if words[1] == "serve" and "stdio" in words:
            tools = listed_tools(StdioServerParameters(command=command[0], args=command[1:], cwd=str(folder)))
            assert "list_customers" in tools, tools
            continue
        if words[1] == "serve":
            with http_server(command, folder) as url:
                assert "list_customers" in listed_tools(url)
            continue
        run = subprocess.run(
            command, cwd=folder, env=clean_env(), capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S, check=False
        )
        assert run.returncode == 0, f"{shlex.join(words)}:\n{run.stderr[-3000:]}"
        outputs[shlex.join(words)] = run.stdout

    def tasks(package: str) -> int:
        return len((folder / package / "tasks.jsonl").read_text(encoding="utf-8").splitlines())

    assert tasks("generated/retail") == 150
    assert tasks("small/retail") == 40
    assert tasks("big/retail") == 150
    oracle_runs = [text for line, text in outputs.items() if line.startswith("envforge run-task")]
    assert len(oracle_runs) == 2 and all("verdict: reward 1 (passed)" in text for text in oracle_runs)
    suite = json.loads((folder / "generated" / "suite.json").read_text(encoding="utf-8"))
    assert sorted(row["env_id"] for row in suite["blueprints"] if row["ok"]) == [
        "envforge/airline-v0",
        "envforge/retail-v0",
    ]
    assert "properties" in json.loads(outputs["envforge schema"])
