"""`envforge view` over a package, a rollout run and a suite, every screen opened in Chromium."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from envforge.exporters.trajectories import oracle_trajectory
from envforge.rollouts.solvability import summarize_rollouts
from envforge.rollouts.trajectory import load_trajectories
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from envforge.validators.loaded_package import open_for_check
from envforge.validators.package_integrity import check_package_integrity
from envforge.viewer.graph import COLOURS
from tests.browser import watch
from tests.conftest import envforge_cli
from tests.view.conftest import SHOWCASE

if TYPE_CHECKING:
    from playwright.sync_api import Page


def view(path: Path, out: Path) -> Path:
    """`envforge view PATH -o OUT` as a user runs it: it prints where the site's first page is."""
    result = envforge_cli("view", str(path), "-o", str(out))
    assert result.returncode == 0, result.stderr
    index = out / "index.html"
    assert result.stdout.splitlines()[-1] == str(index)
    return index


def open_page(page: Page, path: Path) -> list[str]:
    """Open a page of the site; what went wrong on it (none expected), and every link it has pointing at a page
    that is not there."""
    problems = watch(page)
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    for href in page.eval_on_selector_all("a[href]", "links => links.map(link => link.getAttribute('href'))"):
        if not (path.parent / href).is_file():
            problems.append(f"{path.name}: broken link {href}")
    return problems


