"""Dos paños points from the second fidelity pass (issue 19): the auction of the bank and the free bank."""

from __future__ import annotations

from typing import Any

from tapete.conformance.document import settle_document

BANK_LOSES_BOTH = ["4S", "4H", "2D", "5C", "5D", "3C", "9C", "9D"]      # sides 9 and 9, bank 5
BANK_WINS = ["2S", "3H", "4D", "3C", "3S", "2H", "9D", "AC", "5C"]       # side 1 5, side 2 6, bank 6


def _doc(events: list[dict], shoe: list[str], **table: Any) -> dict:
    return {"game": "baccarat-two-tables", "jurisdiction": "ES", "table": {"minimum": 10000, **table}, "shoe": shoe,
            "events": events}


def _bank(bid: str, player: str, amount: int) -> dict:
    return {"bet": {"id": bid, "player": player, "kind": "bank", "amount": amount}}


def _stake(sid: str, player: str, amount: int, side: int) -> dict:
    return {"bet": {"id": sid, "player": player, "kind": "player", "amount": amount, "on": [side]}}


def test_bank_auction_goes_to_the_best_bid_001_976() -> None:
    answer = settle_document(_doc([_bank("b1", "Ana", 500000), _bank("b2", "Bea", 800000),
                                   _stake("p1", "Dan", 10000, 1), {"deal": {}}], BANK_WINS))
    assert "error" not in answer, answer
    assert answer["bets"]["b1"] == {"status": "void", "staked": 500000, "returned": 500000}
    assert answer["bets"]["b2"]["staked"] == 800000 and answer["bets"]["b2"]["returned"] > 800000
    assert any("awarded to Bea" in line for line in answer["log"])


def test_bank_auction_equal_bids_settled_by_lot_001_978() -> None:
    bids = [_bank("b1", "Ana", 500000), _bank("b2", "Bea", 800000), _bank("b3", "Cai", 800000)]
    rest = [_stake("p1", "Dan", 10000, 1), {"deal": {}}]
    by_lot = settle_document(_doc([*bids, {"act": {"bet": "b3", "do": "lot"}}, *rest], BANK_WINS))
    assert "error" not in by_lot, by_lot
    assert by_lot["bets"]["b2"]["status"] == "void" and by_lot["bets"]["b3"]["returned"] > 800000
    assert any("by lot among equal bids (001:978)" in line for line in by_lot["log"])
    assert settle_document(_doc([*bids, *rest], BANK_WINS))["error"]["code"] == "bad-document"    # who won the draw?
    lot_on_a_loser = settle_document(_doc([*bids, {"act": {"bet": "b1", "do": "lot"}}, *rest], BANK_WINS))
    assert lot_on_a_loser["error"]["code"] == "bad-document"


def test_a_bank_in_play_still_refuses_another_bank_001_976() -> None:
    answer = settle_document(_doc([_bank("b1", "Ana", 500000), _stake("p1", "Dan", 10000, 1),
                                   _bank("b2", "Bea", 800000)], BANK_WINS))
    assert answer["error"]["code"] == "illegal-action"


def test_free_bank_answers_every_stake_without_limit_001_934() -> None:
    events = [_bank("b1", "Ana", 100000), _stake("p1", "Dan", 300000, 1), _stake("p2", "Eva", 300000, 2), {"deal": {}}]
    free = settle_document(_doc(events, BANK_LOSES_BOTH, modality="free"))
    assert free["bets"]["p1"] == {"status": "won", "staked": 300000, "returned": 600000}
    assert free["bets"]["p2"] == {"status": "won", "staked": 300000, "returned": 600000}
    assert free["bets"]["b1"] == {"status": "lost", "staked": 600000, "returned": 0}    # 5,000 € beyond its bank
    assert any("from the banker's deposit" in line for line in free["log"])
    limited = settle_document(_doc(events, BANK_LOSES_BOTH))                           # 001:934: only what it holds
    assert limited["bets"]["b1"] == {"status": "lost", "staked": 100000, "returned": 0}
    assert limited["bets"]["p2"]["status"] == "void"


def test_bank_auction_cites_each_jurisdictions_own_article_003_2584_2587() -> None:
    bids = [_bank("b1", "Ana", 800000), _bank("b2", "Bea", 800000), {"act": {"bet": "b2", "do": "lot"}}]
    doc = {**_doc([*bids, _stake("p1", "Dan", 10000, 1), {"deal": {}}], BANK_WINS), "jurisdiction": "ES-AN"}
    log = settle_document(doc)["log"]
    assert any("003:2586-2587" in line for line in log) and not any("001:" in line for line in log), log
