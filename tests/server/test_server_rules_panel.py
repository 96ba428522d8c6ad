"""Issue 31, items 4 and 5 on the server side: every player's table page carries a rules panel in the page's
language, built from the game's rules data (what each bet pays, the limits per kind of bet, the blinds, what each
decision means, the time), each line citing its article; the bets named in the player's words; the lobby says
where a table's rules come from and how it draws in words, not in codes."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

from tapete.catalog import get_game
from tapete.server.http.web import rules_panel, strings

TABLES = [
    {"id": "ruleta", "game": "roulette-french", "jurisdiction": "ES-AN", "auto": False, "source": "croupier",
     "table": {"minimum": 100}},
    {"id": "bj", "game": "blackjack", "jurisdiction": "ES", "auto": True, "table": {"minimum": 500},
     "timing": {"bets": 25, "act": 15}},
    {"id": "pb", "game": "punto-banca", "jurisdiction": "ES", "auto": False, "source": "croupier", "table": {"minimum": 1000}},
    {"id": "pb-an", "game": "punto-banca", "jurisdiction": "ES-AN", "auto": False, "source": "croupier",
     "table": {"minimum": 1000}},
    {"id": "dados", "game": "craps", "jurisdiction": "ES", "auto": False, "source": "croupier", "table": {"minimum": 100}},
    {"id": "holdem", "game": "holdem", "jurisdiction": "ES-AN", "auto": False, "table": {"minimum": 200, "forced": "blinds"}},
]
LANGS = ("es", "en", "gl", "ca")


def panel_text(page: str) -> str:
    m = re.search(r'<section class="rules-panel".*?</section>', page, re.S)
    assert m, "no rules panel on the page"
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", m.group(0))))


@pytest.fixture
def casino(make_casino: Any, sqlite_url: str) -> Any:
    return make_casino(TABLES, sqlite_url)


@pytest.mark.parametrize("lang", LANGS)
def test_every_table_page_has_its_rules_panel_in_the_page_language(casino: Any, lang: str) -> None:
    t = strings(lang)
    for table in TABLES:
        page = casino.client.get(f"/tables/{table['id']}?lang={lang}").text
        text = panel_text(page)
        assert t["rules_title"] in text, (lang, table["id"])
        assert "null" not in text and "None" not in text and "undefined" not in text, (lang, table["id"], text)


def test_roulette_panel_pays_and_limits_per_kind_with_the_straight_up_maximum(casino: Any) -> None:
    text = panel_text(casino.client.get("/tables/ruleta?lang=es").text)
    assert "Pleno paga 35:1" in text and "Caballo paga 17:1" in text
    # the engine's per-kind maximum at a 1 € table in ES-AN (003:328-352): the straight-up limit is on the page
    layout = casino.client.get("/api/tables/ruleta/layout").json()["bets"]
    straight = next(k for k in layout if k["kind"] == "straight")
    assert straight["maximum"] == 3000
    assert "Pleno de 1,00 € a 30,00 €" in text
    assert "(003:328-352)" in text and "Límites máximos y mínimos" in text         # the article, as tapete cite says
    assert "Tipos de apuestas (003:" in text
    assert "En prisión" in text and "Retirar la mitad" in text and "prisión" in text   # what a zero's choice means
    assert "siguiente tirada" in text                                               # what happens if he does not choose
    en = panel_text(casino.client.get("/tables/ruleta?lang=en").text)
    assert "Straight up pays 35:1" in en and "Straight up €1.00 to €30.00" in en


def test_blackjack_panel_decisions_and_time(casino: Any) -> None:
    text = panel_text(casino.client.get("/tables/bj?lang=es").text)
    assert "Black Jack (as y carta de diez) paga 3:2" in text and "(001:288)" in text
    assert "Seguro paga 2:1" in text and "(001:294)" in text
    assert "Apuesta en la casilla de 5,00 € a" in text and "main" not in text
    assert "Doblar doblar la apuesta y recibir una sola carta más" in text and "(001:308)" in text
    assert "Abandonar" not in text                       # no surrender in the national catalog (001:268-308 absent)
    assert "tiene 25 segundos" in text and "tiene 15 segundos para cada decisión" in text and "se planta" in text
    gl = panel_text(casino.client.get("/tables/bj?lang=gl").text)
    ca = panel_text(casino.client.get("/tables/bj?lang=ca").text)
    assert "Aposta na casiña" in gl and "Aposta a la casella" in ca


def test_punto_banca_banker_said_plainly_per_jurisdiction(casino: Any) -> None:
    es = panel_text(casino.client.get("/tables/pb?lang=es").text)
    assert "Banca paga 1:1 menos un 5 % de comisión" in es and "ES-AN" not in es
    an = panel_text(casino.client.get("/tables/pb-an?lang=es").text)
    assert "si la banca gana con 6, paga 1:2" in an and "Empate paga 8:1" in an
    game = get_game("punto-banca")
    assert rules_panel.spot_pays(game, "ES")["banker"] == "1:1 −5 %"                 # the cloth's spot says it short
    assert rules_panel.spot_pays(game, "ES-AN")["banker"] == "1:1 (6: 1:2)"
    page = casino.client.get("/tables/pb?lang=es").text.split('<script type="application/json"', 1)[0]
    assert "less 5%" not in page


def test_craps_panel_every_kind_with_its_payout_in_spanish(casino: Any) -> None:
    text = panel_text(casino.client.get("/tables/dados?lang=es").text)
    for said in ("Pase paga 1:1", "No pase paga 1:1", "Campo (una tirada) paga 1:1, y el doble con 2, 12",
                 "A ganar 9:5 al 4, 10", "A perder 5:11 al 4, 10", "Cuatro números: 2, 3, 11 y 12 (una tirada) paga 4:1",
                 "Cualquier craps: 2, 3 o 12 (una tirada) paga 7:1", "Retirar la apuesta"):
        assert said in text, said
    for english in ("Right Bet", "Wrong Bet", "Horn", "Any Craps", "Field, one roll", "dont pass", "remove"):
        assert english not in text, english
    pays = rules_panel.spot_pays(get_game("craps"), "ES")
    assert pays["place|4"] == "9:5" and pays["horn"] == "4:1" and pays["pass"] == "1:1"


def test_holdem_panel_gives_the_blinds(casino: Any) -> None:
    text = panel_text(casino.client.get("/tables/holdem?lang=es").text)
    assert "ciega pequeña 1,00 €, ciega grande 2,00 €" in text and "(003:5248-5252)" in text


def test_every_kind_of_every_game_has_a_name_in_each_language() -> None:
    from tapete.catalog import all_games

    for lang in LANGS:
        t = strings(lang)
        for game in all_games():
            for k in game.kinds():
                assert rules_panel.kind_label(t, game.id, k.kind) != k.kind.replace("-", " ") or k.kind in (
                    "pick-7", "first-card", "next-suit", "previous-suit", "opposite-suit", "any-suit", "versus"), (lang, game.id, k.kind)


def test_lobby_says_jurisdiction_and_draw_in_words(casino: Any) -> None:
    page = casino.client.get("/?lang=es").text
    body = re.sub(r"<[^>]+>", " ", page.split("<main", 1)[1].split("</main>", 1)[0])
    assert "Andalucía" in body and "Catálogo estatal (1979)" in body
    assert "ES-AN" not in body and "CSPRNG" not in body
    table = casino.client.get("/tables/ruleta?lang=en").text
    assert "Andalusia" in table.split("<h1>", 1)[1].split("</h1>", 1)[0]


def test_a_panel_for_every_game_in_every_jurisdiction_and_language() -> None:
    """The builder reads any game's rules without a hand-written case: no game or catalog makes it fail."""
    from types import SimpleNamespace

    from tapete.catalog import all_games
    from tapete.i18n import money
    from tapete.server.config import Timing

    spec = SimpleNamespace(auto=True, timing=Timing(), table={"minimum": 100})
    for game in all_games():
        for jurisdiction in game.rules:
            for lang in LANGS:
                panel = rules_panel.build(game, jurisdiction, spec, [], strings(lang), lambda c, lang=lang: money(lang, c))
                assert panel.title == strings(lang)["rules_title"]
                for row in panel.pays + panel.decisions:
                    assert row.text and "None" not in row.text, (game.id, jurisdiction, row)


@pytest.mark.parametrize(("lang", "said"), [("gl", "A gañar 9:5 ao 4, 10"), ("ca", "A guanyar 9:5 al 4, 10")])
def test_craps_panel_in_galician_and_catalan(casino: Any, lang: str, said: str) -> None:
    text = panel_text(casino.client.get(f"/tables/dados?lang={lang}").text)
    assert said in text
    for english in ("Right Bet", "Wrong Bet", "Horn", "Any Craps", "one roll", "remove"):
        assert english not in text, (lang, english)


def test_punto_banca_view_carries_the_totals_the_engine_counts(casino: Any) -> None:
    casino.post("croupier", "/api/tables/pb/open", key=None)
    casino.bet("luis", "pb", {"kind": "player", "amount": 1000})
    casino.post("croupier", "/api/tables/pb/close", {"cards": ["8S", "8H", "6D", "3C", "TD", "9C", "TH"]})
    view = casino.get("luis", "/api/tables/pb/view")
    coup = (view["state"] or {}).get("coups", [None])[-1] or view["recent"][0]["coups"][-1]
    assert (coup["player_total"], coup["bank_total"], coup["winner"]) == (4, 0, "player")
