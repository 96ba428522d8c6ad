"""The double-entry ledger: every movement of money is one transaction whose postings sum to zero.

Accounts (integer cents; a positive balance is what the casino holds for that purpose):
  wallet:<user>         a player's chips (never negative: a database CHECK and a guarded UPDATE)
  stakes:<table>        stakes on the layout, collected from wallets, not yet decided (never negative)
  float:<table>         the table's bank: receives lost stakes, pays winnings (house money, may go negative)
  commission:<table>    commissions, cagnotte, rake the settlement names
  stack:<table>:<p>     a seated player's chips at a table-stakes table (never negative)
  jackpot:<table>:<n>   amounts a game carries to later coups (jackpots, reserve funds)
  bank                  the house's capital that funds the floats (fills and credits)
  cage                  the cashier's cash: the counterpart of chips bought and cashed out

Since each transaction balances, the sum of all balances is always zero; `check()` proves it from the
postings, and that every balance equals the sum of its postings.

Every transaction is linked into a hash chain (audit/ledger_chain.py): a table's operations pass their table's
lane (`Lane`, held under the table's lock), everything else goes into the cage lane, locked and advanced here.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, bindparam, func, insert, select, text, update

from tapete.core.errors import TapeteError
from tapete.server.audit.ledger_chain import CAGE, HEAD_KEY, LOCK_KEY, Lane, parse_head
from tapete.server.storage import hot
from tapete.server.storage.db import accounts, ledger_tx, meta_kv, postings

NEGATIVE_FORBIDDEN = ("wallet", "stakes", "stack")


def wallet(user: str) -> str:
    return f"wallet:{user}"


def stakes(table: str) -> str:
    return f"stakes:{table}"


def float_(table: str) -> str:
    return f"float:{table}"


def commission(table: str) -> str:
    return f"commission:{table}"


def stack(table: str, player: str) -> str:
    """A player's chips in front of him at a table-stakes table (circle poker): bought in from the wallet."""
    return f"stack:{table}:{player}"


def jackpot(table: str, name: str) -> str:
    return f"jackpot:{table}:{name}"


def kind_of(account: str) -> str:
    return account.split(":", 1)[0]


@dataclass
class Entry:
    """A transaction being built: postings (account, amount, bet) that must sum to zero."""

    kind: str
    table_id: str | None = None
    round_id: int | None = None
    actor: str | None = None
    memo: str | None = None
    lines: list[tuple[str, int, str | None]] = field(default_factory=list)

    def move(self, source: str, target: str, amount: int, bet: str | None = None) -> Entry:
        """`amount` cents from `source` to `target` (two postings)."""
        if amount:
            self.lines.append((source, -amount, bet))
            self.lines.append((target, amount, bet))
        return self

    def post(self, account: str, amount: int, bet: str | None = None) -> Entry:
        if amount:
            self.lines.append((account, amount, bet))
        return self


def ensure_account(conn: Connection, account: str, owner: str | None = None) -> None:
    exists = conn.execute(select(accounts.c.id).where(accounts.c.id == account)).first()
    if exists is None:
        conn.execute(insert(accounts).values(id=account, kind=kind_of(account), owner=owner, balance=0))


# Built once: the hot path (a bet is two postings) should not rebuild statements for every request.
_CREDIT = (update(accounts).where(accounts.c.id == bindparam("aid"))
           .values(balance=accounts.c.balance + bindparam("delta")).returning(accounts.c.balance))
_DEBIT_GUARDED = (update(accounts).where(accounts.c.id == bindparam("aid"), accounts.c.balance >= bindparam("need"))
                  .values(balance=accounts.c.balance + bindparam("delta")).returning(accounts.c.balance))
_TX = insert(ledger_tx).values(ts=bindparam("ts"), kind=bindparam("kind"), table_id=bindparam("table_id"),
                               round_id=bindparam("round_id"), actor=bindparam("actor"), memo=bindparam("memo"),
                               chain=bindparam("chain"), chain_seq=bindparam("chain_seq"),
                               prev_hash=bindparam("prev_hash"), hash=bindparam("hash"))
_CHAIN = ("chain", "chain_seq", "prev_hash", "hash")


