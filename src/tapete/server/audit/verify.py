"""The books reconciled with the chained logs: `verify_database(db) -> Report`, one sentence per discrepancy.

What someone with write access to the database could change, and what gives it away here:
  - a table's event log record edited, inserted, deleted or cut off: its hash chain and the head stored with
    the table (and the heads an inspector noted, `expected`);
  - the staff log, likewise (its head in meta_kv);
  - a ledger transaction or posting edited, inserted or deleted: the ledger's lanes (audit/ledger_chain.py),
    each transaction's hash covering its postings, each lane ending at its stored head;
  - a transaction appended to a lane and re-hashed, its head moved with it: a table's lane must end where the
    table's event log last names it (`ledger` marks), a cage transaction must be named by a staff log record;
  - a balance edited: every account's balance is the sum of its postings, and all sum to zero;
  - a round record rewritten: its hash must be the one its table's log recorded when it was written;
  - a bet row edited: what it staked and returned must be what its postings moved, and its result the one
    the round record that settled it says.
Keyless hashes cannot stop someone who rewrites a whole chain and its stored head consistently: the heads an
inspector noted (`expected`: /api/health's log_heads, this report's `heads`) are what catches that.

Reads one consistent snapshot; the server's health check and `tapete restore` call it as `tapete audit verify`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from tapete.core.money import euros
from tapete.server.audit import chains, staff_log
from tapete.server.audit.ledger_chain import CAGE, HEAD_KEY, genesis, parse_head, table_lane, tx_hash
from tapete.server.storage import fastjson
from tapete.server.storage.db import Database, casino_tables, meta_kv

FINAL = ("won", "lost", "push", "void")
CAGE_ACTIONS = ("deposit", "withdraw", "fill", "credit")
NEGATIVE_FORBIDDEN = ("wallet", "stakes", "stack")


@dataclass
class Report:
    """What `verify_database` found: `problems` (sentences, empty when the books hold), what it checked, and the
    heads to note (the table logs', the staff log's, each ledger lane's)."""

    problems: list[str] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=dict)
    heads: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def add(self, sentence: str) -> None:
        self.problems.append(sentence)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "problems": self.problems, "checked": self.checked, "heads": self.heads}


def verify_database(db: Database, expected: dict[str, str | tuple[int, str]] | None = None) -> Report:
    """Reconcile the whole database. `expected`: heads an inspector noted, by table id (its event log), by
    `staff-log`, or by ledger lane (`ledger:cage`, `ledger:table:<id>`): the chains must end there."""
    with db.snapshot() as conn:
        return verify_connection(conn, expected)


def verify_connection(conn: Connection, expected: dict[str, str | tuple[int, str]] | None = None) -> Report:
    report = Report()
    expected = dict(expected or {})
    tables = {r[0]: dict(r._mapping) for r in conn.execute(
        select(casino_tables.c.id, casino_tables.c.log_seq, casino_tables.c.log_hash, casino_tables.c.ledger_seq,
               casino_tables.c.ledger_hash))}
    marks = _table_logs(conn, tables, expected, report)
    named_by_staff = _staff_log(conn, expected, report)
    txs, lines = _ledger(conn, tables, expected, report)
    _bindings(txs, lines, marks, named_by_staff, report)
    _balances(conn, report)
    settled = _round_records(conn, marks, report)
    _bets(conn, txs, lines, settled, report)
    for key in sorted(expected):
        report.add(f"the head noted for {key!r} names nothing in this database (no such table, log or ledger lane)")
    return report


# -- the chained logs ---------------------------------------------------------------------------------
@dataclass
class Marks:
    """What a table's event log says of the books: the ledger lane's head after each operation, the hash of
    each round record when it was written."""

    ledger: list[tuple[int, int, str]] = field(default_factory=list)     # (log seq, lane seq, lane hash)
    records: dict[int, tuple[int, str]] = field(default_factory=dict)    # round id -> (log seq, sha256)


