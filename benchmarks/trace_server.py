"""`python benchmarks/trace_server.py REPORT serve ...`: `tapete ...` under tracemalloc, for the soak's --trace.

Every INTERVAL seconds (env TAPETE_TRACE_INTERVAL, default 60) appends to REPORT one JSON line: RSS; the Python
heap tracemalloc sees (traced bytes); glibc's malloc figures (mallinfo2: bytes in use, free bytes held in the
arenas); the SQLite page cache of the whole process (sqlite3_status64 SQLITE_STATUS_PAGECACHE_USED / MEMORY_USED);
threads; open descriptors; the object counts by type that grew most; and the allocation sites (file:line) that
grew most since the first report and since the previous one. RSS minus the traced heap is native memory
(SQLite, OpenSSL, argon2, malloc's free lists); the sites say which Python code holds the rest.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import os
import sys
import threading
import time
import tracemalloc
from collections import Counter
from pathlib import Path


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost")]


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None


def _sqlite() -> ctypes.CDLL | None:
    import _sqlite3

    try:
        return ctypes.CDLL(_sqlite3.__file__)       # the module links libsqlite3: its symbols resolve through it
    except OSError:
        return None


def _malloc(libc: ctypes.CDLL | None) -> dict[str, float]:
    if libc is None or not hasattr(libc, "mallinfo2"):
        return {}
    libc.mallinfo2.restype = _MallInfo2
    m = libc.mallinfo2()
    mib = 1024 * 1024
    return {"malloc_in_use_mib": round((m.uordblks + m.hblkhd) / mib, 2), "malloc_free_mib": round(m.fordblks / mib, 2),
            "malloc_arena_mib": round(m.arena / mib, 2)}


def _sqlite_status(lib: ctypes.CDLL | None) -> dict[str, float]:
    if lib is None or not hasattr(lib, "sqlite3_status64"):
        return {}
    cur, high = ctypes.c_int64(), ctypes.c_int64()
    out = {}
    for name, op in (("sqlite_memory_mib", 0), ("sqlite_pagecache_overflow_mib", 2)):
        lib.sqlite3_status64(op, ctypes.byref(cur), ctypes.byref(high), 0)
        out[name] = round(cur.value / 1024 / 1024, 2)
    return out


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def _top(diff: list[tracemalloc.StatisticDiff], n: int = 12) -> list[str]:
    return [f"{d.size_diff / 1024:+.0f} KiB ({d.count_diff:+d}) {d.traceback[0].filename.split('site-packages/')[-1]}:"
            f"{d.traceback[0].lineno}" for d in diff[:n] if d.size_diff]


def _watch(report: Path, interval: float) -> None:
    libc, lite = _libc(), _sqlite()
    start = time.monotonic()
    first = prev = None
    types0: Counter[str] = Counter()
    keep = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>")]
    while True:
        time.sleep(interval)
        snap = tracemalloc.take_snapshot().filter_traces(keep)
        types = Counter(type(o).__name__ for o in gc.get_objects())
        row = {"minute": round((time.monotonic() - start) / 60, 2), "rss_mib": _rss_mib(),
               "traced_mib": round(tracemalloc.get_traced_memory()[0] / 1024 / 1024, 2),
               **_malloc(libc), **_sqlite_status(lite), "threads": threading.active_count(),
               "fds": len(os.listdir("/proc/self/fd"))}
        if first is None:
            first, types0 = snap, types
        else:
            row["growth_since_first"] = _top(snap.compare_to(first, "lineno"))
            row["growth_since_previous"] = _top(snap.compare_to(prev, "lineno"), 8)
            row["types_grown"] = [f"{k} {v:+d}" for k, v in (types - types0).most_common(10)]
        prev = snap
        with report.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")


def main() -> None:
    report = Path(sys.argv[1])
    sys.argv = ["tapete", *sys.argv[2:]]
    tracemalloc.start(1)
    threading.Thread(target=_watch, args=(report, float(os.environ.get("TAPETE_TRACE_INTERVAL", "60"))),
                     daemon=True, name="trace").start()
    from tapete.cli import main as tapete

    tapete()


if __name__ == "__main__":
    main()
