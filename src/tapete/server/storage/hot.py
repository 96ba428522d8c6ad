"""The hot statements of bets and settlement as the database driver takes them: SQL written once per dialect and
executed through `Connection.exec_driver_sql`, rows given as tuples.

Why: SQLAlchemy Core's per-execute work (compiling the parameters of every row, the JSON bind processor per
value) was a tenth of a busy server's CPU, and most of a settlement's statements carry a row per bet
(docs/performance.md, third pass). `exec_driver_sql` keeps the connection's transaction, its events and its
error translation (IntegrityError on a duplicate key or a CHECK, which batch.py relies on).

SQLite: one executemany (sqlite3 runs it in C; `?` placeholders). PostgreSQL: ONE statement whatever the
number of rows, the rows sent as ONE parameter, a JSON array of arrays written by orjson (C), and expanded by
`jsonb_array_elements` (psycopg's executemany pipelines a statement per row, and its per-row Python work was most
of a settlement's CPU; a column per array, the form before, cost psycopg's array dumper — Python — ~5 µs a
column and a row: 40 arrays were a third of a one-bet batch's writing CPU, issue 33). A value reaches its column
as `CAST(r->>i AS type)`: the text of a JSON string, integer or float (orjson writes a float's shortest
round-trip text, which float8in reads back to the same double); a JSON column's value is given as its text
(fastjson.dumps: what SQLAlchemy's JSON type wrote, a Python None included as the JSON `null`), a JSON string
whose text is stored as it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from tapete.server.storage import fastjson
from tapete.server.storage.db import casino_tables


class Hot:
    """One statement, its text for each dialect."""

    def __init__(self, sqlite: str, postgresql: str) -> None:
        self.sqlite, self.postgresql = sqlite, postgresql

    def many(self, conn: Connection, rows: Sequence[tuple[Any, ...]]) -> int:
        """Execute for every row (nothing when there is none); the number of rows the database changed."""
        if not rows:
            return 0
        if conn.dialect.name == "sqlite":
            return conn.exec_driver_sql(self.sqlite, rows if len(rows) > 1 else rows[0]).rowcount
        data = rows_json(rows)
        folded = conn.info.get(_FOLDED)
        if folded is not None:            # sent with the transaction's other writes (Folded); rows counted, not checked
            folded.add(self.postgresql, (data,))
            return len(rows)
        return conn.exec_driver_sql(self.postgresql, (data,)).rowcount


def rows_json(rows: Sequence[Sequence[Any]]) -> str:
    """The rows as the one parameter `rows_from` expands: a JSON array of arrays (rows of the same width)."""
    return fastjson.dumps(rows)


def rows_from(columns: Sequence[tuple[str, str]], alias: str = "v", ordinality: str | None = None) -> str:
    """A FROM item of the rows given as ONE parameter (`rows_json`), with columns `(name, TYPE)` in row order
    (TYPE as PostgreSQL names it; JSON: the text, cast by the caller); `ordinality`: a column numbering the rows
    in the order given."""
    values = ", ".join(f"CAST(e.r->>{i} AS {'TEXT' if kind == 'JSON' else kind}) AS {_q(name)}"
                       for i, (name, kind) in enumerate(columns))
    numbered = f", e.n AS {_q(ordinality)}" if ordinality else ""
    return (f"(SELECT {values}{numbered} FROM jsonb_array_elements(CAST(%s AS JSONB)) WITH ORDINALITY AS e(r, n)) "
            f"AS {alias}")


_FOLDED = "tapete_folded"


class Folded:
    """The writes of one PostgreSQL transaction sent as ONE statement, one round trip: each a data-modifying WITH
    clause of a `SELECT` that also sends the table's NOTIFY (delivered at commit, as before).

    Why (issue 33): a batch of bets wrote its ledger, bets, log, idempotency and table rows in seven statements,
    each a round trip during which the table's row stays locked and the writer thread, back from the network,
    waits for the interpreter lock behind the event loop. PostgreSQL runs every clause to completion, in one
    snapshot: the clauses must not depend on each other's effects (the ledger's postings read the transactions'
    ids from the clause that inserts them, by name), and each row is changed by one clause at most. A constraint
    (a duplicate key, a CHECK) fails the whole statement, hence the transaction, as it failed one statement before.
    Placeholders are positional (`%s`): the clauses' texts and parameters are joined in order, a clause's rows ONE
    parameter (`rows_json`). A batch's statement keeps to psycopg's 50 parameters, past which it parses the query
    text again on every execution."""

    def __init__(self) -> None:
        self.parts: list[tuple[str, str]] = []
        self.params: list[Any] = []
        self.notify: str | None = None     # an SQL expression over the clauses (no parameter: see send)

    def add(self, sql: str, params: Sequence[Any], name: str | None = None) -> str:
        """Queue one INSERT/UPDATE (with RETURNING when a later clause reads it by `name`); its name."""
        name = name or f"w{len(self.parts)}"
        self.parts.append((name, sql))
        self.params.extend(params)
        return name

    def send(self, conn: Connection, commit: bool = False) -> None:
        """The one statement; `commit`: with the transaction's COMMIT, in one round trip (`pipelined`)."""
        if not self.parts and self.notify is None:
            return                        # nothing written: the transaction commits as any other
        final = f"SELECT pg_notify('tapete_tables', {self.notify})" if self.notify is not None else "SELECT 1"
        clauses = ", ".join(f"{name} AS ({sql})" for name, sql in self.parts)
        sql = (f"WITH {clauses} " if clauses else "") + final
        if commit:
            pipelined(conn, sql, tuple(self.params), commit=True)
        else:
            conn.exec_driver_sql(sql, tuple(self.params)).all()
        self.parts, self.params, self.notify = [], [], None


