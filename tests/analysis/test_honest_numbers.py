"""Issue 21 point 1: every line of `tapete edge` says how it was obtained, and only an exact line is a fraction.

An `exact` line is a true Fraction from exact arithmetic: its denominator is never a power of ten beyond what the
game itself states (a 1% premium, a prize percentage): a divisor of 10^k, k >= 3, nor a large power of two (a float turned into a Fraction).
An `enumerated-float` line states its error bound, a `simulated` one its rounds and 99% interval; both are written
as decimals (docs/edge.md)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from tapete.analysis.edges import edges
from tapete.analysis.exact import METHODS, EdgeResult, decimal_text
from tapete.catalog import all_games
from tapete.cli import app

CIRCLE = {"draw-poker", "seven-stud", "five-stud", "omaha", "omaha-5", "omaha-hilo", "holdem", "double-holdem",
          "poker-sintetico"}
CASES = [(g.id, j) for g in all_games() if g.id not in CIRCLE for j in g.rules]
# exact figures whose power-of-ten denominator the game states itself
JUSTIFIED = {
    ("trente-quarante", "insured"): "the 1% insurance premium is the whole edge (004:5)",
    ("lototrot", "prize-percentage=60"): "the organiser keeps 40% (000:1777)",
    ("promotrot", "prize-percentage=70"): "the organiser keeps 30% (000:1929)",
}


def _strip(n: int, *primes: int) -> int:
    for p in primes:
        while n % p == 0:
            n //= p
    return n


def float_like(edge: Fraction) -> bool:
    """A denominator that decimal rounding would leave (it divides 10^k: only 2s and 5s, and at least 1000), or a
    float turned into a Fraction (2^k, k >= 16)."""
    d = edge.denominator
    return _strip(d, 2, 5) == 1 and (d >= 1000 or d >= 1 << 16)


def test_the_check_catches_the_old_lines() -> None:
    """The figures the issue quotes: blackjack and trente et quarante rounded to 1e-12, sin descarte's sample."""
    for old in (Fraction(5559092993, 10**12), Fraction(2736421311, 250000000000), Fraction(5244397, 100000000),
                Fraction(0.0055)):
        assert float_like(old)
    for honest in (Fraction(1, 37), Fraction(1, 74), Fraction(18880657128, 1525814595305), Fraction(1, 100)):
        assert not float_like(honest)


@pytest.fixture(scope="module")
def lines() -> dict[tuple[str, str], list[EdgeResult]]:
    from tapete.catalog import get_game

    return {(g, j): edges(get_game(g), j) for g, j in CASES}


@pytest.mark.parametrize(("game_id", "jurisdiction"), CASES)
def test_no_exact_line_is_a_rounded_float(lines: dict[tuple[str, str], list[EdgeResult]], game_id: str,
                                          jurisdiction: str) -> None:
    for r in lines[game_id, jurisdiction]:
        assert r.method in METHODS, r
        assert isinstance(r.house_edge, Fraction), r
        if r.exact and float_like(r.house_edge):
            assert (game_id, r.option) in JUSTIFIED or (game_id, r.kind) in JUSTIFIED, (game_id, jurisdiction, r)


@pytest.mark.parametrize(("game_id", "jurisdiction"), CASES)
def test_non_exact_lines_carry_their_precision(lines: dict[tuple[str, str], list[EdgeResult]], game_id: str,
                                               jurisdiction: str) -> None:
    for r in lines[game_id, jurisdiction]:
        doc = r.document(True)
        if r.exact:
            assert Fraction(doc["house_edge"]) == r.house_edge
            continue
        assert "/" not in doc["house_edge"], doc
        if r.method == "model":             # exact arithmetic on a stated model (a jackpot meter): its assumptions
            assert doc["note"] and abs(float(doc["house_edge"]) - float(r.house_edge)) < 1e-9, doc
            continue
        if r.method == "enumerated-float":
            assert r.error_bound is not None and 0 < doc["error_bound"] < 0.01, doc
        else:
            low, high = doc["interval"]
            assert low <= float(r.house_edge) <= high and doc["rounds"] > 0 and doc["confidence"] == 0.99, doc
        assert abs(float(doc["house_edge"]) - float(r.house_edge)) <= r.resolution(), doc  # type: ignore[operator]


def test_decimals_follow_the_precision() -> None:
    assert decimal_text(0.005559092993, 5e-4) == "0.00556"
    assert decimal_text(0.0109456852, 1e-9) == "0.0109456852"
    with pytest.raises(ValueError, match="error bound"):
        EdgeResult("main", None, None, Fraction(1, 2), "enumerated-float")
    with pytest.raises(ValueError, match="interval"):
        EdgeResult("main", None, None, Fraction(1, 2), "simulated")


@pytest.mark.parametrize(("game_id", "jurisdiction"), [("blackjack", "ES"), ("trente-quarante", "ES"),
                                                       ("poker-sin-descarte", "ES-IB"), ("pai-gow", "ES-AN")])
def test_edge_json_writes_no_fraction_for_a_figure_that_is_not_one(game_id: str, jurisdiction: str) -> None:
    out = CliRunner().invoke(app, ["edge", game_id, "-j", jurisdiction, "--json"])
    assert out.exit_code == 0, out.stdout
    for bet in json.loads(out.stdout)["bets"]:
        assert ("/" in bet["house_edge"]) == (bet["method"] == "exact") or bet["house_edge"].isdigit(), bet
