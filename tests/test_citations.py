"""Every citation a game gives, in its rules data, its log lines and its errors, belongs to the text of the table's
jurisdiction: ES cites 001, ES-IB 000, ES-GA 002, ES-AN 003 (issue 19: an ES-IB sintético log line cited Andalucía's
003:4790-4795 for Baleares' 000:1589). Another text may be cited only where a reading borrows it (`R: ...` in the
same source) or where the jurisdiction's own text makes it apply (Baleares' bingo: 000:45-47 applies the 1979
national order). 004 is a fragment of no known jurisdiction, cited by a reading (trente et quarante insurance)."""

from __future__ import annotations

import ast
import importlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tapete.catalog import all_games
from tapete.conformance.document import settle_document
from tapete.core.jurisdictions import JURISDICTIONS, own_citations
from tapete.lab.cases import golden_path

HERE = Path(__file__).parent
CITATION = re.compile(r"\b(00\d):\d+")
INCORPORATES = {"ES-IB": ("000:45-47",)}      # the jurisdiction's article that makes another text apply


def foreign(text: str, jurisdiction: str) -> list[str]:
    own = JURISDICTIONS[jurisdiction].seed
    return [m.group(0) for m in CITATION.finditer(text) if m.group(1) not in (own, "004")]


def test_own_citations_keeps_the_jurisdictions_article() -> None:
    both = "000:1335; 003:3133-3135; R: docs/rulings.md#x"
    assert own_citations(both, "ES-AN") == "003:3133-3135; R: docs/rulings.md#x"
    assert own_citations(both, "ES-IB") == "000:1335; R: docs/rulings.md#x"
    assert own_citations(both, "ES") == both            # no article of its own: left whole, the test below flags it


def test_rules_sources_cite_the_jurisdictions_own_text() -> None:
    wrong = []
    for game in all_games():
        for j, rules in game.rules.items():
            for name, source in rules.sources.items():
                borrowed = "R:" in source or any(a in source for a in INCORPORATES.get(j, ()))
                if foreign(source, j) and not borrowed:
                    wrong.append((game.id, j, name, source))
    assert wrong == []


