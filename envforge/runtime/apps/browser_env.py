"""A package's web or phone app in a real Chromium as a Gymnasium environment, for computer-use agents.

Observation: `{"screenshot": RGB array of the viewport, "axtree": numbered accessibility text, "url": path}`,
the path relative to the episode's pages (`/customer/CUS-1`).
Action: a JSON object (or a dict), e.g. `{"action": "click", "element": 12}` with a number from the latest
`axtree`, `{"action": "click", "x": 100, "y": 200}` in screenshot pixels, `type` (`text`), `select` (`value`),
`check`, `uncheck`, `scroll` (`dy`, `dx`), `navigate` (`url`, a path of the app), `back`, `answer` (`text`)
or `done`. An action that cannot be done leaves `info["error"]`, and the episode goes on.
Reward: 0 until `answer`/`done` or `max_steps`, then the task verifier's. `reset()` restores the episode's
state in place (its seconds are `info["reset_s"]`) and chooses the task as `ToolUseEnv` does.
"""

from __future__ import annotations

import io
import secrets
import time
from collections.abc import Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, SupportsFloat
from urllib.parse import unquote, urlsplit

import gymnasium
import numpy as np
from gymnasium import spaces
from PIL import Image

from envforge.errors import UserInputError
from envforge.ir.tasks import Verdict
from envforge.ir.uitasks import UI_TASKS_FILE, AppKind
from envforge.runtime.apps.axtree import ELEMENT_ID_ATTRIBUTE, accessibility_text
from envforge.runtime.apps.browser_actions import ActionError, BrowserAction, parse_browser_action
from envforge.runtime.apps.chromium import INSTALL_HINT, context_options, find_chromium, shared_chromium
from envforge.runtime.apps.replay import run_steps
from envforge.runtime.apps.server import APPS, AppServer
from envforge.runtime.apps.threaded import serve_in_thread
from envforge.runtime.apps.uitasks import load_ui_tasks, pick_ui_task
from envforge.runtime.episode import EnvPackage
from envforge.runtime.episode_store import ServedEpisode
from envforge.runtime.gym_env import AnyText

if TYPE_CHECKING:
    from playwright.sync_api import Locator, Page

DEFAULT_MAX_STEPS = 40
ACTION_TIMEOUT_MS = 3_000
NAVIGATION_TIMEOUT_MS = 10_000

# Scrolls the nearest scrollable ancestor of the point or element (else the page) at once: a wheel event would
# scroll asynchronously, after the screenshot.
_SCROLL_JS = """
([selector, x, y, dx, dy]) => {
  let el = selector ? document.querySelector(selector) : document.elementFromPoint(x, y);
  for (; el && el !== document.body && el !== document.documentElement; el = el.parentElement) {
    const style = getComputedStyle(el);
    const scrollsY = dy && /(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight;
    const scrollsX = dx && /(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth;
    if (scrollsX || scrollsY) break;
  }
  const target = el && el !== document.body && el !== document.documentElement ? el : document.scrollingElement;
  target.scrollBy({ left: dx, top: dy, behavior: "instant" });
}
"""
_ELEMENT_AT_JS = f"""
([x, y]) => {{
  const hit = document.elementFromPoint(x, y);
  const element = hit && hit.closest("[{ELEMENT_ID_ATTRIBUTE}]");
  return element ? Number(element.getAttribute("{ELEMENT_ID_ATTRIBUTE}")) : null;
}}
"""


