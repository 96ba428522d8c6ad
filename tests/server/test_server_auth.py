"""Authorisation on every endpoint: roles, owners, phases, limits, idempotency, rate-limited login."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import PASSWORD  # type: ignore[import-not-found]

TABLE = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}
OTHER = {"id": "ruleta-b", "game": "roulette-french", "jurisdiction": "ES", "source": "croupier", "auto": False,
         "table": {"minimum": 100}}


@pytest.fixture
def casino(make_casino: Any, sqlite_url: str) -> Any:
    c = make_casino([TABLE, OTHER], sqlite_url)
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    return c


def err(answer: dict[str, Any]) -> str:
    return answer["error"]["code"]


def test_no_token_no_entry(casino: Any) -> None:
    for path in ("/api/me", "/api/tables/ruleta", "/api/wallets/ana", "/api/ledger", "/api/rounds"):
        r = casino.client.get(path)
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthenticated", path
    r = casino.client.post("/api/tables/ruleta/bets", json={"bets": [{"kind": "red", "amount": 100}]},
                           headers={"Authorization": "Bearer forged", "Idempotency-Key": "k"})
    assert r.status_code == 401


def test_player_cannot_act_as_croupier_or_chief(casino: Any) -> None:
    for path, body in (("open", None), ("close", {}), ("draw", None), ("confirm", None),
                       ("void", {"reason": "x"}), ("limits", {"values": {"minimum": 200}}), ("correct", {"value": 3, "reason": "x"})):
        answer = casino.post("ana", f"/api/tables/ruleta/{path}", body, expect=403)
        assert err(answer) == "forbidden", path
    assert err(casino.post("ana", "/api/tables/ruleta-b/outcome", {"value": 17}, expect=403)) == "forbidden"
    # the croupier runs the table but the chief alone voids, corrects and changes limits
    casino.post("croupier", "/api/tables/ruleta/void", {"reason": "x"}, expect=403)
    casino.post("croupier", "/api/tables/ruleta/limits", {"values": {"minimum": 200}}, expect=403)
    # staff do not bet
    assert err(casino.bet("croupier", "ruleta", {"kind": "red", "amount": 100}, expect=403)) == "forbidden"
    assert err(casino.bet("inspector", "ruleta", {"kind": "red", "amount": 100}, expect=403)) == "forbidden"


def test_wallets_are_private(casino: Any) -> None:
    assert casino.get("ana", "/api/wallets/ana")["balance"] == 100_000
    assert err(casino.get("ana", "/api/wallets/luis", expect=403)) == "forbidden"
    assert casino.get("cajero", "/api/wallets/luis")["balance"] == 100_000
    assert casino.get("inspector", "/api/wallets/luis")["balance"] == 100_000
    assert err(casino.get("ana", "/api/ledger", expect=403)) == "forbidden"
    assert err(casino.post("ana", "/api/cashier/deposit", {"user": "ana", "amount": 100}, expect=403)) == "forbidden"
    assert err(casino.get("ana", "/api/tables/ruleta/log", expect=403)) == "forbidden"
    casino.bet("luis", "ruleta", {"kind": "red", "amount": 100})
    view = casino.get("ana", "/api/tables/ruleta")
    assert view["open_bets"] == []                       # another player's bets are not listed to her


def test_no_bet_after_no_va_mas(casino: Any) -> None:
    casino.bet("ana", "ruleta", {"kind": "red", "amount": 100})
    casino.post("croupier", "/api/tables/ruleta/close")
    answer = casino.bet("ana", "ruleta", {"kind": "black", "amount": 100}, expect=409)
    assert err(answer) == "bet-closed"
    assert casino.balance("ana") == 100_000 - 100
    casino.post("croupier", "/api/tables/ruleta/draw")
    assert err(casino.bet("ana", "ruleta", {"kind": "black", "amount": 100}, expect=409)) == "wrong-phase"  # not reopened


def test_limits_minimum_and_maximum(casino: Any) -> None:
    assert err(casino.bet("ana", "ruleta", {"kind": "straight", "on": [17], "amount": 99}, expect=422)) == "under-minimum"
    # ES: 30 x minimum on a straight-up number (001:117-123)
    answer = casino.bet("ana", "ruleta", {"kind": "straight", "on": [17], "amount": 3100}, expect=422)
    assert err(answer) == "over-maximum" and "001:" in answer["error"]["message"]
    casino.bet("ana", "ruleta", {"kind": "straight", "on": [17], "amount": 3000})
    assert err(casino.bet("ana", "ruleta", {"kind": "straight", "on": [17], "amount": 100}, expect=422)) == "over-maximum"
    assert err(casino.bet("ana", "ruleta", {"kind": "split", "on": [1, 5], "amount": 100}, expect=422)) == "bad-target"
    assert casino.balance("ana") == 100_000 - 3000        # refused bets took nothing


def test_insufficient_funds_and_never_negative(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([TABLE], sqlite_url, players={"pobre": 500})
    c.post("croupier", "/api/tables/ruleta/open", key=None)
    c.bet("pobre", "ruleta", {"kind": "red", "amount": 300})
    answer = c.bet("pobre", "ruleta", {"kind": "black", "amount": 100}, {"kind": "odd", "amount": 200}, expect=409)
    assert err(answer) == "insufficient-funds"
    assert c.balance("pobre") == 200                       # neither of the two bets of the refused request
    assert err(c.post("cajero", "/api/cashier/withdraw", {"user": "pobre", "amount": 201}, expect=409)) == "insufficient-funds"
    assert c.post("cajero", "/api/cashier/withdraw", {"user": "pobre", "amount": 200})["balance"] == 0
    c.ledger()


def test_player_cannot_decide_for_another_players_bet(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([{**OTHER, "jurisdiction": "ES"}], sqlite_url)
    c.post("croupier", "/api/tables/ruleta-b/open", key=None)
    b = c.bet("ana", "ruleta-b", {"kind": "red", "amount": 1000})["bets"][0]["id"]
    c.post("croupier", "/api/tables/ruleta-b/outcome", {"value": 0})
    c.post("croupier", "/api/tables/ruleta-b/confirm")
    assert err(c.post("luis", "/api/tables/ruleta-b/acts", {"bet": b, "do": "half"}, expect=403)) == "forbidden"
    answer = c.post("ana", "/api/tables/ruleta-b/acts", {"bet": b, "do": "half"})
    assert answer["balance"] == 100_000 - 500               # half the stake back after the zero (001:105-107)
    c.ledger()


def test_staff_limited_to_their_tables(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([TABLE, OTHER], sqlite_url, staff=[{"username": "crupier2", "roles": ["croupier"], "tables": ["ruleta-b"]}])
    assert err(c.post("crupier2", "/api/tables/ruleta/open", key=None, expect=403)) == "forbidden"
    c.post("crupier2", "/api/tables/ruleta-b/open", key=None)
    # a cashier opens players' accounts, not staff ones
    c.post("cajero", "/api/users", {"username": "nuevo", "password": "pw-nuevo-2026"}, key=None)
    c.post("cajero", "/api/users", {"username": "falso", "password": "pw-falso-2026", "roles": ["chief"]}, key=None, expect=403)


def test_idempotency_keys(casino: Any) -> None:
    body = {"bets": [{"kind": "red", "amount": 700}]}
    first = casino.post("ana", "/api/tables/ruleta/bets", body, key="bet-1")
    again = casino.post("ana", "/api/tables/ruleta/bets", body, key="bet-1")
    assert again == first and casino.balance("ana") == 100_000 - 700
    other = casino.post("ana", "/api/tables/ruleta/bets", {"bets": [{"kind": "red", "amount": 800}]}, key="bet-1", expect=422)
    assert err(other) == "idempotency-key-reused"
    assert err(casino.post("ana", "/api/tables/ruleta/bets", body, key=None, expect=422)) == "idempotency-key-required"
    # keys are per user: luis may use the same one
    casino.post("luis", "/api/tables/ruleta/bets", body, key="bet-1")
    dep = {"user": "eva", "amount": 5000}
    casino.post("cajero", "/api/cashier/deposit", dep, key="cash-1")
    casino.post("cajero", "/api/cashier/deposit", dep, key="cash-1")
    assert casino.balance("eva") == 105_000
    casino.ledger()


def test_login_is_rate_limited(casino: Any) -> None:
    for _ in range(5):
        r = casino.client.post("/api/login", json={"username": "eva", "password": "wrong"})
        assert r.status_code == 401
    r = casino.client.post("/api/login", json={"username": "eva", "password": PASSWORD})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too-many-attempts"


def test_logout_ends_the_session(casino: Any) -> None:
    headers = casino.login("eva")
    assert casino.client.post("/api/logout", headers=headers).status_code == 200
    assert casino.client.get("/api/me", headers=headers).status_code == 401      # this process forgets it at once


def test_a_session_not_cached_is_read_with_its_user_in_one_statement(make_casino: Any, database_url: str) -> None:
    """Issue 33: a session the cache does not hold (every player's, every SESSION_CACHE_S) is looked up in ONE
    statement, its user and roles joined."""
    from sqlalchemy import event, update

    from tapete.core.errors import TapeteError
    from tapete.server.storage.db import sessions

    c = make_casino([TABLE], database_url)
    auth = c.client.app.state.server.auth
    token = c.login("eva")["Authorization"].split(" ", 1)[1]
    auth._cache.clear()
    seen: list[str] = []

    def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    event.listen(auth.db.engine, "before_cursor_execute", count)
    try:
        user = auth.authenticate(token)
    finally:
        event.remove(auth.db.engine, "before_cursor_execute", count)
    assert (user.username, user.plays()) == ("eva", True)
    mine = [s for s in seen if "sessions" in s or "users" in s]
    assert len(mine) == 1 and "JOIN users" in mine[0], mine
    assert auth.authenticate(token) is user                       # cached: no statement
    auth._cache.clear()
    with auth.db.write() as conn:                                  # an expired session is refused as before
        conn.execute(update(sessions).values(expires_at=0.0))
    with pytest.raises(TapeteError, match="expired"):
        auth.authenticate(token)