def pipelined(conn: Connection, sql: str, params: Sequence[Any], commit: bool = False) -> Any:
    """PostgreSQL: one statement sent in the driver's pipeline mode, so that what the driver sends around it goes in
    the same round trip — the BEGIN it opens the transaction with (the statement first in its transaction), or
    the COMMIT that follows it (`commit`: the transaction ends here; SQLAlchemy's own commit then finds nothing
    to do). The driver's cursor comes back, its result read.

    Why (issue 33): a batch of bets took four round trips, BEGIN, its read, its write, COMMIT; each one a send, a
    wait and the interpreter lock taken back by the writer thread. Two now. As SQLAlchemy would: the engine's
    `before_cursor_execute` listeners see the statement (the statement counts, tests' hooks), and an error is
    SQLAlchemy's (IntegrityError on a duplicate key or a CHECK: batch.py relies on it). A statement that fails
    skips the COMMIT after it; the transaction is then rolled back as after any failed statement."""
    driver = conn.connection.driver_connection
    cursor = driver.cursor()   # type: ignore[union-attr]
    for listener in conn.dispatch.before_cursor_execute:
        sql, params = listener(conn, cursor, sql, params, None, False)
    dbapi = conn.dialect.loaded_dbapi
    try:
        with driver.pipeline():   # type: ignore[union-attr]
            cursor.execute(sql, params)
            if commit:
                cursor.execute("COMMIT", prepare=False)
    except dbapi.Error as exc:
        raise DBAPIError.instance(sql, params, exc, dbapi.Error, dialect=conn.dialect) from exc
    return cursor


def folded(conn: Connection) -> Folded | None:
    """The writes being folded on this connection (inside `folding`), or None."""
    return conn.info.get(_FOLDED)


@contextmanager
def folding(conn: Connection, commit: bool = False) -> Iterator[Folded | None]:
    """On PostgreSQL, gather the writes made inside (Hot.many, the ledger batch, the table's row) and send them as
    one statement on the way out (`commit`: with the transaction's COMMIT, the block being its last work); nothing
    is sent when the block raises. SQLite (in process): a no-op."""
    if conn.dialect.name == "sqlite":
        yield None
        return
    fold = conn.info[_FOLDED] = Folded()
    try:
        yield fold
    finally:
        conn.info.pop(_FOLDED, None)
    fold.send(conn, commit)


def _columns(spec: str) -> list[tuple[str, str]]:
    return [(name, kind) for name, kind in (c.strip().split(" ", 1) for c in spec.split(","))]




def _q(name: str) -> str:
    return f'"{name}"'


def insert(table: str, spec: str) -> Hot:
    """INSERT of rows whose values are the columns of `spec` ("name TYPE, ..."; TYPE as PostgreSQL names it)."""
    columns = _columns(spec)
    names = ", ".join(_q(name) for name, _ in columns)
    values = ", ".join(f"CAST(v.{_q(name)} AS JSON)" if kind == "JSON" else f"v.{_q(name)}" for name, kind in columns)
    return Hot(f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})",
               f"INSERT INTO {table} ({names}) SELECT {values} FROM {rows_from(columns)}")


def update(table: str, sets: str, keys: str) -> Hot:
    """UPDATE of the row named by `keys` to the `sets` values; a row's values: the `sets` columns, then the keys'.
    A set column given as `name+` adds its value to the column instead."""
    set_columns, key_columns = _columns(sets), _columns(keys)
    lite = ", ".join(f"{_q(n[:-1])} = {_q(n[:-1])} + ?" if n.endswith("+") else f"{_q(n)} = ?" for n, _ in set_columns)
    pg = ", ".join(f"{_q(n[:-1])} = {table}.{_q(n[:-1])} + v.{_q(n[:-1])}" if n.endswith("+") else f"{_q(n)} = v.{_q(n)}"
                   for n, _ in set_columns)
    where_lite = " AND ".join(f"{_q(n)} = ?" for n, _ in key_columns)
    where_pg = " AND ".join(f"{table}.{_q(n)} = v.{_q(n)}" for n, _ in key_columns)
    unnested = [(n.rstrip("+"), kind) for n, kind in set_columns + key_columns]
    return Hot(f"UPDATE {table} SET {lite} WHERE {where_lite}",
               f"UPDATE {table} SET {pg} FROM {rows_from(unnested)} WHERE {where_pg}")


