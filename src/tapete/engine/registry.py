"""The registry of games: every game module registers its Game instance here. Looking a game up by id is the
catalog's (`tapete.catalog`, above the games): the engine never imports a game."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from tapete.engine.game import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.id in _GAMES:
        raise ValueError(f"game {game.id} registered twice")
    _GAMES[game.id] = game
    return game


def registered() -> Mapping[str, Game]:
    """The games registered so far, by id (a read-only view)."""
    return MappingProxyType(_GAMES)
