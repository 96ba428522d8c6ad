"""One module per game, or one package per family. Importing this package registers every game."""

from tapete.games.roulette import french  # noqa: F401
