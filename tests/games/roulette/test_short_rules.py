"""Andalucía's ruleta francesa abreviada: the inside bets only, everything else as the ordinaria (003:441-454)."""

from __future__ import annotations

import pytest

from tapete.catalog import get_game
from tapete.conformance.document import settle_document
from tapete.core.errors import TapeteError
from tapete.games.roulette.rules import FRENCH_RULES, INSIDE

SHORT = get_game("roulette-french-short")


def test_FR_24_only_the_inside_bets_in_andalucia_only() -> None:
    rules = SHORT.rules_for("ES-AN")
    assert rules.kinds == INSIDE and rules.zero_trios and rules.first_four
    assert list(SHORT.rules) == ["ES-AN"]
    assert [k["kind"] for k in SHORT.info()["kinds"]] == list(INSIDE)
    for j in ("ES", "ES-IB", "ES-GA"):
        with pytest.raises(TapeteError) as err:
            SHORT.rules_for(j)
        assert err.value.code == "game-not-in-jurisdiction"


def test_everything_else_is_the_ordinaria() -> None:
    short, ordinary = SHORT.rules_for("ES-AN"), FRENCH_RULES["ES-AN"]
    for name, value, _ in ordinary.items():
        if name != "kinds":
            assert getattr(short, name) == value, name
    assert FRENCH_RULES["ES-AN"].kinds != INSIDE        # the French instance untouched


def test_FR_24_the_cloth_has_no_simple_chance_minimum() -> None:
    keys = {t["key"] for t in SHORT.info()["table"]}
    assert "minimum-simple" not in keys and "tier" in keys
    doc = settle_document({"game": "roulette-french-short", "jurisdiction": "ES-AN",
                           "table": {"minimum": 100, "minimum-simple": 200}, "events": []})
    assert doc["error"]["code"] == "bad-document"


def test_FR_24_legal_targets_include_the_four_first_and_the_zero_trios() -> None:
    state = SHORT.open("ES-AN", {"minimum": 100})
    targets = {a.kind: a.targets for a in SHORT.legal_actions(state) if a.verb == "bet"}
    assert set(targets) == set(INSIDE)
    assert (0, 1, 2, 3) in targets["corner"] and (0, 1, 2) in targets["street"] and (0, 2, 3) in targets["street"]


def test_FR_24_maxima_by_tier_as_the_ordinaria() -> None:
    for tier, straight in ((1, 1000), (2, 2000), (3, 3000)):
        state = SHORT.open("ES-AN", {"minimum": 100, "tier": tier})
        assert state.limits.maxima["straight"] == straight
