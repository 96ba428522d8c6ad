"""`tapete settle`: time per bet of one round document with 100, 1,000 and 10,000 bets (issue 16).

Two layouts: French roulette straight-up bets (every player on his own number, one spin) and punto y banca
(player and banker bets, one coup dealt from a four-card shoe). The time is `settle_text` on the document's JSON
(parsing, the reducer, the settlement document), in process and in CPU time (`time.process_time`: the bench
machine is shared, wall time is not the program's): the interpreter's start-up is not counted. Beside it,
the same document run as it was before issue 16, one pure `game.step` per event (a copy of the whole state each
time), at 100 and 1,000 bets only: at 10,000 it takes minutes. Per bet, the in-place run must stay about flat.
"""

from __future__ import annotations

import json
import time
from typing import Any

from tapete.conformance.document import parse, settle_text

SIZES = (100, 1_000, 10_000)
STEPPED_UP_TO = 1_000

# Printed under the table by run.py: the figures of `tapete settle` before issue 16, measured once with this
# bench's documents on the code of commit 2665a49 (same machine, CPU time), where a bet's checks also scanned
# every bet already placed. 10,000 bets were not run there (about nine minutes, extrapolated).
NOTE = ("Before issue 16 (commit 2665a49, same documents, CPU time): roulette 100 bets 0.050 s (497 µs per bet), "
        "1,000 bets 5.53 s (5,527 µs per bet); punto-banca 100 bets 0.039 s (391 µs per bet), 1,000 bets 5.40 s "
        "(5,399 µs per bet): quadratic, a whole-state deep copy per event and a scan of every bet per bet. Now one "
        "private copy per document, events applied in place (`Game.run_events`), and the bet checks read an index "
        "kept beside the state (`engine/bet_index.py`).")


def roulette(n: int) -> dict[str, Any]:
    events: list[dict[str, Any]] = [{"bet": {"id": f"b{i}", "player": f"p{i}", "kind": "straight", "amount": 100,
                                             "on": [i % 37]}} for i in range(n)]
    return {"game": "roulette-french", "jurisdiction": "ES", "table": {"minimum": 100}, "events": [*events, {"spin": 17}]}


def punto_banca(n: int) -> dict[str, Any]:
    events: list[dict[str, Any]] = [{"bet": {"id": f"b{i}", "player": f"p{i}", "kind": ("player", "banker")[i % 2],
                                             "amount": 1000}} for i in range(n)]
    return {"game": "punto-banca", "jurisdiction": "ES", "table": {"minimum": 1000}, "events": [*events, {"deal": {}}],
            "shoe": ["4S", "3H", "5D", "KC"]}


def stepped(text: str) -> None:
    """The loop `settle` ran before: every event through the pure `step`."""
    doc = parse(json.loads(text))
    game = doc.game
    state = game.open(doc.jurisdiction, doc.table, doc.shoe)
    for event in doc.events:
        state = game.step(state, event)
    game.settle(game.finish(state))


def best_of(fn: Any, text: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        fn(text)
        times.append(time.process_time() - start)
    return min(times)


def run() -> list[dict]:
    settle_text(json.dumps(roulette(10)))             # imports and registry loaded before timing
    rows = []
    for name, build in (("roulette-french, straight-up", roulette), ("punto-banca, player/banker", punto_banca)):
        for n in SIZES:
            text = json.dumps(build(n))
            answer = settle_text(text)
            assert "error" not in answer, answer
            repeat = 5 if n < 10_000 else 2
            now = best_of(settle_text, text, repeat)
            before = best_of(stepped, text, 1) if n <= STEPPED_UP_TO else None
            rows.append({"document": name, "bets": f"{n:,}", "settle (s)": f"{now:.3f}",
                         "µs per bet": f"{now / n * 1e6:,.1f}",
                         "step per event (s)": f"{before:.3f}" if before is not None else "not run (minutes)",
                         "µs per bet, step per event": f"{before / n * 1e6:,.1f}" if before is not None else "—"})
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
