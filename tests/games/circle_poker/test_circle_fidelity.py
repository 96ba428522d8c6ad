"""Circle-poker points from the second fidelity pass (issue 19): each test names the rule and its article."""

from __future__ import annotations

from typing import Any


def test_showdown_muck_after_a_show_003_4619_4622(table: Any) -> None:
    """003:4619-4622: at his turn to show, a player may throw his cards away and give up the pot. The one who
    already showed keeps his claim, so the second player can muck after the first has shown; B's better cards,
    thrown away, win nothing."""
    t = table("holdem", ["A", "B"], ante=500)
    t.hand(500).deal(["Kc Kd", "As Ah"], board="2c 7d 9h Js 3s")
    t.acts("A check; B check; A check; B check; A check; B check; A bet 2000; B call")
    t.act("A", "show").act("B", "muck")
    answer = t.settle()
    assert "error" not in answer, answer
    assert answer["bets"]["a"] == {"status": "won", "staked": 2500, "returned": 4750}
    assert answer["bets"]["b"]["returned"] == 0
    assert "B gives up the pot without showing" in answer["log"]
