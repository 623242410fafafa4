"""The browser environment in a real Chromium: observations, actions by axtree id, rewards, resets and check_env."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from envforge.errors import PackageError
from envforge.ir.tasks import TaskSpec
from envforge.ir.uitasks import UI_TASKS_FILE, AppKind, UIStep, UITask
from envforge.package import update_package
from envforge.runtime.apps.browser_env import BrowserEnv
from envforge.runtime.apps.uitasks import load_ui_tasks
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.browser import INSTALL_PLAYWRIGHT, find_chromium, person_email, unavailable

APPS: list[AppKind] = ["web", "phone"]
SCREENS = {"web": (800, 1280, 3), "phone": (844, 390, 3)}
NAV_SECTIONS = ("Customers", "Addresses", "Orders")
LINE = re.compile(r'^\[(\d+)\] (\S+) "((?:[^"\\]|\\.)*)"')


def cancel_tasks(package: Path) -> list[TaskSpec]:
    tasks = load_package(open_package(package)).tasks.values()
    writes = {
        task.id: [c.name for c in task.oracle if not c.name.startswith(("get_", "list_", "find_"))] for task in tasks
    }
    return [task for task in tasks if writes[task.id] == ["cancel_order"]]


def golden_cancel(task: TaskSpec, app: AppKind, email: str) -> UITask:
    """The clicks of tests/runtime/apps/test_browser.py as a UI task's golden path."""
    order_id, reason = task.oracle[-1].arguments["order_id"], task.oracle[-1].arguments["reason"]
    steps = [
        UIStep(action="click", target="nav-customer", navigates=True),
        UIStep(action="fill", target="find-email", value=email),
        UIStep(action="click", target="find-submit-email", navigates=True),
        UIStep(action="click", target=f"row-{order_id}", navigates=True),
        *([UIStep(action="click", target="open-actions")] if app == "phone" else []),
        UIStep(action="click", target="action-cancel_order", navigates=True),
        UIStep(action="select", target="field-reason", value=reason),
        UIStep(action="click", target="submit", navigates=True),
        UIStep(action="click", target="confirm", navigates=True),
    ]
    instruction = f"In the {app} app, cancel order {order_id} with the reason {reason}."
    return UITask(task_id=task.id, app=app, instruction=instruction, steps=steps)


