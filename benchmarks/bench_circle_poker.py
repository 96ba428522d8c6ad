"""Circle-poker speed: random six-handed no-limit hold'em hands through the reducer (a step per decision, the state
copied at every step as `Game.step` promises), against PokerKit playing the same hands from their PHH export."""

from __future__ import annotations

import json
import random
import time
import warnings

from tapete.catalog import get_game
from tapete.engine.events import Act, Bet, Deal

DECK = [r + s for r in "23456789TJQKA" for s in "SHDC"]


def _hands(n: int, *, keep: bool = False) -> tuple[int, float, list]:
    game = get_game("holdem")
    steps = 0
    states = []
    start = time.perf_counter()
    for seed in range(n):
        rnd = random.Random(seed)
        seats = [{"seat": 6 - k, "player": f"P{k}", "stack": 5000} for k in range(6)]
        table = {"minimum": 200, "structure": "no-limit", "forced": "blinds", "rake": 5, "seats": seats, "button": 1}
        deck = DECK[:]
        rnd.shuffle(deck)
        state = game.open("ES-AN", table, deck)
        for k, amount in enumerate([100, 200, 0, 0, 0, 0]):
            state = game.step(state, Bet(f"h{k}", f"P{k}", "hand", amount))
        state = game.step(state, Deal())
        while state.hand.phase != "over":
            a = rnd.choice(game.legal_actions(state))
            fields = {"amount": rnd.randint(a.minimum, a.maximum)} if a.verb in ("bet", "raise") else {}
            state = game.step(state, Act(a.verb, bet=a.bet, fields=fields))
            steps += 1
        if keep:
            states.append(state)
    return steps, time.perf_counter() - start, states


def _pokerkit(texts: list[str]) -> float | None:
    try:
        from pokerkit.notation import HandHistory
    except ImportError:
        return None
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for text in texts:
            for _ in HandHistory.loads(text):
                pass
    return time.perf_counter() - start


def run() -> list[dict]:
    from tapete.games.poker.phh import export_hand

    _hands(20)                                   # warm up (imports, evaluator)
    n = 300
    steps, secs, states = _hands(n, keep=True)
    texts = [export_hand(s) for s in states]
    peer = _pokerkit(texts)
    rows = [{"measure": "6-handed NL hold'em hands/s (reducer, state copied each step)", "tapete": f"{n / secs:.0f}",
             "peer": f"PokerKit replaying the same PHH: {n / peer:.0f}" if peer else "PokerKit not installed",
             "ratio": f"{(n / secs) / (n / peer):.2f}x" if peer else "—"},
            {"measure": "decisions/s", "tapete": f"{steps / secs:.0f}", "peer": "—", "ratio": "—"}]
    return rows


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
