"""Circle poker (*póquer en círculo*, 003:4149-5663; Baleares' *pócker sintético*, 000:1371-1596) as one reducer.

Players play against each other; the casino only deals and takes its cut (003:82-89). Each variant is a `plan`
of dealing and betting steps over the common betting engine (`betting.py`); the round document is docs/vocabulary.md
§8's: `hand` bets carrying each player's forced bet, then his decisions strictly in turn.

A hand runs: forced bets → the plan's steps (deal, burn, common cards, a betting round, the draw) → showdown in
R-SHOWORDER → uncalled chips back (R-UNCALLED) → side pots (R-SIDEPOTS) → the rake per pot → shares with odd
chips (R-SPLIT, R-ODDCHIP) → stacks carried to the next hand, the *marca* moved one seat.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from tapete.core.cards import FRENCH_RANKS, parse_card
from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import cite
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, Game, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.settlement import BetResult, Settlement
from tapete.games.poker import betting as bt
from tapete.games.poker import hands
from tapete.games.poker.circle_rules import RULES, CircleRules

BETTING_VERBS = ("check", "bet", "call", "raise", "fold")
IRREGULAR_VERBS = ("chips", "absent", "wrong-count", "touch", "croupier-mucked", "expose", "exposed-card")
CROUPIER_VERBS = ("no-burn", "premature-card")
VERBS = (*BETTING_VERBS, "draw", "show", "muck", *IRREGULAR_VERBS)
ACT_FIELDS = frozenset({"amount", "cards", "round", "out-of-turn", "one-chip", "string", "with"})
VOID_REDEAL = ("misdeal", "wrong-order", "wrong-count", "card-seen", "exposed-card", "cards-off-table",
               "missing-card", "defective-deck", "wrong-button", "not-dealt", "inspector")
VOID_REFUND = ("different-back", "duplicate-card")


# ------------------------------------------------------------------------------------------------ variants


@dataclass(frozen=True)
class Variant:
    """A circle variant: its names, its plan of steps and how its hands are formed."""

    id: str
    name_es: str
    name_en: str
    plan: tuple[str, ...]
    formation: str = "best"          # best | two-plus-three | five
    low: bool = False                # omaha-hilo
    rows: bool = False               # double hold'em
    stud: bool = False
    draw: bool = False
    bring_in_exact: bool = False     # five stud: the bring-in is exactly m (003:5212-5215)
    no_fold_first: bool = False      # seven stud: the first actor of rounds 2-5 may not fold (003:5029-5031)


def _board_plan(hole: int) -> tuple[str, ...]:
    return (*(["down"] * hole), "bet", "burn", "board:3", "bet", "burn", "board:1", "bet", "burn", "board:1", "bet")


VARIANTS: dict[str, Variant] = {
    "draw-poker": Variant("draw-poker", "Póquer cubierto de cinco cartas con descarte", "Five-card draw",
                          ("down",) * 5 + ("bet", "draw", "bet"), formation="five", draw=True),
    "seven-stud": Variant("seven-stud", "Seven Stud Póquer", "Seven-card stud",
                          ("down", "down", "up", "bet", "street:up", "bet", "street:up", "bet", "street:up", "bet",
                           "street:down", "bet"), stud=True, no_fold_first=True),
    "five-stud": Variant("five-stud", "Five Stud Póquer", "Five-card stud",
                         ("down", "up", "bet", "street:up", "bet", "street:up", "bet", "street:up", "bet"),
                         formation="five", stud=True, bring_in_exact=True, no_fold_first=True),
    "omaha": Variant("omaha", "Póquer Omaha", "Omaha", _board_plan(4), formation="two-plus-three"),
    "omaha-5": Variant("omaha-5", "Omaha Cinco Cartas", "Five-card Omaha", _board_plan(5), formation="two-plus-three"),
    "omaha-hilo": Variant("omaha-hilo", "Omaha High Low", "Omaha high-low", _board_plan(4),
                          formation="two-plus-three", low=True),
    "holdem": Variant("holdem", "Póquer Texas Hold'em", "Texas hold'em", _board_plan(2)),
    "double-holdem": Variant("double-holdem", "Póquer Texas Doble Hold'em", "Double-board hold'em",
                             ("down", "down", "bet", "burn", "row1:3", "row2:3", "bet", "burn", "row1:1", "row2:1",
                              "bet", "burn", "row1:1", "row2:1", "bet"), rows=True),
    "poker-sintetico": Variant("poker-sintetico", "Póquer sintético", "Synthetic poker (28 cards)",
                               ("down", "down") + ("board:1", "bet") * 5),
}
EARLY_CARD_PLAN = ("down",) * 5 + ("board:1", "bet", "burn", "board:2", "bet", "burn", "board:1", "bet", "burn",
                                   "board:1", "bet")


# ------------------------------------------------------------------------------------------------ state


@dataclass
class Config:
    """The table's settings in force, parsed from `table` (docs/vocabulary.md §8)."""

    minimum: int
    structure: str
    forced: str
    ante: int
    rake: Fraction
    chip: int
    deck: int
    early_card: bool
    first_actor: str          # R-FIRST-BLINDS: left-of-big-blind | mano
    uncalled: str             # R-UNCALLED: returned | raked
    after_draw: str           # R-AFTERDRAW: right | left
    raise_cap: str            # stud: player | round
    formation: str            # sintético: best | two-plus-three


@dataclass
class Account:
    """One `hand` bet's money."""

    staked: int = 0
    returned: int = 0
    final: str = "open"       # open | settled | pending | void


@dataclass
class Held:
    """An out-of-turn bet: binding, applied when the player's turn comes (003:4790-4795)."""

    seat: int
    verb: str
    amount: int
    highest: int              # the highest bet when it was made


@dataclass
class Hand:
    """One deal (or, in draw, the deals of one waiting pot)."""

    number: int
    betting: bt.Betting
    plan: list[str]
    holes: list[list[str]] = field(default_factory=list)
    up: list[list[bool]] = field(default_factory=list)
    board: list[str] = field(default_factory=list)
    board2: list[str] = field(default_factory=list)
    common: list[str] = field(default_factory=list)     # stud's common 7th card (003:5085-5094)
    burned: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)
    packet: list[str] = field(default_factory=list)     # a mid-deal reshuffle's packet (docs/vocabulary.md §0.3)
    set_aside: list[str] = field(default_factory=list)  # common cards shown too early, back into the stub
    future: list[str] = field(default_factory=list)     # sintético: common cards laid face down after an error
    street: list[str] = field(default_factory=list)     # the common cards turned since the last burn
    street_start: int = 0                               # betting decisions made before this round
    next_up: list[int] = field(default_factory=list)    # stud: players whose next card is dealt face up
    reshuffled: bool = False
    step: int = 0
    phase: str = "deal"       # deal | bet | draw | show | over
    forced: list[int] = field(default_factory=list)
    base: list[int] = field(default_factory=list)      # each player's chips in before this deal's forced bets
    blank: int = 0            # consecutive blank deals before this one (draw)
    deals: int = 1
    opener: int | None = None
    opener_cards: list[str] = field(default_factory=list)
    discards: list[list[str]] = field(default_factory=list)
    draw_queue: list[int] = field(default_factory=list)
    show_queue: list[int] = field(default_factory=list)
    mucked: list[int] = field(default_factory=list)
    held: list[Held] = field(default_factory=list)
    carry: str = ""           # why the pot waits: blank | false-open | redeal
    history: list[str] = field(default_factory=list)    # the deal in PHH actions (phh.py), p1 = the mano


@dataclass
class CircleState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    config: Config
    seats: dict[str, int]                   # player -> seat number
    stacks: dict[str, int]                  # player -> chips behind, between hands
    button: int | None                      # the marca's seat (None: nobody seated yet)
    shoe: list[str] = field(default_factory=list)
    pos: int = 0
    pending: list[Bet] = field(default_factory=list)
    hand: Hand | None = None
    accounts: dict[str, Account] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)   # bet id -> player
    commission: int = 0
    rounds: int = 0
    hands: int = 0
    log: list[str] = field(default_factory=list)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# ------------------------------------------------------------------------------------------------ the game


