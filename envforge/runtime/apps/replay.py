"""Running a golden UI path in a real browser page (Playwright's sync API), step by step."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from envforge.errors import EnvforgeError
from envforge.ir.uitasks import UIStep

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage, Page, Response

STEP_TIMEOUT_MS = 10_000


class ReplayError(EnvforgeError):
    """A step could not be done: its element is missing, hidden, or the page did not load."""

    def __init__(self, index: int, step: UIStep, reason: str) -> None:
        super().__init__(f"step {index + 1} ({step.action} {step.target}): {reason}")
        self.index = index
        self.step = step


def run_step(page: Page, step: UIStep, timeout_ms: int = STEP_TIMEOUT_MS) -> str | None:
    """Do one step; a `read` step returns the element's visible text."""
    element = page.get_by_test_id(step.target)
    if step.action == "click":
        if step.navigates:
            with page.expect_navigation(timeout=timeout_ms, wait_until="domcontentloaded"):
                element.click(timeout=timeout_ms)
        else:
            element.click(timeout=timeout_ms)
        return None
    if step.action == "fill":
        element.fill(step.value or "", timeout=timeout_ms)
    elif step.action == "select":
        if element.evaluate("node => node.tagName", timeout=timeout_ms) == "SELECT":
            element.select_option(step.value or "", timeout=timeout_ms)
        else:
            # A picker, a group of radios: the one whose accessible name is the row's label.
            element.get_by_role("radio", name=step.value or "", exact=True).check(timeout=timeout_ms)
    elif step.action == "check":
        element.check(timeout=timeout_ms)
    elif step.action == "uncheck":
        element.uncheck(timeout=timeout_ms)
    elif step.action == "read":
        return element.inner_text(timeout=timeout_ms).strip()
    return None


def run_steps(
    page: Page,
    steps: Sequence[UIStep],
    *,
    timeout_ms: int = STEP_TIMEOUT_MS,
    after_step: Callable[[int, UIStep], None] | None = None,
) -> str | None:
    """Do every step in order on a page already at the app's home; returns the last `read` step's text."""
    from playwright.sync_api import Error

    answer: str | None = None
    for index, step in enumerate(steps):
        try:
            read = run_step(page, step, timeout_ms)
        except Error as error:
            raise ReplayError(index, step, str(error).strip().splitlines()[0]) from None
        if read is not None:
            answer = read
        if after_step is not None:
            after_step(index, step)
    return answer


def watch(page: Page) -> list[str]:
    """A list that fills with what goes wrong on `page` from now on: console errors, uncaught exceptions,
    failed requests and HTTP errors, one line each."""
    problems: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"console error: {message.text} ({message.location.get('url', '')})")

    def response(answer: Response) -> None:
        if answer.status >= 400:
            problems.append(f"HTTP {answer.status}: {answer.request.method} {answer.url}")

    page.on("console", console)
    page.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))
    page.on(
        "requestfailed", lambda request: problems.append(f"failed: {request.method} {request.url}: {request.failure}")
    )
    page.on("response", response)
    return problems
