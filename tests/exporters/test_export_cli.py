"""`envforge export` from the command line: a working run, and bad input refused in one line with exit 2."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from envforge.exporters.run import find_packages
from tests.conftest import envforge_cli


def test_export_writes_the_requested_formats_only(retail_package: Path, tmp_path: Path) -> None:
    out = tmp_path / "exports"
    result = envforge_cli("export", str(retail_package), "-f", "wheel,mcp", "-o", str(out), "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert (summary["out"], summary["environments"]) == (str(out), ["envforge/retail-v0"])
    mcp, env, runtime = sorted(summary["files"])
    assert mcp == "mcp/retail.json"
    runtime_version = re.fullmatch(r"wheels/envforge_runtime-(0\.1\.0\+h[0-9a-f]{12})-py3-none-any\.whl", runtime)
    env_version = re.fullmatch(r"wheels/envforge_env_retail-(0\.1\.0\+h[0-9a-f]{12})-py3-none-any\.whl", env)
    assert runtime_version and env_version, summary["files"]
    assert json.loads((out / "mcp/retail.json").read_text()) == {
        "mcpServers": {"envforge-env-retail": {"args": [], "command": "envforge-env-retail"}}
    }
    with zipfile.ZipFile(out / runtime) as archive:
        names = archive.namelist()
    assert "envforge/runtime/episode.py" in names and "envforge/adapters/trl.py" in names
    assert not [name for name in names if name.startswith(("envforge/pipeline", "envforge/stages", "envforge/cli"))]
    with zipfile.ZipFile(out / env) as archive:
        names = archive.namelist()
        metadata = archive.read(f"envforge_env_retail-{env_version[1]}.dist-info/METADATA").decode()
    assert "envforge_env_retail/package/state.sqlite" in names and "envforge_env_retail/trl_env.py" in names
    assert [line for line in metadata.splitlines() if line.startswith("Requires-Dist")] == [
        f"Requires-Dist: envforge-runtime=={runtime_version[1]}",
        f'Requires-Dist: envforge-runtime[mcp]=={runtime_version[1]}; extra == "mcp"',
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-f", "verl,trll"], "--format: unknown format 'trll'; did you mean 'trl'?"),
        (["-f", "parquet"], "--format: unknown format 'parquet'; choose from wheel, mcp, sft, verl, trl, all"),
    ],
)
def test_bad_formats_are_refused_before_anything_is_written(
    retail_package: Path, tmp_path: Path, args: list[str], message: str
) -> None:
    result = envforge_cli("export", str(retail_package), *args, "-o", str(tmp_path / "out"))
    assert result.returncode == 2
    assert result.stderr.strip() == f"envforge: error: {message}"
    assert not (tmp_path / "out").exists()


def test_paths_without_packages_are_refused(tmp_path: Path) -> None:
    missing = envforge_cli("export", str(tmp_path / "nope"), "-o", str(tmp_path / "out"))
    assert missing.returncode == 2 and "no such folder" in missing.stderr and len(missing.stderr.splitlines()) == 1
    empty = envforge_cli("export", str(tmp_path), "-o", str(tmp_path / "out"))
    assert empty.returncode == 2 and "holds no environment package" in empty.stderr
    assert not (tmp_path / "out").exists()


def test_a_suite_folder_gives_its_packages_but_not_the_half_written_folders_a_killed_batch_left(
    tmp_path: Path,
) -> None:
    suite = tmp_path / "suite"
    for folder in ("retail", "clinic", ".tmp-airline-0123abcd", ".old-retail-89abcdef", ".cache/retail/package"):
        (suite / folder).mkdir(parents=True)
        (suite / folder / "envforge.yaml").write_text("schema_version: 1\n", encoding="utf-8")
    assert find_packages([suite]) == [suite / "clinic", suite / "retail"]
