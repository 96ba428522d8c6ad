"""Tables owned by one node each, ownership following the front (issue 33).

Several `tapete serve` processes on one PostgreSQL, named in the casino file's `[cluster]` (each started with
`--node NAME`). Every node holds, on one dedicated connection, a session advisory lock for its node
(class NODE_CLASS, key = the node's id) and one per table it owns (class LOCK_CLASS, runtime.py). So
PostgreSQL itself says who is alive and who owns what: `pg_locks` joined on the backend's pid, read once a
pass. A node that dies (SIGKILL, a host lost) closes that connection — or its keepalives, derived from
`takeover_s`, give up — and its locks go with it.

Which node takes a free table, in order:
  1. a node that receives the table's requests from the front (its *demand*: a write reached it directly,
     not forwarded) takes it at once — the front's consistent hash on the table id decides where tables live;
  2. otherwise the live node the rendezvous hash of the table id prefers takes it on its next pass (tables
     spread without a front);
  3. otherwise any node takes a table free for GRACE_PASSES passes (someone must drive its clock).
A table moves while its owner lives only when another node keeps forwarding its writes (the front sends them
there) and the owner has had none of its own for QUIET_S: the owner lets go, the other takes it on its next
pass. Such a hand-over is *graceful*: the state in the database is whole and the new owner resumes it as it
stands. A table whose previous owner is no longer alive (or unknown) is *recovered*: the round resumed or
voided as the table's `recovery` says (tables/clock.py op_recover).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import zlib
from collections.abc import Callable
from typing import Any

from tapete.server.config import Cluster
from tapete.server.storage.db import Database
from tapete.server.tables.runtime import LOCK_CLASS, lock_key

log = logging.getLogger("tapete.server")
NODE_CLASS = 7413
GRACE_PASSES = 2
QUIET_S = 3.0          # an owner that had no direct write of a table for this long lets another node have it

SNAPSHOT = """
SELECT n.objid::bigint AS node, t.objid::bigint AS tkey
FROM pg_locks n
LEFT JOIN pg_locks t ON t.pid = n.pid AND t.locktype = 'advisory' AND t.classid = %s AND t.objsubid = 2
     AND t.granted AND t.database = n.database
WHERE n.locktype = 'advisory' AND n.classid = %s AND n.objsubid = 2 AND n.granted
  AND n.database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""


def preferred(table_id: str, live: list[str]) -> str | None:
    """The rendezvous (highest random weight) choice among the live nodes: stable, and only the tables of a
    node that leaves move."""
    return max(live, key=lambda n: (zlib.crc32(f"{n}/{table_id}".encode()), n)) if live else None


