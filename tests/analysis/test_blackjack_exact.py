"""Black Jack exactly (tapete.analysis.blackjack_exact): the split word expansion is a law, the exact evaluator
agrees with a naive brute-force play of the whole round (tests/analysis/blackjack_brute.py) to the last digit of
the Fraction, and with the float64 enumeration of the same method; `tapete edge` prints the stored fractions."""

from __future__ import annotations

import dataclasses
import json
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from tapete.analysis import blackjack as bj
from tapete.analysis import blackjack_exact as bx
from tapete.cli import app
from tapete.games.blackjack.rules import BLACKJACK_RULES

sys.path.insert(0, str(Path(__file__).parent))
from blackjack_brute import Brute  # noqa: E402

# a reduced one-deck shoe: four aces and four eights (re-splits to four hands), two of each other small card,
# eight tens; no round can exhaust it (card_bound < 32)
REDUCED = [0, 4, 2, 2, 2, 2, 2, 2, 4, 2, 8]
ONE_DECK_IB = dataclasses.replace(BLACKJACK_RULES["ES-IB"], decks=1)


def test_split_words_are_a_law() -> None:
    """Σ P(word) = 1 exactly, for four hands and for two, whatever the pair cards left."""
    for cap in (2, 4):
        for big_x, n0 in ((22, 309), (2, 49), (1, 30), (0, 25)):
            g, gj = [], Fraction(1)
            for j in range(bx.max_forced(cap) + 1):
                g.append(gj)
                gj = gj * Fraction(max(big_x - j, 0), n0 - j)
            assert bx.word_probabilities(cap, g) == 1
    assert sum(k for *_, k in bx.split_words(4)) == 8          # NN, PNNN, NPNN and the five words that reach four


def test_resplit_aces_to_four_hands_match_the_brute_force() -> None:
    """A-A against a 5, re-split aces to four hands, one card each: the exact split expectation is the brute
    force's Fraction (every hand's cards out of the real composition, the dealer after)."""
    sol = bj.solve_rules(ONE_DECK_IB)
    nxt, final = bj.dealer_tables(ONE_DECK_IB)
    res = bx.evaluate(bj._comps(), np.array(REDUCED), nxt, final, bx.chart_of(ONE_DECK_IB, sol), ups=(5,))
    assert sol.pair[1, 5]
    assert res.splits[5, 1][0] == Brute(ONE_DECK_IB, sol, 5).split_ev(REDUCED, 1)


def test_split_twos_with_hits_and_doubles_match_the_brute_force() -> None:
    """2-2 against a 6: the split hands hit and double after the split; exact equality with the brute force."""
    sol = bj.solve_rules(ONE_DECK_IB)
    nxt, final = bj.dealer_tables(ONE_DECK_IB)
    res = bx.evaluate(bj._comps(), np.array(REDUCED), nxt, final, bx.chart_of(ONE_DECK_IB, sol), ups=(6,))
    assert sol.pair[2, 6]
    assert res.splits[6, 2][0] == Brute(ONE_DECK_IB, sol, 6).split_ev(REDUCED, 2)


def test_exact_one_deck_round_equals_the_float_enumeration() -> None:
    """ES-IB's rules on one deck (surrender, any-two doubles, re-splits): the exact Fraction of the whole round and
    the float64 enumeration of the same method agree to 1e-12; the wager counts doubles and splits."""
    sol = bj.solve_rules(ONE_DECK_IB)
    res = bx.exact_solution(ONE_DECK_IB, sol)
    assert isinstance(res.ev, Fraction) and res.ev.denominator > 1
    assert abs(float(res.house_edge) - sol.house_edge) < 1e-12
    assert 1 < res.wager < Fraction(6, 5)
    assert res.element_of_risk == res.house_edge / res.wager


def test_edge_command_prints_the_stored_exact_fractions() -> None:
    """The four jurisdictions' main bet: `method: exact`, a fraction (scripts/exact_blackjack.py), equal to the
    float enumeration of the same chart to 1e-9. Needs the stored figures (skipped until the script has run)."""
    pytest.importorskip("tapete.analysis.blackjack_figures", reason="run scripts/exact_blackjack.py")
    runner = CliRunner()
    for j in ("ES", "ES-IB", "ES-GA", "ES-AN"):
        doc = json.loads(runner.invoke(app, ["edge", "blackjack", "-j", j, "--json"]).stdout)
        main = next(b for b in doc["bets"] if b["kind"] == "main")
        assert main["method"] == "exact" and "/" in main["house_edge"]
        assert abs(Fraction(main["house_edge"]) - Fraction(bj.solve(BLACKJACK_RULES[j]).house_edge)) < 1e-9


def test_full_one_deck_aces_match_the_brute_force() -> None:
    """A whole 52-card deck: A-A against a 5 re-split to four hands, the exact evaluator's Fraction equals the naive
    brute force's over the real composition (no reduced shoe)."""
    full = [0, 4, 4, 4, 4, 4, 4, 4, 4, 4, 16]
    sol = bj.solve_rules(ONE_DECK_IB)
    nxt, final = bj.dealer_tables(ONE_DECK_IB)
    res = bx.evaluate(bj._comps(), np.array(full), nxt, final, bx.chart_of(ONE_DECK_IB, sol), ups=(5,))
    assert res.splits[5, 1][0] == Brute(ONE_DECK_IB, sol, 5).split_ev(full, 1)
