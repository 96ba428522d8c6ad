"""Craps (dados): ES 001:458-586, ES-IB 000:532-694, ES-GA 002:830-992, ES-AN 003:1178-1515."""

from tapete.engine.registry import register
from tapete.games.craps.game import CrapsGame
from tapete.games.craps.rules import CRAPS_RULES

CRAPS = register(CrapsGame(CRAPS_RULES))
