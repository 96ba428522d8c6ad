"""Writes routed to the table's owner (issue 33): a cluster node forwards a table write it does not own.

A state-changing request under `/api/tables/{table}/` (a bet, a croupier's open/close/draw, a chief's limits)
reaching a node that does not own the table is sent on, as it came (method, path, query, headers — the
session, the CSRF token, the Idempotency-Key — and body), to the owner's address from the casino file, and
the owner's answer is relayed with `X-Tapete-Owner`. It is never written here: one writer per table, so the
owner's cached state stays valid and no two processes wait on the table's row lock. Forwarding rather than
redirecting (docs/scaling.md): the nodes' addresses stay private behind the front, a browser's cookie and
Origin stay those of the casino's one address, and a WebSocket or a retrying client needs nothing new.

While a table has no owner (its owner died and no node has taken it yet, at most `cluster.takeover_s`) the
request waits and is retried; a request the owner may have received before dying is retried only with its
Idempotency-Key (the owner's idempotency record answers a replay), otherwise 502 says the outcome is unknown.
A forwarded request that finds ownership moved is answered 503 `table-moving` to its forwarder, which looks
again: never forwarded twice.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any
from urllib.parse import urlsplit

from tapete.core.errors import TapeteError
from tapete.server.http.fanout import dumps
from tapete.server.http.security import replay_body
from tapete.server.http.status import STATUS

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
FORWARDED = b"x-tapete-forwarded"
HOP = frozenset({b"connection", b"keep-alive", b"transfer-encoding", b"te", b"upgrade", b"proxy-connection",
                 b"content-length", b"trailer", FORWARDED})


class Router:
    """In front of the bet lane and the application (lane.App): decides, per request, here or the owner."""

    def __init__(self, server: Any, max_body: int) -> None:
        self.server = server
        self.ownership = server.ownership
        self.specs = server.service.specs
        self.node = self.ownership.me.name
        self.takeover_s = server.config.cluster.takeover_s
        self.max_body = max_body
        self.peers = {urlsplit(a).hostname for a in self.ownership.addresses.values()}
        self.counts = {"forwarded": 0, "received": 0, "moving": 0, "unowned": 0}
        self._client: Any = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any, inner: Any) -> None:
        table_id = self._table(scope)
        if table_id is None:
            await inner(scope, receive, send)
            return
        came_from = self._forwarded_by(scope)
        self.ownership.saw(table_id, came_from)
        if table_id in self.ownership.owned:
            if came_from is not None:
                self.counts["received"] += 1
            await inner(scope, receive, send)
            return
        body, over, more = await self._read(receive)
        if body is None:
            return                                    # the client went away
        if over:                                      # over the cap: the edge answers 413 here, as it would
            await inner(scope, replay_body(body, receive, more), send)
            return
        if came_from is not None:                     # the forwarder looks again: never a second hop
            self.counts["moving"] += 1
            self.ownership.refresh()
            await self._refuse(send, TapeteError("table-moving", f"table {table_id} is changing hands: retry"))
            return
        await self._forward(scope, body, send, table_id, inner, receive)

    def _table(self, scope: dict[str, Any]) -> str | None:
        if scope["type"] != "http" or scope["method"] not in WRITES:
            return None
        parts = scope["path"].split("/", 4)           # '', 'api', 'tables', id, rest
        if len(parts) < 5 or parts[1] != "api" or parts[2] != "tables" or parts[3] not in self.specs:
            return None
        return parts[3]

    def _forwarded_by(self, scope: dict[str, Any]) -> str | None:
        """The node that forwarded this request (honoured only from a cluster node's address)."""
        for name, value in scope["headers"]:
            if name == FORWARDED:
                client = scope.get("client")
                if client and client[0] in self.peers:
                    return value.decode("latin-1")
        return None

    async def _read(self, receive: Any) -> tuple[bytes | None, bool, bool]:
        """(the body, over the cap, more to read)."""
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None, False, False
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                return bytes(body), True, more
            if not more:
                return bytes(body), False, False

    async def _forward(self, scope: dict[str, Any], body: bytes, send: Any, table_id: str, inner: Any,
                       receive: Any) -> None:
        import httpx

        if self._client is None:
            # an owner that does not answer within the takeover time is presumed gone (a keyed request is retried)
            self._client = httpx.AsyncClient(timeout=httpx.Timeout(self.takeover_s, connect=1.0),
                                             limits=httpx.Limits(max_keepalive_connections=64))
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in HOP]
        keyed = any(k.lower() == b"idempotency-key" for k, _ in headers)
        client = scope.get("client")
        if client:
            headers = [(k, v) for k, v in headers if k.lower() != b"x-forwarded-for"] + [
                (b"x-forwarded-for", ", ".join(filter(None, [self._xff(scope), client[0]])).encode())]
        headers.append((FORWARDED, self.node.encode()))
        target = scope["path"] + (f"?{scope['query_string'].decode('latin-1')}" if scope.get("query_string") else "")
        deadline = time.monotonic() + self.takeover_s + 5
        while True:
            if table_id in self.ownership.owned:      # taken over here meanwhile: written here, as the owner
                await inner(scope, replay_body(body, receive), send)
                return
            owner = self.ownership.owner_of(table_id)
            if owner is not None and owner != self.node:
                try:
                    request = self._client.build_request(scope["method"], self.ownership.addresses[owner] + target,
                                                         headers=headers, content=body)
                    answer = await self._client.send(request)
                    content = await answer.aread()
                except (httpx.ConnectError, httpx.ConnectTimeout):
                    pass                      # never reached the owner: looked up again and sent again
                except httpx.HTTPError:
                    if not keyed:             # it may have been written: only a keyed request is sent again
                        await self._refuse(send, TapeteError(
                            "owner-lost", f"table {table_id}: its owner went away during the request; its outcome "
                            "is unknown — send it again with an Idempotency-Key to learn it"))
                        return
                else:
                    if not (answer.status_code == 503 and b'"table-moving"' in content):
                        self.counts["forwarded"] += 1
                        await self._relay(send, answer, content, owner)
                        return
            self.ownership.refresh()
            if time.monotonic() > deadline:
                self.counts["unowned"] += 1
                await self._refuse(send, TapeteError("table-unowned", f"table {table_id} has no live owner: retry "
                                                     "in a few seconds"))
                return
            await asyncio.sleep(0.1)

    @staticmethod
    def _xff(scope: dict[str, Any]) -> str:
        for k, v in scope["headers"]:
            if k.lower() == b"x-forwarded-for":
                return v.decode("latin-1")
        return ""

    @staticmethod
    async def _relay(send: Any, answer: Any, content: bytes, owner: str) -> None:
        headers = [(k.lower(), v) for k, v in answer.headers.raw if k.lower() not in HOP]
        headers += [(b"content-length", b"%d" % len(content)), (b"x-tapete-owner", owner.encode())]
        await send({"type": "http.response.start", "status": answer.status_code, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    @staticmethod
    async def _refuse(send: Any, exc: TapeteError) -> None:
        payload = dumps(exc.document())
        await send({"type": "http.response.start", "status": STATUS.get(exc.code, 503),
                    "headers": [(b"content-length", b"%d" % len(payload)), (b"content-type", b"application/json"),
                                (b"retry-after", b"1")]})
        await send({"type": "http.response.body", "body": payload})

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
