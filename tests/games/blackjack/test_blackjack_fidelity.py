"""Blackjack points from the second fidelity pass (issue 19): Andalucía's even money, box by box."""

from __future__ import annotations

from tapete.conformance.document import settle_document

SHOE = ["5H", "AS", "7C", "AD", "6H", "KS", "8C", "2D", "3S", "6C", "9D", "9H", "TC"]


def _doc(j: str, acts: list[tuple[str, str]]) -> dict:
    bets = [{"bet": {"id": f"b{k}", "player": f"p{k}", "kind": "main", "box": k, "amount": 1000}} for k in (1, 2, 3)]
    return {"game": "blackjack", "jurisdiction": j, "table": {"minimum": 100}, "shoe": SHOE,
            "events": [*bets, {"deal": {}}, *({"act": {"bet": b, "do": do}} for b, do in acts)]}


def test_even_money_until_the_next_player_asks_a_third_card_003_771_772() -> None:
    """Box 2 holds a Black-Jack against the dealer's ace. Box 1 has hit (a third card asked before box 2's turn),
    yet box 2 may still take even money in Andalucía: its window closes only when the next player, box 3, asks."""
    answer = settle_document(_doc("ES-AN", [("b1", "hit"), ("b2", "even-money"), ("b1", "stand"), ("b3", "hit")]))
    assert "error" not in answer, answer
    assert answer["bets"]["b2"] == {"status": "won", "staked": 1000, "returned": 2000}
    late = settle_document(_doc("ES-AN", [("b1", "hit"), ("b1", "stand"), ("b3", "hit"), ("b2", "even-money")]))
    assert late["error"]["code"] == "illegal-action" and "too late" in late["error"]["message"]
    assert "003:771-772" in late["error"]["source"]


def test_even_money_closes_with_the_table_window_in_baleares_000_364() -> None:
    answer = settle_document(_doc("ES-IB", [("b1", "hit"), ("b2", "even-money")]))
    assert answer["error"]["code"] == "illegal-action" and "too late" in answer["error"]["message"]


def test_even_money_after_the_round_is_too_late_not_a_missing_round() -> None:
    for j in ("ES-AN", "ES-IB"):
        answer = settle_document(_doc(j, [("b1", "stand"), ("b3", "stand"), ("b2", "even-money")]))
        assert answer["error"]["code"] == "illegal-action", answer
        assert "too late" in answer["error"]["message"], answer
