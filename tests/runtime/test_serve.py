"""The servers' listening socket: every accepted connection sends its answers without waiting (TCP_NODELAY)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from envforge.errors import UserInputError
from envforge.runtime.serve import bind_listener


def test_connections_accepted_by_asyncio_on_the_listener_have_nagle_turned_off() -> None:
    listener = bind_listener("127.0.0.1", 0)
    port = listener.getsockname()[1]

    async def accepted_nodelay() -> int:
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def on_connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            accepted = writer.get_extra_info("socket")
            seen.set_result(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(on_connection, sock=listener)
        async with server:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            value = await asyncio.wait_for(seen, timeout=10)
            writer.close()
            return value

    assert asyncio.run(accepted_nodelay()) != 0


def test_a_port_in_use_is_a_one_line_error_naming_the_address() -> None:
    taken = bind_listener("127.0.0.1", 0)
    port = taken.getsockname()[1]
    try:
        with pytest.raises(UserInputError) as info:
            bind_listener("127.0.0.1", port)
        assert str(info.value).startswith(f"cannot listen on 127.0.0.1:{port}: ")
        assert "pick another --host or --port" in str(info.value)
    finally:
        taken.close()
