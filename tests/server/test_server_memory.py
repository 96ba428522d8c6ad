"""What keeps the server's memory flat under a steady load (issue 17, 9): every cache it holds has a cap, and the
cap is reached early. The soak in benchmarks/bench_soak.py measures the resident memory; these pin the caps."""

from __future__ import annotations

import inspect
import os
import platform
import re
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest

from tapete.server import cli as server_cli
from tapete.server.http import fanout
from tapete.server.storage import memory
from tapete.server.storage.db import SQLITE_CACHE_KIB, SQLITE_POOL, Database


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


ARENA_PROBE = """
import ctypes, threading, sys
from tapete.server.storage.memory import limit_malloc_arenas
if sys.argv[1] == "capped":
    assert limit_malloc_arenas()
barrier = threading.Barrier(13)
held = []
def work():
    held.append([bytearray(4096) for _ in range(64)])     # over pymalloc's 512 bytes: glibc malloc, in this thread
    barrier.wait()
threads = [threading.Thread(target=work) for _ in range(12)]
for t in threads: t.start()
barrier.wait()
ctypes.CDLL("libc.so.6").malloc_stats()                 # one "Arena N:" block per arena, on stderr
for t in threads: t.join()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc's malloc")
def test_the_server_caps_glibc_malloc_arenas() -> None:
    """Twelve threads allocating at once get arenas of their own (each keeping its freed memory: the soak's
    creep); `tapete serve` caps them at MALLOC_ARENAS before it starts a thread."""
    from tapete.server.storage.memory import MALLOC_ARENAS

    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    env["PYTHONPATH"] = str(Path(memory.__file__).resolve().parents[2])

    def arenas(mode: str) -> int:
        run = subprocess.run([sys.executable, "-c", ARENA_PROBE, mode], env=env, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        return len(re.findall(r"(?m)^Arena \d+:", run.stderr))

    assert arenas("default") > MALLOC_ARENAS            # the probe does make arenas
    assert arenas("capped") <= MALLOC_ARENAS


def test_serve_caps_the_arenas_before_it_builds_the_app() -> None:
    source = inspect.getsource(server_cli.serve)
    assert source.index("limit_malloc_arenas()") < source.index("create_app(casino")


TRIM_PROBE = """
import sys
from tapete.server.storage.memory import trim_malloc
def rss():
    return int(next(l for l in open("/proc/self/status") if l.startswith("VmRSS:")).split()[1])
blocks = [bytearray(64 * 1024 - 64) for _ in range(1600)]   # ~100 MiB of malloc's heap (under its mmap threshold)
keep = blocks[-1]                                          # the top of the heap stays in use: no automatic trim
del blocks[:-1]
before = rss()
if sys.argv[1] == "trim":
    assert trim_malloc()
print(before - rss())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc's malloc")
def test_trimming_gives_freed_heap_pages_back() -> None:
    """Memory freed below a block still in use stays in the process (RSS at its high-water mark) until
    malloc_trim hands the free pages back: the server trims every TRIM_EVERY seconds (memory.keep_trimming)."""
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    env["PYTHONPATH"] = str(Path(memory.__file__).resolve().parents[2])

    def released_kib(mode: str) -> int:
        run = subprocess.run([sys.executable, "-c", TRIM_PROBE, mode], env=env, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        return int(run.stdout.strip())

    assert released_kib("keep") < 10 * 1024          # without a trim the freed ~100 MiB stays resident
    assert released_kib("trim") > 50 * 1024


def test_serve_keeps_trimming_malloc() -> None:
    source = inspect.getsource(server_cli.serve)
    assert source.index("keep_trimming()") < source.index("create_app(casino")
    thread = memory.keep_trimming(every=3600)
    if sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc":
        assert thread is not None and thread.daemon and thread.is_alive()


FREEZE_PROBE = """
import gc, sys
from tapete.server.storage.memory import freeze_startup_heap
startup = [{"n": i, "s": str(i), "l": [i]} for i in range(300_000)]     # what a server builds before it serves
if sys.argv[1] == "freeze":
    assert freeze_startup_heap() >= 300_000
gc.collect()                                          # a full pass walks what get_objects lists
print(len(gc.get_objects()))
"""


def test_the_heap_built_before_serving_is_frozen_out_of_the_collector() -> None:
    """Issue 33: the collector's full passes walked every object the process had built before serving, ≈ 0.1 s each
    with the interpreter lock held, at 1,000 bets a second every few seconds. `tapete serve` freezes them, after a
    last collection, once the app is built; a full pass then walks only what came later (counted: tracked objects,
    not timed)."""
    env = {**os.environ, "PYTHONPATH": str(Path(memory.__file__).resolve().parents[2])}

    def tracked(mode: str) -> int:
        run = subprocess.run([sys.executable, "-c", FREEZE_PROBE, mode], env=env, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        return int(run.stdout)

    assert tracked("plain") > 600_000 and tracked("freeze") < 100_000
    source = inspect.getsource(server_cli.serve)
    assert source.index("create_app(casino") < source.index("freeze_startup_heap()") < source.index(".run(sockets=")
