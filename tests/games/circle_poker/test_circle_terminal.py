"""`tapete play` for the circle variants: scripted input, the table's CSPRNG seed, a readable session."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tapete.catalog import get_game
from tapete.games.poker.circle import VARIANTS
from tapete.terminal import play_game


def session(game_id: str, lines: list[str], j: str = "ES-AN") -> str:
    feed = iter(lines)

    def read(prompt: str = "") -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    play_game(get_game(game_id), j, minimum=200, balance=10000, seed="ab" * 32, console=Console(file=out, width=120),
              read=read)
    return out.getvalue()


@pytest.mark.parametrize("game_id", list(VARIANTS))
def test_every_variant_plays_a_hand_at_the_terminal(game_id: str) -> None:
    text = session(game_id, ["c", "c", "d", "c", "c", "c", "c", "c", "c", "c", "c", "quit"],
                   "ES-IB" if game_id == "poker-sintetico" else "ES-AN")
    assert "Hand 1: the cards are dealt" in text
    assert "Good night" in text
    assert "You leave with €" in text


def test_holdem_session_shows_cards_pot_and_balance() -> None:
    text = session("holdem", ["help", "b 4", "x", "c"] + ["c"] * 20 + ["quit"])
    assert "raise to 40" in text            # the help
    assert "board:" in text
    assert "the house takes" in text
    assert "house's take so far" in text
    assert "Decide: c (check or call)" in text          # a bad line is explained, not a crash


def test_draw_poker_discards_by_position() -> None:
    text = session("draw-poker", ["c", "b 2", "c", "c", "d 1 2 3", "c", "c", "c", "quit"])
    assert "You draw 3 cards." in text