class ClusterOwnership:
    """`Ownership` for a named node of a cluster: `owned` (driven here), `owners` (table -> node, as
    PostgreSQL's locks say), `saw()` (the router's demand signals)."""

    def __init__(self, db: Database, tables: list[str], cluster: Cluster, node: str,
                 on_acquire: Callable[[str, bool], None]) -> None:
        self.db, self.tables, self.cluster = db, tables, cluster
        self.me = cluster.node(node)
        self.names = {n.id: n.name for n in cluster.nodes}
        self.addresses = {n.name: n.address for n in cluster.nodes}
        self.on_acquire = on_acquire
        self.interval = min(1.0, cluster.takeover_s / 10)
        self.owned: set[str] = set()
        self.owners: dict[str, str] = {}
        self.live: list[str] = []
        self.keys = {t: lock_key(t) for t in tables}
        self._direct: dict[str, float] = {}          # table -> last write that reached this node from outside
        self._wanted: dict[str, tuple[str, float]] = {}   # table -> (node, when) a write was forwarded here from
        self._free_since: dict[str, float] = {}
        self._since: dict[str, float] = {}            # table -> when this node took it (a table is kept QUIET_S)
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: Any = None
        self._node_locked = False
        self.moves = {"acquired": 0, "recovered": 0, "released": 0}

    # -- the router's signals (event loop) ----------------------------------------------------------
    def saw(self, table_id: str, forwarded_from: str | None) -> None:
        now = time.monotonic()
        if forwarded_from is None:
            self._direct[table_id] = now
        elif forwarded_from != self.me.name:
            self._wanted[table_id] = (forwarded_from, now)

    def owner_of(self, table_id: str) -> str | None:
        return self.me.name if table_id in self.owned else self.owners.get(table_id)

    def refresh(self) -> None:
        """Run a pass soon (a forward failed: the owner may have gone)."""
        self._wake.set()

    # -- life ----------------------------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="tapete-owner", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.close()

    def _connect(self) -> Any:
        import psycopg

        dsn = self.db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        idle = max(1, int(self.cluster.takeover_s / 4))
        # The server drops this session — and with it every lock of this node — when keepalives go unanswered
        # (a host gone without closing its sockets); the client side gives up as fast, and then owns nothing.
        return psycopg.connect(dsn, autocommit=True, keepalives=1, keepalives_idle=idle, keepalives_interval=1,
                               keepalives_count=2, tcp_user_timeout=int(idle * 1000 + 2000), connect_timeout=5,
                               application_name=f"tapete-owner-{self.me.name}",
                               options=f"-c tcp_keepalives_idle={idle} -c tcp_keepalives_interval=1 "
                                       f"-c tcp_keepalives_count=2 -c tcp_user_timeout={int(idle * 1000 + 2000)} "
                                       f"-c statement_timeout={int(idle * 1000 + 2000)}")

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                if self._conn is None or self._conn.closed:
                    self._lost()
                    self._conn = self._connect()
                self._pass()
            except Exception as exc:  # noqa: BLE001 - the lock connection failed: this node owns nothing now
                log.warning("ownership connection lost: %s", exc)
                self._lost()
                with contextlib.suppress(Exception):
                    if self._conn is not None:
                        self._conn.close()
                self._conn = None
            self._wake.wait(self.interval)
            self._wake.clear()

    def _lost(self) -> None:
        self.owned = set()
        self._node_locked = False

    def _lock(self, cls: int, key: int) -> bool:
        return bool(self._conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (cls, key)).fetchone()[0])

    def _pass(self) -> None:
        if not self._node_locked:
            if not self._lock(NODE_CLASS, self.me.id):
                log.warning("node %s is held by another process: waiting for it to go", self.me.name)
                return
            self._node_locked = True
        rows = self._conn.execute(SNAPSHOT, (LOCK_CLASS, NODE_CLASS)).fetchall()
        live_ids = {int(r[0]) for r in rows}
        held = {int(r[1]): self.names.get(int(r[0]), "?") for r in rows if r[1] is not None}
        previous = self.owners
        self.owners = {t: held[k] for t, k in self.keys.items() if k in held}
        self.live = sorted(self.names[i] for i in live_ids if i in self.names)
        now = time.monotonic()
        for t in self.tables:
            if t in self.owned:
                self._maybe_release(t, now)
                continue
            if t in self.owners:
                self._free_since.pop(t, None)
                continue
            free_since = self._free_since.setdefault(t, now)
            demand = now - self._direct.get(t, -1e9) < QUIET_S
            grace = now - free_since >= GRACE_PASSES * self.interval
            # the rendezvous choice waits one pass: a node the front sends the table's writes to takes it first
            mine = preferred(t, self.live) == self.me.name and now - free_since >= 0.9 * self.interval
            if (demand or mine or grace) and self._lock(LOCK_CLASS, self.keys[t]):
                before = previous.get(t)
                graceful = before is not None and before != self.me.name and before in self.live
                self._free_since.pop(t, None)
                self._acquired(t, graceful)

    def _acquired(self, table_id: str, graceful: bool) -> None:
        log.info("node %s now owns table %s (%s)", self.me.name, table_id, "handed over" if graceful else "recovered")
        try:
            self.on_acquire(table_id, graceful)
        except Exception:  # noqa: BLE001 - a table that cannot recover is logged, the others run
            log.exception("recovery of %s failed", table_id)
        self.owned.add(table_id)
        self._since[table_id] = time.monotonic()
        self.owners[table_id] = self.me.name
        self.moves["acquired"] += 1
        if not graceful:
            self.moves["recovered"] += 1

    def _maybe_release(self, table_id: str, now: float) -> None:
        """Let go of a table another live node should have: one whose writes it keeps forwarding here (the
        front sends them there), or — none reaching either — the one the rendezvous hash prefers (a node that
        joins gets its share). Never while writes of the table reach this node directly."""
        if now - self._direct.get(table_id, -1e9) < QUIET_S:
            return                               # writes reach this node too: the table stays
        wanted = self._wanted.get(table_id)
        if wanted is not None and now - wanted[1] <= QUIET_S and wanted[0] in self.live:
            to = wanted[0]
        elif wanted is None or now - wanted[1] > QUIET_S:
            to = preferred(table_id, self.live) or self.me.name
            if to == self.me.name or now - self._since.get(table_id, now) < QUIET_S:
                return
        else:
            return
        self.owned.discard(table_id)             # first: no new write is taken here
        self._conn.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_CLASS, self.keys[table_id]))
        self.owners.pop(table_id, None)
        self._wanted.pop(table_id, None)
        self.moves["released"] += 1
        log.info("node %s hands table %s over to %s", self.me.name, table_id, to)
