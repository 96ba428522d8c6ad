"""Settlement's own work, in isolation: process CPU to close, draw and settle a round of `--bets` bets.

The same in-process server as `profile_bets.py` (SQLite in a temporary directory, or the PostgreSQL
database given by --url; one roulette table, `--players` players). Each round is opened, filled with
`--bets` straight-ups (group-committed in batches of 50 requests of one bet, not measured), then no va más
(`TableService.close`) and the draw with its settlement (`TableService.draw`) are measured: process CPU
per round (the server process only: PostgreSQL's own CPU is not counted), wall time, SQL statements per
round (exact). `--profile` adds cProfile's top functions over the measured rounds.

    python benchmarks/profile_settle.py [--bets 500] [--rounds 8] [--url postgresql://...] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parent))
from profile_bets import build  # noqa: E402

# Cumulative shares of the profiled time (the parts nest: the open bets are read inside the stakes' sync).
PARTS = [
    ("engine: no va más, the spin, the settlement document", (("table_ctx.py", ("apply_event", "settlement_doc")),)),
    ("stakes synced and bets booked (ledger entries)", (("table_ctx.py", ("sync_stakes", "book")),)),
    ("  of which the open bets read", (("table_ctx.py", ("load_open_bets",)),)),
    ("  of which ledger statements", (("ledger.py", ("commit",)),)),
    ("round record: the round's log read back", (("round_end.py", ("load_round_records",)),)),
    ("bets, log, table row written (_persist)", (("tables.py", ("_persist",)),)),
    ("  of which the state snapshot", (("fastjson.py", ("state_text",)),)),
    ("table row and state load", (("tables.py", ("_load",)),)),
    ("commit", (("base.py", ("commit",)),)),
]


def parts(stats: pstats.Stats) -> list[tuple[str, float]]:
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in raw.values())
    out = []
    for name, where in PARTS:
        cum = sum(v[3] for (f, _, fn), v in raw.items() for module, funcs in where if f.endswith(module) and fn in funcs)
        out.append((name, cum / total))
    return out


def fill(service: Any, players: int, bets: int) -> None:
    placed = 0
    while placed < bets:
        queued = []
        for _ in range(min(50, bets - placed)):
            p = f"p{placed % players}"
            items = [{"kind": "straight", "on": [placed % 37], "amount": 100}]
            queued.append(service.batches.submit("ruleta", p, items, (f"{p}:{uuid.uuid4().hex}", "fp")))
            placed += 1
        service.batches.flush("ruleta")
        for q in queued:
            q.future.result()


def one_round(service: Any, players: int, bets: int, prof: cProfile.Profile | None) -> tuple[float, float, int]:
    """(CPU seconds, wall seconds, statements) of the close and the draw of one filled round."""
    service.open_round("ruleta", "croupier")
    fill(service, players, bets)
    count = [0]

    def counter(*_: Any) -> None:
        count[0] += 1

    event.listen(service.db.engine, "before_cursor_execute", counter)
    t0, c0 = time.perf_counter(), time.process_time()
    if prof is not None:
        prof.enable()
    service.close("ruleta", "croupier")
    result = service.draw("ruleta", "croupier")
    if prof is not None:
        prof.disable()
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    event.remove(service.db.engine, "before_cursor_execute", counter)
    assert result["phase"] == "settled" and len(result["bets"]) == bets, result["phase"]
    return cpu, wall, count[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bets", type=int, default=500, help="bets in each round")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--url", default=None, help="a PostgreSQL database URL (default: SQLite in a temp dir)")
    parser.add_argument("--profile", action="store_true", help="cProfile the measured rounds (after the timed ones)")
    args = parser.parse_args()
    client, service = build(args.url, args.players)
    try:
        if service.close("ruleta", "croupier")["phase"] == "closed":     # build() opened a round: end it first
            service.draw("ruleta", "croupier")
        one_round(service, args.players, args.bets, None)                    # warm caches and statements
        runs = [one_round(service, args.players, args.bets, None) for _ in range(args.rounds)]
        cpu = sorted(r[0] for r in runs)
        wall = sorted(r[1] for r in runs)
        med = len(runs) // 2
        print(f"{args.bets} bets a round, {args.rounds} rounds: close + draw + settle {cpu[med] * 1000:.1f} ms CPU "
              f"(median; min {cpu[0] * 1000:.1f}), {wall[med] * 1000:.1f} ms wall; {runs[0][2]} SQL statements a round; "
              f"load average {os.getloadavg()[0]:.1f}")
        if args.profile:
            prof = cProfile.Profile()
            for _ in range(3):
                one_round(service, args.players, args.bets, prof)
            stats = pstats.Stats(prof)
            for name, share in parts(stats):
                print(f"  {name:55s} {share:6.1%}")
            stats.sort_stats("cumulative").print_stats(40)
    finally:
        client.__exit__(None, None, None)


if __name__ == "__main__":
    main()
