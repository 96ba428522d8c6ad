"""Each family's live behaviour, one adapter class per family, registered beside its game by a typed registry.

The engine's Game classes keep their class attributes (`uses_shoe`, `bank_kinds`, ...); the server reads what
a family does at a live table only through its adapter: which phases admit which routes and acts (protocol.py),
whether its players bet from a stack bought in at the table (circle poker) or hold the bank (the player-banked
baccarats), how its live shoe is prepared, whether its shoe has ended, what it lays out before the bets, whether
a croupier can deal it live, and what the cloth prints. No hook is looked up by name on a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from fractions import Fraction
from typing import Any, ClassVar

from tapete.catalog import get_game
from tapete.core.errors import TapeteError
from tapete.core.rng import TableRng
from tapete.engine.game import Game
from tapete.games.baccarat.common import PlayerBankedGame
from tapete.games.baccarat.punto_banca import PuntoBancaGame, PuntoBancaState
from tapete.games.blackjack.game import BJState, BlackjackGame
from tapete.games.boule import BouleGame, BouleRules
from tapete.games.craps.game import CrapsGame
from tapete.games.monte import CasinoMonte, CasinoMonteRules, MonteBanca
from tapete.games.poker.banked import BankedGame
from tapete.games.poker.circle import CircleGame
from tapete.games.poker.pai_gow import PaiGowRules
from tapete.games.poker.sin_descarte import SinDescarteRules
from tapete.games.poker.trijoker import TrijokerRules
from tapete.games.poker.tripoker import TripokerRules
from tapete.games.roulette.game import RouletteGame, RouletteState
from tapete.games.roulette.rules import RouletteRules
from tapete.games.trente_quarante import TQState, TrenteQuaranteGame
from tapete.games.wheel_of_fortune import WheelOfFortuneGame, WheelRules
from tapete.server.config import CasinoConfig
from tapete.server.tables.protocol import ANY_VERB, PhaseTable

# The routes every family shares; a family's table adds its own (the draw, the keyed result) and its act windows.
_BETWEEN = ("idle", "settled")
_BASE: dict[str, tuple[str, ...]] = {"open": _BETWEEN, "bets": ("betting",), "close": ("betting",),
                                     "limits": ("idle", "settled", "betting")}
# A wheel's or dice's round: no va más, the CSPRNG's draw or the croupier's keyed result and its confirmation.
WHEEL_ROUTES = {**_BASE, "draw": ("closed",), "key": ("betting", "closed"), "confirm": ("confirming",),
                "correct": ("confirming",), "void": ("closed", "confirming")}
# A card table's round: the close deals (no `closed` phase); the croupier may void before the deal (stakes back,
# docs/rulings.md#server-void-before-the-deal) and while decisions are due.
CARD_ROUTES = {**_BASE, "void": ("betting", "acting")}
# Decisions on a bet held after a zero or a refait (prison or half): between rounds and while bets are open,
# never after no va más (000:233-240; 003:304-311).
PRISON_WINDOW = ("idle", "settled", "betting")
# The player-banked baccarats: taking the bank, banco, passing the bank, topping it up are decided before the
# deal (001:777-790); the hands' decisions only once the cards are out.
BANK_VERBS = ("banco", "banco-with-table", "last-completes", "pass", "garage", "top-up", "all-goes", "lot",
              "refuse-to-deal")


class TableAdapter:
    """A family's live behaviour (the typed protocol the server holds a game through). Subclasses override."""

    family: ClassVar[str] = "game"
    phases: ClassVar[PhaseTable] = PhaseTable.of(WHEEL_ROUTES)
    table_stakes: ClassVar[bool] = False     # players bet the chips bought in at the table (circle poker)
    player_banked: ClassVar[bool] = False    # a player holds the bank: the puntos play against it, not the house
    deals_live: ClassVar[bool] = True        # a croupier can key this game's cards (or result) at a live table
    own_shoe: ClassVar[bool] = False         # the game prepares its own live shoe (`prepare_shoe`)

    def __init__(self, game: Game) -> None:
        self.game = game

    def prepare_shoe(self, state: Any, rng: TableRng) -> None:
        """Put the game's own live shoe (shuffle, cut, burn as its catalog says) into `state` (`own_shoe`); a
        game without one gets a shoe the server shuffles with the table CSPRNG."""
        raise TapeteError("bad-config", f"{self.game.id} has no live shoe of its own")

    def pack(self, state: Any) -> tuple[list[str], int] | None:
        """A game dealing from a plain card list: the list and the position of the next card."""
        return None

    def shoe_ended(self, state: Any) -> bool:
        """The game's own word that the shoe is over (the cut, stop or red card came out)."""
        return False

    def lay_out(self, state: Any) -> None:
        """What an electronic table lays on the cloth before the bets (Monte o banca's four cards)."""

    def announced(self, state: Any) -> dict[str, Any] | None:
        """A limit change the game has announced and not yet applied (it counts spins or rounds), if any."""
        return None

    def boxes(self, jurisdiction: str) -> int | None:
        """How many boxes the rules lay on the cloth in this jurisdiction, where they fix one number."""
        return None

    def payouts(self, jurisdiction: str) -> Mapping[str, Fraction]:
        """Each kind's or symbol's payout where the rules name them one by one (for the cloth); {} elsewhere."""
        return {}

    @property
    def keeps_coup(self) -> bool:
        """The round record keeps the hands as dealt (not at circle poker: an unshown hand is a player's secret)."""
        return self.game.uses_shoe and not self.table_stakes

    def check_live(self, where: str) -> None:
        """Refuse a croupier table of a game no croupier can deal here: one line, the key path and what is expected."""
        if not self.deals_live:
            raise TapeteError("bad-config", f'{where}.source = "croupier": {self.game.id} cannot be dealt live at this '
                              f'server (its pack takes no keyed cards); expected source = "rng"')


