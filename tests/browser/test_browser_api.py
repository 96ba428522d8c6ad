"""The small API the pages added (no browser needed): a table's public view (the shoe's undealt cards and
hole cards never in it), the layout of bet kinds, the blackjack strategy hint, and the pages served."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PASSWORD = "pw-secret-2026"
HOLDEM = {"minimum": 200, "seats": [{"seat": 1, "player": "ana", "stack": 20000}, {"seat": 2, "player": "luis", "stack": 20000}]}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from tapete.server.config import CasinoConfig, validate
    from tapete.server.http.app import create_app

    tables = [
        {"id": "bj", "game": "blackjack", "jurisdiction": "ES", "source": "croupier", "auto": False, "table": {"minimum": 500}},
        {"id": "bj-rng", "game": "blackjack", "jurisdiction": "ES", "auto": False, "table": {"minimum": 500}},
        {"id": "ruleta", "game": "roulette-american", "jurisdiction": "ES-IB", "auto": False, "table": {"minimum": 500}},
    ]
    users = [{"username": u, "password": PASSWORD, "roles": r, "chips": c} for u, r, c in (
        ("croupier", ["croupier"], 0), ("ana", ["player"], 100_000), ("luis", ["player"], 100_000))]
    config = validate(CasinoConfig.model_validate({
        "casino": {"name": "t", "jurisdiction": "ES"}, "security": {"argon2_time_cost": 1, "argon2_memory_kib": 8},
        "tables": tables, "users": users}))
    db = Path(tmp_path_factory.mktemp("api")) / "casino.db"
    with TestClient(create_app(config, f"sqlite:///{db}", clock=False)) as c:
        c.headers_for = lambda user: {  # type: ignore[attr-defined]
            "Authorization": "Bearer " + c.post("/api/login", json={"username": user, "password": PASSWORD}).json()["token"],
            "Idempotency-Key": uuid.uuid4().hex}
        yield c


def post(c: Any, user: str, path: str, body: Any = None, expect: int = 200) -> Any:
    r = c.post(path, json=body or {}, headers=c.headers_for(user))
    assert r.status_code == expect, r.text
    return r.json()


def get(c: Any, user: str, path: str, expect: int = 200) -> Any:
    r = c.get(path, headers=c.headers_for(user))
    assert r.status_code == expect, r.text
    return r.json()


def test_view_keeps_the_shoe_secret_and_hint_follows_the_chart(client: Any) -> None:
    post(client, "croupier", "/api/tables/bj/open")
    post(client, "ana", "/api/tables/bj/bets", {"bets": [{"kind": "main", "amount": 1000, "extra": {"box": 2}}]})
    post(client, "croupier", "/api/tables/bj/close", {"cards": ["8S", "6D", "8H", "3C", "TD", "9C"]})
    view = get(client, "ana", "/api/tables/bj/view")
    state = view["state"]
    assert state["hands"][0]["cards"] == ["8S", "8H"] and state["dealer"] == ["6D"]
    assert state["shoe"] == {"dealt": 3, "remaining": 3, "cut_index": None, "decks": 6}
    assert "3C" not in json.dumps(view)                                   # the keyed cards to come stay secret
    hint = get(client, "ana", "/api/tables/bj/hint?bet=b1")
    assert hint["advice"] == "split" and hint["dealer"] == "6D"
    assert get(client, "luis", "/api/tables/bj/hint?bet=b1", expect=403)["error"]["code"] == "forbidden"
    assert get(client, "ana", "/api/tables/bj/hint?bet=b9", expect=404)["error"]["code"] == "unknown-bet"
    assert get(client, "ana", "/api/tables/ruleta/hint?bet=b1", expect=422)["error"]["code"] == "bad-request"


def test_the_electronic_shoe_never_in_the_view(client: Any) -> None:
    post(client, "croupier", "/api/tables/bj-rng/open")
    post(client, "ana", "/api/tables/bj-rng/bets", {"bets": [{"kind": "main", "amount": 1000, "extra": {"box": 1}}]})
    post(client, "croupier", "/api/tables/bj-rng/close")
    view = get(client, "ana", "/api/tables/bj-rng/view")
    shoe = view["state"]["shoe"]
    assert set(shoe) == {"dealt", "remaining", "cut_index", "decks"} and shoe["remaining"] > 200


def test_hole_cards_are_masked_in_the_view() -> None:
    """Hold'em: neither the hole cards nor the cards to come are in the view (a single deck, dealt)."""
    import re

    from tapete.catalog import get_game
    from tapete.conformance.document import parse_event
    from tapete.engine.events import Deal
    from tapete.server.http.views import state_view

    game = get_game("holdem")
    deck = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    state = game.open("ES-AN", dict(HOLDEM), deck)
    for bet in ({"id": "b1", "player": "ana", "kind": "hand", "amount": 100},
                {"id": "b2", "player": "luis", "kind": "hand", "amount": 100}):
        state = game.step(state, parse_event(game, {"bet": bet}, 0))
    state = game.step(state, Deal())
    text = json.dumps(state_view(state))
    assert not re.search(r'"[2-9TJQKA][SHDC]"', text), text[:500]          # no card, hole or to come
    assert '"??"' in text and "log" in text
    hand = state_view(state, "ana")["hand"]                                # ana sees her two cards only
    seats = [s["player"] for s in hand["betting"]["seats"]]
    mine, theirs = hand["holes"][seats.index("ana")], hand["holes"][seats.index("luis")]
    assert len(mine) == 2 and "??" not in mine and theirs == ["??", "??"]
    assert set(mine) <= set(deck) and not set(mine) & set(state_view(state, "luis")["hand"]["holes"][seats.index("luis")])


