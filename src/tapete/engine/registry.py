"""The registry of games: every game module registers its Game instance here."""

from __future__ import annotations

from tapete.core.errors import TapeteError
from tapete.engine.game import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.id in _GAMES:
        raise ValueError(f"game {game.id} registered twice")
    _GAMES[game.id] = game
    return game


def _load() -> None:
    import tapete.games  # noqa: F401  (importing the package registers every game)


def all_games() -> list[Game]:
    _load()
    return list(_GAMES.values())


def get_game(game_id: object) -> Game:
    _load()
    if not isinstance(game_id, str) or game_id not in _GAMES:
        known = ", ".join(sorted(_GAMES))
        raise TapeteError("unknown-game", f"unknown game {game_id!r} (known: {known})")
    return _GAMES[game_id]
