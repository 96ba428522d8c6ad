"""Fixtures of the browser suite: one casino server (uvicorn in a thread, SQLite in a temporary
directory) with a table of every game family, and one Debian Chromium driven by Playwright, per module.

Playwright never downloads a browser here: it launches /usr/bin/chromium (`make deps` installs it); without
it the suite is skipped with the reason.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
# Where the screenshots go: an ignored folder, so that a test run leaves the tree as it found it; `make
# screenshots` sets TAPETE_SCREENSHOTS=docs/screenshots to refresh the ones docs/browser.md shows.
SCREENSHOTS = ROOT / os.environ.get("TAPETE_SCREENSHOTS", "build/screenshots")
PASSWORD = "secret-pw-2026"
VIEWPORT = {"width": 1280, "height": 800}

TABLES: list[dict[str, Any]] = [
    {"id": "ruleta", "name": "Ruleta en vivo", "game": "roulette-french", "jurisdiction": "ES-AN", "source": "croupier",
     "auto": False, "table": {"minimum": 100}},
    {"id": "ruleta-ib", "name": "Ruleta americana (Baleares)", "game": "roulette-american", "jurisdiction": "ES-IB",
     "source": "croupier", "auto": False, "table": {"minimum": 500}},
    {"id": "bola", "name": "Bola", "game": "boule", "jurisdiction": "ES", "source": "croupier", "auto": False,
     "table": {"minimum": 100}},
    {"id": "fortuna", "name": "Rueda de la fortuna", "game": "wheel-of-fortune", "jurisdiction": "ES-AN", "source": "rng",
     "auto": False, "table": {"minimum": 100}},
    {"id": "bj", "name": "Black Jack en vivo", "game": "blackjack", "jurisdiction": "ES", "source": "croupier", "auto": False,
     "table": {"minimum": 500}},
    {"id": "pb", "name": "Punto y banca en vivo", "game": "punto-banca", "jurisdiction": "ES", "source": "croupier",
     "auto": False, "table": {"minimum": 1000}},
    {"id": "tq", "name": "Treinta y cuarenta", "game": "trente-quarante", "jurisdiction": "ES", "source": "rng", "auto": False,
     "table": {"minimum": 500}},
    {"id": "dados", "name": "Dados en vivo", "game": "craps", "jurisdiction": "ES", "source": "croupier", "auto": False,
     "table": {"minimum": 100}},
    {"id": "tripoker", "name": "Tripóquer", "game": "tripoker", "jurisdiction": "ES-AN", "source": "rng", "auto": False,
     "table": {"minimum": 500}},
    {"id": "holdem", "name": "Texas hold'em", "game": "holdem", "jurisdiction": "ES-AN", "source": "rng", "auto": False,
     "table": {"minimum": 200, "forced": "blinds"}},      # players sit down with a buy-in (test_browser_holdem)
    {"id": "monte", "name": "Casino Monte", "game": "casino-monte", "jurisdiction": "ES-AN", "source": "rng", "auto": False,
     "table": {"minimum": 500}},
    {"id": "chemin", "name": "Chemin de fer en vivo", "game": "chemin-de-fer", "jurisdiction": "ES", "source": "croupier",
     "auto": False, "table": {"minimum": 1000}},
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def casino_config(tables: list[dict[str, Any]]) -> Any:
    from tapete.server.config import CasinoConfig, validate

    users = [
        {"username": "croupier", "password": PASSWORD, "roles": ["croupier"]},
        {"username": "jefe", "password": PASSWORD, "roles": ["chief", "croupier"]},
        {"username": "cajero", "password": PASSWORD, "roles": ["cashier"]},
        {"username": "inspector", "password": PASSWORD, "roles": ["inspector"]},
        {"username": "ana", "password": PASSWORD, "roles": ["player"], "chips": 0},
        {"username": "luis", "password": PASSWORD, "roles": ["player"], "chips": 100_000},
    ]
    return validate(CasinoConfig.model_validate({
        "casino": {"name": "Casino Tapete (pruebas)", "jurisdiction": "ES", "timezone": "Europe/Madrid"},
        "security": {"argon2_time_cost": 1, "argon2_memory_kib": 8, "login_attempts": 100, "open_registration": True},
        "tables": tables, "users": users}))


class LiveServer:
    """`create_app` served by uvicorn on a free loopback port, in a daemon thread of the test process."""

    def __init__(self, tmp: Path, tables: list[dict[str, Any]]) -> None:
        import uvicorn

        from tapete.server.http.app import create_app

        self.port = free_port()
        self.app = create_app(casino_config(tables), f"sqlite:///{tmp / 'casino.db'}")
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    access_log=False))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self._tokens: dict[str, str] = {}

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        import httpx

        self.thread.start()
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("the test server did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)

    # -- the API, for arranging what a test needs without a page --------------------------------------
    def token(self, user: str) -> str:
        import httpx

        if user not in self._tokens:
            r = httpx.post(f"{self.base}/api/login", json={"username": user, "password": PASSWORD})
            assert r.status_code == 200, r.text
            self._tokens[user] = r.json()["token"]
        return self._tokens[user]

    def call(self, user: str, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        import httpx

        headers = {"Authorization": f"Bearer {self.token(user)}", "Idempotency-Key": uuid.uuid4().hex}
        r = httpx.request(method, f"{self.base}{path}", json=body if body is not None or method == "GET" else {},
                          headers=headers, timeout=30)
        assert r.status_code == expect, f"{method} {path}: {r.status_code} {r.text}"
        return r.json()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("casino"), TABLES).start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent: the browser tests drive Debian's Chromium (make deps installs it)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
        yield chromium
        chromium.close()


class Person:
    """One logged-in browser context (its own cookies: the session is an HttpOnly cookie) and its page."""

    def __init__(self, browser: Any, server: LiveServer, user: str | None, lang: str = "en", csp: bool = False,
                 viewport: dict[str, int] | None = None) -> None:
        self.server = server
        # bypass_csp: Playwright's wait_for_function evaluates its string predicates with eval, which the pages'
        # CSP forbids; test_browser_security.py drives the pages with the CSP in force (csp=True).
        phone = viewport is not None and viewport["width"] < 800       # a phone: touch, taps
        self.context = browser.new_context(viewport=viewport or VIEWPORT, locale="en-GB" if lang == "en" else "es-ES",
                                           bypass_csp=not csp, has_touch=phone, is_mobile=phone)
        self.context.set_default_timeout(10_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.lang = lang
        if user is not None:
            self.page.goto(f"{server.base}/login?lang={lang}")
            self.page.get_by_label("User name" if lang == "en" else "Usuario", exact=True).first.fill(user)
            self.page.locator("#login-pass").fill(PASSWORD)
            self.page.locator("#login-submit").click()
            self.page.wait_for_url(f"{server.base}/")

    def open(self, path: str) -> Any:
        self.page.goto(f"{self.server.base}{path}")
        self.page.wait_for_selector("body[data-ready='1']")
        return self.page

    def close(self) -> None:
        assert not self.errors, self.errors
        self.context.close()


@pytest.fixture(scope="module")
def people(browser: Any, server: LiveServer) -> Iterator[Any]:
    """people(user, lang='en', csp=False, viewport=None) -> Person, closed at the end of the module."""
    made: list[Person] = []

    def make(user: str | None, lang: str = "en", csp: bool = False, viewport: dict[str, int] | None = None) -> Person:
        person = Person(browser, server, user, lang, csp, viewport)
        made.append(person)
        return person

    yield make
    for p in made:
        p.close()


def _shot(page: Any, name: str) -> Path:
    """A 1280x800 screenshot (PNG, the viewport only): build/screenshots, or docs/screenshots under `make screenshots`."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    _small(path)
    return path


def _small(path: Path) -> None:
    """The PNG in 128 colours (a page is flat colour and text: a quarter of the bytes, no visible change)."""
    try:
        from PIL import Image
    except ImportError:         # pillow absent: the screenshot stays as Chromium wrote it
        return
    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def _tab_until(page: Any, predicate: str, limit: int = 260, back: bool = False) -> None:
    for _ in range(limit):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        if page.evaluate(f"(() => {{ const e = document.activeElement; return Boolean(e && ({predicate})); }})()"):
            return
    raise AssertionError(f"focus never reached: {predicate}")


@pytest.fixture
def tab_until() -> Any:
    """tab_until(page, js_predicate_on_e, back=False): press Tab (Shift+Tab) until the focused element matches."""
    return _tab_until


@pytest.fixture
def shot() -> Any:
    """shot(page, name): a screenshot into SCREENSHOTS/<name>.png (docs/screenshots under `make screenshots`)."""
    return _shot


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")
