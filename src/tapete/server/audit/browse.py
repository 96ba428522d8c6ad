"""The audit logs read by a person (issue 30, item 6): a table's hash-chained log and the staff log, newest
first, filtered (kind, staff member, time) and paged by sequence number, with the table's empty rounds
(nothing bet, nothing decided: open, no spin, settled with nothing) folded into one line each run.

Only reading: the records are the chains' own rows, unchanged (the raw record stays one click away on the
page); the chains are verified by `chains.verify_chain` / `staff_log.verify` as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from tapete.server.storage.db import bets, events, rounds, staff_log

# The records of a round where nothing happened but the clock: folded when the round took no bet.
ROUTINE = frozenset({"open", "close", "phase", "no-outcome", "settlement", "timeout", "limits-in-force"})
BATCH = 500
MAX_SCAN = 20_000          # records read for one page at most (a filter matching nothing stops there)
INCIDENTS = ("void", "correct", "dispute")


@dataclass
class Filters:
    """What the person asked for: kinds (empty: all), one staff member (the record's actor), a time window
    (seconds since the epoch, either end open), and the page's start (records with seq < before)."""

    kinds: frozenset[str] = frozenset()
    actor: str | None = None
    since: float | None = None
    until: float | None = None
    before: int | None = None
    limit: int = 50

    def where(self, table: Any, kind_col: Any) -> list[Any]:
        out = []
        if self.kinds:
            out.append(kind_col.in_(sorted(self.kinds)))
        if self.actor:
            out.append(table.c.actor == self.actor)
        if self.since is not None:
            out.append(table.c.ts >= self.since)
        if self.until is not None:
            out.append(table.c.ts < self.until)
        if self.before is not None:
            out.append(table.c.seq < self.before)
        return out


@dataclass
class Page:
    items: list[dict[str, Any]] = field(default_factory=list)
    next_before: int | None = None

    def document(self) -> dict[str, Any]:
        return {"items": self.items, "next_before": self.next_before}


def rounds_with_bets(conn: Connection, table_id: str) -> set[int]:
    """The round numbers of the table that took at least one bet."""
    q = select(rounds.c.number).distinct().join(bets, bets.c.round_id == rounds.c.id).where(rounds.c.table_id == table_id)
    return {int(r[0]) for r in conn.execute(q)}


def _scan(conn: Connection, table: Any, base: list[Any], f: Filters, kind_col: Any) -> Iterable[dict[str, Any]]:
    """The matching records, newest first, read in batches."""
    before = f.before
    read = 0
    while read < MAX_SCAN:
        conds = [*base, *Filters(f.kinds, f.actor, f.since, f.until, before).where(table, kind_col)]
        chunk = [dict(r._mapping) for r in conn.execute(select(table).where(*conds).order_by(table.c.seq.desc()).limit(BATCH))]
        yield from chunk
        read += len(chunk)
        if len(chunk) < BATCH:
            return
        before = chunk[-1]["seq"]


def table_page(conn: Connection, table_id: str, f: Filters, fold: bool = True) -> Page:
    """One page of a table's log: `limit` items, an item being a record or a folded run of empty rounds."""
    busy = rounds_with_bets(conn, table_id) if fold else set()
    page = Page()
    run: dict[str, Any] | None = None
    last_seq: int | None = None
    for r in _scan(conn, events, [events.c.table_id == table_id], f, events.c.kind):
        data = r["data"] if isinstance(r["data"], dict) else {}
        rnd = data.get("round")
        empty = fold and r["kind"] in ROUTINE and isinstance(rnd, int) and rnd > 0 and rnd not in busy \
            and not (r["kind"] == "settlement" and data.get("bets"))
        if empty:
            if run is None:
                if len(page.items) >= f.limit:
                    break
                run = {"folded": True, "kind": "empty-rounds", "rounds": [rnd, rnd], "records": 0,
                       "seq": [r["seq"], r["seq"]], "ts": [r["ts"], r["ts"]]}
                page.items.append(run)
            run["rounds"][0] = min(run["rounds"][0], rnd)
            run["rounds"][1] = max(run["rounds"][1], rnd)
            run["records"] += 1
            run["seq"][0], run["ts"][0] = r["seq"], r["ts"]
            last_seq = r["seq"]
            continue
        run = None
        if len(page.items) >= f.limit:
            break
        page.items.append(r)
        last_seq = r["seq"]
    else:
        return page
    page.next_before = last_seq
    return page


def staff_page(conn: Connection, f: Filters, subjects: Iterable[str] | None = None) -> Page:
    """One page of the staff log (its `action` is the kind); `subjects`: only records about these (a chief's tables)."""
    base = [staff_log.c.subject.in_(sorted(subjects))] if subjects is not None else []
    page = Page()
    for r in _scan(conn, staff_log, base, f, staff_log.c.action):
        if len(page.items) >= f.limit:
            page.next_before = page.items[-1]["seq"]
            break
        page.items.append({**r, "kind": r["action"]})
    return page
