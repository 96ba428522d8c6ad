"""Differential test: the compiled simulation kernel and the rules engine play the same cards with the same chart
and must reach the same result, hand by hand."""

from __future__ import annotations

from tapete.analysis import blackjack as bj
from tapete.analysis import blackjack_sim as bjs
from tapete.catalog import get_game
from tapete.engine.events import Act, Bet, Deal

FILLER = [r + s for s in "SHDC" for r in "23456789"]


def _as_shoe(values: list[int]) -> list[str]:
    seen = {v: 0 for v in range(1, 11)}
    cards = []
    for v in values:
        k = seen[v]
        seen[v] += 1
        rank = "TJQK"[k % 4] if v == 10 else "A" if v == 1 else str(v)
        suit = "SHDC"[(k // 4 if v == 10 else k) % 4]
        cards.append(rank + suit)
    return cards + FILLER     # the reducer's dealer may draw where the kernel stopped (results are already fixed)


def test_simulated_hands_replay_identically_through_the_reducer() -> None:
    """Differential test: the compiled kernel and the rules engine, same cards, same chart, same result."""
    game = get_game("blackjack")
    for j in ("ES", "ES-IB", "ES-AN"):
        sim = bjs.simulate(j, 1000, seed=99, traced=1000)
        for values, want in zip(sim.trace, sim.outcome, strict=True):
            cards = [int(v) for v in values if v]
            state = game.open(j, {"minimum": 100}, _as_shoe(cards))
            state = game.step(state, Bet("b1", "p", "main", 1000, None, {"box": 1}))
            state = game.step(state, Deal())
            while state.phase != "betting":
                if state.turn is None:
                    state = game.finish(state)
                    break
                hand = state.hands[state.turn]
                verb = bj.advice(j, hand.cards, state.dealer[0], split=hand.split, split_aces=hand.split_aces,
                                 first_decision=state.phase == "window", hands=len(state.hands))
                state = game.step(state, Act(verb, bet="b1"))
            got = game.settle(state).bets["b1"]
            assert (got.returned - got.staked) / 1000 == want, (j, cards, state.log)
