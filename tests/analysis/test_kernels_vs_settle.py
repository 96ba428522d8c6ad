"""Differential tests: every compiled simulation kernel against the reducer's own `settle`.

Each kernel keeps the cards of the rounds it plays (`traced`); those cards go into a round document's shoe, the
reducer plays the same decisions, and the money it settles must be the return the kernel counted for that round
(1 + net per unit initially staked). Same cards -> same money, round by round.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from tapete.analysis import blackjack as bj
from tapete.analysis import blackjack_sim as bjs
from tapete.analysis.simulate import BetSpec, kernel_for
from tapete.catalog import get_game
from tapete.engine.events import Act, Bet, Deal
from tapete.games.poker import evaluator as ev

FILLER = [r + s for s in "SHDC" for r in "23456789"]


def _net(result: Any, amount: int = 100) -> Fraction:
    return 1 + (result.returned - result.staked) / amount


def _single(hist: dict[Fraction, int]) -> Fraction:
    assert sum(hist.values()) == 1, hist
    return next(iter(hist))


# ------------------------------------------------------------------------------------------------ blackjack

def _bj_shoe(values: list[int]) -> list[str]:
    """Card values in dealing order as a shoe document (suits spread so no card repeats within six decks)."""
    seen = dict.fromkeys(range(1, 11), 0)
    cards = []
    for v in values:
        k = seen[v]
        seen[v] += 1
        rank = "TJQK"[k % 4] if v == 10 else "A" if v == 1 else str(v)
        cards.append(rank + "SHDC"[(k // 4 if v == 10 else k) % 4])
    return cards + FILLER


# ES-GA deals no round with fewer than two boxes (rules.min_hands): one box's cards would not replay there alone;
# its chart is checked through the sweep's exact edge (tests/analysis/test_simulate_all.py).
@pytest.mark.parametrize("jurisdiction", ["ES", "ES-IB", "ES-AN"])
def test_blackjack_kernel_matches_settle(jurisdiction: str) -> None:
    game = get_game("blackjack")
    rules = game.rules_for(jurisdiction)
    kernel = kernel_for(game, jurisdiction)
    hands = 400
    hist, sevens, trace, outcome = bjs._play_histograms(jurisdiction, hands, seed=20261125, traced=hands)
    returns = bjs.main_returns(rules)
    # the histogram the kernel reports is exactly the traced hands' results
    assert Counter({returns[i]: int(k) for i, k in enumerate(hist) if k}) == Counter(1 + Fraction(float(x)) for x in outcome)
    _, traced = kernel.traced(hands, 20261125)
    engine_sevens = np.zeros(16, dtype=np.int64)
    for values, want in zip(trace, traced, strict=True):
        cards = [int(v) for v in values if v]
        state = game.open(jurisdiction, {"minimum": 100}, _bj_shoe(cards))
        state = game.step(state, Bet("b1", "p", "main", 1000, None, {"box": 1}))
        if rules.bolsa:
            state = game.step(state, Bet("b2", "p", "bolsa", 100, None, {"box": 1}))
        state = game.step(state, Deal())
        while state.phase != "betting":
            if state.turn is None:
                state = game.finish(state)
                break
            hand = state.hands[state.turn]
            verb = bj.advice(jurisdiction, hand.cards, state.dealer[0], split=hand.split, split_aces=hand.split_aces,
                             first_decision=state.phase == "window", hands=len(state.hands))
            state = game.step(state, Act(verb, bet="b1"))
        assert _net(game.settle(state).bets["b1"], 1000) == want, (cards, state.log)
        box = state.box_cards[1]
        dealt = [box[0], state.dealer[0], box[1]] + box[2:3]
        engine_sevens[sum(1 << i for i, c in enumerate(dealt) if c[0] == "7")] += 1
    # the Bolsa: the kernel's pattern of 7s among the box's first cards and the up card is the reducer's deal
    assert np.array_equal(engine_sevens, sevens)


def test_blackjack_bolsa_settles_by_the_reducer() -> None:
    """The Bolsa histogram's suit patterns are settled by the reducer's `_bolsa`, checked on crafted deals."""
    game = get_game("blackjack")
    rules = game.rules_for("ES-AN")
    for box in (["7S", "7S", "7S"], ["7S", "7H", "7D"], ["7S", "7S", "2D"], ["7S", "7H", "7H"], ["7S", "2H"], ["2S", "7S"]):
        shoe = [box[0], "2C", box[1], *box[2:]] + FILLER
        state = game.open("ES-AN", {"minimum": 100}, shoe)
        state = game.step(state, Bet("m", "p", "main", 100, None, {"box": 1}))
        state = game.step(state, Bet("b", "p", "bolsa", 100, None, {"box": 1}))
        state = game.step(state, Deal())
        if len(box) == 3:
            state = game.step(state, Act("hit", bet="m"))
        state = game.finish(state)
        got = game.settle(state).bets["b"]
        assert _net(got) == bjs.bolsa_return(game, rules, list(state.box_cards[1][:3])), box


# ------------------------------------------------------------------------------------------------ trente et quarante

def _tq_rounds(kernel: Any, wanted_ties: int, wanted_plain: int) -> list[tuple[int, Any, Any, list[str]]]:
    """Single-round runs of the kernel (one seed each), enough of them opening on a 31-31 tie."""
    out, ties, plain, seed = [], 0, 0, 0
    while ties < wanted_ties or plain < wanted_plain:
        seed += 1
        first, prison, trace, used = kernel.play(1, seed, traced=1)
        tie = bool(first[0, 0].sum())
        if (tie and ties >= wanted_ties) or (not tie and plain >= wanted_plain):
            continue
        ties += tie
        plain += not tie
        out.append((seed, first, prison, [kernel.cards[int(c)] for c in trace[0, : used[0]]]))
    return out


@pytest.mark.parametrize("jurisdiction", ["ES", "ES-AN"])
def test_trente_quarante_kernel_matches_settle(jurisdiction: str) -> None:
    game = get_game("trente-quarante")
    kernel = kernel_for(game, jurisdiction)
    specs = [(c.kind, c.option) for c in game.edge_cases(jurisdiction)]
    for _, first, prison, cards in _tq_rounds(kernel, 25, 60):
        for kind, option in specs:
            want = _single(kernel.histogram(kind, option, first, prison))
            state = game.open(jurisdiction, {"minimum": 100}, cards)
            state = game.step(state, Bet("x", "p", kind, 100, None, {"insured": option == "insured"}))
            state = game.step(state, Deal())
            bet = state.bets[0]
            while bet.phase != "done":
                if bet.phase == "choice":
                    state = game.step(state, Act("half" if option == "half" else "prison", bet="x"))
                else:
                    state = game.step(state, Deal())
                bet = state.bets[0]
            got = game.settle(state).bets["x"]
            assert _net(got) == want, (kind, option, cards, state.log)


# ------------------------------------------------------------------------------------------------ trijoker, tripoker

@pytest.mark.parametrize("jurisdiction", ["ES-IB", "ES-AN"])
def test_trijoker_kernel_matches_settle(jurisdiction: str) -> None:
    game = get_game("trijoker")
    kernel = kernel_for(game, jurisdiction)
    for seed in range(300):
        counts, trace, codes = kernel.play(1, np.random.default_rng(seed), traced=1)
        want = _single(kernel.returns(counts))
        c = [ev.card_text(int(x)) for x in trace[0]]
        shoe = [c[0], c[3], c[1], c[4], c[2]]      # box, common (left), box, common (right), box: 000:1693
        state = game.open(jurisdiction, {"minimum": 100}, shoe)
        state = game.step(state, Bet("x", "p", "main", 100, None, {"box": 1}))
        state = game.step(state, Deal())
        for keep in codes[0, 2:4]:
            state = game.step(state, Act("keep" if keep else "withdraw", bet="x"))
        state = game.finish(state)
        assert _net(game.settle(state).bets["x"]) == want, (c, state.log)


def test_tripoker_kernel_matches_settle() -> None:
    game = get_game("tripoker")
    kernel = kernel_for(game, "ES-AN")
    specs = [BetSpec("ante", None, "optimal"), BetSpec("fortune"), BetSpec("jackpot", None, "linked-carousel")]
    folds = 0
    for seed in range(400):
        _, _, _, trace, codes = kernel.play(1, np.random.default_rng(seed), traced=1)
        hists = kernel.run(specs, 1, np.random.default_rng(seed))
        ante, fortune, jackpot = (_single(h) for h in hists)
        shoe = [ev.card_text(int(x)) for x in trace[0]]       # one by one: box, croupier, ... (003:3659-3664)
        table = {"minimum": 100, "linked-carousel": True}
        state = game.open("ES-AN", table, shoe)
        state = game.step(state, Bet("a", "p", "ante", 100, None, {"box": 1}))
        state = game.step(state, Bet("f", "p", "fortune", 100, None, {"box": 1}))
        state = game.step(state, Deal())
        fold = codes[0, 0] == 0
        folds += fold
        state = game.finish(game.step(state, Act("fold" if fold else "call", bet="a")))
        got = game.settle(state).bets
        assert (_net(got["a"]), _net(got["f"])) == (ante, fortune), (shoe, state.log)
        # the carousel rides a box that does not fold (the exact edge's premise): fortune and jackpot only
        state = game.open("ES-AN", table, shoe)
        state = game.step(state, Bet("f", "p", "fortune", 100, None, {"box": 1}))
        state = game.step(state, Bet("j", "p", "jackpot", 100, None, {"box": 1}))
        state = game.finish(state)
        assert _net(game.settle(state).bets["j"]) == jackpot, (shoe, state.log)
    assert 0 < folds < 400


# ------------------------------------------------------------------------------------------------ Monte

def test_casino_monte_kernel_matches_settle() -> None:
    game = get_game("casino-monte")
    kernel = kernel_for(game, "ES-AN")
    ties = 0
    for seed in range(600):
        counts, trace = kernel.play(1, seed, traced=1)
        ties += int(counts[1].sum())
        cards = [kernel.cards[int(c)] for c in trace[0]]
        for kind, option in (("main", "rematch"), ("main", "surrender"), ("tie", None)):
            want = _single(kernel.histogram(kind, option, counts))
            state = game.open("ES-AN", {"minimum": 100, "rematch-burn": 1}, cards + FILLER)
            state = game.step(state, Bet("m", "p", "main", 100, None, {"box": 1}))
            state = game.step(state, Bet("t", "p", "tie", 100, None, {"box": 1}))
            state = game.step(state, Deal())
            if any(b.state == "tied" for b in state.bets):
                state = game.step(state, Act(option or "surrender", bet="m"))
            state = game.finish(state)
            assert _net(game.settle(state).bets["t" if kind == "tie" else "m"]) == want, (kind, option, cards, state.log)
    assert ties >= 20


def test_monte_banca_kernel_matches_settle() -> None:
    from tapete.analysis.monte_sim import LAYOUT, MonteBancaKernel

    game = get_game("monte-banca")
    kernel = kernel_for(game, "ES-AN")
    specs = [(k, "primeras") for k in MonteBancaKernel.PRIMERAS] + [(k, "segundas") for k in MonteBancaKernel.SEGUNDAS]
    for seed in range(250):
        counts, trace, used = kernel.play(1, seed, traced=1)
        cards = [kernel.cards[int(c)] for c in trace[0, : used[0]]]
        for kind, phase in specs:
            want = _single(kernel.histogram(kind, phase, counts))
            state = game.open("ES-AN", {"minimum": 100}, [*LAYOUT, *cards])
            if phase == "segundas":
                state = game.step(state, Deal())
            p, q = state.in_play[0], state.in_play[1]
            on: tuple[Any, ...] = ([p], [q]) if kind == "versus" else (p,)
            state = game.step(state, Bet("x", "p", kind, 100, on))
            state = game.step(state, Deal())
            if phase == "primeras":
                state = game.step(state, Deal())
            assert _net(game.settle(state).bets["x"]) == want, (kind, phase, cards, state.log)
