"""The Black Jack reducer: boxes, the European no-hole-card deal, the decision window, play, the dealer.

Spec part A (docs/games/blackjack.md); docs/format.md fixes the kinds (`main` with `box`,
`bolsa`), verbs (hit stand double split insure even-money surrender) and table keys (`maximum`, `cut-card`).
One round, or several in a row from one `shoe`; every decision is an act, in turn order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import own_citations
from tapete.core.money import euros, format_ratio
from tapete.core.rng import TableRng
from tapete.engine.bet_index import bet_index
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, EdgeCase, Game, KindInfo, TableKey
from tapete.engine.limits import minimum_moves_maximum
from tapete.engine.settlement import BetResult, Settlement
from tapete.engine.shoe import Shoe, check_cut_card
from tapete.games.blackjack.hand import (
    dealer_must_draw,
    dealer_total,
    is_natural,
    player_total,
    valuations,
    value,
)
from tapete.games.blackjack.rules import BLACKJACK_RULES, BOLSA_JACKPOT_MINIMUM, BlackjackRules

PLAY_VERBS = ("hit", "stand", "double", "split")
WINDOW_VERBS = ("insure", "even-money", "surrender")
VERBS = PLAY_VERBS + WINDOW_VERBS
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
DONE = ("stood", "bust", "blackjack", "surrendered", "even-money")


def pretty(card: str) -> str:
    """'TS' -> '10♠' as the croupier says it."""
    return ("10" if card[0] == "T" else card[0]) + SUITS.get(card[1], card[1])


@dataclass
class BJTable:
    """The table in force: limits and the readings the casino may choose (docs/rulings.md)."""

    minimum: int
    maximum: int
    boxes: int = 7
    resplit_aces: bool = True
    double_hard_only: bool = False
    split_21_vs_blackjack: str = "loses"
    bolsa_stake: int | None = None
    bolsa_jackpot: int | None = None


@dataclass
class BJBet:
    id: str
    player: str
    kind: str                     # main | bolsa
    box: int
    amount: int
    vacant: bool = False
    insurance: int = 0
    status: str = "waiting"       # waiting (for the deal) | playing | done | void
    returned: Fraction = Fraction(0)
    staked: Fraction = Fraction(0)


@dataclass
class Hand:
    box: int
    cards: list[str]
    units: int = 1                # 2 once doubled
    split: bool = False           # comes from a split: a two-card 21 is not a Black-Jack (000:374)
    split_aces: bool = False      # one card only (000:372)
    status: str = "live"          # live | waiting (split hand before its 2nd card) | stood | bust | blackjack | ...

    @property
    def values(self) -> list[int]:
        return [value(c) for c in self.cards]

    @property
    def total(self) -> int:
        return player_total(self.values)


@dataclass
class BJState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    limits: BJTable
    shoe: Shoe | None = None
    phase: str = "betting"        # betting | window (insurance, even money, surrender still open) | play
    played: bool = False          # a box has played this round: when the last one has, the dealer draws (000:346)
    closed: bool = False
    bets: list[BJBet] = field(default_factory=list)
    hands: list[Hand] = field(default_factory=list)
    dealer: list[str] = field(default_factory=list)
    turn: int | None = None       # index in hands of the hand due
    third_card: list[int] = field(default_factory=list)   # boxes whose player asked for a third card (003:771-772)
    box_cards: dict[int, list[str]] = field(default_factory=dict)   # cards to each box in dealing order
    rounds: int = 0
    last_of_shoe: bool = False    # the cut card came out: this round is the last of the shoe (000:408)
    next_table: dict[str, Any] | None = None
    rounds_to_change: int = 0
    log: list[str] = field(default_factory=list)


class BlackjackGame(Game):
    id = "blackjack"
    name_es = "Black Jack o veintiuno"
    name_en = "Blackjack"
    uses_shoe = True
    outcome_names = ()
    extra_bet_fields = frozenset({"box", "vacant"})
    extra_act_fields = frozenset({"amount"})

    @property
    def rules(self) -> dict[str, BlackjackRules]:  # type: ignore[override]
        return BLACKJACK_RULES

    def state_type(self) -> type:
        return BJState

    # -- description -------------------------------------------------------------------------------
    def kinds(self) -> list[KindInfo]:
        return [
            KindInfo("main", "1:1", "Apuesta on a box (`box` 1 = the box at the dealer's left); Black-Jack pays 3:2"),
            KindInfo("bolsa", None, "Bolsa / Veintiuno Progresivo (ES-AN): 7s among the first cards, 2:1 to the jackpot"),
        ]

    def verbs(self) -> list[str]:
        return list(VERBS)

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="authorised minimum bet, cents"),
            TableKey("maximum", default=None, description="maximum per hand, one of the multiples the jurisdiction allows; default the largest"),
            TableKey("cut-card", default=None, description="index in shoe of the first card behind the cut card: that round is the last of the shoe"),
            TableKey("face-up", default=[], description="indices in shoe of cards found face up in the shoe: eliminated (000:408)"),
            TableKey("boxes", default=7, description="boxes on the cloth (ES-IB: 9 for a table 'a nueve')"),
            TableKey("resplit-aces", default=True, description="split aces that receive an ace may split again (docs/rulings.md#blackjack-resplit-aces)"),
            TableKey("double-hard-only", default=False, description="ES/ES-GA: double only on a hard 9-11 (docs/rulings.md#blackjack-double-soft)"),
            TableKey("split-21-vs-blackjack", default="loses", description="a two-card 21 after a split against a dealer Black-Jack: 'loses' or 'push'"),
            TableKey("bolsa-stake", default=None, description="ES-AN: the single fixed Bolsa stake, cents (default: any)"),
            TableKey("bolsa-jackpot", default=None, description="ES-AN: the Bolsa jackpot, cents (at least 3000 x stake; default that)"),
            TableKey("rounding", default="player", description="fractions of a cent: 'player' (docs/format.md) or 'house'"),
        ]

    # -- table ---------------------------------------------------------------------------------------
    def _limits(self, rules: BlackjackRules, table: dict[str, Any]) -> BJTable:
        known = {t.key for t in self.table_keys()}
        for key in table:
            if key not in known:
                raise TapeteError("bad-document", f"unknown table key {key!r} for blackjack (known: {', '.join(sorted(known))})")
        m = table.get("minimum")
        if not _is_int(m) or m <= 0:
            raise TapeteError("bad-document", "table.minimum (the authorised minimum, in cents) is required and must be a positive integer")
        allowed = rules.maximum_multiples
        maximum = table.get("maximum", m * max(allowed))
        src = rules.sources["maximum_multiples"]
        if not _is_int(maximum):
            raise TapeteError("bad-table", "table.maximum is an amount in cents", source=src)
        if rules.maximum_is_range:
            if not allowed[0] * m <= maximum <= allowed[-1] * m:
                raise TapeteError("bad-table", f"the maximum {maximum} must lie between {allowed[0]} and {allowed[-1]} x the minimum "
                                  f"in {rules.jurisdiction}", source=src)
        elif maximum % m or maximum // m not in allowed:
            raise TapeteError("bad-table", f"the maximum {maximum} is not one of {', '.join(map(str, allowed))} x the minimum "
                              f"allowed in {rules.jurisdiction}", source=src)
        boxes = table.get("boxes", 7)
        if boxes not in rules.boxes:
            raise TapeteError("bad-table", f"a table of {rules.jurisdiction} has {' or '.join(map(str, rules.boxes))} boxes",
                              source=rules.sources["boxes"])
        flags = {}
        for key in ("resplit-aces", "double-hard-only"):
            flags[key] = table.get(key, key == "resplit-aces")
            if not isinstance(flags[key], bool):
                raise TapeteError("bad-document", f"table.{key} is true or false")
        vs = table.get("split-21-vs-blackjack", "loses")
        if vs not in ("loses", "push"):
            raise TapeteError("bad-document", "table.split-21-vs-blackjack is 'loses' or 'push'")
        stake, jackpot = table.get("bolsa-stake"), table.get("bolsa-jackpot")
        if (stake is not None or jackpot is not None) and not rules.bolsa:
            raise TapeteError("bad-table", f"there is no Bolsa in {rules.jurisdiction}", source=rules.sources["bolsa"])
        if stake is not None and (not _is_int(stake) or stake <= 0):
            raise TapeteError("bad-document", "table.bolsa-stake is a positive amount in cents")
        if jackpot is not None and (not _is_int(jackpot) or (stake and jackpot < BOLSA_JACKPOT_MINIMUM * stake)):
            raise TapeteError("bad-table", "the Bolsa jackpot is never less than 3000 x the Bolsa stake", source="003:838-840")
        if table.get("rounding", "player") not in ("player", "house"):
            raise TapeteError("bad-document", "rounding must be 'player' or 'house'")
        return BJTable(m, maximum, boxes, flags["resplit-aces"], flags["double-hard-only"], vs, stake, jackpot)

    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> BJState:
        rules = self.rules_for(jurisdiction)
        state = BJState(self.id, jurisdiction, dict(table), self._limits(rules, table))
        if shoe is not None:
            state.shoe = Shoe.from_document(shoe, decks=rules.decks, cut_index=table.get("cut-card"))
            check_cut_card(state.shoe, full=52 * rules.decks, behind=rules.cut_reserve, exact=False,   # 001:326
                           what="cut card", source=rules.sources["cut_reserve"], burned=rules.burn)
            face_up = table.get("face-up", [])
            if not isinstance(face_up, list) or not all(_is_int(i) and 0 <= i < len(shoe) for i in face_up):
                raise TapeteError("bad-document", "table.face-up lists 0-based indices into shoe")
            state.shoe.face_up = sorted(face_up)
        elif table.get("cut-card") is not None or table.get("face-up"):
            raise TapeteError("bad-document", "cut-card and face-up index the document's shoe")
        return state

    def live_shoe(self, state: BJState, rng: TableRng) -> None:
        """A new shoe for live play: shuffled, cut by a player, the cut card at least a deck from the end,
        five cards burned (000:404-406)."""
        rules = self._rules(state)
        state.shoe = Shoe.prepared(rng, decks=rules.decks, reserve=(rules.cut_reserve, rules.cut_reserve + 26),
                                   burn=rules.burn)
        state.last_of_shoe = False
        state.log.append(f"new shoe: shuffled and cut, cut card placed, {rules.burn} cards burned")

    def _rules(self, state: BJState) -> BlackjackRules:
        return BLACKJACK_RULES[state.jurisdiction]

    # -- the reducer -------------------------------------------------------------------------------
    def apply(self, state: BJState, event: Event) -> None:
        rules = self._rules(state)
        if isinstance(event, Bet):
            self._end_round(state)
            self._bet(state, rules, event)
        elif isinstance(event, Deal):
            self._end_round(state)
            self._deal(state, rules)
        elif isinstance(event, Act):
            self._act(state, rules, event)
        elif isinstance(event, Close):
            self._end_round(state)
            state.closed = True
            state.log.append("no more bets")
        elif isinstance(event, Limits):
            self._end_round(state)
            self._change_limits(state, rules, event)
        elif isinstance(event, Void):
            self._void(state, rules, event)
        elif isinstance(event, Outcome):
            raise TapeteError("bad-document", "blackjack deals from shoe: it takes no outcome events")
        else:  # pragma: no cover - the parser only makes the events above
            raise TapeteError("bad-document", f"unexpected event {event!r}")

    def _bet(self, state: BJState, rules: BlackjackRules, bet: Bet) -> None:
        if state.closed:
            raise TapeteError("bet-closed", f"bet {bet.id}: bets are closed until the deal", bet=bet.id)
        if bet.id in bet_index(state, state.bets).ids:
            raise TapeteError("bad-document", f"bet id {bet.id!r} used twice", bet=bet.id)
        if bet.kind not in ("main", "bolsa") or (bet.kind == "bolsa" and not rules.bolsa):
            known = "main, bolsa" if rules.bolsa else "main"
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: {bet.kind!r} is not a bet of blackjack in {rules.jurisdiction} "
                              f"({known})", bet=bet.id, source=rules.sources["bolsa"] if bet.kind == "bolsa" else None)
        if bet.on:
            raise TapeteError("bad-target", f"bet {bet.id}: blackjack bets name a 'box', not 'on'", bet=bet.id)
        box = bet.extra.get("box")
        if not _is_int(box) or not 1 <= box <= state.limits.boxes:
            raise TapeteError("bad-target", f"bet {bet.id}: 'box' is a box number 1-{state.limits.boxes} (1 = the dealer's left)",
                              bet=bet.id, source=rules.sources["boxes"])
        vacant = bet.extra.get("vacant", False)
        if not isinstance(vacant, bool):
            raise TapeteError("bad-document", f"bet {bet.id}: 'vacant' is true or false", bet=bet.id)
        waiting = [b for b in state.bets if b.status == "waiting" and b.box == box and b.kind == bet.kind]
        lim = state.limits
        if bet.kind == "main":
            if bet.amount < lim.minimum:
                raise TapeteError("under-minimum", f"bet {bet.id} ({bet.amount}) is under the table minimum of {lim.minimum}",
                                  bet=bet.id, source=own_citations("001:312-314; 000:390-392; 002:314-316; 003:850-858",
                                                                    state.jurisdiction))
            on_box = sum(b.amount for b in waiting)
            if on_box + bet.amount > lim.maximum:   # the maximum is per hand (box), backers included (000:394-396; 000:332)
                already = f" with {on_box} already on box {box}" if on_box else ""
                raise TapeteError("over-maximum", f"bet {bet.id} ({bet.amount}){already} exceeds the maximum per hand of {lim.maximum}",
                                  bet=bet.id, source=rules.sources["maximum_multiples"])
            if rules.max_bettors_per_box is not None and len(waiting) >= rules.max_bettors_per_box:
                raise TapeteError("box-full", f"bet {bet.id}: box {box} already has {len(waiting)} bettors, the most allowed",
                                  bet=bet.id, source=rules.sources["max_bettors_per_box"])
        else:
            if lim.bolsa_stake is not None and bet.amount != lim.bolsa_stake:
                raise TapeteError("bad-amount", f"bet {bet.id}: the Bolsa is played with its single fixed stake of {lim.bolsa_stake}",
                                  bet=bet.id, source="003:814-815")
        state.bets.append(BJBet(bet.id, bet.player, bet.kind, box, bet.amount, vacant))

    # -- dealing -----------------------------------------------------------------------------------
    def _draw(self, state: BJState) -> str:
        shoe = state.shoe
        assert shoe is not None
        if shoe.at_cut and not state.last_of_shoe:
            state.last_of_shoe = True
            state.log.append("the cut card: this round is the last of the shoe")
        if state.last_of_shoe is False and shoe.cut_reached:
            state.last_of_shoe = True
        seen = len(shoe.eliminated)
        card = shoe.draw().text
        for c in shoe.eliminated[seen:]:
            state.log.append(f"{pretty(c)} found face up in the shoe: eliminated")
        return card

    def _deal(self, state: BJState, rules: BlackjackRules) -> None:
        bets = [b for b in state.bets if b.status == "waiting"]
        if not bets:
            raise TapeteError("bad-document", "deal: there are no bets to deal to")
        if state.shoe is None:
            raise TapeteError("bad-document", "blackjack deals from a shoe: the document needs 'shoe'")
        if state.last_of_shoe:
            raise TapeteError("shoe-exhausted", "the cut card came out in the previous round, the last of the shoe",
                              source=_last_round_source(rules))
        boxes = sorted({b.box for b in bets if b.kind == "main"})
        for b in bets:
            if b.kind == "bolsa" and b.box not in boxes:
                raise TapeteError("bad-target", f"bet {b.id}: the Bolsa rides a box with a main bet", bet=b.id, source="003:813-816")
        state.closed = False
        if len(boxes) < rules.min_hands:
            for b in bets:
                b.status, b.returned, b.staked = "void", Fraction(b.amount), Fraction(b.amount)
            state.log.append(f"fewer than {rules.min_hands} hands bet: the round is not dealt")
            return
        for b in bets:
            b.status = "playing"
        state.hands = [Hand(box, []) for box in boxes]
        state.dealer = []
        state.played = False
        state.third_card = []
        state.box_cards = {box: [] for box in boxes}
        for hand in state.hands:
            self._give(state, hand)
        state.dealer.append(self._draw(state))
        for hand in state.hands:
            self._give(state, hand)
        up = state.dealer[0]
        state.log.append("deal: " + ", ".join(f"box {h.box} {' '.join(map(pretty, h.cards))} ({h.total})" for h in state.hands)
                         + f"; dealer {pretty(up)}")
        for hand in state.hands:
            if is_natural(hand.values):
                hand.status = "blackjack"
                state.log.append(f"box {hand.box}: Black-Jack")
        ace = value(up) == 1
        state.phase = "window" if ace or rules.surrender else "play"
        if ace:
            state.log.append("insurance?" + (" even money for a Black-Jack?" if rules.even_money else ""))
        state.turn = 0
        self._advance(state, rules)

    def _give(self, state: BJState, hand: Hand) -> str:
        card = self._draw(state)
        hand.cards.append(card)
        state.box_cards[hand.box].append(card)
        return card

    def _advance(self, state: BJState, rules: BlackjackRules) -> None:
        """Move the turn to the next hand that has a decision; when none is left, the dealer plays."""
        i = state.turn if state.turn is not None else len(state.hands)
        while i < len(state.hands):
            hand = state.hands[i]
            if hand.status == "waiting":        # a split hand gets its second card when its turn comes (A5 7d)
                card = self._give(state, hand)
                hand.status = "live"
                state.log.append(f"box {hand.box}, split hand: {pretty(card)} ({hand.total})")
                if hand.split_aces and not (value(card) == 1 and state.limits.resplit_aces and rules.resplit):
                    hand.status = "stood"        # one card on a split ace (000:372)
                elif hand.total == 21:
                    hand.status = "stood"
            if hand.status == "live":
                state.turn = i
                return
            i += 1
        state.turn = None
        if state.phase == "play" or state.played:   # the players have played: the dealer draws (000:346)
            self._dealer(state, rules)

    def _end_round(self, state: BJState) -> None:
        """The round's events ran out: every decision due takes its default (decline, stand), the dealer plays."""
        if state.phase == "betting":
            return
        rules = self._rules(state)
        state.phase = "play"
        while state.turn is not None:
            state.hands[state.turn].status = "stood"
            self._advance(state, rules)
        if state.phase == "play":
            self._advance(state, rules)

    # -- decisions ---------------------------------------------------------------------------------
    def _act(self, state: BJState, rules: BlackjackRules, act: Act) -> None:
        if act.by is not None:
            raise TapeteError("bad-document", "a blackjack act names the bet of the player who decides ('bet'), not 'by'")
        bet = next((b for b in state.bets if b.id == act.bet), None)
        if bet is None:
            raise TapeteError("bad-document", f"act names no bet of this document ({act.bet!r})")
        if set(act.fields) - ({"amount"} if act.do == "insure" else set()):
            raise TapeteError("bad-document", f"unknown act keys {sorted(act.fields)} for {act.do!r}", bet=bet.id)
        if act.do not in VERBS:
            raise TapeteError("illegal-action", f"{act.do!r} is not a blackjack decision ({', '.join(VERBS)})", bet=bet.id)
        if state.phase == "betting" and bet.status == "waiting":
            self._deal(state, rules)            # a single-round document may omit the deal
        if bet.status == "void":
            raise TapeteError("illegal-action", f"bet {bet.id}: its round was not dealt", bet=bet.id,
                              source=rules.sources["min_hands"])
        if bet.status == "done" and act.do in WINDOW_VERBS:
            raise TapeteError("illegal-action", f"{act.do}: too late — the round of bet {bet.id} has been played",
                              bet=bet.id, source=self._window_source(rules, act.do))
        if bet.status != "playing" or state.phase == "betting":
            raise TapeteError("illegal-action", f"bet {bet.id} is not in a round being played", bet=bet.id)
        if act.do in WINDOW_VERBS:
            self._window_act(state, rules, bet, act)
        else:
            self._play_act(state, rules, bet, act.do)

    def decider(self, state: BJState, box: int) -> BJBet:
        """Who decides for a box: the seated player (its first bet); on a vacant box in ES-GA and ES-AN the
        largest stake, the earlier bet on equal stakes (000:328; 002:270; 003:683-688)."""
        bets = [b for b in state.bets if b.box == box and b.kind == "main" and b.status == "playing"]
        first = bets[0]
        if first.vacant and self._rules(state).vacant_box_decider != "first-bet":
            top = max(b.amount for b in bets)
            return next(b for b in bets if b.amount == top)
        return first

    def _box_hands(self, state: BJState, box: int) -> list[Hand]:
        return [h for h in state.hands if h.box == box]

    @staticmethod
    def _window_source(rules: BlackjackRules, verb: str) -> str:
        return {"insure": rules.sources["insurance_max"], "even-money": rules.sources["even_money"],
                "surrender": rules.sources["surrender"]}[verb]

    def _even_money_open(self, state: BJState, rules: BlackjackRules, box: int) -> bool:
        """ES-AN: even money until the next player asks for a third card (003:771-772), box by box; elsewhere with
        the table-wide window of insurance (R: docs/rulings.md#blackjack-even-money-per-box)."""
        if state.phase == "window":
            return True
        if rules.even_money_window != "box" or state.turn is None:
            return False
        order = list(dict.fromkeys(h.box for h in state.hands))
        return not any(order.index(b) > order.index(box) for b in state.third_card)

    def _window_act(self, state: BJState, rules: BlackjackRules, bet: BJBet, act: Act) -> None:
        verb = act.do
        src = self._window_source(rules, verb)
        if verb == "even-money" and not rules.even_money:
            raise TapeteError("illegal-action", f"there is no even money (pago a la par) in {rules.jurisdiction}", bet=bet.id, source=src)
        if verb == "surrender" and not rules.surrender:
            raise TapeteError("illegal-action", f"there is no surrender (retiro) in {rules.jurisdiction}", bet=bet.id, source=src)
        if bet.kind != "main":
            raise TapeteError("illegal-action", f"bet {bet.id}: a Bolsa bet takes no decisions", bet=bet.id)
        if verb == "even-money" and rules.even_money_window == "box" and rules.even_money:
            if not self._even_money_open(state, rules, bet.box):
                raise TapeteError("illegal-action", "even-money: too late — it must come before the next player asks "
                                  "for a third card", bet=bet.id, source=rules.sources["even_money_window"])
        elif state.phase != "window":
            raise TapeteError("illegal-action", f"{verb}: too late — it must come before the third card is dealt to the first "
                              "player who asks for one", bet=bet.id, source=src)
        ace = value(state.dealer[0]) == 1
        hand = self._box_hands(state, bet.box)[0]
        if verb == "insure":
            amount = act.fields.get("amount")
            if not ace:
                raise TapeteError("illegal-action", "insurance is offered only when the dealer's first card is an ace",
                                  bet=bet.id, source=src)
            if not _is_int(amount) or amount <= 0:
                raise TapeteError("bad-document", f"insure: 'amount' is a positive amount in cents (bet {bet.id})", bet=bet.id)
            if bet.insurance:
                raise TapeteError("illegal-action", f"bet {bet.id} is already insured", bet=bet.id, source=src)
            if amount > rules.insurance_max * bet.amount:
                raise TapeteError("illegal-action", f"insurance {amount} on bet {bet.id} exceeds half the original bet "
                                  f"({bet.amount})", bet=bet.id, source=src)
            if hand.status == "even-money":
                raise TapeteError("illegal-action", f"box {bet.box} took even money", bet=bet.id, source=src)
            bet.insurance = amount
            state.log.append(f"{bet.id} insures {euros(amount)}")
            return
        if self.decider(state, bet.box).id != bet.id:
            raise TapeteError("illegal-action", f"bet {bet.id} does not decide for box {bet.box}: "
                              f"{self.decider(state, bet.box).id} does", bet=bet.id, source=rules.sources["vacant_box_decider"])
        if hand.status in ("even-money", "surrendered"):
            raise TapeteError("illegal-action", f"box {bet.box} has already decided ({hand.status})", bet=bet.id, source=src)
        if verb == "even-money":
            if not ace or hand.status != "blackjack":
                raise TapeteError("illegal-action", "even money is for a Black-Jack against the dealer's ace", bet=bet.id, source=src)
            if any(b.insurance for b in state.bets if b.box == bet.box and b.status == "playing"):
                raise TapeteError("illegal-action", f"box {bet.box} is insured", bet=bet.id, source=src)
            hand.status = "even-money"
            state.log.append(f"box {bet.box}: even money")
        else:
            if ace:
                raise TapeteError("illegal-action", "no surrender against the dealer's ace", bet=bet.id, source=src)
            if not self.may_surrender(state, bet.box):
                raise TapeteError("illegal-action", f"box {bet.box} may not surrender now: the retiro gives up the hand "
                                  "as dealt, two cards not split",
                                  bet=bet.id, source=src)
            hand.status = "surrendered"
            state.log.append(f"box {bet.box}: surrenders, half the bet back")
        if state.turn is not None and state.hands[state.turn] is hand:
            state.played = True                # his decision for the hand due: when it is the last, the dealer draws
            self._advance(state, rules)

    def may_surrender(self, state: BJState, box: int) -> bool:
        """Retiro gives up the hand as dealt: its two cards, not split, standing or still to play; a box that
        stood may still surrender while the window is open (000:382; 002:312; R: docs/rulings.md#blackjack-decision-window)."""
        hands = self._box_hands(state, box)
        return len(hands) == 1 and len(hands[0].cards) == 2 and hands[0].status in ("live", "stood", "blackjack")

    @staticmethod
    def _asks_third_card(state: BJState, hand: Hand) -> None:
        """A hit or double on a two-card hand asks for a third card: it closes ES-AN's even money for the boxes
        before it (003:771-772)."""
        if len(hand.cards) == 2 and hand.box not in state.third_card:
            state.third_card.append(hand.box)

    def _play_act(self, state: BJState, rules: BlackjackRules, bet: BJBet, verb: str) -> None:
        due = state.hands[state.turn] if state.turn is not None else None
        if due is None or due.box != bet.box:
            mine = self._box_hands(state, bet.box)
            if verb in ("hit", "double") and any(h.split_aces for h in mine):
                raise TapeteError("illegal-action", f"box {bet.box}: a split ace receives one card only", bet=bet.id,
                                  source=rules.sources["split_aces_one_card"])
            if verb in ("hit", "double") and mine and mine[-1].status in ("stood", "blackjack") and mine[-1].total >= 21:
                raise TapeteError("illegal-action", f"box {bet.box} has {mine[-1].total}: no card may be asked for at 21 or more",
                                  bet=bet.id, source=_src21(rules))
            now = f"box {due.box} is due" if due is not None else "no box is due (the players have played)"
            raise TapeteError("out-of-turn", f"bet {bet.id} (box {bet.box}) acts out of turn: {now}", bet=bet.id)
        decider = self.decider(state, bet.box)
        if decider.id != bet.id:
            raise TapeteError("illegal-action", f"bet {bet.id} does not decide for box {bet.box}: {decider.id} does",
                              bet=bet.id, source=rules.sources["vacant_box_decider"])
        state.played = True
        if verb in ("hit", "double"):          # the first third card closes the window; a stand or a split does
            state.phase = "play"               # not (R: docs/rulings.md#blackjack-decision-window)
        hand = due
        if verb == "stand":
            hand.status = "stood"
            state.log.append(f"box {hand.box}: stands on {hand.total}")
        elif verb == "hit":
            self._check(self.can_hit(rules, state.limits, hand), bet)
            self._asks_third_card(state, hand)
            card = self._give(state, hand)
            self._after_card(state, hand, card, "hits")
        elif verb == "double":
            self._check(self.can_double(rules, state.limits, hand), bet)
            self._asks_third_card(state, hand)
            hand.units = 2
            card = self._give(state, hand)
            self._after_card(state, hand, card, "doubles")
            if hand.status == "live":
                hand.status = "stood"           # one card only (000:378)
        else:
            self._check(self.can_split(rules, state.limits, hand), bet)
            ace = hand.values[0] == 1
            new = Hand(hand.box, [hand.cards[1]], split=True, split_aces=ace, status="waiting")
            hand.cards = [hand.cards[0]]
            hand.split, hand.split_aces, hand.status = True, ace, "waiting"
            state.hands.insert(state.turn + 1, new)   # the hand at the player's right is played first (000:370)
            state.log.append(f"box {hand.box}: splits {pretty(hand.cards[0])} {pretty(new.cards[0])}")
        self._advance(state, rules)

    def _after_card(self, state: BJState, hand: Hand, card: str, verb: str) -> None:
        total = hand.total
        state.log.append(f"box {hand.box} {verb}: {pretty(card)} ({total})")
        if total > 21:
            hand.status = "bust"                # lost at once, stake and cards collected (000:344)
            state.log.append(f"box {hand.box} busts")
        elif total == 21:
            hand.status = "stood"

    @staticmethod
    def _check(verdict: tuple[bool, str, str], bet: BJBet) -> None:
        ok, why, source = verdict
        if not ok:
            raise TapeteError("illegal-action", f"bet {bet.id}: {why}", bet=bet.id, source=source)

    # -- what a hand may do (shared by acts, legal_actions and the strategy) ---------------------------
    @staticmethod
    def can_hit(rules: BlackjackRules, limits: BJTable, hand: Hand) -> tuple[bool, str, str]:
        if hand.split_aces:
            return False, "a split ace receives one card only", rules.sources["split_aces_one_card"]
        if hand.total >= 21:
            return False, f"no card may be asked for at {hand.total} (21 or more)", _src21(rules)
        return True, "", ""

    @staticmethod
    def can_double(rules: BlackjackRules, limits: BJTable, hand: Hand) -> tuple[bool, str, str]:
        src = rules.sources["double_totals"]
        if len(hand.cards) != 2:
            return False, "a double is made on the first two cards of a hand", src
        if hand.split_aces:
            return False, "a split ace receives one card only", rules.sources["split_aces_one_card"]
        if hand.split and not rules.double_after_split:
            return False, "no double after a split", rules.sources["double_after_split"]
        if hand.total >= 21:
            return False, f"no card may be asked for at {hand.total}", _src21(rules)
        vals = hand.values
        if rules.double_totals is not None:
            claimed = {player_total(vals)} if limits.double_hard_only else valuations(vals)
            if not claimed & set(rules.double_totals):
                shown = " or ".join(map(str, sorted(claimed)))
                return False, f"a double needs 9, 10 or 11 with the first two cards (this hand is {shown})", src
        elif vals == [1, 1] and not hand.split and not rules.double_initial_aces:
            return False, "no double on a pair of aces", rules.sources["double_initial_aces"]
        return True, "", ""

    @staticmethod
    def can_split(rules: BlackjackRules, limits: BJTable, hand: Hand) -> tuple[bool, str, str]:
        src = rules.sources["resplit"]
        vals = hand.values
        if len(vals) != 2 or vals[0] != vals[1]:
            return False, "only two first cards of the same value may be split", src
        if hand.split and not rules.resplit:
            return False, "no re-split", src
        if hand.split_aces and not limits.resplit_aces:
            return False, "split aces are not split again at this table", "R: docs/rulings.md#blackjack-resplit-aces"
        return True, "", ""

    # -- the dealer and the settlement -------------------------------------------------------------
    def _dealer(self, state: BJState, rules: BlackjackRules) -> None:
        live = [h for h in state.hands if h.status in ("stood", "blackjack")]
        insured = any(b.insurance for b in state.bets if b.status == "playing")
        soft17 = rules.dealer_stands_soft_17
        if live or rules.dealer_draws_without_live_hands:
            while dealer_must_draw([value(c) for c in state.dealer], soft17):
                state.dealer.append(self._draw(state))
        elif insured:                           # the insurance alone still needs the second card (A9-9)
            state.dealer.append(self._draw(state))
        dvals = [value(c) for c in state.dealer]
        cards = " ".join(map(pretty, state.dealer))
        if len(dvals) == 1:
            state.log.append(f"dealer {cards}: no hand left in play, the dealer draws no card")
        elif is_natural(dvals):
            state.log.append(f"dealer {cards}: Black-Jack")
        else:
            total = dealer_total(dvals, soft17)
            state.log.append(f"dealer {cards}: {total}" + (" — busts" if total > 21 else ""))
        self._settle_round(state, rules)

    def _settle_round(self, state: BJState, rules: BlackjackRules) -> None:
        dvals = [value(c) for c in state.dealer]
        dealer_bj = is_natural(dvals)
        dtotal = dealer_total(dvals, rules.dealer_stands_soft_17)
        playing = [b for b in state.bets if b.status == "playing"]
        for bet in playing:
            hands = self._box_hands(state, bet.box)
            if bet.kind == "bolsa":
                bet.staked = Fraction(bet.amount)
                bet.returned = self._bolsa(state, rules, bet)
            else:
                a = Fraction(bet.amount)
                ret = Fraction(0)
                for h in hands:
                    ret += a * self._hand_factor(state, rules, h, dealer_bj, dtotal)
                if bet.insurance and dealer_bj:
                    ret += bet.insurance * (1 + rules.insurance_pays)
                bet.staked = a * sum(h.units for h in hands) + bet.insurance
                bet.returned = ret
            bet.status = "done"
        # losing bets are collected, then winners paid from right to left (000:348)
        for bet in sorted(playing, key=lambda b: -b.box):
            if bet.returned > 0:
                verb = "pays" if bet.returned > bet.staked else "returns"
                state.log.append(f"{verb} {bet.id} (box {bet.box}{', bolsa' if bet.kind == 'bolsa' else ''}): {euros(bet.returned)}")
        state.rounds += 1
        state.phase = "betting"
        if state.next_table is not None:
            state.rounds_to_change -= 1
            if state.rounds_to_change <= 0:
                state.limits = self._limits(rules, state.next_table)
                state.table, state.next_table = state.next_table, None
                state.log.append(f"new limits in force: minimum {state.limits.minimum}, maximum {state.limits.maximum}")

    def _hand_factor(self, state: BJState, rules: BlackjackRules, h: Hand, dealer_bj: bool, dtotal: int) -> Fraction:
        """What one hand returns per unit of the bet (000:350-356; 000:374; 000:382; 000:364)."""
        if h.status == "surrendered":
            return Fraction(1, 2)
        if h.status == "even-money":
            return Fraction(2)
        if h.status == "bust":
            return Fraction(0)
        if h.status == "blackjack":
            return Fraction(1) if dealer_bj else 1 + rules.blackjack_pays
        units = h.units
        if dealer_bj:   # a dealer Black-Jack takes doubles and splits; a split 21 is no Black-Jack (A9-2)
            two_card_21 = h.split and len(h.cards) == 2 and h.total == 21
            return Fraction(units) if two_card_21 and state.limits.split_21_vs_blackjack == "push" else Fraction(0)
        if dtotal > 21 or h.total > dtotal:
            return Fraction(2 * units)
        return Fraction(units) if h.total == dtotal else Fraction(0)

    def _bolsa(self, state: BJState, rules: BlackjackRules, bet: BJBet) -> Fraction:
        """The highest Bolsa combination among the box's first cards, in dealing order (003:823-843)."""
        cards = state.box_cards.get(bet.box, [])
        sevens = [c for c in cards[:3] if c[0] == "7"]
        pays = rules.bolsa_pays or {}
        stake = Fraction(bet.amount)
        if len(cards) >= 3 and len(sevens) == 3:
            suits = {c[1] for c in cards[:3]}
            if len(suits) == 1:
                jackpot = max(state.limits.bolsa_jackpot or 0, BOLSA_JACKPOT_MINIMUM * bet.amount)
                return stake + jackpot
            if len(suits) == 3:
                return stake * (1 + pays["three-sevens"])
        if len(cards) >= 2 and cards[0][0] == "7" and cards[1][0] == "7":
            return stake * (1 + pays["two-sevens-suited" if cards[0][1] == cards[1][1] else "two-sevens"])
        if cards and cards[0][0] == "7":
            return stake * (1 + pays["first-seven"])
        return Fraction(0)

    # -- irregularities and limits -----------------------------------------------------------------
    def _void(self, state: BJState, rules: BlackjackRules, void: Void) -> None:
        if state.phase == "betting" and any(b.status == "waiting" for b in state.bets):
            self._deal(state, rules)
        if state.phase == "betting":
            raise TapeteError("bad-document", "void: there is no round in progress")
        for b in state.bets:
            if b.status == "playing":
                b.status, b.returned, b.staked = "void", Fraction(b.amount), Fraction(b.amount)
        state.phase, state.turn = "betting", None
        state.log.append(f"round annulled ({void.reason}): bets returned, cards discarded")

    def _change_limits(self, state: BJState, rules: BlackjackRules, event: Limits) -> None:
        if rules.limit_change == "never":
            raise TapeteError("illegal-action", f"in {rules.jurisdiction} a table's limits may not change during the session",
                              source=rules.sources["limit_change"])
        if rules.jurisdiction == "ES-AN":   # 003:859-861 borrows roulette's 003:355-376: only the minimum varies
            new_table = minimum_moves_maximum(state.table, event.values, minimum_keys=frozenset({"minimum"}),
                                              maximum_keys=frozenset(), source=rules.sources["limit_change"])
        else:
            new_table = {**state.table, **event.values}
        self._limits(rules, new_table)
        state.next_table = new_table
        state.rounds_to_change = 3
        state.log.append("limit change announced: three more rounds at the old limits")

    # -- the engine's questions --------------------------------------------------------------------
    def finish(self, state: BJState) -> BJState:
        if state.phase == "betting" and any(b.status == "waiting" for b in state.bets):
            self._deal(state, self._rules(state))
        self._end_round(state)
        return state

    def settle(self, state: BJState) -> Settlement:
        results: dict[str, BetResult] = {}
        for b in state.bets:
            if b.status == "done":
                results[b.id] = BetResult(b.staked, b.returned)
            elif b.status == "playing":
                staked = Fraction(b.amount * sum(h.units for h in self._box_hands(state, b.box)) + b.insurance)
                results[b.id] = BetResult.pending(staked)
            else:
                results[b.id] = BetResult.voided(Fraction(b.amount))
        return Settlement(self.id, state.jurisdiction, results, rounds=state.rounds, log=list(state.log))

    def legal_actions(self, state: BJState) -> list[Action]:
        rules = self._rules(state)
        lim = state.limits
        if state.phase == "betting":
            if state.closed:
                return []
            boxes = tuple(range(1, lim.boxes + 1))
            acts = [Action("bet", kind="main", minimum=lim.minimum, maximum=lim.maximum, targets=boxes)]
            if rules.bolsa:
                acts.append(Action("bet", kind="bolsa", minimum=lim.bolsa_stake, maximum=lim.bolsa_stake, targets=boxes))
            return acts
        acts = []
        ace = value(state.dealer[0]) == 1
        if state.phase == "window":
            for b in state.bets:
                if b.status != "playing" or b.kind != "main":
                    continue
                hand = self._box_hands(state, b.box)[0]
                decides = self.decider(state, b.box).id == b.id
                if ace and not b.insurance and hand.status != "even-money":
                    acts.append(Action("insure", bet=b.id, minimum=1, maximum=int(rules.insurance_max * b.amount)))
                if decides and ace and rules.even_money and hand.status == "blackjack":
                    acts.append(Action("even-money", bet=b.id))
                if decides and not ace and rules.surrender and self.may_surrender(state, b.box):
                    acts.append(Action("surrender", bet=b.id))
        elif state.phase == "play" and rules.even_money and value(state.dealer[0]) == 1:
            for b in state.bets:          # ES-AN: each blackjack box until the next player asks for a card
                if (b.status == "playing" and b.kind == "main" and self.decider(state, b.box).id == b.id
                        and self._box_hands(state, b.box)[0].status == "blackjack"
                        and self._even_money_open(state, rules, b.box)):
                    acts.append(Action("even-money", bet=b.id))
        if state.turn is not None:
            hand = state.hands[state.turn]
            bet = self.decider(state, hand.box)
            acts.append(Action("stand", bet=bet.id))
            for verb, check in (("hit", self.can_hit), ("double", self.can_double), ("split", self.can_split)):
                if check(rules, lim, hand)[0]:
                    acts.append(Action(verb, bet=bet.id))
        return acts

    def chance(self, state: BJState) -> list[tuple[Event, Fraction]]:
        """Cards come from the state's shoe in its order: no chance event. The exact analysis works over shoe
        compositions instead (tapete.analysis.blackjack)."""
        return []

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        """What `tapete simulate` lays by default: the main bet under the derived basic strategy, and the Bolsa
        where the catalog has it (003:813-843). `tapete edge` answers through the analysis registry."""
        rules = self.rules_for(jurisdiction)
        cases = [EdgeCase("main", option="basic-strategy", extra={"box": 1})]
        if rules.bolsa:
            cases.append(EdgeCase("bolsa", option="jackpot-3000x", extra={"box": 1}))
        return cases

    def describe_payouts(self, rules: BlackjackRules) -> str:
        return f"blackjack {format_ratio(rules.blackjack_pays)}, insurance {format_ratio(rules.insurance_pays)}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _src21(rules: BlackjackRules) -> str:
    return {"ES": "001:278", "ES-IB": "000:344", "ES-GA": "002:282", "ES-AN": "003:704-709"}[rules.jurisdiction]


def _last_round_source(rules: BlackjackRules) -> str:
    return {"ES": "001:330", "ES-IB": "000:408", "ES-GA": "002:328", "ES-AN": "003:892-895"}[rules.jurisdiction]
