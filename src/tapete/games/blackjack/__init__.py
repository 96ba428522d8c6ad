"""Black Jack o veintiuno (ES, ES-IB, ES-GA, ES-AN): registers the game."""

from typing import Any

from tapete.engine.game import Game
from tapete.engine.registry import register
from tapete.games.blackjack.game import BlackjackGame

GAME = register(BlackjackGame())


def _simulation_kernel(game: Game, jurisdiction: str) -> Any:
    """`tapete simulate blackjack` runs the compiled chart kernel of tapete.analysis.blackjack."""
    from tapete.analysis.blackjack import BlackjackKernel

    assert isinstance(game, BlackjackGame)
    return BlackjackKernel(game, jurisdiction)


def _register_kernel() -> None:
    from tapete.analysis.simulate import KERNELS

    KERNELS[GAME.id] = _simulation_kernel


_register_kernel()
