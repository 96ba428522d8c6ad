"""Live tables: the engine's reducer driven round after round, with the money booked as it moves.

The server knows no game. It asks the engine:
  open(jurisdiction, table, shoe)   the state of a fresh round (card games: the rest of the shoe)
  step(state, event)                every bet, no va más, outcome, act, deal, void and limit change
  legal_actions(state)              whether bets are open and which decisions are due, and whose
  chance(state)                     the outcome's exact distribution, for the electronic draw
  settle(state)                     per bet what was staked and returned: stakes are collected from the
                                    wallet as they grow (a double, a split), results booked when final
  finish(state)                     the defaults due when a decision times out

A round: idle/settled -> betting -> closed (no va más) -> [confirming (a keyed result)] -> settled, or for
card games betting -> (deal) -> acting (decisions due) -> settled. Each transition, each bet and each
settlement is ONE database transaction holding the new state, the ledger postings, the bet rows, the
hash-chained log records and the idempotency record: a crash loses either all of it or none.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.engine.game import Game
from tapete.server.audit import chains as audit
from tapete.server.config import CasinoConfig, TableConfig
from tapete.server.money import ledger
from tapete.server.storage import fastjson, hot
from tapete.server.storage.db import Database, bets, casino_tables, rounds
from tapete.server.tables import banker, circle
from tapete.server.tables.adapters import check_live_tables
from tapete.server.tables.batch import BetBatches
from tapete.server.tables.clock import op_advance, op_open_round, op_recover  # noqa: F401 - re-exported
from tapete.server.tables.round_end import (  # noqa: F401 - re-exported: tapete.server.tables.service names them all
    conclude,
    end_of_coup_shoe,
    load_round_records,
    reopen_announced,
    round_events,
    takes_bets,
)
from tapete.server.tables.round_ops import (  # noqa: F401 - re-exported: tapete.server.tables.service names them all
    acts_due,
    after_decision,
    after_outcome,
    after_void,
    coup_end,
    deal,
    new_shoe,
    op_act,
    op_bets,
    op_close,
    op_confirm,
    op_correct,
    op_draw,
    op_key,
    op_limits,
    op_open,
    op_void,
    outcome_name,
    preview_of,
)
from tapete.server.tables.shoes import dealt_cards, find_shoe
from tapete.server.tables.table_ctx import (  # noqa: F401 - re-exported: tapete.server.tables.service names them all
    ENGINE_KINDS,
    FINAL,
    PHASES,
    STAFF,
    TABLE_VERBS,
    Ctx,
    Replay,
    apply_bet,
    book,
    check_idempotency,
    guarded,
    is_table_verb,
    load_open_bets,
    load_state,
    parse,
    probe_staked,
    round_record,
    settlement_doc,
    step,
    sync_stakes,
)

log = logging.getLogger("tapete.server")

_LOAD = select(*[c for c in casino_tables.c if c.name != "state"]).where(casino_tables.c.id == bindparam("tid"))
_LOAD_LOCKED = _LOAD.with_for_update()
_HOT_COLUMNS = frozenset({"bet_seq", "log_seq", "log_hash", "version", "updated_at", "ledger_seq", "ledger_hash"})
_ROUND_RECORD = {"sqlite": "UPDATE rounds SET record = ? WHERE id = ?",
                 "postgresql": "UPDATE rounds SET record = CAST(%s AS JSON) WHERE id = %s"}
_TABLE_HOT = update(casino_tables).where(casino_tables.c.id == bindparam("tid")).values(
    **{k: bindparam(k) for k in sorted(_HOT_COLUMNS)})
_TABLE_HOT_PG = ("UPDATE casino_tables SET " + ", ".join(f"{k} = %s" for k in sorted(_HOT_COLUMNS))
                 + " WHERE id = %s RETURNING id, log_seq")
_TABLE_HOT_NOTIFY = text("WITH u AS (UPDATE casino_tables SET " + ", ".join(f"{k} = :{k}" for k in sorted(_HOT_COLUMNS))
                         + " WHERE id = :tid RETURNING id) SELECT pg_notify('tapete_tables', :p) FROM u")


class TableService:
    """Every operation on the casino's tables. Thread-safe: operations on one table are serialised by the
    database (SQLite's single writer, PostgreSQL's row lock)."""

    def __init__(self, db: Database, config: CasinoConfig, publish: Callable[[str, list[dict[str, Any]]], None] | None = None) -> None:
        self.db = db
        self.config = config
        self.specs = {t.id: t for t in config.tables}
        self.publish = publish or (lambda table, records: None)
        self._states: dict[str, tuple[int, Any]] = {}
        self._cache_lock = threading.Lock()
        # Tables on which this process holds the lock in a transaction that began with bets closed (a draw
        # and its settlement, a timeout, a confirmation): no phase reachable from there takes bets, so a bet
        # arriving meanwhile is refused at once instead of waiting (and holding a worker and a connection)
        # for the lock only to be refused after it.
        self._closed_busy: dict[str, int] = {}
        self.batches = BetBatches(self)     # bets are group-committed per table (batch.py)
        check_live_tables(config)           # a live table its family cannot deal: refused at load

    # -- plumbing ----------------------------------------------------------------------------------
    def spec(self, table_id: str) -> TableConfig:
        spec = self.specs.get(table_id)
        if spec is None:
            raise TapeteError("unknown-table", f"no table {table_id!r}")
        return spec

    def game(self, spec: TableConfig) -> Game:
        return get_game(spec.game)

    def run(self, table_id: str, actor: str | None, fn: Callable[[Ctx], Any],
            idem: tuple[str, str] | None = None, bet: bool = False) -> Any:
        """Run `fn` in one write transaction on the locked table; answer an idempotent replay from the
        record of the first request (same key, same body) without doing anything again."""
        spec = self.spec(table_id)
        if not bet:    # no va más (any operation but a bet) first writes the bets already queued for the table
            with self.batches.table_lock(table_id):
                self.batches.flush(table_id)
                return self._run_now(spec, actor, fn, idem)
        return self._run_now(spec, actor, fn, idem, bet)

    def _run_now(self, spec: TableConfig, actor: str | None, fn: Callable[[Ctx], Any],
                 idem: tuple[str, str] | None = None, bet: bool = False) -> Any:
        table_id = spec.id
        if bet and table_id in self._closed_busy:      # refused without queueing for the lock (see _closed_busy)
            return self._run(spec, actor, fn, idem, bet, refuse=True)
        if self.db.is_sqlite:     # publish in commit order: hold the single writer's lock until delivered
            with self.db.write_lock:
                return self._run(spec, actor, fn, idem, bet)
        return self._run(spec, actor, fn, idem, bet)

    def _run(self, spec: TableConfig, actor: str | None, fn: Callable[[Ctx], Any], idem: tuple[str, str] | None,
             bet: bool = False, refuse: bool = False) -> Any:
        table_id = spec.id
        ctx: Ctx | None = None
        busy = cached = False
        loaded: tuple[int, Any] | None = None
        try:
            if refuse:
                raise TapeteError("bet-closed", f"table {table_id}: no va más has been called, bets wait for the next round",
                                  source="001:159; 003:396-400")
            with self.db.write() as conn:
                ctx = self._load(conn, spec, actor)
                loaded = (ctx.row["version"], ctx.state)
                if ctx.row["phase"] in ("closed", "confirming", "acting"):
                    busy = True
                    with self._cache_lock:
                        self._closed_busy[table_id] = self._closed_busy.get(table_id, 0) + 1
                result = fn(ctx)
                records = self._persist(ctx)
                if idem is not None:
                    hot.IDEM_INSERT.many(conn, [(idem[0], idem[1], 200, fastjson.dumps(result), ctx.now)])
                # Back into the cache under the new version BEFORE the commit releases the row lock: the next
                # transaction on this table finds it there (put back after the commit, it raced the next
                # transaction, which then rebuilt the state from the log). Should the commit fail, the database
                # keeps the old version, so the next transaction's version check refuses this entry anyway.
                self._cache(table_id, ctx)
                cached = True
        except (IntegrityError, TapeteError):
            # Optimistic idempotency: the key is looked up only when the request fails — a duplicate key, or
            # a refusal that the first, successful request of a retry would not have met (bets closed since).
            if (ctx is None and not refuse) or (ctx is not None and ctx.touched) or cached:
                self.forget(table_id)
            elif bet and loaded is not None:
                # A bet refused before the engine applied anything (bets closed, a full table): the state
                # taken out of the cache is untouched and still that of the version in the database: put it
                # back, or every refusal would make the next transaction rebuild the state from the log.
                with self._cache_lock:
                    self._states.setdefault(table_id, loaded)
            if idem is None:
                raise
            try:
                with self.db.read() as conn:
                    check_idempotency(conn, idem)
            except Replay as replay:
                return replay.response
            raise
        except BaseException:
            self.forget(table_id)            # bets may have been applied in place to the cached state
            raise
        finally:
            if busy:
                self._not_busy(table_id)
        if records:
            self.publish(table_id, records)
        return result

    def _load(self, conn: Connection, spec: TableConfig, actor: str | None) -> Ctx:
        found = conn.execute(_LOAD if self.db.is_sqlite else _LOAD_LOCKED, {"tid": spec.id}).mappings().first()
        return self._ctx(conn, spec, actor, dict(found) if found is not None else None)

    def _ctx(self, conn: Connection, spec: TableConfig, actor: str | None, row: dict[str, Any] | None) -> Ctx:
        """The transaction's context from the table's row (every column but the state snapshot), read and locked."""
        if row is None:
            raise TapeteError("unknown-table", f"no table {spec.id!r} in the database")
        game = self.game(spec)
        state = self._cached_or_load(conn, spec, game, row)
        return Ctx(conn, spec, self.config.jurisdiction_of(spec), game, row, state, actor, time.time(),
                   opening=self.config.is_open)

    def _cached_or_load(self, conn: Connection, spec: TableConfig, game: Game, row: dict[str, Any]) -> Any:
        # Take the cached state out while this transaction owns it: bets are applied to it in place, and a
        # rollback releases the row lock before `forget` could run, so a state left in the cache here could
        # reach the next transaction with a bet that was never committed. `_cache` puts it back on success.
        with self._cache_lock:
            cached = self._states.pop(spec.id, None)
        if cached is not None and cached[0] == row["version"]:
            return cached[1]
        return load_state(conn, game, spec.id, row)

    def _persist(self, ctx: Ctx) -> list[dict[str, Any]]:
        conn = ctx.conn
        hot.BET_INSERT.many(conn, [(b["table_id"], b["bet_id"], b["round_id"], b["player"], b["kind"], fastjson.dumps(b["spot"]),
                                    b["amount"], b["collected"], b["returned"], b["status"], b["placed_at"], b["settled_at"])
                                   for b in ctx.new_bets.values()])
        changed = [ctx.open_bets[b] for b in sorted(ctx.changed_bets - set(ctx.new_bets))]  # type: ignore[index]
        hot.BET_SETTLE.many(conn, [(b["collected"], b["returned"], b["status"], b.get("settled_at"), ctx.table_id, b["bet_id"])
                                   for b in changed])
        marks: dict[str, Any] = {}
        if ctx.round_dirty and ctx.round_record is not None:
            # The record as the text written, and that text's hash in the table's chain (audit/verify.py).
            record_text = fastjson.dumps(ctx.round_record)
            conn.exec_driver_sql(_ROUND_RECORD[self.db.dialect], (record_text, ctx.row["round_id"]))
            marks["round_record"] = {"id": ctx.row["round_id"], "sha256": audit.text_hash(record_text)}
        if ctx.lane is not None and ctx.lane.moved:
            # The ledger lane's head after this operation's transactions, stored with the table and in its chain.
            ctx.set(ledger_seq=ctx.lane.seq, ledger_hash=ctx.lane.hash)
            marks["ledger"] = ctx.lane.mark()
        if marks:
            if ctx.records:
                ctx.records[-1][2].update(marks)
            else:
                ctx.emit("books", marks)
        if not (ctx.dirty or ctx.state_changed or ctx.bets_applied or ctx.records):
            return []
        values = {k: ctx.row[k] for k in ctx.dirty}
        published = []
        seq, h = ctx.row["log_seq"], ctx.row["log_hash"]
        first = seq
        seq, h = audit.append_many(conn, ctx.table_id, seq, h, ctx.now, ctx.records)
        for i, (kind, actor, data) in enumerate(ctx.records, start=first + 1):
            published.append({"table": ctx.table_id, "seq": i, "ts": ctx.now, "kind": kind, "actor": actor, "data": data})
        if ctx.state_changed:    # a snapshot; bets applied in place need none: their log records replay on the last one
            values["state"] = fastjson.state_text(ctx.state) if ctx.state is not None else None
            values["state_seq"] = seq
        values.update(log_seq=seq, log_hash=h, version=ctx.row["version"] + 1, updated_at=ctx.now)
        ctx.row.update(values)
        notify = bool(published) and not self.db.is_sqlite
        if set(values) <= _HOT_COLUMNS:       # a bet: the same statement every time, compiled once
            row = {"tid": ctx.table_id, **{k: values.get(k, ctx.row[k]) for k in _HOT_COLUMNS}}
            fold = hot.folded(conn)
            if fold is not None:              # PostgreSQL, a batch of bets: with its other writes, one round trip
                name = fold.add(_TABLE_HOT_PG, [*(row[k] for k in sorted(_HOT_COLUMNS)), ctx.table_id])
                if notify:                    # "table:seq", as below, from the row written
                    fold.notify = f"(SELECT id || ':' || log_seq FROM {name})"
                return published
            if notify:                        # PostgreSQL: the update and its NOTIFY in one round trip
                conn.execute(_TABLE_HOT_NOTIFY, {**row, "p": f"{ctx.table_id}:{seq}"}).all()
                return published
            conn.execute(_TABLE_HOT, row)
        else:
            conn.execute(update(casino_tables).where(casino_tables.c.id == ctx.table_id).values(**values))
        if notify:
            conn.execute(text("SELECT pg_notify('tapete_tables', :p)"), {"p": f"{ctx.table_id}:{seq}"})
        return published

    def _cache(self, table_id: str, ctx: Ctx) -> None:
        with self._cache_lock:
            self._states[table_id] = (ctx.row["version"], ctx.state)

    def _not_busy(self, table_id: str) -> None:
        with self._cache_lock:
            left = self._closed_busy.get(table_id, 0) - 1
            if left > 0:
                self._closed_busy[table_id] = left
            else:
                self._closed_busy.pop(table_id, None)

    def forget(self, table_id: str) -> None:
        with self._cache_lock:
            self._states.pop(table_id, None)

    # -- setup -------------------------------------------------------------------------------------
    def sync_tables(self) -> None:
        """Create the configured tables that the database does not have yet (with their accounts and the
        float from the bank); tables already there keep their state — the engine state is the truth."""
        for spec in self.config.tables:
            with self.db.write() as conn:
                exists = conn.execute(select(casino_tables.c.id, casino_tables.c.game).where(casino_tables.c.id == spec.id)).first()
                if exists is not None:
                    if exists[1] != spec.game:
                        raise TapeteError("bad-config", f"table {spec.id} is a {exists[1]} table in the database, not {spec.game}")
                    continue
                for account in (ledger.stakes(spec.id), ledger.float_(spec.id), ledger.commission(spec.id), "bank"):
                    ledger.ensure_account(conn, account)
                ledger.commit(conn, ledger.Entry("fill", spec.id, memo="opening float").move("bank", ledger.float_(spec.id), spec.float))
                now = time.time()
                jurisdiction = self.config.jurisdiction_of(spec)
                conn.execute(insert(casino_tables).values(
                    id=spec.id, game=spec.game, jurisdiction=jurisdiction, config=circle.table_config(self.game(spec), spec.table),
                    source=spec.source,
                    state=None, version=0, phase="idle", deadline=now if spec.auto else None, round_id=None, round_no=0,
                    bet_seq=0, seed=None, draws=0, shoe=None, pre_outcome=None, booked={"commission": 0, "carry": {}, "rollover": True},
                    history=[], log_seq=0, log_hash=audit.genesis(spec.id), updated_at=now))
                seq, h = audit.append(conn, spec.id, 0, audit.genesis(spec.id), now, "table", None, {
                    "round": 0, "phase": "idle", "game": spec.game, "jurisdiction": jurisdiction, "table": dict(spec.table),
                    "source": spec.source, "float": spec.float})
                conn.execute(update(casino_tables).where(casino_tables.c.id == spec.id).values(log_seq=seq, log_hash=h))

    # -- public operations -------------------------------------------------------------------------
    def place_bets(self, table_id: str, user: str, items: list[dict[str, Any]], idem: tuple[str, str] | None = None) -> Any:
        """Queue the bets and write the table's queue (the HTTP endpoint awaits its answer instead)."""
        self.spec(table_id)
        request = self.batches.submit(table_id, user, items, idem)
        self.batches.flush(table_id)
        return request.future.result()

    def act(self, table_id: str, user: str, roles: set[str], body: dict[str, Any], cards: list[Any] | None = None,
            idem: tuple[str, str] | None = None) -> Any:
        return self.run(table_id, user, lambda ctx: op_act(ctx, user, roles, body, cards), idem)

    def open_round(self, table_id: str, actor: str | None) -> Any:
        return self.run(table_id, actor, op_open_round)

    def close(self, table_id: str, actor: str | None, cards: list[Any] | None = None, idem: tuple[str, str] | None = None) -> Any:
        return self.run(table_id, actor, lambda ctx: op_close(ctx, cards), idem)

    def draw(self, table_id: str, actor: str | None, idem: tuple[str, str] | None = None) -> Any:
        return self.run(table_id, actor, op_draw, idem)

    def key_outcome(self, table_id: str, actor: str, value: Any, name: str | None = None, last: bool = False,
                    idem: tuple[str, str] | None = None) -> Any:
        return self.run(table_id, actor, lambda ctx: op_key(ctx, value, name, last), idem)

    def confirm(self, table_id: str, actor: str, idem: tuple[str, str] | None = None) -> Any:
        return self.run(table_id, actor, op_confirm, idem)

    def correct(self, table_id: str, actor: str, value: Any, name: str | None = None, last: bool = False,
                idem: tuple[str, str] | None = None, reason: str | None = None) -> Any:
        return self.run(table_id, actor, lambda ctx: op_correct(ctx, value, name, last, reason), idem)

    def void(self, table_id: str, actor: str, reason: str, idem: tuple[str, str] | None = None) -> Any:
        return self.run(table_id, actor, lambda ctx: op_void(ctx, reason), idem)

    def limits(self, table_id: str, actor: str, values: dict[str, Any], idem: tuple[str, str] | None = None) -> Any:
        return self.run(table_id, actor, lambda ctx: op_limits(ctx, values), idem)

    def advance(self, table_id: str) -> Any:
        return self.run(table_id, None, op_advance)

    def recover(self, table_id: str) -> Any:
        return self.run(table_id, None, op_recover)

    def due(self, owned: set[str] | None) -> list[str]:
        """Tables of this process whose deadline has passed (the runner advances them)."""
        now = time.time()
        with self.db.read() as conn:
            q = select(casino_tables.c.id).where(casino_tables.c.deadline.is_not(None), casino_tables.c.deadline <= now)
            found = [r[0] for r in conn.execute(q)]
        return [t for t in found if t in self.specs and (owned is None or t in owned)]

    # -- reading -----------------------------------------------------------------------------------
    def state_of(self, conn: Connection, table_id: str) -> tuple[dict[str, Any], Any]:
        spec = self.spec(table_id)
        found = conn.execute(select(casino_tables).where(casino_tables.c.id == table_id)).mappings().first()
        if found is None:
            raise TapeteError("unknown-table", f"no table {table_id!r}")
        row = dict(found)
        return row, self._cached_or_load(conn, spec, self.game(spec), row)

    def summary(self, conn: Connection, table_id: str) -> dict[str, Any]:
        spec = self.spec(table_id)
        row, state = self.state_of(conn, table_id)
        game = self.game(spec)
        now = time.time()
        out: dict[str, Any] = {
            "id": spec.id, "name": spec.name or spec.id, "game": spec.game, "game_name_es": game.name_es,
            "game_name_en": game.name_en, "jurisdiction": row["jurisdiction"], "source": spec.source, "auto": spec.auto,
            "limits": row["config"], "phase": row["phase"], "round": row["round_no"],
            "seconds_left": round(max(row["deadline"] - now, 0.0), 2) if row["deadline"] else None,
            "open_now": self.config.is_open(spec), "hours": spec.hours, "seats": spec.seats or None,
            "history": (row["history"] or [])[-20:],
        }
        if row["round_id"] is not None:
            r = conn.execute(select(rounds.c.commitment).where(rounds.c.id == row["round_id"])).first()
            out["commitment"] = r[0] if r else None
        bank = banker.summary(game, state)
        if bank is not None:
            out["bank"] = bank
        seating = circle.summary(conn, spec, game, row["jurisdiction"], row["config"], state)
        if seating is not None:
            out["circle"] = seating
        shoe = find_shoe(state) if state is not None else None
        if shoe is not None or row["shoe"]:
            info = row["shoe"] or {}
            left = (info.get("total", 0) - info.get("start", info.get("position", 0)) - len(dealt_cards(game, state) or [])
                    if info.get("total") and state is not None else None)   # a game dealing from a card list
            out["shoe"] = {"remaining": shoe.remaining if shoe else left, "cut_reached": shoe.cut_reached if shoe else False,
                           "commitment": info.get("commitment"), "number": info.get("number")}
        return out

    def actions(self, conn: Connection, table_id: str, user: str | None) -> dict[str, Any]:
        """What may be done now: the bet kinds open (with minimum, maximum, targets) and decisions due."""
        spec = self.spec(table_id)
        row, state = self.state_of(conn, table_id)
        if state is None:
            return {"phase": row["phase"], "bets": [], "decisions": []}
        game = self.game(spec)
        owners = {}
        if user is not None:
            owners = {r[0]: r[1] for r in conn.execute(select(bets.c.bet_id, bets.c.player).where(
                bets.c.table_id == table_id, bets.c.status == "open"))}
        bet_actions, decisions = [], []
        for a in game.legal_actions(state):
            if is_table_verb(a):
                if a.verb == "bet" and row["phase"] == "betting":
                    bet_actions.append({"kind": a.kind, "minimum": a.minimum, "maximum": a.maximum,
                                        "targets": [list(t) if isinstance(t, tuple) else t for t in (a.targets or ())]})
            elif a.by is not None:
                holder = game.hand_holder(state, a.by)
                decisions.append({"do": a.verb, "bet": None, "by": a.by, "holder": holder,
                                  "mine": holder == user if user is not None and holder is not None else None})
            else:
                decisions.append({"do": a.verb, "bet": a.bet, "mine": owners.get(a.bet) == user if a.bet else None,
                                  **({"minimum": a.minimum, "maximum": a.maximum} if a.maximum is not None else {})})
        return {"phase": row["phase"], "bets": bet_actions, "decisions": decisions}
