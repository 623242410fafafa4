"""What can go wrong when talking to a model, sorted by whose fault it is."""

from __future__ import annotations

from envforge.errors import EnvforgeError, UserInputError


class InfrastructureError(EnvforgeError):
    """The endpoint failed (connection refused, timeout, 5xx, server died) after every retry.

    Not the model's fault: an episode that ends on it is retried, and never scored as reward 0.
    """

    def __init__(self, message: str, kind: str = "connection") -> None:
        super().__init__(message)
        self.kind = kind
        """`connection`, `timeout`, `http_error` or `bad_request`: a stable code for failure reports."""


class ContextLimitError(EnvforgeError):
    """The conversation no longer fits the model's context window (the server answered 400)."""


class CacheMissError(UserInputError):
    """Replay-only mode met a request that was never recorded."""
