"""Andalucía's two Monte games: *Casino Monte* (003:5798-6020) and *Monte o banca* (003:6022-6269).

Casino Monte: one card to each box and one to the croupier, the higher wins even money; a tie pays the Tie bet
10 to 1 and offers the *Revancha* (a second card at double stake) or the surrender of half the bet. Six 52-card
decks (003:5811-5814).

Monte o banca: a layout of four cards drawn from two Spanish 40-card decks; cards are revealed until one matches a
layout card's value. Bets on which card is matched first and by which suit (Camo, Anti, Viudo), on any suit
(Salto), on the very first card revealed (Vista Hermosa), and card against card (Cartas); two phases, *Primeras*
and *Segundas*; 10 % of the winnings go to the house when the phase's first revealed card is the winning one.
The seed's text is scrambled and incomplete (reading order in docs/games/monte-banca.md and docs/rulings.md#monte-banca-layout); every
reading is in docs/rulings.md.

Both are banked: exact edges come from the same reducer, run over every class of cards with its exact probability
(tapete.analysis.monte).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.core.cards import FRENCH_RANKS, parse_card
from tapete.core.errors import TapeteError
from tapete.engine.bet_index import bet_index
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, EdgeCase, Game, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.rules import Rules
from tapete.engine.settlement import BetResult, Settlement


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _known_keys(table: dict[str, Any], keys: list[TableKey], game: str) -> None:
    known = {t.key for t in keys}
    for key in table:
        if key not in known:
            raise TapeteError("bad-document", f"unknown table key {key!r} for {game} (known: {', '.join(sorted(known))})")


# ================================================================================================ Casino Monte


@dataclass(frozen=True)
class CasinoMonteRules(Rules):
    decks: int
    opening_burn: int
    boxes: int
    back_bettors: int
    main_pays: Fraction
    tie_pays: Fraction
    surrender_loses: Fraction
    rematch: str
    rematch_tie: str
    rematch_loss: str
    rematch_burn: tuple[int, ...]
    maximum_multiple: tuple[int, int]
    ace_high: bool
    reserve: int


CASINO_MONTE_RULES = {"ES-AN": CasinoMonteRules(
    jurisdiction="ES-AN", decks=6, opening_burn=5, boxes=9, back_bettors=3, main_pays=Fraction(1),
    tie_pays=Fraction(10), surrender_loses=Fraction(1, 2), rematch="a stake equal to the main bet; 1 to 1, main back",
    rematch_tie="paid twice the main bet, both stakes back", rematch_loss="both bets lost",
    rematch_burn=(1, 2, 3), maximum_multiple=(10, 50), ace_high=True, reserve=52,
    sources={
        "decks": "003:5811-5817", "opening_burn": "003:5908-5910", "boxes": "003:5832-5852",
        "back_bettors": "003:5876-5887", "main_pays": "003:5940-5948",
        "tie_pays": "003:5950-5954; R: docs/rulings.md#casino-monte-tie",
        "surrender_loses": "003:5961-5970", "rematch": "003:5979-5989",
        "rematch_tie": "003:5991-5995; R: docs/rulings.md#casino-monte-second-tie",
        "rematch_loss": "003:5979-5985; R: docs/rulings.md#casino-monte-rematch-loss",
        "rematch_burn": "003:5972-5977", "maximum_multiple": "003:5997-6011",
        "ace_high": "003:5819-5823", "reserve": "003:5903-5906; R: docs/rulings.md#casino-monte-reserve",
    },
)}


@dataclass
class CMBet:
    id: str
    player: str
    kind: str                 # main | tie
    box: int
    amount: int
    coup: int
    state: str = "open"       # open | tied | rematch | done
    rematch: bool = False
    returned: Fraction = Fraction(0)


@dataclass
class CMState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    minimum: int
    maximum: int
    burn: int
    shoe: list[str] = field(default_factory=list)
    pos: int = 0
    cut: int | None = None
    last_coup: bool = False
    coup: int = 1
    dealt: bool = False
    face_up: list[str] = field(default_factory=list)    # cards found face up in the shoe (003:6014-6017)
    tie: bool = False         # a main bet tied in this coup's deal
    rematch_done: bool = False
    cards: dict[str, str] = field(default_factory=dict)   # "box N" / "croupier" -> card, this coup
    rematch_cards: dict[str, str] = field(default_factory=dict)   # the rematch's deal, filed the same way (the table shows it)
    bets: list[CMBet] = field(default_factory=list)
    rounds: int = 0
    log: list[str] = field(default_factory=list)


def monte_rank(card: str) -> int:
    """003:5819-5821: A K Q J 10 ... 2, the ace always high (no straights exist here); suits do not count."""
    return FRENCH_RANKS.index(card[0])


class CasinoMonte(Game):
    id = "casino-monte"
    name_es = "Casino Monte"
    name_en = "Casino Monte (one card against the croupier's)"
    uses_shoe = True
    extra_bet_fields = frozenset({"box"})
    extra_act_fields = frozenset({"card"})

    @property
    def rules(self) -> dict[str, CasinoMonteRules]:  # type: ignore[override]
        return CASINO_MONTE_RULES

    def state_type(self) -> type:
        return CMState

    def kinds(self) -> list[KindInfo]:
        return [KindInfo("main", "1:1", "Apuesta inicial: the box's card beats the croupier's (box 1-9; up to 3 "
                         "back-bettors); on a tie: rematch or surrender half"),
                KindInfo("tie", "10:1", "Tie (empate): the box ties the croupier on the first deal; only with the "
                         "same player's main bet on that box")]

    def verbs(self) -> list[str]:
        return ["rematch", "surrender", "face-up-card"]

    def table_keys(self) -> list[TableKey]:
        return [TableKey("minimum", required=True, description="table minimum, cents"),
                TableKey("maximum", default=None, description="per box, 10-50 x minimum; default 50 x minimum"),
                TableKey("rematch-burn", default=1, description="cards burned before the rematch deal: 1-3"),
                TableKey("cut-card", default=None, description="index in shoe of the first card behind the cut card"),
                TableKey("rounding", default="player", description="docs/format.md rounding policy")]

    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> CMState:
        rules = self.rules_for(jurisdiction)
        _known_keys(table, self.table_keys(), self.id)
        m = table.get("minimum")
        if not _is_int(m) or m <= 0:
            raise TapeteError("bad-document", "table.minimum (cents) is required: a positive integer")
        low, high = rules.maximum_multiple
        maximum = table.get("maximum", high * m)
        if not _is_int(maximum) or not low * m <= maximum <= high * m:
            raise TapeteError("bad-table", f"the maximum is between {low} and {high} times the minimum ({low * m}-"
                              f"{high * m})", source=rules.sources["maximum_multiple"])
        burn = table.get("rematch-burn", 1)
        if burn not in rules.rematch_burn:
            raise TapeteError("bad-table", "rematch-burn is 1, 2 or 3 cards", source=rules.sources["rematch_burn"])
        cut = table.get("cut-card")
        if cut is not None and (not _is_int(cut) or cut < 0):
            raise TapeteError("bad-document", "cut-card is a 0-based index into shoe")
        if cut is not None and cut > 52 * rules.decks - rules.opening_burn - rules.reserve:
            raise TapeteError("bad-table", f"the cut card must leave at least {rules.reserve} cards behind it (index at "
                              f"most {52 * rules.decks - rules.opening_burn - rules.reserve})", source=rules.sources["reserve"])
        cards = [parse_card(c).text for c in (shoe or [])]
        for card, n in Counter(cards).items():
            if n > rules.decks:
                raise TapeteError("bad-card", f"{card} appears {n} times, but the shoe holds {rules.decks} decks",
                                  source=rules.sources["decks"])
        return CMState(self.id, jurisdiction, dict(table), m, maximum, burn, cards, 0, cut)

    # -- events ----------------------------------------------------------------------------------
    def apply(self, state: CMState, event: Event) -> None:
        if isinstance(event, Bet):
            if state.dealt:
                self._end_coup(state)
            self._bet(state, event)
        elif isinstance(event, Deal):
            if state.dealt:
                self._end_coup(state)
            self._deal(state)
        elif isinstance(event, Act):
            self._act(state, event)
        elif isinstance(event, Void):
            raise TapeteError("illegal-action", "Casino Monte's text has no void coup (only a face-up card in the "
                              "shoe is eliminated: act face-up-card)", source="003:6014-6017")
        elif isinstance(event, Close | Limits | Outcome):
            raise TapeteError("bad-document", f"{self.id} takes bets, deal and acts only")

    def _bet(self, state: CMState, bet: Bet) -> None:
        rules = self.rules[state.jurisdiction]
        if bet.id in bet_index(state, state.bets).ids:
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.kind not in ("main", "tie"):
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: casino-monte has main and tie", bet=bet.id)
        if bet.on:
            raise TapeteError("bad-document", f"bet {bet.id}: name the box with 'box', not 'on'", bet=bet.id)
        box = bet.extra.get("box")
        if not _is_int(box) or not 1 <= box <= rules.boxes:
            raise TapeteError("bad-target", f"bet {bet.id}: box 1-{rules.boxes}", source=rules.sources["boxes"], bet=bet.id)
        if state.last_coup or (state.cut is not None and state.pos > state.cut):
            raise TapeteError("shoe-exhausted", "the cut card has come out: that coup was the last of the shoe",
                              source="003:5912-5915")
        coup = [b for b in state.bets if b.coup == state.coup]
        if bet.amount < state.minimum:
            raise TapeteError("under-minimum", f"bet {bet.id} is under the minimum {state.minimum}", bet=bet.id,
                              source=rules.sources["maximum_multiple"])
        if bet.kind == "main":
            mains = [b for b in coup if b.kind == "main" and b.box == box]
            if len(mains) > rules.back_bettors:
                raise TapeteError("bad-target", f"box {box} takes its player and {rules.back_bettors} more",
                                  source=rules.sources["back_bettors"], bet=bet.id)
            if sum(b.amount for b in mains) + bet.amount > state.maximum:
                raise TapeteError("over-maximum", f"box {box}'s bets would exceed the table maximum {state.maximum} "
                                  "(the maximum is per box)", source="003:5997-6001", bet=bet.id)
        else:
            if not any(b.kind == "main" and b.box == box and b.player == bet.player for b in coup):
                raise TapeteError("bad-target", f"bet {bet.id}: a Tie bet needs the same player's main bet on box "
                                  f"{box}", source="003:5847-5852", bet=bet.id)
            if bet.amount > state.maximum:
                raise TapeteError("over-maximum", f"bet {bet.id} exceeds the table maximum {state.maximum}",
                                  source="R: docs/rulings.md#casino-monte-tie-limits", bet=bet.id)
        state.bets.append(CMBet(bet.id, bet.player, bet.kind, box, bet.amount, state.coup))

    def _draw(self, state: CMState) -> str:
        while True:
            if state.pos >= len(state.shoe):
                raise TapeteError("shoe-exhausted", f"the shoe ran out after {len(state.shoe)} cards")
            card = state.shoe[state.pos]
            state.pos += 1
            if state.cut is not None and state.pos > state.cut and not state.last_coup:
                state.last_coup = True      # 003:5912-5915: this coup is the last of the shoe
                state.log.append("the cut card: this is the last coup of the shoe")
            if card in state.face_up:       # R: docs/rulings.md#casino-monte-face-up-card
                state.face_up.remove(card)
                state.log.append(f"{card} found face up in the shoe: eliminated (003:6014-6017)")
                continue
            return card

    def _boxes(self, state: CMState, which: str = "main") -> list[int]:
        coup = [b for b in state.bets if b.coup == state.coup and b.kind == "main"]
        if which == "rematch":
            coup = [b for b in coup if b.rematch]
        return sorted({b.box for b in coup})

    def _deal(self, state: CMState) -> None:
        """003:5933-5938: a card face up to each box from the croupier's left, then the croupier's."""
        boxes = self._boxes(state)
        if not boxes:
            raise TapeteError("bad-document", "a deal needs at least one main bet")
        state.cards = {f"box {n}": self._draw(state) for n in boxes}
        state.cards["croupier"] = self._draw(state)
        state.dealt = True
        state.rounds += 1
        dealer = state.cards["croupier"]
        state.log.append(f"coup {state.coup}: " + ", ".join(f"{k} {v}" for k, v in state.cards.items()))
        for b in (b for b in state.bets if b.coup == state.coup):   # 003:5956-5959: non-ties first
            cmp = monte_rank(state.cards[f"box {b.box}"]) - monte_rank(dealer)
            if b.kind == "tie":
                b.returned = Fraction(b.amount * 11) if cmp == 0 else Fraction(0)
                b.state = "done"
            elif cmp > 0:
                b.returned, b.state = Fraction(2 * b.amount), "done"
            elif cmp < 0:
                b.returned, b.state = Fraction(0), "done"
            else:
                b.state = "tied"
        tied = [b for b in state.bets if b.coup == state.coup and b.state == "tied"]
        state.tie = bool(tied)
        if tied:
            state.log.append("tie on box " + ", ".join(sorted({str(b.box) for b in tied})) + ": rematch or surrender?")
        self._maybe_rematch(state)

    def _act(self, state: CMState, act: Act) -> None:
        if act.by is not None:
            card = act.fields.get("card")
            if act.by != "croupier" or act.do != "face-up-card" or set(act.fields) != {"card"}:
                raise TapeteError("bad-document", "the croupier's only act is face-up-card with the 'card' found face up")
            if state.dealt:
                self._end_coup(state)
            state.face_up.append(parse_card(card).text)
            return
        if act.fields:
            raise TapeteError("bad-document", f"unknown act keys {sorted(act.fields)}", bet=act.bet)
        bet = next((b for b in state.bets if b.id == act.bet), None)
        if bet is None:
            raise TapeteError("bad-document", f"act names no bet ({act.bet!r})")
        if act.do not in ("rematch", "surrender"):
            raise TapeteError("illegal-action", f"{act.do!r} is not a Casino Monte decision (rematch, surrender)",
                              bet=bet.id)
        if bet.state != "tied" or bet.coup != state.coup:
            raise TapeteError("illegal-action", f"bet {bet.id} has no tie to decide", source="003:5961-5970", bet=bet.id)
        if act.do == "rematch":
            bet.rematch, bet.state = True, "rematch"
            state.log.append(f"{bet.player} goes to the rematch (revancha) with {bet.amount}")
        else:
            bet.returned, bet.state = Fraction(bet.amount, 2), "done"
            state.log.append(f"{bet.player} surrenders half of {bet.amount}")
        self._maybe_rematch(state)

    def _maybe_rematch(self, state: CMState) -> None:
        """Once every tied box has decided: burn 1-3 cards (even if nobody went on, 003:5972-5977), then deal the
        rematch (003:5979-5995)."""
        coup = [b for b in state.bets if b.coup == state.coup]
        if not state.tie or state.rematch_done or any(b.state == "tied" for b in coup):
            return
        state.rematch_done = True
        burned = [self._draw(state) for _ in range(state.burn)]
        state.log.append(f"{len(burned)} card(s) burned before the rematch (003:5972-5977)")
        boxes = self._boxes(state, "rematch")
        if not boxes:
            return
        cards = {n: self._draw(state) for n in boxes}
        dealer = self._draw(state)
        state.rematch_cards = {**{f"box {n}": c for n, c in cards.items()}, "croupier": dealer}
        state.log.append("rematch: " + ", ".join(f"box {n} {c}" for n, c in cards.items()) + f", croupier {dealer}")
        for b in coup:
            if b.state != "rematch":
                continue
            cmp = monte_rank(cards[b.box]) - monte_rank(dealer)
            if cmp > 0:        # 003:5985-5989: the rematch paid 1 to 1, the main back
                b.returned = Fraction(3 * b.amount)
            elif cmp == 0:     # 003:5991-5995 (R-CM-2TIE): twice the main bet paid, both stakes back
                b.returned = Fraction(4 * b.amount)
            else:              # R-CM-LOSS
                b.returned = Fraction(0)
            b.state = "done"

    def _end_coup(self, state: CMState) -> None:
        """The coup's events ran out: undecided ties surrender (docs/vocabulary.md §9), then the rematch."""
        for b in state.bets:
            if b.coup == state.coup and b.state == "tied":
                b.returned, b.state = Fraction(b.amount, 2), "done"
                state.log.append(f"{b.player} surrenders by default")
        self._maybe_rematch(state)
        state.coup += 1
        state.dealt = state.tie = state.rematch_done = False
        state.cards = {}
        state.rematch_cards = {}

    def finish(self, state: CMState) -> CMState:
        pending = [b for b in state.bets if b.coup == state.coup]
        if pending and not state.dealt:
            self._deal(state)
        if state.dealt:
            self._end_coup(state)
        return state

    def settle(self, state: CMState) -> Settlement:
        results = {}
        for b in state.bets:
            staked = Fraction(b.amount * (2 if b.rematch else 1))
            if b.state == "done":
                results[b.id] = BetResult(staked, b.returned)
            else:
                results[b.id] = BetResult.pending(staked)
        return Settlement(self.id, state.jurisdiction, results, rounds=state.rounds, log=list(state.log))

    def legal_actions(self, state: CMState) -> list[Action]:
        tied = [b for b in state.bets if b.coup == state.coup and b.state == "tied"]
        state.tie = bool(tied)
        if tied:
            return [Action(v, bet=b.id) for b in tied for v in ("rematch", "surrender")]
        return [Action("bet", kind="main", minimum=state.minimum, maximum=state.maximum),
                Action("bet", kind="tie", minimum=state.minimum, maximum=state.maximum)]

    def chance(self, state: CMState) -> list[tuple[Event, Fraction]]:
        """The cards come from the shoe; the exact analysis enumerates rank classes itself (tapete.analysis.monte)."""
        return []

    # -- analysis (tapete.analysis.monte) ----------------------------------------------------------
    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        """What `tapete simulate` lays by default (`tapete edge` answers through tapete.analysis.monte): the main bet going
        to the rematch or surrendering half on a tie (003:5961-5989), and the Tie bet (003:5950-5954)."""
        self.rules_for(jurisdiction)
        box = {"box": 1}
        return [EdgeCase("main", option="rematch", extra=box), EdgeCase("main", option="surrender", extra=box),
                EdgeCase("tie", extra=box)]

