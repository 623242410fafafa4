"""The browser fixtures, and the measured browser timings printed in the terminal summary (no -s needed)."""

from __future__ import annotations

import pytest

from tests.browser import chromium, page  # noqa: F401  (pytest fixtures)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for report in terminalreporter.stats.get("passed", []):
        if isinstance(report, pytest.TestReport) and report.when == "call" and "browser_check" in report.nodeid:
            timings = ", ".join(f"{name} {value}" for name, value in report.user_properties)
            if timings:
                terminalreporter.write_line(f"{report.nodeid}: {timings}")
