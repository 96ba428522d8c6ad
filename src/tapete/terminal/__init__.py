"""Terminal tables (`tapete play`): the engine's reducer, the table CSPRNG, and a person at the keyboard."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from tapete.core.errors import TapeteError

PLAYERS: dict[str, Callable[..., None]] = {}


def register_player(*game_ids: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def wrap(fn: Callable[..., None]) -> Callable[..., None]:
        for gid in game_ids:
            PLAYERS[gid] = fn
        return fn
    return wrap


def play_game(game: Any, jurisdiction: str, *, minimum: int, balance: int, seed: str | None, console: Console,
              read: Callable[[str], str] | None = None) -> None:
    import tapete.terminal.baccarat  # noqa: F401
    import tapete.terminal.banked_poker  # noqa: F401
    import tapete.terminal.bingo  # noqa: F401  (registers its game)
    import tapete.terminal.blackjack  # noqa: F401
    import tapete.terminal.boule  # noqa: F401
    import tapete.terminal.craps  # noqa: F401
    import tapete.terminal.monte  # noqa: F401
    import tapete.terminal.poker  # noqa: F401
    import tapete.terminal.trente_quarante  # noqa: F401
    import tapete.terminal.wheel  # noqa: F401
    from tapete.terminal import roulette  # noqa: F401  (registers its games)

    player = PLAYERS.get(game.id)
    if player is None:
        raise TapeteError("unknown-game", f"{game.id} has no terminal table yet")
    player(game, jurisdiction, minimum=minimum, balance=balance, seed=seed, console=console, read=read or console.input)
