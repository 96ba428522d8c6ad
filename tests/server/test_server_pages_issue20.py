"""Issue 20 on the server side of the pages: the croupier's open obeys the opening hours the players' bets
obey; the lobby's public stream carries no private data; every catalog language renders the pages."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest

ROULETTE = {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES", "auto": False, "table": {"minimum": 100}}


def closed_hours() -> list[str]:
    """A one-minute window three hours from now, in the casino's time zone (Europe/Madrid, the default)."""
    start = datetime.now(ZoneInfo("Europe/Madrid")) + timedelta(hours=3)
    end = start + timedelta(minutes=1)
    return [f"{start:%H:%M}-{end:%H:%M}"]


def test_console_cannot_open_a_round_outside_opening_hours(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([{**ROULETTE, "hours": closed_hours()}], sqlite_url)
    r = c.client.post("/api/tables/ruleta/open", headers=c.login("croupier"), json={})
    assert r.status_code == 409 and r.json()["error"]["code"] == "table-closed"
    assert c.get("luis", "/api/tables/ruleta")["phase"] == "idle"


def test_console_opens_within_hours(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([ROULETTE], sqlite_url)
    assert c.post("croupier", "/api/tables/ruleta/open", key=None)["phase"] == "betting"


def test_lobby_stream_is_public_and_carries_no_private_data(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([ROULETTE], sqlite_url)
    with c.client.websocket_connect("/api/lobby/stream") as ws:    # no session: a visitor
        row = ws.receive_json()
        assert set(row) == {"id", "phase", "round", "seconds_left", "open_now", "seats_free"}
        assert row["id"] == "ruleta" and row["phase"] == "idle"
        c.post("croupier", "/api/tables/ruleta/open", key=None)
        c.bet("luis", "ruleta", {"kind": "red", "amount": 500})
        row = ws.receive_json()
        assert row["phase"] == "betting"
        assert "luis" not in str(row)


@pytest.mark.parametrize(("lang", "title"), [("gl", "Mesas por xogo"), ("ca", "Taules per joc"), ("en", "Tables by game")])
def test_pages_in_every_catalog_language(make_casino: Any, sqlite_url: str, lang: str, title: str) -> None:
    c = make_casino([ROULETTE], sqlite_url)
    for path in ("/", "/login", "/tables/ruleta", "/croupier/ruleta", "/cashier", "/inspector"):
        html = c.client.get(f"{path}?lang={lang}").text
        assert f'<html lang="{lang}">' in html, path
    assert title in c.client.get(f"/?lang={lang}").text


def test_staff_links_hidden_until_a_staff_session_shows_them(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([ROULETTE], sqlite_url)
    html = c.client.get("/?lang=en").text
    for link in ('href="/cashier"', 'href="/inspector"', 'href="/croupier/ruleta"'):
        tag = html[html.rindex("<a", 0, html.index(link)):html.index(">", html.index(link))]
        assert " hidden" in tag, tag


def test_catalog_languages_have_every_web_key() -> None:
    from tapete.i18n import _file

    english = set(_file("en", "web"))
    for lang in ("es", "gl", "ca"):
        assert english - set(_file(lang, "web")) == set(), lang


def test_finished_tripoker_coup_shows_the_croupiers_hand_not_the_shoe(make_casino: Any, sqlite_url: str) -> None:
    """After the coup the page reads the croupier's three cards (face up, combination named) and the player's
    own box; another player's box stays hidden and the round record keeps no undealt card of the shoe."""
    c = make_casino([{"id": "tp", "game": "tripoker", "jurisdiction": "ES-AN", "source": "rng", "auto": False,
                      "table": {"minimum": 500}}], sqlite_url)
    c.post("croupier", "/api/tables/tp/open", key=None)
    c.bet("luis", "tp", {"kind": "ante", "amount": 500, "extra": {"box": 1}})
    c.bet("ana", "tp", {"kind": "ante", "amount": 500, "extra": {"box": 2}})
    c.post("croupier", "/api/tables/tp/close")
    for user in ("luis", "ana"):
        due = [d for d in c.get(user, "/api/tables/tp")["actions"]["decisions"] if d.get("mine")]
        if due:
            c.post(user, "/api/tables/tp/acts", {"bet": due[0]["bet"], "do": "call"})
    view = c.get("luis", "/api/tables/tp/view")
    assert view["phase"] == "settled"
    coup = view["recent"][0]
    hands = coup["round"]["hands"]
    assert "??" not in hands["croupier"] and "??" not in hands["1"] and hands["2"] == ["??"] * 3
    assert set(coup["named"]) == {"croupier", "1"}
    rounds = c.get("inspector", "/api/rounds?table=tp")
    record = c.get("inspector", f"/api/rounds/{rounds['rounds'][0]['id']}")
    shoe = (record.get("record") or record).get("coup", {}).get("shoe")
    assert isinstance(shoe, dict) and set(shoe) == {"dealt", "remaining"}


def test_lobby_stream_is_bounded(make_casino: Any, sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby stream needs no session: past its bound a watcher is told busy (1013), not served."""
    from starlette.websockets import WebSocketDisconnect

    import tapete.server.http.web as web

    monkeypatch.setattr(web, "LOBBY_WATCHERS", 1)
    c = make_casino([ROULETTE], sqlite_url)
    with c.client.websocket_connect("/api/lobby/stream") as first:
        assert first.receive_json()["id"] == "ruleta"
        with c.client.websocket_connect("/api/lobby/stream") as second, pytest.raises(WebSocketDisconnect) as closed:
            second.receive_json()
        assert closed.value.code == 1013
    with c.client.websocket_connect("/api/lobby/stream") as again:          # the first one left: room again
        assert again.receive_json()["id"] == "ruleta"


def test_circle_view_carries_the_engines_pots(make_casino: Any, sqlite_url: str) -> None:
    """A hold'em hand in play: the view has its pots as the engine builds them (here one: the blinds)."""
    c = make_casino([{"id": "he", "game": "holdem", "jurisdiction": "ES-AN", "source": "rng", "auto": False,
                      "table": {"minimum": 200, "forced": "blinds"}}], sqlite_url)
    c.post("luis", "/api/tables/he/seats", {"seat": 1, "buy_in": 10_000})
    c.post("ana", "/api/tables/he/seats", {"seat": 2, "buy_in": 10_000})
    c.post("croupier", "/api/tables/he/open", key=None)
    hand = c.get("luis", "/api/tables/he/view")["state"]["hand"]
    assert [p["amount"] for p in hand["pots"]] == [300]                      # the blinds: 100 and 200


def test_limits_show_the_maximum_the_engine_allows(make_casino: Any, sqlite_url: str) -> None:
    """No maximum in the casino file: the pages show the engine's own maximum (the largest of its bet kinds)."""
    c = make_casino([ROULETTE], sqlite_url)
    layout = c.get(None, "/api/tables/ruleta/layout")
    top = max(k["maximum"] for k in layout["bets"] if k.get("maximum"))
    for path in ("/?lang=en", "/tables/ruleta?lang=en"):
        assert f'data-cents="{top}"' in c.client.get(path).text, path
