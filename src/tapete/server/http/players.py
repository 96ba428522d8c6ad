"""The player's own routes (issue 31): registration with identity, the account page's API (statement, rounds, the
play session), the limits he sets and his self-exclusion. The rules are in server/players/; these are the doors.

(No `from __future__ import annotations` here: the routes are declared inside `install`, and FastAPI reads their
annotations when each route is declared.)
"""

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from tapete.core.errors import TapeteError
from tapete.server.http import security
from tapete.server.http.auth import Me
from tapete.server.players import excluded, identity, record
from tapete.server.storage.db import player_care


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RegistrationIn(_Body):
    """Loose shapes on purpose: each field's refusal is a sentence naming the field (identity.py), not pydantic's."""

    username: str = Field("", max_length=200)
    password: str = Field("", max_length=256)
    birth_date: str = Field("", max_length=32)      # YYYY-MM-DD
    document: str = Field("", max_length=32)        # DNI or NIE


class LimitIn(_Body):
    kind: Literal["deposit", "loss", "session"]
    value: int | None = Field(None, ge=1, le=10**11)     # cents (deposit, loss) or minutes (session); None: no limit


class ExclusionIn(_Body):
    days: int | None = Field(None, ge=1, le=3650)        # None: for good
    confirm: Literal[True]                               # the page's "I understand it cannot be undone early"


def install(app: FastAPI, server: Any) -> None:
    care, auth, db = server.care, server.auth, server.db

    def player(user: Any) -> None:
        if not user.plays():
            raise TapeteError("forbidden", "only players have limits, a statement and rounds of their own")

    @app.post("/api/register", tags=["sessions"])
    async def register(body: RegistrationIn, request: Request) -> dict[str, Any]:
        """A player opens an account, where the casino allows it: a user name, a password of the policy, his date of
        birth (18 or over) and his DNI or NIE (its check letter verified; one account per document; none for a
        document on the operator's excluded list). A refusal names its `field`."""
        if not server.config.security.open_registration:
            raise TapeteError("forbidden", "players are registered at the cashier's desk here")
        name = identity.check_username(body.username)
        identity.check_new_password(body.password, name)
        today = datetime.fromtimestamp(care.clock.now(), care.zone).date()
        birth = identity.check_birth_date(body.birth_date, today, server.config.players.minimum_age)
        document = identity.check_document(body.document)

        def then(conn: Any) -> None:
            if excluded.is_listed(conn, document):
                raise identity.FieldError("excluded", "this person is on the register of excluded persons and cannot "
                                          "open an account here", "document", "excluded")
            if conn.execute(select(player_care.c.username).where(player_care.c.document == document)).first() is not None:
                raise identity.FieldError("document-exists", "an account with this identity document exists already: "
                                          "one account per person", "document", "taken")
            conn.execute(player_care.insert().values(username=name, birth_date=birth.isoformat(), document=document,
                                                     updated_at=care.clock.now()))

        try:
            created = await auth.register_async(name, body.password, security.client_address(request), then=then)
        except IntegrityError:           # the same document registered at the same moment: the database's unique key
            raise identity.FieldError("document-exists", "an account with this identity document exists already: "
                                      "one account per person", "document", "taken") from None
        if not created:
            raise identity.FieldError("user-exists", f"the name {name} is taken: choose another", "username", "taken")
        return {"user": name, "roles": ["player"]}

    @app.get("/api/me/care", tags=["player"])
    def my_care(user: Me) -> dict[str, Any]:
        """The caller's limits (in force, and a raise waiting for its cooling-off), self-exclusion, play session
        (since the login: minutes and net) and the casino's reality-check interval and help address."""
        player(user)
        return {"user": user.username, **care.summary(user.username)}

    @app.post("/api/me/limits", tags=["player"])
    def set_limit(body: LimitIn, user: Me) -> dict[str, Any]:
        """Set a limit: lower, at once; raise or remove (`value` null), after the casino's cooling-off."""
        player(user)
        return {"user": user.username, **care.set_limit(user.username, body.kind, body.value)}

    @app.post("/api/me/exclusion", tags=["player"])
    def exclude(body: ExclusionIn, user: Me) -> dict[str, Any]:
        """Self-exclusion for `days`, or for good: every session ends now, and it cannot be lifted early."""
        player(user)
        out = care.exclude(user.username, body.days)
        auth.end_sessions(user.username)
        return {"user": user.username, **out}

    @app.get("/api/me/statement", tags=["player"])
    def statement(user: Me, limit: Annotated[int, Query(ge=1, le=500)] = 100) -> dict[str, Any]:
        """The caller's wallet: every deposit, withdrawal, stake and return, newest first, with the balance after
        each, table names and times in the casino's zone."""
        player(user)
        with db.read() as conn:
            return {"user": user.username, **record.statement(conn, server.config, user.username, limit)}

    @app.get("/api/me/rounds", tags=["player"])
    def my_rounds(user: Me, limit: Annotated[int, Query(ge=1, le=200)] = 30) -> dict[str, Any]:
        """The rounds the caller had a bet in, newest first, with the commitment published when each opened (the
        round's record, `GET /api/rounds/ID`, reveals the seed; `tapete verify` replays it)."""
        player(user)
        with db.read() as conn:
            return {"user": user.username, **record.played_rounds(conn, server.config, user.username, limit)}

