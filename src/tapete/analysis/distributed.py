"""Run simulation chunks on an existing Dask cluster (docs/decisions.md: why Dask rather than Ray).

Each chunk carries its own stream index, so a cluster returns exactly what one process would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def dask_mapper(address: str) -> Callable[[Callable[..., Any], list[Any]], Iterable[Any]]:
    """A `map_chunks` for `simulate` that submits every chunk to the scheduler at `address`."""
    from distributed import Client

    def run(fn: Callable[..., Any], jobs: list[Any]) -> Iterable[Any]:
        with Client(address, timeout="30s") as client:
            futures = client.map(fn, jobs, pure=False)
            return client.gather(futures)      # in job order: the merge does not depend on who finished first

    return run
