"""The bet's own work, in isolation: cProfile around the group commit (no HTTP), per bet.

An in-process server (SQLite in a temporary directory, or the PostgreSQL database given by --url), one
roulette table open, `--players` players; `--batches` batches of `--requests` requests of `--bets`
straight-ups each are queued and written by `TableService.batches.flush`, exactly as the bet lane does.
Prints ms per bet (process CPU, which a shared machine's load distorts less than wall time; wall,
without and with the profiler), SQL statements and Python calls per bet (exact) and the share of the profiled time by part,
the figures docs/performance.md records.

    python benchmarks/profile_bets.py [--bets 1] [--requests 20] [--batches 30] [--url postgresql://...]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import event

# A part is charged with the cumulative time of these functions (outermost wins; the rest is "other").
PARTS = [
    ("ledger (balances, transactions, postings)", ("ledger.py", ("commit", "flush", "add", "__init__"))),
    ("bet, table, idempotency rows (_persist)", ("tables.py", ("_persist",))),
    ("audit append", ("audit.py", ("append_many",))),
    ("engine: parse, apply, probe", ("table_ctx.py", ("parse", "apply_bet", "probe_staked"))),
    ("table row and state load", ("tables.py", ("_load",))),
]


def build(url: str | None, players: int) -> tuple[Any, Any]:
    from fastapi.testclient import TestClient

    from tapete.server.config import CasinoConfig, validate
    from tapete.server.http.app import create_app

    tmp = Path(tempfile.mkdtemp(prefix="tapete-prof-"))
    url = url or f"sqlite:///{tmp / 'casino.db'}"
    users = [{"username": "croupier", "password": "pw-pw-pw-pw", "roles": ["croupier"]},
             *({"username": f"p{i}", "password": "pw-pw-pw-pw", "roles": ["player"], "chips": 10_000_000} for i in range(players))]
    config = validate(CasinoConfig.model_validate({
        "casino": {"name": "profile", "jurisdiction": "ES"},
        "security": {"argon2_time_cost": 1, "argon2_memory_kib": 8},
        "tables": [{"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False,
                    "float": 1_000_000_000, "table": {"minimum": 100}}], "users": users}))
    client = TestClient(create_app(config, url))
    client.__enter__()
    service = client.app.state.server.service
    service.open_round("ruleta", "croupier")
    return client, service


def run_batches(service: Any, players: int, requests: int, bets: int, batches: int) -> int:
    placed = 0
    for b in range(batches):
        queued = []
        for r in range(requests):
            p = f"p{(b * requests + r) % players}"
            items = [{"kind": "straight", "on": [(b + r + i) % 37], "amount": 100} for i in range(bets)]
            queued.append(service.batches.submit("ruleta", p, items, (f"{p}:{uuid.uuid4().hex}", "fp")))
        service.batches.flush("ruleta")
        for q in queued:
            q.future.result()
            placed += bets
    return placed


def parts(stats: pstats.Stats, total: float) -> list[tuple[str, float]]:
    out = []
    raw = stats.stats  # type: ignore[attr-defined]
    for name, (module, funcs) in PARTS:
        cum = sum(v[3] for (f, _, fn), v in raw.items() if f.endswith(module) and fn in funcs)
        out.append((name, cum / total))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bets", type=int, default=1, help="bets per request")
    parser.add_argument("--requests", type=int, default=20, help="requests per batch")
    parser.add_argument("--batches", type=int, default=30)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--url", default=None, help="a PostgreSQL database URL (default: SQLite in a temp dir)")
    args = parser.parse_args()
    client, service = build(args.url, args.players)
    try:
        run_batches(service, args.players, args.requests, args.bets, 3)           # warm caches and statements
        statements: list[int] = [0]
        event.listen(service.db.engine, "before_cursor_execute", lambda *a: statements.__setitem__(0, statements[0] + 1))
        stats0 = service.batches.stats.snapshot()
        t0, c0, th0 = time.perf_counter(), time.process_time(), time.thread_time()
        n = run_batches(service, args.players, args.requests, args.bets, args.batches)
        plain = (time.perf_counter() - t0) / n * 1000
        cpu = (time.process_time() - c0) / n * 1000
        thread = (time.thread_time() - th0) / args.batches * 1000       # the writing thread's own CPU, per batch
        stats1 = service.batches.stats.snapshot()
        per_bet = statements[0] / n
        batches = stats1["batches"] - stats0["batches"]
        print(f"per batch of {args.requests} request(s): {thread:.3f} ms CPU of the writing thread, "
              f"{(stats1['statements'] - stats0['statements']) / batches:.2f} statements, "
              f"{(stats1['round_trips'] - stats0['round_trips']) / batches:.2f} round trips (PostgreSQL), "
              f"row held {1000 * (stats1['lock_s'] - stats0['lock_s']) / batches:.2f} ms (wall)")
        prof = cProfile.Profile()
        t0 = time.perf_counter()
        prof.enable()
        n = run_batches(service, args.players, args.requests, args.bets, args.batches)
        prof.disable()
        profiled = (time.perf_counter() - t0) / n * 1000
        stats = pstats.Stats(prof)
        total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
        calls = sum(v[1] for v in stats.stats.values()) / n  # type: ignore[attr-defined]
        print(f"{args.bets} bet(s)/request, {args.requests} requests/batch: {cpu:.3f} ms CPU/bet, {plain:.3f} ms wall/bet "
              f"({profiled:.3f} under cProfile); {per_bet:.2f} SQL statements/bet, {calls:.0f} Python calls/bet; "
              f"load average {os.getloadavg()[0]:.1f}")
        for name, share in parts(stats, total):
            print(f"  {name:45s} {share:6.1%}")
        stats.sort_stats(os.environ.get("SORT", "cumulative")).print_stats(int(os.environ.get("TOP", "25")))
    finally:
        client.__exit__(None, None, None)


if __name__ == "__main__":
    main()
