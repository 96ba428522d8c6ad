"""What runs beside the HTTP handlers: live streams, table ownership and the tables' clock.

- `Broadcaster`: WebSocket subscribers per table. With SQLite (one process) the service hands it each
  committed record directly. With PostgreSQL every commit NOTIFYs `tapete_tables` with 'table:seq'; a
  listener thread in every process reads the new records of the tables its clients watch from the log,
  so a player connected to any process sees every table's events, whoever wrote them.
- `Ownership`: the process that owns a table runs its clock (closing bets, drawing, timeouts) and its
  recovery. SQLite: this process owns every table. PostgreSQL: a session-level advisory lock per table on
  a dedicated connection; when the owner dies its connection closes, the lock is released and another
  process takes the table over on its next attempt (and recovers it from its persisted state).
- `Clock`: every TICK seconds, advances the owned tables whose deadline has passed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
import zlib
from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from tapete.server.storage.db import Database, events

log = logging.getLogger("tapete.server")
QUEUE_SIZE = 1000
LOCK_CLASS = 7411


class Broadcaster:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._subs: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[Any]]]] = {}
        self._seen: dict[str, int] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- subscribers -------------------------------------------------------------------------------
    def client_count(self) -> int:
        """Open streams in this process (the metrics' tapete_stream_clients)."""
        with self._lock:
            return sum(len(s) for s in self._subs.values())

    def subscribe(self, table_id: str) -> asyncio.Queue[Any]:
        queue: asyncio.Queue[Any] = asyncio.Queue(QUEUE_SIZE)
        with self._lock:
            self._subs.setdefault(table_id, set()).add((asyncio.get_running_loop(), queue))
        return queue

    def unsubscribe(self, table_id: str, queue: asyncio.Queue[Any]) -> None:
        with self._lock:
            subs = self._subs.get(table_id, set())
            for item in list(subs):
                if item[1] is queue:
                    subs.discard(item)

    def watched(self) -> set[str]:
        with self._lock:
            return {t for t, s in self._subs.items() if s}

    def deliver(self, table_id: str, records: list[dict[str, Any]]) -> None:
        """Hand committed records to every subscriber of the table (from any thread)."""
        with self._lock:
            subs = list(self._subs.get(table_id, ()))
            if records and table_id in self._seen:
                self._seen[table_id] = max(self._seen[table_id], records[-1]["seq"])
        items = [{"type": "event", **r} for r in records]      # shared by every subscriber: never changed
        by_loop: dict[asyncio.AbstractEventLoop, list[asyncio.Queue[Any]]] = {}
        for loop, queue in subs:
            by_loop.setdefault(loop, []).append(queue)
        for loop, queues in by_loop.items():       # one wake-up of each loop, not one per subscriber
            loop.call_soon_threadsafe(_put_all_queues, queues, items)

    # -- PostgreSQL: LISTEN/NOTIFY -------------------------------------------------------------------
    def publish_local(self, table_id: str, records: list[dict[str, Any]]) -> None:
        if self.db.is_sqlite:
            self.deliver(table_id, records)

    def start_listener(self) -> None:
        if self.db.is_sqlite or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._listen, name="tapete-listen", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _listen(self) -> None:
        import psycopg

        dsn = self.db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute("LISTEN tapete_tables")
                    self._catch_up(set(self.watched()))
                    while not self._stop.is_set():
                        dirty = set()
                        for n in conn.notifies(timeout=0.05, stop_after=500):
                            dirty.add(n.payload.rsplit(":", 1)[0])
                        dirty &= self.watched()
                        if dirty:
                            self._catch_up(dirty)
            except Exception as exc:  # noqa: BLE001 - a lost connection: reconnect
                log.warning("listener reconnecting: %s", exc)
                time.sleep(0.5)

    def _catch_up(self, tables: set[str]) -> None:
        with self.db.read() as conn:
            for t in tables:
                with self._lock:
                    after = self._seen.get(t)
                if after is None:
                    continue
                rows = conn.execute(select(events).where(events.c.table_id == t, events.c.seq > after)
                                    .order_by(events.c.seq).limit(500)).mappings().all()
                records = [{"table": t, "seq": r["seq"], "ts": r["ts"], "kind": r["kind"], "actor": r["actor"],
                            "data": r["data"] if isinstance(r["data"], dict) else json.loads(r["data"])} for r in rows]
                if records:
                    self.deliver(t, records)

    def mark(self, table_id: str, seq: int) -> None:
        """PostgreSQL: start reading the table's log after `seq` (the first subscriber's snapshot)."""
        with self._lock:
            self._seen.setdefault(table_id, seq)


def _put_all_queues(queues: list[asyncio.Queue[Any]], items: list[Any]) -> None:
    for queue in queues:
        _put_all(queue, items)


def _put_all(queue: asyncio.Queue[Any], items: list[Any]) -> None:
    for item in items:
        try:
            queue.put_nowait(item)
        except asyncio.QueueFull:
            # a client too slow to read: it gets a resync marker and reloads the table's snapshot
            while not queue.empty():
                queue.get_nowait()
            queue.put_nowait({"type": "resync"})
            return


def lock_key(table_id: str) -> int:
    return zlib.crc32(table_id.encode()) & 0x7FFFFFFF


class Ownership:
    """Which tables this process drives (SQLite: all; PostgreSQL: those whose advisory lock it holds)."""

    def __init__(self, db: Database, tables: list[str], on_acquire: Callable[[str], None], interval: float = 1.0) -> None:
        self.db = db
        self.tables = tables
        self.on_acquire = on_acquire
        self.interval = interval
        self.owned: set[str] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: Any = None

    def start(self) -> None:
        if self.db.is_sqlite:
            for t in self.tables:
                self._acquired(t)
            return
        self._thread = threading.Thread(target=self._loop, name="tapete-owner", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()

    def _acquired(self, table_id: str) -> None:
        try:
            self.on_acquire(table_id)
        except Exception:  # noqa: BLE001 - a table that cannot recover is logged, the others run
            log.exception("recovery of %s failed", table_id)
        self.owned.add(table_id)

    def _loop(self) -> None:
        import psycopg

        dsn = self.db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                if self._conn is None or self._conn.closed:
                    self.owned = set()
                    self._conn = psycopg.connect(dsn, autocommit=True)
                self._conn.execute("SELECT 1")
                for t in self.tables:
                    if t in self.owned:
                        continue
                    got = self._conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_CLASS, lock_key(t))).fetchone()[0]
                    if got:
                        log.info("this process now owns table %s", t)
                        self._acquired(t)
            except Exception as exc:  # noqa: BLE001 - the lock connection failed: we own nothing now
                log.warning("ownership connection lost: %s", exc)
                self.owned = set()
                try:
                    if self._conn is not None:
                        self._conn.close()
                except Exception:  # noqa: BLE001
                    pass
                self._conn = None
            self._stop.wait(self.interval)


class Clock:
    """Advance due tables. Runs the blocking database work in worker threads."""

    TICK = 0.1

    def __init__(self, service: Any, ownership: Ownership) -> None:
        self.service = service
        self.ownership = ownership
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            try:
                due = await asyncio.to_thread(self.service.due, set(self.ownership.owned))
                # The due tables side by side: one table's settlement does not delay another's no va más.
                # (SQLite still runs them one at a time behind its single writer.)
                done = await asyncio.gather(*(asyncio.to_thread(self.service.advance, t) for t in due), return_exceptions=True)
                for table_id, outcome in zip(due, done, strict=True):
                    if isinstance(outcome, BaseException) and not isinstance(outcome, Exception):
                        raise outcome
                    if isinstance(outcome, Exception):
                        log.error("table clock: %s", table_id, exc_info=outcome)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the clock must keep ticking
                log.exception("table clock")
            await asyncio.sleep(self.TICK)
