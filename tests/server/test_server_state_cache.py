"""The cached table state is owned by one transaction at a time: a bet applied in place and then rolled back
never reaches the next transaction (on PostgreSQL the rollback releases the row lock before the cache could be
cleared, so a state left in the cache was seen with a bet that was never committed: 'bet id used twice')."""

from __future__ import annotations

from typing import Any

import pytest

from tapete.core.errors import TapeteError
from tapete.server.tables.service import op_bets

TABLE = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}


def test_a_rolled_back_bet_never_reaches_the_next_transaction(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([TABLE], sqlite_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    assert c.bet("ana", "ruleta", {"kind": "red", "amount": 500})["bets"][0]["id"] == "b1"
    service = c.client.app.state.server.service
    assert "ruleta" in service._states                       # warm: the next transaction may use it
    cached_while_owned: list[bool] = []

    def bet_then_fail(ctx: Any) -> None:
        op_bets(ctx, "ana", [{"kind": "black", "amount": 500}])   # applied in place on the cached state
        cached_while_owned.append("ruleta" in service._states)
        raise TapeteError("bad-request", "abandoned after the bet was applied")

    with pytest.raises(TapeteError):
        service.run("ruleta", "ana", bet_then_fail)
    assert cached_while_owned == [False]                     # nobody else could have picked it up
    answer = c.bet("ana", "ruleta", {"kind": "black", "amount": 500})
    assert answer["bets"][0]["id"] == "b2"                   # the abandoned b2 left no trace
    c.post("croupier", "/api/tables/ruleta/close")
    result = c.post("croupier", "/api/tables/ruleta/draw")
    assert set(result["bets"]) | set(result["pending"]) == {"b1", "b2"}
    c.ledger()


def test_a_refused_bet_leaves_the_cached_state_in_place(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([TABLE], sqlite_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("ana", "ruleta", {"kind": "red", "amount": 500})
    c.post("croupier", "/api/tables/ruleta/close")
    service = c.client.app.state.server.service
    assert "ruleta" in service._states
    c.bet("ana", "ruleta", {"kind": "red", "amount": 500}, expect=409)   # no va más: refused
    assert "ruleta" in service._states          # put back: the next transaction does not rebuild it from the log
    result = c.post("croupier", "/api/tables/ruleta/draw")
    assert set(result["bets"]) | set(result["pending"]) == {"b1"}
    c.ledger()


def test_a_bet_during_a_closed_phase_transaction_is_refused_at_once_and_replays_still_answer(
        make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([TABLE], sqlite_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    first = c.bet("ana", "ruleta", {"kind": "red", "amount": 500}, key="k1")
    service = c.client.app.state.server.service
    service._closed_busy["ruleta"] = 1          # as while a draw and its settlement hold the table
    try:
        answer = c.bet("ana", "ruleta", {"kind": "black", "amount": 500}, expect=409)
        assert answer["error"]["code"] == "bet-closed"
        assert c.bet("ana", "ruleta", {"kind": "red", "amount": 500}, key="k1") == first   # the retry's replay
    finally:
        service._closed_busy.clear()
    assert c.bet("ana", "ruleta", {"kind": "black", "amount": 500})["bets"][0]["id"] == "b2"
    c.ledger()
