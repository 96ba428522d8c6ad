"""The bet lane: POST /api/tables/{table}/bets answered without the framework's per-request machinery.

Measured (docs/performance.md): FastAPI's routing, dependency solving and response validation cost more
than the bet itself, and so did the middleware layers the lane used to sit under (FastAPI's own three, the
edge's). `App` is the FastAPI application with the lane in front of all of it: the outermost ASGI callable
uvicorn calls. The lane takes only the plain case and hands everything else, untouched, to the full
application, which gives the usual answer and error document:

  - a bearer session (from the cache, or looked up in a worker thread as the endpoint does) of a player;
    a cookie session (CSRF) or no session at all goes on;
  - a configured table (so the path holds no control character), no query string, no root path;
  - an Idempotency-Key the edge accepts (1-128 visible ASCII characters), a JSON Content-Type, no Origin
    header (the edge's cross-site check), none of these headers twice;
  - a body within the edge's cap (a Content-Length over it, or a chunked body counted past it, goes on
    before the rest is read: the edge answers 413), without NUL (raw or escaped), that the same pydantic
    model accepts, parsed by pydantic-core from the raw bytes;
  - no OpenTelemetry configured for FastAPI (its spans would miss the lane's requests).

What the edge adds to every answer is added here from the same function (`security.with_security_headers`,
computed once), the refusal is the same error document, and an unexpected error is answered by Starlette's
own ServerErrorMiddleware as the stack would. The idempotency fingerprint is computed by the endpoint's
function on the same payload, so a retry may take either path.
"""

from __future__ import annotations

import re
import time
from typing import Any

from fastapi import FastAPI
from pydantic import ValidationError
from starlette.middleware.errors import ServerErrorMiddleware

from tapete.core.errors import TapeteError
from tapete.server.http.fanout import dumps
from tapete.server.http.models import BetsIn
from tapete.server.http.security import (
    MAX_IDEMPOTENCY_KEY,
    fingerprint,
    read_body,
    replay_body,
    with_security_headers,
)
from tapete.server.http.status import STATUS

PATH = re.compile(r"/api/tables/([^/]+)/bets")
KEY = re.compile(rb"[\x21-\x7e]{1,%d}" % MAX_IDEMPOTENCY_KEY)
WATCHED = frozenset({b"authorization", b"idempotency-key", b"content-type", b"content-length", b"origin"})
TELEMETRY_CHECK_S = 1.0      # how often the lane asks whether FastAPI's OpenTelemetry has been configured


