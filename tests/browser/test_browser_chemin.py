"""Chemin de fer in the browser, at a live table whose croupier keys the cards: Luis takes the bank from his
wallet on the table page, Ana stakes against it on hers (by taps, on a phone), the punto's 5 is Ana's choice
(she asks for a card, at her hand), the bank's draw is Luis's (he stands, at his), and the bank — with its
winnings less the cagnotte — carries. The page is games/chemin.js: the bank by seat, the hands with their
points, the coup in words, *banco* for the whole bank."""

from __future__ import annotations

import re
from typing import Any

PHONE = {"width": 390, "height": 844}
BET_ID = re.compile(r"\bb\d+\b")


def serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    return [v["id"] for v in Axe().run(page).response["violations"] if v.get("impact") in ("serious", "critical")]


def plain(page: Any) -> None:
    text = page.locator("body").inner_text()
    assert "{" not in text and not BET_ID.search(text), text[:400]
    assert int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) <= 0
    assert serious(page) == []


def test_chemin_de_fer_coup(server: Any, people: Any, shot: Any) -> None:
    server.call("cajero", "POST", "/api/cashier/deposit", {"user": "ana", "amount": 50_000, "memo": "chemin"})
    server.call("croupier", "POST", "/api/tables/chemin/open")
    luis_wallet = server.call("luis", "GET", "/api/me")["balance"]

    luis = people("luis")
    banker = luis.open("/tables/chemin")
    banker.wait_for_selector("#phase[data-phase='betting']")
    assert "No bank" in banker.locator("#ch-bank").inner_text()
    banker.locator(".ch-seat[data-seat='1']").click()
    banker.locator("#ch-bank-in").fill("200")
    banker.locator("#ch-take-bank").click()                              # the bank: €200 from Luis's wallet
    banker.wait_for_selector("#ch-bank[data-mine='1'] strong[data-cents='20000']")
    assert banker.locator("#ch-bank").inner_text() == "You hold the bank: €200.00"
    assert server.call("luis", "GET", "/api/me")["balance"] == luis_wallet - 20_000

    ana = people("ana", viewport=PHONE)
    punto = ana.open("/tables/chemin")
    punto.wait_for_selector("#ch-bank strong[data-cents='20000']")
    assert punto.locator("#ch-bank").inner_text() == "Bank held by Seat 1: €200.00"    # a seat, never a login name
    assert punto.locator("#ch-spots [data-call='banco']").inner_text() == "Banco: €200.00"   # the whole bank
    plain(punto)
    punto.locator(".ch-seat[data-seat='2']").tap()
    punto.get_by_role("radio", name="Chip €50.00").tap()
    punto.locator("#ch-spots .spot[data-kind='player']").tap()           # Ana stakes €50 against the bank
    punto.wait_for_selector("#ch-spots .spot[data-kind='player'].has-stake")
    assert server.call("ana", "GET", "/api/me")["balance"] == 45_000

    # punto 2♦ 3♣ = 5, bank 4♠ 2♥ = 6; the punto's third card would be the 10♣
    server.call("croupier", "POST", "/api/tables/chemin/close", {"cards": ["2D", "4S", "3C", "2H", "TC", "9S"]})
    punto.wait_for_selector("button.verb[data-by='player'][data-verb='draw']")
    assert banker.locator("button.verb[data-by='player']").count() == 0        # the punto's choice is Ana's alone
    assert punto.locator(".side-hand.punto .points").inner_text() == " · 5 points"
    assert punto.locator(".side-hand.banca .pcard.back").count() == 2          # the bank's cards: face down to her
    assert "ask for a card or stand" in punto.locator(".side-hand.punto .pk-decide").inner_text()
    plain(punto)
    punto.locator("button.verb[data-by='player'][data-verb='draw']").tap()

    banker.wait_for_selector("button.verb[data-by='bank'][data-verb='stand']")
    # the punto drew the 10♣ face up: the banker sees it (and his own two cards) before he decides
    banker.wait_for_function("document.querySelectorAll('#ch-coup .pcard').length >= 5")
    assert banker.locator(".side-hand.banca .points").inner_text() == " · 6 points"
    shot(banker, "table-chemin")
    banker.locator("button.verb[data-by='bank'][data-verb='stand']").click()

    banker.wait_for_selector("#phase[data-phase='settled']")
    # the bank's 6 beats the punto's 5: Ana's €50 goes to the bank, less the 5 % cagnotte (€2.50)
    banker.wait_for_selector("#ch-bank strong[data-cents='24750']")
    assert server.call("ana", "GET", "/api/me")["balance"] == 45_000
    assert server.call("luis", "GET", "/api/me")["balance"] == luis_wallet - 20_000    # the bank carries
    summary = server.call("luis", "GET", "/api/tables/chemin")
    assert summary["bank"]["active"] and summary["bank"]["holding"] == 24_750
    assert server.call("inspector", "GET", "/api/ledger")["ok"]
    punto.wait_for_selector("#phase[data-phase='settled']")
    punto.wait_for_selector("#ch-result:not(:empty)")
    assert punto.locator("#ch-result").inner_text() == "Punto (player) has 5, the bank 6: the bank wins."
    assert punto.locator("#ch-coup .pcard.back").count() == 0                   # every card on the table, face up
    punto.wait_for_selector("#last-result .settle-lines li")
    assert "stake €50.00, returned €0.00, net −€50.00" in punto.locator("#last-result").inner_text()
    shot(punto, "phone-table-chemin-settled")
    plain(punto)
