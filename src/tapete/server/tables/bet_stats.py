"""Where a process's bets spend their time: counters of the group commit (batch.py) and its writer threads
(writers.py), read by `/metrics` and by the server benchmark's profile (benchmarks/bench_server.py).

Why counts and CPU rather than latencies: on a machine shared with other work wall-clock figures say more about
the neighbours than about the server, while statements per batch, requests per batch and CPU seconds per bet
are what a change moves (issue 33). Wall times are kept too (the row lock's hold, the transaction), to be read
beside the load average.

A round trip to PostgreSQL is a statement, plus the driver's BEGIN and COMMIT for each transaction
(`round_trips`); SQLite has none (in-process).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, fields


@dataclass
class BetStats:
    batches: int = 0              # transactions that wrote a batch of bets
    requests: int = 0             # requests those batches answered
    statements: int = 0           # SQL statements the batches' transactions sent (the driver's executes)
    round_trips: int = 0          # PostgreSQL: statements + BEGIN + COMMIT; SQLite: 0
    lock_s: float = 0.0           # wall seconds the table was held: from the locking read to the commit's end
    lock_max_s: float = 0.0
    transaction_s: float = 0.0    # wall seconds from BEGIN to the commit's end
    writer_cpu_s: float = 0.0     # CPU seconds of the writer threads (their thread_time, batches and hand-off)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def batch(self, requests: int, statements: int, round_trips: int, lock_s: float, transaction_s: float) -> None:
        with self._lock:
            self.batches += 1
            self.requests += requests
            self.statements += statements
            self.round_trips += round_trips
            self.lock_s += lock_s
            self.lock_max_s = max(self.lock_max_s, lock_s)
            self.transaction_s += transaction_s

    def writer_cpu(self, seconds: float) -> None:
        with self._lock:
            self.writer_cpu_s += seconds

    def snapshot(self) -> dict[str, float]:
        with self._lock:
            return {f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("_")}