class BrowserEnv(gymnasium.Env[dict[str, Any], str]):
    """One package's web or phone app in headless Chromium; each episode is one task in a restored state.

    Playwright's sync API keeps an asyncio loop marked as running on the thread that made the env while
    any env of that thread is open, so `asyncio.run` fails there until they are closed; use an env only
    from the thread that made it. Envs of one thread share one Chromium, each in its own browser context.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array", "ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's own class attribute)

    def __init__(
        self,
        package: EnvPackage,
        app: AppKind = "web",
        task_id: str | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
        chromium: Path | None = None,
    ) -> None:
        if app not in APPS:
            raise UserInputError(f"app: '{app}' is not one of {', '.join(APPS)}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'rgb_array' or 'ansi', not {render_mode!r}")
        self.package = package
        if task_id is not None:
            self.package.task(task_id)
        self.app: AppKind = app
        self.task_id = task_id
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.server = AppServer(self.package, app, secrets.token_urlsafe(24))
        spec = self.server.pages.spec
        self.sections = {screen.entity for screen in spec.lists} | {screen.entity for screen in spec.details}
        self.sections |= {form.entity for form in spec.actions}
        # Read once: this app's instructions, and each golden path `replay_golden` clicks through.
        self.ui_tasks = load_ui_tasks(package.files) if package.files.exists(UI_TASKS_FILE) else None
        posed = self.ui_tasks or []
        self.ui_instructions = {task.task_id: task.instruction for task in posed if task.app == app}
        self.viewport: dict[str, int] = context_options(app)["viewport"]
        screen = (self.viewport["height"], self.viewport["width"], 3)
        self.observation_space = spaces.Dict(
            {
                "screenshot": spaces.Box(0, 255, screen, np.uint8),
                "axtree": AnyText(),
                "url": AnyText(),
            }
        )
        self.action_space = AnyText()
        self.episode: ServedEpisode | None = None
        self.steps = 0
        self.ended = False
        self._observation: dict[str, Any] | None = None
        self._resources = ExitStack()
        try:
            self._start(chromium)
        except BaseException:
            self._resources.close()
            raise

    def _start(self, chromium: Path | None) -> None:
        try:
            from playwright.sync_api import Error
        except ImportError:
            raise UserInputError(f"the browser environment needs playwright; {INSTALL_HINT}") from None
        self._browser_error: type[Exception] = Error
        executable = chromium or find_chromium()
        if executable is None or not executable.is_file():
            where = f" at {chromium}" if chromium is not None else ""
            raise UserInputError(f"no Chromium found{where} for the browser environment; {INSTALL_HINT}")
        self.origin = self._resources.enter_context(serve_in_thread(self.server.app()))
        browser = shared_chromium.acquire(executable)
        self._resources.callback(shared_chromium.release)
        context = browser.new_context(**context_options(self.app), device_scale_factor=1)
        self._resources.callback(context.close)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        self.context = context
        self.page: Page = context.new_page()
        self._page_used = False

    @property
    def base(self) -> str:
        """The path prefix of the current episode's pages (its page token, never the harness's)."""
        if self.episode is None:
            raise RuntimeError("call reset() first")
        return f"/e/{self.episode.token}"

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        started = time.perf_counter()
        task_id = (options or {}).get("task_id") or self.task_id
        if task_id is None:
            ids = self.package.task_ids
            task_id = ids[int(self.np_random.integers(len(ids)))]
        task = self.package.task(str(task_id))
        if self.episode is not None and self.episode.task_id == task.id:
            self.episode.reset()
        else:
            if self.episode is not None:
                self.server.episodes.close(self.episode.id)
            self.episode = self.server.episodes.open_task(task)
        self.steps = 0
        self.ended = False
        if self._page_used:
            # A new page has no history, so `back` cannot reach the pages of an earlier episode.
            used, self.page = self.page, self.context.new_page()
            used.close()
        self._page_used = True
        self.page.goto(f"{self.origin}{self.base}/")
        observation = self._observe()
        info = {
            "task_id": task.id,
            "instruction": self.ui_instructions.get(task.id, task.instruction),
            "app": self.app,
            "reset_s": round(time.perf_counter() - started, 4),
        }
        return observation, info

    def step(self, action: str | Mapping[str, Any]) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self.episode is None or self.ended:
            raise RuntimeError("call reset() before step(), and again after an episode ends")
        self.steps += 1
        error: str | None = None
        parsed: BrowserAction | None = None
        try:
            parsed = parse_browser_action(action)
            self._act(parsed)
        except ActionError as problem:
            parsed, error = None, str(problem)
        except self._browser_error as problem:
            parsed, error = None, _first_line(problem)
        observation = self._observe()
        info = self._info()
        if error is not None:
            info["error"] = error
        if parsed is not None and parsed.kind in ("answer", "done"):
            return observation, self._finish(parsed.text, info), True, False, info
        if self.steps >= self.max_steps:
            return observation, self._finish(None, info), False, True, info
        return observation, 0.0, False, False, info

    def render(self) -> Any:
        if self._observation is None or self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return self._observation["axtree"]
        return self._observation["screenshot"].copy()

    def close(self) -> None:
        """Stop the page, browser, Playwright and the app server; calling it again does nothing."""
        self._resources.close()
        if self.episode is not None:
            self.server.episodes.close(self.episode.id)
            self.episode = None
        super().close()

    def replay_golden(self) -> tuple[Verdict, str | None]:
        """Reset, do the current task's golden UI path from home, and judge it: the verdict and the answer given."""
        if self.episode is None or self.episode.task_id is None:
            raise RuntimeError("call reset() first: the golden path is the current task's")
        # Without a ui_tasks.jsonl, reading it again raises the package's one-line error.
        tasks = self.ui_tasks if self.ui_tasks is not None else load_ui_tasks(self.package.files)
        ui_task = pick_ui_task(self.package.path, tasks, self.episode.task_id, self.app)
        self.reset(options={"task_id": ui_task.task_id})
        read = run_steps(self.page, ui_task.steps)
        answer = read if ui_task.answers else None
        self.ended = True
        self._observe()
        return self._verdict(answer), answer

    def _act(self, action: BrowserAction) -> None:
        page = self.page
        if action.kind == "navigate":
            page.goto(self._page_url(action.text or ""))
        elif action.kind == "back":
            self._back()
        elif action.kind == "scroll":
            selector = self._locate(action.element)[1] if action.element is not None else None
            x = action.x if action.x is not None else self.viewport["width"] / 2
            y = action.y if action.y is not None else self.viewport["height"] / 2
            page.evaluate(_SCROLL_JS, [selector, x, y, action.dx, action.dy])
        elif action.kind == "click" and action.element is None:
            self._click_at(action.x or 0.0, action.y or 0.0)
        elif action.element is not None:
            element = self._locate(action.element)[0]
            if action.kind == "click":
                element.click()
            elif action.kind == "type":
                element.fill(action.text or "")
            elif action.kind == "select":
                element.select_option(action.text or "")
            elif action.kind == "check":
                element.check()
            elif action.kind == "uncheck":
                element.uncheck()
        page.wait_for_load_state("load")

    def _locate(self, number: int) -> tuple[Locator, str]:
        selector = f'[{ELEMENT_ID_ATTRIBUTE}="{number}"]'
        element = self.page.locator(selector)
        if element.count() == 0:
            raise ActionError(f"no element [{number}] on this page; use a number from the latest axtree")
        if not element.is_visible():
            raise ActionError(f"element [{number}] is not visible now")
        return element, selector

    def _click_at(self, x: float, y: float) -> None:
        width, height = self.viewport["width"], self.viewport["height"]
        if not (0 <= x < width and 0 <= y < height):
            raise ActionError(f"({x:g}, {y:g}) is outside the {width}x{height} screenshot")
        number = self.page.evaluate(_ELEMENT_AT_JS, [x, y])
        if number is None:
            self.page.mouse.click(x, y)
            return
        # Through the element, so Playwright waits for a link's or a form's navigation as for a click by number.
        element = self._locate(int(number))[0]
        box = element.bounding_box()
        if box is None:
            raise ActionError(f"the element at ({x:g}, {y:g}) is not visible now")
        element.click(position={"x": x - box["x"], "y": y - box["y"]})

    def _back(self) -> None:
        self.page.go_back()
        if self._relative_url() is None:
            self.page.go_forward()
            raise ActionError("back: there is no earlier page in this episode")

    def _page_url(self, url: str) -> str:
        parts = urlsplit(url)
        segments = [unquote(segment) for segment in parts.path.split("/")[1:]]
        refusal = None
        if parts.scheme or parts.netloc or not url.startswith("/") or "\\" in url:
            refusal = "give a path of this app starting with /, e.g. / or /customer/"
        elif any(segment in (".", "..") for segment in segments):
            refusal = "the path may not contain . or .. segments"
        elif segments and segments[0] and segments[0] not in self.sections:
            sections = ", ".join(f"/{name}/" for name in sorted(self.sections))
            refusal = f"not a page of this app; pages are / and under {sections}"
        if refusal is not None:
            raise ActionError(f"navigate {url!r}: {refusal}")
        return f"{self.origin}{self.base}{url}"

    def _relative_url(self) -> str | None:
        """The page's path within the episode (`/customer/CUS-1`), or None when the page is not one of its pages."""
        parts = urlsplit(self.page.url)
        if f"{parts.scheme}://{parts.netloc}" != self.origin or not parts.path.startswith(f"{self.base}/"):
            return None
        path = parts.path.removeprefix(self.base)
        return f"{path}?{parts.query}" if parts.query else path

    def _observe(self) -> dict[str, Any]:
        png = self.page.screenshot(type="png", animations="disabled")
        screenshot = np.array(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.uint8)
        self._observation = {
            "screenshot": screenshot,
            "axtree": accessibility_text(self.page),
            "url": self._relative_url() or self.page.url,
        }
        return {**self._observation, "screenshot": screenshot.copy()}

    def _info(self) -> dict[str, Any]:
        assert self.episode is not None
        return {
            "task_id": self.episode.task_id,
            "app": self.app,
            "step": self.steps,
            "tool_calls": [
                {"name": name, "arguments": dict(arguments), "ok": ok} for name, arguments, ok in self.episode.calls
            ],
        }

    def _finish(self, answer: str | None, info: dict[str, Any]) -> float:
        verdict = self._verdict(answer)
        self.ended = True
        info["verdict"] = verdict.model_dump(mode="json")
        return verdict.reward

    def _verdict(self, answer: str | None) -> Verdict:
        assert self.episode is not None and self.episode.task_id is not None
        transcript = self.episode.transcript(answer)
        return self.package.verify(self.episode.task_id, self.episode.session.history(), transcript)


def _first_line(error: Exception) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__
