"""`tapete play craps`: the layout with the puck, bets typed as players say them, the running balance."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tapete.catalog import get_game
from tapete.terminal import play_game
from tapete.terminal.craps import parse_line

SEED = "00112233445566778899aabbccddeeff"


def session(lines: list[str], jurisdiction: str = "ES") -> str:
    out = io.StringIO()
    feed = iter(lines)
    play_game(get_game("craps"), jurisdiction, minimum=100, balance=50000, seed=SEED,
              console=Console(file=out, width=110), read=lambda _prompt: next(feed))
    return out.getvalue()


def test_a_session_draws_the_puck_and_pays() -> None:
    text = session(["help", "roll", "pass 10", "field 5", "roll", "odds 10", "place 6 12", "hard 8 5", "roll", "roll",
                    "roll", "bets", "quit"], "ES-AN")
    assert "The shooter must bet" in text                             # 000:694, before the first throw
    assert "○ blanco" in text and "● negro" in text                  # ES-AN's disc, both sides
    assert "Stickman:" in text and "SIX" in text and "NINE" in text and "WIN LINE" in text
    assert "Good night." in text and "Traceback" not in text


def test_refusing_the_dice_passes_them_on() -> None:
    text = session(["refuse", "roll", "quit"])
    assert "seat 2 shoots" in text and "Stickman:" in text


def test_bad_bets_are_explained_not_raised() -> None:
    text = session(["come 10", "odds 10", "place 7 10", "remove b9", "pass 10", "remove b1", "frobnicate 3", "quit"])
    assert "is not taken now" in text and "cannot be taken down" in text   # come on the come-out, remove a Win bet
    assert "You have no bet with a point to lay odds on" in text
    assert "does not fit the cloth" in text and "You have no bet b9" in text
    assert "I do not know the bet «frobnicate»" in text and "act names no bet" not in text


@pytest.mark.parametrize(("line", "parsed"), [
    ("pass 10", ("pass", None, 1000)), ("dp 2.50", ("dont-pass", None, 250)), ("place 6 12", ("place", (6,), 1200)),
    ("lose 4 22", ("place-to-lose", (4,), 2200)), ("hard 8 5", ("hardway", (8,), 500)),
    ("big 6 10", ("big-6", None, 1000)), ("odds 6 10", ("odds", ("6",), 1000)), ("c12 1", ("craps-12", None, 100)),
])
def test_parse_line(line: str, parsed: tuple) -> None:
    assert parse_line(line) == parsed