# ================================================================================================ Monte o banca

SUITS = "oceb"   # 003:6095-6096: Oros -> Copas -> Espadas -> Bastos -> Oros
RELATION_KIND = {"next-suit": "next", "previous-suit": "previous", "opposite-suit": "opposite"}
SUIT_KINDS = tuple(RELATION_KIND)
MB_KINDS = ("first-card", *SUIT_KINDS, "any-suit", "versus")
FACING = {1: 2, 2: 1, 3: 4, 4: 3}
NEIGHBOURS = {(1, 2), (3, 4), (1, 3), (2, 4)}


def relation(layout_suit: str, card_suit: str) -> str:
    """How a matching card's suit stands to the layout card's: twin (same suit, the other deck), next (Camo),
    previous (Anti, R-MB-ANTI) or opposite (Viudo, R-MB-VIUDO)."""
    d = (SUITS.index(card_suit) - SUITS.index(layout_suit)) % 4
    return ("twin", "next", "opposite", "previous")[d]


def value(card: str) -> int:
    return int(card[:-1])


@dataclass(frozen=True)
class MonteBancaRules(Rules):
    decks: int
    suit_order: str
    payouts_primeras: str
    payouts_segundas: str
    first_card: str
    deduction: Fraction
    maxima: dict[str, int]
    maxima_segundas: dict[str, int]
    annulments: str
    loser: str
    segundas: str
    versus: str


