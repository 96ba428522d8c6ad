"""Issue 31 in the browser (points 7, 8, 10): registration says what is wrong next to each field and states its
rules; the account page (statement, rounds, the fairness check in WebCrypto, the session, limits, self-exclusion)
at 390x844 and 1280x800 — no control under 24 px, no sideways scroll, no null/undefined/ids/cents, axe-core with
no serious or critical violation; the help link on every page; the reality check on a table page."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PASSWORD, LiveServer  # type: ignore[import-not-found]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
RULETA = {"id": "ruleta-e", "name": "Ruleta electrónica", "game": "roulette-french", "jurisdiction": "ES-AN",
          "source": "rng", "auto": False, "table": {"minimum": 100}}
HELP = "https://www.jugarbien.es/"

# The page's own controls and the two header links this issue adds (the header's others: the layout issue's).
SMALL_CONTROLS = """() => [...document.querySelectorAll(`main :is(a, button, input, select, summary, [role=button]),
    dialog :is(a, button), a.help-link, #account-link`)]
  .filter((e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && (r.width < 24 || r.height < 24); })
  .map((e) => `${e.tagName} ${e.id || e.className} ${e.textContent.trim().slice(0, 20)}`)"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("account"), [RULETA]).start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def played(server: LiveServer) -> dict[str, Any]:
    """luis has played one electronic round: a stake, the draw, its record with the revealed seed."""
    server.call("croupier", "POST", "/api/tables/ruleta-e/open")
    server.call("luis", "POST", "/api/tables/ruleta-e/bets", {"bets": [{"kind": "red", "amount": 500}]})
    server.call("croupier", "POST", "/api/tables/ruleta-e/close")
    server.call("croupier", "POST", "/api/tables/ruleta-e/draw")
    rounds = server.call("luis", "GET", "/api/me/rounds")["rounds"]
    return rounds[0]


def sideways(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def serious(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']}: {v['nodes'][0]['target'] if v['nodes'] else ''}" for v in results.response["violations"]
            if v.get("impact") in ("serious", "critical")]


def plain(page: Any, *ids: str) -> None:
    """What a player reads: no developer words, no ids, no cents."""
    text = page.locator("body").inner_text()
    for word in ("null", "undefined", "NaN", "wallet:", "stakes:", "[object", "{", *ids):
        assert word not in text, (word, text[:2000])
    assert not re.search(r"\b500\b(?![.,]\d)", text.replace("500,00", "").replace("5.00", "")), text[:2000]


def register(page: Any, base: str, username: str, birth: str, document: str, password: str = PASSWORD,
             ok: bool = False) -> None:
    """Fill and send the registration form; wait for the home page (`ok`) or for a field's error."""
    page.goto(f"{base}/login?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#reg-user").fill(username)
    page.locator("#reg-pass").fill(password)
    page.locator("#reg-birth").fill(birth)
    page.locator("#reg-doc").fill(document)
    page.locator("#register-submit").click()
    if ok:
        page.wait_for_url(f"{base}/")
    else:
        page.wait_for_selector(".field-error:not(:empty)")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_registration_says_what_is_wrong_next_to_each_field(server: LiveServer, people: Any, shot: Any,
                                                            size: dict[str, int]) -> None:
    page = people(None, viewport=size).page
    register(page, server.base, "con espacio", "1990-05-17", "12345678Z")
    assert page.locator("#reg-user-err").inner_text() == "A user name has no spaces."
    assert page.locator("#reg-user").get_attribute("aria-invalid") == "true"
    assert "At least 10 characters" in page.locator("#reg-pass-rule").inner_text()     # the rule on the page
    register(page, server.base, f"menor{size['width']}", "2015-03-01", "12345678Z")
    assert page.locator("#reg-birth-err").inner_text() == "You must be 18 or over to play."
    register(page, server.base, f"letra{size['width']}", "1990-05-17", "12345678A")
    assert "letter does not match" in page.locator("#reg-doc-err").inner_text()
    assert page.locator("#reg-user-err").inner_text() == ""                            # the old error went away
    assert sideways(page) == 0 and page.evaluate(SMALL_CONTROLS) == []
    assert serious(page) == []
    shot(page, "phone-register" if size is PHONE else "register")
    document = "00000000T" if size is PHONE else "X1234567L"
    register(page, server.base, f"nueva{size['width']}", "1990-05-17", document, ok=True)
    page.wait_for_selector("#account-link", state="visible")          # shown once the page knows who logged in
    register(page, server.base, f"otra{size['width']}", "1990-05-17", document)           # the same person again
    assert "one account per person" in page.locator("#reg-doc-err").inner_text()


def test_registration_errors_in_spanish(server: LiveServer, people: Any) -> None:
    page = people(None, lang="es").page
    page.goto(f"{server.base}/login?lang=es")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#reg-user").fill("con espacio")
    page.locator("#reg-pass").fill(PASSWORD)
    page.locator("#reg-birth").fill("1990-05-17")
    page.locator("#reg-doc").fill("12345678Z")
    page.locator("#register-submit").click()
    page.wait_for_selector("#reg-user-err:not(:empty)")
    assert page.locator("#reg-user-err").inner_text() == "Un nombre de usuario no lleva espacios."
    assert page.locator(f'a.help-link[href="{HELP}"]').is_visible()


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_account_page_fits_reads_plainly_and_passes_axe(server: LiveServer, people: Any, shot: Any, played: Any,
                                                            size: dict[str, int]) -> None:
    page = people("luis", viewport=size).open("/account")
    page.wait_for_selector(".acct-round")
    moves = page.locator("#acct-moves").inner_text()
    assert "Deposit at the cashier" in moves and "Stake · Ruleta electrónica · round 1" in moves
    assert "€5.00" in moves and "Europe/Madrid" in page.locator("#acct-zone").inner_text()
    assert "Ruleta electrónica, round 1" in page.locator("#acct-rounds").inner_text()
    page.locator(".acct-check-button").first.click()
    page.wait_for_selector("[data-verdict]")
    assert sideways(page) == 0, "sideways scroll"
    assert page.evaluate(SMALL_CONTROLS) == []
    plain(page, "ruleta-e", "wallet", "luis:")
    assert serious(page) == []
    shot(page, "phone-account" if size is PHONE else "account")


def test_the_fairness_check_passes_on_a_real_round_and_fails_on_a_tampered_seed(server: LiveServer, people: Any,
                                                                                 played: Any) -> None:
    record = server.call("luis", "GET", f"/api/rounds/{played['id']}")
    assert hashlib.sha256(bytes.fromhex(record["seed"])).hexdigest() == played["commitment"]
    honest = people("luis").open("/account")
    honest.wait_for_selector(".acct-round")
    honest.locator(".acct-check-button").first.click()
    honest.wait_for_selector("[data-verdict]")
    verdict = honest.locator("[data-verdict]")
    assert verdict.get_attribute("data-verdict") == "ok"
    assert verdict.inner_text() == "The revealed seed matches the commitment published before the round."
    assert f"tapete verify round-{played['id']}.json" in honest.locator(".acct-cmd").inner_text()
    assert honest.locator(f'a[download="round-{played["id"]}.json"]').get_attribute("href") == f"/api/rounds/{played['id']}"

    tampered = people("luis")
    seed = record["seed"]
    forged = {**record, "seed": seed[:-1] + ("0" if seed[-1] != "0" else "1")}

    def forge(route: Any) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(forged))

    tampered.page.route(f"**/api/rounds/{played['id']}", forge)
    page = tampered.open("/account")
    page.wait_for_selector(".acct-round")
    page.locator(".acct-check-button").first.click()
    page.wait_for_selector("[data-verdict]")
    assert page.locator("[data-verdict]").get_attribute("data-verdict") == "bad"
    assert "does NOT match" in page.locator("[data-verdict]").inner_text()


