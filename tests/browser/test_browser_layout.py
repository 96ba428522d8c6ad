"""Issue 31 in the browser, the layout of the player's table pages at 390x844 (a phone) and 1280x800: every
table page passes the checks of `fit.py` (no control under 24 px, decisions 44 px, every bet spot inside the
window, no sideways scroll, no developer text, no chip label hidden, axe-core clean); the roulette cloth stands
on a phone and lies on a desktop; no empty felt under a short layout; the live feed's two-digit numbers; a
stake far above the table's minimum asked about before it is sent. Screenshots: page-<table>-<width>.png."""

from __future__ import annotations

from typing import Any

import pytest
from tests.browser.conftest import TABLES
from tests.browser.fit import (
    empty_felt,
    hidden_stake_labels,
    layout_problems,
    sideways,
    small_decisions,
    spots_cut_off,
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
TABLE_PAGES = [t["id"] for t in TABLES]
EDGES = ".cloth .edge"


@pytest.fixture(scope="module")
def scene(server: Any) -> Any:
    """Every table open; Luis's stakes on the roulette cloth (a number, a split, a corner, a street, a six-line, a
    column); a blackjack and a tripoker hand dealt to him, deciding."""
    call = server.call
    for table in ("ruleta", "ruleta-ib", "bola", "fortuna", "tq", "dados", "tripoker", "monte", "pb", "bj", "chemin"):
        call("croupier", "POST", f"/api/tables/{table}/open")
    call("luis", "POST", "/api/tables/ruleta/bets", {"bets": [
        {"kind": "straight", "on": [17], "amount": 100}, {"kind": "split", "on": [17, 20], "amount": 200},
        {"kind": "corner", "on": [17, 18, 20, 21], "amount": 300}, {"kind": "street", "on": [16, 17, 18], "amount": 100},
        {"kind": "six-line", "on": [28, 29, 30, 31, 32, 33], "amount": 100}, {"kind": "split", "on": [16, 17], "amount": 100},
        {"kind": "column", "on": [2], "amount": 100}, {"kind": "straight", "on": [0], "amount": 100}]})
    call("luis", "POST", "/api/tables/bj/bets", {"bets": [{"kind": "main", "amount": 1000, "extra": {"box": 2}}]})
    call("croupier", "POST", "/api/tables/bj/close", {"cards": ["8S", "6D", "8H"]})
    call("luis", "POST", "/api/tables/tripoker/bets", {"bets": [{"kind": "ante", "amount": 1000, "extra": {"box": 3}}]})
    call("croupier", "POST", "/api/tables/tripoker/close")
    return server


def limits_in_cents(table: str) -> tuple[int, ...]:
    spec = next(t for t in TABLES if t["id"] == table)
    return (spec["table"]["minimum"],)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["390x844", "1280x800"])
def test_every_table_page_is_laid_out_for_the_size(scene: Any, people: Any, shot: Any, size: dict[str, int]) -> None:
    luis = people("luis", viewport=size)
    found = {}
    for table in TABLE_PAGES:
        page = luis.open(f"/tables/{table}")
        page.wait_for_timeout(200)
        problems = layout_problems(page, limits_in_cents(table))
        if size is DESKTOP and (felt := empty_felt(page)) > 60:
            problems.append(f"{felt}px of empty felt under the layout")
        if problems:
            found[table] = problems[:8]
        shot(page, f"page-{table}-{size['width']}")
    assert found == {}, found


def test_decision_buttons_are_44_px_on_a_phone(scene: Any, people: Any) -> None:
    luis = people("luis", viewport=PHONE)
    for table, verb in (("bj", ".verb[data-verb='hit']"), ("tripoker", ".pk-hand button.verb[data-verb='call']")):
        page = luis.open(f"/tables/{table}")
        page.locator(verb).first.wait_for()
        sizes = page.evaluate("""(sel) => [...document.querySelectorAll(sel)].map((e) => {
            const r = e.getBoundingClientRect(); return [r.width, r.height]; })""", verb)     # at once: a redraw detaches them
        assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), (table, sizes)
        assert small_decisions(page) == [], table
    page = luis.open("/tables/bj")
    for link in page.locator("header.top a:visible").all():
        assert link.bounding_box()["height"] >= 24, link.inner_text()


def _edges(page: Any) -> list[dict[str, Any]]:
    return page.evaluate("""(sel) => [...document.querySelectorAll(sel)].map((e) => {
        const r = e.getBoundingClientRect();
        return { kind: e.dataset.kind, on: e.dataset.on, l: r.left, t: r.top, r: r.right, b: r.bottom };
    })""", EDGES)


