"""Craps in the browser: a pass line bet on the come-out, the croupier's console keying the dice, the
puck going ON at the point, odds taken behind the line, the point made; and boule on its cloth
really played through it."""

from __future__ import annotations

from typing import Any


def key_roll(console: Any, dice: str) -> None:
    console.get_by_label("Result (number, dice as 3,4, or JSON)").fill(dice)
    console.get_by_role("button", name="Key the result").click()
    console.wait_for_selector("#phase[data-phase='confirming']")
    console.get_by_role("button", name="Confirm").click()
    console.wait_for_selector("#phase[data-phase='settled']")


def test_craps_come_out_and_point(server: Any, people: Any) -> None:
    croupier = people("croupier")
    console = croupier.open("/croupier/dados")
    console.get_by_role("button", name="Open betting").click()
    console.wait_for_selector("#phase[data-phase='betting']")

    luis = people("luis")
    page = luis.open("/tables/dados")
    page.wait_for_selector("#phase[data-phase='betting']")
    start = server.call("luis", "GET", "/api/me")["balance"]
    assert page.locator("#puck").inner_text() == "OFF"
    page.get_by_role("radio", name="Chip €10.00").click()
    page.get_by_role("button", name="Pass line — pays 1:1", exact=True).click()
    page.wait_for_selector("#my-bets li[data-bet]")

    key_roll(console, "2,4")                                          # come-out 6: the point
    page.wait_for_selector("#puck.on[data-point='6']")
    assert page.locator(".number-box.point strong").inner_text() == "6"
    assert page.locator("#history li.latest").inner_text() == "2-4"

    console.get_by_role("button", name="Open betting").click()
    page.wait_for_selector("#phase[data-phase='betting']")
    odds = page.locator(".spot.odds").first
    odds.wait_for()
    assert odds.get_attribute("aria-label") == "Odds on Pass line · Point 6 — pays 6:5"   # in words, no bet id
    odds.click()                                                      # €10 odds behind the line
    page.wait_for_function("document.querySelectorAll('#my-bets li[data-bet]').length === 2")

    key_roll(console, "3,3")                                          # the point is made
    page.wait_for_selector("#puck.off")
    # pass 1:1 on €10, odds on 6 pay 6:5 on €10: the engine's settlement, seen in the balance
    final = server.call("luis", "GET", "/api/me")["balance"]
    assert final == start + 1000 + 1200
    page.wait_for_function(f"document.getElementById('balance').dataset.cents === '{final}'")


def test_boule_cloth_plays_a_number(server: Any, people: Any) -> None:
    server.call("croupier", "POST", "/api/tables/bola/open")
    luis = people("luis")
    page = luis.open("/tables/bola")
    page.wait_for_selector("#phase[data-phase='betting']")
    start = server.call("luis", "GET", "/api/me")["balance"]
    page.get_by_role("radio", name="Chip €2.00").click()
    page.locator(".boule-numbers .spot[data-on='5']").click()            # the boule cloth (games/boule.js)
    page.wait_for_selector("#my-bets li[data-bet]")
    server.call("croupier", "POST", "/api/tables/bola/outcome", {"value": 5})
    server.call("croupier", "POST", "/api/tables/bola/confirm")
    final = server.call("luis", "GET", "/api/me")["balance"]
    assert final == start + 7 * 200                                   # 7:1, as the engine pays it
    page.wait_for_function(f"document.getElementById('balance').dataset.cents === '{final}'")
    page.wait_for_selector("#history li.latest:text-is('5')")


def test_craps_come_bet_and_its_odds(server: Any, people: Any) -> None:
    """Issue 20: the come bet is on the layout once the point is on (the engine offers it then), travels to
    its number, and takes odds named in words; the settlement reads stake, returned and net."""
    call = server.call
    if call("croupier", "GET", "/api/tables/dados")["phase"] not in ("idle", "settled"):
        call("croupier", "POST", "/api/tables/dados/close")
    call("croupier", "POST", "/api/tables/dados/open")
    ana_start = call("cajero", "POST", "/api/cashier/deposit", {"user": "ana", "amount": 20_000, "memo": "craps"})["balance"]
    ana = people("ana")
    page = ana.open("/tables/dados")
    page.wait_for_selector("#phase[data-phase='betting']")
    assert page.locator("#puck").inner_text() == "OFF"
    assert page.locator(".spot[data-kind='come'][aria-disabled='false']").count() == 0     # no come on the come-out
    page.get_by_role("radio", name="Chip €5.00").click()
    page.get_by_role("button", name="Pass line — pays 1:1", exact=True).click()
    page.wait_for_selector("#my-bets li[data-bet]")
    call("croupier", "POST", "/api/tables/dados/outcome", {"value": [5, 5]})             # the point: 10
    call("croupier", "POST", "/api/tables/dados/confirm")
    call("croupier", "POST", "/api/tables/dados/open")
    page.wait_for_selector("#puck.on[data-point='10']")
    come = page.locator(".spot[data-kind='come'][aria-disabled='false']")
    come.wait_for()
    come.click()                                                                       # €5 on come
    page.wait_for_function("document.querySelectorAll('#my-bets li[data-bet]').length === 2")
    call("croupier", "POST", "/api/tables/dados/outcome", {"value": [4, 5]})             # the come bet goes to 9
    call("croupier", "POST", "/api/tables/dados/confirm")
    call("croupier", "POST", "/api/tables/dados/open")
    page.wait_for_selector(".number-box[data-number='9'] .come-tag")
    odds = page.get_by_role("button", name="Odds on Come · Point 9 — pays 3:2")
    odds.wait_for()
    odds.click()                                                                       # €5 odds on the come 9
    page.wait_for_function("document.querySelectorAll('#my-bets li[data-bet]').length === 3")
    assert page.get_by_role("button", name="Odds on Pass line · Point 10 — pays 2:1").count() == 1
    text = page.locator("body").inner_text()
    assert "{" not in text and "b1" not in text and "b2" not in text
    call("croupier", "POST", "/api/tables/dados/outcome", {"value": [3, 6]})             # 9 again: come and odds win
    call("croupier", "POST", "/api/tables/dados/confirm")
    page.wait_for_selector("#last-result .settle-lines li")
    lines = page.locator("#last-result .settle-lines li").all_inner_texts()
    # come 1:1 on €5; odds on 9 pay 3:2 on €5 (the engine's figures)
    assert "Come: stake €5.00, returned €10.00, net +€5.00" in lines, lines
    assert "Odds: stake €5.00, returned €12.50, net +€7.50" in lines, lines
    assert call("ana", "GET", "/api/me")["balance"] == ana_start - 500 - 500 - 500 + 1000 + 1250