def test_a_player_sees_only_the_hands_of_their_boxes() -> None:
    """Tripóquer: the viewer's box shows its three cards; the croupier's and another player's stay masked."""
    from tapete.catalog import get_game
    from tapete.conformance.document import parse_event
    from tapete.engine.events import Deal
    from tapete.server.http.views import state_view

    game = get_game("tripoker")
    state = game.open("ES-AN", {"minimum": 500}, [r + s for s in "SHDC" for r in "23456789TJQKA"])
    for bet in ({"id": "b1", "player": "ana", "kind": "ante", "amount": 500, "box": 1},
                {"id": "b2", "player": "luis", "kind": "ante", "amount": 500, "box": 2}):
        state = game.step(state, parse_event(game, {"bet": bet}, 0))
    state = game.step(state, Deal())
    hands = state_view(state, "ana")["round"]["hands"]
    assert all(c != "??" for c in hands["1"]) and len(hands["1"]) == 3
    assert hands["2"] == ["??"] * 3 and hands["croupier"] == ["??"] * 3
    assert state_view(state, None)["round"]["hands"]["1"] == ["??"] * 3


def test_layout_lists_every_target_and_pages_are_served(client: Any) -> None:
    layout = client.get("/api/tables/ruleta/layout").json()["bets"]
    kinds = {k["kind"]: k for k in layout}
    assert [17, 20] in kinds["split"]["targets"] and len(kinds["straight"]["targets"]) == 37
    assert {"neighbours", "zero-sector", "third", "orphans"} <= set(kinds)      # ES-IB announced bets
    for path in ("/", "/login", "/tables/ruleta", "/static/app.js", "/static/games/roulette.js", "/static/tapete.css"):
        assert client.get(path).status_code == 200, path
    for path in ("/croupier/bj", "/cashier", "/inspector"):              # staff pages: a visitor is refused (issue 30)
        assert client.get(path).status_code == 403, path
    assert client.get("/tables/nope").status_code == 404
    english = client.get("/?lang=en")
    assert "Tables by game" in english.text and english.cookies.get("tapete_lang") == "en"
    assert "Mesas por juego" in client.get("/", headers={"cookie": "tapete_lang=es", "accept-language": "en"}).text


def test_a_poker_bet_is_a_decision_not_a_new_bet() -> None:
    """The pages list a circle hand's `bet` among the decisions (it names the hand), and craps odds (a new
    bet with a kind, on a line bet) among the bet kinds."""
    from tapete.engine.game import Action
    from tapete.server.tables.service import is_table_verb

    assert not is_table_verb(Action(verb="bet", bet="b2", minimum=200, maximum=19900))
    assert is_table_verb(Action(verb="bet", kind="odds", bet="b1"))
    assert is_table_verb(Action(verb="bet", kind="straight"))
    assert is_table_verb(Action(verb="deal"))
