"""Terminal tables and the command line for the three baccarat games."""

from __future__ import annotations

import io
import itertools
import json
import re
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from tapete.catalog import get_game
from tapete.cli import app
from tapete.terminal import play_game

runner = CliRunner()
ROOT = Path(__file__).parents[3]
GAMES = ("punto-banca", "chemin-de-fer", "baccarat-two-tables")


def session(game: str, jurisdiction: str, lines: list[str], limit: int = 200) -> str:
    feed = itertools.chain(lines, itertools.repeat(""))
    count = itertools.count()

    def read(prompt: str) -> str:
        return "quit" if next(count) > limit else next(feed)

    out = io.StringIO()
    play_game(get_game(game), jurisdiction, minimum=100, balance=50000, seed="ab" * 32,
              console=Console(file=out, width=120), read=read)
    return out.getvalue()


def test_play_punto_banca() -> None:
    text = session("punto-banca", "ES-AN", ["punto 10", "banca 5", "", "empate 1", "", "nonsense", "punto 9999", "quit"])
    assert "burns" in text and "coup 2" in text and "Good night" in text and "Balance" in text
    assert "There is no" not in text
    assert "There is no «empate» bet in ES" in session("punto-banca", "ES", ["empate 1", "quit"])


def test_play_chemin_de_fer_with_computer_players() -> None:
    text = session("chemin-de-fer", "ES", ["", "5", "c", "banco", "n", "10", "c", "", "pass"], limit=120)
    assert "Amparo" in text and "takes the bank" in text and "coup 3" in text
    assert re.search(r"You leave with €[\d,]+\.\d\d", text)


def test_cli_knows_the_games() -> None:
    listed = {g["id"]: g for g in json.loads(runner.invoke(app, ["games", "--json"]).stdout)["games"]}
    for game in GAMES:
        assert listed[game]["jurisdictions"] == ["ES", "ES-IB", "ES-GA", "ES-AN"]
        rules = json.loads(runner.invoke(app, ["rules", game, "-j", "ES-AN", "--json"]).stdout)
        assert all(r["source"] for r in rules["rules"])
    assert {k["kind"] for k in listed["punto-banca"]["kinds"]} == {"player", "banker", "tie"}
    assert "forget-abat" in listed["chemin-de-fer"]["verbs"] and "cuadro" in listed["baccarat-two-tables"]["verbs"]
    diff = json.loads(runner.invoke(app, ["diff", "punto-banca", "--json"]).stdout)
    assert {"banker_commission", "banker_six_deduction", "kinds", "maxima"} <= {d["rule"] for d in diff["differences"]}
    diff = json.loads(runner.invoke(app, ["diff", "baccarat-two-tables", "--json"]).stdout)
    assert [d["rule"] for d in diff["differences"]] == ["stop_card"]


def test_settle_refuses_bad_input_with_an_error_document() -> None:
    bad = {"game": "chemin-de-fer", "jurisdiction": "ES", "table": {"minimum": 100}, "shoe": ["2S"],
           "events": [{"bet": {"id": "K", "player": "b", "kind": "bank", "amount": 1000, "seat": 1, "colour": "red"}}]}
    result = runner.invoke(app, ["settle", "-"], input=json.dumps(bad))
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["code"] == "bad-document"


def test_every_ruling_cited_is_in_the_rulings() -> None:
    text = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    known = set(re.findall(r"^## (\S+)\s*$", text, re.M))
    for path in [*(ROOT / "src" / "tapete" / "games" / "baccarat").glob("*.py"), ROOT / "src/tapete/analysis/baccarat.py"]:
        for anchor in re.findall(r"docs/rulings\.md#([\w-]+)", path.read_text(encoding="utf-8")):
            assert anchor in known or not anchor.startswith(("baccarat", "punto", "chemin", "two-tables")), anchor
    for game in GAMES:
        for rules in get_game(game).rules.values():
            for source in rules.sources.values():
                for anchor in re.findall(r"docs/rulings\.md#([\w-]+)", source):
                    assert anchor in known, (game, anchor)
        assert (ROOT / "docs" / "games" / f"{game}.md").exists()
