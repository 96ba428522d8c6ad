"""`tapete bingo`, `tapete pool` and `tapete strategy` speak the player's language like `tapete play`: `--lang es|en`
(default from the locale), every sentence from the message catalog, amounts in euros in the language's format;
their `--json` outputs do not change with the language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tapete.cli import app

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
SEED = "0123456789abcdef0123456789abcdef"
POOL = ["pool", "lototrot", "--tickets", str(ROOT / "examples/lototrot-tickets.json"),
        "--result", str(ROOT / "examples/lototrot-result.json"), "--jackpot", "40000", "--date", "2006-03-05"]
BINGO = ["bingo", "--cards", "20", "--seed", SEED, "--delay", "0"]


@pytest.fixture(autouse=True)
def wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's console is made at import and may have taken another test's width; tables read whole at 160."""
    from tapete import cli

    monkeypatch.setattr(cli.console, "width", 160)


def out(args: list[str], env: dict[str, str] | None = None, raw: bool = False) -> str:
    """The command's output; unless `raw`, with its whitespace collapsed, so a sentence Rich wrapped at whatever
    width the console took (another test may have sized it first) still reads as one line."""
    result = runner.invoke(app, args, env={"COLUMNS": "160", **(env or {})})
    assert result.exit_code == 0, result.output
    return result.output if raw else " ".join(result.output.split())


def test_bingo_speaks_spanish_and_english() -> None:
    es, en = out([*BINGO, "--lang", "es"]), out([*BINGO, "--lang", "en"])
    assert "20 cartones a 1,00 €" in es and "Bingo con la bola" in es and "Ventas 20,00 €;" in es
    assert "20 cards at €1.00" in en and "Bingo on ball" in en and "Sales €20.00;" in en
    for english in ("cards at", "to go", "closest", "in all", "sales"):
        assert english not in es.lower(), english
    for spanish in ("cartón", "bola", "faltan", "Jefe de mesa"):
        assert spanish not in en, spanish


def test_pool_speaks_spanish_and_english() -> None:
    es, en = out([*POOL, "--lang", "es"]), out([*POOL, "--lang", "en"])
    assert "Lototrot — premios del día" in es and "76.000,00 €" in es and "1.500" in es
    assert "solo la Oficina Central de Premios; cheque nominativo" in es and "carrera 3: empate 4, 7" in es
    assert "Premios pagaderos desde el 2006-03-06" in es
    assert "Lototrot — prizes of the day" in en and "€76,000.00" in en and "1,500" in en
    assert "Central Prize Office only; nominative cheque" in en and "race 3: dead heat 4, 7" in en
    for english in ("prizes of the day", "winner", "cash", "payable"):
        assert english not in es, english


def test_pool_day_notes_come_from_the_catalog() -> None:
    """No 7/7 winner: the carried amount is told in the session's language and format (pool.note.no-7)."""
    from tapete.terminal import pools

    doc = pools.pool_document({}, [{"id": "A", "player": "ana", "kind": "pick-7", "amount": 100,
                                    "on": [1, 1, 1, 1, 1, 1, 1]}],
                              {"races": [{"runners": 9, "finish": [[2]]}] * 7,
                               "pool": {"staked": 2000000, "winners": {"7": 0, "6": 0, "5": 3, "4": 40}}})
    state, _ = pools.run_pool(doc)
    es, en = pools.local_notes(state, "es"), pools.local_notes(state, "en")
    assert any(n.startswith("Sin acertante de 7/7:") and "€" in n and "," in n for n in es), es
    assert any(n.startswith("No 7/7 winner:") and "€" in n for n in en), en


@pytest.mark.parametrize("game", ["blackjack", "poker-sin-descarte"])
def test_strategy_speaks_spanish_and_english(game: str) -> None:
    es, en = out(["strategy", game, "-j", "ES-IB", "--lang", "es"]), out(["strategy", game, "-j", "ES-IB", "--lang", "en"])
    if game == "blackjack":
        assert "ventaja de la casa con esta tabla" in es and "plantarse" in es and "house edge" in en
    else:
        assert "ir (voy) con pareja o mejor" in es and "no voy" in es and "Ventaja de la casa" in es
        assert "call (voy) with a pair or better" in en and "fold" in en and "House edge" in en
    edge = es.split("%")[0].split()[-1]
    assert "," in edge and "." not in edge, edge          # es writes 5,2637 %
    assert "house edge" not in es.lower() and "legend" not in es


def test_the_language_defaults_to_the_locale() -> None:
    assert "Lototrot — prizes of the day" in out(POOL, {"LANG": "en_GB.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""})
    assert "Lototrot — premios del día" in out(POOL, {"LANG": "es_ES.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""})


@pytest.mark.parametrize("args", [[*BINGO, "--json"], [*POOL, "--json"], ["strategy", "blackjack", "--json"]])
def test_json_outputs_do_not_depend_on_the_language(args: list[str]) -> None:
    assert json.loads(out([*args, "--lang", "es"], raw=True)) == json.loads(out([*args, "--lang", "en"], raw=True))