def cage_lane(conn: Connection) -> Lane:
    """The cage lane's head, locked (PostgreSQL: a transaction-scoped advisory lock, taken before any balance
    moves so that two cage transactions never wait on each other's account rows; SQLite: the single writer)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK_KEY})
    seq, digest = parse_head(conn.execute(select(meta_kv.c.value).where(meta_kv.c.key == HEAD_KEY)).scalar(), CAGE)
    return Lane(CAGE, seq, digest)


def store_cage_head(conn: Connection, lane: Lane) -> None:
    value = f"{lane.seq}:{lane.hash}"
    if conn.execute(update(meta_kv).where(meta_kv.c.key == HEAD_KEY).values(value=value)).rowcount == 0:
        conn.execute(insert(meta_kv).values(key=HEAD_KEY, value=value, flag=None))


def commit(conn: Connection, entry: Entry, balances: bool = True, lane: Lane | None = None) -> dict[str, int] | None:
    """Write one balanced transaction; refuse (insufficient-funds) any that would make a wallet negative.
    Returns the new balance of every account it touched (None for an empty transaction); with
    `balances=False` only those of the guarded debits (`_tx` always). `lane`: the table's ledger lane, which
    the caller holds under the table's lock; None: the cage lane, locked and stored here."""
    if not entry.lines:
        return None
    total = sum(amount for _, amount, _ in entry.lines)
    if total != 0:
        raise AssertionError(f"unbalanced transaction {entry.kind}: {entry.lines}")
    cage = lane is None
    if lane is None:
        lane = cage_lane(conn)
    net: dict[str, int] = {}
    for account, amount, _ in entry.lines:
        net[account] = net.get(account, 0) + amount
    balances_after: dict[str, int] = {}
    if not balances:
        _add_unguarded(conn, net)
    for account, delta in sorted(net.items()):
        if delta == 0:
            continue
        if delta < 0 and kind_of(account) in NEGATIVE_FORBIDDEN:
            row = conn.execute(_DEBIT_GUARDED, {"aid": account, "need": -delta, "delta": delta}).first()
        else:
            row = conn.execute(_CREDIT, {"aid": account, "delta": delta}).first()
        if row is None:
            exists = conn.execute(select(accounts.c.balance).where(accounts.c.id == account)).first()
            if exists is None:
                raise TapeteError("unknown-account", f"no account {account}")
            who = account.split(":", 1)[-1]
            raise TapeteError("insufficient-funds", f"{who} has {exists[0]} cents: {-delta} are needed")
        balances_after[account] = int(row[0])
    ts = time.time()
    tx = {"ts": ts, "kind": entry.kind, "table_id": entry.table_id, "round_id": entry.round_id,
          "actor": entry.actor, "memo": entry.memo,
          **dict(zip(_CHAIN, lane.advance(ts, entry.kind, entry.table_id, entry.round_id, entry.actor, entry.memo,
                                          entry.lines), strict=True))}
    if conn.dialect.name == "postgresql" and len(entry.lines) <= _ONE_TRIP_LINES:
        # PostgreSQL: the transaction and its postings in one statement (one round trip, not two)
        params = dict(tx)
        for i, (a, m, b) in enumerate(entry.lines):
            params.update({f"a{i}": a, f"m{i}": m, f"b{i}": b})
        tx_id = conn.execute(_tx_with_postings(len(entry.lines)), params).scalar_one()
    else:
        tx_id = conn.execute(_TX, tx).inserted_primary_key[0]
        hot.POSTING_INSERT.many(conn, [(tx_id, a, m, b) for a, m, b in entry.lines])
    if cage:
        store_cage_head(conn, lane)
    balances_after["_tx"] = int(tx_id)
    return balances_after


_ONE_TRIP_LINES = 16
_MANY_ACCOUNTS = 3


def _add_unguarded(conn: Connection, net: dict[str, int]) -> None:
    """The credits, and the debits no CHECK guards (a float), of a transaction whose caller needs no balances
    back, in one statement (hot.ACCOUNT_ADD): a settlement pays a wallet per winner, and an UPDATE ... RETURNING
    per account was a sixth of its CPU. Taken out of `net`; the guarded debits stay one by one. On PostgreSQL
    the rows are locked first in id order, as the one-by-one UPDATEs (in sorted order) locked them: wallets are
    shared between tables, and two settlements must not take them in opposite orders."""
    plain = sorted((a, d) for a, d in net.items() if d > 0 or (d < 0 and kind_of(a) not in NEGATIVE_FORBIDDEN))
    if len(plain) < _MANY_ACCOUNTS:
        return
    if conn.dialect.name == "postgresql":
        conn.execute(_BALANCES_LOCKED, {"ids": [a for a, _ in plain]}).all()
    if hot.ACCOUNT_ADD.many(conn, [(d, a) for a, d in plain]) != len(plain):
        found = {r[0] for r in conn.execute(_BALANCES, {"ids": [a for a, _ in plain]})}
        missing = next(a for a, _ in plain if a not in found)
        raise TapeteError("unknown-account", f"no account {missing}")
    for a, _ in plain:
        del net[a]
_BALANCES = (select(accounts.c.id, accounts.c.balance).where(accounts.c.id.in_(bindparam("ids", expanding=True)))
             .order_by(accounts.c.id))
