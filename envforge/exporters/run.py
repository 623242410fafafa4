"""`envforge export`: every requested format for one package or a whole suite, written all or nothing.

Layout of the output folder:

    wheels/             envforge_runtime-*.whl and one envforge_env_<domain>-*.whl per environment, versioned by
                        content (`0.1.0+h<hash>`); earlier builds these replace are removed
    mcp/<domain>.json   an `mcpServers` entry per environment (suite.json: all of them)
    sft/<name>/         train.jsonl, test.jsonl (OpenAI chat), messages.parquet (Hugging Face)
    verl/<name>/        train.parquet, test.parquet, tool_config.yaml, agent_loop.yaml
    trl/<name>/         train.parquet, test.parquet (prompt, task_id, environment)

Each dataset folder also holds a Hugging Face dataset card (`README.md`) filled from the blueprints, whose
`configs` tell `datasets.load_dataset(folder)` which file is which split.

`<name>` is the domain, and `suite` for the combined dataset when several environments are exported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from envforge.errors import UserInputError, did_you_mean
from envforge.exporters.dataset_card import Kind, dataset_card
from envforge.exporters.mcp_config import render_mcp_config
from envforge.exporters.rollouts import JudgedRollout, judge_rollouts, pass_rates, rollout_demonstrations
from envforge.exporters.sft import render_sft
from envforge.exporters.signals import TaskSignals
from envforge.exporters.split import Split, split_tasks
from envforge.exporters.trajectories import oracle_trajectory
from envforge.exporters.trl import render_trl_dataset
from envforge.exporters.verl import render_verl
from envforge.exporters.wheel import WheelSpec
from envforge.exporters.wheel_folder import superseded_wheels
from envforge.exporters.wheels import env_wheel, runtime_wheel
from envforge.files import write_dir_atomic, write_file_atomic
from envforge.ir.display import Display, Table
from envforge.ir.manifest import MANIFEST
from envforge.pipeline.progress import advance, step
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package

FORMATS = ("wheel", "mcp", "sft", "verl", "trl")
SUITE = "suite"


@dataclass
class ExportReport:
    """What an export wrote, for the CLI to print."""

    out: Path
    environments: list[str] = field(default_factory=list)
    files: dict[str, int] = field(default_factory=dict)
    """Written file (relative to `out`) -> size in bytes."""
    tasks: dict[str, dict[Split, int]] = field(default_factory=dict)
    rollouts: dict[str, int] = field(default_factory=dict)
    """env id -> passing rollouts added to the SFT data."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "out": str(self.out),
            "environments": self.environments,
            "files": self.files,
            "tasks": self.tasks,
            "rollouts": self.rollouts,
        }

    def display(self) -> Display:
        """Each environment's train and test tasks, then the passing rollouts added and every file written."""
        rows = [(env_id, str(counts["train"]), str(counts["test"])) for env_id, counts in self.tasks.items()]
        table = Table(f"envforge export -> {self.out}", ("environment", "train tasks", "test tasks"), rows)
        lines = [
            f"  {env_id}: {count} passing rollouts added to the SFT data" for env_id, count in self.rollouts.items()
        ]
        lines += [f"  {name}  ({size:,} bytes)" for name, size in sorted(self.files.items())]
        return Display(tables=[table], lines=lines)


def parse_formats(values: list[str]) -> list[str]:
    """`--format` values (repeatable, comma-separated, or `all`) in canonical order."""
    wanted: set[str] = set()
    for value in values:
        for name in filter(None, (part.strip().lower() for part in value.split(","))):
            if name == "all":
                wanted.update(FORMATS)
            elif name == "gym":
                wanted.add("wheel")
            elif name in FORMATS:
                wanted.add(name)
            else:
                hint = did_you_mean(name, [*FORMATS, "gym", "all"]) or f"; choose from {', '.join(FORMATS)}, all"
                raise UserInputError(f"--format: unknown format '{name}'{hint}")
    return [name for name in FORMATS if name in wanted]


def find_packages(paths: list[Path]) -> list[Path]:
    """Package folders named directly, or found below the given folders (a suite such as generated/)."""
    found: list[Path] = []
    for path in paths:
        if not path.exists():
            raise UserInputError(f"{path}: no such folder; give an environment package or a folder of packages")
        if (path / MANIFEST).is_file():
            found.append(path)
            continue
        # A hidden folder is never a package: the stage cache, or the temporary or retired folder of an atomic
        # write that a killed run left behind, which may hold a manifest beside half of the files.
        below = sorted(
            manifest.parent
            for manifest in path.rglob(MANIFEST)
            if not any(part.startswith(".") for part in manifest.relative_to(path).parts)
        )
        if not below:
            raise UserInputError(f"{path}: holds no environment package (no {MANIFEST}); run `envforge generate`")
        found.extend(below)
    return found


