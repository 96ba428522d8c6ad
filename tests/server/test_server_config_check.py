"""`tapete config check FILE` and `tapete serve --config FILE` (issue 29): a casino file is checked whole, one line
per problem naming the key path and what is expected, in the project's words (no pydantic text), exit 2."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tapete.cli import app

GOOD = """
[casino]
name = "Casino de prueba"
jurisdiction = "ES-AN"

[[tables]]
id = "ruleta-1"
game = "roulette-french"
table = { minimum = 100 }

[[tables]]
id = "blackjack-1"
game = "blackjack"
table = { minimum = 500 }

[[users]]
username = "jefa"
password = "una-clave-larga-7"
roles = ["chief"]
tables = ["ruleta-1"]
"""

BAD = """
[casino]
name = "Casino de prueba"
jurisdiction = "ES-AN"
colour = "green"

[[tables]]
id = "ruleta-1"
game = "roulette-french"
table = { minimum = 100 }
float = 500

[[tables]]
id = "ruleta-2"
game = "ruleta"

[[tables]]
id = "pai-gow-1"
game = "pai-gow"
source = "croupier"
table = { minimum = 500 }

[[tables]]
id = "craps-1"
game = "craps"
jurisdiction = "ES-AN"
table = { minimum = 100 }

[[tables]]
id = "blackjack-1"
game = "blackjack"
table = { minimum = 500 }
timing = { bets = -3 }

[[users]]
username = "jefa"
password = "jefa"
roles = ["chief"]
tables = ["dados-9"]
"""

runner = CliRunner()


def check(tmp_path: Path, text: str) -> tuple[int, list[str]]:
    path = tmp_path / "casino.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["config", "check", str(path)])
    return result.exit_code, result.output.strip().splitlines()


def test_a_good_file_passes(tmp_path: Path) -> None:
    code, lines = check(tmp_path, GOOD)
    assert code == 0 and lines[-1].endswith(": good"), lines


def test_a_shape_error_is_one_line_per_key_in_our_words(tmp_path: Path) -> None:
    code, lines = check(tmp_path, BAD)
    assert code == 2
    assert lines == ["casino.colour: is not a key of the casino file (docs/server.md lists them)",
                     "tables[4].timing.bets: is at least 0.0 (got -3)"], lines
    assert not any("validation error" in line or "pydantic" in line or "Input should" in line for line in lines)


def test_every_substance_error_is_reported_at_once(tmp_path: Path) -> None:
    text = BAD.replace('colour = "green"\n', "").replace("timing = { bets = -3 }\n", "")
    code, lines = check(tmp_path, text)
    assert code == 2
    assert lines == [
        "tables[0] (id 'ruleta-1').float: at least 105000 cents, the most one maximum bet can win (got 500)",
        "tables[1] (id 'ruleta-2').game: 'ruleta' is not a game of tapete (`tapete games` lists them)",
        "tables[2] (id 'pai-gow-1').source = \"croupier\": pai-gow cannot be dealt live at this server (its pack "
        "takes no keyed cards); expected source = \"rng\"",
        "users[0] (jefa).tables[0]: 'dados-9' is not a table of this casino (its tables: ruleta-1, ruleta-2, "
        "pai-gow-1, craps-1, blackjack-1)",
        "users[0].password: at least 10 characters, not a common password, not the user's name (jefa)",
    ], lines


def test_a_game_the_jurisdiction_does_not_have(tmp_path: Path) -> None:
    text = GOOD.replace('game = "blackjack"', 'game = "promotrot"')
    code, lines = check(tmp_path, text)
    assert code == 2 and len(lines) == 1 and lines[0].startswith("tables[1] (id 'blackjack-1')"), lines


def test_unreadable_and_non_toml_files_are_one_line(tmp_path: Path) -> None:
    assert runner.invoke(app, ["config", "check", str(tmp_path / "none.toml")]).exit_code == 2
    code, lines = check(tmp_path, "this is = = not toml")
    assert code == 2 and len(lines) == 1 and "is not TOML" in lines[0]


def test_serve_refuses_the_file_with_the_same_lines(tmp_path: Path) -> None:
    path = tmp_path / "casino.toml"
    path.write_text(BAD, encoding="utf-8")
    result = runner.invoke(app, ["serve", "--config", str(path), "--port", "0"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith(f"error bad-config: --config {path}: ") for line in lines), lines


def test_the_shipped_example_is_good() -> None:
    root = Path(__file__).resolve().parents[2]
    result = runner.invoke(app, ["config", "check", str(root / "examples" / "casino.toml")])
    assert result.exit_code == 0, result.output


def test_a_carousel_that_breaks_its_minimum_is_reported_not_refused(tmp_path: Path) -> None:
    """Issue 27 point 5: the carousel's long-run return against the jurisdiction's minimum (analysis/jackpots.py)."""
    text = GOOD.replace('game = "blackjack"', 'game = "tripoker"')
    path = tmp_path / "casino.toml"
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["config", "check", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1].endswith(": good, with 2 warnings"), lines
    assert any("the long-run return 1.53% is under the minimum of 70% (003:3827-3830)" in line for line in lines), lines
    path.write_text(text.replace("minimum = 500 }", 'minimum = 500, "jackpot-contribution" = 70 }'), encoding="utf-8")
    result = runner.invoke(app, ["config", "check", str(path)])
    assert result.exit_code == 0 and result.output.strip().endswith(": good"), result.output