def _documents() -> list[Any]:
    docs = []
    for path in sorted(golden_path().glob("*.jsonl")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                docs.append(pytest.param(json.loads(line)["doc"], id=f"{path.stem}:{n}"))
    return docs


def _emitted(doc: dict[str, Any]) -> list[str]:
    answer = settle_document(doc)
    texts = list(answer.get("log", []))
    if "error" in answer:
        texts += [answer["error"].get("source") or "", answer["error"]["message"]]
    return texts


@pytest.mark.parametrize("doc", _documents())
def test_log_lines_and_errors_cite_the_jurisdictions_own_text(doc: dict[str, Any]) -> None:
    j = doc.get("jurisdiction")
    if j not in JURISDICTIONS:
        return
    wrong = [t for t in _emitted(doc) if foreign(t, j) and "R:" not in t]
    assert wrong == []


def test_sintetico_ES_IB_out_of_turn_cites_000_1589() -> None:
    seats = [{"seat": k + 1, "player": p, "stack": 100000} for k, p in enumerate("ABC")]
    events = [{"bet": {"id": p.lower(), "player": p, "kind": "hand", "amount": 1000}} for p in "ABC"]
    events += [{"deal": {}}, {"act": {"bet": "c", "do": "bet", "amount": 2000, "out-of-turn": True}},
               {"act": {"bet": "b", "do": "check", "out-of-turn": True}}]
    doc = {"game": "poker-sintetico", "jurisdiction": "ES-IB", "table": {"minimum": 1000, "seats": seats, "button": 1},
           "shoe": ["AS", "AH", "KS", "KH", "QS", "QH", "8C", "9D", "TH", "JC", "QD"], "events": events}
    texts = _emitted(doc)
    assert any("000:1589" in t for t in texts), texts
    assert not [t for t in texts if foreign(t, "ES-IB")], texts


def test_sintetico_ES_IB_borrowed_procedure_is_cited_as_a_reading() -> None:
    """The last player with a claim may not give up the pot (003:4617-4622): at a Baleares table that article is a
    borrowed reading, and the error says so."""
    seats = [{"seat": k + 1, "player": p, "stack": 100000} for k, p in enumerate("AB")]
    events = [{"bet": {"id": p.lower(), "player": p, "kind": "hand", "amount": 1000}} for p in "AB"]
    events += [{"deal": {}}] + [{"act": {"bet": p, "do": "check"}} for _ in range(5) for p in "ab"]
    events += [{"act": {"bet": "a", "do": "muck"}}, {"act": {"bet": "b", "do": "muck"}}]
    doc = {"game": "poker-sintetico", "jurisdiction": "ES-IB", "table": {"minimum": 1000, "seats": seats, "button": 1},
           "shoe": ["AS", "AH", "KS", "KH", "8C", "9D", "TH", "JC", "QD"], "events": events}
    answer = settle_document(doc)
    assert answer.get("error", {}).get("code") == "illegal-action", answer
    assert "R: docs/rulings.md#sintetico-ib-common-procedures" in answer["error"]["source"]


# -- every refusal of the player-banked baccarats, in every jurisdiction (polish) --------------------------------------
REFUSING_MODULES = ("tapete.games.baccarat.chemin_de_fer", "tapete.games.baccarat.two_tables",
                    "tapete.games.baccarat.punto_banca", "tapete.games.roulette.game")
CITES = ("cite", "own_citations")


def _error_calls(module: str) -> list[ast.Call]:
    tree = ast.parse(Path(importlib.import_module(module).__file__ or "").read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "TapeteError"]


def _bare_citations(node: ast.AST) -> list[str]:
    """Seed citations written as literals in a TapeteError call and not passed through a jurisdiction's choice."""
    if isinstance(node, ast.Call) and (getattr(node.func, "attr", "") in CITES or getattr(node.func, "id", "") in CITES):
        return []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):     # a reading may borrow the national text
        return [] if "R:" in node.value else CITATION.findall(node.value)
    return [c for child in ast.iter_child_nodes(node) for c in _bare_citations(child)]


@pytest.mark.parametrize("module", REFUSING_MODULES)
def test_every_refusal_cites_through_the_jurisdictions_choice(module: str) -> None:
    """No raise site writes a bare 001: a regional document would get the national catalog's article."""
    bare = [(call.lineno, _bare_citations(call)) for call in _error_calls(module) if _bare_citations(call)]
    assert bare == []


def _cited_articles(module: str) -> list[str]:
    """The national citations every `ARTICLES.cite(...)` call of a module asks for (its raise sites and deals)."""
    tree = ast.parse(Path(importlib.import_module(module).__file__ or "").read_text(encoding="utf-8"))
    return [n.args[0].value for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "cite"
            and n.args and isinstance(n.args[0], ast.Constant)]


@pytest.mark.parametrize("module", REFUSING_MODULES[:2])
@pytest.mark.parametrize("jurisdiction", sorted(JURISDICTIONS))
def test_every_chemin_and_two_tables_refusal_cites_the_jurisdictions_article(module: str, jurisdiction: str) -> None:
    articles = importlib.import_module(module).ARTICLES
    asked = _cited_articles(module)
    assert len(asked) >= 20
    wrong = {a: articles.cite(a, jurisdiction) for a in asked if foreign(articles.cite(a, jurisdiction), jurisdiction)
             and "R:" not in articles.cite(a, jurisdiction)}
    assert wrong == {}


