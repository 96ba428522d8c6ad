"""Keep the server's resident memory flat: glibc's malloc gives threads arenas of their own (up to 8 per core),
and each arena keeps its own freed memory. The server's threads (the worker pool of the sync endpoints, the
clocks, the hashing pool) come and go, so each arena grows to its own high-water mark in turn: under the soak's
steady load (benchmarks/bench_soak.py) RSS crept up by ~0.7 MiB a minute with the memory in use flat, while the
free memory held in the arenas grew; with two arenas it stayed flat, ~7 MiB lower (benchmarks/RESULTS.md §soak).
Python's own small objects live in pymalloc's arenas, not malloc's, so two malloc arenas cost no contention
worth measuring on the bet path.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import sys
import threading

MALLOC_ARENAS = 2
TRIM_EVERY = 10.0          # seconds between two malloc_trim calls
MMAP_THRESHOLD = 128 * 1024   # bytes: larger blocks get pages of their own, given back when freed
_M_ARENA_MAX = -8          # glibc's mallopt parameters (malloc.h)
_M_MMAP_THRESHOLD = -3


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Cap glibc's malloc arenas (as MALLOC_ARENA_MAX would) before the server starts its threads; an operator's
    own MALLOC_ARENA_MAX wins. False where there is no glibc (musl, macOS: nothing to do)."""
    libc = _libc()
    if libc is None or "MALLOC_ARENA_MAX" in os.environ or not hasattr(libc, "mallopt"):
        return False
    # A fixed mmap threshold: glibc raises its threshold each time a mapped block is freed (up to 32 MiB), after
    # which the large, short-lived blocks (a round's state as JSON, a batch's rows) are carved from the heap and
    # leave holes the next, slightly larger ones do not fit: the heap crept up by ~0.2 MiB a minute in the soak.
    libc.mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    return bool(libc.mallopt(_M_ARENA_MAX, arenas))


def trim_malloc() -> bool:
    """Hand malloc's free pages back to the system now (glibc's malloc_trim(0): the top of each heap and, since
    glibc 2.8, the whole free pages inside them). False where there is no glibc."""
    libc = _libc()
    if libc is None or not hasattr(libc, "malloc_trim"):
        return False
    libc.malloc_trim(0)
    return True


def keep_trimming(every: float = TRIM_EVERY) -> threading.Thread | None:
    """A daemon thread that trims malloc's free memory every `every` seconds. Why: freed memory stays in the
    arena that held it until something at the top of the heap is freed too, so a server's RSS follows its
    high-water mark, not its use; the soak measured free memory held in the arenas creeping up by a few hundred
    KiB at a time for minutes after the load was steady. A trim took ≈ 2 ms with 40 MiB of scattered free blocks
    (the arenas' locks held meanwhile): every ten seconds that is 0.02 % of one thread, and RSS follows the memory
    in use closely enough for the soak's per-minute samples to read it."""
    if not trim_malloc():
        return None

    def loop() -> None:
        while True:
            threading.Event().wait(every)
            trim_malloc()

    thread = threading.Thread(target=loop, name="tapete-malloc-trim", daemon=True)
    thread.start()
    return thread


def freeze_startup_heap() -> int:
    """Take the objects that exist before the server serves (modules, the configuration, the app, the schemas: ≈ 170k)
    out of the cyclic garbage collector's reach, after one last collection; the number frozen.

    Why (issue 33): at 1,000 bets a second the collector's full passes walked them every few seconds, ≈ 0.1 s each
    with the interpreter lock held (every thread stopped: a pause in every request's latency) and ≈ 60 µs of CPU a
    request in all. They live as long as the process; what is built later (rounds, caches, requests) is collected
    as before. Only `tapete serve` calls it: a process that builds and drops servers (the tests) would keep every
    frozen one's cycles."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
