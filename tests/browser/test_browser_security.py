"""The pages under their own Content-Security-Policy (no inline script, nothing framed), and a session that a
script injected into a page cannot carry away: the token lives in an HttpOnly cookie, never in storage a
script reads; state-changing calls carry the CSRF token; the table's stream follows over the cookie."""

from __future__ import annotations

from typing import Any

PAGES = ("/", "/tables/ruleta", "/croupier/ruleta", "/cashier", "/inspector", "/login")


def test_pages_run_under_their_csp_and_injected_script_finds_no_session(server: Any, people: Any) -> None:
    luis = people("luis", csp=True)
    violations: list[str] = []
    luis.page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    for path in PAGES:
        page = luis.open(path)
        assert page.evaluate("document.querySelectorAll('script:not([src]):not([type=\"application/json\"])').length") == 0
    assert violations == [], violations

    page = luis.open("/tables/ruleta")
    assert page.locator("#me-user").inner_text() == "luis"              # logged in, by the cookie alone
    # what an injected script could read: no token in cookies it can see, nor in any storage
    cookies = page.evaluate("document.cookie")
    assert "tapete_session" not in cookies and "tapete_csrf=" in cookies
    assert page.evaluate("localStorage.length + sessionStorage.length") == 0
    session = next(c for c in luis.context.cookies() if c["name"] == "tapete_session")
    assert session["httpOnly"] and session["sameSite"] == "Strict"
    # an inline script injected into the page does not run (CSP: script-src 'self')
    page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.pwned = 1'; "
                  "document.body.append(s); }")
    page.wait_for_timeout(200)
    assert page.evaluate("window.pwned === undefined")
    assert any("Content Security Policy" in v for v in violations)
    # a write without the CSRF header is refused, even from the page itself with its cookie
    status = page.evaluate("""async () => (await fetch('/api/tables/ruleta/bets', {method: 'POST',
        headers: {'content-type': 'application/json', 'idempotency-key': 'x1'},
        body: JSON.stringify({bets: [{kind: 'red', amount: 100}]})})).status""")
    assert status == 403
    violations.clear()

    # the stream over the session cookie: the croupier opens betting, the page follows live
    server.call("croupier", "POST", "/api/tables/ruleta/open")
    page.wait_for_selector("#phase[data-phase='betting']")
    page.get_by_role("radio", name="Chip €1.00").click()
    page.locator(".spot[data-kind='red']").first.click()
    page.wait_for_selector("#my-bets li[data-bet]")
    assert page.locator("#balance").inner_text() == "€999.00"

    # logging out clears the cookie
    page.locator("#logout").click()
    page.wait_for_url(f"{server.base}/")
    assert not [c for c in luis.context.cookies() if c["name"] == "tapete_session"]