MONTE_BANCA_RULES = {"ES-AN": MonteBancaRules(
    jurisdiction="ES-AN", decks=2, suit_order="oros, copas, espadas, bastos (circular)",
    payouts_primeras="Camo/Anti/Viudo 11 - d to 1; Salto 3 to 1; Cartas 1 to 1",
    payouts_segundas="Camo/Anti/Viudo 5 to 1; Salto not accepted; Cartas 1 to 1",
    first_card="Vista Hermosa: 32 - d - b to 1 on the first card revealed, next suit, in either phase",
    deduction=Fraction(1, 10),
    maxima={"versus": 300, "first-card": 10, "next-suit": 30, "previous-suit": 30, "opposite-suit": 30, "any-suit": 100},
    maxima_segundas={"versus": 300, "first-card": 10, "next-suit": 60, "previous-suit": 60, "opposite-suit": 60},
    annulments="003:6191-6225 (a)-(f) as bad-target; Salto restricted on the cards concerned",
    loser="the card horizontally facing the matched one", segundas="the other row",
    versus="decided by the first card revealed of a value on either side; undecided at the coup's end: returned",
    sources={
        "decks": "003:6034-6040", "suit_order": "003:6095-6096",
        "payouts_primeras": "003:6102-6143; R: docs/rulings.md#monte-banca-suits",
        "payouts_segundas": "003:6102-6143; 003:6134-6136",
        "first_card": "003:6092-6100; 003:6188-6189; 003:6232-6233; R: docs/rulings.md#monte-banca-first-card",
        "deduction": "003:6082-6087; R: docs/rulings.md#monte-banca-ten-percent",
        "maxima": "003:6145-6151; 003:6235-6249", "maxima_segundas": "003:6235-6249",
        "annulments": "003:6191-6225; R: docs/rulings.md#monte-banca-annulments",
        "loser": "003:6160-6163; R: docs/rulings.md#monte-banca-phases",
        "segundas": "003:6165-6170; R: docs/rulings.md#monte-banca-phases",
        "versus": "003:6138-6143; R: docs/rulings.md#monte-banca-versus",
    },
)}


