"""A real `tapete serve` in a child process, for the benchmarks that measure one (bench_register, bench_soak).

Not a bench itself (run.py runs only bench_*.py). `trace=PATH` starts the server under tracemalloc
(benchmarks/trace_server.py) and has it write a memory report to PATH every minute.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def wait_healthy(base: str, proc: subprocess.Popen[bytes], seconds: float = 60) -> None:
    import httpx

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError("the server exited")
        try:
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


@contextmanager
def serve(config: Path, database: Path, *, src: Path = ROOT / "src", trace: Path | None = None,
          env: dict[str, str] | None = None) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """Start `tapete serve` on a free port with a SQLite database; yield (base URL, process); stop it after."""
    port = free_port()
    full_env = {**os.environ, "PYTHONPATH": str(src), "TAPETE_DATABASE_URL": f"sqlite:///{database}", **(env or {})}
    head = [sys.executable, str(HERE / "trace_server.py"), str(trace)] if trace else [sys.executable, "-m", "tapete.cli"]
    proc = subprocess.Popen([*head, "serve", "--port", str(port), "--config", str(config), "--log-level", "warning"],
                            env=full_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_healthy(base, proc)
        yield base, proc
    finally:
        proc.terminate()
        proc.wait(15)
