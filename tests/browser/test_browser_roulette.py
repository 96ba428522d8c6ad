"""Roulette in the browser: chips bought at the cage, a split placed by clicking the line between two
numbers, the croupier's console keying the ball and confirming after the settlement preview, the
player's balance and the results updated live; a limit broken shows the server's error document; the
whole page played from the keyboard alone."""

from __future__ import annotations

import re
from typing import Any


def test_buy_chips_split_spin_and_live_update(server: Any, people: Any) -> None:
    cashier = people("cajero")
    page = cashier.open("/cashier")
    page.get_by_label("Player (search by name)").fill("ana")           # found by name and picked (issue 30)
    page.get_by_role("button", name=re.compile(r"^ana · balance")).click()
    page.get_by_label("Amount (€)").fill("50")
    page.get_by_label("Memo").fill("cash at the cage")
    page.get_by_role("button", name="Chips in (deposit)").click()
    assert page.locator("#cash-confirm-text").inner_text() == "Deposit €50.00 to ana?"
    page.get_by_role("button", name="Yes, deposit").click()
    page.wait_for_selector("#receipt-doc")
    assert page.locator("#receipt-balance").inner_text() == "€50.00"
    assert page.locator("#wallet-balance").inner_text() == "€50.00"

    croupier = people("croupier")
    console = croupier.open("/croupier/ruleta")
    console.get_by_role("button", name="Open betting").click()
    console.wait_for_selector("#phase[data-phase='betting']")

    ana = people("ana")
    table = ana.open("/tables/ruleta")
    assert table.locator("#balance").inner_text() == "€50.00"
    table.wait_for_selector("#phase[data-phase='betting']")
    table.get_by_role("radio", name="Chip €5.00").click()
    split = table.locator(".spot.split[data-on='17-20']")
    assert split.get_attribute("aria-label") == "Split 17-20"
    split.click()                                            # the line between 17 and 20
    table.wait_for_selector("#my-bets li[data-bet]")
    assert "Split on 17-20" in table.locator("#my-bets").inner_text()
    assert table.locator("#balance").inner_text() == "€45.00"
    assert table.locator(".spot.split[data-on='17-20'] .stake").inner_text() == "€5.00"

    # a bet over the split's maximum: the server's error document, shown as it came
    table.get_by_role("radio", name="Chip €100.00").click()
    split.click()
    table.locator("#stake-yes").click()                      # 100 times the €1 minimum: asked first
    error = table.locator("#errors .error-doc")
    error.wait_for()
    assert error.get_attribute("data-code") == "over-maximum"
    assert table.locator("#balance").inner_text() == "€45.00"

    console.get_by_label("Result (number, dice as 3,4, or JSON)").fill("17")
    console.get_by_role("button", name="Key the result").click()
    preview = console.locator("#preview tr[data-bet]")
    preview.first.wait_for()
    assert preview.first.get_attribute("data-status") == "won"
    assert "€90.00" in preview.first.inner_text()           # 17:1 on €5, as the engine settles it
    console.get_by_role("button", name="Confirm").click()
    console.wait_for_selector("#phase[data-phase='settled']")

    # the player's page follows over the WebSocket: balance, last number, result
    table.wait_for_function("document.getElementById('balance').textContent === '€135.00'")
    table.wait_for_selector("#history li.latest:text-is('17')")
    table.wait_for_selector(".num.last[data-on='17']")
    assert "Split: stake €5.00, returned €90.00, net +€85.00" in table.locator("#last-result").inner_text()   # 17:1
    assert server.call("inspector", "GET", "/api/ledger")["ok"]


def test_roulette_keyboard_only(server: Any, people: Any, tab_until: Any) -> None:
    server.call("croupier", "POST", "/api/tables/ruleta/open")
    luis = people("luis")
    page = luis.open("/tables/ruleta")
    page.wait_for_selector("#phase[data-phase='betting']")
    start = server.call("luis", "GET", "/api/me")["balance"]

    tab_until(page, "e.dataset.kind === 'straight'")             # the cloth's first number (0)
    assert page.evaluate("document.activeElement.dataset.on") == "0"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"                                      # visible focus
    page.keyboard.press("ArrowRight")                             # 0 -> 2
    for _ in range(5):
        page.keyboard.press("ArrowRight")                         # 2 -> 5 -> ... -> 17
    assert page.evaluate("document.activeElement.dataset.on") == "17"
    page.keyboard.press("Enter")                                  # the first chip (€1) on 17
    page.wait_for_selector("#my-bets li[data-bet]")

    tab_until(page, "e.getAttribute('role') === 'radio'")        # the chips
    page.keyboard.press("ArrowRight")                             # €2
    assert page.evaluate("document.activeElement.getAttribute('aria-checked')") == "true"
    assert page.evaluate("document.activeElement.dataset.value") == "200"
    tab_until(page, "e.dataset.kind === 'red'", back=True)
    page.keyboard.press("Space")                                  # €2 on red
    page.wait_for_function("document.querySelectorAll('#my-bets li[data-bet]').length === 2")
    text = page.locator("#my-bets").inner_text()
    assert "Straight up on 17" in text and "Red" in text
    assert server.call("luis", "GET", "/api/me")["balance"] == start - 300

    server.call("croupier", "POST", "/api/tables/ruleta/outcome", {"value": 32})
    server.call("croupier", "POST", "/api/tables/ruleta/confirm")
    page.wait_for_function(f"document.getElementById('balance').dataset.cents === '{start + 100}'")   # red pays €4, 17 loses €1
