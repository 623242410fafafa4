"""The app server and the UI tasks read a package only through its manifest hashes: a changed file of theirs is
refused with the same one line the runtime gives for any other changed file."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from envforge.cli.app import main
from envforge.errors import PackageError
from envforge.ir.uitasks import UI_TASKS_FILE
from envforge.runtime.apps.server import AppServer
from envforge.runtime.apps.uitasks import load_ui_tasks
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.conftest import REPO

SHOWCASE = REPO / "generated" / "showcase" / "retail"
READERS: dict[str, tuple[str, Callable[[Path], object]]] = {
    "policy (the runtime)": ("policy.md", lambda package: load_package(open_package(package))),
    "UI tasks": (UI_TASKS_FILE, lambda package: load_ui_tasks(open_package(package))),
    "app spec": ("apps/app.json", lambda package: AppServer(load_package(open_package(package)), "web")),
    "web template": ("apps/web/base.html", lambda package: AppServer(load_package(open_package(package)), "web")),
    "shared template": (
        "apps/shared/_ui.html",
        lambda package: AppServer(load_package(open_package(package)), "phone"),
    ),
    "static file": (
        "apps/phone/static/app.css",
        lambda package: AppServer(load_package(open_package(package)), "phone"),
    ),
}


def changed_copy(tmp_path: Path, name: str) -> Path:
    package = Path(shutil.copytree(SHOWCASE, tmp_path / "retail"))
    with (package / name).open("ab") as file:
        file.write(b"\n")
    return package


def changed_line(package: Path, name: str) -> str:
    return (
        f"{package / name}: content differs from the hash in envforge.yaml (changed or damaged); the package is "
        f"broken: re-run `envforge generate` for it (`envforge check {package}` lists every problem)"
    )


@pytest.mark.parametrize("reader", READERS)
def test_a_changed_file_is_refused_with_the_runtimes_one_line_naming_it(reader: str, tmp_path: Path) -> None:
    name, read = READERS[reader]
    package = changed_copy(tmp_path, name)

    with pytest.raises(PackageError) as failure:
        read(package)

    assert str(failure.value) == changed_line(package, name)


def test_run_task_in_an_app_refuses_changed_ui_tasks_before_any_browser_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = changed_copy(tmp_path, UI_TASKS_FILE)

    with pytest.raises(SystemExit) as exit_:
        main(["run-task", str(package), "retail-0001", "--oracle", "--app", "web"])

    assert exit_.value.code == 2
    assert capsys.readouterr().err == f"envforge: error: {changed_line(package, UI_TASKS_FILE)}\n"


def test_the_app_server_serves_the_static_files_the_manifest_lists(tmp_path: Path) -> None:
    package = Path(shutil.copytree(SHOWCASE, tmp_path / "retail"))
    (package / "apps" / "web" / "static" / "extra.css").write_text("body {}\n", encoding="utf-8")

    server = AppServer(load_package(open_package(package)), "web")

    assert set(server.static) == {"app.css", "icon.svg", "shared.css"}
    assert server.static["app.css"] == (package / "apps" / "web" / "static" / "app.css").read_bytes()
