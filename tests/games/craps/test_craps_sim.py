"""The compiled strategy kernel against the engine (same rolls, same money) and against the exact edge."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from tapete.analysis.craps_sim import (
    KINDS,
    TOTALS,
    Strategy,
    _run,
    engine_totals,
    exact_edges_by_kind,
    exact_strategy_edge,
    roll_bytes,
    simulate,
)


def kernel_totals(strategy: Strategy, codes: np.ndarray) -> np.ndarray:
    state, acc, sq = np.zeros(5, np.int64), np.zeros((4, 3), np.int64), np.zeros(4)
    _run(codes, TOTALS, strategy.pass_amount, *strategy.arrays(), state, acc, sq)
    return acc


@pytest.mark.parametrize("strategy", [Strategy(), Strategy(500, False, 600, 0), Strategy(2000, True, 0, 1800)])
@pytest.mark.parametrize("seed", [11, 12])
def test_same_rolls_same_money_as_the_engine(strategy: Strategy, seed: int) -> None:
    codes = roll_bytes(seed, 0, 4000)
    assert (kernel_totals(strategy, codes) == engine_totals(strategy, codes)).all()


def test_chunks_continue_one_session() -> None:
    """Chunk i uses stream i; the table's state carries over, so the totals are one session's."""
    result = simulate(Strategy(), rolls=5000, seed=3, chunk=1000)
    codes = np.concatenate([roll_bytes(3, i, 1000) for i in range(5)])
    assert (result.totals == kernel_totals(Strategy(), codes)).all()
    assert (result.totals == engine_totals(Strategy(), codes)).all()


def test_exact_edges_come_from_the_solver() -> None:
    e = exact_edges_by_kind()
    assert e["pass"] == Fraction(7, 495) and e["place-6"] == Fraction(1, 66) and e["odds-4"] == 0
    assert exact_strategy_edge() == Fraction(767, 61512)
    assert exact_strategy_edge(Strategy(1000, False, 0, 0)) == Fraction(7, 495)


def test_confidence_intervals_contain_the_exact_edges() -> None:
    result = simulate(Strategy(), rolls=4_000_000, seed=2024, chunk=100_000)
    exact = exact_edges_by_kind()
    for kind, value in (("pass", exact["pass"]), ("odds", Fraction(0)), ("place-6", exact["place-6"]),
                        ("place-8", exact["place-8"])):
        lo, hi = result.interval(kind)
        assert lo < value < hi, (kind, lo, float(value), hi)
    lo, hi = result.interval()
    assert lo < exact_strategy_edge() < hi
    assert hi - lo < 0.004 and set(KINDS) == {"pass", "odds", "place-6", "place-8"}


def test_amounts_that_pay_fractions_are_refused() -> None:
    with pytest.raises(ValueError):
        Strategy(place_6=1000).check()
    with pytest.raises(ValueError):
        Strategy(pass_amount=1005).check()
