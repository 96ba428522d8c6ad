"""Health for two readers (issue 29).

- `/api/health/live` is what a load balancer asks: 200 while this process can serve — its database answers
  and its schema is the code's — and 503 otherwise. Cheap (one ping), and never failing because of one table.
- `/api/health` is the operator's and the inspector's full state: the database, every table this process knows
  (phase, whether this process owns it, whether it is stuck), the last verification of the audit chains and the
  ledger with its result, and `status` `ok` or `degraded` with the reasons (200), or `down` (503) when this
  process cannot serve.

The chains are verified at start-up and then in the background every `security.verify_every_s` seconds (and on
demand, `POST /api/health/verify`), never on a probe: a probe reads the last result.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

STUCK_AFTER_S = 600.0          # a round in closed/acting/confirming unchanged this long is reported stuck
BUSY_PHASES = ("closed", "acting", "confirming")


@dataclass
class ChainCheck:
    """The last verification of the audit chains and the ledger."""

    at: float | None = None
    ok: bool | None = None
    problems: list[str] = field(default_factory=list)
    seconds: float | None = None
    tables: int = 0
    records: int = 0

    def document(self) -> dict[str, Any]:
        return {"verified_at": self.at, "ok": self.ok, "problems": self.problems[:20], "seconds": self.seconds,
                "tables": self.tables, "records": self.records}


class Health:
    """Runs the verifications and answers both probes for one server process."""

    def __init__(self, server: Any, every_s: float) -> None:
        self.server = server
        self.every_s = every_s
        self.last = ChainCheck()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- verification -----------------------------------------------------------------------------
    def verify(self) -> ChainCheck:
        """Verify every table's chain and the ledger now (one at a time per process)."""
        from tapete.server.audit.backup import verify_restored

        with self._lock:
            start = time.perf_counter()
            try:
                found = verify_restored(self.server.db)
                check = ChainCheck(time.time(), found.ok, list(found.problems), 0.0, found.tables, found.records)
            except Exception as exc:  # noqa: BLE001 - a health check reports, it never raises
                check = ChainCheck(time.time(), False, [f"the verification could not run: {type(exc).__name__}: {exc}"])
            check.seconds = round(time.perf_counter() - start, 3)
            self.last = check
            return check

    def start(self) -> None:
        """Verify now, then on schedule in a daemon thread."""
        self.verify()
        if self.every_s > 0:
            self._thread = threading.Thread(target=self._loop, name="tapete-health", daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(self.every_s):
            self.verify()

    def stop(self) -> None:
        self._stop.set()

    # -- probes -----------------------------------------------------------------------------------
    def live(self) -> tuple[int, dict[str, Any]]:
        reachable = self.server.db.ping()
        if not reachable:
            return 503, {"status": "down", "reasons": ["the database does not answer"]}
        return 200, {"status": "live"}

    def full(self) -> tuple[int, dict[str, Any]]:
        from tapete.server.audit import chains, ledger_chain
        from tapete.server.storage.db import casino_tables

        server, db = self.server, self.server.db
        reachable = db.ping()
        reasons: list[str] = []
        tables: dict[str, Any] = {}
        heads: dict[str, Any] = {}
        lanes: dict[str, Any] = {}
        if reachable:
            from sqlalchemy import select

            now = time.time()
            with db.read() as conn:
                heads = {t: {"seq": s, "hash": h} for t, (s, h) in sorted(chains.heads(conn).items())}
                lanes = ledger_chain.heads(conn)
                rows = conn.execute(select(casino_tables.c.id, casino_tables.c.phase, casino_tables.c.updated_at)).all()
            for table_id, phase, updated in sorted(rows):
                stuck = phase in BUSY_PHASES and now - float(updated) > STUCK_AFTER_S
                tables[table_id] = {"phase": phase, "owned_here": table_id in server.ownership.owned,
                                    "stuck": stuck, "idle_s": round(now - float(updated), 1)}
                if stuck:
                    reasons.append(f"table {table_id} has been {phase} for {int(now - float(updated))} s")
        else:
            reasons.append("the database does not answer")
        check = self.last
        if check.ok is False:
            reasons += [f"audit: {p}" for p in check.problems[:10]]
        elif check.ok is None:
            reasons.append("the audit chains have not been verified yet")
        status = "down" if not reachable else ("degraded" if reasons else "ok")
        import tapete

        doc = {"status": status, "reasons": reasons, "database": {"reachable": reachable, "dialect": db.dialect},
               "version": tapete.__version__, "casino": server.config.casino.name,
               "uptime_s": round(time.time() - server.started, 1), "owned_tables": sorted(server.ownership.owned),
               "tables": tables, "audit": check.document(), "log_heads": heads,
               "ledger_heads": lanes}
        if server.router is not None:     # a cluster node (routing.py, tables/cluster.py)
            own = server.ownership
            doc["cluster"] = {"node": own.me.name, "live": list(own.live), "owners": dict(sorted(own.owners.items())),
                              "routed": dict(server.router.counts), "moves": dict(own.moves),
                              "takeover_s": server.config.cluster.takeover_s}
        return (503 if status == "down" else 200), doc