class WheelAdapter(TableAdapter):
    """Roulette, boule, the wheel of fortune, craps, the draws: a keyed or drawn result, no cards."""

    family = "wheels and dice"
    phases = PhaseTable.of(WHEEL_ROUTES, {"prison": PRISON_WINDOW, "half": PRISON_WINDOW, "remove": PRISON_WINDOW})

    def announced(self, state: Any) -> dict[str, Any] | None:
        return state.next_table if isinstance(state, RouletteState) else None

    def payouts(self, jurisdiction: str) -> Mapping[str, Fraction]:
        rules = self.game.rules.get(jurisdiction)
        if isinstance(rules, BouleRules | WheelRules | RouletteRules):
            return rules.payouts
        return {}


class BlackjackAdapter(TableAdapter):
    family = "blackjack"
    own_shoe = True
    phases = PhaseTable.of(CARD_ROUTES, {ANY_VERB: ("acting",)})    # every decision after the deal (001:290-330)

    def prepare_shoe(self, state: BJState, rng: TableRng) -> None:
        assert isinstance(self.game, BlackjackGame)
        self.game.live_shoe(state, rng)

    def shoe_ended(self, state: BJState) -> bool:
        return bool(state.last_of_shoe)

    def announced(self, state: Any) -> dict[str, Any] | None:
        return state.next_table if isinstance(state, BJState) else None


class PuntoBancaAdapter(TableAdapter):
    family = "punto y banca"
    own_shoe = True
    phases = PhaseTable.of(CARD_ROUTES, {ANY_VERB: ("acting",)})

    def prepare_shoe(self, state: PuntoBancaState, rng: TableRng) -> None:
        assert isinstance(self.game, PuntoBancaGame)
        self.game.new_shoe(state, rng)

    def shoe_ended(self, state: PuntoBancaState) -> bool:
        return bool(state.stop_card_out)


class PlayerBankedAdapter(TableAdapter):
    """Chemin de fer and baccara a dos paños: a player holds the bank; the partida carries until the stop card."""

    family = "chemin de fer, a dos paños"
    player_banked = True
    # No void before the deal: the bank in play carries the partida's winnings, and only the engine returns it.
    phases = PhaseTable.of({**CARD_ROUTES, "void": ("acting",)},
                           {**{v: ("idle", "betting", "settled") for v in BANK_VERBS}, ANY_VERB: ("acting",)})

    def shoe_ended(self, state: Any) -> bool:
        return bool(state.stop_card_out)


class TrenteQuaranteAdapter(TableAdapter):
    family = "trente et quarante"
    own_shoe = True
    # A refait's prison or half is asked at once, while the coup's decisions are due (acting), as well as for a
    # bet held in prison from an earlier coup between rounds (000:233-240; 003:304-311).
    phases = PhaseTable.of(CARD_ROUTES, {"prison": (*PRISON_WINDOW, "acting"), "half": (*PRISON_WINDOW, "acting"),
                                         ANY_VERB: ("acting",)})

    def prepare_shoe(self, state: TQState, rng: TableRng) -> None:
        assert isinstance(self.game, TrenteQuaranteGame)
        self.game.live_shoe(state, rng)

    def shoe_ended(self, state: TQState) -> bool:
        return bool(state.shoe_ended)


