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
import os
import sys

MALLOC_ARENAS = 2
_M_ARENA_MAX = -8          # glibc's mallopt parameter (malloc.h)


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Cap glibc's malloc arenas (as MALLOC_ARENA_MAX would) before the server starts its threads; an operator's
    own MALLOC_ARENA_MAX wins. False where there is no glibc (musl, macOS: nothing to do)."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_ARENA_MAX, arenas))
