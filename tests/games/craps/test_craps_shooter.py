"""The shooter's compulsory line bet (000:694; 001:586; 002:992; 003:1511-1514;
docs/rulings.md#craps-shooter-line-bet): with `table.shooter` named, he must have a Win or Don't Win bet working
before each throw, until the first seven-out passes the dice."""

from __future__ import annotations

import pytest

from tapete.conformance.document import settle_document

SOURCES = {"ES": "001:586", "ES-IB": "000:694", "ES-GA": "002:992", "ES-AN": "003:1511-1514"}


def doc(jurisdiction: str, events: list[dict]) -> dict:
    return {"game": "craps", "jurisdiction": jurisdiction, "table": {"minimum": 100, "shooter": "ana"}, "events": events}


def bet(bid: str, player: str, kind: str) -> dict:
    return {"bet": {"id": bid, "player": player, "kind": kind, "amount": 100}}


@pytest.mark.parametrize("jurisdiction", list(SOURCES))
def test_shooter_must_bet_win_or_dont_win_before_throwing(jurisdiction: str) -> None:
    answer = settle_document(doc(jurisdiction, [bet("b", "bea", "pass"), bet("f", "ana", "field"), {"roll": [3, 4]}]))
    assert answer["error"]["code"] == "illegal-action"
    assert answer["error"]["source"].startswith(SOURCES[jurisdiction])
    assert "shooter-line-bet" in answer["error"]["source"]


def test_shooter_line_bet_each_come_out_then_free_after_seven_out() -> None:
    # Win on the come-out (7): the bet is decided, the next come-out needs a new one
    answer = settle_document(doc("ES-AN", [bet("a", "ana", "pass"), {"roll": [3, 4]}, {"roll": [2, 2]}]))
    assert answer["error"]["code"] == "illegal-action"
    # Don't Win, point 4, seven-out: the next shooter is not named, the document goes on
    ok = settle_document(doc("ES-AN", [bet("a", "ana", "dont-pass"), {"roll": [2, 2]}, {"roll": [3, 4]},
                                       bet("c", "bea", "field"), {"roll": [5, 6]}]))
    assert "error" not in ok and ok["bets"]["a"]["returned"] == 200


def test_no_shooter_named_no_check() -> None:
    answer = settle_document({"game": "craps", "jurisdiction": "ES", "table": {"minimum": 100},
                              "events": [bet("f", "ana", "field"), {"roll": [3, 4]}]})
    assert "error" not in answer
