"""Issue 33, point 6: a burst of bets at no va más, as at a roulette table where most bets come in the last
seconds (the timed figures: benchmarks/bench_server.py's pg-burst and sqlite-burst rows). Not timed: whatever the
order in which the writers, the requests and the croupier's call meet, no bet is accepted after no va más, none
is lost (each request answered once: a bet, or "bets closed"), and the money follows the accepted bets exactly."""

from __future__ import annotations

import json
import threading
from typing import Any

from sqlalchemy import select

from tapete.core.errors import TapeteError
from tapete.server.storage.db import bets, casino_tables, events

from .test_server_batch import _answer, _open  # type: ignore[import-not-found]

PLAYERS = ("ana", "luis", "eva")
STRAIGHT = 100            # cents: the table's minimum


def _bet(i: int) -> list[dict[str, Any]]:
    return [{"kind": "straight", "on": [i % 37], "amount": STRAIGHT}]


def test_a_burst_at_no_va_mas_accepts_nothing_after_it_and_loses_nothing(make_casino: Any, database_url: str) -> None:
    c, service = _open(make_casino, database_url)
    batches = service.batches
    queued: list[Any] = []

    def submit(n: int, start: int) -> None:
        for i in range(start, start + n):
            p = PLAYERS[i % len(PLAYERS)]
            queued.append(batches.submit("ruleta", p, _bet(i), (f"{p}:burst{i}", "fp")))

    submit(30, 0)                                  # before the burst: written and accepted
    batches.flush("ruleta")
    stop = threading.Event()

    def writer() -> None:                          # the writer threads (writers.py), flushing whatever is queued
        while not stop.is_set():
            batches.flush("ruleta")

    def burster(k: int) -> None:                   # the burst: 4 clients x 30 requests, as fast as they go
        submit(30, 1000 * (k + 1))

    writers = [threading.Thread(target=writer) for _ in range(3)]
    bursters = [threading.Thread(target=burster, args=(k,)) for k in range(4)]
    for t in (*writers, *bursters):
        t.start()
    c.post("croupier", "/api/tables/ruleta/close")              # no va más in the middle of the burst
    for t in bursters:
        t.join()
    submit(20, 9000)                                             # after no va más: every one refused
    stop.set()
    for t in writers:
        t.join()
    batches.flush("ruleta")

    answers = [_answer(r) for r in queued]                     # every request answered (a timeout raises)
    accepted = [a for a in answers if not isinstance(a, Exception)]
    refused = [a for a in answers if isinstance(a, Exception)]
    assert all(isinstance(a, TapeteError) and a.code in ("bet-closed", "wrong-phase") for a in refused), refused[:3]
    assert len(accepted) + len(refused) == 30 + 120 + 20
    assert len(accepted) >= 30 and len(refused) >= 20
    assert all(isinstance(a, TapeteError) for a in answers[-20:])

    with service.db.read() as conn:
        round_id = conn.execute(select(casino_tables.c.round_id).where(casino_tables.c.id == "ruleta")).scalar_one()
        rows = conn.execute(select(bets.c.bet_id, bets.c.round_id, bets.c.amount)).all()
        log = conn.execute(select(events.c.seq, events.c.kind, events.c.data).where(events.c.table_id == "ruleta")
                           .order_by(events.c.seq)).all()
    placed = {a["bets"][0]["id"] for a in accepted}
    assert {r[0] for r in rows} == placed and len(rows) == len(accepted)           # none lost, none extra
    assert {r[1] for r in rows} == {round_id}
    closed_at = next(seq for seq, kind, data in log if kind == "phase"
                     and (data if isinstance(data, dict) else json.loads(data)).get("say") == "no va más")
    bet_records = [seq for seq, kind, _ in log if kind == "bet"]
    assert len(bet_records) == len(accepted) and max(bet_records) < closed_at          # nothing after no va más
    staked = {p: sum(STRAIGHT for r, a in zip(queued, answers, strict=True) if r.user == p and not isinstance(a, Exception))
              for p in PLAYERS}
    assert all(c.balance(p) == 100_000 - staked[p] for p in PLAYERS)                # the money follows the bets
    result = c.post("croupier", "/api/tables/ruleta/draw")
    assert set(result["bets"]) | set(result.get("pending", {})) == placed
    c.ledger()