@pytest.fixture(scope="module")
def ui_package(retail_package: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the retail package whose UI tasks are the first cancel task in both apps and another task (its
    golden path as the package poses it) in web only."""
    package = tmp_path_factory.mktemp("browser-env") / "retail"
    shutil.copytree(retail_package, package)
    first = cancel_tasks(package)[0]
    second = next(
        task for task in load_ui_tasks(open_package(package)) if task.app == "web" and task.task_id != first.id
    )
    email = person_email(package, first)
    ui_tasks = [golden_cancel(first, "web", email), golden_cancel(first, "phone", email), second]
    update_package(package, {}, {UI_TASKS_FILE: "".join(task.model_dump_json() + "\n" for task in ui_tasks).encode()})
    return package


def open_env(package: Path, app: AppKind) -> BrowserEnv:
    find_chromium()
    if importlib.util.find_spec("playwright") is None:
        unavailable(f"playwright is not installed; {INSTALL_PLAYWRIGHT}")
    return BrowserEnv(load_package(open_package(package)), app, render_mode="rgb_array" if app == "web" else "ansi")


@pytest.fixture(scope="module")
def web_env(ui_package: Path) -> Iterator[BrowserEnv]:
    env = open_env(ui_package, "web")
    yield env
    env.close()


@pytest.fixture(scope="module")
def phone_env(ui_package: Path) -> Iterator[BrowserEnv]:
    env = open_env(ui_package, "phone")
    yield env
    env.close()


@pytest.fixture(params=APPS)
def env(request: pytest.FixtureRequest) -> BrowserEnv:
    found: BrowserEnv = request.getfixturevalue(f"{request.param}_env")
    return found


def element_id(axtree: str, role: str, name: str) -> int:
    """The number of the first element of `role` whose accessible name starts with `name`."""
    for line in axtree.splitlines():
        match = LINE.match(line)
        if match and match[2] == role and json.loads(f'"{match[3]}"').startswith(name):
            return int(match[1])
    raise AssertionError(f"no {role} named {name!r} in the axtree:\n{axtree}")


def act(env: BrowserEnv, **action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
    observation, reward, terminated, truncated, info = env.step(json.dumps(action))
    assert "error" not in info, info["error"]
    return observation, float(reward), terminated, truncated, info


def test_an_observation_is_the_screenshot_and_an_axtree_with_numbered_nav_links(
    env: BrowserEnv, ui_package: Path
) -> None:
    task = cancel_tasks(ui_package)[0]
    observation, info = env.reset(options={"task_id": task.id})
    screenshot = observation["screenshot"]
    assert screenshot.shape == SCREENS[env.app] and screenshot.dtype == np.uint8
    assert len(np.unique(screenshot.reshape(-1, 3), axis=0)) > 20, "the screenshot is blank"
    assert observation in env.observation_space
    assert observation["url"] == "/"
    for section in NAV_SECTIONS:
        assert re.search(rf'^\[\d+\] link "{section}"$', observation["axtree"], re.MULTILINE), observation["axtree"]
    assert info == {
        "task_id": task.id,
        "instruction": f"In the {env.app} app, cancel order {task.oracle[-1].arguments['order_id']} "
        f"with the reason {task.oracle[-1].arguments['reason']}.",
        "app": env.app,
        "reset_s": info["reset_s"],
    }
    rendered = env.render()
    if env.app == "web":
        assert isinstance(rendered, np.ndarray) and np.array_equal(rendered, screenshot)
    else:
        assert rendered == observation["axtree"]


def test_cancelling_an_order_by_axtree_ids_earns_the_verifier_reward(
    env: BrowserEnv, ui_package: Path, request: pytest.FixtureRequest
) -> None:
    task = cancel_tasks(ui_package)[0]
    order_id, reason = task.oracle[-1].arguments["order_id"], task.oracle[-1].arguments["reason"]
    observation, _ = env.reset(options={"task_id": task.id})
    observation, *_ = act(env, action="click", element=element_id(observation["axtree"], "link", "Customers"))
    email = element_id(observation["axtree"], "textbox", "Find by email")
    observation, *_ = act(env, action="type", element=email, text=person_email(ui_package, task))
    observation, *_ = act(env, action="click", element=element_id(observation["axtree"], "button", "Find"))
    observation, *_ = act(env, action="click", element=element_id(observation["axtree"], "link", order_id))
    assert observation["url"] == f"/order/{order_id}"
    detail_bytes = len(observation["axtree"].encode())
    request.node.user_properties.append(("axtree_order_detail_bytes", detail_bytes))
    assert detail_bytes < 4096
    if env.app == "phone":
        observation, *_ = act(env, action="click", element=element_id(observation["axtree"], "button", "Actions"))
    observation, *_ = act(env, action="click", element=element_id(observation["axtree"], "link", "Cancel order"))
    options = re.search(r'combobox "Reason".* options=(\S+)', observation["axtree"])
    assert options is not None and reason in options[1].split("|")
    observation, *_ = act(
        env, action="select", element=element_id(observation["axtree"], "combobox", "Reason"), value=reason
    )
    observation, *_ = act(env, action="click", element=element_id(observation["axtree"], "button", "Continue"))
    observation, *_ = act(env, action="click", element=element_id(observation["axtree"], "button", "Yes, cancel order"))
    assert 'status "Cancel order: done."' in observation["axtree"]
    final = {"action": "done"} if env.app == "web" else {"action": "answer", "text": f"Order {order_id} is cancelled."}
    observation, reward, terminated, truncated, info = act(env, **final)
    assert (reward, terminated, truncated) == (1.0, True, False), info["verdict"]
    assert info["verdict"]["passed"] is True
    assert ("cancel_order", True) in {(call["name"], call["ok"]) for call in info["tool_calls"]}
    with pytest.raises(RuntimeError, match="call reset"):
        env.step('{"action": "done"}')


def test_done_right_after_reset_scores_zero(web_env: BrowserEnv, ui_package: Path) -> None:
    web_env.reset(options={"task_id": cancel_tasks(ui_package)[0].id})
    _, reward, terminated, truncated, info = act(web_env, action="done")
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert info["verdict"]["passed"] is False and info["verdict"]["components"]["expected_changes_made"] is False


def test_reset_after_a_write_restores_the_initial_state_in_under_a_second(
    env: BrowserEnv, ui_package: Path, request: pytest.FixtureRequest
) -> None:
    task = cancel_tasks(ui_package)[0]
    order_id, reason = task.oracle[-1].arguments["order_id"], task.oracle[-1].arguments["reason"]
    env.reset(options={"task_id": task.id})
    assert env.episode is not None
    initial_hash = env.episode.session.state_hash()
    observation, *_ = act(env, action="navigate", url=f"/order/{order_id}")
    status = re.search(r"Status: \w+", observation["axtree"])
    assert status is not None and "Cancelled" not in status.group()
    observation, *_ = act(env, action="navigate", url=f"/order/{order_id}/do/cancel_order")
    observation, *_ = act(
        env, action="select", element=element_id(observation["axtree"], "combobox", "Reason"), value=reason
    )
    observation, *_ = act(env, action="click", element=element_id(observation["axtree"], "button", "Continue"))
    observation, *_ = act(env, action="click", element=element_id(observation["axtree"], "button", "Yes, cancel order"))
    assert "Cancelled" in observation["axtree"] and env.episode.session.state_hash() != initial_hash

    observation, info = env.reset(options={"task_id": task.id})
    request.node.user_properties.append(("reset_s", info["reset_s"]))
    assert info["reset_s"] < 1.0
    assert env.episode.session.state_hash() == initial_hash and observation["url"] == "/"
    _, _, _, _, info = env.step('{"action": "back"}')
    assert info["error"] == "back: there is no earlier page in this episode"
    observation, *_ = act(env, action="navigate", url=f"/order/{order_id}")
    assert status.group() in observation["axtree"]


INVALID_ACTIONS = [
    ("click the orders link", "the action is not JSON"),
    ('["click", 3]', "must be a JSON object"),
    ('{"action": "fly"}', "unknown action 'fly'"),
    ('{"action": "clik", "element": 3}', "did you mean 'click'"),
    ('{"action": "click", "element": 999}', "no element [999] on this page"),
    ('{"action": "type", "element": 3}', '"text" must be a string'),
    ('{"action": "click", "x": 5000, "y": 10}', "outside the 1280x800 screenshot"),
    ('{"action": "navigate", "url": "/harness/episodes"}', "not a page of this app"),
    ('{"action": "navigate", "url": "http://example.org/"}', "give a path of this app"),
    ('{"action": "navigate", "url": "/customer/../../harness/episodes"}', "may not contain . or .."),
]


def test_an_invalid_action_reports_an_error_and_the_episode_goes_on(web_env: BrowserEnv, ui_package: Path) -> None:
    before, _ = web_env.reset(options={"task_id": cancel_tasks(ui_package)[0].id})
    link = element_id(before["axtree"], "link", "Orders")
    # Playwright refuses to fill a link: its error comes back as the step's error too.
    cases = [
        *INVALID_ACTIONS,
        (json.dumps({"action": "type", "element": link, "text": "x"}), "Element is not an <input>"),
    ]
    for action, error in cases:
        observation, reward, terminated, truncated, info = web_env.step(action)
        assert error in info.get("error", ""), (action, info.get("error"))
        assert "\n" not in info["error"]
        assert (reward, terminated, truncated) == (0.0, False, False)
        assert observation["url"] == "/" and observation["axtree"] == before["axtree"]
    observation, *_ = act(web_env, action="click", element=link)
    assert observation["url"] == "/order/"


def test_clicking_a_point_scrolling_and_going_back(web_env: BrowserEnv, ui_package: Path) -> None:
    web_env.reset(options={"task_id": cancel_tasks(ui_package)[0].id})
    box = web_env.page.get_by_test_id("nav-order").bounding_box()
    assert box is not None
    observation, *_ = act(web_env, action="click", x=box["x"] + box["width"] / 2, y=box["y"] + box["height"] / 2)
    assert observation["url"] == "/order/"
    scrolled, *_ = act(web_env, action="scroll", dy=400)
    assert web_env.page.evaluate("window.scrollY") == 400
    assert not np.array_equal(scrolled["screenshot"], observation["screenshot"])
    observation, *_ = act(web_env, action="back")
    assert observation["url"] == "/"


def test_the_episode_is_truncated_at_max_steps_with_a_verdict(web_env: BrowserEnv, ui_package: Path) -> None:
    web_env.reset(options={"task_id": cancel_tasks(ui_package)[0].id})
    web_env.max_steps = 2
    try:
        first = act(web_env, action="navigate", url="/order/")
        second = act(web_env, action="navigate", url="/customer/")
    finally:
        web_env.max_steps = 40
    assert first[1:4] == (0.0, False, False) and "verdict" not in first[4]
    assert second[1:4] == (0.0, False, True) and second[4]["verdict"]["passed"] is False


def test_the_golden_ui_path_replays_to_a_passing_verdict(env: BrowserEnv, ui_package: Path) -> None:
    env.reset(options={"task_id": cancel_tasks(ui_package)[0].id})
    verdict, answer = env.replay_golden()
    assert verdict.passed is True and verdict.reward == 1.0, verdict.reasons
    assert answer is None


def test_replaying_a_task_posed_only_in_the_web_app_fails_in_the_phone_app(
    phone_env: BrowserEnv, ui_package: Path
) -> None:
    web_only = next(
        task.task_id
        for task in load_ui_tasks(open_package(ui_package))
        if task.task_id != cancel_tasks(ui_package)[0].id
    )
    _, info = phone_env.reset(options={"task_id": web_only})
    assert info["instruction"] == load_package(open_package(ui_package)).task(info["task_id"]).instruction
    with pytest.raises(PackageError, match="posed in the web app only; use --app web"):
        phone_env.replay_golden()


def test_check_env_passes_and_a_seeded_reset_is_deterministic(web_env: BrowserEnv) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(web_env.unwrapped, skip_render_check=True)
    # Without a registered spec check_env skips its own comparison of seeded observations.
    first, first_info = web_env.reset(seed=7)
    second, second_info = web_env.reset(seed=7)
    assert first_info["task_id"] == second_info["task_id"]
    assert first["axtree"] == second["axtree"] and first["url"] == second["url"]
    assert np.array_equal(first["screenshot"], second["screenshot"])
