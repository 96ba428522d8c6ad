"""Table server under load, on loopback: 200 players on 10 electronic roulette tables, and 1,000 watchers.

A real `tapete serve` (uvicorn) on 127.0.0.1, SQLite (WAL) or PostgreSQL (a throw-away cluster in a temporary
directory). The load is Debian's `wrk` (C, epoll) with a Lua script (wrk_bets.lua): each request a bet (or a
layout of ten straight-ups) for a random player of the 200, on that player's table, with its own
Idempotency-Key; the requests are paced to the offered rate (a schedule per wrk thread, LuaJIT's clock), so
the load is an open loop while connections are free. As on a casino floor, the tables' rounds are spread over
the cycle (the croupier calls the first no va más of table i at i/10 of it: the ten tables of one server would
otherwise spin and settle together), and a player does not bet at a table he has just seen closed (a refusal
of the phase, after no va más or in the pause before the next round, marks that table closed for 0.6 s in the wrk
thread; his next bets go to players of open tables). wrk is pinned to CPU 1 and the server to CPU 0 where
the machine has two (`taskset`); the CPU each used is reported beside the figures, with the load average
(this machine's two cores are shared with other work: the figures are what it gave at that moment).

Rows: offered and accepted bets/s, p50/p95/p99 of every answered request (refusals between rounds included:
wrk cannot tell them apart), refusals (409: bets closed), errors, server and client CPU (seconds of CPU per
second of load), RSS at start and end, the ledger check. SQLite and PostgreSQL, one bet a request and ten;
PostgreSQL with 1, 2 and 3 server processes (the same database, the load split between them; PostgreSQL's
own CPU reported). Then the broadcast: 1,000 WebSocket watchers of one table, the time from the spin's
transaction (its record's timestamp) to each watcher receiving the outcome, and the settlement.

    python benchmarks/bench_server.py [--duration 12] [--only sqlite-1,pg-1,pg-burst,watchers,...]
    make bench-pg     # the PostgreSQL one-process row and the burst row only, into RESULTS.md (the rest kept)
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TABLES = 10
PLAYERS = 200
PACE = 5.0            # bets per second per player: 200 x 5 = the 1,000 bets/s aimed at
DURATION = 12.0
WARMUP = 2.0
RATE = 1000           # offered bets/s
WATCHERS = 1000
PROFILES: list[dict[str, Any]] = []
CEILING: list[dict[str, Any]] = []
SETTINGS: dict[str, str] = {}
PGBENCH_SECONDS = 6
# A transaction shaped like a one-bet batch: the table's row (ten hot rows: pgbench's tellers at scale 1), the
# player's wallet (an account), the bet (a history row), committed as the server commits (the same settings).
BET_LIKE = """\\set tid random(1, 10)
\\set aid random(1, 100000)
\\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_accounts SET abalance = abalance - 100 WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, 1, :aid, 100, CURRENT_TIMESTAMP);
END;
"""
HERE = Path(__file__).parent
NOTE = ""
PASSWORD = "bench-passphrase-1"   # the casino file's password policy (10+ characters)


# -- the server under test --------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_config(path: Path, players: int, tables: int = TABLES, timing: str = "bets = 5.0, spin = 0.2, pause = 0.3") -> None:
    lines = ['[casino]', 'name = "bench"', 'jurisdiction = "ES-AN"', '', '[security]', 'argon2_time_cost = 1',
             'argon2_memory_kib = 1024', 'login_attempts = 100000', '']
    for t in range(tables):
        lines += ["[[tables]]", f'id = "ruleta-{t}"', 'game = "roulette-french"', "float = 100000000",
                  "table = {minimum = 100}", f"timing = {{{timing}}}", ""]
    for p in range(players):
        lines += ["[[users]]", f'username = "p{p}"', f'password = "{PASSWORD}"', 'roles = ["player"]', "chips = 10000000", ""]
    lines += ["[[users]]", 'username = "inspector"', f'password = "{PASSWORD}"', 'roles = ["inspector"]', ""]
    lines += ["[[users]]", 'username = "croupier"', f'password = "{PASSWORD}"', 'roles = ["croupier"]', ""]
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
                  f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=200 "
                  "-c track_wal_io_timing=on", "start")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.pre, str(self.bin / tool), *args], check=True, capture_output=True, timeout=120)

    @property
    def url(self) -> str:
        return f"postgresql://tapete@127.0.0.1:{self.port}/postgres"

    def query(self, sql: str, db: str = "postgres") -> list[list[str]]:
        out = subprocess.run([str(self.bin / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "tapete",
                              "-d", db, "-AtF", "\t", "-c", sql], check=True, capture_output=True, text=True, timeout=60)
        return [line.split("\t") for line in out.stdout.splitlines() if line]

    def settings(self) -> str:
        """The durability settings in force: stated beside the figures (nothing is relaxed for the benchmark)."""
        names = ("fsync", "synchronous_commit", "wal_sync_method", "commit_delay", "full_page_writes", "shared_buffers",
                 "track_wal_io_timing")
        rows = dict(self.query("SELECT name, current_setting(name) FROM pg_settings WHERE name IN ("
                               + ", ".join(f"'{n}'" for n in names) + ")"))
        return ", ".join(f"{n}={rows.get(n, '?')}" for n in names)

    def counters(self) -> dict[str, float]:
        """Commits (every database of the cluster) and WAL flushes so far: the commit grouping, as counts."""
        commits = self.query("SELECT sum(xact_commit) FROM pg_stat_database")[0][0]
        syncs, sync_ms = self.query("SELECT wal_sync, wal_sync_time FROM pg_stat_wal")[0]
        return {"commits": float(commits or 0), "wal_syncs": float(syncs), "wal_sync_ms": float(sync_ms)}

    def pids(self) -> list[int]:
        """The postmaster and its children (backends, writers): PostgreSQL's own CPU."""
        try:
            master = int(Path(f"{self.dir}/data/postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return []
        out = [master]
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == master:
                out.append(int(stat.split("/")[2]))
        return out

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", f"{self.dir}/data", "-m", "fast", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


def start_server(config: Path, url: str, cpus: str | None = None, port: int | None = None,
                 args: tuple[str, ...] = ()) -> tuple[subprocess.Popen[bytes], str]:
    """`tapete serve` on `port` (a free one by default) with `args` (bench_routed's `--node`), once healthy."""
    import httpx

    port = port or free_port()
    env = {**os.environ, "TAPETE_DATABASE_URL": url}
    pin = ["taskset", "-c", cpus] if cpus and shutil.which("taskset") else []
    proc = subprocess.Popen([*pin, sys.executable, "-m", "tapete.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--config", str(config), "--log-level", "warning", *args], env=env,
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


# -- measuring ----------------------------------------------------------------------------------------
def cpu_seconds(pids: list[int]) -> float:
    """utime + stime of these processes (and their reaped children), in seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15])
    return total / tick


def thread_cpu_seconds(pid: int, tid: int) -> float:
    """One thread's utime + stime (the server's event loop is its main thread: tid = pid)."""
    try:
        fields = Path(f"/proc/{pid}/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bet_counters(base: str) -> dict[str, float]:
    """The server's bet-batch counters (`tapete_bet_*` in /metrics: tables/bet_stats.py)."""
    import httpx

    out: dict[str, float] = {}
    for line in httpx.get(f"{base}/metrics", timeout=30).text.splitlines():
        if line.startswith("tapete_bet_"):
            name, value = line.split()
            out[name.removeprefix("tapete_bet_")] = float(value)
    return out


def processes_cpu() -> dict[int, tuple[str, int, int]]:
    """Every process: pid -> (name, CPU ticks so far, parent): what else ran during a measurement."""
    out = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            text = Path(stat).read_text()
        except OSError:
            continue
        name, rest = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 2:].split()
        out[int(stat.split("/")[2])] = (name, int(rest[11]) + int(rest[12]), int(rest[1]))
    return out


def what_else_ran(before: dict[int, tuple[str, int, int]], after: dict[int, tuple[str, int, int]], ours: set[int],
                  seconds: float) -> str:
    """The machine's other work during the measurement, in cores, by process name (the 3 largest)."""
    tick, me = os.sysconf("SC_CLK_TCK"), os.getpid()
    by_name: dict[str, float] = {}
    for pid, (name, ticks, parent) in after.items():
        if pid in ours or pid == me or parent == me or parent in ours:
            continue
        used = (ticks - before[pid][1]) if pid in before else 0
        by_name[name] = by_name.get(name, 0.0) + used / tick / seconds
    top = sorted(by_name.items(), key=lambda kv: -kv[1])[:3]
    return f"{sum(by_name.values()):.2f} cores: " + ", ".join(f"{n} {c:.2f}" for n, c in top if c >= 0.01)


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def two_cpus() -> bool:
    return (os.cpu_count() or 1) >= 2 and shutil.which("taskset") is not None


def login_all(base: str, names: list[str]) -> list[str]:
    import httpx

    with httpx.Client(base_url=base, timeout=30) as client:
        return [client.post("/api/login", json={"username": n, "password": PASSWORD}).json()["token"] for n in names]


def wrk(bases: list[str], tokens: list[str], rate: float, bets: int, duration: float, tmp: Path,
        burst: dict[str, float] | None = None) -> dict[str, Any]:
    """One wrk per server process, the offered rate split between them; their results summed."""
    if shutil.which("wrk") is None:
        raise RuntimeError("no wrk (make deps installs it)")
    procs = []
    for k, base in enumerate(bases):
        players = [(tok, f"ruleta-{i % TABLES}") for i, tok in enumerate(tokens)]
        prelude = "PLAYERS = {" + ",".join(f'{{"{t}","{tb}"}}' for t, tb in players) + "}\n"
        prelude += f"RATE = {rate / len(bases) / 2 / bets:.3f}\nBETS = {bets}\n"
        if burst:
            prelude += "BURST = {" + ", ".join(f"{k} = {v}" for k, v in burst.items()) + "}\n"
        script = tmp / f"wrk{k}.lua"
        script.write_text(prelude + (HERE / "wrk_bets.lua").read_text(), encoding="utf-8")
        pin = ["taskset", "-c", "1"] if two_cpus() else []
        conns = max(16, int(256 / len(bases)))
        procs.append(subprocess.Popen([*pin, "wrk", "-t2", f"-c{conns}", f"-d{duration:.0f}s", "--timeout", "5s", "-s", str(script), base],
                                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
    rows = []
    for p in procs:
        out, _ = p.communicate(timeout=duration + 60)
        line = next((x for x in out.decode().splitlines() if x.startswith("RESULT ")), None)
        if line is None:
            raise RuntimeError(out.decode()[-1500:])
        rows.append(json.loads(line[7:]))
    return {"rows": rows}


def stagger(base: str, tables: int = TABLES, cycle: float = 5.5) -> None:
    """Spread the tables' rounds over the cycle, as on a casino floor (the tables of one server start together):
    the croupier calls no va más at table i at i/tables of the cycle. A table already past its betting time is
    left where it is (the call is refused)."""
    import httpx

    token = httpx.post(f"{base}/api/login", json={"username": "croupier", "password": PASSWORD}).json()["token"]
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30) as client:
        t0 = time.monotonic()
        for i in range(tables):
            time.sleep(max(0.0, t0 + i * cycle / tables - time.monotonic()))
            client.post(f"/api/tables/ruleta-{i}/close", json={}, headers={"Idempotency-Key": os.urandom(8).hex()})


# Bursts (point 6 of issue 33): each table's no va más called by the bench's croupier on a fixed schedule, the
# tables staggered over the cycle, and 80 % of a round's bets offered in its last 3 s (wrk_bets.lua, burst_table).
BURST = {"cycle_ms": 10000.0, "last_ms": 3000.0, "share": 0.8, "quiet_ms": 800.0, "tables": float(TABLES)}
BURST_TIMING = "bets = 60.0, spin = 0.2, pause = 0.3"     # the croupier's schedule closes the round well before


class Croupier:
    """Calls no va más at table i at T0 + (i/N + k) cycles (a thread); after it, the table's own clock spins,
    settles and reopens. `schedule` is what wrk_bets.lua needs to send each table's burst before its close."""

    def __init__(self, base: str) -> None:
        import threading

        import httpx

        token = httpx.post(f"{base}/api/login", json={"username": "croupier", "password": PASSWORD}).json()["token"]
        self.client = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30)
        self.t0 = time.monotonic() + 2.0
        self.schedule = {**BURST, "t0_ms": round(self.t0 * 1000, 1)}
        self.late: list[float] = []                 # how long after its time each call was answered (s)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        cycle, n = BURST["cycle_ms"] / 1000, int(BURST["tables"])
        k = 0
        while not self._stop.is_set():
            at = self.t0 + k * cycle / n
            if self._stop.wait(max(0.0, at - time.monotonic())):
                return
            self.client.post(f"/api/tables/ruleta-{k % n}/close", json={}, headers={"Idempotency-Key": os.urandom(8).hex()})
            self.late.append(time.monotonic() - at)
            k += 1

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(30)
        self.client.close()


def ledger_ok(base: str) -> Any:
    import httpx

    inspector = httpx.post(f"{base}/api/login", json={"username": "inspector", "password": PASSWORD}).json()["token"]
    return httpx.get(f"{base}/api/ledger", headers={"Authorization": f"Bearer {inspector}"}, timeout=120).json().get("ok")


def profile(name: str, db: str, answered: int, accepted_bets: int, elapsed: float, server_cpu: float, loop_cpu: float,
            pg_cpu: float | None, batch: dict[str, float], pgc: dict[str, float], load: str) -> dict[str, Any]:
    """Where the time went, as counts and CPU (what a shared machine does not distort): CPU µs per answered request
    in the event loop (the server's main thread), in the bet writer threads and elsewhere in the process, and in
    PostgreSQL; per batch: requests, statements, round trips, the table row's hold time (wall); commits and WAL
    flushes per second (PostgreSQL's own counters)."""
    n = max(answered, 1)
    batches = max(batch.get("batches_total", 0.0), 1.0)
    writers = batch.get("writer_cpu_seconds_total", 0.0)
    return {
        "run": name, "database": db, "answered requests": answered, "accepted bets": accepted_bets,
        "loop µs/request": round(1e6 * loop_cpu / n), "writers µs/request": round(1e6 * writers / n),
        "other server µs/request": round(1e6 * max(server_cpu - loop_cpu - writers, 0.0) / n),
        "PostgreSQL µs/request": round(1e6 * pg_cpu / n) if pg_cpu is not None else "",
        "requests/batch": round(batch.get("requests_total", 0.0) / batches, 2),
        "statements/batch": round(batch.get("statements_total", 0.0) / batches, 2),
        "round trips/batch": round(batch.get("round_trips_total", 0.0) / batches, 2) if db == "postgresql" else "",
        "row held ms (mean, max)": f"{1000 * batch.get('lock_seconds_total', 0.0) / batches:.2f}, "
                                   f"{1000 * batch.get('lock_max_seconds', 0.0):.1f}",
        "batches/s": round(batch.get("batches_total", 0.0) / elapsed),
        "commits/s": round(pgc["commits"] / elapsed) if pgc else "",
        "WAL flushes/s": round(pgc["wal_syncs"] / elapsed) if pgc else "",
        "flush ms (mean)": round(pgc["wal_sync_ms"] / max(pgc["wal_syncs"], 1), 2) if pgc else "",
        "load avg": load,
    }


def measure(db: str, url: str, processes: int, bets: int, rate: float, duration: float, tmp: Path,
            pg: Postgres | None, name: str = "", burst: bool = False) -> dict[str, Any]:
    import resource

    config = tmp / "casino.toml"
    write_config(config, PLAYERS, timing=BURST_TIMING if burst else "bets = 5.0, spin = 0.2, pause = 0.3")
    servers = []
    croupier: Croupier | None = None
    try:
        for _ in range(processes):
            # Unpinned: on a machine shared with other work, a server pinned to one core waits for it.
            servers.append(start_server(config, url))
        bases = [b for _, b in servers]
        pids = [p.pid for p, _ in servers]
        tokens = login_all(bases[0], [f"p{i}" for i in range(PLAYERS)])
        schedule = None
        if burst:
            croupier = Croupier(bases[0])
            schedule = croupier.schedule
            duration = max(duration, 2 * BURST["cycle_ms"] / 1000)      # two rounds of every table at least
        else:
            stagger(bases[0])
        wrk(bases, tokens, rate, bets, WARMUP, tmp, schedule)             # warm: caches, statements, pools
        rss_start = sum(rss_kib(p) for p in pids)
        counters0 = [bet_counters(b) for b in bases]
        pgc0 = pg.counters() if pg else {}
        loop0 = sum(thread_cpu_seconds(p, p) for p in pids)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu0, pg0, load = cpu_seconds(pids), cpu_seconds(pg.pids()) if pg else 0.0, load_average()
        machine0, date = processes_cpu(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        t0 = time.monotonic()
        result = wrk(bases, tokens, rate, bets, duration, tmp, schedule)
        elapsed = time.monotonic() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu1, pg1 = cpu_seconds(pids), cpu_seconds(pg.pids()) if pg else 0.0
        loop1 = sum(thread_cpu_seconds(p, p) for p in pids)
        others = what_else_ran(machine0, processes_cpu(), {*pids, *(pg.pids() if pg else [])}, elapsed)
        pgc1 = pg.counters() if pg else {}
        counters1 = [bet_counters(b) for b in bases]
        rows = result["rows"]
        ok = sum(r["ok"] for r in rows)
        seconds = max(r["duration_us"] for r in rows) / 1e6
        pct = {q: max(r[q] for r in rows) / 1000 for q in ("p50", "p95", "p99")}   # the worst process's
        client_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        accepted_bets = ok * bets
        answered = sum(r["ok"] + r["refused"] for r in rows)
        delta = {k: sum(c1.get(k, 0.0) - c0.get(k, 0.0) for c0, c1 in zip(counters0, counters1, strict=True))
                 for k in counters1[0]}
        PROFILES.append(profile(name, db, answered, accepted_bets, elapsed, cpu1 - cpu0, loop1 - loop0, pg1 - pg0 if pg else None,
                                delta, {k: pgc1[k] - pgc0[k] for k in pgc1} if pg else {}, load))
        return {
            "database": db, "processes": processes, "bets/request": bets, "offered bets/s": round(rate),
            "accepted bets/s": round(ok * bets / seconds), "requests/s": round(sum(r["requests"] for r in rows) / seconds),
            "p50 ms": round(pct["p50"], 1), "p95 ms": round(pct["p95"], 1), "p99 ms": round(pct["p99"], 1),
            "refused": sum(r["refused"] for r in rows), "errors": sum(r["errors"] + r["socket_errors"] for r in rows),
            "server CPU": round((cpu1 - cpu0) / elapsed, 2), "PostgreSQL CPU": round((pg1 - pg0) / elapsed, 2) if pg else "",
            "client CPU": round(client_cpu / elapsed, 2), "load avg": load,
            "RSS start MiB": round(rss_start / 1024, 1), "RSS end MiB": round(sum(rss_kib(p) for p in pids) / 1024, 1),
            "ledger ok": ledger_ok(bases[0]), "date": date, "what else ran": others,
        }
    finally:
        if croupier is not None:
            croupier.stop()
        for proc, _ in servers:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()


def _table(rows: list[dict[str, Any]]) -> str:
    keys = list(dict.fromkeys(k for r in rows for k in r))
    return "\n".join(["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys),
                      *("| " + " | ".join(str(r.get(k, "")) for k in keys) + " |" for r in rows)])


def tables_text() -> str:
    """The profile of each run (where the time went) and the pgbench ceiling, under the server's table."""
    out = []
    if PROFILES:
        out.append("Where the time went (the same runs; counts and CPU, which the machine's other work distorts less than "
                   "latencies): CPU µs per answered request in the server's event loop (its main thread), in the bet "
                   "writer threads, elsewhere in the process, and in PostgreSQL (every backend and writer); per batch of "
                   "bets (one transaction): requests, SQL statements, round trips (PostgreSQL: one a statement, the "
                   "BEGIN and COMMIT sent with them), the table row held from the locking read to the commit's end (wall: contention shows here); "
                   "PostgreSQL's commits (every transaction of the cluster, bets, clock and reads) and WAL flushes "
                   "(fdatasync) per second and their mean time.\n\n" + _table(PROFILES))
    if CEILING:
        out.append("The ceiling: pgbench on the same cluster in the same run, after the pg-1 row (`of pgbench ceiling` "
                   "is the accepted bets/s over the best TPS below).\n\n" + _table(CEILING))
    if SETTINGS:
        out.append("PostgreSQL as the runs used it (durable: nothing relaxed for the benchmark; initdb's --no-sync only "
                   "skips the fsync of initdb's own files): " + SETTINGS.get("PostgreSQL", ""))
    return "\n\n".join(out)


def pgbench(pg: Postgres) -> list[dict[str, Any]]:
    """The cluster's ceiling in the same run: pgbench's TPS with its default script (TPC-B-like: 3 updates, an
    insert, a select) and with BET_LIKE, 3 clients (the server's writer threads) and 8; pinned beside wrk."""
    if not (pg.bin / "pgbench").exists() and shutil.which("pgbench") is None:
        return [{"script": "pgbench", "TPS": "skipped: no pgbench"}]
    tool = str(pg.bin / "pgbench") if (pg.bin / "pgbench").exists() else "pgbench"
    conn = ["-h", "127.0.0.1", "-p", str(pg.port), "-U", "tapete"]
    pg.query("CREATE DATABASE pgbench")
    subprocess.run([tool, *conn, "-i", "-q", "-s", "1", "pgbench"], check=True, capture_output=True, timeout=300)
    script = pg.dir / "bet_like.sql"
    script.write_text(BET_LIKE, encoding="utf-8")
    pin = ["taskset", "-c", "1"] if two_cpus() else []
    out = []
    for label, args in (("default (TPC-B-like)", []), ("bet-like: table row, wallet, bet row", ["-f", str(script)])):
        for clients in (3, 8):
            cpu0, load = cpu_seconds(pg.pids()), load_average()
            t0 = time.monotonic()
            done = subprocess.run([*pin, tool, *conn, "-n", *args, "-c", str(clients), "-j", "1", "-T", str(PGBENCH_SECONDS), "pgbench"],
                                  capture_output=True, text=True, timeout=PGBENCH_SECONDS + 120)
            elapsed = time.monotonic() - t0
            tps = next((float(x.split("=")[1].split()[0]) for x in done.stdout.splitlines() if x.startswith("tps =")), None)
            out.append({"script": label, "clients": clients, "TPS": round(tps, 1) if tps else f"failed: {done.stderr[-200:]}",
                        "PostgreSQL CPU": round((cpu_seconds(pg.pids()) - cpu0) / elapsed, 2), "load avg": load})
    return out


# -- the broadcast --------------------------------------------------------------------------------------
async def _watch(base: str, tokens: list[str], seconds: float) -> dict[str, list[float]]:
    import websockets

    ws_base = base.replace("http://", "ws://")
    out: dict[str, list[float]] = {"outcome": [], "settlement": []}
    ready = 0

    async def one(token: str) -> None:
        nonlocal ready
        async with websockets.connect(f"{ws_base}/api/tables/ruleta-0/stream?token={token}", max_size=None,
                                      open_timeout=60, ping_interval=None) as ws:
            await ws.recv()                    # the snapshot
            ready += 1
            end = time.time() + seconds
            while time.time() < end:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, end - time.time()))
                except TimeoutError:
                    break
                now = time.time()
                item = json.loads(raw)
                if item.get("kind") in out:
                    out[item["kind"]].append(now - item["ts"])

    sem = asyncio.Semaphore(50)                 # connect a few at a time

    async def gated(token: str) -> None:
        async with sem:
            pass
        await one(token)

    await asyncio.gather(*(gated(t) for t in tokens), return_exceptions=True)
    return out


