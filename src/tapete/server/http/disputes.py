"""The disputes' routes (server/tables/disputes.py): a table's chief or the inspector records a player's dispute
about a round, and closes it later, upheld or dismissed, with a note. They move no money; a retried request with
the same Idempotency-Key (optional) is answered from the first without recording twice. The player reads his own
on his account page (`GET /api/me/disputes`): recorded, upheld or dismissed."""

# no `from __future__ import annotations`: FastAPI reads the routes' annotations at runtime

from datetime import datetime
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from fastapi import FastAPI, Path, Request
from pydantic import Field, StrictInt, StringConstraints

from tapete.core.errors import TapeteError
from tapete.server.http.auth import Me, User
from tapete.server.http.guards import IdemKey, idem
from tapete.server.http.models import MAX_CENTS, Body
from tapete.server.players import record
from tapete.server.tables import disputes

# The same bounds as a void's reason (models.VoidIn), and never only blanks.
Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class DisputeIn(Body):
    """A dispute: the round, who disputes (a player's login; none when it comes from the floor), why, and what he
    claims (cents, optional)."""

    round: StrictInt = Field(ge=1, le=2**31 - 1)
    player: str | None = Field(None, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")   # models.Username
    reason: Reason
    claim: StrictInt | None = Field(None, ge=0, le=MAX_CENTS)


class DisputeCloseIn(Body):
    """How the dispute ended, and the note that says why."""

    outcome: Literal["upheld", "dismissed"]
    note: Reason


def when(ts: float | None, zone: ZoneInfo) -> str | None:
    return None if ts is None else datetime.fromtimestamp(ts, zone).strftime("%Y-%m-%d %H:%M")


def install(app: FastAPI, server: Any) -> None:
    """The routes, on the app itself (the role matrix and the API's listing read the routes one by one)."""
    service = server.service
    Number = Annotated[int, Path(ge=1, le=2**31 - 1)]

    def chief_or_inspector(user: User, table: str) -> None:
        service.spec(table)                         # unknown-table (404)
        if user.has("inspector"):
            return
        if not user.has("chief"):
            raise TapeteError("forbidden", f"a dispute is recorded and closed by the table's chief or the inspector, "
                              f"not by {user.username}")
        if not user.works(table):
            raise TapeteError("forbidden", f"{user.username} does not work table {table}")

    @app.get("/api/me/disputes", tags=["player"])
    def my_disputes(user: Me) -> dict[str, Any]:
        """The caller's own disputes (the player's account page): which round at which table, the claim, when it was
        recorded and whether it is open, upheld or dismissed (when), times in the casino's zone; never the staff's
        reason or note."""
        if not user.plays():
            raise TapeteError("forbidden", "only players have disputes of their own")
        zone = ZoneInfo(server.config.casino.timezone)
        names = record.table_names(server.config)
        with server.db.read() as conn:
            found = disputes.of_player(conn, user.username)
        return {"timezone": server.config.casino.timezone, "disputes": [
            {"dispute": d["dispute"], "table": names.get(d["table"], d["table"]), "round": d["round"], "claim": d["claim"],
             "status": d["status"], "recorded": when(d["at"], zone), "closed": when(d["closed_at"], zone)} for d in found]}

    @app.post("/api/tables/{table_id}/disputes", tags=["chief"])
    def record_dispute(table_id: str, body: DisputeIn, user: Me, request: Request,
                       idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Record a dispute about a round of the table (the table's chief, the inspector): a record in the table's
        log and a line in the staff log, with its number (`dispute`). No money moves."""
        chief_or_inspector(user, table_id)
        return disputes.record(service, table_id, user.username, body.round, body.player, body.reason, body.claim,
                               idem(user, idempotency_key, request, body, required=False))

    @app.post("/api/tables/{table_id}/disputes/{dispute_id}/close", tags=["chief"])
    def close_dispute(table_id: str, dispute_id: Number, body: DisputeCloseIn, user: Me, request: Request,
                      idempotency_key: IdemKey = None) -> dict[str, Any]:
        """Close an open dispute, `upheld` or `dismissed`, with a note (the table's chief, the inspector); once."""
        chief_or_inspector(user, table_id)
        return disputes.close(service, table_id, user.username, dispute_id, body.outcome, body.note,
                              idem(user, idempotency_key, request, body, required=False))
