"""What the staff pages read besides the table API (issue 30, items 6-7): the players found by name for the
cashier (never a login typed blind), and the audit logs for a person — a table's log and the staff log,
filtered and paged with empty rounds folded (audit/browse.py), and the voids, corrections and disputes with
their reasons. Who may read what is checked here as in app.py: the inspector everything, a table chief the
tables he works, the cashier players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Query
from sqlalchemy import func, or_, select

from tapete.core.errors import TapeteError
from tapete.server.audit import browse
from tapete.server.http.auth import Me, User
from tapete.server.money import ledger
from tapete.server.storage.db import bets, users
from tapete.server.tables import disputes

if TYPE_CHECKING:
    from tapete.server.http.app import Server

Kinds = Annotated[str | None, Query(max_length=400, description="comma-separated kinds (a table log's `kind`, the staff log's `action`)")]
Actor = Annotated[str | None, Query(max_length=64)]
Since = Annotated[float | None, Query(ge=0, description="seconds since the epoch (inclusive)")]
Until = Annotated[float | None, Query(ge=0, description="seconds since the epoch (exclusive)")]
Before = Annotated[int | None, Query(ge=1, le=2**31 - 1, description="the page after this record: records with seq < before")]
Limit = Annotated[int, Query(ge=1, le=200)]




def filters(kind: str | None, actor: str | None, since: float | None, until: float | None, before: int | None,
            limit: int) -> browse.Filters:
    kinds = frozenset(k.strip() for k in (kind or "").split(",") if k.strip())
    return browse.Filters(kinds, actor or None, since, until, before, limit)


def install(app: FastAPI, server: Server) -> None:
    """The endpoints on `app`."""
    db = server.db

    def reads_table(user: User, table_id: str) -> None:
        server.service.spec(table_id)               # unknown-table (404)
        if user.has("inspector"):
            return
        if not (user.has("chief") and user.works(table_id)):
            raise TapeteError("forbidden", f"the log of table {table_id} is read by the inspector and its table chief")

    @app.get("/api/players", tags=["money"])
    def find_players(user: Me, q: Annotated[str, Query(min_length=1, max_length=64)],
                     limit: Annotated[int, Query(ge=1, le=20)] = 10) -> dict[str, Any]:
        """Players whose login or display name contains `q` (case apart): the cashier's search, so that a deposit
        goes to the person at the cage and not to a login typed blind. The cashier and the inspector."""
        if not user.has("cashier", "inspector"):
            raise TapeteError("forbidden", "the players are looked up by the cashier and the inspector")
        needle = q.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")   # typed, not wildcards
        like = f"%{needle}%"
        with db.read() as conn:
            found = conn.execute(select(users.c.username, users.c.display_name, users.c.roles)
                                 .where(or_(func.lower(users.c.username).like(like, escape="\\"),
                                            func.lower(users.c.display_name).like(like, escape="\\")))
                                 .order_by(users.c.username).limit(limit * 3)).mappings().all()
            out = []
            for r in found:
                roles = r["roles"] if isinstance(r["roles"], list) else str(r["roles"] or "").split(",")
                if "player" not in roles:
                    continue
                out.append({"user": r["username"], "display_name": r["display_name"],
                            "balance": ledger.balance(conn, ledger.wallet(r["username"]))})
                if len(out) >= limit:
                    break
        return {"players": out}

    @app.get("/api/tables/{table_id}/preview", tags=["croupier"])
    def preview(table_id: str, user: Me) -> dict[str, Any]:
        """The settlement waiting for confirmation (phase `confirming`), as `outcome` and `correct` answered it: a
        console opened or reloaded while a keyed result waits shows what it is about to confirm. The table's
        croupiers and chiefs; `preview` is null in any other phase."""
        spec = server.service.spec(table_id)
        if not (user.has("croupier", "chief") and user.works(table_id)):
            raise TapeteError("forbidden", f"the settlement to confirm is the croupier's and the chief's of table {table_id}")
        with db.read() as conn:
            row, state = server.service.state_of(conn, table_id)
            if row["phase"] != "confirming" or state is None:
                return {"round": row["round_no"], "phase": row["phase"], "preview": None}
            rounding = row["config"].get("rounding", "player") if isinstance(row["config"], dict) else "player"
            doc = server.service.game(spec).settle(state).document(rounding=rounding if rounding in ("player", "house") else "player")
            owners = dict(conn.execute(select(bets.c.bet_id, bets.c.player).where(bets.c.table_id == table_id,
                                                                                 bets.c.status == "open")).all())
        return {"round": row["round_no"], "phase": "confirming",
                "preview": {"bets": {k: {**v, "player": owners[k]} for k, v in doc["bets"].items() if k in owners},
                            "house": doc["house"]}}

    @app.get("/api/audit/tables/{table_id}", tags=["audit"])
    def table_audit(table_id: str, user: Me, kind: Kinds = None, actor: Actor = None, since: Since = None,
                    until: Until = None, before: Before = None, limit: Limit = 50, fold: bool = True) -> dict[str, Any]:
        """A table's log for a person: newest first, filtered, `limit` items a page (`next_before` for the next),
        runs of empty rounds folded into one item (`fold=false`: every record). The inspector, the table's chief."""
        reads_table(user, table_id)
        with db.snapshot() as conn:
            page = browse.table_page(conn, table_id, filters(kind, actor, since, until, before, limit), fold)
        return {"table": table_id, **page.document()}

    @app.get("/api/audit/staff", tags=["audit"])
    def staff_audit(user: Me, kind: Kinds = None, actor: Actor = None, since: Since = None, until: Until = None,
                    before: Before = None, limit: Limit = 50) -> dict[str, Any]:
        """The staff log for a person (accounts, cage, floats, limits, voids, corrections): the inspector all of
        it, a table chief who works given tables the records about them."""
        if user.has("inspector"):
            subjects = None
        elif user.has("chief"):
            subjects = list(user.tables) if user.tables is not None else [t.id for t in server.config.tables]
        else:
            raise TapeteError("forbidden", "the staff log is read by the inspector and the table chiefs")
        with db.snapshot() as conn:
            page = browse.staff_page(conn, filters(kind, actor, since, until, before, limit), subjects)
            page.items = disputes.annotate(conn, page.items)
        return page.document()

    @app.get("/api/audit/incidents", tags=["audit"])
    def incidents(user: Me, table: Annotated[str | None, Query(max_length=64)] = None, since: Since = None,
                  until: Until = None, before: Before = None, limit: Limit = 50) -> dict[str, Any]:
        """The voids, corrections and disputes, with who and why, newest first (the staff log's records of them); a
        dispute with its `status` (open, upheld, dismissed) and its closing (`closed`: outcome, note, by, at)."""
        if table is not None:
            reads_table(user, table)
            subjects: list[str] | None = [table]
        elif user.has("inspector"):
            subjects = None
        elif user.has("chief"):
            subjects = list(user.tables) if user.tables is not None else [t.id for t in server.config.tables]
        else:
            raise TapeteError("forbidden", "the voids, corrections and disputes are read by the inspector and the table chiefs")
        f = filters(",".join(browse.INCIDENTS), None, since, until, before, limit)
        with db.snapshot() as conn:
            page = browse.staff_page(conn, f, subjects)
            page.items = disputes.annotate(conn, page.items)
        return page.document()
