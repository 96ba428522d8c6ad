"""Routed processes on PostgreSQL (issue 33): 1, 2 and 3 `tapete serve --node` processes behind HAProxy with the
shipped configuration (examples/proxy/haproxy.cfg: each table hashed to one node, which owns it), at 1,000
one-bet requests/s offered and at saturation; then the lost-host test across network namespaces
(tests/server/test_server_hosts.py, over a minute on this shared machine: run here rather than in `make test`).

Each row: the processes, the offered and accepted bets/s, p50/p99 (the front's clients: wrk through haproxy),
refusals (bets after no va más), errors, how many writes a node had to forward (0: every table's bets reached
its owner), the CPU of the servers, of PostgreSQL and of haproxy (cores), and the load average at the start.

    python benchmarks/bench_routed.py [--duration 12] [--only 1,2,3] [--rates 1000,3000] [--no-hosts]
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
ROOT = HERE.parent
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
RATES = (1000, 3000)          # 1,000 offered, and well above what one process takes on two cores
DURATION = 12.0
NOTE = ""


def _bench_server() -> Any:
    """bench_server's cluster, casino file, wrk driver and measures (one load generator for every server row)."""
    if "bench_server" in sys.modules:
        return sys.modules["bench_server"]
    spec = importlib.util.spec_from_file_location("bench_server", HERE / "bench_server.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_server"] = module
    spec.loader.exec_module(module)
    return module


def front_config(listen: str, servers: dict[str, str]) -> str:
    """The shipped haproxy.cfg with this run's address (no TLS) and nodes; all else as shipped."""
    out: list[str] = []
    for line in (ROOT / "examples" / "proxy" / "haproxy.cfg").read_text(encoding="utf-8").splitlines():
        s = line.strip()
        if s.startswith("bind "):
            if not any(x.strip().startswith("bind ") for x in out):
                out.append(f"    bind {listen}")
            continue
        if "ssl_fc" in s or s.startswith("server ") or s.startswith("log "):
            continue
        out.append(line)
    out += [f"    server {n} {a} id {i} check" for i, (n, a) in enumerate(servers.items(), start=1)]
    return "\n".join(out) + "\n"


def forwarded(bases: list[str]) -> int:
    import httpx

    return sum(httpx.get(f"{b}/api/health", timeout=10).json()["cluster"]["routed"]["forwarded"] for b in bases)


