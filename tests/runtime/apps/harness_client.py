"""What app-server tests send as the harness: its token, and a new episode through the state API."""

from __future__ import annotations

from starlette.testclient import TestClient

TOKEN = "harness-secret"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def new_episode(client: TestClient, task_id: str | None = None) -> dict[str, str]:
    """An episode for `task_id`, or a free one (no task, no person) without it."""
    response = client.post("/harness/episodes", json={"task": task_id} if task_id else {"free": True}, headers=AUTH)
    assert response.status_code == 201, response.text
    episode: dict[str, str] = response.json()
    return episode
