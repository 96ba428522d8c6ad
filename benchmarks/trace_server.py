"""`python benchmarks/trace_server.py REPORT serve ...`: `tapete ...` with a memory report, for the soak's --trace.

Every INTERVAL seconds (env TAPETE_TRACE_INTERVAL, default 60) appends to REPORT one JSON line: RSS; glibc's
malloc figures (mallinfo2: bytes in use, free bytes held in the
arenas); the SQLite page cache of the whole process (sqlite3_status64 SQLITE_STATUS_PAGECACHE_USED / MEMORY_USED);
threads; open descriptors; the number of objects the garbage collector tracks. These are cheap: the figures are
the server's own. With TAPETE_TRACE_PYTHON=1 (the soak's --tracemalloc) the server also runs under tracemalloc
and the report adds the Python heap (traced bytes), the object types and the allocation sites (file:line) that
grew most since the first report and since the previous one: RSS minus the traced heap is native memory
(SQLite, OpenSSL, argon2, malloc's free lists). tracemalloc doubles the heap and its snapshots churn malloc, so
its RSS is not the server's: read its sites, and the RSS of a run without it.
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


def _rss() -> dict[str, float]:
    """RSS, and its anonymous part (heaps: malloc's, pymalloc's, SQLite's) apart from the mapped files (code)."""
    out = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key = line.split(":")[0]
        if key in ("VmRSS", "RssAnon", "RssFile"):
            out[{"VmRSS": "rss_mib", "RssAnon": "rss_anon_mib", "RssFile": "rss_file_mib"}[key]] = round(int(line.split()[1]) / 1024, 1)
    return out


def _pymalloc() -> dict[str, float]:
    """pymalloc's arenas (it maps them itself: malloc's figures do not see Python's small objects), from
    sys._debugmallocstats, which writes to the C stderr: caught in a temporary file."""
    import re
    import tempfile

    with tempfile.TemporaryFile() as tmp:
        saved = os.dup(2)
        try:
            os.dup2(tmp.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        text = tmp.read().decode(errors="replace")
    out = {}
    for key, pattern in (("pymalloc_arenas_mib", r"Total\s*=\s*([\d,]+)"), ("pymalloc_blocks_mib", r"# bytes in allocated blocks\s*=\s*([\d,]+)")):
        m = re.search(pattern, text)
        if m:
            out[key] = round(int(m.group(1).replace(",", "")) / 1024 / 1024, 2)
    return out


Sites = dict[str, tuple[int, int]]


def _sites() -> Sites:
    """{file:line: (bytes, blocks)} of the live Python allocations (the snapshot itself is dropped at once)."""
    snap = tracemalloc.take_snapshot()
    out: Sites = {}
    for stat in snap.statistics("lineno"):
        frame = stat.traceback[0]
        if frame.filename in (tracemalloc.__file__, __file__) or frame.filename.endswith("linecache.py"):
            continue
        out[f"{frame.filename.split('site-packages/')[-1].split('/src/')[-1]}:{frame.lineno}"] = (stat.size, stat.count)
    return out


def _top(now: Sites, then: Sites, n: int) -> list[str]:
    grown = sorted(((size - then.get(k, (0, 0))[0], count - then.get(k, (0, 0))[1], k) for k, (size, count) in now.items()),
                   reverse=True)
    return [f"{d / 1024:+.0f} KiB ({c:+d}) {k}" for d, c, k in grown[:n] if d > 0]


def _watch(report: Path, interval: float, python: bool) -> None:
    libc, lite = _libc(), _sqlite()
    start = time.monotonic()
    first: Sites | None = None
    prev: Sites = {}
    types0: Counter[str] = Counter()
    while True:
        time.sleep(interval)
        row: dict[str, object] = {
            "minute": round((time.monotonic() - start) / 60, 2), **_rss(), **_pymalloc(), **_malloc(libc),
            **_sqlite_status(lite), "threads": threading.active_count(), "fds": len(os.listdir("/proc/self/fd")),
            "gc_objects": len(gc.get_objects())}
        if python:
            sites = _sites()
            types = Counter(type(o).__name__ for o in gc.get_objects())
            row["traced_mib"] = round(tracemalloc.get_traced_memory()[0] / 1024 / 1024, 2)
            if first is None:
                first, types0 = sites, types
            else:
                row["growth_since_first"] = _top(sites, first, 15)
                row["growth_since_previous"] = _top(sites, prev, 8)
                row["types_grown"] = [f"{k} {v:+d}" for k, v in (types - types0).most_common(10)]
            prev = sites
        with report.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")


def main() -> None:
    report = Path(sys.argv[1])
    sys.argv = ["tapete", *sys.argv[2:]]
    python = os.environ.get("TAPETE_TRACE_PYTHON") == "1"
    if python:
        tracemalloc.start(1)
    threading.Thread(target=_watch, args=(report, float(os.environ.get("TAPETE_TRACE_INTERVAL", "60")), python),
                     daemon=True, name="trace").start()
    from tapete.cli import main as tapete

    tapete()


if __name__ == "__main__":
    main()
