"""French roulette rules data: citations, jurisdiction differences, maxima (FR-25), the solver's edges."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tapete.analysis.edges import edges
from tapete.catalog import all_games, get_game

GAME = get_game("roulette-french")


def test_every_rule_of_every_game_cites_its_source() -> None:
    for game in all_games():
        for jurisdiction, rules in game.rules.items():
            assert rules.missing_sources() == [], (game.id, jurisdiction)
            assert rules.jurisdiction == jurisdiction


def test_FR_25a_national_maxima_with_minimum_2() -> None:
    state = GAME.open("ES", {"minimum": 200})
    maxima = {a.kind: a.maximum for a in GAME.legal_actions(state) if a.verb == "bet"}
    assert maxima == {"straight": 6000, "split": 12000, "street": 18000, "corner": 24000, "six-line": 36000,
                      "column": 72000, "dozen": 72000, "two-columns": 144000, "two-dozens": 144000,
                      "red": 108000, "black": 108000, "even": 108000, "odd": 108000, "low": 108000, "high": 108000}


def test_FR_25b_balearic_tier_1_with_minimum_2() -> None:
    state = GAME.open("ES-IB", {"minimum": 200, "tier": 1})
    maxima = {a.kind: a.maximum for a in GAME.legal_actions(state) if a.verb == "bet"}
    assert maxima["straight"] == 2000 and maxima["split"] == 4000 and maxima["street"] == 6000
    assert maxima["corner"] == 8000 and maxima["six-line"] == 12000 and maxima["dozen"] == 24000
    assert maxima["two-dozens"] == 48000 and maxima["red"] == 36000


@pytest.mark.parametrize("jurisdiction", ["ES-IB", "ES-GA", "ES-AN"])
def test_regional_tiers_are_thirds_of_the_national_maxima(jurisdiction: str) -> None:
    for tier, factor in ((1, 1), (2, 2), (3, 3)):
        state = GAME.open(jurisdiction, {"minimum": 300, "tier": tier})
        straight = next(a.maximum for a in GAME.legal_actions(state) if a.kind == "straight")
        assert straight == 10 * factor * 300


def test_jurisdiction_differences_in_the_rules_data() -> None:
    es, ib, ga, an = (GAME.rules[j] for j in ("ES", "ES-IB", "ES-GA", "ES-AN"))
    assert not es.zero_trios and not es.first_four and ib.zero_trios and ga.first_four and an.first_four
    assert es.limit_change == ga.limit_change == "never" and ib.limit_change == an.limit_change == "after-3-spins"
    assert es.prison_lock_basis == ib.prison_lock_basis == ga.prison_lock_basis == "value"
    assert an.prison_lock_basis == "held"
    assert es.simple_minimum_multiple == 1 and ib.simple_minimum_multiple == 5
    assert an.payment_order is None and es.payment_order is not None
    assert (es.maxima_override, ib.maxima_override, ga.maxima_override, an.maxima_override) == (
        "none", "raise", "none", "authorisation")


@pytest.mark.parametrize("jurisdiction", ["ES", "ES-IB", "ES-GA", "ES-AN"])
def test_exact_edges(jurisdiction: str) -> None:
    found = {(r.kind, r.option): r for r in edges(GAME, jurisdiction)}
    for kind in ("straight", "split", "street", "corner", "six-line", "column", "dozen", "two-columns", "two-dozens"):
        assert found[(kind, None)].house_edge == Fraction(1, 37), kind
        assert found[(kind, None)].on is None     # the same for every target
    for kind in ("red", "black", "even", "odd", "low", "high"):
        assert found[(kind, "half")].house_edge == Fraction(1, 74)     # (1/2)/37
        assert found[(kind, "prison")].house_edge == Fraction(1, 73)   # the absorbing chain of repeated zeros
    assert all(r.method == "exact" for r in found.values())