@pytest.mark.parametrize(("size", "orientation"), [(PHONE, "standing"), (DESKTOP, "lying")], ids=["390x844", "1280x800"])
def test_roulette_cloth_fits_with_every_spot_reachable(scene: Any, people: Any, size: dict[str, int], orientation: str) -> None:
    """Every number 0-36, the columns, the dozens and the even chances inside the window; the numbers 44 px or
    more, the splits, corners, streets and six-lines 24 px or more and never on top of one another."""
    luis = people("luis", viewport=size)
    page = luis.open("/tables/ruleta")
    assert page.locator(".cloth").get_attribute("data-orientation") == orientation
    assert sideways(page) <= 0 and spots_cut_off(page) == []
    for n in range(37):
        box = page.locator(f".cloth .spot[data-kind='straight'][data-on='{n}']").bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (n, box)
    for sel, count in ((".cloth .spot[data-kind='column']", 3), (".outside .spot[data-kind='dozen']", 3)):
        assert page.locator(sel).count() == count
    for kind in ("red", "black", "odd", "even", "low", "high"):
        assert page.locator(f".outside .spot[data-kind='{kind}']").is_visible()
    edges = _edges(page)
    assert {e["kind"] for e in edges} == {"split", "corner", "street", "six-line"}
    for e in edges:
        assert e["r"] - e["l"] >= 24 and e["b"] - e["t"] >= 24, e
    for i, a in enumerate(edges):
        for b in edges[i + 1:]:
            overlap = min(a["r"], b["r"]) - max(a["l"], b["l"]) > 0.5 and min(a["b"], b["b"]) - max(a["t"], b["t"]) > 0.5
            assert not overlap, (a, b)
    # every spot is its own at its centre: no neighbour covers it
    covered = page.evaluate("""(sel) => [...document.querySelectorAll(sel)].filter((e) => {
        const r = e.getBoundingClientRect(); e.scrollIntoView({block: 'center'});
        const q = e.getBoundingClientRect(); const hit = document.elementFromPoint(q.left + q.width / 2, q.top + q.height / 2);
        return !(hit === e || e.contains(hit)); }).map((e) => e.dataset.label)""", ".cloth .spot")
    assert covered == []
    assert hidden_stake_labels(page) == []
    assert page.locator(".cloth .spot.has-stake").count() >= 7


def test_a_corner_and_a_split_tapped_on_a_phone(scene: Any, people: Any) -> None:
    ana = people("luis", viewport=PHONE)
    page = ana.open("/tables/ruleta")
    before = page.locator("#my-bets li[data-bet]").count()
    page.locator(".cloth .spot[data-kind='corner'][data-on='31-32-34-35']").tap()
    page.wait_for_function(f"document.querySelectorAll('#my-bets li[data-bet]').length > {before}")
    page.locator(".cloth .spot[data-kind='split'][data-on='35-36']").tap()
    page.wait_for_function(f"document.querySelectorAll('#my-bets li[data-bet]').length > {before + 1}")
    assert hidden_stake_labels(page) == []


def test_live_feed_numbers_two_digit_items_in_full(scene: Any, people: Any) -> None:
    """The feed is a reversed numbered list: with ten items or more its first marker is "10." or more; the list
    leaves room for it (the markers sit in the padding, which the list's scroll box clips: "10." showed as "0.")."""
    luis = people("luis", viewport=PHONE)
    page = luis.open("/tables/dados")
    for _ in range(12):
        scene.call("luis", "POST", "/api/tables/dados/bets", {"bets": [{"kind": "field", "amount": 100}]})
    page.wait_for_function("document.querySelectorAll('#live li').length >= 12")
    room = page.evaluate("""() => {
        const ol = document.getElementById('live'), li = ol.querySelector('li');
        const probe = document.createElement('span');
        probe.textContent = `${ol.children.length}. `;
        probe.style.font = getComputedStyle(li).font; probe.style.position = 'absolute'; probe.style.whiteSpace = 'pre';
        document.body.append(probe);
        const need = probe.getBoundingClientRect().width; probe.remove();
        const style = getComputedStyle(ol);
        return { need, has: style.listStylePosition === 'inside' ? 1e9 : parseFloat(style.paddingLeft) };
    }""")
    assert room["has"] >= room["need"], room


@pytest.mark.parametrize(("table", "spot", "chip"), [
    ("ruleta", ".outside .spot[data-kind='red']", "Chip €100.00"),       # €1 minimum: 100 times
    ("dados", ".spot[data-kind='field']", "Chip €25.00"),                # €1 minimum: 25 times
])
def test_a_stake_far_above_the_minimum_is_asked_about_first(scene: Any, people: Any, table: str, spot: str, chip: str) -> None:
    """25 times the table's smallest chip or more: a question, the stake sent only on yes; a second tap while
    the question is open places nothing (two taps of the €100 chip placed €200)."""
    luis = people("luis", viewport=PHONE)
    page = luis.open(f"/tables/{table}")
    page.wait_for_selector("#phase[data-phase='betting']")
    before = scene.call("luis", "GET", "/api/me")["balance"]
    bets = page.locator("#my-bets li[data-bet]").count()
    page.get_by_role("radio", name=chip).tap()
    page.locator(spot).tap()
    dialog = page.locator("dialog.stake-confirm[open]")
    dialog.wait_for()
    assert "times the table's minimum" in dialog.inner_text()
    assert page.evaluate("document.querySelector('dialog.stake-confirm').matches(':modal')")   # the cloth is inert behind it
    page.locator(spot).dispatch_event("click")                    # a second tap that reached the spot anyway
    assert page.locator("dialog.stake-confirm").count() == 1
    page.locator("#stake-no").tap()
    page.wait_for_timeout(300)
    assert scene.call("luis", "GET", "/api/me")["balance"] == before and page.locator("#my-bets li[data-bet]").count() == bets
    page.locator(spot).tap()
    page.locator("#stake-yes").tap()
    page.wait_for_function(f"document.querySelectorAll('#my-bets li[data-bet]').length > {bets}")
    amount = int(chip.split("€")[1].replace(".", "").replace(",", ""))
    assert scene.call("luis", "GET", "/api/me")["balance"] == before - amount            # once, not twice
    page.get_by_role("radio", name="Chip €10.00").tap()
    page.locator(spot).tap()                                                          # 10 times: no question
    page.wait_for_function(f"document.querySelectorAll('#my-bets li[data-bet]').length > {bets + 1}")
    assert page.locator("dialog.stake-confirm").count() == 0