class _PackAdapter(TableAdapter):
    """A game dealt from a plain card list (`shoe`, `pos`): no engine shoe a croupier could key cards into."""

    deals_live = False

    def pack(self, state: Any) -> tuple[list[str], int] | None:
        cards, pos = state.shoe, state.pos
        return ([str(c) for c in cards], int(pos)) if isinstance(cards, list) else None


class CirclePokerAdapter(_PackAdapter):
    family = "circle poker"
    own_shoe = True
    table_stakes = True
    phases = PhaseTable.of(CARD_ROUTES, {ANY_VERB: ("acting",)})

    def prepare_shoe(self, state: Any, rng: TableRng) -> None:
        assert isinstance(self.game, CircleGame)
        self.game.new_shoe(state, rng)


class BankedPokerAdapter(_PackAdapter):
    """Trijoker, tripóquer, póquer sin descarte, Pai Gow: house-banked boxes, one fresh deck per round."""

    family = "banked poker"
    phases = PhaseTable.of(CARD_ROUTES, {ANY_VERB: ("acting",)})

    def boxes(self, jurisdiction: str) -> int | None:
        rules = self.game.rules.get(jurisdiction)
        return rules.boxes if isinstance(rules, PaiGowRules | SinDescarteRules | TrijokerRules | TripokerRules) else None


class MonteAdapter(_PackAdapter):
    family = "monte"
    phases = PhaseTable.of(CARD_ROUTES, {ANY_VERB: ("acting",)})

    def lay_out(self, state: Any) -> None:
        if isinstance(self.game, MonteBanca):      # the four cards before the bets (003:6174-6186)
            with suppress(TapeteError):     # a shoe that cannot lay them: the first bet meets the engine's refusal
                self.game.layout(state)

    def boxes(self, jurisdiction: str) -> int | None:
        rules = self.game.rules.get(jurisdiction)
        return rules.boxes if isinstance(rules, CasinoMonteRules) else None


# The registry: each Game class (or a base of it) with its family's adapter. The most specific class wins.
REGISTRY: tuple[tuple[type[Game], type[TableAdapter]], ...] = (
    (BlackjackGame, BlackjackAdapter),
    (PuntoBancaGame, PuntoBancaAdapter),
    (PlayerBankedGame, PlayerBankedAdapter),
    (TrenteQuaranteGame, TrenteQuaranteAdapter),
    (CircleGame, CirclePokerAdapter),
    (BankedGame, BankedPokerAdapter),
    (CasinoMonte, MonteAdapter),
    (MonteBanca, MonteAdapter),
    (RouletteGame, WheelAdapter),
    (BouleGame, WheelAdapter),
    (WheelOfFortuneGame, WheelAdapter),
    (CrapsGame, WheelAdapter),
)
_ADAPTERS: dict[str, TableAdapter] = {}


def adapter_for(game: Game) -> TableAdapter:
    """The game's adapter (one instance per game). A game of no listed family (the draws) is a wheel's."""
    found = _ADAPTERS.get(game.id)
    if found is None or found.game is not game:
        kind = next((a for g, a in REGISTRY if isinstance(game, g)), WheelAdapter)   # the draws: a keyed result
        if game.uses_shoe and kind is WheelAdapter:
            raise TapeteError("bad-config", f"{game.id} deals cards but no table adapter is registered for it")
        found = _ADAPTERS[game.id] = kind(game)
    return found


def check_live_tables(config: CasinoConfig) -> None:
    """Every live (croupier) table of the casino file is of a family a croupier can deal: else one line, the key
    path and what is expected (issue 26, item 12: such a table took stakes it could never deal or return)."""
    for i, spec in enumerate(config.tables):
        if spec.source == "croupier":
            adapter_for(get_game(spec.game)).check_live(f"tables[{i}] (id {spec.id!r})")


def families() -> list[tuple[str, PhaseTable]]:
    """Each family once with its phase table, in the registry's order (docs/server.md)."""
    seen: dict[str, PhaseTable] = {}
    for _, kind in REGISTRY:
        seen.setdefault(kind.family, kind.phases)
    return list(seen.items())


if __name__ == "__main__":     # docs/server.md's phase table: python -m tapete.server.tables.adapters
    from tapete.server.tables.protocol import markdown

    print(markdown(families()), end="")
