"""Idempotent requests: a retried request (same Idempotency-Key, same body) answers the first one's recorded
response; the same key with another body is refused. Shared by the tables and the cage (below both)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from tapete.core.errors import TapeteError
from tapete.server.storage.db import idempotency


class Replay(Exception):  # noqa: N818 - control flow: an idempotent request seen before
    def __init__(self, status: int, response: Any) -> None:
        self.status = status
        self.response = response


def check_idempotency(conn: Connection, idem: tuple[str, str]) -> None:
    found = conn.execute(select(idempotency).where(idempotency.c.key == idem[0])).mappings().first()
    if found is None:
        return
    if found["fingerprint"] != idem[1]:
        raise TapeteError("idempotency-key-reused", "this Idempotency-Key was used for a different request")
    raise Replay(found["status"], found["response"])
