"""The catalog: every game of tapete, looked up by id. Above `engine` and `games` (importing `tapete.games`
registers every game through `engine.registry.register`), below everything that looks games up: the analysis,
the conformance documents, the terminal, the server and the command line. The engine never imports a game."""

from __future__ import annotations

import tapete.games  # noqa: F401 - importing the package registers every game
from tapete.core.errors import TapeteError
from tapete.engine.game import Game
from tapete.engine.registry import registered


def all_games() -> list[Game]:
    return list(registered().values())


def get_game(game_id: object) -> Game:
    games = registered()
    if not isinstance(game_id, str) or game_id not in games:
        known = ", ".join(sorted(games))
        raise TapeteError("unknown-game", f"unknown game {game_id!r} (known: {known})")
    return games[game_id]