def _chemin(jurisdiction: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    bank = {"bet": {"id": "K", "player": "banker", "kind": "bank", "amount": 100000, "seat": 1}}
    return settle_document({"game": "chemin-de-fer", "jurisdiction": jurisdiction, "table": {"minimum": 10000},
                            "events": [bank, *events], "shoe": ["4D", "TC", "5S", "8H"]})


@pytest.mark.parametrize(("jurisdiction", "article"),
                         [("ES", "001:775"), ("ES-IB", "000:881"), ("ES-GA", "002:564"), ("ES-AN", "003:2070-2076")])
def test_chemin_stake_under_the_minimum_cites_the_jurisdictions_article(jurisdiction: str, article: str) -> None:
    answer = _chemin(jurisdiction, [{"bet": {"id": "s", "player": "p", "kind": "player", "amount": 500, "seat": 2}}])
    assert answer["error"]["code"] == "under-minimum"
    assert answer["error"]["source"] == article


@pytest.mark.parametrize(("jurisdiction", "article"),
                         [("ES", "001:990"), ("ES-IB", "000:1087"), ("ES-GA", "002:738"), ("ES-AN", "003:2620-2623")])
def test_two_tables_bank_over_the_maximum_cites_the_jurisdictions_article(jurisdiction: str, article: str) -> None:
    doc = {"game": "baccarat-two-tables", "jurisdiction": jurisdiction,
           "table": {"minimum": 10000, "bank-minimum": 100000, "bank-maximum": 200000},
           "events": [{"bet": {"id": "K", "player": "banker", "kind": "bank", "amount": 900000}}]}
    answer = settle_document(doc)
    assert answer["error"]["code"] == "over-maximum", answer
    assert answer["error"]["source"] == article


def test_punto_banca_andalucia_no_va_mas_is_a_reading() -> None:
    doc = {"game": "punto-banca", "jurisdiction": "ES-AN", "table": {"minimum": 1000},
           "events": [{"close": {}}, {"bet": {"id": "b", "player": "p", "kind": "banca", "amount": 1000}}]}
    answer = settle_document(doc)
    assert answer["error"]["code"] == "bet-closed", answer
    assert answer["error"]["source"].startswith("003:") and "R: docs/rulings.md#punto-banca" in answer["error"]["source"]


@pytest.mark.parametrize(("act", "article"), [({"do": "raise", "amount": 3}, "000:1523-1535"),
                                               ({"do": "bet", "amount": 99999999}, "000:1535")])
def test_sintetico_ES_IB_betting_refusals_cite_baleares_betting_options(act: dict[str, Any], article: str) -> None:
    """The common betting engine cites Andalucía's 003:4504-4533; at a Baleares table the refusal cites Baleares'
    own options (000:1523-1535: retirarse, pasar, cubrir, subir; the resto that falls short)."""
    seats = [{"seat": k + 1, "player": p, "stack": 100000} for k, p in enumerate("ABCD")]
    events = [{"bet": {"id": p.lower(), "player": p, "kind": "hand", "amount": 1000}} for p in "ABCD"]
    events += [{"deal": {}}, {"act": {"bet": "a", **act}}]
    doc = {"game": "poker-sintetico", "jurisdiction": "ES-IB", "table": {"minimum": 1000, "seats": seats, "button": 1},
           "shoe": ["AS", "AH", "KS", "KH", "QS", "QH", "JS", "JH", "8C", "9D", "TH", "JC", "QD"], "events": events}
    error = settle_document(doc)["error"]
    assert error["code"] == "illegal-action" and error["source"] == article
    assert not foreign(error["message"], "ES-IB"), error


@pytest.mark.parametrize("game_id", ["chemin-de-fer", "baccarat-two-tables"])
@pytest.mark.parametrize("jurisdiction", sorted(JURISDICTIONS))
def test_the_deal_burn_void_and_stop_card_sources_are_the_jurisdictions(game_id: str, jurisdiction: str) -> None:
    """The shared coup machinery (baccarat/common.py) cites through the game's `cited`: the deal's shoe-exhausted
    refusal and the burn, early-draw, void and stop-card log lines."""
    from types import SimpleNamespace

    from tapete.catalog import get_game

    game = get_game(game_id)
    state = SimpleNamespace(jurisdiction=jurisdiction)
    for attr in ("deal_source", "burn_source", "early_draw_source", "void_source", "stop_card_source"):
        cited = game.cited(state, getattr(game, attr))
        assert not foreign(cited, jurisdiction), (attr, cited)
