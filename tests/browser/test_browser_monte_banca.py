"""Issue 20 point 2, Monte o banca's own table view (games/montebanca.js) in the browser at 1280x800 and 390x844:
the four layout cards on the cloth before any bet, the engine's bets as spots with their payouts, a bet tapped
on a phone seen in "My bets", a coup revealed with its outcome in a sentence and the net in the one format; no
sideways page scroll on a phone, no `{` or bet id in what a player reads, axe-core with no serious or critical
violation."""

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
NET = re.compile(r"stake €[\d.,]+, returned €[\d.,]+, net [+−]?€[\d.,]+")
TABLES: list[dict[str, Any]] = [
    {"id": "mb", "name": "Monte o banca", "game": "monte-banca", "jurisdiction": "ES-AN", "source": "rng", "auto": False,
     "table": {"minimum": 500}},
]


def _conftest() -> Any:
    """This folder's conftest as a module of its own (the suite imports in importlib mode): its LiveServer."""
    spec = importlib.util.spec_from_file_location("browser_conftest_mb", Path(__file__).with_name("conftest.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    live = _conftest().LiveServer(tmp_path_factory.mktemp("monte-banca"), TABLES).start()
    live.call("cajero", "POST", "/api/cashier/deposit", {"user": "ana", "amount": 50_000, "memo": "monte"})
    live.call("croupier", "POST", "/api/tables/mb/open")
    yield live
    live.stop()


def plain(page: Any) -> None:
    """What a player reads: no developer text, no login name on the table, no sideways scroll, axe clean."""
    from axe_playwright_python.sync_playwright import Axe

    text = page.locator("body").inner_text()
    assert "{" not in text and not BET_ID.search(text), (BET_ID.search(text), text[:500])
    felt = page.locator("#game").inner_text() + page.locator("#live").inner_text()
    assert not re.search(r"\b(?:luis|ana)\b", felt), felt[:400]
    assert int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth")) <= 0
    bad = [f"{v['id']}: {v['nodes'][0]['target'] if v['nodes'] else ''}" for v in Axe().run(page).response["violations"]
           if v.get("impact") in ("serious", "critical")]
    assert bad == [], bad


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_monte_banca_page_shows_the_layout_fits_and_passes_axe(server: Any, people: Any, shot: Any, size: dict[str, int]) -> None:
    luis = people("luis", viewport=size)
    page = luis.open("/tables/mb")
    page.wait_for_selector("#phase[data-phase='betting']")
    page.wait_for_selector(".mb-pos[data-pos='4'] .mb-card")
    assert page.locator("#g-kind").count() == 0                               # not the generic form
    assert page.locator(".mb-pos .mb-cards .pcard").count() >= 4              # the four layout cards, face up
    assert page.locator("#mb-revealed .pcard").count() == 0                   # nothing revealed before the deal
    camo = page.locator(".mb-spot[data-kind='next-suit'][data-on='1'] .pays").inner_text()
    assert re.fullmatch(r"\d+:1", camo), camo                                # 11 - d to 1, d counted in
    assert page.locator(".mb-spot[data-kind='versus'][data-on='1v2'] .pays").inner_text() == "1:1"
    plain(page)
    shot(page, "phone-table-monte-banca" if size is PHONE else "table-monte-banca")


def test_monte_banca_bet_tapped_on_a_phone_then_the_coup_settled(server: Any, people: Any, shot: Any) -> None:
    ana = people("ana", viewport=PHONE)
    page = ana.open("/tables/mb")
    page.wait_for_selector("#phase[data-phase='betting']")
    page.wait_for_selector(".mb-pos[data-pos='1'] .mb-card")
    page.locator(".mb-spot[data-kind='any-suit'][data-on='1']").tap()          # Salto: decided in Primeras
    page.wait_for_selector(".mb-spot[data-kind='any-suit'][data-on='1'].has-stake")
    page.wait_for_function("document.querySelector('#my-bets') && document.querySelector('#my-bets').innerText.includes('€')")
    assert "€" in page.locator("#my-bets").inner_text()
    plain(page)
    shot(page, "phone-table-monte-banca-bet")
    server.call("croupier", "POST", "/api/tables/mb/close")
    page.wait_for_selector("#phase[data-phase='settled']")
    page.wait_for_selector("#mb-settle li")
    assert page.locator("#mb-revealed .pcard").count() >= 1                  # the revealed cards, face up
    outcome = page.locator("#mb-outcome").inner_text()
    assert re.fullmatch(r"The .+ comes: card [1-4] wins, card [1-4] loses\.", outcome), outcome
    line = page.locator("#mb-settle li").first.inner_text()
    assert line.startswith("Card 1 · Salto (any suit): stake €5.00") and NET.search(line), line
    shot(page, "phone-table-monte-banca-settled")
    plain(page)