@dataclass
class MBBet:
    id: str
    player: str
    kind: str
    on: list[Any]
    amount: int
    coup: int
    phase: str                 # primeras | segundas
    state: str = "open"        # open | done | void
    returned: Fraction = Fraction(0)
    deducted: Fraction = Fraction(0)


@dataclass
class Layout:
    cards: list[str]                       # P1..P4, the cards placed first
    stacks: list[list[str]]                # doubling cards on each position
    burned: list[str]

    @property
    def d(self) -> int:
        return sum(len(s) for s in self.stacks)

    @property
    def b(self) -> int:
        return len(self.burned)


@dataclass
class MBState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    minimum: int
    shoe: list[str] = field(default_factory=list)
    pos: int = 0
    pack: dict[str, int] = field(default_factory=dict)      # cards of the current pack already out
    coup: int = 1
    layout: Layout | None = None
    phase: str = "primeras"                                  # primeras | segundas
    in_play: list[int] = field(default_factory=lambda: [1, 2, 3, 4])
    revealed: list[str] = field(default_factory=list)
    bets: list[MBBet] = field(default_factory=list)
    commission: Fraction = Fraction(0)
    rounds: int = 0
    log: list[str] = field(default_factory=list)


def annulled(c1: int, c2: int) -> dict[int, set[str]]:
    """003:6191-6225: the suit bets a doubled (1) or tripled (2) P1/P2 annuls on the other cards (R-MB-ANULA,
    R-MB-MIRROR for P2 tripled with P1 doubled)."""
    camo, viudo = "next-suit", "opposite-suit"
    out: dict[int, set[str]] = {1: set(), 2: set(), 3: set(), 4: set()}
    if (c1, c2) in ((1, 0), (0, 1)):          # (a) 003:6192-6196
        p = 1 if c1 else 2
        out[FACING[p]].add(camo)
        out[p + 2].add(camo)
    elif (c1, c2) == (1, 1):                  # (b) 003:6198-6201
        out[3].add(camo)
        out[4].add(camo)
    elif (c1, c2) in ((2, 0), (0, 2)):        # (c) 003:6203-6208
        p = 1 if c1 else 2
        out[FACING[p]] |= {camo, viudo}
        out[3].add(camo)
        out[4].add(camo)
    elif (c1, c2) == (2, 1):                  # (d) 003:6210-6215
        out[2] |= {camo, viudo}
        out[3] |= {camo, viudo}
        out[4].add(camo)
    elif (c1, c2) == (1, 2):                  # R-MB-MIRROR
        out[1] |= {camo, viudo}
        out[4] |= {camo, viudo}
        out[3].add(camo)
    elif (c1, c2) == (2, 2):                  # (e) 003:6217-6219
        out[3] |= {camo, viudo}
        out[4] |= {camo, viudo}
    return out


