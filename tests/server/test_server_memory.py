"""What keeps the server's memory flat under a steady load (issue 17, 9): every cache it holds has a cap, and the
cap is reached early. The soak in benchmarks/bench_soak.py measures the resident memory; these pin the caps."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from tapete.server import fanout
from tapete.server.db import SQLITE_CACHE_KIB, SQLITE_POOL, Database


def test_every_sqlite_connection_caps_its_page_cache(tmp_path: Path) -> None:
    """SQLite's default cap (2000 KiB a connection) is reached only as a connection touches that much of a
    growing file: with a pool of connections the process crept up for the whole soak. Every pooled connection,
    the overflow ones included, carries the explicit cap."""
    db = Database(f"sqlite:///{tmp_path / 'casino.db'}")
    try:
        with ExitStack() as stack:
            conns = [stack.enter_context(db.engine.connect()) for _ in range(sum(SQLITE_POOL))]
            sizes = {c.exec_driver_sql("PRAGMA cache_size").scalar() for c in conns}
        assert sizes == {-SQLITE_CACHE_KIB}
        assert SQLITE_CACHE_KIB * sum(SQLITE_POOL) <= 16 * 1024        # the bound the comment in db.py states
    finally:
        db.dispose()


def test_the_fanout_caches_hold_at_most_keep_records() -> None:
    """The stream's shared texts and named-players caches are keyed by record: over many rounds they stay at KEEP."""
    f = fanout.Fanout()
    for seq in range(fanout.KEEP * 4):
        f.named("ruleta", {"seq": seq, "kind": "bet", "data": {"player": f"p{seq % 7}"}})
    assert len(f._named) == fanout.KEEP
