"""Issue 20 point 2, the banked card games' own table views, in the browser at 1280x800 and 390x844: the banked
poker games (tripóquer, Trijoker, póquer sin descarte, Pai Gow: games/poker.js), Casino Monte (games/monte.js)
and baccara a dos paños (games/chemin.js; chemin de fer in test_browser_chemin.py). Each: no sideways page
scroll on a phone, a bet placed by a tap at phone size, a settled coup with the hands and the net on the
table, no `{` or bet id in what a player reads, axe-core with no serious or critical violation."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
BET_ID = re.compile(r"\bb\d+\b")


def _conftest() -> Any:
    """This folder's conftest as a module of its own (the suite imports in importlib mode): its LiveServer."""
    spec = importlib.util.spec_from_file_location("browser_conftest_banked", Path(__file__).with_name("conftest.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sideways(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations (rule id and the first offending node)."""
    from axe_playwright_python.sync_playwright import Axe

    return [f"{v['id']}: {v['nodes'][0]['target'] if v['nodes'] else ''}" for v in Axe().run(page).response["violations"]
            if v.get("impact") in ("serious", "critical")]


def shown_text(page: Any) -> str:
    return page.locator("body").inner_text()

TABLES: list[dict[str, Any]] = [
    {"id": "tripoker", "name": "Tripóquer", "game": "tripoker", "jurisdiction": "ES-AN", "source": "rng", "auto": False,
     "table": {"minimum": 500}},
    {"id": "trijoker", "name": "Trijoker", "game": "trijoker", "jurisdiction": "ES-AN", "source": "rng", "auto": False,
     "table": {"minimum": 500}},
    {"id": "sd", "name": "Póquer sin descarte", "game": "poker-sin-descarte", "jurisdiction": "ES-AN", "source": "rng",
     "auto": False, "table": {"minimum": 500}},
    {"id": "pg", "name": "Pai Gow", "game": "pai-gow", "jurisdiction": "ES-AN", "source": "rng", "auto": False,
     "table": {"minimum": 500}},
    {"id": "monte", "name": "Casino Monte", "game": "casino-monte", "jurisdiction": "ES-AN", "source": "rng", "auto": False,
     "table": {"minimum": 500}},
    {"id": "sd-buy", "name": "Sin descarte (compra)", "game": "poker-sin-descarte", "jurisdiction": "ES-AN", "source": "rng",
     "auto": False, "table": {"minimum": 500, "card-purchase": True}},
    {"id": "cdf", "name": "Chemin de fer", "game": "chemin-de-fer", "jurisdiction": "ES", "source": "croupier",
     "auto": False, "table": {"minimum": 1000}},
    {"id": "dos", "name": "Baccara a dos paños", "game": "baccarat-two-tables", "jurisdiction": "ES", "source": "croupier",
     "auto": False, "table": {"minimum": 1000}},
]
PAGES = [t["id"] for t in TABLES]
NET = re.compile(r"stake €[\d.,]+, returned €[\d.,]+, net [+−]?€[\d.,]+")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    live = _conftest().LiveServer(tmp_path_factory.mktemp("banked"), TABLES).start()
    live.call("cajero", "POST", "/api/cashier/deposit", {"user": "ana", "amount": 50_000, "memo": "banked"})
    for table in PAGES:
        live.call("croupier", "POST", f"/api/tables/{table}/open")
    yield live
    live.stop()


def plain(page: Any) -> None:
    """What a player reads: no developer text, no sideways scroll, axe clean."""
    text = shown_text(page)
    assert "{" not in text and not BET_ID.search(text), (BET_ID.search(text), text[:500])
    felt = page.locator("#game").inner_text() + page.locator("#live").inner_text()
    assert not re.search(r"\b(?:luis|ana)\b", felt), felt[:400]        # no login name on the table: You, a seat, a player
    assert sideways(page) <= 0
    assert serious(page) == []


def tap_bet(page: Any, box: int, kind: str) -> None:
    page.locator(f".pk-box[data-box='{box}']").tap()
    page.locator(f".pk-spot[data-kind='{kind}'][data-box='{box}']").tap()
    page.wait_for_selector(f".pk-box[data-box='{box}'].mine, .mt-box[data-box='{box}'].mine")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_every_banked_page_fits_reads_plainly_and_passes_axe(server: Any, people: Any, shot: Any, size: dict[str, int]) -> None:
    luis = people("luis", viewport=size)
    for table in PAGES:
        page = luis.open(f"/tables/{table}")
        page.wait_for_timeout(150)
        plain(page)
        assert page.locator("#g-kind").count() == 0, table                      # not the generic form
        shot(page, f"phone-table-{table}" if size is PHONE else f"table-banked-{table}")


def test_tripoker_coup_tapped_on_a_phone_keeps_the_hands_and_names_them(server: Any, people: Any, shot: Any) -> None:
    """A box picked and an ante placed by taps; the croupier's three cards face down while the player decides, then
    kept face up after the coup with each hand's combination named; the box's settlement in the one format."""
    luis = people("luis", viewport=PHONE)
    page = luis.open("/tables/tripoker")
    page.wait_for_selector("#phase[data-phase='betting']")
    page.get_by_role("radio", name="Chip €10.00").tap()
    tap_bet(page, 4, "ante")
    assert page.locator(".pk-spot[data-kind='ante'] .stake").inner_text() == "€10.00"
    assert page.locator(".pk-box[data-box='4'] .pk-box-who").inner_text() == "You · €10.00"
    server.call("croupier", "POST", "/api/tables/tripoker/close")
    page.wait_for_selector(".pk-hand[data-box='4'] button.verb[data-verb='call']")
    assert page.locator(".pk-hand[data-box='4'] .pcard:not(.back)").count() == 3          # my three cards, face up
    assert page.locator("#pk-house .pcard.back").count() == 3                            # the croupier's, face down
    assert page.locator("#decisions button").count() == 0                                # decided at the box
    plain(page)
    page.locator(".pk-hand[data-box='4'] button.verb[data-verb='call']").tap()
    page.wait_for_selector("#phase[data-phase='settled']")
    page.wait_for_selector("#pk-house[data-shown='1']")
    assert page.locator("#pk-house .pcard:not(.back)").count() == 3                     # kept, face up
    assert page.locator("#pk-house").get_attribute("data-combo") != ""
    assert page.locator("#pk-house-combo").inner_text().strip() != ""
    assert page.locator(".pk-hand[data-box='4'] .combo").inner_text().startswith(" — ")
    lines = page.locator(".pk-hand[data-box='4'] .pk-settle li").all_inner_texts()
    assert lines and lines[0].startswith("Ante: stake €20.00") and NET.search(lines[0]), lines
    shot(page, "phone-table-tripoker-settled")
    plain(page)


def test_trijoker_two_decisions_then_the_common_cards(server: Any, people: Any) -> None:
    luis = people("luis", viewport=PHONE)
    page = luis.open("/tables/trijoker")
    page.wait_for_selector("#phase[data-phase='betting']")
    tap_bet(page, 2, "main")
    server.call("croupier", "POST", "/api/tables/trijoker/close")
    page.wait_for_selector(".pk-hand[data-box='2'] button.verb[data-verb='keep']")
    assert "Bet 1:" in page.locator(".pk-hand[data-box='2'] .pk-decide").inner_text()
    assert page.locator("#pk-house .pcard.back").count() == 2                            # the two common cards
    page.locator(".pk-hand[data-box='2'] button.verb[data-verb='withdraw']").tap()
    page.wait_for_function("document.querySelector(\".pk-hand[data-box='2'] .pk-decide\")?.textContent.includes('Bet 2:')")
    page.locator(".pk-hand[data-box='2'] button.verb[data-verb='keep']").tap()
    page.wait_for_selector("#phase[data-phase='settled']")
    page.wait_for_selector("#pk-house[data-shown='1']")
    assert page.locator("#pk-house .pcard:not(.back)").count() == 2
    assert page.locator(".pk-hand[data-box='2']").get_attribute("data-combo") != ""      # three own + two common, named
    line = page.locator(".pk-hand[data-box='2'] .pk-settle li").first.inner_text()
    assert line.startswith("Bets 1, 2 and 3: stake €15.00") and NET.search(line), line
    plain(page)


def test_sin_descarte_shows_the_croupiers_upcard(server: Any, people: Any) -> None:
    luis = people("luis")
    page = luis.open("/tables/sd")
    page.wait_for_selector("#phase[data-phase='betting']")
    page.locator(".pk-box[data-box='5']").click()
    page.locator(".pk-spot[data-kind='ante'][data-box='5']").click()
    page.wait_for_selector(".pk-box[data-box='5'].mine")
    server.call("croupier", "POST", "/api/tables/sd/close")
    page.wait_for_selector(".pk-hand[data-box='5'] button.verb[data-verb='fold']")
    assert page.locator("#pk-house .pcard.back").count() == 4                            # one of five face up
    assert page.locator("#pk-house .pcard:not(.back)").count() == 1
    page.locator(".pk-hand[data-box='5'] button.verb[data-verb='fold']").click()
    page.wait_for_selector("#phase[data-phase='settled']")
    page.wait_for_selector("#pk-house[data-shown='1']")
    assert page.locator("#pk-house .pcard:not(.back)").count() == 5
    line = page.locator(".pk-hand[data-box='5'] .pk-settle li").first.inner_text()
    assert line == "Ante: stake €5.00, returned €0.00, net −€5.00", line                # a fold loses the ante
    plain(page)


def test_pai_gow_player_sets_the_hands_by_tapping(server: Any, people: Any, shot: Any) -> None:
    luis = people("luis", viewport=PHONE)
    page = luis.open("/tables/pg")
    page.wait_for_selector("#phase[data-phase='betting']")
    tap_bet(page, 3, "main")
    server.call("croupier", "POST", "/api/tables/pg/close")
    page.wait_for_selector(".pk-hand[data-box='3'] button.verb[data-verb='set']")
    assert page.locator(".pk-hand[data-box='3'] button.verb[data-verb='set']").is_disabled()
    picks = page.locator(".pk-hand[data-box='3'] .pk-card-pick")
    assert picks.count() == 7
    picks.nth(0).tap()
    picks = page.locator(".pk-hand[data-box='3'] .pk-card-pick")
    picks.nth(1).tap()
    button = page.locator(".pk-hand[data-box='3'] button.verb[data-verb='set']")
    assert button.is_enabled() and "as the small hand" in button.inner_text()
    shot(page, "phone-table-pai-gow-setting")
    button.tap()
    page.wait_for_selector("#phase[data-phase='settled']")
    page.wait_for_selector("#pk-house[data-shown='1']")
    assert page.locator("#pk-house .pcard:not(.back)").count() == 7
    assert page.locator("#pk-house-combo").inner_text().count("hand:") == 2              # big hand and small hand named
    assert "hand:" in page.locator(".pk-hand[data-box='3'] .combo").inner_text()
    assert NET.search(page.locator(".pk-hand[data-box='3'] .pk-settle").inner_text())
    plain(page)


def test_casino_monte_coup_and_the_tie(server: Any, people: Any, shot: Any) -> None:
    """A main bet tapped on a phone: the box's card and the croupier's card shown only once dealt, the net on the
    table; then (a tie drawn by the table's CSPRNG) the rematch / surrender decision as buttons with a sentence."""
    ana = people("ana", viewport=PHONE)
    page = ana.open("/tables/monte")
    page.wait_for_selector("#phase[data-phase='betting']")
    assert page.locator("#mt-croupier .pcard").count() == 0 and page.locator(".mt-card .pcard").count() == 0
    tap_bet(page, 6, "main")
    server.call("luis", "POST", "/api/tables/monte/bets", {"bets": [{"kind": "main", "amount": 500, "extra": {"box": 6}}]})
    page.wait_for_function("document.querySelector(\".mt-box[data-box='6'] .mt-people\").children.length === 2")
    assert page.locator(".mt-box[data-box='6'] .mt-people").inner_text() == "You\nA player (backing the box)"
    answer = server.call("croupier", "POST", "/api/tables/monte/close")
    if answer["phase"] == "acting":                                       # a tie at the first coup: surrender
        page.wait_for_selector(".mt-box[data-box='6'] button.verb[data-verb='surrender']")
        page.locator(".mt-box[data-box='6'] button.verb[data-verb='surrender']").tap()
        if server.call("luis", "GET", "/api/tables/monte")["phase"] == "acting":
            server.call("luis", "POST", "/api/tables/monte/acts", {"bet": answer["due"][-1]["bet"], "do": "surrender"})
    page.wait_for_selector("#phase[data-phase='settled']")
    page.wait_for_selector("#mt-settle li")
    assert page.locator("#mt-croupier .pcard").count() == 1 and page.locator(".mt-box[data-box='6'] .pcard").count() == 1
    line = page.locator("#mt-settle li").first.inner_text()
    assert line.startswith("Box 6 · Main bet: stake €5.00") and NET.search(line), line
    plain(page)
    for _ in range(120):                                                  # play on until the shoe deals a tie
        server.call("croupier", "POST", "/api/tables/monte/open")
        server.call("ana", "POST", "/api/tables/monte/bets", {"bets": [{"kind": "main", "amount": 500, "extra": {"box": 1}}]})
        if server.call("croupier", "POST", "/api/tables/monte/close")["phase"] == "acting":
            break
    else:
        pytest.fail("no tie in 120 coups")
    page.wait_for_selector(".mt-box[data-box='1'] button.verb[data-verb='rematch']")
    sentence = page.locator(".mt-box[data-box='1'] .pk-decide p").inner_text()
    assert sentence.startswith("A tie on your box") and "€5.00" in sentence and "€2.50" in sentence
    shot(page, "phone-table-monte-tie")
    plain(page)
    page.locator(".mt-box[data-box='1'] button.verb[data-verb='rematch']").tap()
    page.wait_for_selector("#phase[data-phase='settled']")
    page.wait_for_selector(".mt-box[data-box='1'] .mt-rematch .pcard")                 # the rematch's cards
    assert page.locator("#mt-croupier .mt-rematch .pcard").count() == 1
    line = page.locator("#mt-settle li").first.inner_text()
    assert line.startswith("Box 1 · Main bet: stake €10.00") and NET.search(line), line    # the rematch staked it again


def test_dos_panos_the_two_tables_a_coup_in_words(server: Any, people: Any, shot: Any) -> None:
    luis = people("luis")
    banker = luis.open("/tables/dos")
    banker.wait_for_selector("#phase[data-phase='betting']")
    banker.locator("#ch-bank-in").fill("500")
    banker.locator("#ch-take-bank").click()
    banker.wait_for_selector("#ch-bank[data-mine='1']")
    assert banker.locator("#ch-bank").inner_text() == "You hold the bank: €500.00"
    ana = people("ana", viewport=PHONE)
    page = ana.open("/tables/dos")
    page.wait_for_selector("#ch-bank strong[data-cents='50000']")
    assert page.locator("#ch-bank").inner_text().startswith("Bank held by Seat 1")         # a seat, not a login name
    page.locator(".ch-seat[data-seat='3']").tap()
    page.get_by_role("radio", name="Chip €20.00").tap()
    page.locator("#ch-spots .spot[data-on='1']").tap()
    page.wait_for_selector("#ch-spots .spot[data-on='1'].has-stake")
    plain(page)
    # side 1: 2♦ 2♥ = 4, side 2: 4♠ 10♣ = 4, bank 3♣ 9♠ = 2; both sides draw: 5♥ to side 1 (9), 6♥ to side 2 (0)
    server.call("croupier", "POST", "/api/tables/dos/close", {"cards": ["2D", "4S", "3C", "2H", "TC", "9S", "5H", "6H", "7H"]})
    banker.wait_for_selector(".side-hand.banca button.verb[data-verb='stand']")
    assert "The bank decides" in banker.locator(".side-hand.banca .pk-decide").inner_text()
    assert banker.locator(".side-hand.side-1 .points").inner_text() == " · 9 points"
    banker.locator(".side-hand.banca button.verb[data-verb='stand']").click()
    page.wait_for_selector("#phase[data-phase='settled']")
    page.wait_for_selector("#ch-result:not(:empty)")
    result = page.locator("#ch-result").inner_text()
    assert result == "Table 1 has 9, the bank 2: Table 1 wins. Table 2 has 0, the bank 2: the bank wins.", result
    page.wait_for_selector("#last-result .settle-lines li")
    assert "stake €20.00, returned €40.00, net +€20.00" in page.locator("#last-result").inner_text()
    shot(page, "phone-table-dos-settled")
    plain(page)


def test_sin_descarte_a_card_bought_by_tapping_it(server: Any, people: Any) -> None:
    """Where the table sells a card (ES-AN, table.card-purchase), the player taps the card he changes, then buys."""
    luis = people("luis", viewport=PHONE)
    page = luis.open("/tables/sd-buy")
    page.wait_for_selector("#phase[data-phase='betting']")
    tap_bet(page, 1, "ante")
    server.call("croupier", "POST", "/api/tables/sd-buy/close")
    page.wait_for_selector(".pk-hand[data-box='1'] button.verb[data-verb='buy']")
    buy = page.locator(".pk-hand[data-box='1'] button.verb[data-verb='buy']")
    assert buy.is_disabled() and "change one card" in page.locator(".pk-hand[data-box='1'] .pk-decide p").inner_text()
    before = server.call("luis", "GET", "/api/tables/sd-buy/view")["state"]["round"]["hands"]["1"]
    page.locator(".pk-hand[data-box='1'] .pk-card-pick").first.tap()
    buy = page.locator(".pk-hand[data-box='1'] button.verb[data-verb='buy']")
    assert buy.is_enabled() and buy.inner_text().startswith("Change the ")
    buy.tap()
    page.wait_for_function("!document.querySelector(\".pk-hand[data-box='1'] button.verb[data-verb='buy']\")")
    acts = server.call("luis", "GET", "/api/tables/sd-buy/view")["state"]["bets"][0]["acts"]
    assert [a["do"] for a in acts] == ["buy"] and len(acts[0]["cards"]) == 1 and len(before) == 5    # one card changed
    page.locator(".pk-hand[data-box='1'] button.verb[data-verb='call']").tap()
    page.wait_for_selector("#phase[data-phase='settled']")
    assert NET.search(page.locator(".pk-hand[data-box='1'] .pk-settle").inner_text())
    plain(page)


def test_chemin_banco_calls_the_whole_bank(server: Any, people: Any) -> None:
    server.call("luis", "POST", "/api/tables/cdf/bets", {"bets": [{"kind": "bank", "amount": 10_000, "extra": {"seat": 1}}]})
    ana = people("ana", viewport=PHONE)
    page = ana.open("/tables/cdf")
    page.wait_for_selector("#ch-spots [data-call='banco']")
    assert page.locator("#ch-spots [data-call='banco']").inner_text() == "Banco: €100.00"
    assert page.locator("#ch-spots [data-call='banco-with-table']").inner_text() == "Banco con la mesa (half): €50.00"
    page.locator(".ch-seat[data-seat='4']").tap()
    page.locator("#ch-spots [data-call='banco']").tap()
    page.wait_for_selector("#ch-spots .spot[data-kind='player'].has-stake")
    stakes = server.call("croupier", "GET", "/api/tables/cdf/view")["state"]["stakes"]
    assert [(s["amount"], s["seat"], s["call"]) for s in stakes] == [(10_000, 4, "banco")]    # the whole bank, called
    plain(page)