_BALANCES_LOCKED = _BALANCES.with_for_update()
# The rows given as one JSON parameter (hot.rows_from): in the order given (ORDER BY the ordinality), so the serial
# ids they draw rise in that order.
_TX_COLUMNS = [("ts", "DOUBLE PRECISION"), ("kind", "TEXT"), ("table_id", "TEXT"), ("round_id", "INTEGER"),
               ("actor", "TEXT"), ("memo", "TEXT"), ("chain", "TEXT"), ("chain_seq", "INTEGER"), ("prev_hash", "TEXT"),
               ("hash", "TEXT")]
_TX_MANY_PG = ("INSERT INTO ledger_tx (ts, kind, table_id, round_id, actor, memo, chain, chain_seq, prev_hash, hash) "
               "SELECT v.ts, v.kind, v.table_id, v.round_id, v.actor, v.memo, v.chain, v.chain_seq, v.prev_hash, v.hash "
               f"FROM {hot.rows_from(_TX_COLUMNS, ordinality='n')} ORDER BY v.n RETURNING id")
_POSTINGS_BY_LINK_PG = ("INSERT INTO postings (tx_id, account_id, amount, bet_id) SELECT t.id, p.a, p.m, p.b "
                        "FROM " + hot.rows_from([("chain", "TEXT"), ("seq", "INTEGER"), ("a", "TEXT"), ("m", "BIGINT"),
                                                 ("b", "TEXT")], alias="p", ordinality="n")
                        + " JOIN {tx} AS t ON t.chain = p.chain AND t.chain_seq = p.seq ORDER BY p.n")


class Batch:
    """The ledger entries of a batch of bets: each checked in memory, in order, exactly as `commit` would
    check it against the balances the entries before it left, then all written by `flush` in one set of
    statements (one UPDATE per account for the batch, the transactions in one INSERT, the postings in one).

    Why: four statements per request were most of a group-committed bet's own work (docs/performance.md).
    Sound because the balances cannot move under the batch: they are read inside its write transaction
    (SQLite's single writer; on PostgreSQL the rows are locked FOR UPDATE, in id order like `commit`); the
    database's CHECK on wallets, stakes and stacks stays the backstop. An entry refused here (short of
    funds) leaves no trace in the batch, so it does not fail its neighbours. Each entry taken is linked into
    the table's ledger lane at once, in the order taken (the order `flush` writes them)."""

    def __init__(self, conn: Connection, prefetch: Iterable[str] = (), *, lane: Lane, known: dict[str, int] | None = None) -> None:
        self.conn = conn
        self.lane = lane
        # `known`: balances already read (and locked) by this transaction (hot.lock_for_batch's one round trip)
        self.balances: dict[str, int] = dict(known or {})
        self.deltas: dict[str, int] = {}
        self.entries: list[tuple[Entry, float, tuple[str, int, str, str]]] = []
        self._fetch(prefetch)

    def _fetch(self, ids: Iterable[str]) -> None:
        missing = sorted(set(ids) - self.balances.keys())
        if not missing:
            return
        q = _BALANCES_LOCKED if self.conn.dialect.name == "postgresql" else _BALANCES
        for account, amount in self.conn.execute(q, {"ids": missing}):
            self.balances[account] = int(amount)

    def balance(self, account: str) -> int:
        self._fetch([account])
        return self.balances.get(account, 0)

    def add(self, entry: Entry) -> dict[str, int] | None:
        """Check and take one balanced transaction; the new balance of every account it touched (as `commit`)."""
        if not entry.lines:
            return None
        if sum(amount for _, amount, _ in entry.lines) != 0:
            raise AssertionError(f"unbalanced transaction {entry.kind}: {entry.lines}")
        net: dict[str, int] = {}
        for account, amount, _ in entry.lines:
            net[account] = net.get(account, 0) + amount
        self._fetch(net)
        after: dict[str, int] = {}
        for account, delta in sorted(net.items()):
            if delta == 0:
                continue
            if account not in self.balances:
                raise TapeteError("unknown-account", f"no account {account}")
            now = self.balances[account] + delta
            if delta < 0 and now < 0 and kind_of(account) in NEGATIVE_FORBIDDEN:
                who = account.split(":", 1)[-1]
                raise TapeteError("insufficient-funds", f"{who} has {self.balances[account]} cents: {-delta} are needed")
            after[account] = now
        for account, now in after.items():          # every check passed: only now does the batch take it
            self.deltas[account] = self.deltas.get(account, 0) + now - self.balances[account]
            self.balances[account] = now
        ts = time.time()
        self.entries.append((entry, ts, self.lane.advance(ts, entry.kind, entry.table_id, entry.round_id, entry.actor,
                                                          entry.memo, entry.lines)))
        return after

    def flush(self) -> None:
        """Write every entry taken: the balances, one ledger transaction per entry and its postings."""
        if not self.entries:
            return
        hot.ACCOUNT_ADD.many(self.conn, [(d, a) for a, d in sorted(self.deltas.items()) if d])
        txs = [(ts, e.kind, e.table_id, e.round_id, e.actor, e.memo, *link) for e, ts, link in self.entries]
        if self.conn.dialect.name == "sqlite":
            # One executemany; the single writer's rowids are consecutive, the last one read back (SQLite's
            # RETURNING in parameter order would be a statement per row).
            hot.LEDGER_TX_INSERT.many(self.conn, txs)
            last = int(self.conn.exec_driver_sql("SELECT last_insert_rowid()").scalar_one())
            ids = list(range(last - len(txs) + 1, last + 1))
        elif (fold := hot.folded(self.conn)) is not None:
            # Folded with the transaction's other writes (hot.Folded): the postings find their transaction's id
            # by its place in the lane (chain, chain_seq: unique), from the clause that inserts the transactions.
            tx = fold.add(_TX_MANY_PG + ", chain, chain_seq", (hot.rows_json(txs),), name="ledger_txs")
            rows = [(link[0], link[1], a, m, b) for e, _, link in self.entries for a, m, b in e.lines]
            fold.add(_POSTINGS_BY_LINK_PG.format(tx=tx), (hot.rows_json(rows),))
            self.entries, self.deltas = [], {}
            return
        else:
            # One statement, the rows one parameter (SQLAlchemy's multi-row VALUES had 6 parameters a request: too
            # many for psycopg's statement cache, parsed again every batch). The rows are inserted in parameter
            # order (ORDER BY the ordinality), so the serial ids they draw rise in that order.
            found = self.conn.exec_driver_sql(_TX_MANY_PG, (hot.rows_json(txs),))
            ids = sorted(int(r[0]) for r in found)
        hot.POSTING_INSERT.many(self.conn, [(tx_id, a, m, b) for tx_id, (e, _, _) in zip(ids, self.entries, strict=True)
                                            for a, m, b in e.lines])
        self.entries, self.deltas = [], {}


