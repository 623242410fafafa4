"""Run by a Python that has mcp 1.x: talk to `envforge serve --transport stdio` with mcp 1.x's own client.

Prints one JSON line with what it saw, for tests/runtime/test_mcp_v1.py to assert on.
"""

from __future__ import annotations

import json
import sys

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main(package: str) -> None:
    command = [sys.executable, "-m", "envforge.cli.app", "serve", package, "--transport", "stdio"]
    params = StdioServerParameters(command=command[0], args=command[1:])
    async with stdio_client(params) as (incoming, outgoing), ClientSession(incoming, outgoing) as session:
        initialized = await session.initialize()
        tools = (await session.list_tools()).tools
        listing = await session.call_tool("list_orders", {"status": "pending", "limit": 1})
        order = listing.structuredContent["items"][0]
        lines = await session.call_tool("list_order_items", {"order_id": order["order_id"], "limit": 1})
        item = lines.structuredContent["items"][0]
        # A rule the runtime keeps (max_quantity), asked while the order is still pending.
        refused = await session.call_tool("change_item_quantity", {"item_id": item["item_id"], "quantity": 11})
        write = await session.call_tool("cancel_order", {"order_id": order["order_id"], "reason": "other"})
        read = await session.call_tool("get_order", {"order_id": order["order_id"]})
    print(
        json.dumps(
            {
                "instructions": initialized.instructions,
                "tools": len(tools),
                "write_error": write.isError,
                "status_after_write": read.structuredContent["status"],
                "refused_error": refused.isError,
                "refused": json.loads(refused.content[0].text),
                "refused_structured": refused.structuredContent,
            }
        )
    )


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