class CircleGame(Game):
    uses_shoe = True
    fresh_deck_each_round = True        # every hand from the whole pack, freshly shuffled
    outcome_names = ()
    extra_bet_fields = frozenset({"rebuy"})
    extra_act_fields = ACT_FIELDS
    zero_amount_kinds = frozenset({"hand"})
    table_stakes = True                 # a table server books stakes from each player's stack at the table

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.id = variant.id  # type: ignore[misc]
        self.name_es = variant.name_es  # type: ignore[misc]
        self.name_en = variant.name_en  # type: ignore[misc]

    @property
    def rules(self) -> dict[str, CircleRules]:  # type: ignore[override]
        return RULES[self.id]

    def state_type(self) -> type:
        return CircleState

    def step(self, state: CircleState, event: Event) -> CircleState:
        """The pure step of `Game`, with a pickle copy: the state is plain data, and deepcopy was 95 % of a step."""
        new = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
        self.apply(new, event)
        return new

    def kinds(self) -> list[KindInfo]:
        return [KindInfo("hand", None, "Mano: a player's place in the hand; amount = his forced bet (ante, or the "
                         "blind: m/2 for the mano, m for the next player, 0 for the others)")]

    def verbs(self) -> list[str]:
        verbs = [v for v in VERBS if v != "draw" or self.variant.draw]
        return verbs + [f"croupier:{v}" for v in CROUPIER_VERBS]

    def table_keys(self) -> list[TableKey]:
        v = self.variant
        keys = [
            TableKey("minimum", required=True, description="m: the table minimum bet and the fixed-limit unit, cents"),
            TableKey("seats", default=None, description="[{seat, player, stack}]: seats 1-10 from the croupier's right "
                     "(a hand needs two; the table server fills them from the players seated)"),
            TableKey("button", default=None, description="the seat holding the marca in the first hand (the postre; "
                     "sintético: the mano); default the first occupied seat to the croupier's right"),
            TableKey("structure", default="no-limit", description="fixed | pot-limit | no-limit"),
            TableKey("forced", default="ante", description="ante | blinds (blinds: Omaha family and hold'em only)"),
            TableKey("ante", default=None, description="the ante; at most m/2, default m/2 (ES-IB sintético: exactly m)"),
            TableKey("rake", default=None, description="option (a): percent of each pot; default the maximum (5, ES-IB 3)"),
            TableKey("chip", default=1, description="the chip unit for odd chips, cents"),
            TableKey("uncalled", default="returned", description="R-UNCALLED: returned | raked"),
            TableKey("buy-in", default=None, description="the resto inicial: the least a player sits down with, cents; "
                     "default and floor 10 m (ES-IB sintético: 25 m to 100 m)"),
            TableKey("buy-in-max", default=None, description="the most a player sits down with, cents; default 100 m"),
            TableKey("rebuy-minimum", default=None, description="the reposición mínima, cents: at most the resto inicial "
                     "(ES-AN sintético 20 % to 40 % of it, default 20 %); a bet's rebuy is at least this"),
            TableKey("rounding", default="player", description="docs/format.md rounding policy"),
        ]
        if v.draw:
            keys += [TableKey("deck", default=52, description="52 or 32 cards (R-32)"),
                     TableKey("after-draw", default="right", description="R-AFTERDRAW: right (literal) | left")]
        if v.id in ("omaha", "omaha-5", "omaha-hilo", "holdem", "double-holdem"):
            keys.append(TableKey("first-actor", default="left-of-big-blind",
                                 description="R-FIRST-BLINDS with blinds: left-of-big-blind | mano"))
        if v.id == "omaha-5":
            keys.append(TableKey("early-card", default=False, description="the first common card shown at the deal"))
        if v.stud:
            keys.append(TableKey("raise-cap", default="player", description="R-STUD-CAP: player | round"))
        if v.id == "poker-sintetico":
            keys.append(TableKey("hand-formation", default=None,
                                 description="best (ES-IB default) | two-plus-three (ES-AN default)"))
        return keys

    # -- table -------------------------------------------------------------------------------------
    def _config(self, rules: CircleRules, table: dict[str, Any]) -> Config:
        known = {t.key for t in self.table_keys()}
        for key in table:
            if key not in known:
                raise TapeteError("bad-document", f"unknown table key {key!r} for {self.id} (known: {', '.join(sorted(known))})")
        m = table.get("minimum")
        if not _is_int(m) or m <= 0:
            raise TapeteError("bad-document", "table.minimum (m, cents) is required: a positive integer")
        structure = table.get("structure", "no-limit")
        if structure not in bt.STRUCTURES:
            raise TapeteError("bad-document", "structure is fixed, pot-limit or no-limit")
        if structure not in rules.structures:
            raise TapeteError("bad-table", f"{self.id} in {rules.jurisdiction} is played {' or '.join(rules.structures)}",
                              source=rules.sources["structures"])
        forced = table.get("forced", "ante")
        if forced not in ("ante", "blinds"):
            raise TapeteError("bad-document", "forced is ante or blinds")
        if forced not in rules.forced:
            raise TapeteError("bad-table", f"{self.id} uses {' or '.join(rules.forced)} as its forced bet",
                              source=rules.sources["forced"])
        ceiling = m // 2 if rules.ante_max_half else m
        ante = table.get("ante", ceiling)
        if not _is_int(ante) or ante < 0 or ante > ceiling:
            raise TapeteError("bad-table", f"the ante must be between 0 and {ceiling} (m/2)" if rules.ante_max_half else
                              f"the ante must be between 0 and the table minimum {m}", source=rules.sources["ante_max_half"])
        if not rules.ante_max_half and forced == "ante" and ante != m:    # 000:1515: "la apuesta mínima antes fijada"
            raise TapeteError("bad-table", f"the forced bet is the table minimum fixed by the casino ({m}), not {ante}",
                              source=rules.sources["ante_max_half"])
        if forced == "ante" and ante == 0:
            raise TapeteError("bad-table", "an ante table needs an ante above 0", source=rules.sources["forced"])
        rake = _percent(table.get("rake", rules.rake_max))
        if not 0 <= rake <= Fraction(rules.rake_max):
            raise TapeteError("bad-table", f"the house's take is at most {rules.rake_max} % of each hand",
                              source=rules.sources["rake_max"])
        chip = table.get("chip", 1)
        if not _is_int(chip) or chip <= 0:
            raise TapeteError("bad-document", "chip is a positive integer (cents)")
        deck = table.get("deck", rules.deck_sizes[0])
        if deck not in rules.deck_sizes:
            raise TapeteError("bad-table", f"{self.id} is played with {' or '.join(map(str, rules.deck_sizes))} cards",
                              source=rules.sources["deck_sizes"])
        early = table.get("early-card", False)
        options = {
            "first-actor": ("left-of-big-blind", "mano"), "uncalled": ("returned", "raked"),
            "after-draw": ("right", "left"), "raise-cap": ("player", "round"),
            "hand-formation": ("best", "two-plus-three"), "rounding": ("player", "house"),
        }
        for key, allowed in options.items():
            if key in table and table[key] not in allowed:
                raise TapeteError("bad-document", f"{key} is one of {', '.join(allowed)}")
        if not isinstance(early, bool):
            raise TapeteError("bad-document", "early-card is true or false")
        default_formation = self.variant.formation
        if self.id == "poker-sintetico":
            default_formation = "best" if rules.jurisdiction == "ES-IB" else "two-plus-three"
        self._buy_in(rules, table, m)       # the table server's buy-in range: validated here with the limits
        self._rebuy_minimum(rules, table, m)
        return Config(m, structure, forced, ante if forced == "ante" else 0, rake, chip, deck, early,
                      table.get("first-actor", "left-of-big-blind"), table.get("uncalled", "returned"),
                      table.get("after-draw", "right"), table.get("raise-cap", rules.raise_cap),
                      table.get("hand-formation", default_formation))

    @staticmethod
    def _buy_in(rules: CircleRules, table: dict[str, Any], m: int) -> tuple[int, int]:
        """The resto inicial's range (R: docs/rulings.md#circle-server-buy-in): the minimum bet is at most 10 % of it
        (003:4374-4380), Baleares' sintético 25 to 100 times the table's bet (000:1483-1487); default most 100 m."""
        least, most = rules.buy_in
        cap = most * m if most is not None else None
        low = table.get("buy-in", least * m)
        if not _is_int(low) or low < least * m or (cap is not None and low > cap):
            raise TapeteError("bad-table", f"the resto inicial (buy-in) is at least {least * m}"
                              + (f" and at most {cap}" if cap is not None else ""), source=rules.sources["buy_in"])
        high = table.get("buy-in-max", max(low, (most or 100) * m))
        if not _is_int(high) or high < low or (cap is not None and high > cap):
            raise TapeteError("bad-table", f"buy-in-max is at least the buy-in {low}"
                              + (f" and at most {cap}" if cap is not None else ""), source=rules.sources["buy_in"])
        return low, high

    @classmethod
    def _rebuy_minimum(cls, rules: CircleRules, table: dict[str, Any], m: int) -> int | None:
        """The reposición mínima (R: docs/rulings.md#circle-rebuy-bounds): never above the resto inicial (the table's
        `buy-in`, 003:4378-4380), in sintético 20 % to 40 % of it (003:5581-5582); Baleares scales the reposición
        on the table's bet instead (000:1487)."""
        value = table.get("rebuy-minimum")
        share = rules.rebuy_minimum_share
        if value is None:
            if share is None or share[0] == 0:
                return None
            return math.ceil(share[0] * cls._buy_in(rules, table, m)[0])
        src = rules.sources["rebuy_minimum_share"]
        if not _is_int(value) or value <= 0:
            raise TapeteError("bad-document", "table.rebuy-minimum is a positive amount in cents")
        if share is None:
            raise TapeteError("bad-table", "the reposición is fixed on the scale of the table's bet, 5 to 100 times it: "
                              "there is no reposición mínima to set", source=src)
        resto = cls._buy_in(rules, table, m)[0]
        if not share[0] * resto <= value <= share[1] * resto:
            raise TapeteError("bad-table", f"the reposición mínima {value} must lie between {math.ceil(share[0] * resto)} "
                              f"and {math.floor(share[1] * resto)} (the resto inicial is {resto})", source=src)
        return value

    def _check_rebuy(self, state: CircleState, bet: Bet, rebuy: int) -> None:
        """A bet's `rebuy` within the table's bounds: 5 to 100 times the table's bet in Baleares (000:1483-1487), at
        least the reposición mínima where one is set (003:4378-4380; 003:5581-5582)."""
        if rebuy == 0:
            return
        rules, m = self._rules(state), state.config.minimum
        if rules.rebuy_times_bet is not None:
            low, high = (k * m for k in rules.rebuy_times_bet)
            src = rules.sources["rebuy_times_bet"]
            if rebuy < low:
                raise TapeteError("under-minimum", f"bet {bet.id}: a reposición is at least {low} ({rules.rebuy_times_bet[0]}"
                                  f" times the table's bet), not {rebuy}", source=src, bet=bet.id)
            if rebuy > high:
                raise TapeteError("over-maximum", f"bet {bet.id}: a reposición is at most {high} ({rules.rebuy_times_bet[1]}"
                                  f" times the table's bet), not {rebuy}", source=src, bet=bet.id)
        floor = self._rebuy_minimum(rules, state.table, m)
        if floor is not None and rebuy < floor:
            raise TapeteError("under-minimum", f"bet {bet.id}: a reposición is at least the table's reposición mínima "
                              f"{floor}, not {rebuy}", source=rules.sources["rebuy_minimum_share"], bet=bet.id)

    def check_table_rebuy(self, jurisdiction: str, table: dict[str, Any], amount: int) -> None:
        """A seated player's reposición at the table server, bounded as a bet's `rebuy` is
        (R: docs/rulings.md#circle-server-rebuy-and-sit-out)."""
        table = {k: v for k, v in table.items() if k not in ("seats", "button")}
        config = self._config(self.rules_for(jurisdiction), table)
        view = SimpleNamespace(jurisdiction=jurisdiction, config=config, table=table)
        self._check_rebuy(view, Bet("rebuy", "", "hand", 0), amount)  # type: ignore[arg-type]

    def buy_in_range(self, jurisdiction: str, table: dict[str, Any]) -> tuple[int, int]:
        """(least, most) a player sits down with at a table of these settings (the table server's buy-in)."""
        rules = self.rules_for(jurisdiction)
        config = self._config(rules, {k: v for k, v in table.items() if k not in ("seats", "button")})
        return self._buy_in(rules, table, config.minimum)

    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> CircleState:
        rules = self.rules_for(jurisdiction)
        config = self._config(rules, table)
        seats_raw = table.get("seats") or []
        if not isinstance(seats_raw, list):
            raise TapeteError("bad-document", "table.seats is a list: [{seat, player, stack}, ...]")
        seats: dict[str, int] = {}
        stacks: dict[str, int] = {}
        for entry in seats_raw:
            if not isinstance(entry, dict) or set(entry) - {"seat", "player", "stack"}:
                raise TapeteError("bad-document", "a seat is {seat, player, stack}")
            seat, player, stack = entry.get("seat"), entry.get("player"), entry.get("stack")
            if not _is_int(seat) or not 1 <= seat <= 10:
                raise TapeteError("bad-document", "seats are numbered 1-10 from the croupier's right",
                                  source=self._cite(jurisdiction, "003:4054-4056"))
            if not isinstance(player, str) or not player or not _is_int(stack) or stack < 0:
                raise TapeteError("bad-document", "a seat needs a player (string) and his stack (cents)")
            if player in seats or seat in seats.values():
                raise TapeteError("bad-document", f"seat {seat} or player {player!r} is listed twice",
                                  source=self._cite(jurisdiction, "003:4198-4200"))
            seats[player] = seat
            stacks[player] = stack
        button = table.get("button", min(seats.values(), default=None))
        if seats and button not in seats.values():
            raise TapeteError("bad-document", f"the button (marca) must be on an occupied seat, not {button!r}",
                              source=rules.sources["first_actor"])
        cards = [parse_card(c).text for c in (shoe or [])]
        return CircleState(self.id, jurisdiction, dict(table), config, seats, stacks, button, cards)

    # -- events ------------------------------------------------------------------------------------
    def apply(self, state: CircleState, event: Event) -> None:
        if isinstance(event, Bet):
            self._close_hand(state)
            self._bet(state, event)
        elif isinstance(event, Deal):
            self._close_hand(state)
            self._deal(state)
        elif isinstance(event, Act):
            if state.hand is None or state.hand.phase == "over":
                if state.pending or (state.hand is not None and state.hand.carry):
                    self._deal(state)
                else:
                    raise TapeteError("bad-document", "an act needs a hand in play: write the hand bets first")
            self._act(state, event)
        elif isinstance(event, Void):
            self._void(state, event)
        elif isinstance(event, Limits):
            self._close_hand(state)
            self._limits(state, event)
        elif isinstance(event, Close):
            raise TapeteError("bad-document", f"{self.id} has no 'close': the deal closes the forced bets")
        elif isinstance(event, Outcome):
            raise TapeteError("bad-document", f"{self.id} is dealt from the shoe: no {event.name!r} event")
        else:  # pragma: no cover
            raise TapeteError("bad-document", f"unexpected event {event!r}")

    def _rules(self, state: CircleState) -> CircleRules:
        return RULES[self.id][state.jurisdiction]

    def _bet(self, state: CircleState, bet: Bet) -> None:
        if bet.kind != "hand":
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: circle poker has one kind, 'hand'", bet=bet.id)
        if bet.id in state.accounts or any(b.id == bet.id for b in state.pending):
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.on:
            raise TapeteError("bad-document", f"bet {bet.id}: a hand bet takes no 'on'", bet=bet.id)
        if bet.player not in state.seats:
            raise TapeteError("bad-document", f"bet {bet.id}: {bet.player!r} does not sit at the table (table.seats)",
                              bet=bet.id)
        if any(b.player == bet.player for b in state.pending):
            raise TapeteError("bad-document", f"bet {bet.id}: {bet.player} already has a hand bet for this hand",
                              bet=bet.id)
        if state.hand is not None and state.hand.carry:
            raise TapeteError("bad-document", f"bet {bet.id}: the pot waits for the next deal; its hand bets carry on "
                              "(write a deal)", source="003:4863-4866; docs/vocabulary.md §8", bet=bet.id)
        rebuy = bet.extra.get("rebuy", 0)
        if not _is_int(rebuy) or rebuy < 0:
            raise TapeteError("bad-document", f"bet {bet.id}: rebuy is cents added to the stack", bet=bet.id)
        self._check_rebuy(state, bet, rebuy)
        state.pending.append(bet)

    def _limits(self, state: CircleState, event: Limits) -> None:
        """The director may change a running table's limits after announcing it (003:4409-4415); between hands."""
        if state.hand is not None and state.hand.carry:
            raise TapeteError("illegal-action", "the limits may not change while a pot waits for the next deal")
        if set(event.values) & {"seats", "button"}:
            raise TapeteError("bad-document", "limits changes the table's limits, not its seats or marca")
        table = {**state.table, **event.values}
        state.config = self._config(self._rules(state), table)
        state.table = table
        state.log.append(f"new limits announced: minimum {state.config.minimum}, {state.config.structure}")

    # -- starting a hand ---------------------------------------------------------------------------
    def _order(self, state: CircleState, players: list[str]) -> list[str]:
        """Deal order from the mano: clockwise = decreasing seat numbers (docs/vocabulary.md §8); sintético the reverse,
        with the marca on the mano itself (003:5567-5571)."""
        by_seat = sorted(players, key=lambda p: state.seats[p])
        if self._rules(state).direction == "counter-clockwise":
            after = [p for p in by_seat if state.seats[p] >= state.button]
            before = [p for p in by_seat if state.seats[p] < state.button]
            return after + before
        down = by_seat[::-1]
        first = [p for p in down if state.seats[p] < state.button]
        rest = [p for p in down if state.seats[p] >= state.button]
        return first + rest

    def _deal(self, state: CircleState) -> None:
        hand = state.hand
        if hand is not None and hand.carry:
            if state.pending:
                raise TapeteError("bad-document", "the waiting pot's hand bets carry on: no new hand bets",
                                  source="docs/vocabulary.md §8")
            self._redeal(state, hand)
            return
        if not state.pending:
            raise TapeteError("bad-document", "a deal needs hand bets")
        rules = self._rules(state)
        cfg = state.config
        bets = {b.player: b for b in state.pending}
        order = self._order(state, list(bets))
        if len(order) < 2:
            raise TapeteError("bad-document", "a circle hand needs at least two players",
                              source=self._cite(state.jurisdiction, "003:4154-4160"))
        if len(order) > rules.max_players:
            raise TapeteError("bad-document", f"{self.id} seats at most {rules.max_players} players",
                              source=rules.sources["max_players"])
        forced = self._forced_amounts(state, order)
        seats = []
        for player, amount in zip(order, forced, strict=True):
            b = bets[player]
            if b.amount != amount:
                what = "the ante" if cfg.forced == "ante" else "the blind (mano m/2, next m, others 0)"
                raise TapeteError("bad-document", f"bet {b.id}: the amount is {what} for {player}: {amount}, not {b.amount}",
                                  source=rules.sources["forced"], bet=b.id)
            state.stacks[player] += b.extra.get("rebuy", 0)
            if state.stacks[player] <= 0:
                raise TapeteError("bad-document", f"bet {b.id}: {player} has no chips to play with", bet=b.id,
                                  source=self._cite(state.jurisdiction, "003:4228-4233"))
            seats.append(bt.Seat(player, state.seats[player], b.id, state.stacks[player]))
            state.accounts[b.id] = Account()
            state.players[b.id] = player
        state.pending = []
        betting = bt.Betting(cfg.structure, cfg.minimum, cfg.chip, rules.raise_rule,
                             cfg.raise_cap if self.variant.stud else "round", seats=seats)
        plan = list(EARLY_CARD_PLAN if cfg.early_card else self.variant.plan)
        state.hands += 1
        state.hand = Hand(state.hands, betting, plan)
        self._post_forced(state, state.hand, forced)
        self._begin(state, state.hand)

    def hand_bets(self, state: CircleState, players: list[str]) -> list[tuple[str, int]]:
        """The `hand` bets these players post next hand, in play order: (player, forced amount)."""
        order = self._order(state, players)
        return list(zip(order, self._forced_amounts(state, order), strict=True))

    def new_shoe(self, state: CircleState, rng: Any) -> list[str]:
        """A live table's pack for the next hand: this variant's 52, 32 or 28 cards (003:4164-4167;
        003:4831-4835; 000:1381-1383), shuffled with the table's CSPRNG. Nothing is burned here."""
        cards = list(self.deck(state))
        rng.shuffle(cards)
        state.shoe, state.pos = cards, 0
        return []

    def deck(self, state: CircleState) -> list[str]:
        """The cards this table plays with (52, 32 or 28), for a live shuffle."""
        return self._deck(state)

    def _forced_amounts(self, state: CircleState, order: list[str]) -> list[int]:
        cfg = state.config
        if cfg.forced == "ante":
            return [cfg.ante] * len(order)
        # 003:4440-4445: the mano posts m/2, the player to his left m
        return [cfg.minimum // 2, cfg.minimum] + [0] * (len(order) - 2)

    def _post_forced(self, state: CircleState, hand: Hand, forced: list[int]) -> None:
        b = hand.betting
        hand.base = [s.total for s in b.seats]
        hand.forced = [bt.post(b, i, a, live=state.config.forced == "blinds") for i, a in enumerate(forced)]
        if state.config.forced == "ante":
            state.log.append(f"hand {hand.number}: antes {state.config.ante} from {len(forced)} players")
        else:
            state.log.append(f"hand {hand.number}: blinds {b.seats[0].player} {hand.forced[0]}, "
                             f"{b.seats[1].player} {hand.forced[1]}")

    def _begin(self, state: CircleState, hand: Hand) -> None:
        n = len(hand.betting.seats)
        hand.holes = [[] for _ in range(n)]
        hand.up = [[] for _ in range(n)]
        hand.discards = [[] for _ in range(n)]
        hand.board, hand.board2, hand.common, hand.burned, hand.seen, hand.packet = [], [], [], [], [], []
        hand.reshuffled = False
        hand.step = 0
        hand.phase = "deal"
        hand.opener = None
        hand.opener_cards = []
        hand.show_queue, hand.mucked, hand.held, hand.draw_queue = [], [], [], []
        hand.carry = ""
        if hand.history:
            hand.history.append("# a new deal")
        hand.betting.round = 0
        hand.betting.actions = 0
        hand.betting.last_envite = None
        self._run(state)

    def _redeal(self, state: CircleState, hand: Hand) -> None:
        """A waiting draw pot's next deal (every player re-antes, 003:4863-4866), or a misdeal's redeal with the
        forced bets as posted (R-MISDEAL)."""
        b = hand.betting
        if hand.carry in ("blank", "false-open"):
            hand.blank = hand.blank + 1 if hand.carry == "blank" else 0
            order = self._order(state, [s.player for s in b.seats])
            b.seats.sort(key=lambda s: order.index(s.player))
            for s in b.seats:
                s.state = "in" if s.stack > 0 else "allin"
                s.street = 0
                s.dropped = False
            hand.deals += 1
            self._post_forced(state, hand, [state.config.ante] * len(b.seats))
            state.log.append(f"new deal for the waiting pot of {b.pot()} (openers: pair of "
                             f"{FRENCH_RANKS[hands.opening_minimum(hand.blank)]} or better)")
        else:
            for s in b.seats:
                s.state = "in" if s.stack > 0 else "allin"
            state.log.append("the hand is dealt again; the forced bets stay as posted (R-MISDEAL)")
        self._begin(state, hand)

    # -- the plan ----------------------------------------------------------------------------------
    def _run(self, state: CircleState) -> None:
        """Execute plan steps until a player's decision is due or the hand is over."""
        hand = state.hand
        assert hand is not None
        b = hand.betting
        while hand.phase == "deal":
            if len(b.live()) <= 1:
                self._award(state, hand)
                return
            if hand.step >= len(hand.plan):
                self._showdown(state, hand)
                return
            step = hand.plan[hand.step]
            hand.step += 1
            if step in ("down", "up"):
                for i in self._dealt(hand):
                    self._give(state, hand, i, up=step == "up")
            elif step == "burn":
                hand.burned.append(self._draw(state, hand))
                hand.street = []
            elif step == "skip":
                continue
            elif ":" in step and step.split(":")[0].split("-")[-1] in ("board", "row1", "row2"):
                head, count = step.split(":")
                mode, _, where = head.rpartition("-")
                row = hand.board2 if where == "row2" else hand.board
                if mode == "re" and hand.set_aside:      # the stub with the early cards, shuffled and cut
                    unseen = hand.packet if hand.reshuffled else [c for c in self._deck(state) if c not in hand.seen]
                    hand.packet, hand.reshuffled, hand.set_aside = unseen + hand.set_aside, True, []
                if mode == "fut":
                    new = [hand.future.pop(0) for _ in range(int(count))]
                else:
                    new = [self._draw(state, hand) for _ in range(int(count))]
                hand.street.extend(new)
                row.extend(new)
                hand.history.append("d db " + phh_cards(new) + (" # row 2" if where == "row2" else ""))
                state.log.append(f"{'second row' if where == 'row2' else 'board'}: {' '.join(row)}")
            elif step.startswith("street:"):
                self._street(state, hand, up=step.endswith("up"))
            elif step == "bet":
                self._start_betting(state, hand)
            elif step == "draw":
                self._start_draw(state, hand)

    def _dealt(self, hand: Hand) -> list[int]:
        """Who receives a card: players holding cards, and stud players who dropped with no bet (003:5038-5041)."""
        return [i for i, s in enumerate(hand.betting.seats) if s.state in bt.LIVE or s.dropped]

    def _deck(self, state: CircleState) -> list[str]:
        low = {52: 0, 32: 5, 28: 6}[state.config.deck if self.variant.draw else RULES[self.id][state.jurisdiction].deck_sizes[0]]
        return [r + s for r in FRENCH_RANKS[low:] for s in "SHDC"]

    def _draw(self, state: CircleState, hand: Hand) -> str:
        if state.pos >= len(state.shoe):
            raise TapeteError("shoe-exhausted", f"the shoe ran out after {len(state.shoe)} cards (hand {hand.number})")
        card = state.shoe[state.pos]
        state.pos += 1
        if hand.reshuffled:
            if card not in hand.packet:
                raise TapeteError("bad-card", f"{card} is not in the reshuffled packet")
            hand.packet.remove(card)
        else:
            if card not in self._deck(state):
                raise TapeteError("bad-card", f"{card} is not in the {len(self._deck(state))}-card deck of {self.id}",
                                  source=RULES[self.id][state.jurisdiction].sources["deck_sizes"])
            if card in hand.seen:
                raise TapeteError("bad-card", f"{card} appears twice in hand {hand.number}")
        hand.seen.append(card)
        return card

    def _give(self, state: CircleState, hand: Hand, i: int, *, up: bool) -> None:
        card = self._draw(state, hand)
        if i in hand.next_up:      # 003:5173-5177: after exposing his hole cards, his next card comes face up
            hand.next_up.remove(i)
            up = True
        hand.holes[i].append(card)
        hand.up[i].append(up)
        hand.history.append(f"d dh p{i + 1} {phh_cards([card])}")

    # -- stud --------------------------------------------------------------------------------------
    def _street(self, state: CircleState, hand: Hand, *, up: bool) -> None:
        """A stud street: burn, then one card to each player still dealt; the shortage rules of 003:5063-5094
        (R-STUD-SHORT; five stud by analogy, R-5STUD)."""
        to = self._dealt(hand)
        n = len(to)
        undealt = len(self._deck(state)) - len(set(hand.seen)) if not hand.reshuffled else len(hand.packet)
        if undealt >= n + 1:
            hand.burned.append(self._draw(state, hand))
            for i in to:
                self._give(state, hand, i, up=up)
            return
        packet = [c for c in self._deck(state) if c not in hand.seen] + hand.burned
        if len(packet) < n:     # R-STUD-SHORT: the folded players' cards too
            for i, s in enumerate(hand.betting.seats):
                if s.state in ("folded", "dead") and not s.dropped:
                    packet += hand.holes[i]
        hand.reshuffled, hand.packet = True, packet
        state.log.append(f"not enough cards: {len(packet)} reshuffled and cut (003:5067-5075)")
        if len(packet) >= n + 1:
            hand.burned.append(self._draw(state, hand))
        if len(packet) >= n:
            for i in to:
                self._give(state, hand, i, up=up)
            return
        if packet:              # 003:5085-5094: one common card for everybody
            if len(hand.packet) >= 2:
                hand.burned.append(self._draw(state, hand))
            hand.common.append(self._draw(state, hand))
            state.log.append(f"common seventh card {hand.common[-1]} for every player")

    def _up_cards(self, hand: Hand, i: int) -> list[str]:
        return [c for c, u in zip(hand.holes[i], hand.up[i], strict=True) if u] + hand.common

    def _stud_first(self, state: CircleState, hand: Hand) -> int:
        b = hand.betting
        if b.round == 0:       # 003:5009-5017: the lowest up-card (ace high, clubs lowest) brings in
            live = b.live()
            return min(live, key=lambda i: hands.bring_in_key(self._up_cards(hand, i)[0]))
        # 003:5024-5029: the best showing; ties to the nearest the mano (R-STUD-POS)
        can = b.can_act() or b.live()
        return max(can, key=lambda i: (hands.showing(self._up_cards(hand, i)), -i))

    # -- betting rounds ----------------------------------------------------------------------------
    def _unit(self, state: CircleState, round_no: int) -> int:
        rules = self._rules(state)
        m = state.config.minimum
        if state.config.structure != "fixed":
            return 0
        return 2 * m if round_no >= rules.fixed_high_from and not self.variant.draw else m

    def _start_betting(self, state: CircleState, hand: Hand) -> None:
        b = hand.betting
        v = self.variant
        cfg = state.config
        round_no = b.round + 1
        prev_high = b.round_high
        blinds_first = cfg.forced == "blinds" and b.round == 0
        if v.stud:
            first = self._stud_first(state, hand)
        elif v.draw and round_no == 2:
            first = self._after_draw_first(state, hand)
        elif self.id == "poker-sintetico" and round_no > 1:
            first = self._sintetico_first(hand, prev_high)
        elif blinds_first and cfg.first_actor == "left-of-big-blind":
            first = 2 % len(b.seats)      # R-FIRST-BLINDS: left of the big blind
        else:
            first = 0                     # the mano, or the next active player to his left (003:5259-5262)
        bt.start_round(b, first, unit=self._unit(state, round_no), keep_street=blinds_first)
        hand.street_start = b.actions
        if v.stud and round_no == 1:
            b.to_act = first
            b.forced_only = b.seats[first].state == "in"
            if not b.forced_only:
                bt.advance(b)
        if v.stud and round_no == 2 and cfg.structure == "fixed" and any(
                len({c[0] for c in self._up_cards(hand, i)}) == 1 for i in b.live()):
            b.high_unit = 2 * cfg.minimum    # 003:4991-4995: an open pair allows the high limit
        if v.no_fold_first and round_no > 1 and b.to_act is not None:
            b.no_fold = True
        state.log.append(f"round {round_no}" + (f": {b.seats[b.to_act].player} to act" if b.to_act is not None else
                                                 ": no betting (all-in)"))
        hand.phase = "bet" if b.to_act is not None else "deal"
        if hand.phase == "bet":
            self._settle_turns(state, hand)

    def _after_draw_first(self, state: CircleState, hand: Hand) -> int:
        """003:4916-4919: the opener; if he has folded, the player to his right (R-AFTERDRAW, literal), or to his
        left with `after-draw: left`."""
        b = hand.betting
        assert hand.opener is not None
        if b.seats[hand.opener].state == "in":
            return hand.opener
        n = len(b.seats)
        step = -1 if state.config.after_draw == "right" else 1
        for k in range(1, n):
            i = (hand.opener + step * k) % n
            if b.seats[i].state == "in":
                return i
        return hand.opener

    def _sintetico_first(self, hand: Hand, prev_high: int | None) -> int:
        """003:5612-5621: the player who made the highest bet in the previous round; if he is all-in, the first
        active player to his right (counter-clockwise, the next in play order); nobody bet: the mano (R-SYN-FIRST)."""
        b = hand.betting
        if prev_high is None:
            return 0
        return prev_high if b.seats[prev_high].state == "in" else (prev_high + 1) % len(b.seats)

    # -- draw --------------------------------------------------------------------------------------
    def _start_draw(self, state: CircleState, hand: Hand) -> None:
        """003:4876-4889: the opener first, then in turn; if he has folded, the first active player after him."""
        b = hand.betting
        if hand.opener is None:      # a blank hand: everybody passed (003:4863-4866)
            self._carry(state, hand, "blank")
            return
        n = len(b.seats)
        hand.draw_queue = [i for k in range(n) if b.seats[i := (hand.opener + k) % n].state in bt.LIVE]
        hand.phase = "draw"
        state.log.append("the draw: " + ", ".join(b.seats[i].player for i in hand.draw_queue))

    def _do_draw(self, state: CircleState, hand: Hand, i: int, cards: object) -> None:
        b = hand.betting
        s = b.seats[i]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise TapeteError("bad-document", "draw takes 'cards': the list of cards he discards ([] stands pat)",
                              bet=s.bet)
        if len(cards) > 5:
            raise TapeteError("illegal-action", f"{s.player} may discard at most 5 cards, not {len(cards)}",
                              source="003:4876-4878; R: docs/rulings.md#circle-draw-max", bet=s.bet)
        if len(set(cards)) != len(cards) or any(c not in hand.holes[i] for c in cards):
            raise TapeteError("illegal-action", f"{s.player} can only discard cards of his own hand "
                              f"({' '.join(hand.holes[i])})", source="003:4876-4878", bet=s.bet)
        for c in cards:
            hand.holes[i].remove(c)
        hand.discards[i].extend(cards)
        got = []
        for k in range(len(cards)):
            self._stub_check(state, hand, i, len(cards) - k)
            got.append(self._draw(state, hand))
        hand.holes[i].extend(got)
        hand.history.append(f"p{i + 1} sd {phh_cards(cards)}".rstrip())
        if got:
            hand.history.append(f"d dh p{i + 1} {phh_cards(got)}")
        hand.up[i] = [False] * len(hand.holes[i])
        state.log.append(f"{s.player} " + (f"draws {len(cards)}" if cards else "is served (servido)"))

    def _stub_check(self, state: CircleState, hand: Hand, i: int, still: int) -> None:
        """003:4898-4909: a stub that cannot complete the draw is shuffled with the discards — not the opener's,
        nor the recipient's own — and the deal goes on from the new packet (folded hands count as discards)."""
        stub = len(hand.packet) if hand.reshuffled else len(self._deck(state)) - len(set(hand.seen))
        if stub > 1 or (stub == 1 and still == 1):
            return
        b = hand.betting
        left = hand.packet if hand.reshuffled else [c for c in self._deck(state) if c not in hand.seen]
        packet = list(left)
        for k, s in enumerate(b.seats):
            if k in (i, hand.opener):
                continue
            packet += hand.discards[k]
            hand.discards[k] = []
            if s.state in ("folded", "dead"):
                packet += hand.holes[k]
                hand.holes[k] = []
        hand.reshuffled, hand.packet = True, packet
        state.log.append(f"the stub is short: {len(packet)} cards reshuffled and cut (003:4898-4909)")

    # -- decisions ---------------------------------------------------------------------------------
    def _act(self, state: CircleState, act: Act) -> None:
        hand = state.hand
        assert hand is not None
        if act.by is not None:
            if act.by != "croupier" or act.do not in CROUPIER_VERBS:
                raise TapeteError("bad-document", f"the croupier's acts are {', '.join(CROUPIER_VERBS)}; a player's act "
                                  "names his hand bet ('bet')")
            self._croupier(state, hand, act)
            return
        b = hand.betting
        i = b.index(act.bet or "")
        if i is None:
            raise TapeteError("bad-document", f"act names no hand bet of the hand in play ({act.bet!r})")
        if act.do not in self.verbs():
            raise TapeteError("illegal-action", f"{act.do!r} is not a decision of {self.id} "
                              f"({', '.join(self.verbs())})", bet=act.bet)
        fields = act.fields
        if act.do in IRREGULAR_VERBS and act.do not in ("chips", "absent"):
            self._irregular(state, hand, i, act)
        elif hand.phase == "bet":
            self._betting_act(state, hand, i, act)
        elif hand.phase == "draw":
            if act.do != "draw":
                raise TapeteError("out-of-turn", f"the draw is under way: {act.do} is not due", bet=act.bet)
            if i != hand.draw_queue[0]:
                raise TapeteError("out-of-turn", f"another hand draws now (the hand of position {hand.draw_queue[0] + 1})", bet=act.bet,
                                  source="003:4876-4884")
            if fields.get("round", 1) != 1:
                raise TapeteError("out-of-turn", "the draw comes after round 1", bet=act.bet)
            self._do_draw(state, hand, i, fields.get("cards"))
            hand.draw_queue.pop(0)
            if not hand.draw_queue:
                hand.phase = "deal"
                self._run(state)
        elif hand.phase == "show":
            self._show_act(state, hand, i, act)
        else:
            raise TapeteError("illegal-action", f"no decision is due in hand {hand.number}", bet=act.bet)

    def _betting_act(self, state: CircleState, hand: Hand, i: int, act: Act) -> None:
        b = hand.betting
        fields = act.fields
        rnd = fields.get("round")
        if rnd is not None and rnd != b.round:
            raise TapeteError("out-of-turn", f"the act is for round {rnd}, but round {b.round} is being bet",
                              bet=act.bet)
        if i != b.to_act:
            if fields.get("out-of-turn") and act.do in ("bet", "raise") and b.seats[i].state == "in":
                self._hold(state, hand, i, act)
                return
            # positions, not logins: the message reaches a player who may not learn another's login (issue 26)
            due = f"the hand of position {b.to_act + 1}" if b.to_act is not None else "nobody"
            src = self._out_of_turn_source(state)
            why = f" (only a bet made out of turn binds, {src})" if fields.get("out-of-turn") else ""
            raise TapeteError("out-of-turn", f"the hand of position {i + 1} acts, but {due} is to act{why}", bet=act.bet,
                              source=src)
        amount = fields.get("amount")
        if act.do == "chips":
            verb, amount = self._silent_chips(state, hand, act)
        elif act.do == "absent":   # 003:4729-4734, 003:5183-5185: his hand is withdrawn
            if b.forced_only:
                bt.commit(b, i, min(b.minimum, b.seats[i].street + b.seats[i].stack))
            b.seats[i].state = "folded"
            b.seats[i].acted = True
            b.actions += 1
            b.forced_only = b.no_fold = b.no_raise = False
            state.log.append(f"{b.seats[i].player} is absent: his hand is withdrawn")
            hand.history.append(f"p{i + 1} f # absent")
            bt.advance(b)
            self._after_betting_act(state, hand)
            return
        else:
            verb = act.do
            if verb not in BETTING_VERBS:
                raise TapeteError("illegal-action", f"{verb} is not due: round {b.round} is being bet", bet=act.bet)
            if fields.get("string") and verb in ("bet", "raise"):
                raise TapeteError("illegal-action", "a string (cascade) bet must be declared aloud: write it as "
                                  "'chips' with 'string': true", source=self._cite(state.jurisdiction, "003:4269-4272"),
                                  bet=act.bet)
        self._apply_betting(state, hand, i, verb, amount)

    def _apply_betting(self, state: CircleState, hand: Hand, i: int, verb: str, amount: object) -> None:
        b = hand.betting
        s = b.seats[i]
        if verb == "bet" and self.variant.stud and b.forced_only and amount is None:
            amount = min(b.minimum, s.street + s.stack)
        if verb == "bet" and self.variant.bring_in_exact and b.forced_only and amount not in (
                None, min(b.minimum, s.street + s.stack)):
            raise TapeteError("illegal-action", f"five stud: the bring-in is exactly {b.minimum}",
                              source="003:5212-5215", bet=s.bet)
        folding_free = verb == "fold" and b.highest == s.street
        if amount is not None and not _is_int(amount):
            raise TapeteError("bad-document", "amount is an integer (cents): the player's total for the round", bet=s.bet)
        try:
            line = bt.act(b, verb, amount if verb in ("bet", "raise") else None, bet_id=s.bet)
        except TapeteError as exc:
            raise self._recited(state.jurisdiction, exc) from None
        hand.history.append(f"p{i + 1} " + ("f" if verb == "fold" else "cc" if verb in ("check", "call") else
                                            f"cbr {s.street}"))
        if verb == "bet" and self.variant.draw and b.round == 1 and hand.opener is None:
            self._open(state, hand, i)
        if self.variant.stud and folding_free and b.round > 1:
            s.dropped = True      # 003:5038-5041: still dealt until a bet is made
        if b.highest > 0:
            for other in b.seats:
                other.dropped = False
        state.log.append(line)
        self._after_betting_act(state, hand)

    def _open(self, state: CircleState, hand: Hand, i: int) -> None:
        """Draw: the first bet of round 1 opens; it needs openers (003:4846-4848), escalated after blank hands."""
        hand.opener = i
        hand.opener_cards = list(hand.holes[i])
        need = hands.opening_minimum(hand.blank)
        strength = hands.high("five", hand.holes[i], [], self._ranking(state))
        if not hands.has_openers(strength, need):
            state.log.append(f"{hand.betting.seats[i].player} opens without a pair of {FRENCH_RANKS[need]} or better "
                             "(a false open if he would win)")

    def _after_betting_act(self, state: CircleState, hand: Hand) -> None:
        b = hand.betting
        if b.to_act is None:
            hand.phase = "deal"
            self._run(state)
        else:
            self._settle_turns(state, hand)

    def _settle_turns(self, state: CircleState, hand: Hand) -> None:
        """Apply a binding out-of-turn bet when its maker's turn comes (003:4790-4795)."""
        b = hand.betting
        while hand.phase == "bet" and b.to_act is not None:
            held = next((h for h in hand.held if h.seat == b.to_act), None)
            if held is None:
                return
            hand.held.remove(held)
            s = b.seats[held.seat]
            if b.highest < held.amount:
                verb = "bet" if b.highest == 0 else "raise"
                opts = bt.options(b)
                assert opts is not None
                span = opts.bet if verb == "bet" else opts.raise_to
                if span is not None and (span[0] <= held.amount <= span[1] or held.amount in opts.sizes
                                         or held.amount == opts.allin):
                    state.log.append(f"{s.player}'s out-of-turn bet stands")
                    self._apply_betting(state, hand, held.seat, verb, held.amount)
                else:   # it no longer makes a legal raise: a silent under-raise is a call (003:4759-4762)
                    state.log.append(f"{s.player}'s out-of-turn bet of {held.amount} is only a call now")
                    self._apply_betting(state, hand, held.seat, "call", None)
            elif b.highest == held.amount:
                state.log.append(f"{s.player}'s out-of-turn bet of {held.amount} calls")
                self._apply_betting(state, hand, held.seat, "call", None)
            elif self._rules(state).out_of_turn_withdraw:
                state.log.append(f"{s.player} may withdraw his out-of-turn bet: an intermediate player raised")
                return
            else:   # ES-IB 000:1589: the bet stands; he may not raise it
                bt.commit(b, held.seat, held.amount)
                b.no_raise = True
                state.log.append(f"{s.player}'s out-of-turn bet of {held.amount} stands; he may call or fold")
                return

    def _hold(self, state: CircleState, hand: Hand, i: int, act: Act) -> None:
        """An out-of-turn bet waits for its turn (R: docs/rulings.md#circle-out-of-turn)."""
        b = hand.betting
        amount = act.fields.get("amount")
        if not _is_int(amount) or amount <= 0:
            raise TapeteError("bad-document", "an out-of-turn bet needs its 'amount'", bet=act.bet)
        s = b.seats[i]
        if amount > s.street + s.stack:
            raise TapeteError("illegal-action", f"{s.player} bets {amount} but has only {s.street + s.stack}",
                              source=self.IB_BETTING[bt.SRC_STAKES] if state.jurisdiction == "ES-IB" else bt.SRC_STAKES,
                              bet=act.bet)
        if any(h.seat == i for h in hand.held):
            raise TapeteError("out-of-turn", f"{s.player} already has an out-of-turn bet waiting", bet=act.bet)
        hand.held.append(Held(i, act.do, amount, b.highest))
        state.log.append(f"{s.player} bets {amount} out of turn: it stands ({self._out_of_turn_source(state)})")

    @staticmethod
    def _cite(jurisdiction: str, source: str) -> str:
        """Andalucía's common circle-poker article; at a Baleares sintético table, whose text is silent there, the
        same procedure applied as a reading (R: docs/rulings.md#sintetico-ib-common-procedures)."""
        if jurisdiction == "ES-IB" and "000:" not in source:
            return f"{source}; R: docs/rulings.md#sintetico-ib-common-procedures"
        return source

    # Baleares' sintético has its own articles on the betting options (000:1523-1535); the rest is a reading
    IB_BETTING = {bt.SRC_ACTIONS: "000:1523-1535", bt.SRC_STAKES: "000:1535"}

    @classmethod
    def _recited(cls, jurisdiction: str, exc: TapeteError) -> TapeteError:
        """A refusal of the common betting engine (Andalucía's articles) in the table's own text (`_cite`)."""
        if jurisdiction != "ES-IB" or exc.source is None:
            return exc
        source = cls.IB_BETTING.get(exc.source) or cls._cite(jurisdiction, exc.source)
        return TapeteError(exc.code, exc.message.removesuffix(f": {cite(exc.source)}"), source=source, bet=exc.bet)

    def _out_of_turn_source(self, state: CircleState) -> str:
        """The article on out-of-turn bets of the table's own text: 003:4790-4795, Baleares' 000:1589."""
        return self._rules(state).sources["out_of_turn_withdraw"].split(";")[0].strip()

    def _silent_chips(self, state: CircleState, hand: Hand, act: Act) -> tuple[str, int | None]:
        """Chips pushed without a declaration (003:4759-4785): the text says what they mean
        (R: docs/rulings.md#circle-silent-chips)."""
        b = hand.betting
        opts = bt.options(b)
        assert opts is not None
        s = b.seats[opts.seat]
        chips = act.fields.get("amount")
        if not _is_int(chips) or chips <= 0:
            raise TapeteError("bad-document", "chips takes 'amount': the value pushed over the line", bet=act.bet)
        if chips > s.stack:
            raise TapeteError("illegal-action", f"{s.player} has only {s.stack} behind", source=bt.SRC_STAKES,
                              bet=act.bet)
        one = bool(act.fields.get("one-chip"))
        if opts.call:
            if one or act.fields.get("string") or chips <= opts.call:
                return "call", None           # 003:4770-4780: a call; the excess is returned
            total = s.street + chips
            if opts.raise_to is None or total < opts.raise_to[0] and total != opts.allin:
                return "call", None           # 003:4759-4762: fewer chips than a raise needs: a call
            if b.structure == "fixed":
                return "raise", min(opts.sizes, key=lambda t: abs(t - total)) if total not in opts.sizes else total
            return "raise", min(total, opts.raise_to[1])
        if act.fields.get("string"):
            raise TapeteError("illegal-action", "a string (cascade) bet not declared aloud is refused",
                              source=self._cite(state.jurisdiction, "003:4269-4272; R: docs/rulings.md#circle-string-bet"),
                              bet=act.bet)
        if opts.bet is None:
            return "check", None
        total = s.street + chips
        if b.structure == "fixed":
            return "bet", opts.sizes[-1] if total >= opts.sizes[-1] else opts.sizes[0]
        if total < opts.bet[0] and total != opts.allin:
            raise TapeteError("illegal-action", f"a bet of {chips} is under the minimum {opts.bet[0]}",
                              source=bt.SRC_MINBET, bet=act.bet)
        return "bet", min(total, opts.bet[1])   # 003:4777-4785: the chip's value, at most the pot in pot limit

    def _irregular(self, state: CircleState, hand: Hand, i: int, act: Act) -> None:
        """The player errors of 003:4787-4823 and the croupier's of 003:4743-4748, as decision rules."""
        b = hand.betting
        s = b.seats[i]
        if hand.phase in ("over",):
            raise TapeteError("illegal-action", "the hand is over", bet=act.bet)
        hand.history.append(f"# p{i + 1} {act.do}")
        if act.do == "expose":          # 003:4787-4788: play goes on
            state.log.append(f"{s.player} exposed his cards: the hand goes on")
            if self.variant.stud:       # 003:5173-5177: he covers them; his next card is dealt face up
                hand.next_up.append(i)
            return
        if act.do == "exposed-card":
            self._exposed_card(state, hand, i, act.fields.get("cards"))
            return
        if act.do == "wrong-count":     # 003:4817-4823 (R-NULA, R-2ACTIONS)
            if b.actions < 2:
                self._void(state, Void("wrong-count"))
                return
            self._kill(state, hand, i, f"{s.player} has a wrong number of cards after two actions: his hand is void "
                       "and he loses his bets (003:4817-4823)")
            return
        if act.do == "touch":           # 003:4804-4806 (R-TOUCH): both hands void, chips stay
            other = b.index(act.fields.get("with") or "")
            if other is None or other == i:
                raise TapeteError("bad-document", "touch names the other hand bet in 'with'", bet=act.bet)
            self._kill(state, hand, i, f"{s.player}'s cards touched another player's: both hands are void", other=other)
            return
        if act.do == "croupier-mucked":  # 003:4743-4748: a protected hand mucked: all his money back
            if s.state not in bt.LIVE:
                raise TapeteError("illegal-action", f"{s.player} holds no cards", bet=act.bet)
            s.state = "refunded"
            state.log.append(f"the croupier mucked {s.player}'s protected hand: all his money is returned")
            self._after_kill(state, hand)

    def _exposed_card(self, state: CircleState, hand: Hand, i: int, cards: object) -> None:
        """A card the croupier dealt face up by mistake. Stud: one of the first two stays up and the third comes
        down; both: the hand is void and the ante returned (003:5098-5108); the seventh (003:5131-5141): it plays
        up, heads-up the other seventh too. Board games: the card stays with the player (003:5341-5343)."""
        b = hand.betting
        s = b.seats[i]
        if not isinstance(cards, list) or not cards or any(c not in hand.holes[i] for c in cards):
            raise TapeteError("bad-document", "exposed-card names the exposed cards of his hand in 'cards'", bet=s.bet)
        if not self.variant.stud:
            state.log.append(f"{s.player}'s {' '.join(cards)} was exposed: it is not replaced (003:5341-5343)")
            return
        first_two = hand.holes[i][:2]
        if b.round == 1 and b.actions == 0 and all(c in first_two for c in cards):
            if len(set(cards)) == 2:
                s.state = "refunded"
                state.log.append(f"both of {s.player}'s first cards were exposed: his hand is void, his ante returned "
                                 "(003:5106-5108)")
                if len([k for k in b.live() if b.seats[k].state != "refunded"]) <= 1:
                    hand.phase = "deal"
                    self._run(state)
                    return
            else:
                k = hand.holes[i].index(cards[0])
                hand.up[i][k], hand.up[i][2] = True, False
                state.log.append(f"{s.player}'s {cards[0]} stays face up; his third card is turned down (003:5098-5104)")
            b.round = 0               # the bring-in is read again from the up-cards
            self._start_betting(state, hand)
            return
        for c in cards:
            hand.up[i][hand.holes[i].index(c)] = True
        last = len(hand.holes[i]) == 7 and hand.holes[i][6] in cards
        if last and len(b.live()) == 2:       # 003:5131-5133: heads-up both get the last card face up
            for k in b.live():
                if len(hand.up[k]) == 7:
                    hand.up[k][6] = True
        state.log.append(f"{s.player}'s {' '.join(cards)} was dealt face up (003:5131-5141)")
        if hand.phase == "bet" and b.actions == hand.street_start:
            b.round -= 1                # the round is opened by the best hand showing, the exposed card included
            self._start_betting(state, hand)

    def _croupier(self, state: CircleState, hand: Hand, act: Act) -> None:
        """The croupier's errors with the common cards (003:5304-5333, 5640-5663; 000:1573-1575)."""
        if act.fields:
            raise TapeteError("bad-document", f"unknown croupier act keys {sorted(act.fields)}")
        if hand.phase != "bet":
            raise TapeteError("illegal-action", "the common cards can only be turned early during a betting round")
        hand.history.append(f"# croupier {act.do}")
        if act.do == "no-burn":
            self._no_burn(state, hand)
        elif self.id == "poker-sintetico":
            self._sintetico_early(state, hand)
        else:
            self._premature(state, hand)

    def _no_burn(self, state: CircleState, hand: Hand) -> None:
        """003:5304-5310: the croupier forgot to burn before turning common cards. Noticed before two actions, the
        first card turned is the burn and the next one is turned (the cards as dealt); after, they stand."""
        b = hand.betting
        if self.variant.rows or not hand.street or not hand.burned:
            raise TapeteError("illegal-action", "no common cards were turned after a burn in this street")
        if b.actions - hand.street_start < 2:
            state.log.append("turned without a burn, noticed before two actions: the first card is the burn "
                             "(003:5304-5310)")
            return
        k = len(hand.street)
        burn = hand.burned.pop()
        turned = [burn, *hand.street[:-1]]
        back = hand.street[-1]
        hand.board[-k:] = turned
        hand.street = turned
        state.pos -= 1                        # the last card goes back on the stub
        hand.seen.remove(back)
        if hand.reshuffled:
            hand.packet.insert(0, back)
        state.log.append(f"turned without a burn, noticed after two actions: the cards stand: {' '.join(hand.board)}")

    def _street_steps(self, hand: Hand) -> list[int]:
        steps = []
        k = hand.step
        while k < len(hand.plan) and hand.plan[k] != "bet":
            steps.append(k)
            k += 1
        return steps

    def _premature(self, state: CircleState, hand: Hand) -> None:
        """Common cards turned before the round closed (003:5312-5333): a flop goes back into the stub and a new
        one is turned without a burn; a turn is set aside, the river's card becomes the turn and the river comes
        from the shuffled stub with it; a river goes back and a new one is turned (no burn, R)."""
        b = hand.betting
        steps = self._street_steps(hand)
        if not any(":" in hand.plan[k] for k in steps):
            raise TapeteError("illegal-action", "no common card is due after this round")
        early: list[str] = []
        for k in steps:
            step = hand.plan[k]
            if step == "burn":
                hand.burned.append(self._draw(state, hand))
            else:
                early += [self._draw(state, hand) for _ in range(int(step.split(":")[1]))]
        state.log.append(f"{' '.join(early)} turned before the round closed: not valid "
                         f"({self._cite(state.jurisdiction, '003:5312-5333')})")
        hand.set_aside = early
        if b.round == 2:          # the turn: its own burn and card follow; the river from the shuffled stub
            river = self._next_street(hand, after=steps[-1] + 1)
            for k in river:
                hand.plan[k] = "skip" if hand.plan[k] == "burn" else "re-" + hand.plan[k]
            return
        for k in steps:         # the flop or the river: a new one from the shuffled stub, without a burn
            hand.plan[k] = "skip" if hand.plan[k] == "burn" else "re-" + hand.plan[k]

    def _next_street(self, hand: Hand, after: int) -> list[int]:
        k = after
        while k < len(hand.plan) and hand.plan[k] == "bet":
            k += 1
        out = []
        while k < len(hand.plan) and hand.plan[k] != "bet":
            out.append(k)
            k += 1
        return out

    def _sintetico_early(self, state: CircleState, hand: Hand) -> None:
        """Sintético: a common card shown too early, or a second one in the same interval. ES-AN (003:5640-5663,
        R-SYN-REPLACE): it is set aside, the commons still to come are laid face down, the set-aside card is mixed
        into the stub and the top card of it fills the empty place. ES-IB (000:1573-1575): it is replaced by the
        next unused card."""
        slots = [k for k in range(hand.step, len(hand.plan)) if hand.plan[k].endswith("board:1")]
        if not slots:
            raise TapeteError("illegal-action", "all five common cards are out")
        early = self._draw(state, hand)
        later = [self._draw(state, hand) for _ in slots[1:]]
        if state.jurisdiction == "ES-AN":
            hand.packet = [c for c in self._deck(state) if c not in hand.seen] + [early]
            hand.reshuffled = True
        else:
            hand.burned.append(early)
        replacement = self._draw(state, hand)
        hand.future = [replacement, *later]
        for k in slots:
            hand.plan[k] = "fut-board:1"
        state.log.append(f"{early} shown too early: not valid; replaced by a card laid face down in its place")

    def _kill(self, state: CircleState, hand: Hand, i: int, line: str, other: int | None = None) -> None:
        b = hand.betting
        for k in (i, other):
            if k is not None and b.seats[k].state in bt.LIVE:
                b.seats[k].state = "dead"
        state.log.append(line)
        self._after_kill(state, hand)

    def _after_kill(self, state: CircleState, hand: Hand) -> None:
        b = hand.betting
        hand.draw_queue = [k for k in hand.draw_queue if b.seats[k].state in bt.LIVE]
        hand.show_queue = [k for k in hand.show_queue if b.seats[k].state in bt.LIVE]
        if hand.phase == "bet" and b.to_act is not None and b.seats[b.to_act].state != "in":
            bt.advance(b)
        alone = len([k for k in b.live() if b.seats[k].state != "refunded"]) <= 1
        if alone or (hand.phase == "bet" and b.to_act is None) or (hand.phase == "draw" and not hand.draw_queue):
            hand.phase = "deal"
            self._run(state)
        elif hand.phase == "show" and not hand.show_queue:
            self._award(state, hand)

    # -- showdown ----------------------------------------------------------------------------------
    def _showdown(self, state: CircleState, hand: Hand) -> None:
        """003:4615-4622 (R-SHOWORDER): the last bettor shows first, then in turn; with no bet in the last round,
        the first to act in it."""
        b = hand.betting
        live = b.live()
        start = b.round_high if b.round_high is not None else (b.round_first if b.round_first is not None else 0)
        n = len(b.seats)
        hand.show_queue = [i for k in range(n) if (i := (start + k) % n) in live]
        hand.phase = "show"
        if len(hand.show_queue) <= 1:
            self._award(state, hand)

    def _show_act(self, state: CircleState, hand: Hand, i: int, act: Act) -> None:
        b = hand.betting
        if act.do not in ("show", "muck"):
            raise TapeteError("illegal-action", f"the showdown is under way: show or muck, not {act.do}", bet=act.bet)
        if i != hand.show_queue[0]:
            raise TapeteError("out-of-turn", f"{b.seats[hand.show_queue[0]].player} shows now", bet=act.bet,
                              source=self._cite(state.jurisdiction, "003:4615-4622"))
        if act.do == "muck" and not self._others_contend(hand, i):
            raise TapeteError("illegal-action", "the last player in the showdown cannot give up the pot",
                              bet=act.bet, source=self._cite(state.jurisdiction, "003:4617-4622"))
        hand.show_queue.pop(0)
        if act.do == "muck":
            hand.mucked.append(i)
            state.log.append(f"{b.seats[i].player} gives up the pot without showing")
            hand.history.append(f"p{i + 1} sm")
        else:
            state.log.append(f"{b.seats[i].player} shows {' '.join(self._all_cards(hand, i))}")
            hand.history.append(f"p{i + 1} sm {phh_cards(hand.holes[i])}")
        if not hand.show_queue:
            self._award(state, hand)

    @staticmethod
    def _others_contend(hand: Hand, i: int) -> bool:
        """003:4617-4622: a player may throw his cards away at his turn to show while another live player, one who
        has already shown or one still to show, keeps a claim to the pot (docs/rulings.md#showdown-muck)."""
        return any(k != i and k not in hand.mucked for k in hand.betting.live())

    def _all_cards(self, hand: Hand, i: int) -> list[str]:
        return hand.holes[i] + hand.common

    def _ranking(self, state: CircleState) -> str:
        if self.variant.draw:
            return "draw-32" if state.config.deck == 32 else "draw-52"
        return "short-deck" if self.id == "poker-sintetico" else "standard"

    def strengths(self, state: CircleState, hand: Hand, i: int) -> tuple[int, int | None, int | None]:
        """(high, low, row 2) for seat i: what the croupier reads at the showdown."""
        hole = self._all_cards(hand, i)
        formation = state.config.formation
        ranking = self._ranking(state)
        if self.variant.stud and len(hole) != (7 if self.id == "seven-stud" else 5):
            return -1, None, None       # 003:5125-5126: a hand of more or fewer than seven cards is void
        high = hands.high(formation, hole, hand.board, ranking)
        low = hands.low(hole, hand.board) if self.variant.low else None
        row2 = hands.high(formation, hole, hand.board2, ranking) if self.variant.rows else None
        return high, low, row2

    # -- paying ------------------------------------------------------------------------------------
    def _false_opener(self, state: CircleState, hand: Hand) -> bool:
        if not self.variant.draw or hand.opener is None:
            return False
        strength = hands.high("five", hand.opener_cards, [], self._ranking(state))
        return not hands.has_openers(strength, hands.opening_minimum(hand.blank))

    def _award(self, state: CircleState, hand: Hand) -> None:
        b = hand.betting
        if self._false_opener(state, hand) and b.seats[hand.opener].state in bt.LIVE:   # type: ignore[index]
            opener = b.seats[hand.opener]   # type: ignore[index]
            others = [i for i in b.live() if i != hand.opener]
            if not others:       # 003:4962-4964: his last bet uncalled: every chip waits for the next deal
                state.log.append(f"{opener.player} cannot show openers: the pot of {b.pot()} waits for the next deal")
                self._carry(state, hand, "false-open")
                return
            opener.state = "dead"    # 003:4956-4962: he cannot win; his chips stay in the pot
            state.log.append(f"{opener.player} cannot show openers: false open, he withdraws")
        returned = {i: 0 for i in range(len(b.seats))}
        for i, s in enumerate(b.seats):
            if s.state == "refunded" or not b.live():    # nobody left to win: R: docs/rulings.md#circle-touching-hands
                returned[i] += s.total
        if not b.live():
            state.log.append("no hand is left to win the pot: the hand is void and every chip is returned")
        refund = bt.uncalled(b) if state.config.uncalled == "returned" and b.live() else {}
        for i, chips in refund.items():
            returned[i] += chips
            state.log.append(f"{b.seats[i].player}'s uncalled {chips} is returned")
        rake_total = 0
        for n, pot in enumerate(bt.build_pots(b, refund) if b.live() else []):
            rake = bt.rake_of(pot.amount, state.config.rake)
            rake_total += rake
            net = pot.amount - rake
            shares = self._shares(state, hand, pot, net)
            for i, chips in shares.items():
                returned[i] += chips
            name = "main pot" if n == 0 else f"side pot {n}"
            winners = ", ".join(f"{b.seats[i].player} {c}" for i, c in shares.items() if c)
            state.log.append(f"{name} {pot.amount}, rake {rake}: {winners}")
        for i, s in enumerate(b.seats):
            s.stack += returned[i]
            state.stacks[s.player] = s.stack
            acc = state.accounts[s.bet]
            acc.staked, acc.returned, acc.final = s.total, returned[i], "settled"
        state.commission += rake_total
        state.rounds += 1
        hand.phase = "over"
        hand.carry = ""
        self._move_button(state)

    def _shares(self, state: CircleState, hand: Hand, pot: bt.Pot, net: int) -> dict[int, int]:
        b = hand.betting
        eligible = [i for i in pot.eligible if i not in hand.mucked] or list(pot.eligible)
        if len(eligible) == 1:
            return {eligible[0]: net}
        reads = {i: self.strengths(state, hand, i) for i in eligible}
        top = max(r[0] for r in reads.values())
        high = [i for i in eligible if reads[i][0] == top]
        second: list[int] = []
        if self.variant.low:
            lows = {i: r[1] for i, r in reads.items() if r[1] is not None}
            if lows:
                best = min(lows.values())
                second = [i for i, v in lows.items() if v == best]
        elif self.variant.rows:
            top2 = max(r[2] for r in reads.values() if r[2] is not None)
            second = [i for i in eligible if reads[i][2] == top2]
        for i in eligible:
            r = reads[i]
            text = hands.describe(r[0]) if r[0] >= 0 else "void hand (wrong number of cards)"
            if self.variant.low:
                text += f"; low {hands.describe_low(r[1])}"
            if self.variant.rows and r[2] is not None:
                text = f"row 1 {text}; row 2 {hands.describe(r[2])}"
            state.log.append(f"{b.seats[i].player}: {text}")
        if not second:
            return bt.split(b, net, high)
        first_half, second_half = bt.halve(b, net, high, second)
        out = bt.split(b, first_half, high)
        for i, chips in bt.split(b, second_half, second).items():
            out[i] = out.get(i, 0) + chips
        return out

    def _carry(self, state: CircleState, hand: Hand, why: str) -> None:
        """The pot waits for the next deal: a blank hand or a false open nobody called (003:4863-4866, 4962-4964)."""
        hand.phase = "over"
        hand.carry = why
        if why == "blank":
            state.log.append(f"blank hand (mano en blanco): the pot of {hand.betting.pot()} waits; everybody re-antes")
        for s in hand.betting.seats:
            state.stacks[s.player] = s.stack
        self._move_button(state)    # R-BLANK: a new deal

    def _move_button(self, state: CircleState) -> None:
        """003:4456-4458: one seat clockwise each new deal (sintético: counter-clockwise, 003:5567-5571)."""
        occupied = sorted(state.seats.values())
        k = occupied.index(state.button)
        step = 1 if self._rules(state).direction == "counter-clockwise" else -1
        state.button = occupied[(k + step) % len(occupied)]

    # -- void --------------------------------------------------------------------------------------
    def _void(self, state: CircleState, void: Void) -> None:
        """003:4673-4719 (R-MISDEAL, R-2ACTIONS): a misdeal noticed before two actions redeals the hand with the
        forced bets as posted; after two actions the hand stands — except a card with another back or two
        identical cards, which void it and return every chip."""
        hand = state.hand
        if hand is None or hand.phase == "over":
            raise TapeteError("illegal-action", "no hand is being dealt: nothing to void")
        b = hand.betting
        reason = void.reason
        if reason in VOID_REFUND:
            for s in b.seats:
                s.stack += s.total
                state.stacks[s.player] = s.stack
                acc = state.accounts[s.bet]
                acc.staked = acc.returned = s.total
                acc.final = "void"
                s.total = 0
            hand.phase, hand.carry = "over", ""
            state.log.append(f"hand {hand.number} void ({reason}): every chip is returned "
                             f"({self._cite(state.jurisdiction, '003:4714-4719')})")
            return
        if b.actions >= 2:
            raise TapeteError("illegal-action", f"{reason}: noticed after two actions, the hand stands",
                              source=self._cite(state.jurisdiction, "003:4714-4719; R: docs/rulings.md#circle-misdeal"))
        for i, s in enumerate(b.seats):       # back to the forced bets as posted
            keep = hand.base[i] + hand.forced[i]
            s.stack += s.total - keep
            s.total = keep
            s.street = hand.forced[i] if state.config.forced == "blinds" else 0
            state.stacks[s.player] = s.stack
        b.highest = max((s.street for s in b.seats), default=0)
        hand.phase, hand.carry = "over", "redeal"
        state.log.append(f"misdeal ({reason}): the cards are collected and the hand dealt again (R-MISDEAL)")

    # -- ending ------------------------------------------------------------------------------------
    def _close_hand(self, state: CircleState) -> None:
        """The hand's events ran out: every decision still due takes its default, in turn (docs/vocabulary.md §0.2)."""
        hand = state.hand
        if hand is None:
            return
        guard = 0
        while hand.phase in ("bet", "draw", "show"):
            guard += 1
            if guard > 10_000:  # pragma: no cover - a bug, not a document
                raise RuntimeError("circle hand does not terminate")
            self._default(state, hand)

    def _default(self, state: CircleState, hand: Hand) -> None:
        b = hand.betting
        if hand.phase == "bet":
            assert b.to_act is not None
            s = b.seats[b.to_act]
            opts = bt.options(b)
            assert opts is not None
            if b.forced_only:
                verb = "bet"
            elif opts.check:
                verb = "check"
            else:
                verb = "fold"
            self._apply_betting(state, hand, b.to_act, verb, None if verb != "bet" else min(b.minimum, s.street + s.stack))
        elif hand.phase == "draw":
            i = hand.draw_queue.pop(0)
            self._do_draw(state, hand, i, [])
            if not hand.draw_queue:
                hand.phase = "deal"
                self._run(state)
        else:
            i = hand.show_queue.pop(0)
            state.log.append(f"{b.seats[i].player} shows {' '.join(self._all_cards(hand, i))}")
            hand.history.append(f"p{i + 1} sm {phh_cards(hand.holes[i])}")
            if not hand.show_queue:
                self._award(state, hand)

    def finish(self, state: CircleState) -> CircleState:
        if state.pending and (state.hand is None or state.hand.phase == "over") and not (
                state.hand is not None and state.hand.carry):
            self._deal(state)
        self._close_hand(state)
        return state

    def settle(self, state: CircleState) -> Settlement:
        results: dict[str, BetResult] = {}
        hand = state.hand
        for bet_id, acc in state.accounts.items():
            if acc.final in ("settled", "void"):
                results[bet_id] = BetResult(Fraction(acc.staked), Fraction(acc.returned),
                                            final="void" if acc.final == "void" else "settled")
                continue
            seat = hand.betting.seats[hand.betting.index(bet_id)] if hand is not None and hand.betting.index(bet_id) is not None else None
            staked = seat.total if seat is not None else acc.staked
            if hand is not None and hand.carry == "redeal":
                results[bet_id] = BetResult.voided(Fraction(staked))
            else:
                results[bet_id] = BetResult.pending(Fraction(staked))
        for b in state.pending:
            results[b.id] = BetResult.voided(Fraction(0))
        return Settlement(self.id, state.jurisdiction, results, commission=Fraction(state.commission),
                          rounds=state.rounds, log=list(state.log))

    # -- questions ---------------------------------------------------------------------------------
    def legal_actions(self, state: CircleState) -> list[Action]:
        hand = state.hand
        if hand is None or hand.phase == "over":
            return [Action("bet", kind="hand")]
        b = hand.betting
        if hand.phase == "bet" and b.to_act is not None:
            opts = bt.options(b)
            assert opts is not None
            bet_id = b.seats[opts.seat].bet
            out = []
            if opts.check:
                out.append(Action("check", bet=bet_id))
            if opts.call:
                out.append(Action("call", bet=bet_id, minimum=opts.call, maximum=opts.call))
            if opts.bet:
                low, high = opts.bet
                if b.forced_only and self.variant.bring_in_exact:     # 003:5212-5215
                    low = high = min(b.minimum, opts.allin)
                out.append(Action("bet", bet=bet_id, minimum=low, maximum=high, targets=opts.sizes or None))
            if opts.raise_to:
                out.append(Action("raise", bet=bet_id, minimum=opts.raise_to[0], maximum=opts.raise_to[1],
                                  targets=opts.sizes or None))
            if opts.fold:
                out.append(Action("fold", bet=bet_id))
            return out
        if hand.phase == "draw":
            return [Action("draw", bet=b.seats[hand.draw_queue[0]].bet, minimum=0, maximum=5)]
        if hand.phase == "show":
            bet_id = b.seats[hand.show_queue[0]].bet
            acts = [Action("show", bet=bet_id)]
            if self._others_contend(hand, hand.show_queue[0]):
                acts.append(Action("muck", bet=bet_id))
            return acts
        return []

    def chance(self, state: CircleState) -> list[tuple[Event, Fraction]]:
        """Nothing rides on chance against the house: the cards come from the shoe, the house takes the rake."""
        return []


def phh_cards(cards: Sequence[str]) -> str:
    """docs/format.md's `TD` as PHH writes it: `Td`."""
    return "".join(c[0] + c[1].lower() for c in cards)


def stacked_shoe(game_id: str, holes: Sequence[Sequence[str]], board: Sequence[str] = (), board2: Sequence[str] = (),
                 *, burns: Sequence[str] | None = None, replacements: Sequence[str] = (), early_card: bool = False,
                 deck: int | None = None) -> list[str]:
    """The `shoe` that deals these cards: `holes[k]` are the cards player k (in play order from the mano) receives,
    in the order he receives them; `board`/`board2` the common cards; `replacements` the draw's new cards in draw
    order. Burn cards not given are filled with cards nobody holds. Used by tests and by the PHH import."""
    v = VARIANTS[game_id]
    plan = EARLY_CARD_PLAN if early_card else v.plan
    size = deck or (28 if game_id == "poker-sintetico" else 52)
    low = {52: 0, 32: 5, 28: 6}[size]
    used = {c for h in holes for c in h} | set(board) | set(board2) | set(replacements) | set(burns or ())
    spare = [r + s for r in FRENCH_RANKS[low:][::-1] for s in "CDHS" if r + s not in used]
    burn_iter = iter(burns) if burns is not None else None
    given = [0] * len(holes)
    b1, b2 = iter(board), iter(board2)
    out: list[str] = []

    def burn() -> None:
        card = next(burn_iter, None) if burn_iter is not None else None
        out.append(card if card is not None else spare.pop(0))

    for step in plan:
        if step in ("down", "up") or step.startswith("street:"):
            if step.startswith("street:") and any(given[k] < len(h) for k, h in enumerate(holes)):
                burn()
            for k, h in enumerate(holes):
                if given[k] < len(h):
                    out.append(h[given[k]])
                    given[k] += 1
        elif step == "burn":
            burn()
        elif step.startswith(("board:", "row1:", "row2:")):
            where, count = step.split(":")
            src = b2 if where == "row2" else b1
            out.extend(c for c in (next(src, None) for _ in range(int(count))) if c is not None)
        elif step == "draw":
            out.extend(replacements)
    return out


def _percent(value: object) -> Fraction:
    """Rates are exact decimals in percent (docs/vocabulary.md §0.1)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        raise TapeteError("bad-document", "rake is a number of percent")
    try:
        return Fraction(Decimal(str(value)))
    except (InvalidOperation, ValueError) as exc:
        raise TapeteError("bad-document", f"rake {value!r} is not a number") from exc


GAMES = {gid: register(CircleGame(v)) for gid, v in VARIANTS.items()}
