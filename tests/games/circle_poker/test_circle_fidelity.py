"""Circle-poker points from the second fidelity pass (issue 19): each test names the rule and its article."""

from __future__ import annotations

from typing import Any


def test_showdown_muck_after_a_show_003_4617_4622(table: Any) -> None:
    """003:4617-4622: at his turn to show, a player may throw his cards away and give up the pot. The one who
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


def _rebuy_doc(table: Any, j: str, rebuy: int, game: str = "poker-sintetico", **keys: Any) -> dict[str, Any]:
    ante = 1000 if j == "ES-IB" else 500
    t = table(game, ["A", "B"], j=j, ante=ante, **keys)
    t.events.append({"bet": {"id": "a", "player": "A", "kind": "hand", "amount": ante, "rebuy": rebuy}})
    t.events.append({"bet": {"id": "b", "player": "B", "kind": "hand", "amount": ante}})
    t.deal(["As Ah", "Ks Kh"], board="8c 9d Th Jc Qd")
    return t.settle()


def test_rebuy_5_to_100_times_the_table_bet_000_1487(table: Any) -> None:
    """000:1483-1487: the casino fixes the reposición per table, 5 to 100 times the table's bet (1000 here)."""
    for amount, code in ((1, "under-minimum"), (2000, "under-minimum"), (200_000, "over-maximum"),
                         (5_000_000, "over-maximum")):
        answer = _rebuy_doc(table, "ES-IB", amount)
        assert answer.get("error", {}).get("code") == code, (amount, answer)
        assert "000:1487" in answer["error"]["source"]
    for amount in (5000, 100_000):
        assert "error" not in _rebuy_doc(table, "ES-IB", amount)


def test_rebuy_minimum_20_to_40_percent_of_the_resto_inicial_003_5581_5582(table: Any) -> None:
    """003:5581-5582: in sintético the reposición mínima is 20 % to 40 % of the resto inicial (`buy-in`, here the
    default 10 m = 10,000): by default 2,000."""
    assert _rebuy_doc(table, "ES-AN", 1999)["error"]["code"] == "under-minimum"
    assert "error" not in _rebuy_doc(table, "ES-AN", 2000)
    assert _rebuy_doc(table, "ES-AN", 2000, **{"rebuy-minimum": 4001})["error"]["code"] == "bad-table"
    assert _rebuy_doc(table, "ES-AN", 3000, **{"rebuy-minimum": 3500})["error"]["code"] == "under-minimum"
    assert "error" not in _rebuy_doc(table, "ES-AN", 3500, **{"rebuy-minimum": 3500})


def test_rebuy_minimum_never_above_the_resto_inicial_003_4378_4380(table: Any) -> None:
    keys = {"buy-in": 20_000}
    assert "error" not in _rebuy_doc(table, "ES-AN", 1, "holdem", **keys)        # no reposición mínima set
    answer = _rebuy_doc(table, "ES-AN", 30_000, "holdem", **keys, **{"rebuy-minimum": 20_001})
    assert answer["error"]["code"] == "bad-table" and "003:4378-4380" in answer["error"]["source"]
    assert _rebuy_doc(table, "ES-AN", 5000, "holdem", **keys, **{"rebuy-minimum": 8000})["error"]["code"] == "under-minimum"
    assert "error" not in _rebuy_doc(table, "ES-AN", 8000, "holdem", **keys, **{"rebuy-minimum": 8000})


def _touch(table: Any, players: list[str]) -> dict[str, Any]:
    t = table("holdem", players, ante=500)
    t.hand(500).deal(["Kc Kd", "As Ah", "Qs Qh"][:len(players)], board="2c 7d 9h Js 3s")
    t.act("A", "bet", amount=2000).act("B", "touch", **{"with": "a"})
    return t.settle()


def test_touching_hands_both_void_chips_stay_in_the_pot_003_4804_4806(table: Any) -> None:
    """003:4804-4806 voids both hands and says nothing of their money: it stays in the pot, as a fold's would
    (docs/rulings.md#circle-touching-hands)."""
    answer = _touch(table, ["A", "B", "C"])
    assert answer["bets"]["a"] == {"status": "lost", "staked": 2500, "returned": 0}
    assert answer["bets"]["b"] == {"status": "lost", "staked": 500, "returned": 0}
    assert answer["bets"]["c"] == {"status": "won", "staked": 500, "returned": 3325}


def test_touching_hands_with_nobody_left_every_chip_returned_003_4804_4806(table: Any) -> None:
    """The two touching hands were the only ones: nobody can win, the casino is no party to the pot."""
    answer = _touch(table, ["A", "B"])
    assert answer["bets"]["a"] == {"status": "push", "staked": 2500, "returned": 2500}
    assert answer["bets"]["b"] == {"status": "push", "staked": 500, "returned": 500}
    assert answer["house"] == {"commission": 0, "net": 0}


def test_sintetico_ES_IB_forced_bet_is_the_table_minimum_000_1515(table: Any) -> None:
    """000:1515: players "deben realizar la apuesta mínima antes fijada por el Casino": the ante is m, no less."""
    t = table("poker-sintetico", ["A", "B"], j="ES-IB", ante=500)
    t.hand(500).deal(["As Ah", "Ks Kh"], board="8c 9d Th Jc Qd")
    answer = t.settle()
    assert answer["error"]["code"] == "bad-table" and "000:1515" in answer["error"]["source"]
    t = table("poker-sintetico", ["A", "B"], j="ES-IB", ante=1000)
    assert "error" not in t.hand(1000).deal(["As Ah", "Ks Kh"], board="8c 9d Th Jc Qd").settle()
