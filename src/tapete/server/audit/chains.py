"""The append-only, hash-chained event log of each table.

Every record carries the SHA-256 of its predecessor: hash = sha256(prev_hash || canonical JSON of the
record). Changing, inserting or deleting any past record breaks every hash after it, which `verify_chain`
finds. The log holds what the catalogs ask a casino to keep: each round's opening (with the fairness
commitment), the bets, no va más, the outcome, the settlement, voids and corrections with who made them,
limit changes, and the card counts when a shoe ends.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection, select

from tapete.server.storage import fastjson, hot
from tapete.server.storage.db import casino_tables, events


def genesis(table_id: str) -> str:
    return hashlib.sha256(f"tapete:{table_id}".encode()).hexdigest()


def text_hash(text: str) -> str:
    """The hash of a text as stored (a round record: the chain holds the hash of what the database holds)."""
    return hashlib.sha256(text.encode()).hexdigest()


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def record_hash(prev_hash: str, seq: int, ts: float, kind: str, actor: str | None, data: Any) -> str:
    body = canonical({"seq": seq, "ts": ts, "kind": kind, "actor": actor, "data": data})
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def append(conn: Connection, table_id: str, prev_seq: int, prev_hash: str, ts: float, kind: str,
           actor: str | None, data: dict[str, Any]) -> tuple[int, str]:
    seq = prev_seq + 1
    h = record_hash(prev_hash, seq, ts, kind, actor, data)
    hot.EVENT_INSERT.many(conn, [(table_id, seq, ts, kind, actor, fastjson.dumps(data), prev_hash, h)])
    return seq, h


def append_many(conn: Connection, table_id: str, prev_seq: int, prev_hash: str, ts: float,
                records: list[tuple[str, str | None, dict[str, Any]]]) -> tuple[int, str]:
    """`append` for several records of one transaction: the chain computed in order, the rows written in
    one statement (a batch of bets is many records)."""
    rows, seq, h = [], prev_seq, prev_hash
    for kind, actor, data in records:
        seq += 1
        new = record_hash(h, seq, ts, kind, actor, data)
        rows.append((table_id, seq, ts, kind, actor, fastjson.dumps(data), h, new))
        h = new
    hot.EVENT_INSERT.many(conn, rows)
    return seq, h




def rows(conn: Connection, table_id: str | None = None, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
    q = select(events).order_by(events.c.table_id, events.c.seq)
    if table_id is not None:
        q = q.where(events.c.table_id == table_id, events.c.seq > after)
    if limit is not None:
        q = q.limit(limit)
    return [dict(r._mapping) for r in conn.execute(q)]


def iter_rows(conn: Connection, table_id: str | None = None, batch: int = 2000) -> Iterator[dict[str, Any]]:
    tables = [table_id] if table_id else [r[0] for r in conn.execute(select(events.c.table_id).distinct())]
    for t in sorted(tables):
        after = 0
        while True:
            chunk = rows(conn, t, after, batch)
            yield from chunk
            if len(chunk) < batch:
                break
            after = chunk[-1]["seq"]


def verify_chain(records: list[dict[str, Any]] | Iterator[dict[str, Any]],
                 heads: dict[str, str | tuple[int, str]] | None = None) -> dict[str, Any]:
    """Recompute every hash; report the first record that does not follow from its predecessor. With
    `heads` (table -> the hash of its last record, or (seq, hash), as the table's row or an inspector keeps
    it), the chain must also END there: a rewritten and re-hashed last record, or a cut-off tail, links up
    perfectly and only the head gives it away."""
    last: dict[str, tuple[int, str]] = {}
    count = 0
    for r in records:
        t = r["table_id"]
        prev_seq, prev_hash = last.get(t, (0, genesis(t)))
        if r["seq"] != prev_seq + 1 or r["prev_hash"] != prev_hash:
            return {"ok": False, "table": t, "seq": r["seq"], "reason": "gap or broken link", "records": count}
        if record_hash(prev_hash, r["seq"], r["ts"], r["kind"], r["actor"], r["data"]) != r["hash"]:
            return {"ok": False, "table": t, "seq": r["seq"], "reason": "hash mismatch", "records": count}
        last[t] = (r["seq"], r["hash"])
        count += 1
    for t, head in sorted((heads or {}).items()):
        seq, h = last.get(t, (0, genesis(t)))
        want_seq, want = head if isinstance(head, tuple) else (None, head)
        if h != want or (want_seq is not None and seq != want_seq):
            return {"ok": False, "table": t, "seq": seq, "records": count,
                    "reason": f"the log ends at record {seq}, not at the expected head {want[:16]}…: "
                              "its tail was cut off or rewritten"}
    return {"ok": True, "records": count, "tables": {t: {"seq": s, "hash": h} for t, (s, h) in last.items()}}


def heads(conn: Connection, table_id: str | None = None) -> dict[str, tuple[int, str]]:
    """Each table's stored head: the sequence number and hash of its last log record (casino_tables)."""
    q = select(casino_tables.c.id, casino_tables.c.log_seq, casino_tables.c.log_hash)
    if table_id is not None:
        q = q.where(casino_tables.c.id == table_id)
    return {r[0]: (int(r[1]), r[2]) for r in conn.execute(q)}


def export_lines(conn: Connection, table_id: str | None = None) -> Iterator[str]:
    for r in iter_rows(conn, table_id):
        yield canonical(r)
