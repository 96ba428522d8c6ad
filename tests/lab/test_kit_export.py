"""Issue 32, point 1: the exported kit is complete (every golden case, once, in its game × jurisdiction file),
valid JSONL, and valid against its hand-written JSON Schemas — which are checked against every golden case, every
answer tapete gives them and every round document under examples/, so neither the schemas nor the format can drift."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from tapete.catalog import all_games
from tapete.cli import app
from tapete.conformance.document import settle_document
from tapete.core.jurisdictions import JURISDICTIONS
from tapete.lab.cases import INVALID, golden_cases
from tapete.lab.kit import SCHEMAS, schema

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(schema(name))


def kit_lines(kit: Path) -> list[tuple[Path, dict]]:
    return [(p, json.loads(line)) for p in sorted((kit / "cases").glob("*/*.jsonl"))
            for line in p.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("name", SCHEMAS)
def test_the_schemas_are_valid_draft_2020_12(name: str) -> None:
    Draft202012Validator.check_schema(schema(name))
    assert schema(name)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_kit_holds_every_golden_case_once_in_its_game_and_jurisdiction_file(kit: Path) -> None:
    lines = kit_lines(kit)
    assert Counter((c["name"], json.dumps(c["doc"], sort_keys=True)) for _, c in lines) == \
        Counter((c.name, json.dumps(c.doc, sort_keys=True)) for c in golden_cases())
    for path, case in lines:
        game, jurisdiction = path.parent.name, path.stem
        doc = case["doc"]
        assert game == (doc.get("game") if game != INVALID else INVALID)
        assert jurisdiction == (doc.get("jurisdiction") if jurisdiction != INVALID else INVALID)
    games_in_kit = {p.parent.name for p, _ in lines}
    assert {g.id for g in all_games()} <= games_in_kit          # every game of the catalogs has cases
    manifest = json.loads((kit / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["cases"] == len(golden_cases()) == len(lines) > 1500
    for rel, entry in manifest["files"].items():
        assert hashlib.sha256((kit / rel).read_bytes()).hexdigest() == entry["sha256"], rel
    assert (kit / "README.md").read_text(encoding="utf-8").startswith("# tapete conformance kit")


def test_every_kit_line_is_a_valid_case_with_its_articles(kit: Path) -> None:
    case_schema = validator("case")
    for path, case in kit_lines(kit):
        errors = [e.message for e in case_schema.iter_errors(case)]
        assert not errors, (path.name, case["name"], errors)
    tq = {c["name"]: c for p, c in kit_lines(kit) if p.parent.name == "trente-quarante" and p.stem == "ES-AN"}
    tie = tq["TQ-06 31-31, no choice made: half returned by default (ES-AN)"]
    assert "003:1123-1127" in tie["articles"] and "rulings#trente-quarante-tie-default" in tie["articles"]
    assert "003:1123-1127" in tie["note"]                   # the old `//` comment line, kept as the case's note
    straight = next(c for p, c in kit_lines(kit) if c["name"].startswith("FR-01 ") and p.stem == "ES")
    assert "001:81-103" in straight["articles"]             # the national payouts (001:81-103)


def test_golden_documents_and_examples_validate_against_the_round_schema() -> None:
    """Every golden document is a valid round document, but those that test the refusal of a malformed document or
    of an unknown jurisdiction (and those must be invalid); the examples too."""
    round_schema = validator("round")
    checked = 0
    for case in golden_cases():
        if case.expect.get("error") in ("bad-document", "unknown-jurisdiction"):
            continue
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in round_schema.iter_errors(case.doc)]
        assert not errors, (case.source, case.name, errors)
        checked += 1
    assert checked > 1500
    rounds = [p for p in sorted((ROOT / "examples").glob("*.json")) if "game" in json.loads(p.read_text(encoding="utf-8"))]
    assert [p.name for p in rounds] == ["round.json"]       # the lototrot files are `pool lototrot` inputs
    for path in rounds:
        assert not list(round_schema.iter_errors(json.loads(path.read_text(encoding="utf-8"))))
        assert "bets" in settle_document(json.loads(path.read_text(encoding="utf-8")))


def test_every_answer_tapete_gives_the_golden_cases_validates_against_the_settlement_schema() -> None:
    answers = validator("settlement")
    kinds = Counter()
    for case in golden_cases():
        answer = settle_document(case.doc)
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in answers.iter_errors(answer)]
        assert not errors, (case.name, errors)
        kinds["error" if "error" in answer else "settlement"] += 1
    assert kinds["error"] > 400 and kinds["settlement"] > 1000


@pytest.mark.parametrize(("where", "bad"), [
    ("amount as text", {"events": [{"bet": {"id": "b", "player": "p", "kind": "red", "amount": "100"}}]}),
    ("unknown top-level key", {"extra": 1}),
    ("two events in one", {"events": [{"spin": 1, "close": {}}]}),
    ("last on a bet", {"events": [{"bet": {"id": "b", "player": "p", "kind": "red", "amount": 100}, "last": True}]}),
    ("an act with both bet and by", {"events": [{"act": {"bet": "b", "by": "bank", "do": "x"}}]}),
    ("a jurisdiction that is not one", {"jurisdiction": "ES-XX"}),
    ("a card that is not one", {"shoe": ["1S"]}),
    ("no minimum", {"table": {}}),
])
def test_the_round_schema_refuses_what_tapete_refuses(where: str, bad: dict) -> None:
    doc = {"game": "roulette-french", "jurisdiction": "ES", "table": {"minimum": 100},
           "events": [{"bet": {"id": "b", "player": "p", "kind": "red", "amount": 100}}, {"spin": 1}]}
    assert not list(validator("round").iter_errors(doc))
    doc.update(bad)
    assert list(validator("round").iter_errors(doc)), where
    assert "error" in settle_document(doc), where


@pytest.mark.parametrize("bad", [
    {"game": "g", "jurisdiction": "ES", "bets": {"b": {"status": "won", "staked": "100", "returned": 200}},
     "house": {"commission": 0, "net": -100}, "rounds": 1},
    {"game": "g", "jurisdiction": "ES", "bets": {"b": {"status": "lucky", "staked": 100, "returned": 200}},
     "house": {"commission": 0, "net": -100}, "rounds": 1},
    {"game": "g", "jurisdiction": "ES", "bets": {"b": {"status": "pending", "staked": 100, "returned": 100}},
     "house": {"commission": 0, "net": 0}, "rounds": 0},
    {"error": {"message": "no code"}},
])
def test_the_settlement_schema_refuses_malformed_answers(bad: dict) -> None:
    assert list(validator("settlement").iter_errors(bad))


def test_export_of_one_game_and_jurisdiction(tmp_path: Path) -> None:
    result = runner.invoke(app, ["conformance", "export", str(tmp_path), "--game", "trente-quarante", "-j", "ES-AN"])
    assert result.exit_code == 0, result.output
    files = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "cases").rglob("*.jsonl"))
    assert files == ["cases/trente-quarante/ES-AN.jsonl"]
    count = sum(1 for c in golden_cases() if c.game == "trente-quarante" and c.jurisdiction == "ES-AN")
    assert f"{count} cases of 1 games in 1 files" in result.output
    assert len((tmp_path / files[0]).read_text(encoding="utf-8").splitlines()) == count


@pytest.mark.parametrize("args", [["--game", "nope"], ["-j", "ES-XX"], ["--game", "lototrot", "-j", "ES"]])
def test_export_refuses_what_it_cannot_export(tmp_path: Path, args: list[str]) -> None:
    result = runner.invoke(app, ["conformance", "export", str(tmp_path / "k"), *args])
    assert result.exit_code == 2 and "error" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "k").exists()


def test_the_golden_suites_are_package_data() -> None:
    """The export must work from an installed package: the suites, schemas and README are in pyproject's
    package-data and under src/, not under tests/."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for pattern in ("lab/golden/*.jsonl", "lab/schemas/*.json", "lab/kit_readme.md", "core/docs_index.json"):
        assert f'"{pattern}"' in text, pattern
    assert not list((ROOT / "tests").rglob("*.jsonl"))
    assert len(JURISDICTIONS) == 4


def test_every_article_of_the_kit_is_resolved_by_cite(kit: Path) -> None:
    """A lab reads `articles` with `tapete cite`: each one resolves (instrument lines and rulings alike)."""
    from tapete.core.citing import resolve

    articles = {a for _, case in kit_lines(kit) for a in case["articles"]}
    assert len(articles) > 300 and any(a.startswith("rulings#") for a in articles)
    for article in sorted(articles):
        assert resolve(article), article
