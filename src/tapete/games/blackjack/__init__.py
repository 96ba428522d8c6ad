"""Black Jack o veintiuno (ES, ES-IB, ES-GA, ES-AN): registers the game."""

from tapete.engine.registry import register
from tapete.games.blackjack.game import BlackjackGame

GAME = register(BlackjackGame())
