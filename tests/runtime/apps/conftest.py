"""Browser fixtures for the app tests."""

from tests.browser import chromium, page  # noqa: F401  (pytest fixtures)