def watch_client(base: str, token_file: str, seconds: float) -> None:
    """Run as a subprocess: watch one table with the given sessions, print the latencies as JSON."""
    tokens = json.loads(Path(token_file).read_text())
    print(json.dumps(asyncio.run(_watch(base, tokens, seconds))), flush=True)


def watchers(duration: float, tmp: Path) -> dict[str, Any]:
    import httpx

    config = tmp / "watch.toml"
    write_config(config, WATCHERS, tables=1, timing="bets = 0.6, spin = 0.1, pause = 0.2")
    url = f"sqlite:///{tmp / 'watch.db'}"
    proc, base = start_server(config, url)
    try:
        tokens = login_all(base, [f"p{i}" for i in range(WATCHERS)])
        halves = [tokens[: WATCHERS // 2], tokens[WATCHERS // 2:]]
        clients = []
        import resource

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        rss_start = rss_kib(proc.pid)
        cpu0, load = cpu_seconds([proc.pid]), load_average()
        for k, half in enumerate(halves):
            f = tmp / f"tokens{k}.json"
            f.write_text(json.dumps(half))
            pin = ["taskset", "-c", "1"] if two_cpus() else []
            clients.append(subprocess.Popen([*pin, sys.executable, str(Path(__file__)), "--watch-client", base, str(f), str(duration + 20)],
                                            stdout=subprocess.PIPE))
        # One bettor keeps the wheel spinning (a round with nothing riding does not spin).
        bettor = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {tokens[0]}"}, timeout=10)
        t0 = time.monotonic()
        while time.monotonic() - t0 < duration + 20:
            bettor.post("/api/tables/ruleta-0/bets", json={"bets": [{"kind": "red", "amount": 100}]},
                        headers={"Idempotency-Key": os.urandom(8).hex()})
            time.sleep(0.2)
            if all(c.poll() is not None for c in clients):
                break
        elapsed = time.monotonic() - t0
        results = [json.loads(c.communicate(timeout=120)[0].decode().splitlines()[-1]) for c in clients]
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        client_cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / elapsed
        outcome = sorted(x for r in results for x in r["outcome"])
        settle = sorted(x for r in results for x in r["settlement"])

        def q(xs: list[float], f: float) -> float | None:
            return round(1000 * xs[int(f * (len(xs) - 1))], 1) if xs else None

        return {"watchers": WATCHERS, "deliveries": len(outcome), "spins": round(len(outcome) / WATCHERS, 1),
                "outcome p50 ms": q(outcome, 0.5), "outcome p95 ms": q(outcome, 0.95), "outcome p99 ms": q(outcome, 0.99),
                "settlement p99 ms": q(settle, 0.99), "server CPU": round((cpu_seconds([proc.pid]) - cpu0) / elapsed, 2),
                "client CPU": round(client_cpu, 2),
                "load avg": load, "RSS start MiB": round(rss_start / 1024, 1), "RSS end MiB": round(rss_kib(proc.pid) / 1024, 1),
                "ledger ok": ledger_ok(base)}
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


# -- the runs ---------------------------------------------------------------------------------------------
RUNS = {
    "sqlite-1": ("sqlite", 1, 1, RATE),
    "sqlite-1-half": ("sqlite", 1, 1, RATE // 2),
    "sqlite-10": ("sqlite", 1, 10, 6000),
    "pg-1": ("postgresql", 1, 1, RATE),
    "pg-10": ("postgresql", 1, 10, 6000),
    "pg-curve-2": ("postgresql", 2, 1, RATE),
    "pg-curve-3": ("postgresql", 3, 1, RATE),
    "pg-burst": ("postgresql", 1, 1, RATE),
    "sqlite-burst": ("sqlite", 1, 1, RATE),
}


def _earlier_rows(skip: set[str]) -> list[dict[str, Any]]:
    """The rows of RESULTS.md's server table whose run is not being rerun (a partial run, TAPETE_BENCH_SERVER, keeps
    them); a row written before the `run` column is named by its database, processes, bets and rate."""
    results = HERE / "RESULTS.md"
    if not results.exists():
        return []
    section = results.read_text(encoding="utf-8").split("\n## server\n", 1)
    if len(section) < 2:
        return []
    lines = [x for x in section[1].strip("\n").split("\n\n", 1)[0].splitlines() if x.startswith("|")]
    if len(lines) < 3:
        return []
    keys = [k.strip() for k in lines[0].strip("|").split("|")]
    by_shape = {(db, str(p), str(b), str(r)): name for name, (db, p, b, r) in RUNS.items() if not name.endswith("-burst")}
    out = []
    for line in lines[2:]:
        row = dict(zip(keys, (v.strip() for v in line.strip("|").split("|")), strict=False))
        name = row.get("run") or by_shape.get((row.get("database", ""), row.get("processes", ""), row.get("bets/request", ""),
                                              row.get("offered bets/s", "")), "")
        if name and name not in skip:
            out.append({"run": name, **{k: v for k, v in row.items() if k != "run"}})
    return out


def run(duration: float = DURATION, only: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """SQLite and PostgreSQL at 1,000 bets/s offered one a request (SQLite also at 500/s, below saturation),
    6,000/s offered ten a request, the PostgreSQL process curve, the burst rows, then the 1,000-watcher broadcast.
    `make bench-pg` (TAPETE_BENCH_SERVER=pg-1,pg-burst) runs only those, keeping RESULTS.md's other rows."""
    partial = only is None and bool(os.environ.get("TAPETE_BENCH_SERVER"))
    if only is None:
        only = tuple(os.environ["TAPETE_BENCH_SERVER"].split(",")) if partial else (*RUNS, "watchers")
    rows: list[dict[str, Any]] = []
    for name in only:
        if name == "watchers":
            continue
        db, processes, bets, rate = RUNS[name]
        tmp = Path(tempfile.mkdtemp(prefix="tapete-bench-"))
        pg = None
        try:
            if db == "postgresql":
                try:
                    pg = Postgres()
                except (RuntimeError, subprocess.CalledProcessError, OSError) as exc:
                    rows.append({"database": db, "accepted bets/s": f"skipped: {exc}"})
                    continue
                url = pg.url
            else:
                url = f"sqlite:///{tmp / 'bench.db'}"
            row = measure(db, url, processes, bets, rate, duration, tmp, pg, name=name, burst=name.endswith("-burst"))
            row = {"run": name, **row}
            if pg is not None:
                SETTINGS["PostgreSQL"] = pg.settings()
                if name == "pg-1":
                    CEILING.extend(pgbench(pg))
                    best = max((c["TPS"] for c in CEILING if isinstance(c["TPS"], float)), default=0.0)
                    row["of pgbench ceiling"] = f"{row['accepted bets/s'] / best:.0%}" if best else ""
            print(row, flush=True)
            rows.append(row)
        except Exception as exc:  # noqa: BLE001 - one failed run must not lose the others
            rows.append({"database": db, "processes": processes, "bets/request": bets, "accepted bets/s": f"failed: {exc}"[:200]})
        finally:
            if pg is not None:
                pg.stop()
            shutil.rmtree(tmp, ignore_errors=True)
    if partial:        # the rows not rerun, as they were (their date: RESULTS.md's history, the load average column)
        order = list(RUNS)
        rows = sorted([*rows, *_earlier_rows(set(only))], key=lambda r: order.index(r["run"]) if r.get("run") in order else len(order))
    global NOTE
    NOTE = ("Latencies: every answered request, refusals between rounds included (wrk cannot tell them apart); "
            "CPU: seconds of CPU per second of load (1.0 = one core). wrk is pinned to CPU 1, the server processes "
            "unpinned (on a machine shared with other work a pinned server waits for its core); see the load average. "
            "Refused: bets that reached a table after its no va más or before its next round (5 s of bets, then the "
            "spin and a pause; the tables' rounds spread over the cycle; a wrk thread sends no bets to a table it saw "
            "refuse one, after no va más or in the pause, in the last 0.6 s). "
            "Accepted + refused = the requests sent: every bet that reached an open table was accepted. "
            "Burst rows (pg-burst, sqlite-burst): no va más called by the bench's croupier on a schedule, each table's "
            "round every 10 s, the tables staggered, 80 % of a round's bets offered in its last 3 s and none in the "
            "0.8 s after its no va más (wrk_bets.lua); the summed offered rate stays 1,000/s.")
    NOTE += "\n\n" + tables_text()
    if partial:
        NOTE += (f"\n\nA partial run ({', '.join(only)}, `make bench-pg`): the profile and ceiling above are of those rows; "
                 "the other rows are kept from earlier runs (their date column), their profiles in RESULTS.md's history.")
    if "watchers" in only:
        tmp = Path(tempfile.mkdtemp(prefix="tapete-bench-"))
        try:
            row = watchers(duration, tmp)
        except Exception as exc:  # noqa: BLE001 - reported in place of the figures
            row = {"watchers": WATCHERS, "outcome p99 ms": f"failed: {exc}"[:200]}
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        print(row, flush=True)
        NOTE += ("\n\nBroadcast: 1,000 WebSocket watchers of one table (SQLite, one server process), from the spin's "
                 "transaction to each watcher receiving the record (the watchers: two Python processes pinned to CPU 1).\n\n| " + " | ".join(row) + " |\n|" + "---|" * len(row)
                 + "\n| " + " | ".join(str(v) for v in row.values()) + " |")
    return rows


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--watch-client":
        watch_client(sys.argv[2], sys.argv[3], float(sys.argv[4]))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=DURATION)
    parser.add_argument("--only", default=",".join([*RUNS, "watchers"]))
    args = parser.parse_args()
    done = run(args.duration, tuple(args.only.split(",")))
    print(_table(done))
    print(tables_text())
