"""MCP client configuration: the `mcpServers` JSON that MCP hosts read to start a server."""

from __future__ import annotations

import json

from envforge.exporters.wheels_names import distribution_name
from envforge.runtime.episode import EnvPackage


def server_entry(package: EnvPackage) -> dict[str, object]:
    """Start the installed environment wheel's stdio server (`pip install 'envforge-env-<domain>[mcp]'`)."""
    return {"command": distribution_name(package.env.blueprint.domain), "args": []}


def render_mcp_config(packages: list[EnvPackage]) -> bytes:
    servers = {distribution_name(package.env.blueprint.domain): server_entry(package) for package in packages}
    return (json.dumps({"mcpServers": servers}, indent=2, sort_keys=True) + "\n").encode()
