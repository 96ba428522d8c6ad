"""`tapete play blackjack`: a session fed line by line, with hints, insurance, doubles and the shoe's end."""

from __future__ import annotations

import io

from rich.console import Console

from tapete.catalog import get_game
from tapete.terminal import play_game

GAME = get_game("blackjack")


def session(lines: list[str], jurisdiction: str = "ES-IB", seed: str = "00" * 32) -> str:
    feed = iter(lines + ["quit"] * 3)
    out = io.StringIO()
    play_game(GAME, jurisdiction, minimum=100, balance=50_000, seed=seed, console=Console(file=out, width=120),
              read=lambda prompt: next(feed))
    return out.getvalue()


def test_a_session_with_hints_and_announcements() -> None:
    text = session(["10", "10 box 2", "deal", "hint", "s", "hint", "h", "20", "", "hint", "d", "chart"])
    assert "box 1  8♦   Q♥    18" in text and "box 2  8♠   4♥    12" in text and "dealer   A♦" in text
    assert "The chart says: stand" in text and "The chart says: double" in text
    assert "€20.00 more staked" in text and "you win €40.00" in text
    assert "pairs — dealer's card" in text and "You leave with €520.00" in text


def test_bad_input_is_explained_not_fatal() -> None:
    text = session(["deal", "ten", "1000000", "0.5", "10 box 8", "10", "deal", "fly", "i", "i 9", "s", "s"])
    assert "There are no bets on the table" in text and "Type an amount" in text and "You only have €500.00" in text
    assert "under the table's minimum: at least €1.00" in text and "does not fit the cloth" in text
    assert "Decide: h (hit)" in text and "Insure how much" in text


def test_many_rounds_reach_a_new_shoe() -> None:
    lines = []
    for _ in range(70):
        lines += ["5 box 1", "5 box 2", "5 box 3", "deal", "s", "s", "s", "s", "s", "s"]
    text = session(lines, "ES", seed="ab" * 32)
    assert "The cut card is out: this is the last round of the shoe" in text and "A new shoe" in text