@lru_cache(maxsize=_ONE_TRIP_LINES)
def _tx_with_postings(n: int) -> Any:
    rows = ", ".join(f"(CAST(:a{i} AS VARCHAR), CAST(:m{i} AS BIGINT), CAST(:b{i} AS VARCHAR))" for i in range(n))
    return text("WITH t AS (INSERT INTO ledger_tx (ts, kind, table_id, round_id, actor, memo, chain, chain_seq, prev_hash, hash) "
                "VALUES (:ts, :kind, :table_id, :round_id, :actor, :memo, :chain, :chain_seq, :prev_hash, :hash) RETURNING id), "
                "p AS (INSERT INTO postings (tx_id, account_id, amount, bet_id) "
                f"SELECT t.id, v.a, v.m, v.b FROM t CROSS JOIN (VALUES {rows}) AS v(a, m, b)) "
                "SELECT id FROM t")


def balance(conn: Connection, account: str) -> int:
    row = conn.execute(select(accounts.c.balance).where(accounts.c.id == account)).first()
    return int(row[0]) if row else 0


def balances(conn: Connection, ids: Iterable[str] | None = None) -> dict[str, int]:
    q = select(accounts.c.id, accounts.c.balance)
    if ids is not None:
        q = q.where(accounts.c.id.in_(list(ids)))
    return {r[0]: int(r[1]) for r in conn.execute(q)}


def check(conn: Connection) -> dict[str, Any]:
    """The ledger's invariants, from scratch: every transaction balances, balances equal their postings,
    everything sums to zero, no wallet or stakes account is negative."""
    unbalanced = conn.execute(
        select(postings.c.tx_id, func.sum(postings.c.amount)).group_by(postings.c.tx_id)
        .having(func.sum(postings.c.amount) != 0)).all()
    from_postings = dict(conn.execute(select(postings.c.account_id, func.sum(postings.c.amount))
                                      .group_by(postings.c.account_id)).all())
    stored = balances(conn)
    mismatched = {a: (b, int(from_postings.get(a) or 0)) for a, b in stored.items() if b != int(from_postings.get(a) or 0)}
    negative = {a: b for a, b in stored.items() if kind_of(a) in NEGATIVE_FORBIDDEN and b < 0}
    total = sum(stored.values())
    return {
        "ok": not unbalanced and not mismatched and not negative and total == 0,
        "sum": total,
        "accounts": len(stored),
        "transactions": int(conn.execute(select(func.count()).select_from(ledger_tx)).scalar_one()),
        "unbalanced_transactions": [int(t) for t, _ in unbalanced],
        "mismatched_accounts": mismatched,
        "negative_accounts": negative,
    }
