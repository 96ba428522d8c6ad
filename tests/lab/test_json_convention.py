"""Issue 32, point 4: one JSON convention for the project — `rules --json` and `diff --json` write typed values
(booleans, integers, fractions as "n/d", payouts as [n, d]) for every game in every jurisdiction, valid against
rules.schema.json / diff.schema.json; and `tapete cite` resolves every source string the CLI prints (rules, diff,
errors, log lines), the project's rulings included."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from typer.testing import CliRunner

from tapete.catalog import all_games
from tapete.cli import app
from tapete.conformance.document import settle_document
from tapete.core.citing import resolve, split_source
from tapete.core.typed_json import is_payout_rule, typed
from tapete.lab.cases import golden_cases
from tapete.lab.kit import schema

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
PRINTED_SCALAR = re.compile(r"^(True|False|None|-?\d+|-?\d+\.\d+|\d+:\d+)$")
GAME_JURISDICTIONS = [(g.id, j) for g in all_games() for j in g.rules]


def validators() -> tuple[Draft202012Validator, Draft202012Validator]:
    registry = Registry().with_resources([(schema(n)["$id"], Resource.from_contents(schema(n))) for n in ("rules", "diff")])
    return (Draft202012Validator(schema("rules"), registry=registry),
            Draft202012Validator(schema("diff"), registry=registry))


def leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in leaves(v)]
    return [value]


def test_the_convention() -> None:
    assert typed(True) is True and typed(None) is None and typed(7) == 7 and typed("banco") == "banco"
    assert typed(Fraction(3, 2)) == "3/2" and typed(Fraction(5)) == "5/1" and typed(Decimal("0.5")) == "1/2"
    assert typed({"straight": Fraction(35)}, payout=True) == {"straight": [35, 1]}
    assert typed({3: (1, 2)}) == {"3": [1, 2]} and typed(frozenset({"b", "a"})) == ["a", "b"]
    assert is_payout_rule("payouts") and is_payout_rule("call_pays") and is_payout_rule("tie_payout")
    assert not is_payout_rule("no_bets_during_payout_window") and not is_payout_rule("maxima")
    with pytest.raises(TypeError):
        typed(object())


@pytest.mark.parametrize(("game", "jurisdiction"), GAME_JURISDICTIONS)
def test_rules_json_is_typed_and_valid(game: str, jurisdiction: str) -> None:
    result = runner.invoke(app, ["rules", game, "-j", jurisdiction, "--json"])
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validators()[0].iter_errors(doc)]
    assert not errors
    printed = [x for r in doc["rules"] for x in leaves(r["value"]) if isinstance(x, str) and PRINTED_SCALAR.match(x)]
    assert printed == []                        # no "False", "3", "35:1" written as text
    for r in doc["rules"]:
        if is_payout_rule(r["rule"]):
            pairs = [v for v in (r["value"].values() if isinstance(r["value"], dict) else [r["value"]]) if v is not None]
            assert all(isinstance(p, list) and len(p) == 2 and all(isinstance(n, int) for n in p)
                       for p in pairs if not isinstance(p, dict | bool)), r


def test_rules_json_writes_the_roulette_payouts_as_pairs() -> None:
    doc = json.loads(runner.invoke(app, ["rules", "roulette-french", "-j", "ES", "--json"]).stdout)
    rules = {r["rule"]: r["value"] for r in doc["rules"]}
    assert rules["payouts"]["straight"] == [35, 1] and rules["payouts"]["two-dozens"] == [1, 2]
    assert rules["zero_trios"] is False and rules["last_spin_refund"] is True
    assert rules["maxima"]["3"]["straight"] == 30                  # integers stay integers
    craps = {r["rule"]: r["value"] for r in json.loads(runner.invoke(app, ["rules", "craps", "--json"]).stdout)["rules"]}
    assert craps["odds_payouts"]["6"] == [6, 5]
    assert any(isinstance(v, str) and re.fullmatch(r"\d+/\d+", v) for r in craps.values() for v in leaves(r))


@pytest.mark.parametrize("game", sorted(g.id for g in all_games() if len(g.rules) > 1))
def test_diff_json_is_typed_and_valid(game: str) -> None:
    result = runner.invoke(app, ["diff", game, "--json"])
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert not [e.message for e in validators()[1].iter_errors(doc)]
    values = [x for d in doc["differences"] for k, v in d.items() if k != "rule" for x in leaves(v["value"])]
    assert not [x for x in values if isinstance(x, str) and PRINTED_SCALAR.match(x)]


@pytest.mark.parametrize("game", sorted(g.id for g in all_games() if len(g.rules) == 1))
def test_diff_json_of_a_game_one_catalog_has_is_the_error_document(game: str) -> None:
    """Issue 28 point 4 (docs/terminal.md, exit codes): nothing to compare is refused, and a `--json` caller reads the
    project's error document on stdout (exit 2), not a diff document with no differences."""
    result = runner.invoke(app, ["diff", game, "--json"])
    assert result.exit_code == 2
    doc = json.loads(result.stdout)
    error = Draft202012Validator({"$defs": schema("settlement")["$defs"], "$ref": "#/$defs/error"})
    assert not [e.message for e in error.iter_errors(doc)]
    assert doc["error"]["code"] == "nothing-to-compare" and f"tapete rules {game} -j" in doc["error"]["message"]


