"""French roulette (ruleta francesa): ES 001:36-165, ES-IB 000:80-198, ES-GA 002:92-196, ES-AN 003:109-439."""

from tapete.engine.registry import register
from tapete.games.roulette.game import RouletteGame
from tapete.games.roulette.rules import FRENCH_RULES

ROULETTE_FRENCH = register(RouletteGame("roulette-french", "Ruleta francesa", "French roulette", FRENCH_RULES))
