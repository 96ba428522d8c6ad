"""`tapete play` for American roulette and the abreviada: colour chips, announced bets, the cloth, the wheel."""

from __future__ import annotations

import io

from rich.console import Console

from tapete.catalog import get_game
from tapete.terminal import play_game
from tapete.terminal.roulette import parse_bet_line, split_chips


def session(game: str, jurisdiction: str, lines: list[str]) -> str:
    it = iter(lines)
    out = io.StringIO()
    play_game(get_game(game), jurisdiction, minimum=100, balance=50_000, seed="00" * 32,
              console=Console(file=out, width=140, force_terminal=False), read=lambda prompt: next(it))
    return out.getvalue()


def test_announced_bets_are_typed_as_players_call_them() -> None:
    assert parse_bet_line("neighbours 17 2") == ("neighbours", (17,), 200)
    assert parse_bet_line("tiers 1") == ("third", None, 100)
    assert parse_bet_line("serie 1") == ("zero-sector", None, 100)
    assert parse_bet_line("huerfanos 2.5") == ("orphans", None, 250)
    assert split_chips("17 3x") == ("17 0", 3) and split_chips("17 3") == ("17 3", None)


def test_play_american_with_announced_bets_and_colour_chips() -> None:
    text = session("roulette-american", "ES-IB", ["help", "neighbours 17 2", "tiers 1", "colour 5", "17 3x",
                                                  "colour 50", "red 10", "", "quit"])
    assert "neighbours 17: €10.00" in text and "tiers: €6.00" in text          # chips x value
    assert "colour chips worth €5.00 each" in text and "straight up 17: €15.00" in text
    assert "maximum" in text                                                    # colour 50 refused
    assert "wheel:" in text and "last:" in text and "No more bets" in text
    assert "You leave with" in text


def test_play_american_without_announced_bets_refuses_them() -> None:
    text = session("roulette-american", "ES", ["neighbours 17 2", "red 10", "", "quit"])
    assert "There is no such bet at this table" in text and "wheel:" not in text
    assert "returned" in text or "wins" in text or "loses" in text


def test_play_the_abreviada() -> None:
    text = session("roulette-french-short", "ES-AN", ["help", "red 5", "corner 0 1 2 3 5", "", "quit"])
    assert "only the inside bets" in text and "There is no such bet at this table" in text
    assert "corner 0-1-2-3: €5.00" in text and "1st 12" not in text


def test_french_play_is_unchanged() -> None:
    text = session("roulette-french", "ES", ["17 5", "red 10", "", "p", "quit"])
    assert "straight up 17: €5.00" in text and "1st 12" in text and "wheel:" not in text
