"""Table server under load, on loopback: 200 simulated players on 10 electronic roulette tables.

A real `tapete serve` (uvicorn, one process) on 127.0.0.1; two load processes of 100 players each (asyncio,
one keep-alive HTTP/1.1 connection per player), each player betting at PACE bets/s on its table (a straight-up or a simple chance, 1 € — the table
minimum) with an Idempotency-Key per request. Rounds run on the tables' own clock: 5 s of bets, the spin,
the settlement. Reports bets/s accepted, p50/p99 latency of a bet request, and the server's resident memory
after warm-up and at the end. SQLite (WAL) and PostgreSQL (a throw-away cluster in a temporary directory).
Bounded: DURATION seconds of load per database, loopback only.

    python benchmarks/bench_server.py [--duration 20] [--players 200] [--pace 5] [--db sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import multiprocessing as mp
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

TABLES = 10
PLAYERS = 200
PACE = 5.0            # bets per second per player: 200 x 5 = the 1,000 bets/s aimed at
DURATION = 20.0
WARMUP = 3.0
PASSWORD = "bench-pw"


# -- the server under test --------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_config(path: Path, players: int) -> None:
    lines = ['[casino]', 'name = "bench"', 'jurisdiction = "ES-AN"', '', '[security]', 'argon2_time_cost = 1',
             'argon2_memory_kib = 1024', 'login_attempts = 100000', '']
    for t in range(TABLES):
        lines += ["[[tables]]", f'id = "ruleta-{t}"', 'game = "roulette-french"', "float = 100000000",
                  "table = {minimum = 100}", "timing = {bets = 5.0, spin = 0.2, pause = 0.3}", ""]
    for p in range(players):
        lines += ["[[users]]", f'username = "p{p}"', f'password = "{PASSWORD}"', 'roles = ["player"]', "chips = 10000000", ""]
    lines += ["[[users]]", 'username = "inspector"', f'password = "{PASSWORD}"', 'roles = ["inspector"]', ""]
    path.write_text("\n".join(lines), encoding="utf-8")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Postgres:
    """A throw-away cluster on 127.0.0.1 (as user postgres when run as root: initdb refuses root)."""

    def __init__(self) -> None:
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
        if not bins and not shutil.which("initdb"):
            raise RuntimeError("no PostgreSQL server binaries (make deps)")
        self.bin = Path(bins[0]).parent if bins else Path(shutil.which("initdb")).parent  # type: ignore[arg-type]
        self.dir = Path(tempfile.mkdtemp(prefix="tapete-bench-pg-"))
        self.port = free_port()
        self.pre = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.pre:
            shutil.chown(self.dir, "postgres")
        self._run("initdb", "-D", f"{self.dir}/data", "-U", "tapete", "--auth=trust", "-E", "UTF8", "--no-sync")
        self._run("pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/log", "-w", "-o",
                  f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=200", "start")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.pre, str(self.bin / tool), *args], check=True, capture_output=True, timeout=120)

    @property
    def url(self) -> str:
        return f"postgresql://tapete@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", f"{self.dir}/data", "-m", "fast", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def start_server(config: Path, url: str) -> tuple[subprocess.Popen[bytes], str]:
    import httpx

    port = free_port()
    env = {**os.environ, "TAPETE_DATABASE_URL": url}
    proc = subprocess.Popen([sys.executable, "-m", "tapete.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--config", str(config), "--log-level", "warning"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 120
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(proc.stderr.read().decode()[-2000:])  # type: ignore[union-attr]
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError("server did not start")


# -- the players ------------------------------------------------------------------------------------
def load_worker(base: str, names: list[str], pace: float, duration: float, warmup: float, out: Any) -> None:
    out.put(asyncio.run(_players(base, names, pace, duration, warmup)))


class Connection:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams: httpx's pool, shared by a hundred coroutines,
    costs more CPU than the server it measures."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        data = json.dumps(body).encode()
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        self.writer.write(f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
                          f"Content-Length: {len(data)}\r\n{head}\r\n".encode() + data)
        await self.writer.drain()
        assert self.reader is not None
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(int(x.split(":", 1)[1]) for x in lines[1:] if x.lower().startswith("content-length:"))
        payload = await self.reader.readexactly(length)
        return status, json.loads(payload) if payload else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _players(base: str, names: list[str], pace: float, duration: float, warmup: float) -> dict[str, Any]:
    host, port = base.split("//")[1].split(":")
    latencies: list[float] = []
    counts = {"ok": 0, "closed": 0, "error": 0}
    conns = {name: Connection(host, int(port)) for name in names}
    tokens = {}
    for name in names:
        _, answer = await conns[name].post("/api/login", {"username": name, "password": PASSWORD}, {})
        tokens[name] = answer["token"]
    start = time.monotonic()
    measure_from, stop_at = start + warmup, start + warmup + duration

    async def player(name: str) -> None:
        rng = random.Random(name)
        table = f"ruleta-{int(name[1:]) % TABLES}"
        conn = conns[name]
        next_at = start + rng.random() / pace
        while True:
            now = time.monotonic()
            if now >= stop_at:
                return
            if next_at > now:
                await asyncio.sleep(next_at - now)
            next_at = max(next_at + 1.0 / pace, time.monotonic() - 1.0)   # an open loop, never a burst to catch up
            bet = ({"kind": "straight", "on": [rng.randrange(37)], "amount": 100} if rng.random() < 0.6
                   else {"kind": rng.choice(["red", "black", "even", "odd"]), "amount": 100})
            t0 = time.monotonic()
            try:
                status, _ = await conn.post(f"/api/tables/{table}/bets", {"bets": [bet]},
                                            {"Authorization": f"Bearer {tokens[name]}", "Idempotency-Key": uuid.uuid4().hex})
            except (OSError, asyncio.IncompleteReadError, ValueError):
                status = 0
                conn.close()
                conns[name] = conn = Connection(host, int(port))
            t1 = time.monotonic()
            if t0 < measure_from:
                continue
            if status == 200:
                counts["ok"] += 1
                latencies.append(t1 - t0)
            elif status == 409:
                counts["closed"] += 1
            else:
                counts["error"] += 1

    await asyncio.gather(*(player(n) for n in names))
    for c in conns.values():
        c.close()
    return {"latencies": latencies, **counts}


def measure(db: str, url: str, players: int, pace: float, duration: float, tmp: Path) -> dict[str, Any]:
    import httpx

    config = tmp / "casino.toml"
    write_config(config, players)
    proc, base = start_server(config, url)
    try:
        time.sleep(1.0)
        rss_start = rss_kib(proc.pid)
        names = [f"p{i}" for i in range(players)]
        ctx = mp.get_context("spawn")
        queue = ctx.Queue()
        workers = [ctx.Process(target=load_worker, args=(base, names[k::2], pace, duration, WARMUP, queue)) for k in range(2)]
        for w in workers:
            w.start()
        rss_warm = None
        time.sleep(WARMUP + 1.0)
        rss_warm = rss_kib(proc.pid)
        results = [queue.get(timeout=duration + 120) for _ in workers]
        for w in workers:
            w.join(30)
        rss_end = rss_kib(proc.pid)
        latencies = sorted(x for r in results for x in r["latencies"])
        ok = sum(r["ok"] for r in results)
        inspector = httpx.post(f"{base}/api/login", json={"username": "inspector", "password": PASSWORD}).json()["token"]
        ledger = httpx.get(f"{base}/api/ledger", headers={"Authorization": f"Bearer {inspector}"}, timeout=60).json()
        return {
            "database": db, "players": players, "tables": TABLES, "offered bets/s": round(players * pace),
            "bets/s": round(ok / duration, 1),
            "p50 ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
            "p99 ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 1) if latencies else None,
            "refused (between rounds)": sum(r["closed"] for r in results),
            "errors": sum(r["error"] for r in results),
            "RSS start MiB": round(rss_start / 1024, 1), "RSS warm MiB": round((rss_warm or 0) / 1024, 1),
            "RSS end MiB": round(rss_end / 1024, 1), "ledger ok": ledger.get("ok"),
        }
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def run(duration: float = DURATION, players: int = PLAYERS, paces: tuple[float, ...] = (PACE, 1.0),
        dbs: tuple[str, ...] = ("sqlite", "postgresql")) -> list[dict[str, Any]]:
    """Each database at the aimed 1,000 bets/s offered, and at 200/s (below saturation, for the latency)."""
    rows = []
    for db in dbs:
        for pace in paces:
            rows.extend(_run_one(db, duration, players, pace))
    return rows


def _run_one(db: str, duration: float, players: int, pace: float) -> list[dict[str, Any]]:
    tmp = Path(tempfile.mkdtemp(prefix="tapete-bench-"))
    pg = None
    try:
        if db == "postgresql":
            try:
                pg = Postgres()
            except (RuntimeError, subprocess.CalledProcessError, OSError) as exc:
                return [{"database": db, "bets/s": f"skipped: {exc}"}]
            url = pg.url
        else:
            url = f"sqlite:///{tmp / 'bench.db'}"
        row = measure(db, url, players, pace, duration, tmp)
        print(row, flush=True)
        return [row]
    finally:
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=DURATION)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--pace", type=float, default=PACE)
    parser.add_argument("--db", default="sqlite,postgresql")
    args = parser.parse_args()
    for row in run(args.duration, args.players, (args.pace,), tuple(args.db.split(","))):
        print(row)