def _table_logs(conn: Connection, tables: dict[str, dict[str, Any]], expected: dict[str, Any],
                report: Report) -> dict[str, Marks]:
    marks: dict[str, Marks] = {}
    report.heads["tables"] = {}
    count = 0
    for t in sorted(tables):
        m = marks[t] = Marks()
        row = tables[t]
        result = chains.verify_chain(_marked(chains.iter_rows(conn, t), m), {t: (int(row["log_seq"]), row["log_hash"])})
        count += result["records"]
        if not result["ok"]:
            report.add(f"table {t}: its event log breaks at record {result['seq']}: {result['reason']}")
        report.heads["tables"][t] = {"seq": int(row["log_seq"]), "hash": row["log_hash"]}
        noted = expected.pop(t, None)
        if noted is not None:
            want_seq, want = noted if isinstance(noted, tuple) else (None, noted)
            if row["log_hash"] != want or (want_seq is not None and int(row["log_seq"]) != want_seq):
                report.add(f"table {t}: its event log ends at record {row['log_seq']} ({row['log_hash'][:16]}…), "
                           f"not at the head the inspector noted ({str(want)[:16]}…): rewritten or cut off")
    orphans = conn.exec_driver_sql("SELECT DISTINCT table_id FROM events").all()
    for (t,) in orphans:
        if t not in tables:
            report.add(f"the event log holds records of a table the database does not have ({t})")
    report.checked["log records"] = count
    return marks


def _marked(rows: Iterator[dict[str, Any]], m: Marks) -> Iterator[dict[str, Any]]:
    for r in rows:
        data = r["data"]
        if isinstance(data, dict):
            ledger = data.get("ledger")
            if isinstance(ledger, dict) and isinstance(ledger.get("seq"), int):
                m.ledger.append((r["seq"], ledger["seq"], str(ledger.get("hash"))))
            rec = data.get("round_record")
            if isinstance(rec, dict) and isinstance(rec.get("id"), int):
                m.records[rec["id"]] = (r["seq"], str(rec.get("sha256")))
            for rid, digest in (data.get("round_records") or {}).items() if isinstance(data.get("round_records"), dict) else ():
                if str(rid).isdigit():
                    m.records[int(rid)] = (r["seq"], str(digest))
        yield r


def _staff_log(conn: Connection, expected: dict[str, Any], report: Report) -> set[int]:
    records = staff_log.rows(conn)
    stored = staff_log.head(conn)
    result = staff_log.verify(records, stored)
    if not result["ok"]:
        report.add(f"the staff log breaks at record {result['seq']}: {result['reason']}")
    noted = expected.pop("staff-log", None)
    if noted is not None:
        want = noted[1] if isinstance(noted, tuple) else noted
        if stored[1] != want:
            report.add(f"the staff log ends at record {stored[0]}, not at the head the inspector noted ({str(want)[:16]}…)")
    report.heads["staff_log"] = {"seq": stored[0], "hash": stored[1]}
    report.checked["staff log records"] = len(records)
    named: set[int] = set()
    for r in records:
        data = r["data"] if isinstance(r["data"], dict) else {}
        if r["action"] in CAGE_ACTIONS and isinstance(data.get("tx"), int):
            named.add(data["tx"])
    return named


# -- the ledger ---------------------------------------------------------------------------------------
Line = tuple[int, str, int, str | None]         # (posting id, account, amount, bet)