BET_INSERT = insert("bets", "table_id TEXT, bet_id TEXT, round_id INTEGER, player TEXT, kind TEXT, spot JSON, amount BIGINT, "
                            "collected BIGINT, returned BIGINT, status TEXT, placed_at DOUBLE PRECISION, settled_at DOUBLE PRECISION")
BET_SETTLE = update("bets", "collected BIGINT, returned BIGINT, status TEXT, settled_at DOUBLE PRECISION",
                    "table_id TEXT, bet_id TEXT")
EVENT_INSERT = insert("events", "table_id TEXT, seq INTEGER, ts DOUBLE PRECISION, kind TEXT, actor TEXT, data JSON, "
                                "prev_hash TEXT, hash TEXT")
IDEM_INSERT = insert("idempotency", "key TEXT, fingerprint TEXT, status INTEGER, response JSON, created_at DOUBLE PRECISION")
POSTING_INSERT = insert("postings", "tx_id INTEGER, account_id TEXT, amount BIGINT, bet_id TEXT")
LEDGER_TX_INSERT = insert("ledger_tx", "ts DOUBLE PRECISION, kind TEXT, table_id TEXT, round_id INTEGER, actor TEXT, memo TEXT, "
                                      "chain TEXT, chain_seq INTEGER, prev_hash TEXT, hash TEXT")
ACCOUNT_ADD = update("accounts", "balance+ BIGINT", "id TEXT")


def committed_keys(conn: Connection, keys: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The idempotency records already committed under any of `keys` (a batch's): key -> {fingerprint, response}.
    One statement for the driver: SQLAlchemy's expanding IN over a batch's keys cost more than the rest of the
    batch's reads (docs/performance.md, third pass)."""
    if not keys:
        return {}
    if conn.dialect.name == "sqlite":
        sql = f'SELECT "key", fingerprint, response FROM idempotency WHERE "key" IN ({", ".join("?" * len(keys))})'
        return {k: {"fingerprint": f, "response": fastjson.loads(r)} for k, f, r in conn.exec_driver_sql(sql, tuple(keys))}
    found = conn.exec_driver_sql('SELECT "key", fingerprint, response FROM idempotency WHERE "key" = ANY(%b)', (list(keys),))
    return {k: {"fingerprint": f, "response": r} for k, f, r in found}     # psycopg has read the JSON


_ROW_COLUMNS = [c.name for c in casino_tables.c if c.name != "state"]
# The table's row locked first (a MATERIALIZED clause: the accounts' clause reads it, so it runs before any account
# is locked, in the order every other transaction takes them: the table, then the accounts by id); the keys read
# without a lock, as committed_keys reads them. Three columns come back, each one JSON value (the row, the keys'
# records, the balances), and the two lists go as one JSON parameter: a column or a list element each cost the
# driver and SQLAlchemy Python work on every batch (the row's 23 columns were most of this read's CPU, issue 33).
_LOCK_FOR_BATCH = (
    "WITH p AS MATERIALIZED (SELECT CAST(%s AS JSONB) AS j), "
    "t AS MATERIALIZED (SELECT " + ", ".join(_ROW_COLUMNS) + " FROM casino_tables WHERE id = %s FOR UPDATE), "
    "a AS MATERIALIZED (SELECT id, balance FROM accounts WHERE id = ANY(ARRAY(SELECT jsonb_array_elements_text(p.j->0) "
    "FROM p)) AND EXISTS (SELECT FROM t) ORDER BY id FOR UPDATE) "
    "SELECT row_to_json(t), (SELECT json_agg(json_build_array(k.key, k.fingerprint, k.response)) FROM idempotency AS k "
    "WHERE k.key = ANY(ARRAY(SELECT jsonb_array_elements_text(p.j->1) FROM p))), "
    "(SELECT json_agg(json_build_array(a.id, a.balance)) FROM a) FROM t")


def lock_for_batch(conn: Connection, table_id: str, keys: Sequence[str], account_ids: Sequence[str]
                   ) -> tuple[dict[str, Any] | None, dict[str, dict[str, Any]], dict[str, int]]:
    """PostgreSQL, a batch of bets' reads in ONE round trip with its BEGIN (issue 33): the table's row locked (None: no such table),
    the idempotency records already committed under the batch's keys (as committed_keys), and the balances of
    the batch's accounts, locked after the table's row (ledger.Batch takes them as known). The row's values are
    those its columns hold (row_to_json writes a float's shortest round-trip text, read back to the same double)."""
    found = pipelined(conn, _LOCK_FOR_BATCH, (fastjson.dumps([list(account_ids), list(keys)]), table_id)).fetchone()
    if found is None:
        return None, {}, {}
    row, keys_found, balances = found
    seen = {k: {"fingerprint": f, "response": r} for k, f, r in (keys_found or [])}
    return row, seen, {a: int(b) for a, b in (balances or [])}
