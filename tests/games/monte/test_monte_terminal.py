"""`tapete play monte-banca` and `tapete play casino-monte`: scripted sessions."""

from __future__ import annotations

import io

from rich.console import Console

from tapete.catalog import get_game
from tapete.terminal import play_game


def session(game_id: str, lines: list[str]) -> str:
    feed = iter(lines)

    def read(prompt: str = "") -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    out = io.StringIO()
    play_game(get_game(game_id), "ES-AN", minimum=200, balance=10000, seed="cd" * 32,
              console=Console(file=out, width=120), read=read)
    return out.getvalue()


def test_monte_banca_session() -> None:
    text = session("monte-banca", ["help", "camo 1 5", "vista 2 1", "cartas 1 2 10", "salto 3 5", "nonsense 1 2",
                                   "", "", "anti 1 2", "", "", "quit"])
    assert "Vista Hermosa" in text
    assert "primeras" in text and "segundas" in text
    assert "Your chips" in text and "revealed: P" in text
    assert "A bet is a name" in text
    assert "Good night" in text


def test_monte_banca_refuses_salto_in_segundas() -> None:
    text = session("monte-banca", ["", "salto 1 5", "quit"])
    assert "You cannot do that now" in text or "does not fit the cloth" in text


def test_casino_monte_session() -> None:
    text = session("casino-monte", ["10 2", "10", "abc", "5", "s", "r", "10", "quit"])
    assert "Coup 1" in text
    assert "Balance" in text
    assert "Good night" in text