def _ledger(conn: Connection, tables: dict[str, dict[str, Any]], expected: dict[str, Any],
            report: Report) -> tuple[dict[int, dict[str, Any]], dict[int, list[Line]]]:
    lines: dict[int, list[Line]] = defaultdict(list)
    for pid, tx_id, account, amount, bet in conn.exec_driver_sql(
            "SELECT id, tx_id, account_id, amount, bet_id FROM postings ORDER BY id"):
        lines[int(tx_id)].append((int(pid), account, int(amount), bet))
    txs = {int(r[0]): dict(zip(("id", "ts", "kind", "table_id", "round_id", "actor", "memo", "chain", "chain_seq",
                                "prev_hash", "hash"), r, strict=True))
           for r in conn.exec_driver_sql("SELECT id, ts, kind, table_id, round_id, actor, memo, chain, chain_seq, "
                                         "prev_hash, hash FROM ledger_tx ORDER BY id")}
    report.checked["ledger transactions"] = len(txs)
    report.checked["postings"] = sum(len(v) for v in lines.values())
    for tx_id in sorted(set(lines) - set(txs)):
        for _, account, amount, bet in lines[tx_id]:
            report.add(f"a posting of {euros(amount)} to {account}{_bet(bet)} belongs to ledger transaction {tx_id}, "
                       "which does not exist (deleted)")
    lanes: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for tx in txs.values():
        if tx["chain"] is None or tx["chain_seq"] is None or tx["hash"] is None:
            report.add(f"ledger transaction {tx['id']} ({_describe(tx, lines)}) is in no chain: it was written "
                       "outside the server")
            continue
        lanes[tx["chain"]].append(tx)
        total = sum(m for _, _, m, _ in lines.get(tx["id"], []))
        if total:
            report.add(f"ledger transaction {tx['id']} ({_describe(tx, lines)}) does not balance: its postings sum to {euros(total)}")
    stored = {table_lane(t): (int(r["ledger_seq"] or 0), r["ledger_hash"] or genesis(table_lane(t))) for t, r in tables.items()}
    stored[CAGE] = parse_head(conn.execute(select(meta_kv.c.value).where(meta_kv.c.key == HEAD_KEY)).scalar(), CAGE)
    report.heads["ledger"] = {}
    for lane in sorted(set(lanes) | set(stored)):
        head = _lane(lane, sorted(lanes.get(lane, []), key=lambda tx: tx["chain_seq"]), lines, report)
        if lane not in stored:
            report.add(f"ledger lane {lane} belongs to no table of this database ({len(lanes[lane])} transaction(s))")
            continue
        want = stored[lane]
        if head != want:
            report.add(f"ledger lane {lane} ends at transaction number {head[0]}, not at its stored head (number "
                       f"{want[0]}): transactions were cut off or added")
        report.heads["ledger"][lane] = {"seq": want[0], "hash": want[1]}
        noted = expected.pop(f"ledger:{lane}", None)
        if noted is not None:
            want_hash = noted[1] if isinstance(noted, tuple) else noted
            if head[1] != want_hash:
                report.add(f"ledger lane {lane} ends at transaction number {head[0]}, not at the head the inspector "
                           f"noted ({str(want_hash)[:16]}…)")
    return txs, lines


def _lane(lane: str, txs: list[dict[str, Any]], lines: dict[int, list[Line]], report: Report) -> tuple[int, str]:
    seq, prev = 0, genesis(lane)
    table = lane.split(":", 1)[1] if lane.startswith("table:") else None
    for tx in txs:
        if tx["chain_seq"] != seq + 1 or tx["prev_hash"] != prev:
            missing = "deleted" if tx["chain_seq"] > seq + 1 else "inserted or renumbered"
            report.add(f"ledger lane {lane}: transaction {tx['id']} is number {tx['chain_seq']} but follows number {seq} "
                       f"with another hash: transactions were {missing}")
        found = tx_hash(tx["prev_hash"] or "", lane, int(tx["chain_seq"]), tx["ts"], tx["kind"], tx["table_id"],
                        tx["round_id"], tx["actor"], tx["memo"], [(a, m, b) for _, a, m, b in lines.get(tx["id"], [])])
        if found != tx["hash"]:
            report.add(f"ledger transaction {tx['id']} ({_describe(tx, lines)}) does not match its hash in lane {lane}: "
                       "it or its postings were edited after it was written")
        if table is not None and tx["table_id"] != table:
            report.add(f"ledger transaction {tx['id']} is in table {table}'s lane but names table {tx['table_id']}")
        seq, prev = int(tx["chain_seq"]), tx["hash"]
    return seq, prev


