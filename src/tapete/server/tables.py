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

import copy
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, text, update
from sqlalchemy.exc import IntegrityError

from tapete.conformance.document import parse_event
from tapete.core.errors import TapeteError
from tapete.engine.events import Close, Deal, Limits, Outcome, Void
from tapete.engine.game import Game
from tapete.engine.registry import get_game
from tapete.engine.serialize import from_json, to_json
from tapete.server import audit, banker, circle, ledger, privacy, staff_log
from tapete.server.batch import BetBatches
from tapete.server.config import CasinoConfig, TableConfig, check_table_values
from tapete.server.db import Database, bets, casino_tables, idempotency, rounds
from tapete.server.fairness import commitment, draw_rng, event_document, new_seed, pick
from tapete.server.shoes import add_cards, dealt_cards, find_shoe, open_state, prepare, shoe_over
from tapete.server.views import redact, state_view

log = logging.getLogger("tapete.server")

PHASES = ("idle", "betting", "closed", "acting", "confirming", "settled")
FINAL = ("won", "lost", "push")
STAFF = ("croupier", "chief")
TABLE_VERBS = ("bet", "deal", "close")     # legal actions that are the table's, not a player's decision


def is_table_verb(action: Any) -> bool:
    """A new bet (it has a kind), the deal, the close; a poker `bet` on a hand (no kind) is a decision."""
    return action.verb in TABLE_VERBS and not (action.verb == "bet" and action.kind is None and action.bet is not None)
ENGINE_KINDS = ("bet", "close", "outcome", "act", "deal", "void", "limits", "correct")
_LOAD = select(*[c for c in casino_tables.c if c.name != "state"]).where(casino_tables.c.id == bindparam("tid"))
_LOAD_LOCKED = _LOAD.with_for_update()
_BET_INSERT = insert(bets)
_IDEM_INSERT = insert(idempotency)
_HOT_COLUMNS = frozenset({"bet_seq", "log_seq", "log_hash", "version", "updated_at"})
_TABLE_HOT = update(casino_tables).where(casino_tables.c.id == bindparam("tid")).values(
    **{k: bindparam(k) for k in sorted(_HOT_COLUMNS)})
_TABLE_HOT_NOTIFY = text("WITH u AS (UPDATE casino_tables SET " + ", ".join(f"{k} = :{k}" for k in sorted(_HOT_COLUMNS))
                         + " WHERE id = :tid RETURNING id) SELECT pg_notify('tapete_tables', :p) FROM u")
_BET_UPDATE = (update(bets).where(bets.c.table_id == bindparam("t"), bets.c.bet_id == bindparam("b"))
               .values(collected=bindparam("collected"), returned=bindparam("returned"), status=bindparam("status"),
                       settled_at=bindparam("settled_at")))


class Replay(Exception):  # noqa: N818 - control flow: an idempotent request seen before
    def __init__(self, status: int, response: Any) -> None:
        self.status = status
        self.response = response