def measure(processes: int, rates: tuple[int, ...], duration: float) -> list[dict[str, Any]]:
    import resource

    bs = _bench_server()
    tmp = Path(tempfile.mkdtemp(prefix="tapete-bench-routed-"))
    pg = bs.Postgres()
    procs: list[subprocess.Popen[bytes]] = []
    front: subprocess.Popen[bytes] | None = None
    rows = []
    try:
        config = tmp / "casino.toml"
        bs.write_config(config, bs.PLAYERS)
        ports = {f"n{i}": bs.free_port() for i in range(1, processes + 1)}
        text = config.read_text(encoding="utf-8") + "\n[cluster]\ntakeover_s = 10\n" + "".join(
            f'[[cluster.nodes]]\nname = "{n}"\nid = {i}\naddress = "http://127.0.0.1:{p}"\n'
            for i, (n, p) in enumerate(ports.items(), start=1))
        config.write_text(text.replace("[security]\n", '[security]\ntrusted_proxies = ["127.0.0.1"]\n', 1), encoding="utf-8")
        for node, port in ports.items():
            procs.append(bs.start_server(config, pg.url, port=port, args=("--node", node))[0])
        bases = [f"http://127.0.0.1:{p}" for p in ports.values()]
        fport = bs.free_port()
        conf = tmp / "haproxy.cfg"
        conf.write_text(front_config(f"127.0.0.1:{fport}", {n: f"127.0.0.1:{p}" for n, p in ports.items()}), encoding="utf-8")
        front = subprocess.Popen([HAPROXY, "-db", "-f", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        fbase = f"http://127.0.0.1:{fport}"
        time.sleep(2.0)                                              # the health checks mark the nodes up
        tokens = bs.login_all(fbase, [f"p{i}" for i in range(bs.PLAYERS)])
        bs.stagger(fbase)
        bs.wrk([fbase], tokens, rates[0], 1, 8.0, tmp)                 # warm, and the tables move to the front's nodes
        pids = [p.pid for p in procs]
        for rate in rates:
            before_fwd = forwarded(bases)
            usage0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu0, pg0, hp0, load = bs.cpu_seconds(pids), bs.cpu_seconds(pg.pids()), bs.cpu_seconds([front.pid]), bs.load_average()
            t0 = time.monotonic()
            result = bs.wrk([fbase], tokens, rate, 1, duration, tmp)
            elapsed = time.monotonic() - t0
            usage1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu1, pg1, hp1 = bs.cpu_seconds(pids), bs.cpu_seconds(pg.pids()), bs.cpu_seconds([front.pid])
            r = result["rows"][0]
            seconds = r["duration_us"] / 1e6
            rows.append({
                "processes": processes, "offered bets/s": rate, "accepted bets/s": round(r["ok"] / seconds),
                "p50 ms": round(r["p50"] / 1000, 1), "p99 ms": round(r["p99"] / 1000, 1), "refused": r["refused"],
                "errors": r["errors"] + r["socket_errors"], "forwarded": forwarded(bases) - before_fwd,
                "server CPU": round((cpu1 - cpu0) / elapsed, 2), "PostgreSQL CPU": round((pg1 - pg0) / elapsed, 2),
                "haproxy CPU": round((hp1 - hp0) / elapsed, 2),
                "wrk CPU": round(((usage1.ru_utime + usage1.ru_stime) - (usage0.ru_utime + usage0.ru_stime)) / elapsed, 2),
                "load avg": load, "ledger ok": bs.ledger_ok(fbase)})
            print(rows[-1], flush=True)
    finally:
        if front is not None:
            front.terminate()
        for p in procs:
            p.terminate()
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


def lost_host() -> dict[str, Any]:
    """tests/server/test_server_hosts.py, run here: its printed figures, or why it did not run."""
    start = time.monotonic()
    load = _bench_server().load_average()
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-m", "slow or not slow",
                           "-s", "-q", str(ROOT / "tests" / "server" / "test_server_hosts.py")],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    out = done.stdout + done.stderr
    found = re.search(r"hosts: (\d+) bets; host \S+ lost: .*? after ([\d.]+) s, every table taking bets again after "
                      r"([\d.]+) s \(takeover_s ([\d.]+)\)", out)
    skipped = re.search(r"SKIPPED.*?: (.*)", out)
    why = next((line[1:].strip() for line in out.splitlines() if line.startswith("E ") and "Error" in line), "")
    verdict = "passed" if done.returncode == 0 else ("skipped: " + skipped.group(1) if skipped else f"FAILED: {why}"[:160])
    return {"processes": "2 hosts (netns)", "offered bets/s": "8 players", "accepted bets/s": found.group(1) + " bets" if found else "",
            "taken over s": found.group(2) if found else "", "served again s": found.group(3) if found else "",
            "takeover_s": found.group(4) if found else "", "verdict": verdict,
            "seconds": round(time.monotonic() - start), "load avg": load}


def busiest() -> str:
    """What else runs here: the commands using the most CPU as the run starts (ps), for the record."""
    done = subprocess.run(["ps", "-eo", "pcpu=,comm=", "--sort=-pcpu"], capture_output=True, text=True)
    top = [" ".join(line.split()[1:]) + f" {line.split()[0]}%" for line in done.stdout.splitlines()[:8] if line.split()]
    return ", ".join(top)


def run(duration: float = DURATION, only: tuple[int, ...] = (1, 2, 3), rates: tuple[int, ...] = RATES,
        hosts: bool = True) -> list[dict[str, Any]]:
    global NOTE
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    others = busiest()
    rows: list[dict[str, Any]] = []
    if not Path(HAPROXY).exists():
        rows.append({"processes": "-", "accepted bets/s": "skipped: haproxy is not installed (make deps)"})
    else:
        for n in only:
            try:
                rows += measure(n, rates, duration)
            except Exception as exc:  # noqa: BLE001 - one failed run must not lose the others
                rows.append({"processes": n, "accepted bets/s": f"failed: {exc}"[:200]})
    if hosts:
        try:
            rows.append(lost_host())
        except Exception as exc:  # noqa: BLE001
            rows.append({"processes": "2 hosts (netns)", "verdict": f"failed: {exc}"[:200]})
    NOTE = ("One wrk (pinned to CPU 1, 256 connections) through haproxy, the 200 players' bets spread over 10 tables; "
            "`forwarded`: writes a node received for a table it did not own during the measured run. CPU in cores. "
            "The last row: tests/server/test_server_hosts.py (namespaces: PostgreSQL's host, two server hosts, the "
            "front; one server host's link cut, then its processes killed, under load): when the survivor owned "
            "every table, and when every table had taken a bet again, after the fault. Measured on the shared "
            "2-core machine: read the load average beside each row. "
            f"Run {started}; the busiest processes as it started: {others}.")
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=DURATION)
    parser.add_argument("--only", default="1,2,3")
    parser.add_argument("--rates", default=",".join(str(r) for r in RATES))
    parser.add_argument("--no-hosts", action="store_true")
    a = parser.parse_args()
    for row in run(a.duration, tuple(int(x) for x in a.only.split(",")), tuple(int(x) for x in a.rates.split(",")),
                   not a.no_hosts):
        print(row)
