"""The jornada's routes (server/jornada): a table opened and closed by its chief, the drop and the tips, the books
per table for the chief and the inspector, and the cage's guarantee."""

# no `from __future__ import annotations`: FastAPI reads the routes' annotations, local to `router`, at runtime

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from pydantic import Field, StrictInt

from tapete.core.errors import TapeteError
from tapete.server.http import security
from tapete.server.http.auth import User
from tapete.server.http.models import Body, Cents, Username
from tapete.server.jornada import ops, report
from tapete.server.jornada.window import check_order, parse_time

Count = Annotated[StrictInt, Field(ge=-(10**11), le=10**11)]


class OpenIn(Body):
    """The anticipo counted in (cents)."""

    anticipo: Cents


class CloseIn(Body):
    """What the chief counted (cents): the float out, the drop box, the tips box, the cagnotte."""

    float: Count
    drop: Count = 0
    tips: Count = 0
    cagnotte: Count = 0


class DropIn(Body):
    player: str = Username
    amount: Cents


class TipIn(Body):
    amount: Cents


def router(server: Any, current_user: Callable[..., Any]) -> APIRouter:
    r = APIRouter()
    service, db = server.service, server.db
    Me = Annotated[User, Depends(current_user)]
    IdemKey = Annotated[str | None, Header(alias="Idempotency-Key", max_length=security.MAX_IDEMPOTENCY_KEY)]

    def idem(user: User, key: str | None, request: Request, body: Any) -> tuple[str, str]:
        if not key:
            raise TapeteError("idempotency-key-required", "a request that moves money needs an Idempotency-Key header")
        payload = body.model_dump(mode="json") if hasattr(body, "model_dump") else body
        return f"{user.username}:{key}", security.fingerprint(request.method, request.url.path, payload)

    def staff(user: User, table: str, *roles: str) -> None:
        service.spec(table)
        if not user.has(*roles):
            raise TapeteError("forbidden", f"{user.username} is not {' or '.join(roles)}")
        if not user.works(table):
            raise TapeteError("forbidden", f"{user.username} does not work table {table}")

    @r.post("/api/tables/{table_id}/jornada/open", tags=["jornada"])
    def open_table(table_id: str, body: OpenIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """The chief opens the table in the jornada with its anticipo counted in (a signed record in its log)."""
        staff(user, table_id, "chief")
        return ops.open_table(service, table_id, user.username, body.anticipo, idem(user, idempotency_key, request, body))

    @r.post("/api/tables/{table_id}/jornada/close", tags=["jornada"])
    def close_table(table_id: str, body: CloseIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """The chief closes the table: the float counted out and its boxes counted (refused unless the ledger's)."""
        staff(user, table_id, "chief")
        return ops.close_table(service, table_id, user.username, body.model_dump(),
                               idem(user, idempotency_key, request, body))

    @r.post("/api/tables/{table_id}/drop", tags=["jornada"])
    def drop(table_id: str, body: DropIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Cash changed into chips at the table: the chips from the float, the cash into the table's box."""
        staff(user, table_id, "croupier", "chief")
        return ops.drop(service, table_id, user.username, body.player, body.amount, idem(user, idempotency_key, request, body))

    @r.post("/api/tables/{table_id}/tip", tags=["jornada"])
    def tip(table_id: str, body: TipIn, user: Me, request: Request, idempotency_key: IdemKey = None) -> dict[str, Any]:
        """A player's tip to the table's staff, from his own chips into the tips box (never part of the win)."""
        service.spec(table_id)
        if not user.plays():
            raise TapeteError("forbidden", "only players tip, from their own chips")
        return ops.tip(service, table_id, user.username, body.amount, idem(user, idempotency_key, request, body))

    @r.get("/api/jornada", tags=["jornada"])
    def books(user: Me, start: Annotated[str | None, Query(alias="from", max_length=40)] = None,
              end: Annotated[str | None, Query(alias="to", max_length=40)] = None,
              table: Annotated[str | None, Query(max_length=64)] = None) -> dict[str, Any]:
        """The books of every table jornada opened in the period (default: the open ones and today's), per table,
        game, cloth and for the casino, with the guarantee the cage must hold (chief of the tables, inspector)."""
        if not user.has("chief", "inspector"):
            raise TapeteError("forbidden", f"{user.username} is not chief or inspector")
        zone = server.config.casino.timezone
        a, b = parse_time(start, "from", zone), parse_time(end, "to", zone)
        check_order(a, b)
        if table is not None:
            service.spec(table)
        allowed = None if user.has("inspector") else user.tables
        with db.snapshot() as conn:
            return report.period(conn, a, b, table, allowed, detail=False)

    return r
