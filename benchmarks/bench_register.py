"""Password hashing against reads: how long a table read takes while 40 registrations hash at once.

A real `tapete serve` (SQLite, one process) with the production argon2 settings (t=3, 64 MiB, p=1). A
reader reads a table every 50 ms; 40 registrations arrive together. Before the bounded hashing pool the
hashes ran in the server's few worker threads, and every read queued behind them (the audit measured a
12.9 s read); now they run in `security.hash_workers` threads of their own and reads keep their threads.
`before` runs the server of BEFORE (the commit preceding the pool, from git) side by side, when git has it.

    python benchmarks/bench_register.py [--registrations 40] [--src PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from serverproc import rss_kib, serve

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BEFORE = "2665a49"          # the server before the hashing pool and the registration limit
REGISTRATIONS = 40
PASSWORD = "bench-passphrase-1"


def write_config(path: Path, new_keys: bool) -> None:
    lines = ['[casino]', 'name = "bench"', 'jurisdiction = "ES-AN"', '', '[security]', 'open_registration = true',
             'login_attempts = 1000']
    if new_keys:    # the limit is raised so that all 40 hash (at the default 5 a minute, 35 are refused at once)
        lines.append("register_attempts = 1000")
    lines += ["", "[[tables]]", 'id = "ruleta-0"', 'game = "roulette-french"', "table = {minimum = 100}", "",
              "[[users]]", 'username = "reader"', f'password = "{PASSWORD}"', 'roles = ["player"]', ""]
    path.write_text("\n".join(lines), encoding="utf-8")


async def _measure(base: str, registrations: int) -> dict[str, Any]:
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=120, limits=httpx.Limits(max_connections=registrations + 4)) as c:
        token = (await c.post("/api/login", json={"username": "reader", "password": PASSWORD})).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        quiet: list[float] = []
        for _ in range(20):
            t0 = time.perf_counter()
            (await c.get("/api/tables/ruleta-0", headers=headers)).raise_for_status()
            quiet.append(time.perf_counter() - t0)
            await asyncio.sleep(0.05)
        loaded: list[float] = []
        done = asyncio.Event()

        async def reader() -> None:
            while not done.is_set():
                t0 = time.perf_counter()
                (await c.get("/api/tables/ruleta-0", headers=headers)).raise_for_status()
                loaded.append(time.perf_counter() - t0)
                await asyncio.sleep(0.05)

        async def register(i: int) -> int:
            r = await c.post("/api/register", json={"username": f"new{i}-{os.getpid()}", "password": PASSWORD})
            return r.status_code

        task = asyncio.create_task(reader())
        t0 = time.perf_counter()
        codes = await asyncio.gather(*(register(i) for i in range(registrations)))
        burst = time.perf_counter() - t0
        done.set()
        await task
    loaded.sort()
    return {"registrations": f"{codes.count(200)} of {registrations} in {burst:.1f} s",
            "read p50 quiet (ms)": round(statistics.median(quiet) * 1000, 1),
            "reads during burst": len(loaded),
            "read p50 during (ms)": round(statistics.median(loaded) * 1000, 1),
            "read max during (ms)": round(loaded[-1] * 1000, 1)}


def measure(src: Path, label: str, registrations: int = REGISTRATIONS) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="tapete-bench-reg-"))
    try:
        config = tmp / "casino.toml"
        write_config(config, new_keys=label != "before")
        with serve(config, tmp / "casino.db", src=src) as (base, proc):
            return {"server": label, **asyncio.run(_measure(base, registrations)),
                    "RSS after (MiB)": round(rss_kib(proc.pid) / 1024)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _before_tree() -> Path | None:
    """The server of BEFORE, from git (None outside a checkout that has it)."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        return None
    out = Path(tempfile.mkdtemp(prefix="tapete-before-"))
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", BEFORE, "src"], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(out)], input=archive, check=True)
    except (subprocess.CalledProcessError, OSError):
        shutil.rmtree(out, ignore_errors=True)
        return None
    return out / "src"


def run(registrations: int = REGISTRATIONS) -> list[dict[str, Any]]:
    rows = []
    before = _before_tree()
    if before is not None:
        try:
            rows.append(measure(before, "before", registrations))
        finally:
            shutil.rmtree(before.parent, ignore_errors=True)
    rows.append(measure(ROOT / "src", "bounded pool", registrations))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--registrations", type=int, default=REGISTRATIONS)
    parser.add_argument("--src", help="measure this source tree only (its src/ directory)")
    args = parser.parse_args()
    rows = [measure(Path(args.src), "given", args.registrations)] if args.src else run(args.registrations)
    for row in rows:
        print(row)


if __name__ == "__main__":
    main()