@dataclass
class Ctx:
    """One transaction on one table."""

    conn: Connection
    spec: TableConfig
    jurisdiction: str
    game: Game
    row: dict[str, Any]
    state: Any
    actor: str | None
    now: float
    dirty: set[str] = field(default_factory=set)
    state_changed: bool = False          # a new state object: snapshot it
    coup: dict[str, Any] | None = None   # the coup's last state before the engine cleared it (the pages' last coup)
    bets_applied: bool = False           # bets applied in place on the cached state: the log records them
    touched: bool = False                # an in-place apply began: on failure the cached state is suspect
    applied: int = 0                     # in-place applies begun (a batch tells a bet refused before it)
    records: list[tuple[str, str | None, dict[str, Any]]] = field(default_factory=list)
    open_bets: dict[str, dict[str, Any]] | None = None
    new_bets: dict[str, dict[str, Any]] = field(default_factory=dict)
    changed_bets: set[str] = field(default_factory=set)
    round_record: dict[str, Any] | None = None
    round_dirty: bool = False
    opening: Callable[[TableConfig], bool] | None = None

    def open_now(self) -> bool:
        return self.opening(self.spec) if self.opening else True

    @property
    def table_id(self) -> str:
        return self.spec.id

    def set(self, **values: Any) -> None:
        for k, v in values.items():
            self.row[k] = v
            self.dirty.add(k)

    def emit(self, kind: str, data: dict[str, Any], actor: str | None = None) -> None:
        body = {"round": self.row["round_no"], "phase": self.row["phase"], **data}
        self.records.append((kind, actor if actor is not None else self.actor, body))

    @property
    def rounding(self) -> str:
        r = self.row["config"].get("rounding", "player")
        return r if r in ("player", "house") else "player"


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
                    conn.execute(_IDEM_INSERT, {"key": idem[0], "fingerprint": idem[1], "status": 200, "response": result,
                                                "created_at": ctx.now})
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
        if found is None:
            raise TapeteError("unknown-table", f"no table {spec.id!r} in the database")
        row = dict(found)
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
        return load_state(conn, game, spec.id, row.get("state_seq", 0))

    def _persist(self, ctx: Ctx) -> list[dict[str, Any]]:
        conn = ctx.conn
        if ctx.new_bets:
            conn.execute(_BET_INSERT, list(ctx.new_bets.values()))
        changed = [ctx.open_bets[b] for b in sorted(ctx.changed_bets - set(ctx.new_bets))]  # type: ignore[index]
        if changed:
            conn.execute(_BET_UPDATE, [{"t": ctx.table_id, "b": b["bet_id"], "collected": b["collected"], "returned": b["returned"],
                                        "status": b["status"], "settled_at": b.get("settled_at")} for b in changed])
        if ctx.round_dirty and ctx.round_record is not None:
            conn.execute(update(rounds).where(rounds.c.id == ctx.row["round_id"]).values(record=ctx.round_record))
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
            values["state"] = json.dumps(to_json(ctx.state)) if ctx.state is not None else None
            values["state_seq"] = seq
        values.update(log_seq=seq, log_hash=h, version=ctx.row["version"] + 1, updated_at=ctx.now)
        ctx.row.update(values)
        notify = bool(published) and not self.db.is_sqlite
        if set(values) <= _HOT_COLUMNS:       # a bet: the same statement every time, compiled once
            hot = {"tid": ctx.table_id, **{k: values.get(k, ctx.row[k]) for k in _HOT_COLUMNS}}
            if notify:                        # PostgreSQL: the update and its NOTIFY in one round trip
                conn.execute(_TABLE_HOT_NOTIFY, {**hot, "p": f"{ctx.table_id}:{seq}"}).all()
                return published
            conn.execute(_TABLE_HOT, hot)
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
        return self.run(table_id, actor, op_open)

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
                idem: tuple[str, str] | None = None) -> Any:
        return self.run(table_id, actor, lambda ctx: op_correct(ctx, value, name, last), idem)

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
            left = (info.get("total", 0) - info.get("start", info.get("position", 0)) - len(dealt_cards(state) or [])
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


# ---------------------------------------------------------------------------------------------------
# operations: each runs inside TableService.run on a locked table
# ---------------------------------------------------------------------------------------------------
def load_state(conn: Connection, game: Game, table_id: str, state_seq: int) -> Any:
    """The table's state: the last snapshot, then the bets logged after it, applied in order."""
    raw = conn.execute(select(casino_tables.c.state).where(casino_tables.c.id == table_id)).scalar_one()
    if not raw:
        return None
    state = from_json(game.state_type(), json.loads(raw))
    found = conn.execute(text("SELECT data FROM events WHERE table_id = :t AND seq > :s AND kind = 'bet' ORDER BY seq"),
                         {"t": table_id, "s": state_seq}).all()
    for (data,) in found:
        data = data if isinstance(data, dict) else json.loads(data)
        game.apply(state, parse_event(game, data["event"], 0))
    return state


def check_idempotency(conn: Connection, idem: tuple[str, str]) -> None:
    found = conn.execute(select(idempotency).where(idempotency.c.key == idem[0])).mappings().first()
    if found is None:
        return
    if found["fingerprint"] != idem[1]:
        raise TapeteError("idempotency-key-reused", "this Idempotency-Key was used for a different request")
    raise Replay(found["status"], found["response"])


def need_phase(ctx: Ctx, *phases: str) -> None:
    if ctx.row["phase"] not in phases:
        what = {"betting": "bets are not open", "closed": "no va más has not been called",
                "confirming": "no keyed result awaits confirmation", "acting": "no decision is due"}
        raise TapeteError("wrong-phase", f"table {ctx.table_id} is {ctx.row['phase']}: "
                          f"{what.get(phases[0], 'not now')} (allowed in: {', '.join(phases)})")


def guarded(fn: Callable[..., Any], *args: Any) -> Any:
    """Call the engine; input it cannot digest is the client's error (422), never a server error."""
    try:
        return fn(*args)
    except TapeteError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        raise TapeteError("bad-document", f"the engine cannot read this: {type(exc).__name__}: {exc}") from exc


def parse(ctx: Ctx, raw: dict[str, Any]) -> Any:
    return guarded(parse_event, ctx.game, raw, 0)


def step(ctx: Ctx, event: Any, kind: str, extra: dict[str, Any] | None = None, actor: str | None = None) -> None:
    ctx.state = guarded(ctx.game.step, ctx.state, event)
    ctx.state_changed = True
    ctx.emit(kind, {"event": event_document(event), **(extra or {})}, actor)


def apply_bet(ctx: Ctx, event: Any, extra: dict[str, Any]) -> None:
    """A bet, applied in place on the state (no copy: bets are the hot path). Any failure of the
    transaction drops the cached state, which is then rebuilt from the database."""
    ctx.touched = True
    ctx.applied += 1
    guarded(ctx.game.apply, ctx.state, event)
    ctx.bets_applied = True
    ctx.emit("bet", {"event": event_document(event), **extra})


# What a bet alone stakes on a fresh table of given limits: a pure function of the game, the jurisdiction, the
# table's keys and the bet (its id and player aside), so remembered (bounded; cleared when full). Opening the
# probe table was the largest part of a bet's engine time (docs/performance.md).
_PROBED: dict[tuple[str, str, str, str, str], int] = {}
_PROBED_MAX = 4096


def probe_staked(ctx: Ctx, event: Any) -> int:
    """What a new bet stakes, as the engine counts it (an announced bet is chips x value, an insured bet
    adds its premium): settled alone on a fresh table of the same limits, so the cost does not grow with
    the bets already on the layout; the whole state's settlement where that probe cannot be made."""
    table = getattr(ctx.state, "table", None)
    limits = dict(table if isinstance(table, dict) else ctx.row["config"])
    try:
        doc = {k: v for k, v in event_document(event)["bet"].items() if k not in ("id", "player")}
        key = (ctx.game.id, ctx.jurisdiction, ctx.rounding, json.dumps(limits, sort_keys=True), json.dumps(doc, sort_keys=True))
    except Exception:  # noqa: BLE001 - a bet without a plain document: probed every time
        key = None
    if key is not None and key in _PROBED:
        return _PROBED[key]
    try:
        probe = ctx.game.open(ctx.jurisdiction, limits, *([[]] if ctx.game.uses_shoe else []))
        ctx.game.apply(probe, event)
        staked = ctx.game.settle(probe).document(rounding=ctx.rounding)["bets"][event.id]["staked"]  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - fall back to the exact, slower way
        doc = settlement_doc(ctx)
        return doc["bets"][event.id]["staked"] if doc and event.id in doc["bets"] else event.amount
    if key is not None:
        if len(_PROBED) >= _PROBED_MAX:
            _PROBED.clear()
        _PROBED[key] = staked
    return staked


def settlement_doc(ctx: Ctx) -> dict[str, Any] | None:
    """The engine's settlement of the state as it stands (None where the game cannot settle mid-coup)."""
    try:
        return ctx.game.settle(ctx.state).document(rounding=ctx.rounding)  # type: ignore[arg-type]
    except TapeteError:
        return None


def load_open_bets(ctx: Ctx) -> dict[str, dict[str, Any]]:
    if ctx.open_bets is None:
        found = ctx.conn.execute(select(bets).where(bets.c.table_id == ctx.table_id, bets.c.status == "open")).mappings()
        ctx.open_bets = {r["bet_id"]: dict(r) for r in found}
        ctx.open_bets.update(ctx.new_bets)
    return ctx.open_bets


def sync_stakes(ctx: Ctx, doc: dict[str, Any] | None, only: list[str] | None = None) -> None:
    """Collect from the wallet whatever the engine now counts as staked (a bet, a double, a split, an
    insurance), or hand back what it no longer does: one balanced 'bet' transaction."""
    open_bets = load_open_bets(ctx)
    entry = ledger.Entry("bet", ctx.table_id, ctx.row["round_id"], ctx.actor)
    for bet_id in only if only is not None else list(open_bets):
        b = open_bets.get(bet_id)
        if b is None:
            continue
        staked = doc["bets"][bet_id]["staked"] if doc and bet_id in doc["bets"] else b["amount"]
        delta = staked - b["collected"]
        if delta:
            entry.move(circle.purse(ctx, b["player"]), banker.stake_account(ctx, b["kind"]), delta, bet_id)
            b["collected"] = staked
            ctx.changed_bets.add(bet_id)
    ledger.commit(ctx.conn, entry)


def book(ctx: Ctx, doc: dict[str, Any], include_void: bool) -> dict[str, dict[str, Any]]:
    """Book every bet the engine has decided: stake out of `stakes`, the return to the wallet, the rest to
    the table's float; commission and carried amounts to their accounts. One 'settle' transaction."""
    open_bets = load_open_bets(ctx)
    t = ctx.table_id
    entry = ledger.Entry("settle", t, ctx.row["round_id"], ctx.actor)
    results: dict[str, dict[str, Any]] = {}
    for bet_id, e in doc["bets"].items():
        b = open_bets.get(bet_id)
        if b is None or b["status"] != "open":
            continue
        status = e["status"]
        if status in FINAL or (status == "void" and include_void):
            c, r = b["collected"], e["returned"]
            entry.post(banker.stake_account(ctx, b["kind"]), -c, bet_id).post(circle.purse(ctx, b["player"]), r, bet_id).post(
                banker.counterparty(ctx), c - r, bet_id)
            b.update(status=status, returned=r, settled_at=ctx.now)
            ctx.changed_bets.add(bet_id)
            results[bet_id] = {"player": b["player"], "kind": b["kind"], "status": status, "staked": c, "returned": r}
    booked = dict(ctx.row["booked"] or {})
    paid_commission = doc["house"].get("commission", 0) - booked.get("commission", 0)
    if paid_commission:
        entry.post(banker.counterparty(ctx), -paid_commission).post(ledger.commission(t), paid_commission)
        ledger.ensure_account(ctx.conn, ledger.commission(t))
    carry = dict(booked.get("carry", {}))
    for name, amount in (doc.get("carry") or {}).items():
        delta = amount - carry.get(name, 0)
        if delta:
            ledger.ensure_account(ctx.conn, ledger.jackpot(t, name))
            entry.post(ledger.float_(t), -delta).post(ledger.jackpot(t, name), delta)
            carry[name] = amount
    if paid_commission or carry != booked.get("carry", {}):
        booked.update(commission=doc["house"].get("commission", 0), carry=carry)
        ctx.set(booked=booked)
    ledger.commit(ctx.conn, entry)
    banker.sweep(ctx)
    return results


def round_record(ctx: Ctx) -> dict[str, Any]:
    if ctx.round_record is None:
        found = ctx.conn.execute(select(rounds.c.record).where(rounds.c.id == ctx.row["round_id"])).first()
        ctx.round_record = dict(found[0]) if found and found[0] else {}
    return ctx.round_record


def op_open(ctx: Ctx, table: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new round; `table`: the table keys to open it with (circle poker: the seats of this hand)."""
    if table is None and circle.table_stakes(ctx.game):
        return circle.op_open(ctx)
    need_phase(ctx, "idle", "settled")
    if table is None and not ctx.open_now():   # the croupier's open obeys the hours the players' bets obey (op_bets)
        raise TapeteError("table-closed", f"table {ctx.table_id} is outside its opening hours")
    spec, game = ctx.spec, ctx.game
    booked = dict(ctx.row["booked"] or {})
    fresh = ctx.state is None or booked.get("rollover", True)
    if not fresh and table is None and not game.uses_shoe and not takes_bets(ctx) and not load_open_bets(ctx):
        # A carried state that refuses bets with nothing riding (a table an older version stopped for good):
        # open it afresh, an announced limit change announced again (docs/rulings.md#server-limit-change-after-a-void).
        if getattr(ctx.state, "next_table", None) is not None:
            reopen_announced(ctx)
        else:
            fresh = True
    shoe_info = dict(ctx.row["shoe"]) if ctx.row["shoe"] else None
    if fresh:
        config = dict(ctx.row["config"] if table is None else table)
        if game.uses_shoe and spec.source == "rng":
            if shoe_info is None or shoe_info.get("ended"):
                shoe_info = new_shoe(ctx, config, shoe_info)
            ctx.state = open_state(game, ctx.jurisdiction, config, spec.source, seed=None, shoe=shoe_info)
            shoe_info["start"] = shoe_info["position"]
            ctx.set(shoe=shoe_info)
        else:
            ctx.state = open_state(game, ctx.jurisdiction, config, spec.source, seed=None)
        ctx.state_changed = True
        booked = {"commission": 0, "carry": {}, "rollover": False}
    else:
        booked["rollover"] = False
    number = ctx.row["round_no"] + 1
    seed = new_seed() if spec.source == "rng" and not game.uses_shoe else None
    commit_hash = commitment(seed) if seed else (shoe_info or {}).get("commitment")
    round_id = ctx.conn.execute(insert(rounds).values(
        table_id=ctx.table_id, number=number, status="open", opened_at=ctx.now, commitment=commit_hash)).inserted_primary_key[0]
    log_lines = getattr(ctx.state, "log", None)
    ctx.round_record = {"start_seq": ctx.row["log_seq"] + len(ctx.records), "fresh": fresh,
                        "table": dict(ctx.row["config"] if table is None else table),   # a circle hand: with its seats
                        "commitment": commit_hash,
                        "log_start": len(log_lines) if isinstance(log_lines, list) else 0, "draws": []}
    ctx.round_dirty = True
    deadline = ctx.now + spec.timing.bets if spec.auto else None
    ctx.set(round_no=number, round_id=int(round_id), seed=seed, draws=0, phase="betting", deadline=deadline,
            booked=booked, pre_outcome=None)
    ctx.emit("open", {"commitment": commit_hash, "limits": ctx.row["config"], "deadline": deadline, "fresh": fresh})
    return {"round": number, "round_id": int(round_id), "commitment": commit_hash, "phase": "betting", "deadline": deadline}


def new_shoe(ctx: Ctx, config: dict[str, Any], old: dict[str, Any] | None) -> dict[str, Any]:
    """A fresh electronic shoe: a new seed, its commitment logged before any bet of the shoe."""
    seed = new_seed()
    prepared = prepare(ctx.game, ctx.jurisdiction, config, seed)
    total = len(prepared["cards"])
    info = {"seed": seed, "commitment": commitment(seed), "position": prepared["position"], "cut": prepared["cut"],
            "total": total, "number": (old or {}).get("number", 0) + 1, "ended": False}
    ctx.emit("shoe", {"event": "new", "number": info["number"], "commitment": info["commitment"], "cards": total,
                      "cut": prepared["cut"], "burned": prepared["position"]})
    return info


def op_bets(ctx: Ctx, user: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    if ctx.row["phase"] in ("closed", "confirming", "acting"):
        raise TapeteError("bet-closed", f"table {ctx.table_id}: no va más has been called, bets wait for the next round",
                          source="001:159; 003:396-400")
    need_phase(ctx, "betting")
    if not ctx.open_now():
        raise TapeteError("table-closed", f"table {ctx.table_id} is outside its opening hours")
    if ctx.spec.seats:
        players = {b["player"] for b in load_open_bets(ctx).values() if b["round_id"] == ctx.row["round_id"]}
        if user not in players and len(players) >= ctx.spec.seats:
            raise TapeteError("table-full", f"table {ctx.table_id} seats {ctx.spec.seats} players")
    placed: list[str] = []
    entry = ledger.Entry("bet", ctx.table_id, ctx.row["round_id"], user)
    for item in items:
        seq = ctx.row["bet_seq"] + 1
        ctx.set(bet_seq=seq)
        bet_id = f"b{seq}"
        body = {"id": bet_id, "player": user, "kind": item["kind"], "amount": item["amount"]}
        if item.get("on") is not None:
            body["on"] = item["on"]
        for k, v in (item.get("extra") or {}).items():
            if k in body:
                raise TapeteError("bad-request", f"bet key {k!r} is set by the server")
            body[k] = v
        event = parse(ctx, {"bet": body})
        apply_bet(ctx, event, {"player": user})
        staked = probe_staked(ctx, event)
        ctx.new_bets[bet_id] = {"table_id": ctx.table_id, "bet_id": bet_id, "round_id": ctx.row["round_id"], "player": user,
                                "kind": event.kind, "spot": list(event.on) if event.on is not None else None,
                                "amount": event.amount, "collected": 0, "returned": 0, "status": "open",
                                "placed_at": ctx.now, "settled_at": None}
        if ctx.open_bets is not None:
            ctx.open_bets[bet_id] = ctx.new_bets[bet_id]
        entry.move(circle.purse(ctx, user), banker.stake_account(ctx, event.kind), staked, bet_id)
        ctx.new_bets[bet_id]["collected"] = staked
        placed.append(bet_id)
    after = ledger.commit(ctx.conn, entry) or {}
    return {"round": ctx.row["round_no"], "bets": [
        {"id": b, "kind": ctx.new_bets[b]["kind"], "on": ctx.new_bets[b]["spot"], "amount": ctx.new_bets[b]["amount"],
         "staked": ctx.new_bets[b]["collected"]} for b in placed],
        "balance": after[ledger.wallet(user)] if ledger.wallet(user) in after else ledger.balance(ctx.conn, ledger.wallet(user))}


def op_close(ctx: Ctx, cards: list[Any] | None) -> dict[str, Any]:
    need_phase(ctx, "betting")
    if ctx.game.uses_shoe:
        return deal(ctx, cards)
    if ctx.spec.source == "rng" and not ctx.game.chance(guarded(ctx.game.step, ctx.state, Close())):
        # Nothing would ride on the spin: the wheel does not turn and the engine's state is never closed, so
        # a state the next round carries (an announced limit change counting spins) still takes bets.
        ctx.emit("no-outcome", {"reason": "no bet rides on chance: the wheel does not spin"})
        return conclude(ctx)
    step(ctx, Close(), "close")
    ctx.set(phase="closed", deadline=ctx.now + ctx.spec.timing.spin if ctx.spec.auto and ctx.spec.source == "rng" else None)
    ctx.emit("phase", {"say": "no va más"})
    round_record(ctx)
    return {"round": ctx.row["round_no"], "phase": "closed"}


def deal(ctx: Ctx, cards: list[Any] | None) -> dict[str, Any]:
    has_bets = any(b["round_id"] == ctx.row["round_id"] and b["kind"] not in ctx.game.bank_kinds   # a bank alone: no coup
                   for b in load_open_bets(ctx).values())
    if not has_bets:
        ctx.emit("no-outcome", {"reason": "no bets: no coup is dealt"})
        return conclude(ctx)
    if ctx.spec.source == "croupier":
        if not cards:
            raise TapeteError("bad-request", "a live table deals the cards the croupier keys: give 'cards'")
        ctx.state = copy.deepcopy(ctx.state)
        add_cards(ctx.state, cards)
    step(ctx, Deal(), "deal", {"cards": list(cards) if cards else None})
    return after_decision(ctx)


def acts_due(ctx: Ctx) -> list[dict[str, Any]]:
    return [{"do": a.verb, "bet": a.bet, **({"by": a.by} if a.by else {})}
            for a in ctx.game.legal_actions(ctx.state) if not is_table_verb(a)]


def after_decision(ctx: Ctx) -> dict[str, Any]:
    """After a deal or an act at a card table: wait for the next decision, or end the coup."""
    ctx.state = ctx.game.advance(ctx.state)      # the forced steps, so the table shows them before anyone decides
    due = acts_due(ctx)
    if due:
        ctx.set(phase="acting", deadline=ctx.now + ctx.spec.timing.act if ctx.spec.auto else None)
        ctx.emit("acting", {"due": due})
        sync_stakes(ctx, settlement_doc(ctx))
        return {"round": ctx.row["round_no"], "phase": "acting", "due": due}
    return coup_end(ctx)


def coup_end(ctx: Ctx) -> dict[str, Any]:
    """Every decision made (or timed out): the game applies its defaults and the coup settles."""
    # Not at circle poker: a hand nobody showed is another player's secret (docs/server.md §fairness), and the
    # round record reaches players; its pages rebuild the showdown from what the table showed.
    if ctx.game.uses_shoe and not getattr(ctx.game, "table_stakes", False):
        ctx.coup = redact(to_json(ctx.state))   # the hands as dealt (the engine may clear them when it settles);
        # redact: the shoe's undealt cards stay out of the round record
    finished = ctx.game.end_round(copy.deepcopy(ctx.state))
    ctx.state = finished
    ctx.state_changed = True
    return conclude(ctx)


def op_draw(ctx: Ctx) -> dict[str, Any]:
    need_phase(ctx, "closed")
    if ctx.spec.source != "rng":
        raise TapeteError("wrong-source", f"table {ctx.table_id} takes the croupier's keyed result, not the CSPRNG")
    chances = ctx.game.chance(ctx.state)
    if not chances:
        ctx.emit("no-outcome", {"reason": "no bet rides on chance: the wheel does not spin"})
        return conclude(ctx)
    index = ctx.row["draws"]
    event = pick(chances, draw_rng(ctx.row["seed"], index))
    record = round_record(ctx)
    record.setdefault("draws", []).append({"index": index, "state": to_json(ctx.state), "outcome": event_document(event)})
    ctx.round_dirty = True
    ctx.set(draws=index + 1)
    step(ctx, event, "outcome", {"source": "rng", "draw": index})
    return after_outcome(ctx, event)


def after_outcome(ctx: Ctx, event: Any | None) -> dict[str, Any]:
    if event is not None and isinstance(event, Outcome):
        history = list(ctx.row["history"] or [])
        history.append(event.value)
        ctx.set(history=history[-50:])
    return conclude(ctx)


def op_key(ctx: Ctx, value: Any, name: str | None, last: bool) -> dict[str, Any]:
    need_phase(ctx, "betting", "closed")
    if ctx.spec.source != "croupier":
        raise TapeteError("wrong-source", f"table {ctx.table_id} draws its outcomes with the CSPRNG")
    if ctx.game.uses_shoe:
        raise TapeteError("wrong-phase", "a card table's result is the cards dealt: key them with close (deal) and acts")
    name = outcome_name(ctx, name)
    event = parse(ctx, {name: value, **({"last": True} if last else {})})
    if ctx.row["phase"] == "betting":
        step(ctx, Close(), "close")
    ctx.set(pre_outcome=json.dumps(to_json(ctx.state)))
    step(ctx, event, "outcome", {"source": "croupier"})
    preview = settlement_doc(ctx)
    ctx.set(phase="confirming", deadline=ctx.now + ctx.spec.timing.confirm if ctx.spec.timing.confirm > 0 else None)
    ctx.emit("phase", {"say": "result keyed: awaiting confirmation"})
    return {"round": ctx.row["round_no"], "phase": "confirming", "preview": preview_of(ctx, preview)}


def outcome_name(ctx: Ctx, name: str | None) -> str:
    names = ctx.game.outcome_names
    if not names:
        raise TapeteError("wrong-phase", f"{ctx.game.id} has no keyed outcome: its results are the cards dealt")
    if name is not None and name not in names:
        raise TapeteError("bad-request", f"{ctx.game.id} takes a {' or '.join(names)}, not a {name!r}")
    return name or names[0]


def preview_of(ctx: Ctx, doc: dict[str, Any] | None) -> dict[str, Any] | None:
    if doc is None:
        return None
    open_bets = load_open_bets(ctx)
    return {"bets": {k: {**v, "player": open_bets[k]["player"]} for k, v in doc["bets"].items() if k in open_bets},
            "house": doc["house"]}


def op_confirm(ctx: Ctx) -> dict[str, Any]:
    need_phase(ctx, "confirming")
    ctx.set(pre_outcome=None)
    ctx.emit("confirm", {})
    return after_outcome(ctx, _last_outcome(ctx))


def _last_outcome(ctx: Ctx) -> Outcome | None:
    for kind, _, data in reversed(ctx.records):
        if kind in ("outcome", "correct"):
            return _outcome_from(data["event"])
    found = ctx.conn.execute(text("SELECT data FROM events WHERE table_id = :t AND kind IN ('outcome', 'correct') "
                                  "ORDER BY seq DESC LIMIT 1"),
                             {"t": ctx.table_id}).first()
    if found is None:
        return None
    data = found[0] if isinstance(found[0], dict) else json.loads(found[0])
    return _outcome_from(data["event"])


def _outcome_from(doc: dict[str, Any]) -> Outcome:
    name = next(k for k in doc if k != "last")
    return Outcome(name, doc[name], bool(doc.get("last", False)))


def op_correct(ctx: Ctx, value: Any, name: str | None, last: bool) -> dict[str, Any]:
    need_phase(ctx, "confirming")
    name = outcome_name(ctx, name)
    event = parse(ctx, {name: value, **({"last": True} if last else {})})
    before = _last_outcome(ctx)
    ctx.state = from_json(ctx.game.state_type(), json.loads(ctx.row["pre_outcome"]))
    step(ctx, event, "correct", {"was": event_document(before) if before else None})
    staff_log.record(ctx.conn, ctx.actor, "correct", ctx.table_id, {"value": event_document(event), "round": ctx.row["round_no"],
                                                                  "was": event_document(before) if before else None})
    return {"round": ctx.row["round_no"], "phase": "confirming", "preview": preview_of(ctx, settlement_doc(ctx))}


def op_void(ctx: Ctx, reason: str) -> dict[str, Any]:
    need_phase(ctx, "closed", "confirming", "acting")
    annulled = None
    if ctx.row["phase"] == "confirming":
        ctx.state = from_json(ctx.game.state_type(), json.loads(ctx.row["pre_outcome"]))
        ctx.set(pre_outcome=None)
        last = _last_outcome(ctx)
        annulled = event_document(last) if last else None
    step(ctx, Void(reason), "void", {"annulled": annulled} if annulled else None)
    staff_log.record(ctx.conn, ctx.actor, "void", ctx.table_id, {"reason": reason, "round": ctx.row["round_no"]})
    return after_void(ctx)


def after_void(ctx: Ctx) -> dict[str, Any]:
    """A void spin is relaunched when the engine keeps the bets riding; otherwise the round ends with
    whatever the engine calls void handed back."""
    bets_open = any(a.verb == "bet" for a in ctx.game.legal_actions(ctx.state))
    if not ctx.game.uses_shoe and not bets_open and ctx.game.chance(ctx.state):
        auto_rng = ctx.spec.auto and ctx.spec.source == "rng"
        ctx.set(phase="closed", deadline=ctx.now + ctx.spec.timing.spin if auto_rng else None)
        ctx.emit("phase", {"say": "the spin is relaunched"})
        return {"round": ctx.row["round_no"], "phase": "closed", "relaunch": True}
    return conclude(ctx)


def op_limits(ctx: Ctx, values: dict[str, Any]) -> dict[str, Any]:
    need_phase(ctx, "idle", "settled", "betting")
    if ctx.state is None:
        ctx.state = open_state(ctx.game, ctx.jurisdiction, ctx.row["config"], ctx.spec.source, seed=None)
        ctx.state_changed = True
    check_table_values(ctx.game, values)
    step(ctx, Limits(dict(values)), "limits")
    staff_log.record(ctx.conn, ctx.actor, "limits", ctx.table_id, {"values": dict(values), "round": ctx.row["round_no"]})
    booked = dict(ctx.row["booked"] or {})
    booked["rollover"] = False          # keep the state: the engine decides when the new limits apply
    ctx.set(booked=booked)
    note = getattr(ctx.state, "log", [""])[-1] if getattr(ctx.state, "log", None) else ""
    return {"round": ctx.row["round_no"], "announced": values, "note": note}


def op_act(ctx: Ctx, user: str, roles: set[str], body: dict[str, Any], cards: list[Any] | None) -> dict[str, Any]:
    need_phase(ctx, "betting", "acting", "settled", "closed")
    event = parse(ctx, {"act": body})
    open_bets = load_open_bets(ctx)
    staff = bool(roles & set(STAFF)) and ctx.spec.source == "croupier"
    if event.bet is not None:
        b = open_bets.get(event.bet)
        if b is None:
            raise TapeteError("unknown-bet", f"no open bet {event.bet!r} at table {ctx.table_id}")
        if b["player"] != user and not staff:
            raise TapeteError("forbidden", f"bet {event.bet} is not yours")
    elif not staff and not any(b["player"] == user for b in open_bets.values()):
        raise TapeteError("forbidden", "only a player with a bet at this table (or its croupier) decides for a hand")
    banker.check_decider(ctx, event, user, staff)
    if cards:
        if not staff:
            raise TapeteError("forbidden", "only the croupier of a live table keys cards")
        ctx.state = copy.deepcopy(ctx.state)
        add_cards(ctx.state, cards)
    step(ctx, event, "act", {"cards": list(cards) if cards else None})
    doc = settlement_doc(ctx)
    sync_stakes(ctx, doc)
    if ctx.row["phase"] == "acting":
        result = after_decision(ctx)
    else:
        booked = book(ctx, doc, include_void=False) if doc else {}
        if booked:
            ctx.emit("settlement", {"bets": booked, "partial": True})
        result = {"round": ctx.row["round_no"], "phase": ctx.row["phase"]}
    mine = open_bets.get(event.bet) if event.bet else None
    result["balance"] = ledger.balance(ctx.conn, ledger.wallet(mine["player"] if mine else user))
    return result


def conclude(ctx: Ctx) -> dict[str, Any]:
    """End the round: collect and book every decided bet (void ones handed back), reveal the seed, write
    the round record, and decide whether the next round starts from a fresh state."""
    doc = settlement_doc(ctx) if ctx.state is not None else None
    results: dict[str, Any] = {}
    pending: list[str] = []
    if doc is not None:
        sync_stakes(ctx, doc)
        results = book(ctx, doc, include_void=True)
        pending = [b for b, e in doc["bets"].items() if e["status"] == "pending"]
    carries = bool(pending) or getattr(ctx.state, "next_table", None) is not None or banker.partida_goes_on(ctx)
    effective = getattr(ctx.state, "table", None)
    if isinstance(effective, dict):
        effective = {k: v for k, v in circle.table_config(ctx.game, effective).items()
                     if k != "cut-card" or "cut-card" in ctx.row["config"]}
    if isinstance(effective, dict) and effective != ctx.row["config"] and getattr(ctx.state, "next_table", None) is None:
        ctx.set(config=dict(effective))
        ctx.emit("limits-in-force", {"table": dict(effective)})
    if carries and not pending and not banker.partida_goes_on(ctx) and not takes_bets(ctx):
        reopen_announced(ctx)
    booked = dict(ctx.row["booked"] or {})
    booked["rollover"] = not carries
    ctx.set(booked=booked)
    record = round_record(ctx)
    shoe_note = end_of_coup_shoe(ctx, record) if ctx.game.uses_shoe and ctx.spec.source == "rng" else None
    lines = getattr(ctx.state, "log", None)
    record.update({
        "round": ctx.row["round_no"], "round_id": ctx.row["round_id"], "table_id": ctx.table_id, "game": ctx.game.id,
        "jurisdiction": ctx.jurisdiction, "commitment": commitment(ctx.row["seed"]) if ctx.row["seed"] else record.get("commitment"),
        "seed": ctx.row["seed"], "settlement": doc, "pending": pending,
        "log": lines[record.get("log_start", 0):] if isinstance(lines, list) else [],
    })
    if shoe_note is not None:
        record["shoe"] = shoe_note
    if ctx.game.uses_shoe and ctx.state is not None:
        record["view"] = state_view(ctx.state, over=True)     # the coup as the table showed it at its end
        if ctx.coup is not None:
            record["coup"] = ctx.coup          # read back through views.doc_view, per viewer
    ctx.round_dirty = True
    ctx.conn.execute(update(rounds).where(rounds.c.id == ctx.row["round_id"]).values(
        status="settled", settled_at=ctx.now, seed=ctx.row["seed"]))
    deadline = ctx.now + ctx.spec.timing.pause if ctx.spec.auto else None
    ctx.set(phase="settled", deadline=deadline, pre_outcome=None)
    ctx.emit("settlement", {"bets": results, "house": doc["house"] if doc else None, "pending": pending,
                            "seed": ctx.row["seed"], "log": record["log"][-40:]})
    record["events"] = round_events(load_round_records(ctx, record) + [(k, d) for k, _, d in ctx.records])
    return {"round": ctx.row["round_no"], "phase": "settled", "bets": results, "pending": pending}


def takes_bets(ctx: Ctx) -> bool:
    """Whether the engine's state would take a new bet (a state carried to the next round must)."""
    return ctx.state is not None and any(a.verb == "bet" and a.kind is not None for a in ctx.game.legal_actions(ctx.state))


def reopen_announced(ctx: Ctx) -> None:
    """A round the server ended without the engine ending it (a void that annuls it, a restart voiding it)
    leaves a state that refuses bets: carrying it for an announced limit change stopped the table for good.
    The next round opens a fresh state at the limits in force with the change announced again: its count of
    spins or rounds starts afresh (R: docs/rulings.md#server-limit-change-after-a-void)."""
    announced = getattr(ctx.state, "next_table", None)
    if ctx.game.uses_shoe or announced is None:
        return
    state = open_state(ctx.game, ctx.jurisdiction, ctx.row["config"], ctx.spec.source, seed=None)
    changed = {k: v for k, v in announced.items() if ctx.row["config"].get(k) != v}
    ctx.state = guarded(ctx.game.step, state, Limits(changed)) if changed else state
    ctx.state_changed = True
    if changed:      # not an engine record of this round: the announcement belongs to the next one's fresh state
        ctx.emit("limits-announced", {"limits": changed, "say": "the round was annulled: the limit change is announced again"})


def load_round_records(ctx: Ctx, record: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    start = record.get("start_seq", 0)
    found = ctx.conn.execute(text("SELECT kind, data FROM events WHERE table_id = :t AND seq > :s ORDER BY seq"),
                             {"t": ctx.table_id, "s": start}).all()
    return [(kind, data if isinstance(data, dict) else json.loads(data)) for kind, data in found]


def round_events(records: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The round as a docs/format.md event list: a corrected result replaces the keyed one, a result annulled
    by a void before confirmation is dropped (the engine state never kept it)."""
    out: list[Any] = []
    last_outcome: int | None = None
    for kind, data in records:
        if kind not in ENGINE_KINDS:
            continue
        if kind == "correct" and last_outcome is not None:
            out[last_outcome] = data["event"]
            continue
        if kind == "void" and data.get("annulled") and last_outcome is not None:
            out.pop(last_outcome)
            last_outcome = None
        if kind == "outcome":
            last_outcome = len(out)
        out.append(data["event"])
    return out


def end_of_coup_shoe(ctx: Ctx, record: dict[str, Any]) -> dict[str, Any] | None:
    """Advance the electronic shoe by the cards this state dealt; at the cut card, end the shoe: log the
    card counts and reveal its seed."""
    info = dict(ctx.row["shoe"] or {})
    dealt = dealt_cards(ctx.state)
    if not info or dealt is None:
        return None
    start = info.get("start", info["position"])
    info["position"] = start + len(dealt)
    note = {"commitment": info["commitment"], "start": start, "dealt": dealt, "number": info["number"]}
    if shoe_over(ctx.state) or ctx.game.fresh_deck_each_round or info["total"] - info["position"] < 10:
        info["ended"] = True
        note["seed"] = info["seed"]
        ctx.emit("shoe", {"event": "end", "number": info["number"], "dealt": info["position"],
                          "remaining": info["total"] - info["position"], "seed": info["seed"], "commitment": info["commitment"]})
    ctx.set(shoe=info)
    return note


def op_advance(ctx: Ctx) -> dict[str, Any] | None:
    """The table's clock: whatever the phase's deadline calls for."""
    deadline = ctx.row["deadline"]
    if deadline is None or deadline > ctx.now:
        return None
    phase = ctx.row["phase"]
    if phase == "betting":
        return op_close(ctx, None)
    if phase == "closed" and ctx.spec.source == "rng":
        return op_draw(ctx)
    if phase == "acting":
        ctx.emit("timeout", {"say": "time: the defaults apply"})
        return coup_end(ctx)
    if phase == "confirming":
        return op_confirm(ctx)
    if phase in ("settled", "idle"):
        if not ctx.spec.auto:
            ctx.set(deadline=None)
            return None
        if not ctx.open_now():
            if phase != "idle":
                ctx.set(phase="idle")
                ctx.emit("phase", {"say": "the table closes: outside its opening hours"})
                privacy.end_session(ctx.conn, ctx.table_id, ctx.now)
            ctx.set(deadline=ctx.now + 30)
            return None
        return op_open(ctx)
    ctx.set(deadline=None)
    return None


def op_recover(ctx: Ctx) -> dict[str, Any]:
    """A process (re)takes the table: resume the round from its persisted state, or — where the table's
    policy is `void` and the engine agrees — void it and hand every undecided stake back."""
    phase = ctx.row["phase"]
    ctx.emit("recovered", {"policy": ctx.spec.recovery, "was": phase})
    if ctx.spec.recovery == "void" and phase in ("betting", "closed", "acting", "confirming") and ctx.state is not None:
        base = ctx.state
        if phase == "confirming" and ctx.row["pre_outcome"]:
            base = from_json(ctx.game.state_type(), json.loads(ctx.row["pre_outcome"]))
        try:
            trial = ctx.game.finish(ctx.game.step(base, Void("server-restart")))
            doc = ctx.game.settle(trial).document(rounding=ctx.rounding)  # type: ignore[arg-type]
        except TapeteError as exc:
            ctx.emit("phase", {"say": f"the round cannot be voided ({exc.code}): it resumes"})
        else:
            if all(e["status"] != "pending" for e in doc["bets"].values()):
                ctx.state = trial
                ctx.state_changed = True
                ctx.emit("void", {"event": {"void": "server-restart"}})
                return conclude(ctx)
            ctx.emit("phase", {"say": "bets would stay on the layout: the round resumes"})
    timing = ctx.spec.timing
    if ctx.spec.auto:
        wait = {"betting": timing.bets, "closed": timing.spin, "acting": timing.act, "settled": timing.pause,
                "idle": 0.0, "confirming": timing.confirm or None}.get(phase)
        ctx.set(deadline=ctx.now + wait if wait is not None else None)
    return {"round": ctx.row["round_no"], "phase": phase}
