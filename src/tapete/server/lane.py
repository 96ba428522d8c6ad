"""The bet lane: POST /api/tables/{table}/bets answered without the framework's per-request machinery.

Measured (docs/performance.md): FastAPI's routing, dependency solving and response validation cost more
than the bet itself. This pure-ASGI middleware sits inside the edge middleware (body cap, NUL and origin
checks, security headers all still apply) and takes only the plain case: a bearer session already in the
cache, a player, a known table, an Idempotency-Key, a body the same pydantic model accepts. Anything else
(a cookie session and its CSRF check, a session to look up, a body the model refuses, ...) goes on to the
FastAPI endpoint unchanged, which gives the usual answer and error document. The idempotency fingerprint is
computed exactly as the endpoint does, so a retry may take either path.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from tapete.core.errors import TapeteError
from tapete.server.fanout import dumps
from tapete.server.models import BetsIn
from tapete.server.security import fingerprint, replay_body

PATH = re.compile(r"^/api/tables/([^/]+)/bets$")


class BetLane:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope.get("root_path"):
            await self.app(scope, receive, send)
            return
        found = PATH.match(scope["path"])
        if found is None:
            await self.app(scope, receive, send)
            return
        server = scope["app"].state.server if "app" in scope else None
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return                                 # the client went away
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        lane = self._plain(server, scope, found.group(1), body) if server is not None else None
        if lane is None:                               # not the plain case: the endpoint answers
            await self.app(scope, replay_body(body, receive), send)
            return
        table_id, user, items, idem = lane
        try:
            queued = server.service.batches.submit(table_id, user, items, idem)
            server.drain(table_id)
            import asyncio

            status, payload = 200, dumps(await asyncio.wrap_future(queued.future))
        except TapeteError as exc:
            from tapete.server.app import STATUS

            status, payload = STATUS.get(exc.code, 422), dumps(exc.document())
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
        await send({"type": "http.response.body", "body": payload})

    @staticmethod
    def _plain(server: Any, scope: dict[str, Any], table_id: str, body: bytes) -> tuple[str, str, list[dict[str, Any]], tuple[str, str]] | None:
        headers = dict(scope.get("headers", ()))
        authorization = headers.get(b"authorization", b"").decode("latin-1")
        key = headers.get(b"idempotency-key", b"").decode("latin-1")
        if not key or not authorization.lower().startswith("bearer ") or table_id not in server.service.specs:
            return None
        user = server.auth.cached(authorization.split(" ", 1)[1].strip())
        if user is None or not user.has("player"):
            return None
        try:
            model = BetsIn.model_validate_json(body)
        except ValidationError:
            return None
        digest = fingerprint("POST", scope["path"], model.model_dump(mode="json"))
        return table_id, user.username, [b.model_dump() for b in model.bets], (f"{user.username}:{key}", digest)
