"""Circle poker in the browser: Luis sits down at the hold'em table from the page with a buy-in from his wallet,
Ana sits through the API; a whole hand is dealt by the electronic pack and played, Luis's decisions through the
page (a bet with an amount, checks and calls, the showdown), Ana's through the API; the page shows his hole cards
and not hers, the board, the pot, the showdown; his stack moves by the hand's result and leaving the table puts
it back in his wallet. The screenshot docs/screenshots/table-holdem.png is the finished hand."""

from __future__ import annotations

from typing import Any

DUE = ("check", "call", "show")


def table(server: Any) -> dict[str, Any]:
    return server.call("croupier", "GET", "/api/tables/holdem")


def due_player(server: Any) -> tuple[str | None, list[dict[str, Any]]]:
    """Who decides now, and the decisions due (from the croupier's view of the table)."""
    t = table(server)
    if t["phase"] != "acting":
        return None, []
    owners = {b["id"]: b["player"] for b in t["open_bets"]}
    due = t["actions"]["decisions"]
    return (owners.get(due[0]["bet"]) if due else None), due


def test_sit_play_a_hand_and_leave(server: Any, people: Any, shot: Any) -> None:
    server.call("cajero", "POST", "/api/cashier/deposit", {"user": "ana", "amount": 50_000, "memo": "poker"})
    luis = people("luis")
    page = luis.open("/tables/holdem")
    assert page.locator("#circle-seats .seat").count() == 10
    page.get_by_label("Buy-in (€)").fill("100")
    page.get_by_role("button", name="Sit at seat 3").click()
    page.wait_for_selector(".seat[data-seat='3'][data-player='luis']")
    page.wait_for_selector("#balance[data-cents='90000']")                      # €100 left the wallet for the stack
    assert page.locator(".seat[data-seat='3'] .seat-stack").get_attribute("data-cents") == "10000"
    assert page.locator("button.sit").count() == 0                            # one seat per player
    server.call("ana", "POST", "/api/tables/holdem/seats", {"seat": 6, "buy_in": 10_000})   # luis sees her as 'Seat 6'

    assert server.call("croupier", "POST", "/api/tables/holdem/open")["phase"] == "acting"
    page.wait_for_selector(".seat[data-player='Seat 6'] .hole .pcard")
    mine = page.locator(".seat[data-player='luis'] .hole .pcard").all_inner_texts()
    assert len(mine) == 2 and all(mine)                                        # his own cards, face up
    assert page.locator(".seat[data-player='luis'] .hole .pcard.back").count() == 0
    theirs = page.locator(".seat[data-player='Seat 6'] .hole .pcard")
    assert theirs.count() == 2 and page.locator(".seat[data-player='Seat 6'] .hole .pcard.back").count() == 2
    assert theirs.all_inner_texts() == ["", ""]                                # a card back: no face, no text
    assert int(page.locator("#pot").get_attribute("data-cents")) == 300      # the blinds: 100 and 200

    bet_made = False
    for _ in range(40):
        player, due = due_player(server)
        if player is None:
            break
        if player == "ana":
            verbs = {d["do"]: d for d in due}
            verb = next(v for v in DUE if v in verbs)
            server.call("ana", "POST", "/api/tables/holdem/acts", {"bet": verbs[verb]["bet"], "do": verb})
            continue
        page.wait_for_selector("#decisions button.verb")
        before = page.locator("#decisions").get_attribute("data-signature")
        if not bet_made and page.locator("#decisions button.verb[data-verb='bet']").count():
            page.get_by_label("Amount (€)", exact=False).fill("4")                # bet €4 through the page
            page.locator("#decisions button.verb[data-verb='bet']").click()
            bet_made = True
        else:
            verbs = [v for v in DUE if page.locator(f"#decisions button.verb[data-verb='{v}']").count()]
            page.locator(f"#decisions button.verb[data-verb='{verbs[0]}']").click()
        page.wait_for_function("(n) => document.querySelector('#decisions').dataset.signature !== n", arg=before)
    assert bet_made
    final = table(server)
    assert final["phase"] == "settled"

    page.wait_for_selector("#showdown li[data-player='luis']")
    page.wait_for_selector("#showdown li[data-player='Seat 6'] .shown .pcard")
    shown = page.locator("#showdown li[data-player='Seat 6'] .shown .pcard").all_inner_texts()
    assert len(shown) == 2 and all(shown)                                      # her cards, shown down
    assert page.locator("#showdown li[data-player='Seat 6'] .shown .pcard.back").count() == 0
    assert page.locator("#showdown .cards").first.locator(".pcard").count() == 5
    stack = next(s["stack"] for s in final["circle"]["seats"] if s["player"] == "luis")
    net = int(page.locator("#showdown li[data-player='luis']").get_attribute("data-net"))
    assert stack == 10_000 + net and net != 0
    # issue 20: one settlement format, the same figures on every panel: the last hand, my result, the feed
    page.wait_for_selector("#last-result .settle-lines li")
    figure = page.locator("#showdown li[data-player='luis'] .net").inner_text()
    side = page.locator("#last-result .settle-lines li").first.inner_text()
    feed = page.locator("#live li[data-kind='settlement']").first.inner_text()
    tail = figure.split(": ", 1)[1]
    assert side.endswith(tail) and tail in feed, (figure, side, feed)
    sign = "+" if net > 0 else "\u2212"
    assert tail.endswith(f"net {sign}€{abs(net) / 100:,.2f}")
    assert "luis" not in page.locator("#showdown").inner_text()               # me: "You"; others: seat or name
    assert "ana" not in page.locator("#circle-seats").inner_text()
    named = page.locator("#showdown .combo").all_inner_texts()
    assert len(named) == 2 and all(n.strip() for n in named)                # each hand shown down, named
    pot = int(page.locator("#last-pot").get_attribute("data-cents"))
    rake = int(page.locator("#last-rake").get_attribute("data-cents"))
    assert pot > 0 and 0 <= rake <= pot * 5 // 100 + 1                      # the rake shown: at most 5 % of the pot
    page.wait_for_selector(f".seat[data-player='luis'] .seat-stack[data-cents='{stack}']")
    assert page.locator("#errors .error-doc").count() == 0
    shot(page, "table-holdem")

    page.get_by_role("button", name="Leave the table").click()               # between hands: the stack goes home
    page.wait_for_selector(f"#balance[data-cents='{90_000 + stack}']")
    page.wait_for_selector(".seat[data-seat='3'].free")
    assert server.call("luis", "GET", "/api/me")["balance"] == 90_000 + stack
    assert server.call("inspector", "GET", "/api/ledger")["ok"]