class MonteBanca(Game):
    id = "monte-banca"
    name_es = "Monte o banca"
    name_en = "Spanish monte, banked by the house"
    uses_shoe = True
    live_deck = "spanish"                         # two Spanish 40-card decks (rules.decks)

    @property
    def rules(self) -> dict[str, MonteBancaRules]:  # type: ignore[override]
        return MONTE_BANCA_RULES

    def state_type(self) -> type:
        return MBState

    def kinds(self) -> list[KindInfo]:
        return [
            KindInfo("first-card", "32-d-b:1", "Vista Hermosa [p]: the first card revealed has p's value and the next suit"),
            KindInfo("next-suit", "11-d:1", "Camo [p]: p is matched first by the next suit (Segundas 5:1)"),
            KindInfo("previous-suit", "11-d:1", "Anti [p]: p is matched first by the previous suit (Segundas 5:1)"),
            KindInfo("opposite-suit", "11-d:1", "Viudo [p]: p is matched first by the opposite suit (Segundas 5:1)"),
            KindInfo("any-suit", "3:1", "Salto [p]: p is matched first, any suit (Primeras only)"),
            KindInfo("versus", "1:1", "Cartas [[p],[q]] or [[p,s],[q,t]]: a card of your side's value comes first"),
        ]

    def table_keys(self) -> list[TableKey]:
        return [TableKey("minimum", required=True, description="L: the minimum bet, cents"),
                TableKey("rounding", default="player", description="docs/format.md rounding policy")]

    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> MBState:
        self.rules_for(jurisdiction)
        _known_keys(table, self.table_keys(), self.id)
        m = table.get("minimum")
        if not _is_int(m) or m <= 0:
            raise TapeteError("bad-document", "table.minimum (L, cents) is required: a positive integer")
        cards = [parse_card(c, deck="spanish").text for c in (shoe or [])]
        return MBState(self.id, jurisdiction, dict(table), m, cards)

    # -- cards and the layout ----------------------------------------------------------------------
    def _draw(self, state: MBState) -> str:
        if state.pos >= len(state.shoe):
            raise TapeteError("shoe-exhausted", f"the shoe ran out after {len(state.shoe)} cards")
        card = state.shoe[state.pos]
        state.pos += 1
        state.pack[card] = state.pack.get(card, 0) + 1
        if state.pack[card] > 2:
            raise TapeteError("bad-card", f"{card} appears a third time: the pack is two 40-card decks",
                              source="003:6034-6040")
        return card

    def _layout(self, state: MBState) -> Layout:
        """003:6174-6186, 6227-6233, 6260-6269: P1, P2 from below (equal values burned, R-MB-REDRAW); P3, P4 from the
        top, a card of P1's or P2's value doubling it (R-MB-34 for P4 on P3); four of a value before the layout
        is complete voids the coup and the pack is reshuffled (R-MB-VOID; R: docs/rulings.md#monte-banca-layout)."""
        while True:
            seen: Counter[int] = Counter()
            burned: list[str] = []
            void = False

            def take(seen: Counter[int] = seen) -> str:
                nonlocal void
                card = self._draw(state)
                seen[value(card)] += 1
                if seen[value(card)] >= 4:
                    void = True
                return card

            while True:
                p1, p2 = take(), take()
                if void or value(p1) != value(p2):
                    break
                burned += [p1, p2]
                state.log.append(f"{p1} and {p2} have the same value: burned (003:6174-6176)")
            cards = [p1, p2]
            stacks: list[list[str]] = [[], [], [], []]
            while not void and len(cards) < 4:
                card = take()
                if void:
                    break
                target = next((k for k, c in enumerate(cards) if value(c) == value(card)), None)
                if target is None:
                    cards.append(card)
                else:
                    stacks[target].append(card)
                    state.log.append(f"{card} doubles position {target + 1}")
            if void:
                state.log.append("four cards of one value before the layout is complete: the coup is void; "
                                 "the pack is reshuffled (003:6184-6186)")
                state.pack = {}
                continue
            layout = Layout(cards, stacks, burned)
            state.log.append(f"coup {state.coup} layout: " + ", ".join(
                f"P{k + 1} {c}" + (f" (+{' '.join(s)})" if s else "") for k, (c, s) in enumerate(zip(cards, stacks, strict=True))))
            return layout

    def layout(self, state: MBState) -> Layout:
        """The coup's layout, formed from the shoe if bets have not formed it yet (what players see first)."""
        return self._ensure_layout(state)

    def annulled(self, state: MBState) -> dict[int, set[str]]:
        """The suit bets the layout's doubled or tripled cards annul, per position (003:6191-6225)."""
        layout = self._ensure_layout(state)
        return annulled(len(layout.stacks[0]), len(layout.stacks[1]))

    def _ensure_layout(self, state: MBState) -> Layout:
        if state.layout is None:
            state.layout = self._layout(state)
            state.phase, state.in_play, state.revealed = "primeras", [1, 2, 3, 4], []
        return state.layout

    # -- bets --------------------------------------------------------------------------------------
    def apply(self, state: MBState, event: Event) -> None:
        if isinstance(event, Bet):
            self._bet(state, event)
        elif isinstance(event, Deal):
            self._reveal(state)
        elif isinstance(event, Act):
            raise TapeteError("illegal-action", "Monte o banca has no decisions: bets, then deals")
        elif isinstance(event, Void):
            raise TapeteError("illegal-action", "a coup is void only when four cards of one value come before the "
                              "layout is complete; the shoe shows it", source="003:6184-6186")
        else:
            raise TapeteError("bad-document", f"{self.id} takes bets and deals only")

    def _positions(self, on: object, bet_id: str) -> list[int]:
        if not isinstance(on, list | tuple) or not on or not all(_is_int(p) and 1 <= p <= 4 for p in on):
            raise TapeteError("bad-target", f"bet {bet_id}: 'on' names layout positions 1-4", bet=bet_id)
        return list(on)

    def _bet(self, state: MBState, bet: Bet) -> None:
        rules = self.rules[state.jurisdiction]
        if bet.id in bet_index(state, state.bets).ids:
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.extra:
            raise TapeteError("bad-document", f"unknown bet keys {sorted(bet.extra)}", bet=bet.id)
        if bet.kind not in MB_KINDS:
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: monte-banca has {', '.join(MB_KINDS)}", bet=bet.id)
        layout = self._ensure_layout(state)
        phase = state.phase
        on: list[Any]
        if bet.kind == "versus":
            on = self._versus(state, bet)
        else:
            on = self._positions(list(bet.on or ()), bet.id)
            if len(on) != 1:
                raise TapeteError("bad-target", f"bet {bet.id}: {bet.kind} is on one layout card [p]", bet=bet.id)
            p = on[0]
            if phase == "segundas" and p not in state.in_play:
                raise TapeteError("bad-target", f"bet {bet.id}: Segundas is played on positions {state.in_play}",
                                  source=rules.sources["segundas"], bet=bet.id)
            if bet.kind == "any-suit" and phase == "segundas":
                raise TapeteError("bad-target", f"bet {bet.id}: Salto is only accepted in Primeras",
                                  source="003:6134-6136", bet=bet.id)
            if bet.kind in annulled(len(layout.stacks[0]), len(layout.stacks[1]))[p]:
                raise TapeteError("bad-target", f"bet {bet.id}: the doubled or tripled card annuls {bet.kind} on "
                                  f"position {p}", source=rules.sources["annulments"], bet=bet.id)
        maxima = rules.maxima if phase == "primeras" else rules.maxima_segundas
        if bet.amount < state.minimum:
            raise TapeteError("under-minimum", f"bet {bet.id} is under the minimum {state.minimum}",
                              source="003:6146-6150", bet=bet.id)
        if bet.amount > maxima[bet.kind] * state.minimum:
            raise TapeteError("over-maximum", f"bet {bet.id} ({bet.kind}) exceeds {maxima[bet.kind]} x minimum in "
                              f"{phase}", source=rules.sources["maxima"], bet=bet.id)
        state.bets.append(MBBet(bet.id, bet.player, bet.kind, on, bet.amount, state.coup, phase))

    def _versus(self, state: MBState, bet: Bet) -> list[Any]:
        on = list(bet.on or ())
        if len(on) != 2 or not all(isinstance(side, list) for side in on):
            raise TapeteError("bad-target", f"bet {bet.id}: versus is [[p], [q]] or [[p, s], [q, t]]", bet=bet.id)
        mine, theirs = (self._positions(side, bet.id) for side in on)
        if len(mine) != len(theirs) or len(mine) not in (1, 2) or set(mine) & set(theirs) or len(set(mine + theirs)) != 2 * len(mine):
            raise TapeteError("bad-target", f"bet {bet.id}: one card against one, or two against two", bet=bet.id)
        if len(mine) == 1 and tuple(sorted(mine + theirs)) not in NEIGHBOURS:
            raise TapeteError("bad-target", f"bet {bet.id}: a card plays against its horizontal or vertical neighbour",
                              source="003:6138-6143", bet=bet.id)
        if state.phase == "segundas" and not set(mine + theirs) <= set(state.in_play):
            raise TapeteError("bad-target", f"bet {bet.id}: Segundas is played on positions {state.in_play}",
                              source="003:6165-6170", bet=bet.id)
        return [mine, theirs]

    # -- revealing ---------------------------------------------------------------------------------
    def _reveal(self, state: MBState) -> None:
        """Reveal cards until one has the value of a layout card in play (003:6160-6163, R-MB-REVEAL)."""
        layout = self._ensure_layout(state)
        values = {p: value(layout.cards[p - 1]) for p in state.in_play}
        cards: list[str] = []
        while True:
            card = self._draw(state)
            cards.append(card)
            won = next((p for p, v in values.items() if v == value(card)), None)
            if won is not None:
                break
        first_matched = len(cards) == 1
        state.revealed = cards
        lost = FACING[won]
        state.log.append(f"{state.phase}: revealed {' '.join(cards)}: position {won} wins, position {lost} loses"
                         + (" (the first card: 10 % of the winnings to the house)" if first_matched else ""))
        for bet in state.bets:
            if bet.state != "open" or bet.coup != state.coup:
                continue
            if bet.kind == "versus" or bet.phase == state.phase:
                self._settle_bet(state, layout, bet, cards, won, first_matched)
        state.rounds += 1 if state.phase == "primeras" else 0
        if state.phase == "primeras":
            state.phase = "segundas"
            state.in_play = [p for p in (1, 2, 3, 4) if p not in (won, lost)]
            return
        for bet in state.bets:     # the coup is over: an undecided versus bet is returned
            if bet.coup == state.coup and bet.state == "open" and bet.kind == "versus":
                bet.state, bet.returned = "void", Fraction(bet.amount)
        state.coup += 1
        state.layout = None
        state.phase = "primeras"

    def _settle_bet(self, state: MBState, layout: Layout, bet: MBBet, cards: list[str], won: int,
                    first_matched: bool) -> None:
        if bet.kind == "versus":
            mine = {value(layout.cards[p - 1]) for p in bet.on[0]}
            theirs = {value(layout.cards[p - 1]) for p in bet.on[1]}
            deciding = next((value(c) for c in cards if value(c) in mine | theirs), None)
            if deciding is None:
                return      # rides into Segundas (R-MB-CARTAS)
            self._pay(state, bet, Fraction(1) if deciding in mine else None, first_matched)
            return
        p = bet.on[0]
        base = layout.cards[p - 1]
        if bet.kind == "first-card":   # 003:6092-6100: the first card revealed, same value, next suit
            first = cards[0]
            hit = value(first) == value(base) and relation(base[-1], first[-1]) == "next"
            self._pay(state, bet, Fraction(32 - layout.d - layout.b) if hit else None, False)
            return
        rel = relation(base[-1], cards[-1][-1]) if won == p else None
        if bet.kind in RELATION_KIND:
            odds = Fraction(11 - layout.d) if bet.phase == "primeras" else Fraction(5)
            self._pay(state, bet, odds if rel == RELATION_KIND[bet.kind] else None, first_matched)
            return
        # any-suit (Salto): R-MB-SALTO — on a card whose Camo (and Viudo) is annulled only the allowed suits win
        cut = annulled(len(layout.stacks[0]), len(layout.stacks[1]))[p]
        allowed = {"twin", "next", "previous", "opposite"} if not cut else {
            RELATION_KIND[k] for k in SUIT_KINDS if k not in cut}
        self._pay(state, bet, Fraction(3) if rel in allowed else None, first_matched)

    def _pay(self, state: MBState, bet: MBBet, odds: Fraction | None, deduct: bool) -> None:
        bet.state = "done"
        if odds is None:
            bet.returned = Fraction(0)
            return
        winnings = bet.amount * odds
        cut = winnings * self.rules[state.jurisdiction].deduction if deduct and bet.kind != "first-card" else Fraction(0)
        bet.returned = bet.amount + winnings - cut
        bet.deducted = cut
        state.commission += cut

    def finish(self, state: MBState) -> MBState:
        return state

    def settle(self, state: MBState) -> Settlement:
        results = {}
        for b in state.bets:
            staked = Fraction(b.amount)
            if b.state == "done":
                results[b.id] = BetResult(staked, b.returned)
            elif b.state == "void":
                results[b.id] = BetResult.voided(staked)
            else:
                results[b.id] = BetResult.pending(staked)
        return Settlement(self.id, state.jurisdiction, results, commission=state.commission, rounds=state.rounds,
                          log=list(state.log))

    def legal_actions(self, state: MBState) -> list[Action]:
        rules = self.rules[state.jurisdiction]
        maxima = rules.maxima if state.phase == "primeras" else rules.maxima_segundas
        return [Action("bet", kind=k, minimum=state.minimum, maximum=maxima[k] * state.minimum) for k in maxima]

    def chance(self, state: MBState) -> list[tuple[Event, Fraction]]:
        return []

    # -- analysis (tapete.analysis.monte) ----------------------------------------------------------
    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        """What `tapete simulate` lays by default (`tapete edge` answers through tapete.analysis.monte): each bet in
        Primeras and in Segundas (003:6102-6143; Salto only in Primeras, 003:6134-6136), on the clean layout."""
        self.rules_for(jurisdiction)
        return ([EdgeCase(k, option="primeras") for k in ("first-card", *SUIT_KINDS, "any-suit", "versus")]
                + [EdgeCase(k, option="segundas") for k in ("first-card", *SUIT_KINDS, "versus")])

CASINO_MONTE = register(CasinoMonte())
MONTE_BANCA = register(MonteBanca())