class App(FastAPI):
    """FastAPI with the bet lane in front of its whole middleware stack (create_app sets `lane`)."""

    lane: BetLane | None = None
    forwarder: Any = None        # routing.Router on a cluster node: table writes it does not own go to the owner
    metrics: Any = None          # metrics.Metrics: every answer counted, the lane's included

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if self.metrics is not None:
            await self.metrics.observe(scope, receive, send, self._dispatch)
            return
        await self._dispatch(scope, receive, send)

    async def _dispatch(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if self.forwarder is not None and scope["type"] == "http":
            await self.forwarder(scope, receive, send, self._here)
            return
        await self._here(scope, receive, send)

    async def _here(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        lane = self.lane
        if lane is not None and scope["type"] == "http" and scope["method"] == "POST":
            await lane(scope, receive, send)
            return
        await FastAPI.__call__(self, scope, receive, send)


class BetLane:
    def __init__(self, app: FastAPI, server: Any, max_body: int) -> None:
        self.app = app
        self.server = server
        self.specs = server.service.specs
        self.auth = server.auth
        app_cap = getattr(app, "max_body_size", None)      # FastAPI's own cap, when one is set
        self.max_body = max_body if app_cap is None else min(max_body, app_cap)
        # The headers the edge adds after the endpoint's Content-Length and Content-Type, once.
        self.tail = with_security_headers([(b"content-length", b"0"), (b"content-type", b"application/json")], "")[1:]
        self._telemetry = getattr(app, "_native_telemetry", None)
        self._traced, self._traced_until = False, 0.0

    async def full(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await FastAPI.__call__(self.app, scope, receive, send)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        found = PATH.fullmatch(scope["path"])
        head = self._head(scope, found.group(1)) if found is not None else None
        if head is None:
            await self.full(scope, receive, send)
            return
        token, key = head
        user = self.auth.cached(token)
        if user is not None and not user.plays():
            await self.full(scope, receive, send)
            return
        read = await read_body(receive, self.max_body)
        if read is None:
            return                                     # the client went away
        body, more = read
        if len(body) > self.max_body:                  # the edge answers 413 without reading the rest
            await self.full(scope, replay_body(body, receive, more), send)
            return
        model = self._model(body)
        if model is not None and user is None:         # not in the cache: looked up as the endpoint does
            import anyio.to_thread

            try:
                user = await anyio.to_thread.run_sync(self.auth.authenticate, token)
            except TapeteError:
                user = None
            if user is not None and not user.plays():
                user = None
        if model is None or user is None:              # not the plain case: the endpoint answers
            await self.full(scope, replay_body(body, receive), send)
            return
        dumped = model.model_dump()     # the JSON types only: the same as mode="json", the endpoint's payload
        items = dumped["bets"]
        idem = (f"{user.username}:{key}", fingerprint("POST", scope["path"], dumped))
        table_id = found.group(1)                      # type: ignore[union-attr]
        try:
            # the player's limits and exclusion first (players/care.py: a dictionary look-up when he has none)
            status, payload = 200, dumps(await self.server.care.bet(table_id, user.username, items, idem,
                                                                    self.server.writers.bet))
        except TapeteError as exc:
            status, payload = STATUS.get(exc.code, 422), dumps(exc.document())
        except Exception as exc:                       # noqa: BLE001 - answered as the stack's outermost layer does
            await self._server_error(scope, receive, send, exc)
            raise
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-length", b"%d" % len(payload)), *self.tail]})
        await send({"type": "http.response.body", "body": payload})

    def _head(self, scope: dict[str, Any], table_id: str) -> tuple[str, str] | None:
        """The session token and Idempotency-Key of a plain request, from the URL and headers alone; None
        when the request is not the lane's."""
        if table_id not in self.specs or scope.get("query_string") or scope.get("root_path") or self._traced_now():
            return None
        seen: dict[bytes, bytes] = {}
        for name, value in scope["headers"]:
            if name in WATCHED:
                if name in seen:
                    return None                        # a repeated header: which one counts is the stack's to say
                seen[name] = value
        if b"origin" in seen:
            return None                                # the edge's cross-site check
        authorization, key = seen.get(b"authorization", b""), seen.get(b"idempotency-key")
        kind, length = seen.get(b"content-type", b"").lower(), seen.get(b"content-length")
        if key is None or KEY.fullmatch(key) is None or authorization[:7].lower() != b"bearer ":
            return None
        if kind != b"application/json" and not kind.startswith(b"application/json;"):
            return None
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return None                                # the edge answers 413 before reading the body
        return authorization.decode("latin-1").split(" ", 1)[1].strip(), key.decode("latin-1")

    @staticmethod
    def _model(body: bytes) -> BetsIn | None:
        if b"\x00" in body or b"\\u0000" in body:      # the edge refuses a NUL (PostgreSQL's text holds none)
            return None
        try:
            return BetsIn.model_validate_json(body)
        except ValidationError:
            return None

    def _traced_now(self) -> bool:
        """Whether FastAPI's native OpenTelemetry is on (then every request goes through FastAPI)."""
        if self._telemetry is None:
            return False
        now = time.monotonic()
        if now >= self._traced_until:
            self._traced, self._traced_until = bool(self._telemetry.enabled()), now + TELEMETRY_CHECK_S
        return self._traced

    async def _server_error(self, scope: dict[str, Any], receive: Any, send: Any, exc: Exception) -> None:
        """The answer FastAPI's outermost layer gives an unhandled exception (it re-raises it for the log)."""
        handlers = self.app.exception_handlers
        handler = handlers.get(500, handlers.get(Exception))

        async def failing(*_: Any) -> None:
            raise exc

        try:
            await ServerErrorMiddleware(failing, handler=handler, debug=self.app.debug)(scope, receive, send)
        except Exception as again:                    # noqa: BLE001 - the caller re-raises the original
            if again is not exc:
                raise
