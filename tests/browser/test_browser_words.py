"""Issue 31, items 4-6 and 9 in the browser: what the player's table pages say. Every table page, in Spanish and
in English, at 390x844 and 1280x800, with its rules panel open: no `null`/`undefined`, no bet id, no amount left in
cents, no engine or jurisdiction code, no English bet name on a Spanish page nor a Spanish one on an English page.
The rules panel reached by keyboard and read on a phone; the craps spots in Spanish with their payout; the
blackjack hint following the hand (cards as ♥♣) and the dealer's bust in words; "You sit", "1 second"; a void
that says what happens; a zero's half back reported against the zero's round."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.browser.conftest import TABLES

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
PAGES = [t["id"] for t in TABLES]
CODES = re.compile(r"\b(?:null|undefined|NaN|ES-AN|ES-IB|ES-GA|CSPRNG|main|dont[- ]pass|dont[- ]come|place-to-lose|"
                   r"six-line|two-dozens|two-columns|any-craps|any-seven|big-[68]|under-7|over-7|hardway|zero-sector)\b")
BET_ID = re.compile(r"\bb\d+\b")
ENGLISH_BETS = re.compile(r"Right Bet|Wrong Bet|Horn|Any Craps|Field|one roll|Don't|Straight up|Box stake|Pass line|"
                          r"Place to|Banker|Player\b|Split\b|Corner|Six line|Dozen|Column\b|less 5%|true odds")
SPANISH_BETS = re.compile(r"Pleno|Caballo|Seisena|Docena|Apuesta en la casilla|No pase|A ganar|A perder|una tirada|"
                          r"Cualquier craps|Suerte asociada|Gran 6|Falta \(|Pasa \(")


def sideways(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def visible_words(page: Any) -> str:
    """What the player reads with the rules panel open (the page data and scripts are not text)."""
    page.evaluate("document.getElementById('rules-details') && (document.getElementById('rules-details').open = true)")
    return page.locator("body").inner_text()


@pytest.fixture(scope="module")
def scene(server: Any) -> Any:
    call = server.call
    call("cajero", "POST", "/api/cashier/deposit", {"user": "ana", "amount": 50_000, "memo": "words"})
    for table in ("ruleta", "dados", "pb", "tq", "tripoker", "monte", "bola", "fortuna", "ruleta-ib"):
        call("croupier", "POST", f"/api/tables/{table}/open")
    call("luis", "POST", "/api/tables/ruleta/bets", {"bets": [{"kind": "straight", "on": [17], "amount": 500}]})
    call("luis", "POST", "/api/tables/dados/bets", {"bets": [{"kind": "pass", "amount": 1000}]})
    call("luis", "POST", "/api/tables/pb/bets", {"bets": [{"kind": "banker", "amount": 1000}]})
    return server


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_every_table_page_says_words_not_codes(scene: Any, people: Any, shot: Any, size: dict[str, int], lang: str) -> None:
    luis = people("luis", lang=lang, viewport=size)
    for table in PAGES:
        page = luis.open(f"/tables/{table}?lang={lang}")
        page.wait_for_timeout(150)
        assert page.locator("#rules-details").count() == 1, table
        text = visible_words(page)
        assert not CODES.search(text), (table, lang, CODES.search(text), text[:600])
        assert not BET_ID.search(text), (table, lang, BET_ID.search(text))
        wrong = ENGLISH_BETS if lang == "es" else SPANISH_BETS
        assert not wrong.search(text), (table, lang, wrong.search(text))
        raw = page.evaluate("[...document.querySelectorAll('.money')].map((n) => n.textContent).filter((s) => !s.includes('€'))")
        assert raw == [], (table, raw)                                         # every amount in euros, none in cents
        assert sideways(page) <= 0, (table, size)
        if table in ("ruleta", "dados", "bj", "pb"):
            shot(page, f"words-{lang}-{size['width']}-{table}")
    lobby = luis.open(f"/?lang={lang}").locator("main").inner_text()
    assert "ES-AN" not in lobby and "CSPRNG" not in lobby and "Andalu" in lobby


@pytest.mark.parametrize("lang", ["gl", "ca"])
def test_galician_and_catalan_pages_say_words_not_codes(scene: Any, people: Any, lang: str) -> None:
    luis = people("luis", lang="es", viewport=PHONE)
    for table in PAGES:
        page = luis.open(f"/tables/{table}?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        text = visible_words(page)
        assert not CODES.search(text), (table, lang, CODES.search(text))
        assert not BET_ID.search(text) and not ENGLISH_BETS.search(text), (table, lang, ENGLISH_BETS.search(text))
        assert sideways(page) <= 0, (table, lang)


def test_rules_panel_by_keyboard_and_readable_on_a_phone(scene: Any, people: Any, tab_until: Any, shot: Any) -> None:
    ana = people("ana", lang="es", viewport=PHONE)
    page = ana.open("/tables/ruleta?lang=es")
    tab_until(page, "e.tagName === 'SUMMARY'")
    page.keyboard.press("Enter")
    assert page.locator("#rules-details").get_attribute("open") is not None
    panel = page.locator("#rules")
    text = panel.inner_text()
    assert "Pleno" in text and "paga 35:1" in text and "30,00 €" in text            # the straight-up maximum, in euros
    assert "(003:" in text and "Límites" in text                                   # each line cites its article
    assert "En prisión" in text and "Retirar la mitad" in text
    box = panel.bounding_box()
    assert box is not None and box["width"] <= PHONE["width"] and sideways(page) <= 0
    panel.scroll_into_view_if_needed()
    shot(page, "phone-rules-panel-ruleta")


def test_craps_spots_in_spanish_with_their_payout(scene: Any, people: Any) -> None:
    luis = people("luis", lang="es")
    page = luis.open("/tables/dados?lang=es")
    assert page.locator(".spot[data-kind='pass']").get_attribute("data-label") == "Pase — paga 1:1"
    assert page.locator(".spot[data-kind='place'][data-on='4'] .pays").inner_text() == "9:5"
    assert page.locator(".spot[data-kind='place-to-lose'][data-on='6'] .pays").inner_text() == "4:5"
    assert page.locator(".spot[data-kind='horn'] .pays").inner_text() == "4:1"
    assert "Cuatro números" in page.locator(".spot[data-kind='horn']").inner_text()
    labels = page.locator(".spot").evaluate_all("(ns) => ns.map((n) => n.getAttribute('aria-label')).join(' | ')")
    assert not ENGLISH_BETS.search(labels), ENGLISH_BETS.search(labels)
    assert "Pase" in page.locator("#my-bets").inner_text()


def test_banker_spot_and_my_bets_plain(scene: Any, people: Any) -> None:
    luis = people("luis", lang="es")
    page = luis.open("/tables/pb?lang=es")
    spot = page.locator(".spot[data-kind='banker'] .spot-text").inner_text()
    assert spot == "Banca · 1:1 −5 %", spot                                  # 001:634, said short on the cloth
    assert "Banca" in page.locator("#my-bets").inner_text()


def test_punto_banca_hands_with_their_totals(scene: Any, people: Any) -> None:
    ana = people("ana", lang="es")
    page = ana.open("/tables/pb?lang=es")
    # punto 8♠ 6♦ (4), banca 8♥ 3♣ (1); third cards 10♦ to the punto, 9♣ to the banca: punto 4 beats 0
    scene.call("croupier", "POST", "/api/tables/pb/close", {"cards": ["8S", "8H", "6D", "3C", "TD", "9C", "TH"]})
    page.wait_for_selector(".coup[data-winner='player']")
    page.wait_for_function("document.getElementById('coup-result').textContent !== ''")
    assert page.locator("#coup-result").inner_text() == "Gana el punto, 4 a 0"
    assert page.locator("#punto-total").inner_text() == "4" and page.locator("#banca-total").inner_text() == "0"


def test_blackjack_hint_follows_the_hand_and_the_dealers_bust_in_words(scene: Any, people: Any) -> None:
    server = scene
    server.call("croupier", "POST", "/api/tables/bj/open")
    luis = people("luis")
    page = luis.open("/tables/bj")
    page.wait_for_selector("#phase[data-phase='betting']")
    page.get_by_role("radio", name="Chip €5.00").click()
    page.get_by_role("button", name="Bet on Box 1").click()
    page.wait_for_selector("#my-bets li[data-bet]")
    assert "Box stake" in page.locator("#my-bets").inner_text()
    # box 1: 10♠ 2♥ (12) against the dealer's 2♦: hit; the 3♣ makes 15: stand; the dealer draws 10♦ K♥: 22, bust
    server.call("croupier", "POST", "/api/tables/bj/close", {"cards": ["TS", "2D", "2H", "3C", "TD", "KH"]})
    page.wait_for_selector("button.verb[data-verb='hit']")
    page.get_by_role("button", name="Strategy hint (Box 1)").click()
    page.wait_for_selector(".hint-text[data-advice='hit']", timeout=180_000)     # the chart is derived once, cold
    hint = page.locator(".hint-text").inner_text()
    assert "10♠ 2♥ / 2♦" in hint and "TS" not in hint
    page.locator("button.verb[data-verb='hit']").first.click()
    page.wait_for_selector(".hint-text[data-advice='stand']")                    # asked again after the card
    assert "10♠ 2♥ 3♣" in page.locator(".hint-text").inner_text()
    page.locator("button.verb[data-verb='stand']").first.click()
    page.wait_for_selector("#phase[data-phase='settled']")
    page.wait_for_function("!document.querySelector('.hint-text')")              # gone once nothing is due
    dealer = page.locator("#dealer-total")
    assert dealer.get_attribute("data-total") == "22"
    assert dealer.inner_text().strip() == "The dealer busts"
    assert "22" not in page.locator("#dealer-cards").inner_text()


def test_you_sit_and_one_second_in_each_language(scene: Any, people: Any) -> None:
    luis = people("luis")
    page = luis.open("/tables/holdem")
    page.get_by_label("Buy-in (€)").fill("100")
    page.get_by_role("button", name="Sit at seat 2").click()
    page.wait_for_selector("#live li[data-kind='sit']")
    said = page.locator("#live li[data-kind='sit']").first.inner_text()
    assert said == "You sit at seat 2", said
    forms = page.evaluate("""async () => { const app = await import('/static/app.js');
      return [app.plural('seconds_left', 1), app.plural('seconds_left', 2)]; }""")
    assert forms == ["1 second left", "2 seconds left"]
    ana = people("ana", lang="es")
    page = ana.open("/tables/ruleta?lang=es")
    forms = page.evaluate("""async () => { const app = await import('/static/app.js');
      return [app.plural('seconds_left', 1), app.plural('seconds_left', 5)]; }""")
    assert forms == ["1 segundo", "5 segundos"]


def test_a_void_says_what_happens_to_the_stakes(scene: Any, people: Any) -> None:
    server = scene
    luis = people("luis")
    page = luis.open("/tables/ruleta-ib")
    page.wait_for_selector("#phase[data-phase='betting']")
    server.call("luis", "POST", "/api/tables/ruleta-ib/bets", {"bets": [{"kind": "red", "amount": 500}]})
    server.call("croupier", "POST", "/api/tables/ruleta-ib/close")
    server.call("croupier", "POST", "/api/tables/ruleta-ib/outcome", {"value": 20})
    server.call("jefe", "POST", "/api/tables/ruleta-ib/void", {"reason": "ball-out"})
    page.wait_for_selector("#live li[data-kind='void']")
    page.wait_for_selector("#live li[data-kind='phase']")
    feed = page.locator("#live").inner_text()
    assert "Round voided by the table chief" in feed
    assert "The spin is relaunched: the bets stay on the cloth" in feed           # the roulette stake rides
    assert "every stake goes back" not in feed
    void_line = page.locator("#live li[data-kind='void']").first.inner_text()
    assert void_line == "Round voided by the table chief: “the ball left the wheel”"   # the chief's cause, in words
    page.wait_for_function("document.querySelectorAll('#my-bets li[data-bet]').length === 1")   # the red bet rides


def test_a_zeros_half_back_is_reported_against_the_zeros_round(scene: Any, people: Any) -> None:
    server = scene
    if server.call("luis", "GET", "/api/tables/ruleta")["phase"] != "betting":
        server.call("croupier", "POST", "/api/tables/ruleta/open")
    server.call("luis", "POST", "/api/tables/ruleta/bets", {"bets": [{"kind": "red", "amount": 1000}]})
    server.call("croupier", "POST", "/api/tables/ruleta/outcome", {"value": 0})
    server.call("croupier", "POST", "/api/tables/ruleta/confirm")
    zero_round = server.call("luis", "GET", "/api/tables/ruleta")["round"]
    server.call("croupier", "POST", "/api/tables/ruleta/open")
    luis = people("luis")
    page = luis.open("/tables/ruleta")
    half = page.locator("button.verb[data-verb='half']")
    half.wait_for()
    half.click()
    page.wait_for_selector("#last-result h3")
    title = page.locator("#last-result h3").inner_text()
    assert title == f"Result of your bet of round {zero_round}", title