def test_the_schema_refuses_printed_values() -> None:
    rules = validators()[0]
    good = {"game": "g", "jurisdiction": "ES", "rules": [{"rule": "r", "value": True, "source": "001:1", "cite": "x"}]}
    assert not list(rules.iter_errors(good))
    for printed in ("False", "3", "35:1", "None"):
        bad = json.loads(json.dumps(good))
        bad["rules"][0]["value"] = printed
        assert list(rules.iter_errors(bad)), printed


# -- every source the CLI prints is resolved by `tapete cite` ----------------------------------------------------------
CITATION = re.compile(r"\b\d{3}:\d+(?:-\d+)?\b")
RULING = re.compile(r"R: docs/rulings\.md#[a-z0-9-]+")


def printed_sources() -> set[str]:
    """Every source string `rules` and `diff` print (whole, as printed), and every citation and ruling the errors and
    log lines of every golden case print, for every game and jurisdiction."""
    found = {source for g in all_games() for rules in g.rules.values() for _, _, source in rules.items()}
    for case in golden_cases():
        answer = settle_document(case.doc)
        texts = [str(x) for x in answer.get("log", [])]
        if "error" in answer:
            if answer["error"].get("source"):
                found.add(answer["error"]["source"])
            texts.append(answer["error"]["message"])
        for text in texts:
            found |= {m.group(0) for m in CITATION.finditer(text)} | {m.group(0) for m in RULING.finditer(text)}
    return found


def test_cite_resolves_every_source_the_cli_prints() -> None:
    sources = printed_sources()
    assert len(sources) > 1000
    unresolved = []
    for source in sorted(sources):
        try:
            lines = resolve(source)
        except ValueError as exc:
            unresolved.append((source, str(exc)))
            continue
        assert len(lines) >= len(split_source(source)), source
    assert unresolved == []


def test_cite_prints_a_ruling() -> None:
    result = runner.invoke(app, ["cite", "rulings#chemin-bank-award"])
    assert result.exit_code == 0
    assert result.output.startswith("rulings#chemin-bank-award: a reading of tapete's")
    assert "**Question.** Who gets a bank nobody holds" in result.output
    printed = runner.invoke(app, ["cite", "R: docs/rulings.md#chemin-bank-award"])
    assert printed.exit_code == 0 and printed.output == result.output


def test_cite_resolves_a_whole_printed_source() -> None:
    source = "001:811; 815; R: docs/rulings.md#chemin-bank-default"
    result = runner.invoke(app, ["cite", source])
    assert result.exit_code == 0
    assert "001:811: Orden de 9 de octubre de 1979" in result.output and "001:815: Orden" in result.output
    assert "rulings#chemin-bank-default" in result.output
    remark = runner.invoke(app, ["cite", "003:4378-4379 (the casino's; no scale)"])
    assert remark.exit_code == 0 and "  remark: the casino's; no scale" in remark.output
    vocabulary = runner.invoke(app, ["cite", "docs/vocabulary.md §14-4"])
    assert vocabulary.exit_code == 0 and "Circle-poker session fees" in vocabulary.output


@pytest.mark.parametrize("bad", ["rulings#no-such-ruling", "hello", "815", "docs/vocabulary.md §99"])
def test_cite_refuses_what_it_cannot_resolve(bad: str) -> None:
    result = runner.invoke(app, ["cite", bad])
    assert result.exit_code == 2 and "error" in result.output


def test_the_shipped_rulings_are_in_sync_with_the_docs() -> None:
    """docs/ is not package data: `tapete cite` reads docs_index.json. Rebuild it after editing docs/rulings.md or
    docs/vocabulary.md: `python scripts/build_docs_index.py`."""
    check = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_docs_index.py"), "--check"], check=False)
    assert check.returncode == 0, "src/tapete/core/docs_index.json is stale: run python scripts/build_docs_index.py"
    anchors = set(re.findall(r"^## (\S+)\s*$", (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8"), re.M))
    shipped = json.loads((ROOT / "src" / "tapete" / "core" / "docs_index.json").read_text(encoding="utf-8"))["rulings"]
    assert set(shipped) == anchors