def _bindings(txs: dict[int, dict[str, Any]], lines: dict[int, list[Line]], marks: dict[str, Marks],
              named_by_staff: set[int], report: Report) -> None:
    """Each table lane accounted for by its table's log, each cage transaction by the staff log."""
    by_lane: dict[str, dict[int, dict[str, Any]]] = defaultdict(dict)
    for tx in txs.values():
        if tx["chain"] is not None and tx["chain_seq"] is not None:
            by_lane[tx["chain"]][int(tx["chain_seq"])] = tx
    for t, m in sorted(marks.items()):
        lane = by_lane.get(table_lane(t), {})
        for log_seq, seq, digest in m.ledger:
            tx = lane.get(seq)
            if tx is None or tx["hash"] != digest:
                report.add(f"table {t}: its log record {log_seq} names ledger transaction number {seq} of its lane "
                           f"({digest[:16]}…), which the ledger does not hold as recorded")
        accounted = m.ledger[-1][1] if m.ledger else 0
        extra = sorted(tx["id"] for s, tx in lane.items() if s > accounted)
        if extra:
            report.add(f"table {t}: ledger transaction(s) {', '.join(map(str, extra))} "
                       f"({'; '.join(_describe(txs[i], lines) for i in extra[:3])}) come after the last one its log "
                       f"accounts for (number {accounted}): booked outside the table's operations")
    cage = {tx["id"] for tx in by_lane.get(CAGE, {}).values()}
    for tx_id in sorted(named_by_staff - cage):
        report.add(f"the staff log names ledger transaction {tx_id}, which the cage's lane does not hold (deleted)")
    openings: set[str] = set()
    for _, tx in sorted(by_lane.get(CAGE, {}).items()):
        if tx["id"] in named_by_staff:
            continue
        moves = sorted((a, m) for _, a, m, _ in lines.get(tx["id"], []))
        table = tx["table_id"]
        if (tx["kind"] == "fill" and tx["memo"] == "opening float" and table and table not in openings
                and len(moves) == 2 and moves[0][0] == "bank" and moves[1][0] == f"float:{table}"):
            openings.add(table)
            continue
        report.add(f"ledger transaction {tx['id']} ({_describe(tx, lines)}) is in the cage's lane but no staff log "
                   "record names it: booked outside the cage")


def _balances(conn: Connection, report: Report) -> None:
    sums = {a: int(s) for a, s in conn.exec_driver_sql("SELECT account_id, SUM(amount) FROM postings GROUP BY account_id")}
    stored = {a: int(b) for a, b in conn.exec_driver_sql("SELECT id, balance FROM accounts")}
    report.checked["accounts"] = len(stored)
    for account in sorted(set(sums) | set(stored)):
        if account not in stored:
            report.add(f"account {account} has postings ({euros(sums[account])}) but no balance: its row was deleted")
            continue
        have, want = stored[account], sums.get(account, 0)
        if have != want:
            report.add(f"account {account} holds {euros(have)} but its postings sum to {euros(want)}: the balance was edited")
        if have < 0 and account.split(":", 1)[0] in NEGATIVE_FORBIDDEN:
            report.add(f"account {account} is negative ({euros(have)})")
    total = sum(stored.values())
    if total:
        report.add(f"the balances sum to {euros(total)}, not zero")


