"""Chemin de fer in the browser, at a live table whose croupier keys the cards: Luis takes the bank from his
wallet on the table page, Ana stakes against it on hers, the punto's 5 is Ana's choice (she asks for a card),
the bank's draw is Luis's (he stands), and the bank — with its winnings less the cagnotte — carries."""

from __future__ import annotations

from typing import Any


def place(page: Any, kind: str, euros: str, extra: str) -> None:
    page.wait_for_selector(f"#g-kind option[value='{kind}']", state="attached")
    page.locator("#g-kind").select_option(kind)
    page.locator("#g-amount").fill(euros)
    field, number = extra.split("=")
    page.locator(f"#g-{field}").select_option(number)
    page.locator("#g-place").click()
    page.wait_for_selector("#my-bets li[data-bet]")


def test_chemin_de_fer_coup(server: Any, people: Any, shot: Any) -> None:
    server.call("cajero", "POST", "/api/cashier/deposit", {"user": "ana", "amount": 50_000, "memo": "chemin"})
    server.call("croupier", "POST", "/api/tables/chemin/open")
    luis_wallet = server.call("luis", "GET", "/api/me")["balance"]

    luis = people("luis")
    banker = luis.open("/tables/chemin")
    banker.wait_for_selector("#phase[data-phase='betting']")
    assert "No bank" in banker.locator("#g-bank").inner_text()
    place(banker, "bank", "200", "seat=1")                              # the bank: €200 from Luis's wallet
    banker.wait_for_function("document.getElementById('g-bank').textContent.includes('luis')")
    assert server.call("luis", "GET", "/api/me")["balance"] == luis_wallet - 20_000

    ana = people("ana")
    punto = ana.open("/tables/chemin")
    punto.wait_for_selector("#g-bank strong[data-cents='20000']")
    place(punto, "player", "50", "seat=2")                              # Ana stakes €50 against the bank
    assert server.call("ana", "GET", "/api/me")["balance"] == 45_000

    # punto 2♦ 3♣ = 5, bank 4♠ 2♥ = 6; the punto's third card would be the 10♣
    server.call("croupier", "POST", "/api/tables/chemin/close", {"cards": ["2D", "4S", "3C", "2H", "TC", "9S"]})
    punto.wait_for_selector("button.verb[data-by='player'][data-verb='draw']")
    assert banker.locator("button.verb[data-by='player']").count() == 0        # the punto's choice is Ana's alone
    punto.locator("button.verb[data-by='player'][data-verb='draw']").click()

    banker.wait_for_selector("button.verb[data-by='bank'][data-verb='stand']")
    # the punto drew the 10♣ face up: the banker sees it (and his own two cards) before he decides
    banker.wait_for_function("document.querySelectorAll('#g-cards .pcard, #g-cards .card').length >= 5")
    shot(banker, "table-chemin")
    banker.locator("button.verb[data-by='bank'][data-verb='stand']").click()

    banker.wait_for_selector("#phase[data-phase='settled']")
    # the bank's 6 beats the punto's 5: Ana's €50 goes to the bank, less the 5 % cagnotte (€2.50)
    banker.wait_for_selector("#g-bank strong[data-cents='24750']")
    assert server.call("ana", "GET", "/api/me")["balance"] == 45_000
    assert server.call("luis", "GET", "/api/me")["balance"] == luis_wallet - 20_000    # the bank carries
    summary = server.call("luis", "GET", "/api/tables/chemin")
    assert summary["bank"]["active"] and summary["bank"]["holding"] == 24_750
    assert server.call("inspector", "GET", "/api/ledger")["ok"]
    punto.wait_for_selector("#phase[data-phase='settled']")
    assert "stake €50.00, returned €0.00, net −€50.00" in punto.locator("#last-result").inner_text()
