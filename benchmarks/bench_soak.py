"""Soak: does the server's resident memory level off under a steady load, or keep growing?

A real `tapete serve` (SQLite, one process) with two electronic roulette tables on their own clock, under a
steady offered load for MINUTES (default 10): PLAYERS players betting at PACE bets/s each, a reader of the
tables and the round records, a fresh login every second (new sessions), a WebSocket opened and closed every
two seconds, a refused request (404, 401) every second. The server's RSS is sampled at the start and every
minute; after WARMUP minutes it should stay flat (growth within FLAT_MIB or FLAT_PCT). `make bench` runs
the full 10 minutes; `--minutes 2` checks the harness.

    python benchmarks/bench_soak.py [--minutes 10] [--players 20] [--pace 2]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from serverproc import rss_kib, serve

MINUTES = 10.0
PLAYERS = 20
PACE = 2.0            # bets per second per player: 40 bets/s offered
WARMUP = 1            # minutes before the flatness is judged
FLAT_MIB = 4.0
FLAT_PCT = 3.0
PASSWORD = "soak-passphrase-1"


def write_config(path: Path, players: int) -> None:
    lines = ['[casino]', 'name = "soak"', 'jurisdiction = "ES-AN"', '', '[security]', 'argon2_time_cost = 1',
             'argon2_memory_kib = 1024', 'login_attempts = 1000000', '']
    for t in range(2):
        lines += ["[[tables]]", f'id = "ruleta-{t}"', 'game = "roulette-french"', "float = 100000000",
                  "table = {minimum = 100}", "timing = {bets = 5.0, spin = 0.2, pause = 0.3}", ""]
    for p in range(players):
        lines += ["[[users]]", f'username = "p{p}"', f'password = "{PASSWORD}"', 'roles = ["player"]', "chips = 100000000", ""]
    path.write_text("\n".join(lines), encoding="utf-8")


class Load:
    def __init__(self, base: str, players: int, pace: float) -> None:
        self.base, self.players, self.pace = base, players, pace
        self.counts: dict[str, int] = {"bets": 0, "refused": 0, "reads": 0, "logins": 0, "streams": 0, "errors": 0}
        self.stop = asyncio.Event()

    async def player(self, client: Any, i: int) -> None:
        token = (await client.post("/api/login", json={"username": f"p{i}", "password": PASSWORD})).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        table = f"ruleta-{i % 2}"
        next_at = time.monotonic() + random.random() / self.pace
        while not self.stop.is_set():
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            next_at += 1 / self.pace
            bet = random.choice([{"kind": "red", "amount": 100}, {"kind": "straight", "on": [random.randint(0, 36)], "amount": 100}])
            try:
                r = await client.post(f"/api/tables/{table}/bets", json={"bets": [bet]},
                                      headers={**headers, "Idempotency-Key": uuid.uuid4().hex})
                self.counts["bets" if r.status_code == 200 else "refused"] += 1
            except Exception:  # noqa: BLE001 - counted, the soak goes on
                self.counts["errors"] += 1

    async def reader(self, client: Any) -> None:
        token = (await client.post("/api/login", json={"username": "p0", "password": PASSWORD})).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        while not self.stop.is_set():
            for path in ("/api/tables", "/api/tables/ruleta-0/view", "/api/rounds?limit=5", "/", "/tables/ruleta-1"):
                try:
                    await client.get(path, headers=headers)
                    self.counts["reads"] += 1
                except Exception:  # noqa: BLE001
                    self.counts["errors"] += 1
            await client.get("/api/nothing")                        # a 404
            await client.get("/api/me", headers={"Authorization": "Bearer forged"})   # a 401
            await asyncio.sleep(1.0)

    async def logins(self, client: Any) -> None:
        while not self.stop.is_set():
            r = await client.post("/api/login", json={"username": f"p{random.randrange(self.players)}", "password": PASSWORD})
            self.counts["logins"] += r.status_code == 200
            await asyncio.sleep(1.0)

    async def streams(self, client: Any) -> None:
        import websockets

        token = (await client.post("/api/login", json={"username": "p1", "password": PASSWORD})).json()["token"]
        url = self.base.replace("http", "ws") + "/api/tables/ruleta-0/stream"
        while not self.stop.is_set():
            try:
                async with websockets.connect(url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
                    await asyncio.wait_for(ws.recv(), 10)
                    self.counts["streams"] += 1
            except Exception:  # noqa: BLE001
                self.counts["errors"] += 1
            await asyncio.sleep(2.0)


async def _soak(base: str, pid: int, minutes: float, players: int, pace: float) -> list[dict[str, Any]]:
    import httpx

    load = Load(base, players, pace)
    rows = [{"minute": 0, "RSS (MiB)": round(rss_kib(pid) / 1024, 1)}]
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=httpx.Limits(max_connections=players + 8)) as client:
        tasks = [asyncio.create_task(load.player(client, i)) for i in range(players)]
        tasks += [asyncio.create_task(load.reader(client)), asyncio.create_task(load.logins(client)),
                  asyncio.create_task(load.streams(client))]
        start = time.monotonic()
        minute = 0
        while minute < minutes:
            minute += 1
            await asyncio.sleep(max(0.0, start + 60 * min(minute, minutes) - time.monotonic()))
            done = dict(load.counts)
            rows.append({"minute": round(min(minute, minutes), 2), "RSS (MiB)": round(rss_kib(pid) / 1024, 1),
                         **{k: v for k, v in done.items()}})
            print(rows[-1], flush=True)
        load.stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    return rows


def verdict(rows: list[dict[str, Any]], warmup: int = WARMUP) -> str:
    after = [r["RSS (MiB)"] for r in rows if r["minute"] >= warmup]
    if len(after) < 2:
        return "too short to judge (needs minutes past the warm-up)"
    growth = after[-1] - after[0]
    flat = growth <= max(FLAT_MIB, after[0] * FLAT_PCT / 100)
    return (f"{'flat' if flat else 'GROWING'} after warm-up: {after[0]} -> {after[-1]} MiB "
            f"({growth:+.1f} MiB over {rows[-1]['minute'] - warmup:g} min; peak {max(after)} MiB)")


def run(minutes: float = MINUTES, players: int = PLAYERS, pace: float = PACE, trace: Path | None = None) -> list[dict[str, Any]]:
    tmp = Path(tempfile.mkdtemp(prefix="tapete-soak-"))
    try:
        config = tmp / "casino.toml"
        write_config(config, players)
        with serve(config, tmp / "casino.db", trace=trace) as (base, proc):
            rows = asyncio.run(_soak(base, proc.pid, minutes, players, pace))
        rows.append({"minute": "verdict", "RSS (MiB)": verdict(rows)})
        return rows
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=MINUTES)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--pace", type=float, default=PACE)
    parser.add_argument("--trace", type=Path, metavar="REPORT",
                        help="run the server under tracemalloc; it appends a memory report (JSON lines) to REPORT each minute")
    args = parser.parse_args()
    for row in run(args.minutes, args.players, args.pace, args.trace):
        print(row)


if __name__ == "__main__":
    main()
