"""One transaction on one table (`Ctx`) and the helpers every operation uses: the engine guarded, the
state loaded, the open bets, the stakes collected and the bets booked in the ledger."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection, select, text

from tapete.conformance.document import parse_event
from tapete.core.errors import TapeteError
from tapete.engine.game import Game
from tapete.engine.serialize import from_json
from tapete.server.audit.ledger_chain import Lane
from tapete.server.config import TableConfig
from tapete.server.money import ledger
from tapete.server.storage import fastjson
from tapete.server.storage.db import casino_tables, rounds
from tapete.server.storage.idempotency import Replay, check_idempotency  # noqa: F401 - the service names them
from tapete.server.tables import banker, circle
from tapete.server.tables.adapters import TableAdapter, adapter_for
from tapete.server.tables.fairness import event_document
from tapete.server.tables.open_bets import load_open_bets
from tapete.server.tables.protocol import PhaseTable

PHASES = ("idle", "betting", "closed", "acting", "confirming", "settled")
FINAL = ("won", "lost", "push")
STAFF = ("croupier", "chief")
TABLE_VERBS = ("bet", "deal", "close")     # legal actions that are the table's, not a player's decision


def is_table_verb(action: Any) -> bool:
    """A new bet (it has a kind), the deal, the close; a poker `bet` on a hand (no kind) is a decision."""
    return action.verb in TABLE_VERBS and not (action.verb == "bet" and action.kind is None and action.bet is not None)
ENGINE_KINDS = ("bet", "close", "outcome", "act", "deal", "void", "limits", "correct")


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
    pending_ledger: ledger.Batch | None = None   # a batch of bets: entries checked in memory, written together
    lane: Lane | None = None             # the table's ledger lane (audit/ledger_chain.py), held under its lock

    def __post_init__(self) -> None:
        if self.lane is None:
            self.lane = Lane.of_table(self.spec.id, self.row.get("ledger_seq"), self.row.get("ledger_hash"))

    @property
    def adapter(self) -> TableAdapter:
        return adapter_for(self.game)

    @property
    def phase(self) -> str:
        return str(self.row["phase"])

    @property
    def phases(self) -> PhaseTable:
        return self.adapter.phases

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


def load_state(conn: Connection, game: Game, table_id: str, row: dict[str, Any] | None = None) -> Any:
    """The table's state: the last snapshot, then the bets logged after it and up to the row's last record,
    applied in order. Snapshot, its sequence number and the log's head come from ONE read of the row (`row`
    when it holds the snapshot, else read here): a reader outside a locked transaction that took them from two
    reads, on PostgreSQL's read-committed, could pair a later round's snapshot with an earlier round's bets and
    replay them onto it (a lobby that answered 409 while another node played the table)."""
    if row is None or "state" not in row:
        found = conn.execute(select(casino_tables.c.state, casino_tables.c.state_seq, casino_tables.c.log_seq)
                             .where(casino_tables.c.id == table_id)).mappings().one()
        row = dict(found)
    raw = row["state"]
    if not raw:
        return None
    state = from_json(game.state_type(), raw if isinstance(raw, dict) else fastjson.loads(raw))
    found = conn.execute(text("SELECT data FROM events WHERE table_id = :t AND seq > :s AND seq <= :last "
                              "AND kind = 'bet' ORDER BY seq"),
                         {"t": table_id, "s": row["state_seq"] or 0, "last": row["log_seq"]}).all()
    for (data,) in found:
        data = data if isinstance(data, dict) else fastjson.loads(data)
        game.apply(state, parse_event(game, data["event"], 0))
    return state


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


def apply_event(ctx: Ctx, event: Any) -> None:
    """Apply an event to the transaction's state in place, as `Game.step` would to a copy. The transaction owns
    its state: taken out of the service's cache when loaded, put back only with the transaction's success, and
    any failure drops it (`TableService.forget`) so the next transaction rebuilds it from the database. The
    engine's defensive copy therefore protected nothing here, and at no va más and the draw it copied every
    bet of the round (docs/performance.md, third pass). A refused or half-applied event fails the transaction."""
    ctx.touched = True
    guarded(ctx.game.apply, ctx.state, event)


def step(ctx: Ctx, event: Any, kind: str, extra: dict[str, Any] | None = None, actor: str | None = None) -> None:
    apply_event(ctx, event)
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
_PROBED: dict[tuple[str, str, str, bytes, bytes], int] = {}
_KEY = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
_PROBED_MAX = 4096


def probe_staked(ctx: Ctx, event: Any) -> int:
    """What a new bet stakes, as the engine counts it (an announced bet is chips x value, an insured bet
    adds its premium): settled alone on a fresh table of the same limits, so the cost does not grow with
    the bets already on the layout; the whole state's settlement where that probe cannot be made."""
    table = getattr(ctx.state, "table", None)
    limits = dict(table if isinstance(table, dict) else ctx.row["config"])
    try:
        doc = {k: v for k, v in event_document(event)["bet"].items() if k not in ("id", "player")}
        key = (ctx.game.id, ctx.jurisdiction, ctx.rounding, orjson.dumps(limits, option=_KEY), orjson.dumps(doc, option=_KEY))
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


def commit_entry(ctx: Ctx, entry: ledger.Entry) -> dict[str, int] | None:
    """The entry written now, or taken into the batch's ledger (batch.py) to be written with the batch's."""
    return ctx.pending_ledger.add(entry) if ctx.pending_ledger is not None else ledger.commit(ctx.conn, entry, lane=ctx.lane)


def wallet_balance(ctx: Ctx, user: str) -> int:
    account = ledger.wallet(user)
    return ctx.pending_ledger.balance(account) if ctx.pending_ledger is not None else ledger.balance(ctx.conn, account)


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
    ledger.commit(ctx.conn, entry, balances=False, lane=ctx.lane)


def book(ctx: Ctx, doc: dict[str, Any], include_void: bool) -> dict[str, dict[str, Any]]:
    """Book every bet the engine has decided: stake out of `stakes`, the return to the wallet, the rest to
    the table's float; commission and carried amounts to their accounts. One 'settle' transaction."""
    open_bets = load_open_bets(ctx)
    t = ctx.table_id
    entry = ledger.Entry("settle", t, ctx.row["round_id"], ctx.actor)
    results: dict[str, dict[str, Any]] = {}
    house: str | None = None          # the same for every bet (asked once, when a bet is booked); a stake account per kind
    held: dict[str, str] = {}
    for bet_id, e in doc["bets"].items():
        b = open_bets.get(bet_id)
        if b is None or b["status"] != "open":
            continue
        status = e["status"]
        if status in FINAL or (status == "void" and include_void):
            c, r = b["collected"], e["returned"]
            kind = b["kind"]
            if kind not in held:
                held[kind] = banker.stake_account(ctx, kind)
            if house is None:
                house = banker.counterparty(ctx)
            entry.post(held[kind], -c, bet_id).post(circle.purse(ctx, b["player"]), r, bet_id).post(house, c - r, bet_id)
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
    ledger.commit(ctx.conn, entry, balances=False, lane=ctx.lane)
    banker.sweep(ctx)
    return results


def round_record(ctx: Ctx) -> dict[str, Any]:
    if ctx.round_record is None:
        found = ctx.conn.execute(select(rounds.c.record).where(rounds.c.id == ctx.row["round_id"])).first()
        ctx.round_record = dict(found[0]) if found and found[0] else {}
    return ctx.round_record
