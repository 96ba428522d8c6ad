"""The staff pages as the server renders them (issue 30, items 6-7): refused with 403 and a way to log in as
staff to a visitor and to a player; each member of staff given the controls of their roles only; a correction
and a void with their reasons recorded and sent to the players' stream; the cashier's player search; the audit
logs for a person (filters, paging, empty rounds folded); the casino's zone and each table's hours shown and
checked in the casino file."""

from __future__ import annotations

from typing import Any

import pytest

LIVE = {"id": "ruleta", "game": "roulette-french", "source": "croupier", "auto": False, "table": {"minimum": 100},
        "hours": ["20:00-04:00"]}
RNG = {"id": "rng", "game": "roulette-french", "source": "rng", "auto": False, "table": {"minimum": 100}}
STAFF_PAGES = ("/croupier/ruleta", "/croupier", "/cashier", "/inspector")


def page(c: Any, user: str | None, path: str) -> Any:
    return c.client.get(f"{path}{'&' if '?' in path else '?'}lang=en", headers=c.login(user) if user else {},
                        follow_redirects=False)


def test_staff_pages_answer_403_with_a_way_to_log_in_to_a_visitor_and_a_player(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([LIVE], sqlite_url)
    for path in STAFF_PAGES:
        for user in (None, "ana"):
            r = page(c, user, path)
            assert r.status_code == 403, (path, user)
            assert 'id="staff-login"' in r.text and f'href="/login?next={path}"' in r.text, path
            assert 'id="btn-open"' not in r.text and 'id="money-form"' not in r.text and 'id="audit"' not in r.text
        assert ("logged in as ana" in page(c, "ana", path).text) and "Log in with a staff account" in page(c, None, path).text
    # the wrong member of staff: the cashier has no console, the croupier no cage, no inspector page
    assert page(c, "cajero", "/croupier/ruleta").status_code == 403
    assert page(c, "croupier", "/cashier").status_code == 403
    assert page(c, "croupier", "/inspector").status_code == 403
    assert page(c, "inspector", "/cashier").status_code == 403
    # each on their own page
    assert page(c, "croupier", "/croupier/ruleta").status_code == 200
    assert page(c, "cajero", "/cashier").status_code == 200
    assert page(c, "inspector", "/inspector").status_code == 200
    assert page(c, "jefe", "/inspector").status_code == 200             # the chief: the audit of his tables


def test_a_chief_of_other_tables_is_refused_this_console(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([LIVE, RNG], sqlite_url, staff=[{"username": "jefa", "roles": ["chief"], "tables": ["rng"]}])
    assert page(c, "jefa", "/croupier/ruleta").status_code == 403
    assert page(c, "jefa", "/croupier/rng").status_code == 200
    assert page(c, "jefa", "/croupier").headers["location"] == "/croupier/rng"
    html = page(c, "jefa", "/inspector").text
    assert '<option value="rng">' in html and '<option value="ruleta">' not in html
    assert 'href="/croupier/rng"' in html                                   # the links to what he may open


def test_only_the_chief_sees_void_and_correct(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([LIVE], sqlite_url)
    plain = page(c, "croupier", "/croupier/ruleta").text
    assert 'id="btn-void"' not in plain and 'id="btn-correct"' not in plain and 'id="chief-dialog"' not in plain
    assert 'id="chief-note"' in plain and 'id="btn-confirm"' in plain
    chief = page(c, "jefe", "/croupier/ruleta").text
    assert 'id="btn-void"' in chief and 'id="btn-correct"' in chief and 'id="chief-dialog"' in chief


def test_the_console_and_the_lobby_show_the_hours_in_the_casinos_zone(make_casino: Any, sqlite_url: str) -> None:
    c = make_casino([LIVE], sqlite_url)
    console = page(c, "croupier", "/croupier/ruleta").text
    assert "Opening hours: 20:00–04:00" in console and "(Europe/Madrid)" in console
    lobby = page(c, None, "/").text
    assert "20:00–04:00 (Europe/Madrid)" in lobby
    assert '"timezone": "Europe/Madrid"' in console


def test_a_void_and_a_correction_record_their_reasons_and_the_stream_carries_them(make_casino: Any, database_url: str) -> None:
    c = make_casino([{**LIVE, "hours": ["00:00-24:00"]}], database_url)
    with c.client.websocket_connect("/api/tables/ruleta/stream", headers=c.login("ana")) as ws:
        c.post("croupier", "/api/tables/ruleta/open")
        c.bet("ana", "ruleta", {"kind": "red", "amount": 500})
        c.post("croupier", "/api/tables/ruleta/outcome", {"value": 3})
        waiting = c.get("croupier", "/api/tables/ruleta/preview")          # a console reloaded sees what waits
        assert waiting["preview"]["bets"]["b1"] == {"player": "ana", "status": "won", "staked": 500, "returned": 1000}
        c.post("jefe", "/api/tables/ruleta/correct", {"value": 4, "reason": "the ball settled in 4"})
        c.post("jefe", "/api/tables/ruleta/void", {"reason": "ball left the wheel"})
        seen: dict[str, Any] = {}
        while "void" not in seen:
            rec = ws.receive_json()
            if rec.get("kind") in ("correct", "void"):
                seen[rec["kind"]] = rec
    assert seen["correct"]["data"]["reason"] == "the ball settled in 4"           # what the players' feed reads
    assert seen["void"]["data"]["event"]["void"] == "ball left the wheel"
    log = c.get("inspector", "/api/audit/incidents")["items"]
    assert [(r["action"], r["data"]["reason"]) for r in log] == [("void", "ball left the wheel"),
                                                                ("correct", "the ball settled in 4")]
    assert c.get("jefe", "/api/audit/tables/ruleta?kind=correct")["items"][0]["data"]["reason"] == "the ball settled in 4"
    c.ledger()


def test_the_cashier_finds_players_by_name(make_casino: Any, database_url: str) -> None:
    c = make_casino([LIVE], database_url, players={"marta": 25_050, "martin": 0, "luis": 0})
    found = c.get("cajero", "/api/players?q=MART")["players"]
    assert [(p["user"], p["balance"]) for p in found] == [("marta", 25_050), ("martin", 0)]
    assert c.get("cajero", "/api/players?q=jefe")["players"] == []          # staff are not players
    assert c.get("cajero", "/api/players?q=%25")["players"] == []           # no wildcard smuggled in
    c.get("marta", "/api/players?q=mar", expect=403)
    c.get("croupier", "/api/players?q=mar", expect=403)


def test_the_audit_log_folds_empty_rounds_filters_and_pages(make_casino: Any, database_url: str) -> None:
    c = make_casino([RNG], database_url)
    for _ in range(5):                                   # five empty rounds: open, no spin, settled with nothing
        c.post("croupier", "/api/tables/rng/open")
        c.post("croupier", "/api/tables/rng/close")
    c.post("croupier", "/api/tables/rng/open")
    c.bet("ana", "rng", {"kind": "red", "amount": 100})
    c.post("croupier", "/api/tables/rng/close")
    c.post("croupier", "/api/tables/rng/draw")
    raw = c.get("inspector", "/api/audit/tables/rng?fold=false&limit=200")["items"]
    doc = c.get("inspector", "/api/audit/tables/rng?limit=200")
    folded = [i for i in doc["items"] if i.get("folded")]
    assert len(folded) == 1 and folded[0]["rounds"] == [1, 5] and folded[0]["records"] == 15
    assert len(doc["items"]) == len(raw) - 15 + 1 and doc["next_before"] is None
    bets = c.get("inspector", "/api/audit/tables/rng?kind=bet")["items"]
    assert [r["kind"] for r in bets] == ["bet"] and bets[0]["data"]["event"]["bet"]["player"] == "ana"
    assert c.get("inspector", "/api/audit/tables/rng?actor=ana")["items"][0]["kind"] == "bet"
    assert c.get("inspector", f"/api/audit/tables/rng?until={raw[-1]['ts']}")["items"] == []
    # paging: three items a page, newest first, the pages joined are the whole log
    items, before = [], None
    while True:
        page_doc = c.get("inspector", f"/api/audit/tables/rng?limit=3{f'&before={before}' if before else ''}")
        items += page_doc["items"]
        before = page_doc["next_before"]
        if before is None:
            break
    assert [i["seq"] for i in items] == [i["seq"] for i in doc["items"]]
    c.get("croupier", "/api/audit/tables/rng", expect=403)
    c.get("ana", "/api/audit/staff", expect=403)
    assert {r["action"] for r in c.get("inspector", "/api/audit/staff?kind=deposit")["items"]} == {"deposit"}


@pytest.mark.parametrize(("section", "value", "says"), [
    ("casino", {"timezone": "Mars/Olympus"}, "casino.timezone"),
    ("table", {"hours": ["24:30-23:00"]}, "tables[0].hours"),
])
def test_the_casino_file_checks_the_zone_and_the_hours(tmp_path: Any, section: str, value: dict[str, Any], says: str) -> None:
    import subprocess
    import sys
    from pathlib import Path

    casino = {"name": "x", **(value if section == "casino" else {})}
    table = {"id": "r", "game": "roulette-french", **(value if section == "table" else {})}

    def toml(d: dict[str, Any]) -> str:
        return "\n".join(f"{k} = {v!r}".replace("'", '"') for k, v in d.items())

    path = tmp_path / "casino.toml"
    path.write_text(f"[casino]\n{toml(casino)}\n[[tables]]\n{toml(table)}\n", encoding="utf-8")
    out = subprocess.run([str(Path(sys.executable).parent / "tapete"), "config", "check", str(path)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and says in out.stderr and "Traceback" not in out.stderr and "internal" not in out.stderr, out.stderr


def test_every_staff_string_is_in_every_language_and_every_key_the_pages_name_exists() -> None:
    """The staff area (i18n/<lang>/staff.json) whole in es, en, gl and ca with the same placeholders; every literal
    key the staff pages' modules and templates name is in the catalog (a missing key would show as its name)."""
    import re
    from pathlib import Path

    from tapete import i18n
    from tapete.server.http.web import HERE, staff_strings

    en = i18n._file("en", "staff")
    for lang in ("es", "gl", "ca"):
        other = i18n._file(lang, "staff")
        assert set(en) == set(other), (lang, set(en) ^ set(other))
        for key in en:
            assert i18n.placeholders(en[key]) == i18n.placeholders(other[key]), (lang, key)
    names = set()
    for module in ("console.js", "cashier.js", "inspector.js", "staff.js"):
        names |= set(re.findall(r"""\b(?:t|say)\(\s*"([a-z_][a-z0-9_-]*)\"""", (HERE / "static" / module).read_text(encoding="utf-8")))
    for template in ("console.html", "cashier.html", "inspector.html", "forbidden.html", "base.html", "lobby.html", "_dialogs.html"):
        names |= set(re.findall(r"\b(?:t|st)\.(?!get\()([a-z_][a-z0-9_]*)", (HERE / "templates" / template).read_text(encoding="utf-8")))
    names |= {f"staff_err_{c}" for c in ("value-missing", "insufficient-funds")}
    for lang in ("es", "en", "gl", "ca"):
        missing = names - set(staff_strings(lang))
        assert missing == set(), (lang, sorted(missing))
    assert Path(HERE / "static" / "staff.js").exists()