def _check_unique(packages: list[EnvPackage]) -> None:
    seen: dict[str, Path] = {}
    for package in packages:
        domain = package.env.blueprint.domain
        if domain in seen:
            raise UserInputError(
                f"{package.path}: domain '{domain}' is also exported from {seen[domain]}; export one package per domain"
            )
        seen[domain] = package.path


def _carded(
    kind: Kind, packages: list[EnvPackage], splits: dict[str, dict[str, Split]], files: dict[str, bytes]
) -> dict[str, bytes]:
    """A dataset folder's files and its Hugging Face dataset card."""
    return files | {"README.md": dataset_card(kind, packages, splits, files)}


def _sft_folders(
    packages: list[EnvPackage],
    splits: dict[str, dict[str, Split]],
    judged: list[JudgedRollout],
    signals: TaskSignals,
    report: ExportReport,
) -> dict[str, dict[str, bytes]]:
    """`sft/<domain>` (and `sft/suite` for several): oracle demonstrations and the passing rollouts of `judged`."""
    extra = rollout_demonstrations(packages, judged)
    per_env = {
        package.env.blueprint.domain: [
            (oracle_trajectory(package, task_id), splits[package.env_id][task_id]) for task_id in package.task_ids
        ]
        + [(demo, splits[package.env_id][demo.task.id]) for demo in extra[package.env_id]]
        for package in packages
    }
    report.rollouts = {env_id: len(demos) for env_id, demos in extra.items()}
    by_env = {package.env_id: package for package in packages}
    folders = {
        f"sft/{package.env.blueprint.domain}": _carded(
            "sft", [package], splits, render_sft(per_env[package.env.blueprint.domain], by_env, signals)
        )
        for package in packages
    }
    if len(packages) > 1:
        files = render_sft([item for items in per_env.values() for item in items], by_env, signals)
        folders[f"sft/{SUITE}"] = _carded("sft", packages, splits, files)
    return folders


def export(
    paths: list[Path],
    out: Path,
    formats: list[str],
    test_fraction: float = 0.1,
    rollouts: list[Path] | None = None,
) -> ExportReport:
    """Build every file in memory, then write each output folder atomically.

    `rollouts`: trajectory files whose passing episodes join the SFT data beside the oracle demonstrations.
    """
    packages = [load_package(open_package(path)) for path in find_packages(paths)]
    _check_unique(packages)
    if rollouts and not {"sft", "verl", "trl"} & set(formats):
        raise UserInputError("--rollouts feeds the datasets (SFT demonstrations, pass rates); add -f sft, verl or trl")
    report = ExportReport(out=out, environments=[package.env_id for package in packages])
    splits = {package.env_id: split_tasks(package.env_id, package.task_ids, test_fraction) for package in packages}
    for package in packages:
        counts = list(splits[package.env_id].values())
        report.tasks[package.env_id] = {"train": counts.count("train"), "test": counts.count("test")}

    judged = judge_rollouts(packages, rollouts or [])
    signals = TaskSignals(pass_rates(judged) if rollouts else None)
    folders: dict[str, dict[str, bytes]] = {}
    loose: dict[str, bytes] = {}
    several = len(packages) > 1
    runtime: WheelSpec | None = None
    wheels: list[WheelSpec] = []
    if "wheel" in formats:
        with step("wheel"):
            runtime, data = runtime_wheel()
            loose[f"wheels/{runtime.filename}"] = data
            for package in packages:
                spec, data = env_wheel(package, runtime.version)
                loose[f"wheels/{spec.filename}"] = data
                wheels.append(spec)
                advance(len(wheels), len(packages), "wheels built")
    if "mcp" in formats:
        for package in packages:
            loose[f"mcp/{package.env.blueprint.domain}.json"] = render_mcp_config([package])
        if several:
            loose[f"mcp/{SUITE}.json"] = render_mcp_config(packages)
    if "sft" in formats:
        with step("sft"):
            folders |= _sft_folders(packages, splits, judged, signals, report)
    renders: tuple[
        tuple[Kind, Callable[[list[EnvPackage], dict[str, dict[str, Split]], TaskSignals], dict[str, bytes]]], ...
    ]
    renders = (("verl", render_verl), ("trl", render_trl_dataset))
    for kind, render in renders:
        if kind in formats:
            with step(kind):
                for package in packages:
                    files = render([package], splits, signals)
                    folders[f"{kind}/{package.env.blueprint.domain}"] = _carded(kind, [package], splits, files)
                if several:
                    folders[f"{kind}/{SUITE}"] = _carded(kind, packages, splits, render(packages, splits, signals))

    for folder, files in folders.items():
        write_dir_atomic(out / folder, files)
        report.files |= {f"{folder}/{name}": len(data) for name, data in files.items()}
    for name, data in loose.items():
        write_file_atomic(out / name, data)
        report.files[name] = len(data)
    if runtime is not None:
        # Only after the new builds are in place, so the folder never lacks a wheel.
        for path in superseded_wheels(out / "wheels", runtime, wheels):
            path.unlink()
    return report
