"""Issue 30: the jornada's books page (/books) for the table chief and the inspector — each table's figures in
euros and a chart of the result against the theoretical win drawn in SVG; readable at 390x844 and 1280x800 (no
sideways scroll, no control under 24 px, no raw JSON or null), the filter works, axe-core finds nothing serious;
a player is told the page is the staff's (403), a visitor is asked to log in (401)."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
TABLES: list[dict[str, Any]] = [
    {"id": "r1", "name": "Ruleta 1", "game": "roulette-french", "jurisdiction": "ES-AN", "source": "rng", "auto": False,
     "table": {"minimum": 100}},
    {"id": "r2", "name": "Ruleta 2", "game": "roulette-french", "jurisdiction": "ES-IB", "source": "rng", "auto": False,
     "table": {"minimum": 100}},
]


def _conftest() -> Any:
    spec = importlib.util.spec_from_file_location("browser_conftest_books", Path(__file__).with_name("conftest.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def spin(live: Any, table: str, bets: list[dict[str, Any]]) -> None:
    live.call("croupier", "POST", f"/api/tables/{table}/open")
    live.call("luis", "POST", f"/api/tables/{table}/bets", {"bets": bets})
    live.call("croupier", "POST", f"/api/tables/{table}/close")
    live.call("croupier", "POST", f"/api/tables/{table}/draw")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    live = _conftest().LiveServer(tmp_path_factory.mktemp("books"), TABLES).start()
    for table in ("r1", "r2"):
        live.call("jefe", "POST", f"/api/tables/{table}/jornada/open", {"anticipo": 500_000})
        live.call("croupier", "POST", f"/api/tables/{table}/drop", {"player": "ana", "amount": 10_000})
        for n in range(4):
            spin(live, table, [{"kind": "straight", "on": [n + 1], "amount": 500}, {"kind": "dozen", "on": [2], "amount": 1_000}])
    held = live.call("inspector", "GET", "/api/ledger")["house_accounts"]
    live.call("jefe", "POST", "/api/tables/r1/jornada/close", {"float": held["float:r1"], "drop": 10_000})
    yield live
    live.stop()


def sideways(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def small_controls(page: Any) -> list[str]:
    return page.evaluate("""() => [...document.querySelectorAll('main button, main a, main input, main select')]
        .filter((e) => e.offsetParent !== null)
        .map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 24 || r.height < 24).map(([n, r]) => `${n}: ${r.width}x${r.height}`)""")


def serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    return [f"{v['id']}: {v['nodes'][0]['target'] if v['nodes'] else ''}" for v in Axe().run(page).response["violations"]
            if v.get("impact") in ("serious", "critical")]


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_books_page_reads_plainly_at_both_sizes(server: Any, people: Any, shot: Any, size: dict[str, int]) -> None:
    inspector = people("inspector", viewport=size)
    page = inspector.open("/books")
    page.wait_for_selector("#books section.book[data-table='r2'] svg.book-chart polyline.actual")
    text = page.locator("main").inner_text()
    for raw in ("{", "null", "undefined", "NaN", "_float", "theoretical_win"):
        assert raw not in text, raw
    assert "Opening float (anticipo)" in text and "€5,000.00" in text and "Theoretical win" in text
    assert re.search(r"The result lies -?[\d.]+ standard deviations from the theoretical win", text)
    assert page.locator("section.book").count() == 3                     # r1, r2 and the casino
    assert page.locator("#books-guarantee").inner_text().endswith("€5,000.00")   # r2 still in play
    assert page.locator("section.book[data-table='r1'] svg.book-chart polyline.expected").count() == 1
    assert sideways(page) <= 0
    assert small_controls(page) == []
    assert serious(page) == []
    shot(page, f"books-{size['width']}")


def test_books_filter_by_table_and_period(server: Any, people: Any) -> None:
    chief = people("jefe")
    page = chief.open("/books")
    page.wait_for_selector("section.book[data-table='r1']")
    page.select_option("#books-table", "r1")
    page.locator("#books-show").click()
    page.wait_for_function("document.querySelectorAll(\"section.book[data-table='r2']\").length === 0")
    assert page.locator("section.book[data-table='r1']").count() == 1
    page.select_option("#books-table", "")
    page.fill("#books-from", "2001-01-01")
    page.fill("#books-to", "2001-01-02")
    page.locator("#books-show").click()
    page.wait_for_selector("#books-none")
    assert "No table was opened in a jornada in this period." in page.locator("#books-none").inner_text()


def test_books_page_refuses_a_player_and_asks_a_visitor_to_log_in(server: Any, people: Any) -> None:
    player = people("luis")
    answer = player.page.goto(f"{server.base}/books")
    assert answer is not None and answer.status == 403
    player.page.wait_for_selector("body[data-ready='1']")
    assert "This page is for the table chief and the inspector." in player.page.locator("main").inner_text()
    assert player.page.locator("#books-forbidden a").get_attribute("href") == "/login?next=/books"
    assert player.page.locator("section.book").count() == 0
    visitor = people(None)
    answer = visitor.page.goto(f"{server.base}/books")
    assert answer is not None and answer.status == 401
    visitor.page.wait_for_selector("body[data-ready='1']")
    assert "log in to read them" in visitor.page.locator("main").inner_text()
    assert serious(visitor.page) == []