def test_limits_and_self_exclusion_from_the_page(server: LiveServer, people: Any, shot: Any) -> None:
    person = people(None)
    register(person.page, server.base, "prudente", "1985-01-31", "Y2345678Z", ok=True)
    page = person.open("/account")
    page.wait_for_selector("#acct-limit-loss")
    page.locator("#acct-limit-loss").fill("5")
    page.locator('form[data-kind="loss"] button[type="submit"]').click()
    page.wait_for_function("document.querySelector('form[data-kind=loss] .acct-limit-state').textContent.includes('5.00')")
    page.locator("#acct-limit-loss").fill("50")                           # raised: only after the cooling-off
    page.locator('form[data-kind="loss"] button[type="submit"]').click()
    page.wait_for_function("document.querySelector('form[data-kind=loss] .acct-limit-state').textContent.includes('from')")
    state = page.locator('form[data-kind="loss"] .acct-limit-state').inner_text()
    assert state.startswith("Now: €5.00") and "€50.00 from" in state
    page.locator("#acct-excl-days").select_option("30")
    page.locator("#acct-excl-submit").click()
    assert page.locator("#acct-excl-confirm").evaluate("e => e === document.activeElement")   # confirm first
    page.locator("#acct-excl-confirm").check()
    page.locator("#acct-excl-submit").click()
    page.wait_for_url(f"{server.base}/")
    page.goto(f"{server.base}/login?lang=en")
    page.locator("#login-user").fill("prudente")
    page.locator("#login-pass").fill(PASSWORD)
    page.locator("#login-submit").click()
    page.wait_for_selector(".error-doc[data-code='self-excluded']")
    assert "You have excluded yourself from play" in page.locator("#errors").inner_text()


def test_the_help_link_is_on_every_page(server: LiveServer, people: Any) -> None:
    person = people("luis")
    for path in ("/", "/login", "/account", "/tables/ruleta-e", "/tables/nope"):
        person.page.goto(f"{server.base}{path}")
        link = person.page.locator("a.help-link")
        assert link.get_attribute("href") == HELP, path
        assert link.is_visible(), path


def test_the_reality_check_shows_time_and_net_on_a_table_page(server: LiveServer, people: Any, played: Any) -> None:
    person = people("luis")
    person.page.clock.install()
    page = person.open("/tables/ruleta-e")
    page.wait_for_function("document.getElementById('reality-check') !== null")
    assert not page.locator("#reality-check").is_visible()
    page.clock.fast_forward(61 * 60 * 1000)
    page.wait_for_selector("#reality-check[open]")
    text = page.locator("#reality-check .reality-text").inner_text()
    assert re.match(r"You have been playing for \d+ minutes\. Net this session: [−+]?€\d", text), text
    page.locator("#reality-continue").click()
    assert not page.locator("#reality-check").is_visible()
