"""Trente et quarante points from the second fidelity pass (issue 19)."""

from __future__ import annotations

from tapete.conformance.document import settle_document
from tapete.games.trente_quarante import TQ_RULES

TIE31 = ["KS", "QS", "JS", "AS", "9H", "9D", "9C", "4H"]
BLACK_WINS = ["TS", "9H", "8C", "5D", "KH", "QC", "4S", "3H", "7D"]


def _doc(j: str, events: list[dict]) -> dict:
    return {"game": "trente-quarante", "jurisdiction": j, "table": {"minimum": 500}, "shoe": TIE31 + BLACK_WINS,
            "events": [{"bet": {"id": "n", "player": "p1", "kind": "black", "amount": 10000}}, *events]}


def test_31_31_half_back_is_the_default_in_andalucia_003_1123_1127() -> None:
    """003:1123-1127: the casino takes half and returns half; keeping the whole bet is the player's option."""
    assert TQ_RULES["ES-AN"].tie_default == "half" and "1123-1127" in TQ_RULES["ES-AN"].sources["tie_default"]
    no_choice = settle_document(_doc("ES-AN", [{"deal": {}}, {"deal": {}}]))
    assert no_choice["bets"]["n"] == {"status": "lost", "staked": 10000, "returned": 5000}
    assert any("half is returned" in line for line in no_choice["log"])
    at_the_end = settle_document(_doc("ES-AN", [{"deal": {}}]))
    assert at_the_end["bets"]["n"] == {"status": "lost", "staked": 10000, "returned": 5000}
    kept = settle_document(_doc("ES-AN", [{"deal": {}}, {"act": {"bet": "n", "do": "prison"}}, {"deal": {}}]))
    assert kept["bets"]["n"]["returned"] == 10000       # the player's option: freed by the black win


def test_31_31_prison_stays_the_default_where_the_text_borrows_roulette_001_435() -> None:
    for j in ("ES", "ES-IB", "ES-GA"):
        assert TQ_RULES[j].tie_default == "prison"
        answer = settle_document(_doc(j, [{"deal": {}}, {"deal": {}}]))
        assert answer["bets"]["n"]["returned"] == 10000, j     # in prison, freed by the black win