# -- rounds and bets ----------------------------------------------------------------------------------
def _round_records(conn: Connection, marks: dict[str, Marks], report: Report) -> dict[tuple[str, str], tuple[int, str, int]]:
    """Each round record's hash against its table's log; the results the records give each bet they settled:
    (table, bet) -> (round number, status, returned)."""
    raw = "CAST(record AS TEXT)" if conn.dialect.name == "postgresql" else "record"
    settled: dict[tuple[str, str], tuple[int, str, int]] = {}
    count = 0
    found = conn.exec_driver_sql(f"SELECT id, table_id, number, {raw} FROM rounds WHERE record IS NOT NULL ORDER BY id").all()
    have = {(t, int(rid)) for rid, t, _, _ in found}
    for t, m in sorted(marks.items()):
        for rid, (log_seq, _) in sorted(m.records.items()):
            if (t, rid) not in have:
                report.add(f"table {t}: its log record {log_seq} holds the hash of round record {rid}, which the "
                           "database does not have (deleted)")
    for rid, t, number, text in found:
        count += 1
        mark = marks.get(t, Marks()).records.get(int(rid))
        digest = chains.text_hash(text)
        if mark is None:
            report.add(f"round {number} of table {t} (id {rid}): its record is not in the table's log")
        elif mark[1] != digest:
            report.add(f"round {number} of table {t} (id {rid}): its record is not the one the table's log recorded "
                       f"(record {mark[0]}): it was edited after it was written")
        try:
            doc = fastjson.loads(text).get("settlement") or {}
            for bet, e in (doc.get("bets") or {}).items():
                if e.get("status") in FINAL:
                    settled[(t, bet)] = (int(number), e["status"], int(e.get("returned") or 0))
        except (ValueError, AttributeError, TypeError):
            report.add(f"round {number} of table {t} (id {rid}): its record is not a round record")
    report.checked["round records"] = count
    return settled


def _bets(conn: Connection, txs: dict[int, dict[str, Any]], lines: dict[int, list[Line]],
          settled: dict[tuple[str, str], tuple[int, str, int]], report: Report) -> None:
    """What each bet row says it staked and returned, against what its postings moved to and from its player."""
    moved: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: {"staked": 0, "returned": 0})
    purses: dict[tuple[str, str], set[str]] = {}
    found = conn.exec_driver_sql("SELECT table_id, bet_id, round_id, player, status, collected, returned FROM bets "
                                 "ORDER BY table_id, bet_id").all()
    for t, bet, _, player, *_ in found:
        purses[(t, bet)] = {f"wallet:{player}", f"stack:{t}:{player}"}
    posted: set[tuple[str, str]] = set()
    for tx_id, tx_lines in lines.items():
        tx = txs.get(tx_id)
        if tx is None or tx["table_id"] is None:
            continue
        for _, account, amount, bet in tx_lines:
            if bet is None:
                continue
            key = (tx["table_id"], bet)
            posted.add(key)
            if account not in purses.get(key, ()):
                continue
            if tx["kind"] == "settle":
                moved[key]["returned"] += amount
            else:
                moved[key]["staked"] -= amount
    for t, bet in sorted(posted - set(purses)):
        report.add(f"bet {bet} of table {t}: the ledger moves money for it but there is no such bet (its row was deleted)")
    for t, bet, _, player, status, collected, returned in found:
        m = moved[(t, bet)]
        collected, returned = int(collected), int(returned)
        if (m["staked"], m["returned"]) != (collected, returned):
            report.add(f"bet {bet} of table {t} ({player}, {status}): the bet row says it staked {euros(collected)} and "
                       f"returned {euros(returned)}, its postings moved {euros(m['staked'])} and {euros(m['returned'])}")
        result = settled.get((t, bet))
        if status in FINAL and result is not None and (result[1], result[2]) != (status, returned):
            report.add(f"bet {bet} of table {t} ({player}): the bet row says {status}, returning {euros(returned)}; the "
                       f"record of round {result[0]} that settled it says {result[1]}, returning {euros(result[2])}")
    report.checked["bets"] = len(found)


def _bet(bet: str | None) -> str:
    return f" (bet {bet})" if bet else ""


def _describe(tx: dict[str, Any], lines: dict[int, list[Line]]) -> str:
    where = f" at table {tx['table_id']}" if tx["table_id"] else ""
    moves = ", ".join(f"{a} {'+' if m > 0 else ''}{euros(m)}" for _, a, m, _ in lines.get(tx["id"], [])[:4])
    return f"{tx['kind']}{where}: {moves or 'no postings'}"