@pytest.fixture(scope="module")
def package_view(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return view(SHOWCASE, tmp_path_factory.mktemp("view") / "retail")


def test_every_page_of_a_package_opens_without_an_error_or_a_broken_link(package_view: Path, page: Page) -> None:
    pages = sorted(package_view.parent.glob("*.html"))
    assert {path.name for path in pages} >= {"index.html", "tasks.html", "tools.html", "task-retail-0001.html"}
    assert len(pages) == 3 + len(load_package(open_package(SHOWCASE)).task_ids)
    for path in pages:
        assert open_page(page, path) == []


def test_a_task_page_shows_the_oracles_calls_and_the_verdicts_components(package_view: Path, page: Page) -> None:
    package = load_package(open_package(SHOWCASE))
    for task_id in ("retail-0001", "retail-0008"):
        golden = oracle_trajectory(package, task_id)
        assert open_page(page, package_view.parent / f"task-{task_id}.html") == []
        assert page.locator(".tool-call").all_inner_texts() == [call.name for call in package.tasks[task_id].oracle]
        rows = page.locator("table.verdict tr[data-component]")
        shown = {row.get_attribute("data-component"): row.locator(".pill").inner_text() for row in rows.all()}
        assert shown == {name: "holds" if holds else "fails" for name, holds in golden.components.items()}
        assert len(shown) >= 5
        assert page.locator(".turn.tool").count() == len(package.tasks[task_id].oracle)


def test_the_task_list_filters_by_kind(package_view: Path, page: Page) -> None:
    tasks = load_package(open_package(SHOWCASE)).tasks.values()
    assert open_page(page, package_view.parent / "tasks.html") == []
    page.get_by_role("button", name="read", exact=True).click()
    visible = page.locator("table.tasks tr[data-kind]:visible")
    assert visible.count() == sum(task.kind == "read" for task in tasks) > 0
    assert {row.get_attribute("data-kind") for row in visible.all()} == {"read"}
    page.get_by_role("button", name="all").click()
    assert page.locator("table.tasks tr[data-kind]:visible").count() == len(tasks)


def test_the_tool_graph_has_a_box_per_entity_and_colours_reads_and_writes(package_view: Path, page: Page) -> None:
    graph = json.loads((SHOWCASE / "toolgraph.json").read_text(encoding="utf-8"))
    assert open_page(page, package_view.parent / "tools.html") == []
    boxes = page.locator("svg.toolgraph g.entity")
    assert sorted(box.get_attribute("data-entity") or "" for box in boxes.all()) == sorted(
        {tool["entity"] for tool in graph["tools"]}
    )
    for tool in graph["tools"]:
        drawn = page.locator(f'svg.toolgraph g.tool[data-tool="{tool["name"]}"]')
        assert drawn.get_attribute("class") == f"tool {tool['kind']}"
        assert drawn.locator("rect").get_attribute("fill") == COLOURS[tool["kind"]]
        assert drawn.bounding_box() is not None
    # Arrows join entities, far fewer than the package's tool-to-tool edges.
    assert 0 < page.locator("svg.toolgraph path.link").count() < len(graph["edges"]) / 10
    assert page.locator("table.adjacency tr").count() == len(graph["tools"]) + 1


def test_a_rollout_run_shows_envforges_pass_at_k_and_each_trajectorys_failure_class(
    runs: Path, tmp_path: Path, page: Page
) -> None:
    index = view(runs, tmp_path / "runs-view")
    assert open_page(page, index) == []
    assert page.locator("table.runs tr").count() == 3
    trajectories = load_trajectories(runs / "scripted.jsonl")
    summary = summarize_rollouts(trajectories, k=2)
    assert {task.pass_at_1 for task in summary.tasks} == {0.5}
    run = tmp_path / "runs-view" / "scripted" / "index.html"
    assert open_page(page, run) == []
    for task in summary.tasks:
        row = page.locator(f'table.per-task tr[data-task="{task.task_id}"]')
        cells = [row.locator(f"td.{name}").inner_text() for name in ("pass-at-1", "pass-at-k", "pass-hat-k")]
        assert cells == [str(task.pass_at_1), str(task.pass_at_k), str(task.pass_hat_k)]
    assert page.locator("#mean-pass-at-k").inner_text() == str(summary.mean_pass_at_k)
    failures = page.locator("table.trajectories td.failure").all_inner_texts()
    assert failures == [f"{t.failure.cls}:{t.failure.reason}" if t.failure else "—" for t in trajectories]
    pages = sorted(run.parent.glob("trajectory-*.html"))
    assert len(pages) == len(trajectories)
    for path in pages:
        assert open_page(page, path) == []
        assert page.locator("table.verdict tr[data-component]").count() >= 5
    passed = next(t for t in trajectories if t.outcome == "passed")
    assert open_page(page, run.parent / f"trajectory-{passed.task_id}-{passed.sample}-0.html") == []
    assert page.locator(".tool-call").all_inner_texts() == [call.name for call in passed.calls]


def test_a_single_trajectories_file_is_a_run_of_its_own(runs: Path, tmp_path: Path, page: Page) -> None:
    index = view(runs / "smollm2.jsonl", tmp_path / "smollm2")
    assert open_page(page, index) == []
    assert page.locator("table.trajectories td.failure").all_inner_texts()[0] == "model:gave_up"


def test_a_suite_shows_a_row_per_blueprint_with_its_gate_figures_and_charts(
    suite: Path, tmp_path: Path, page: Page
) -> None:
    index = view(suite, tmp_path / "suite-view")
    assert open_page(page, index) == []
    # The folder is `suite`: its name heads the page once ("Suite suite" read as a stutter).
    assert page.locator("h1").inner_text() == "suite" and page.title() == "suite · suite · envforge view"
    assert page.locator("p.sub").inner_text().startswith("A suite of 2 blueprints")
    rows = page.locator("table.suite tr[data-blueprint]")
    assert [row.get_attribute("data-blueprint") for row in rows.all()] == ["retail", "broken"]
    assert "FAILED" in rows.nth(1).inner_text() and "colour" in rows.nth(1).inner_text()
    report = json.loads((suite / "retail" / "report.json").read_text(encoding="utf-8"))
    assert f"{report['gate']['mutant_false_positives']} of {report['gate']['mutants']}" in rows.nth(0).inner_text()
    assert page.locator("figure.chart").count() == 3
    assert page.locator('figure.chart g.bar[data-label="retail"]').count() == 3
    page.get_by_role("link", name="retail").click()
    assert page.locator("h1").inner_text() == "Online retail customer service"
    for path in sorted((tmp_path / "suite-view" / "retail").glob("*.html")):
        assert open_page(page, path) == []


def test_the_site_is_written_beside_the_package_which_stays_intact(tmp_path: Path) -> None:
    package = tmp_path / "retail"
    shutil.copytree(SHOWCASE, package)
    result = envforge_cli("view", str(package))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == str(tmp_path / "retail-view" / "index.html")
    assert check_package_integrity(open_for_check(package)) == []


def test_open_hands_the_first_page_to_the_users_browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`--open` goes through Python's `webbrowser`, which runs the command in `BROWSER`: here a script that
    records the page it was given, since no desktop browser opens in CI."""
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.py"
    browser.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n", encoding="utf-8")
    monkeypatch.setenv("BROWSER", f"{sys.executable} {browser} %s")
    result = envforge_cli("view", str(SHOWCASE), "-o", str(tmp_path / "site"), "--open")
    assert result.returncode == 0, result.stderr
    assert opened.read_text(encoding="utf-8") == (tmp_path / "site" / "index.html").resolve().as_uri()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["nowhere"], "nowhere: no such file or folder; give a package folder"),
        ([str(SHOWCASE / "policy.md")], "not a package, a suite or a rollout run"),
        ([str(SHOWCASE), "-o", str(SHOWCASE / "view")], "inside the input"),
        ([str(SHOWCASE), "-o", "site.html"], "the view is a folder of pages; give a folder"),
    ],
)
def test_a_bad_path_is_one_line_and_exit_2(args: list[str], says: str, tmp_path: Path) -> None:
    result = envforge_cli("view", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and says in result.stderr and "Traceback" not in result.stderr
