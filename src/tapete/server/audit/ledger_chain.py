"""The ledger's own hash chains: every ledger transaction carries the hash of its predecessor and of its postings.

A chain needs one writer at a time, and the ledger has many: each table writes its bets and settlements under
its own row lock (PostgreSQL runs tables in parallel), the cage writes under an advisory lock. So the ledger is
chained in *lanes*, each with a single writer:

  table:<id>   every transaction a table operation writes (bets, stakes synced, settlements, buy-ins, cash-outs,
               rebuys, the bank's rounding): written under the table's lock; its head is stored in the table's
               row (casino_tables.ledger_seq, ledger_hash) and, after every operation that moved it, in the
               table's event chain (the record's `ledger` key), whose head an inspector notes;
  cage         every other transaction (deposits, withdrawals, fills, credits, a table's opening float): written
               under an advisory lock; its head is stored in meta_kv `ledger-head:cage`, and each of its
               transactions but an opening float is named (`tx`) by a record of the staff log.

hash = SHA-256(prev_hash || body), body = the transaction's lane, sequence number, time, kind, table, round,
actor, memo and its postings (account, amount, bet), sorted: a posting edited, added, moved or deleted, a
transaction inserted, deleted or edited breaks the hash of its transaction and the link of every later one.
`tapete audit verify` (audit/verify.py) recomputes every lane.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Connection, select

from tapete.server.storage.db import casino_tables, meta_kv

CAGE = "cage"
HEAD_KEY = "ledger-head:cage"
LOCK_KEY = 7411019              # PostgreSQL advisory lock of the cage lane (staff_log's is 7411017)


def table_lane(table_id: str) -> str:
    return f"table:{table_id}"


def genesis(lane: str) -> str:
    return hashlib.sha256(f"tapete:ledger:{lane}".encode()).hexdigest()


def _line_key(line: tuple[str, int, str | None]) -> tuple[str, int, str]:
    return line[0], line[1], line[2] or ""


def tx_hash(prev_hash: str, lane: str, seq: int, ts: float, kind: str, table_id: str | None, round_id: int | None,
            actor: str | None, memo: str | None, lines: Iterable[tuple[str, int, str | None]]) -> str:
    """The link of one transaction. orjson (C) over a list: this runs once per bet on the bet path."""
    body = orjson.dumps([lane, seq, ts, kind, table_id, round_id, actor, memo, sorted(lines, key=_line_key)])
    return hashlib.sha256(prev_hash.encode() + body).hexdigest()


@dataclass
class Lane:
    """A lane's head while one writer holds it: `advance` links the next transaction."""

    name: str
    seq: int
    hash: str
    moved: bool = False

    @classmethod
    def of_table(cls, table_id: str, seq: int | None, digest: str | None) -> Lane:
        lane = table_lane(table_id)
        return cls(lane, int(seq or 0), digest or genesis(lane))

    def advance(self, ts: float, kind: str, table_id: str | None, round_id: int | None, actor: str | None,
                memo: str | None, lines: Iterable[tuple[str, int, str | None]]) -> tuple[str, int, str, str]:
        """(lane, seq, prev_hash, hash) of the next transaction, taken as the new head."""
        prev, seq = self.hash, self.seq + 1
        self.hash = tx_hash(prev, self.name, seq, ts, kind, table_id, round_id, actor, memo, lines)
        self.seq, self.moved = seq, True
        return self.name, seq, prev, self.hash

    def mark(self) -> dict[str, Any]:
        """What the table's event chain records of the lane: its head."""
        return {"seq": self.seq, "hash": self.hash}


def parse_head(value: str | None, lane: str) -> tuple[int, str]:
    if not value:
        return 0, genesis(lane)
    seq, _, digest = value.partition(":")
    return int(seq), digest


def heads(conn: Connection) -> dict[str, dict[str, Any]]:
    """Every lane's stored head, {lane: {seq, hash}}: what an inspector notes beside the tables' log heads."""
    out = {CAGE: dict(zip(("seq", "hash"), parse_head(
        conn.execute(select(meta_kv.c.value).where(meta_kv.c.key == HEAD_KEY)).scalar(), CAGE), strict=True))}
    for t, seq, digest in conn.execute(select(casino_tables.c.id, casino_tables.c.ledger_seq, casino_tables.c.ledger_hash)):
        lane = Lane.of_table(t, seq, digest)
        out[lane.name] = lane.mark()
    return dict(sorted(out.items()))
