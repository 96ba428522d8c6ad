"""Responsible gambling, enforced by the server (issue 31): the limits a player sets himself (deposits and losses
per 24 hours, the length of a play session), his self-exclusion, and the operator's list of excluded persons.

A lowered limit counts at once; a raised or removed one waits `players.raise_delay_h` (the cooling-off, 24 h by
default) — so "raise the limit and bet at once" bets under the old one. A self-exclusion cannot be shortened.
The catalogs are silent on all of it: the reading is docs/rulings.md#player-care.
The checks sit where the money moves: the login (Auth's gate), the cage's deposit (inside its transaction), every
bet (before it reaches the table's batch) and a seat at a circle table.

The bet path stays cheap: the set of players with anything to check (a limit, an exclusion, a listed document) is
read in one query per process every CACHE_S, so a player with nothing set costs a set look-up and no query at all;
a flagged player's state is cached for CACHE_S, and one without a loss limit costs a dictionary look-up. With a loss limit, his bets in this process are
placed one at a time (a lock per player), each after one query of his last 24 hours: two bets sent together cannot
both pass a limit that only one fits under. Changes made in another process reach this one within CACHE_S.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import and_, delete, func, select

from tapete.core.errors import TapeteError
from tapete.core.money import euros as format_cents
from tapete.server.audit import staff_log
from tapete.server.config import CasinoConfig
from tapete.server.money import ledger
from tapete.server.storage.db import (
    Database,
    bets,
    excluded_documents,
    ledger_tx,
    player_care,
    postings,
    sessions,
)

KINDS = ("deposit", "loss", "session")      # deposit, loss: cents per 24 hours; session: minutes per play session
WINDOW_S = 24 * 3600.0
CACHE_S = 5.0
MAX_EXCLUSION_DAYS = 3650


@dataclass(frozen=True)
class CareState:
    """One player's limits and exclusion as loaded (`loaded_at`); the limit in force is asked with a time."""

    limits: dict[str, dict[str, Any]] = field(default_factory=dict)
    excluded_until: float | None = None
    for_good: bool = False
    listed: bool = False                    # his document is on the operator's excluded list
    session_started_at: float | None = None
    loaded_at: float = 0.0

    def limit(self, kind: str, now: float) -> int | None:
        entry = self.limits.get(kind) or {}
        if "from" in entry and now >= entry["from"]:
            return entry.get("pending")
        return entry.get("value")

    def pending(self, kind: str, now: float) -> tuple[int | None, float] | None:
        entry = self.limits.get(kind) or {}
        if "from" in entry and now < entry["from"]:
            return entry.get("pending"), entry["from"]
        return None

    def excluded(self, now: float) -> bool:
        return self.for_good or self.listed or (self.excluded_until is not None and now < self.excluded_until)


PLAIN = CareState()


