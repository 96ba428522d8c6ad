"""Andalucía: during a session only the minimum may vary, and the maximum moves with it (003:355-376; blackjack
borrows the rule, 003:859-861). Issue 19."""

from __future__ import annotations

from typing import Any

import pytest

from tapete.catalog import get_game
from tapete.conformance.document import settle_document
from tapete.core.errors import TapeteError
from tapete.engine.events import Limits


def _roulette(limits: dict[str, Any], j: str = "ES-AN", **table: Any) -> dict:
    return {"game": "roulette-french", "jurisdiction": j, "table": {"minimum": 100, **table},
            "events": [{"limits": limits}, {"bet": {"id": "a", "player": "p1", "kind": "red", "amount": 100}},
                       {"spin": 1}]}


def test_limits_only_the_minimum_may_vary_in_andalucia_003_355_376() -> None:
    for change in ({"maximum-straight": 5000}, {"tier": 1}, {"minimum": 200, "maximum-straight": 8000},
                   {"minimum": 100}, {"allow-zero-splits": False}):
        answer = settle_document(_roulette(change, **{"maximum-straight": 3000}))
        assert answer["error"]["code"] == "illegal-action", change
        assert "003:355" in answer["error"].get("source", "") + answer["error"]["message"], answer
    assert "error" not in settle_document(_roulette({"minimum": 200}))
    assert "error" not in settle_document(_roulette({"maximum-straight": 5000}, j="ES-IB"))   # 000:174-176 differs


def test_limits_the_maximum_moves_with_the_minimum_003_374_376() -> None:
    game = get_game("roulette-french")
    state = game.open("ES-AN", {"minimum": 100, "maximum-straight": 3000})
    state = game.step(state, Limits({"minimum": 200}))
    assert state.next_table["maximum-straight"] == 6000
    bj = get_game("blackjack")
    state = bj.open("ES-AN", {"minimum": 500, "maximum": 50000})
    state = bj.step(state, Limits({"minimum": 1000}))
    assert state.next_table["maximum"] == 100000


def test_limits_blackjack_maximum_alone_refused_in_andalucia_003_859_861() -> None:
    bj = get_game("blackjack")
    state = bj.open("ES-AN", {"minimum": 500, "maximum": 50000})
    with pytest.raises(TapeteError) as info:
        bj.step(state, Limits({"maximum": 60000}))
    assert info.value.code == "illegal-action" and "003:859-861" in str(info.value.source)
