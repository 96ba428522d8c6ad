"""Card tables in the browser, dealt from cards the croupier keys at a live table (deterministic): a
blackjack hand split into two (with the strategy hint asked on the way), a blackjack hand played from
the keyboard alone, and a punto y banca coup."""

from __future__ import annotations

from typing import Any


def test_blackjack_split(server: Any, people: Any) -> None:
    server.call("croupier", "POST", "/api/tables/bj/open")
    luis = people("luis")
    page = luis.open("/tables/bj")
    page.wait_for_selector("#phase[data-phase='betting']")
    start = server.call("luis", "GET", "/api/me")["balance"]
    page.get_by_role("radio", name="Chip €10.00").click()
    page.get_by_role("button", name="Bet on Box 3").click()
    page.wait_for_selector("#my-bets li[data-bet]")
    assert page.locator(".box[data-box='3'] .box-spot .stake").inner_text() == "€10.00"

    croupier = people("croupier")
    console = croupier.open("/croupier/bj")
    # box 3: 8♠ 8♥ against the dealer's 6♦; then 3♣ and T♦ to the first hand, 9♣ to the second, dealer T♥ 7♠
    console.get_by_label("Cards to deal (e.g. 8S 8H 6D)").fill("8S 6D 8H 3C TD 9C TH 7S")
    console.get_by_role("button", name="No more bets (close)").click()
    console.wait_for_selector("#phase[data-phase='acting']")
    assert console.locator("#shoe-remaining").inner_text() == "5"      # keyed cards not dealt yet

    page.wait_for_selector("button.verb[data-verb='split']")
    assert page.locator("#dealer-total").inner_text().strip() == "6"                     # the up-card's count
    page.get_by_role("button", name="Strategy hint (Box 3)").click()
    page.wait_for_selector(".hint-text[data-advice='split']", timeout=180_000)     # the chart is derived once, cold
    page.get_by_role("button", name="Split (Box 3)").click()
    page.wait_for_function("document.querySelectorAll(\".box[data-box='3'] .hand\").length === 2")
    assert server.call("luis", "GET", "/api/me")["balance"] == start - 2000      # the split collects a second stake
    hands = page.locator(".box[data-box='3'] .hand")
    assert hands.nth(0).get_attribute("aria-label").startswith("Hand 1: 8♠ 3♣")     # the cards in symbols
    # 8-3 = 11: the engine may offer a double; play on: hit (T) to 21, then stand on the second hand
    page.locator("button.verb[data-verb='hit']").first.click()
    page.wait_for_function("document.querySelector(\".box[data-box='3'] .hand\").getAttribute('aria-label').includes('10♦')")
    assert page.locator(".box[data-box='3'] .hand .hand-total").first.get_attribute("data-total") == "21"   # 8+3+10
    while page.locator("button.verb[data-verb='stand']").count():
        page.locator("button.verb[data-verb='stand']").first.click()
        page.wait_for_timeout(300)
    page.wait_for_selector("#phase[data-phase='settled']")
    final = server.call("luis", "GET", "/api/me")["balance"]
    page.wait_for_function(f"document.getElementById('balance').dataset.cents === '{final}'")
    assert page.locator("#dealer-cards .pcard").count() >= 2
    result = page.locator("#last-result").inner_text()
    assert "Box stake: stake €20.00, returned" in result and "b1" not in result     # the split box: both stakes, one line
    assert server.call("inspector", "GET", "/api/ledger")["ok"]


def test_blackjack_keyboard_only(server: Any, people: Any, tab_until: Any) -> None:
    server.call("croupier", "POST", "/api/tables/bj/open")
    eva = people("luis")
    page = eva.open("/tables/bj")
    page.wait_for_selector("#phase[data-phase='betting']")
    tab_until(page, "e.dataset.kind === 'main'")                      # Box 1
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Tab")                                         # Box 2
    page.keyboard.press("Enter")
    page.wait_for_selector("#my-bets li[data-bet]")
    assert page.locator(".box[data-box='2'] .box-spot .stake").inner_text() == "€5.00"
    server.call("croupier", "POST", "/api/tables/bj/close", {"cards": ["TS", "9D", "7C", "KH", "8C"]})
    page.wait_for_selector("button.verb[data-verb='stand']")
    tab_until(page, "e.dataset.verb === 'hit'")
    page.keyboard.press("Enter")                                       # 17 + K: bust
    page.wait_for_selector("#phase[data-phase='settled']")
    assert "net −€5.00" in page.locator("#last-result").inner_text()          # bust: the stake lost


def test_punto_banca_coup(server: Any, people: Any) -> None:
    server.call("croupier", "POST", "/api/tables/pb/open")
    luis = people("luis")
    page = luis.open("/tables/pb")
    page.wait_for_selector("#phase[data-phase='betting']")
    start = server.call("luis", "GET", "/api/me")["balance"]
    page.get_by_role("radio", name="Chip €20.00").click()
    page.get_by_role("button", name="Bet on player").click()
    page.wait_for_selector("#my-bets li[data-bet]")
    # punto 8♠ 6♦ (4), banca 8♥ 3♣ (1); third cards T♦ to the punto, 9♣ to the banca: punto 4 beats 0
    server.call("croupier", "POST", "/api/tables/pb/close", {"cards": ["8S", "8H", "6D", "3C", "TD", "9C", "TH"]})
    page.wait_for_selector(".coup[data-winner='player']")
    assert page.locator("#punto-cards .pcard").count() == 3
    assert page.locator("#banca-cards .pcard").count() == 3
    page.wait_for_function(f"document.getElementById('balance').dataset.cents === '{start + 2000}'")
    assert page.locator("#history li.latest").inner_text() == "P"