class Clock:
    """The care's time source (the server's wall clock): tests replace `now` to advance time."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class Care:
    def __init__(self, db: Database, config: CasinoConfig) -> None:
        self.db = db
        self.config = config
        self.settings = config.players
        self.zone = ZoneInfo(config.casino.timezone)
        self.clock = Clock()
        self._cache: dict[str, CareState] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._flagged: frozenset[str] = frozenset()
        self._flagged_here: frozenset[str] = frozenset()    # flagged by this process: counted at once
        self._flagged_at = -CACHE_S
        self._refreshing: dict[asyncio.AbstractEventLoop, asyncio.Task[frozenset[str]]] = {}   # by event loop (tests run several)

    def flagged(self) -> frozenset[str]:
        """The players with something to check, read afresh (one query for all of them)."""
        with self.db.read() as conn:
            found = frozenset(r[0] for r in conn.execute(
                select(player_care.c.username)
                .select_from(player_care.outerjoin(excluded_documents, excluded_documents.c.document == player_care.c.document))
                .where(player_care.c.limits.isnot(None) | player_care.c.excluded_until.isnot(None)
                       | player_care.c.excluded_for_good.is_(True) | excluded_documents.c.document.isnot(None))))
        self._flagged, self._flagged_at = found | self._flagged_here, time.monotonic()
        return self._flagged

    async def _refreshed(self) -> frozenset[str]:
        """`flagged()` in a worker thread, ONE read for every request that finds the list stale meanwhile: at 1,000
        bets a second each of them started its own while the first was under way (issue 33). A request cancelled
        while it waits leaves the read to the others (shielded)."""
        import anyio.to_thread

        loop = asyncio.get_running_loop()
        pending = self._refreshing.get(loop)
        if pending is None:
            pending = self._refreshing[loop] = loop.create_task(anyio.to_thread.run_sync(self.flagged))
            pending.add_done_callback(lambda _: self._refreshing.pop(loop, None))
        return await asyncio.shield(pending)

    def _flag(self, username: str) -> None:
        self._flagged_here = self._flagged_here | {username}
        self._flagged = self._flagged | {username}

    # -- state ---------------------------------------------------------------------------------------
    def state(self, username: str) -> CareState:
        """The player's state, from the cache while it is fresh, else from the database."""
        now = time.monotonic()
        hit = self._cache.get(username)
        if hit is not None and now - hit.loaded_at < CACHE_S:
            return hit
        with self.db.read() as conn:
            found = self._load(conn, username, now)
        if len(self._cache) > 4096:
            self._cache = {k: v for k, v in self._cache.items() if now - v.loaded_at < CACHE_S}
        self._cache[username] = found
        return found

    def cached(self, username: str) -> CareState | None:
        hit = self._cache.get(username)
        return hit if hit is not None and time.monotonic() - hit.loaded_at < CACHE_S else None

    def forget(self, username: str) -> None:
        self._cache.pop(username, None)

    @staticmethod
    def _load(conn: Any, username: str, loaded_at: float) -> CareState:
        row = conn.execute(select(player_care.c.limits, player_care.c.excluded_until, player_care.c.excluded_for_good,
                                  player_care.c.session_started_at, excluded_documents.c.document)
                           .select_from(player_care.outerjoin(excluded_documents,
                                                              excluded_documents.c.document == player_care.c.document))
                           .where(player_care.c.username == username)).first()
        if row is None:
            return CareState(loaded_at=loaded_at)
        return CareState(limits=dict(row[0] or {}), excluded_until=row[1], for_good=bool(row[2]), listed=row[4] is not None,
                         session_started_at=row[3], loaded_at=loaded_at)

    # -- sentences -----------------------------------------------------------------------------------
    def when(self, ts: float) -> str:
        """A moment in the casino's zone, as a player reads it."""
        return datetime.fromtimestamp(ts, self.zone).strftime("%Y-%m-%d %H:%M")

    def excluded_error(self, state: CareState) -> TapeteError:
        if state.listed:
            return TapeteError("excluded", "this person is on the register of excluded persons and cannot play here; "
                               "the desk can tell you more")
        if state.for_good:
            return TapeteError("self-excluded", "you have excluded yourself from play for good")
        return TapeteError("self-excluded", f"you have excluded yourself from play until {self.when(state.excluded_until or 0)}")

    # -- the gates -----------------------------------------------------------------------------------
    def on_login(self, username: str, roles: frozenset[str]) -> None:
        """Auth's gate, once the password is verified: an excluded player gets no session; a player's play
        session starts now."""
        if "player" not in roles:
            return
        now = self.clock.now()
        with self.db.write() as conn:
            state = self._load(conn, username, 0.0)
            if state.excluded(now):
                raise self.excluded_error(state)
            self._upsert(conn, username, now, session_started_at=now)
        self.forget(username)

    def check_play(self, username: str) -> CareState:
        """Excluded, or past the play session's time: no new stake (a seat, a bet)."""
        state = self.state(username)
        now = self.clock.now()
        if state.excluded(now):
            raise self.excluded_error(state)
        minutes = state.limit("session", now)
        if minutes is not None and state.session_started_at is not None and now - state.session_started_at >= minutes * 60:
            raise TapeteError("session-limit", f"your play session has lasted the {minutes} minutes you set: it is time "
                              "for a break (log out; a new session starts at your next login)")
        return state

    async def bet(self, table_id: str, username: str, items: list[dict[str, Any]], idem: Any,
                  place: Callable[[str, str, list[dict[str, Any]], Any], Awaitable[Any]]) -> Any:
        """Place a player's bets through `place` (the table's batch writer) once the care allows them."""
        import anyio.to_thread

        flagged = self._flagged
        if time.monotonic() - self._flagged_at >= CACHE_S:
            flagged = await self._refreshed()
        if username not in flagged:
            return await place(table_id, username, items, idem)          # nothing set: no query, no lock
        state = self.cached(username)
        if state is None:
            state = await anyio.to_thread.run_sync(self.state, username)
        if not state.limits and not state.excluded_until and not state.for_good and not state.listed:
            return await place(table_id, username, items, idem)          # the plain case: nothing to check
        self.check_play(username)
        limit = state.limit("loss", self.clock.now())
        if limit is None:
            return await place(table_id, username, items, idem)
        lock = self._locks.setdefault(username, asyncio.Lock())
        async with lock:                  # his bets one at a time in this process: each sees the one before
            # the window on the books' own timestamps (the wall clock's): the care's clock moves the limits' times
            lost = await anyio.to_thread.run_sync(self.lost, username, time.time() - WINDOW_S)
            stake = sum(int(i.get("amount") or 0) for i in items)
            if lost + stake > limit:
                left = max(limit - lost, 0)
                raise TapeteError("loss-limit", f"this bet of {format_cents(stake)} could take your losses of the last "
                                  f"24 hours past the {format_cents(limit)} you set: {format_cents(left)} left")
            return await place(table_id, username, items, idem)

    def lost(self, username: str, since: float) -> int:
        """What the player's bets placed since `since` have cost him so far: stakes less returns (an open bet
        counts as lost, its whole stake)."""
        with self.db.read() as conn:
            staked, returned = conn.execute(select(func.coalesce(func.sum(bets.c.collected), 0),
                                                   func.coalesce(func.sum(bets.c.returned), 0))
                                            .where(bets.c.player == username, bets.c.placed_at >= since)).one()
        return max(int(staked) - int(returned), 0)

    def deposit_guard(self, conn: Any, username: str, amount: int) -> None:
        """Inside the cage's deposit transaction: an excluded player buys no chips; the deposit limit holds. The
        player's row is locked first (PostgreSQL), so two deposits at once are counted one after the other."""
        now = self.clock.now()
        q = select(player_care.c.username).where(player_care.c.username == username)
        if conn.dialect.name != "sqlite":
            q = q.with_for_update()
        conn.execute(q)
        state = self._load(conn, username, 0.0)
        if state.excluded(now):
            raise self.excluded_error(state)
        limit = state.limit("deposit", now)
        if limit is None:
            return
        done = self.deposited(conn, username, time.time() - WINDOW_S)     # the ledger's timestamps: the wall clock
        if done + amount > limit:
            raise TapeteError("deposit-limit", f"a deposit of {format_cents(amount)} would pass the player's deposit limit of "
                              f"{format_cents(limit)} per 24 hours ({format_cents(max(limit - done, 0))} left)")

    @staticmethod
    def deposited(conn: Any, username: str, since: float) -> int:
        return int(conn.execute(select(func.coalesce(func.sum(postings.c.amount), 0))
                                .select_from(postings.join(ledger_tx, ledger_tx.c.id == postings.c.tx_id))
                                .where(postings.c.account_id == ledger.wallet(username), ledger_tx.c.kind == "deposit",
                                       ledger_tx.c.ts >= since)).scalar_one())

    # -- what the player changes ---------------------------------------------------------------------
    def set_limit(self, username: str, kind: str, value: int | None) -> dict[str, Any]:
        """Lower (or set) a limit: at once. Raise or remove it: after the cooling-off."""
        if kind not in KINDS:
            raise TapeteError("bad-request", f"a limit is one of {', '.join(KINDS)}")
        if value is not None and (value < 1 or (kind == "session" and value > 24 * 60)):
            raise TapeteError("bad-request", "a limit is a positive amount (a session: at most 24 hours)")
        now = self.clock.now()
        with self.db.write() as conn:
            state = self._load(conn, username, 0.0)
            current = state.limit(kind, now)
            if value is not None and (current is None or value <= current):
                entry: dict[str, Any] = {"value": value}
            else:
                entry = {"value": current, "pending": value, "from": now + self.settings.raise_delay_h * 3600}
            limits = {**state.limits, kind: entry}
            self._upsert(conn, username, now, limits=limits)
            staff_log.record(conn, username, "limit-set", username, {"kind": kind, "asked": value, **entry})
        self.forget(username)
        self._flag(username)
        return self.summary(username)

    def exclude(self, username: str, days: int | None) -> dict[str, Any]:
        """Self-exclusion for `days` or, with None, for good; never shorter than one already running."""
        if days is not None and not 1 <= days <= MAX_EXCLUSION_DAYS:
            raise TapeteError("bad-request", f"a self-exclusion lasts 1 to {MAX_EXCLUSION_DAYS} days, or for good")
        now = self.clock.now()
        with self.db.write() as conn:
            state = self._load(conn, username, 0.0)
            until = None if days is None else now + days * 86400.0
            if state.excluded_until is not None and until is not None:
                until = max(until, state.excluded_until)
            self._upsert(conn, username, now, excluded_until=until, excluded_for_good=state.for_good or days is None)
            staff_log.record(conn, username, "self-excluded", username, {"days": days, "until": until})
            conn.execute(delete(sessions).where(sessions.c.username == username))    # logged out everywhere
        self.forget(username)
        self._flag(username)
        return self.summary(username)

    def _upsert(self, conn: Any, username: str, now: float, **values: Any) -> None:
        """Insert or update the player's row in one statement (two logins at once: one row, no unique-key error)."""
        if conn.dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as upsert
        else:
            from sqlalchemy.dialects.sqlite import insert as upsert
        statement = upsert(player_care).values(username=username, updated_at=now, **values)
        conn.execute(statement.on_conflict_do_update(index_elements=[player_care.c.username],
                                                     set_={"updated_at": now, **values}))

    # -- what the account page shows ---------------------------------------------------------------
    def summary(self, username: str) -> dict[str, Any]:
        self.forget(username)
        state = self.state(username)
        now = self.clock.now()
        limits = {}
        for kind in KINDS:
            pending = state.pending(kind, now)
            limits[kind] = {"value": state.limit(kind, now),
                            "pending": None if pending is None else {"value": pending[0], "from": self.when(pending[1])}}
        started = state.session_started_at
        net = 0
        if started is not None:
            with self.db.read() as conn:
                staked, returned = conn.execute(select(func.coalesce(func.sum(bets.c.collected), 0),
                                                       func.coalesce(func.sum(bets.c.returned), 0))
                                                .where(and_(bets.c.player == username, bets.c.placed_at >= started))).one()
            net = int(returned) - int(staked)
        return {"limits": limits, "excluded": state.excluded(now),
                "excluded_until": None if state.for_good or state.excluded_until is None else self.when(state.excluded_until),
                "excluded_for_good": state.for_good,
                "session": {"started": None if started is None else self.when(started),
                            "minutes": 0 if started is None else int((now - started) // 60),
                            "seconds": 0 if started is None else int(now - started), "net": net},
                "reality_check_min": self.settings.reality_check_min, "raise_delay_h": self.settings.raise_delay_h,
                "help_url": self.settings.help_url}
