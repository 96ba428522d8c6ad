"""CPU per one-bet request on the server's ASGI path, without the HTTP server: the app called directly.

An in-process server (SQLite in a temporary directory), ten roulette tables open, 200 players with bearer
sessions; `--clients` concurrent callers each send one-bet requests (`POST /api/tables/{t}/bets`, an
Idempotency-Key, the body `benchmarks/wrk_bets.lua` sends) straight to the ASGI callable `tapete serve`
gives uvicorn, and await the answer. Prints, per request: the event loop thread's CPU (the middleware,
the lane, the hand-offs: what issue 18's third pass cuts) and the whole process's CPU (the writers'
batches too). Process and thread CPU, not wall time: a shared machine's load distorts them less.
docs/performance.md, "The request path, third pass", records the figures.

    python benchmarks/bench_lane.py [--requests 20000] [--clients 64] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import PASSWORD, write_config  # noqa: E402

TABLES = 10
PLAYERS = 200
CHANCES = ["red", "black", "even", "odd"]


def build(tmp: Path) -> Any:
    from tapete.server import config as casino_config
    from tapete.server.http.app import create_app

    cfg = tmp / "casino.toml"
    write_config(cfg, PLAYERS, timing="bets = 3600.0, spin = 0.2, pause = 0.3")
    return create_app(casino_config.load(str(cfg)), f"sqlite:///{tmp / 't.db'}", clock=False)


async def call(app: Any, method: str, path: str, headers: dict[str, str], body: bytes) -> tuple[int, bytes]:
    from tapete.server.http.security import replay_body

    sent: list[dict[str, Any]] = []
    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "root_path": "", "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 40000),
             "headers": [(b"host", b"127.0.0.1:8000"), (b"user-agent", b"bench"),
                         *((k.lower().encode(), v.encode()) for k, v in headers.items()),
                         (b"content-length", str(len(body)).encode())]}

    async def disconnect() -> dict[str, Any]:
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    receive = replay_body(body, disconnect)         # the body once, then a client that never goes away

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


def body() -> bytes:
    if random.random() < 0.6:
        return b'{"bets":[{"kind":"straight","on":[%d],"amount":100}]}' % random.randint(0, 36)
    return b'{"bets":[{"kind":"%s","amount":100}]}' % random.choice(CHANCES).encode()


async def client(app: Any, tokens: list[str], left: list[int], statuses: dict[int, int]) -> None:
    """One caller: a request after another's answer, until `left` runs out."""
    while left[0] > 0:
        left[0] -= 1
        p = random.randrange(PLAYERS)
        headers = {"authorization": f"Bearer {tokens[p]}", "idempotency-key": uuid.uuid4().hex,
                   "content-type": "application/json"}
        status, _ = await call(app, "POST", f"/api/tables/ruleta-{p % TABLES}/bets", headers, body())
        statuses[status] = statuses.get(status, 0) + 1


async def run(app: Any, requests: int, clients: int, rounds: int) -> list[dict[str, Any]]:
    from tapete.core.errors import TapeteError

    server = app.state.server
    async with app.router.lifespan_context(app):
        tokens = []
        for p in range(PLAYERS):
            status, out = await call(app, "POST", "/api/login", {"content-type": "application/json"},
                                     json.dumps({"username": f"p{p}", "password": PASSWORD}).encode())
            assert status == 200, out
            tokens.append(json.loads(out)["token"])
        results = []
        for r in range(rounds + 1):               # the first round warms up
            for t in range(TABLES):
                with contextlib.suppress(TapeteError):    # an automatic table opens its first round itself
                    await asyncio.to_thread(server.service.open_round, f"ruleta-{t}", "bench")
            statuses: dict[int, int] = {}
            left = [requests]
            loop0, cpu0, wall0 = time.thread_time(), time.process_time(), time.perf_counter()
            await asyncio.gather(*(client(app, tokens, left, statuses) for _ in range(clients)))
            loop1, cpu1, wall1 = time.thread_time(), time.process_time(), time.perf_counter()
            for t in range(TABLES):
                await asyncio.to_thread(server.service.close, f"ruleta-{t}", "bench", None, None)
                await asyncio.to_thread(server.service.draw, f"ruleta-{t}", "bench", None)
            if r:
                results.append({"loop_us": 1e6 * (loop1 - loop0) / requests, "process_us": 1e6 * (cpu1 - cpu0) / requests,
                                 "wall_us": 1e6 * (wall1 - wall0) / requests, "statuses": statuses})
        return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    random.seed(7)
    with tempfile.TemporaryDirectory() as tmp:
        app = build(Path(tmp))
        try:
            import uvloop

            results = uvloop.run(run(app, args.requests, args.clients, args.rounds))
        except ImportError:
            results = asyncio.run(run(app, args.requests, args.clients, args.rounds))
    for row in results:
        print(f"loop thread {row['loop_us']:6.1f} us/request   process {row['process_us']:6.1f} us/request   "
              f"wall {row['wall_us']:6.1f} us/request   {row['statuses']}")
    print(f"median: loop thread {statistics.median(r['loop_us'] for r in results):.1f} us, "
          f"process {statistics.median(r['process_us'] for r in results):.1f} us per request")


if __name__ == "__main__":
    main()
