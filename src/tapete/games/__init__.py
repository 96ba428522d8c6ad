"""One module per game, or one package per family. Importing this package registers every game."""

from tapete.games import bingo, lototrot, promotrot  # noqa: F401
from tapete.games.baccarat import chemin_de_fer, punto_banca, two_tables  # noqa: F401
from tapete.games.blackjack import GAME as BLACKJACK  # noqa: F401
from tapete.games.boule import BOULE  # noqa: F401
from tapete.games.craps import CRAPS  # noqa: F401
from tapete.games.monte import CASINO_MONTE, MONTE_BANCA  # noqa: F401
from tapete.games.poker import circle, pai_gow, sin_descarte, trijoker, tripoker  # noqa: F401
from tapete.games.roulette import french  # noqa: F401
from tapete.games.roulette.american import ROULETTE_AMERICAN  # noqa: F401
from tapete.games.trente_quarante import TRENTE_QUARANTE  # noqa: F401
from tapete.games.wheel_of_fortune import WHEEL_OF_FORTUNE  # noqa: F401
