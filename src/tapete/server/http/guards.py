"""Who may call a route, and a request's idempotency key: the checks the route modules share (app.py, the
jornada's, the disputes'), written once so that a role is refused in the same words wherever it is refused.
Who *sees* what is decided elsewhere (tables/visibility.py); these decide who may *do* what.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Header, Request

from tapete.core.errors import TapeteError
from tapete.server.http import security
from tapete.server.http.auth import User

IdemKey = Annotated[str | None, Header(alias="Idempotency-Key", max_length=security.MAX_IDEMPOTENCY_KEY)]


def need(user: User, *roles: str) -> None:
    """One of these roles, or 403."""
    if not user.has(*roles):
        raise TapeteError("forbidden", f"{user.username} is not {' or '.join(roles)}")


def staff(user: User, table: str, *roles: str) -> None:
    """One of these roles, working this table (a chief restricted to some tables works no other), or 403."""
    need(user, *roles)
    if not user.works(table):
        raise TapeteError("forbidden", f"{user.username} does not work table {table}")


def table_staff(service: Any, user: User, table: str, *roles: str) -> None:
    """A table's staff route: the table exists (404 before any 403), then `staff`."""
    service.spec(table)
    staff(user, table, *roles)


def casino_wide(user: User, *roles: str) -> None:
    """A report over every table: staff who work every table (no `tables` list), or the inspector."""
    need(user, *roles)
    if user.tables is not None and not user.has("inspector"):
        raise TapeteError("forbidden", f"{user.username} works only tables {', '.join(user.tables)}")


def cashier_for(user: User, username: str) -> None:
    """The cashier moves money for others: never to or from his own wallet, never from an account that plays."""
    need(user, "cashier")
    if user.has("player") or username == user.username:
        raise TapeteError("forbidden", "a cashier never moves money to or from his own wallet")


def idem(user: User, key: str | None, request: Request, body: Any, required: bool = True) -> tuple[str, str] | None:
    """The request's key, scoped to its user, and the fingerprint of what it asks (the same key with another
    body is refused); a request that moves money must carry one."""
    if not key:
        if required:
            raise TapeteError("idempotency-key-required", "a request that moves money needs an Idempotency-Key header")
        return None
    payload = body.model_dump(mode="json") if hasattr(body, "model_dump") else body
    return f"{user.username}:{key}", security.fingerprint(request.method, request.url.path, payload)
