"""The server's sockets, bounded (issue 26, item 11): what `tapete serve` gives uvicorn.

uvicorn arms no timer on a fresh connection (its keep-alive timer starts after a first response, and any byte
cancels it), so about 1,100 sockets that connect and say nothing held every file descriptor of a process under a
1,024-file limit, and the server accepted nobody else. Here:

- **head deadline**: a connection sends a complete request head within `header_timeout_s` of connecting or of its
  last response — bytes dribbled one at a time do not extend it — and at most MAX_HEAD_BYTES of it; else closed;
- **body deadline**: once the head is in, the body arrives within `body_timeout_s`;
- **a cap on connections** below the open-file limit (`max_connections`, default the soft limit less a reserve for
  the database and files): past it, a new connection closes the oldest *idle* one (no request in progress:
  waiting for a head, or kept alive between requests), else is itself closed — a normal request is always
  accepted while idle sockets are what fills the process;
- `tapete serve` raises the soft open-file limit to the hard one (at most 65,536) first;
- **WebSocket messages** at most WS_MAX_SIZE bytes (the streams read only "ping": uvicorn's default was 16 MiB a
  frame; a larger one closes the socket with 1009), at most WS_MAX_QUEUE of them waiting.
"""

from __future__ import annotations

import asyncio
import resource
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from tapete.server.config import Security

MAX_HEAD_BYTES = 64 * 1024
WS_MAX_SIZE = 16 * 1024
WS_MAX_QUEUE = 8
FILE_LIMIT_WANTED = 65_536


def raise_file_limit() -> int:
    """The soft open-file limit raised to the hard one (at most FILE_LIMIT_WANTED); the limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FILE_LIMIT_WANTED if hard == resource.RLIM_INFINITY else min(hard, FILE_LIMIT_WANTED)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return FILE_LIMIT_WANTED if soft == resource.RLIM_INFINITY else soft


def connection_cap(security: Security, file_limit: int) -> int:
    """Open connections allowed: the configured number, else the open-file limit less a reserve (an eighth, at least
    64: the database's connections, the log, the templates)."""
    if security.max_connections:
        return security.max_connections
    return max(16, file_limit - max(64, file_limit // 8))


def uvicorn_settings(security: Security) -> dict[str, Any]:
    """The keyword arguments of `uvicorn.run` that bound the sockets (the caller adds host, port, logging)."""
    cap = connection_cap(security, raise_file_limit())
    protocol = type("GuardedHTTP", (GuardedHTTP, AutoHTTPProtocol), {
        "HEAD_TIMEOUT_S": security.header_timeout_s, "BODY_TIMEOUT_S": security.body_timeout_s, "CAP": cap})
    return {"http": protocol, "ws_max_size": WS_MAX_SIZE, "ws_max_queue": WS_MAX_QUEUE, "timeout_keep_alive": 5,
            "h11_max_incomplete_event_size": MAX_HEAD_BYTES}     # h11 (where httptools is missing) bounds it too


class GuardedHTTP:
    """A mixin over uvicorn's HTTP protocol (httptools, else h11): the deadlines and the cap of the docstring."""

    HEAD_TIMEOUT_S = 10.0
    BODY_TIMEOUT_S = 30.0
    CAP = 1_000

    # attributes of uvicorn's protocol this mixin uses
    loop: asyncio.AbstractEventLoop
    connections: set[Any]
    transport: asyncio.Transport
    cycle: Any
    pipeline: Any = ()            # httptools queues pipelined requests here; h11 has none (this default)

    def connection_made(self, transport: asyncio.Transport) -> None:
        self._deadline: asyncio.TimerHandle | None = None
        self._head_bytes = 0                            # >= 0: waiting for a head (bytes of it so far)
        self._body_done = False
        self._opened = self.loop.time()
        super().connection_made(transport)  # type: ignore[misc]
        self._arm(self.HEAD_TIMEOUT_S)
        if len(self.connections) > self.CAP:
            self._make_room()

    def data_received(self, data: bytes) -> None:
        waiting = self._head_bytes >= 0
        super().data_received(data)  # type: ignore[misc]
        if waiting and self._head_bytes >= 0:           # still no complete head (a read holds at most 256 KiB)
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._close()

    def on_headers_complete(self) -> None:              # httptools
        self._head_in()
        super().on_headers_complete()  # type: ignore[misc]

    def on_message_complete(self) -> None:              # httptools: the body is in
        self._body_in()
        super().on_message_complete()  # type: ignore[misc]

    def handle_events(self) -> None:                    # h11: the head is in once a cycle exists, the body
        super().handle_events()  # type: ignore[misc]   # once it says no more
        if self._head_bytes >= 0 and self.cycle is not None and not self.cycle.response_complete:
            self._head_in()
        if self._head_bytes < 0 and not self._body_done and self.cycle is not None and not self.cycle.more_body:
            self._body_in()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if self.transport.is_closing() or self.pipeline:
            return
        if self._body_done:
            self._await_head()
        else:                                           # answered early (413): the rest of the body, still bounded
            self._arm(self.BODY_TIMEOUT_S)

    def handle_websocket_upgrade(self, *args: Any) -> None:
        self._disarm()
        super().handle_websocket_upgrade(*args)  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    # -- the deadlines and the cap ----------------------------------------------------------------------
    def _head_in(self) -> None:
        self._head_bytes, self._body_done = -1, False
        self._arm(self.BODY_TIMEOUT_S)

    def _body_in(self) -> None:
        self._body_done = True
        self._disarm()
        if self.cycle is not None and self.cycle.response_complete and not self.pipeline:
            self._await_head()                          # the answer went first: the next head, from now

    def _await_head(self) -> None:
        self._head_bytes = 0
        self._arm(self.HEAD_TIMEOUT_S)

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._close)

    def _disarm(self) -> None:
        if getattr(self, "_deadline", None) is not None:
            self._deadline.cancel()  # type: ignore[union-attr]
            self._deadline = None

    def _close(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.close()

    def idle(self) -> bool:
        """No request in progress: waiting for a head (the first, or the next one kept alive)."""
        return self._head_bytes >= 0 and (self.cycle is None or self.cycle.response_complete) and not self.pipeline

    def _make_room(self) -> None:
        idle = [c for c in self.connections if isinstance(c, GuardedHTTP) and c is not self and c.idle()
                and not c.transport.is_closing()]
        if idle:
            min(idle, key=lambda c: c._opened)._close()
        else:
            self._close()
