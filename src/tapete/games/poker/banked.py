"""What the house-banked poker games share: boxes, a fresh deck per round, limits, paytables, the round's life.

*Póquer sin descarte*, *Trijoker*, *Tripóquer* and *Pai Gow póquer* (digest: banked poker,
round vocabulary `docs/vocabulary.md` §4-§7) are all played the same way from the outside:
bets on numbered boxes (box 1 at the croupier's left, dealt first), *no va más*, a deal from a freshly shuffled
deck (docs/rulings.md#banked-poker-fresh-deck), each box's decisions, then the settlement. `BankedGame` runs
that life; each game supplies its bets, its deal, its decisions and its settlement.

A document may hold several rounds: `shoe` is their card orders one after another, each round taking exactly
the cards its deal uses (VOCABULARY §0.3). A round ends at a `bet` or `deal` for the next round, or at the end
of the document; the decisions still due then take their defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from tapete.core.cards import parse_card
from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import own_citations
from tapete.core.money import euros
from tapete.core.rng import TableRng
from tapete.engine.bet_index import bet_index
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, Game
from tapete.engine.rules import Rules
from tapete.engine.settlement import BetResult, Settlement
from tapete.games.poker import evaluator as ev

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
CATEGORIES = ("high-card", "pair", "two-pair", "three-of-a-kind", "straight", "flush", "full-house",
              "four-of-a-kind", "straight-flush", "royal-flush", "five-of-a-kind")


def pretty(card: str) -> str:
    """'TS' -> '10♠', 'X1' -> 'Joker': as the croupier names a card."""
    if card.startswith("X"):
        return "Joker"
    return ("10" if card[0] == "T" else card[0]) + SUITS.get(card[1], card[1])


def show(cards: Sequence[str]) -> str:
    return " ".join(pretty(c) for c in cards)


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ------------------------------------------------------------------------------------------------ state


@dataclass
class BoxBet:
    """One bet on a box. `acts` are the box's decisions in the order made (each a {"do": verb, ...} dict)."""

    id: str
    player: str
    kind: str
    box: int
    amount: int
    round: int
    blind: bool = False
    acts: list[dict[str, Any]] = field(default_factory=list)
    staked: Fraction = Fraction(0)
    returned: Fraction = Fraction(0)
    final: str = "open"              # open | settled | void


@dataclass
class BankedRound:
    """The round in progress: its phase, the cards dealt (`hands`: box number as text, `croupier`, `common`)
    and what the game keeps about it (`data`: a roll, the croupier's setting, exposed cards...)."""

    number: int
    phase: str = "betting"           # betting | dealt
    closed: bool = False
    hands: dict[str, list[str]] = field(default_factory=dict)
    drawn: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class BankedState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    config: dict[str, Any]           # the table in force, JSON values only
    shoe: list[str] | None = None
    pos: int = 0
    bets: list[BoxBet] = field(default_factory=list)
    round: BankedRound | None = None
    rounds: int = 0
    commission: Fraction = Fraction(0)
    meter: Fraction | None = None    # the jackpot meter (carousel), cents
    log: list[str] = field(default_factory=list)

    def bet(self, bet_id: str | None) -> BoxBet:
        found = next((b for b in self.bets if b.id == bet_id), None)
        if found is None:
            raise TapeteError("bad-document", f"act names no bet of this document ({bet_id!r})")
        return found

    def live(self) -> list[BoxBet]:
        """The bets of the round in progress, in box order (then in the order placed)."""
        if self.round is None:
            return []
        n = self.round.number
        return sorted((b for b in self.bets if b.round == n and b.final == "open"), key=lambda b: b.box)


# ------------------------------------------------------------------------------------------------ table keys


def check_keys(game_id: str, table: Mapping[str, Any], known: Sequence[str]) -> None:
    for key in table:
        if key not in known:
            raise TapeteError("bad-document", f"unknown table key {key!r} for {game_id} (known: {', '.join(sorted(known))})")


def minimum_of(table: Mapping[str, Any]) -> int:
    m = table.get("minimum")
    if not is_int(m) or m <= 0:
        raise TapeteError("bad-document", "table.minimum (the authorised minimum, in cents) is required and must be a positive integer")
    return m


def maximum_of(table: Mapping[str, Any], minimum: int, multiples: Sequence[int], is_range: bool, source: str,
               jurisdiction: str) -> int:
    """The table's maximum: one of the allowed multiples of the minimum (or any value in the range); default the
    largest the jurisdiction allows (docs/format.md)."""
    maximum = table.get("maximum", minimum * max(multiples))
    if not is_int(maximum):
        raise TapeteError("bad-table", "table.maximum is an amount in cents", source=source)
    if is_range:
        low, high = min(multiples), max(multiples)
        if not low * minimum <= maximum <= high * minimum:
            raise TapeteError("bad-table", f"the maximum {maximum} must lie between {low} and {high} x the minimum in "
                              f"{jurisdiction}", source=source)
    elif maximum % minimum or maximum // minimum not in multiples:
        allowed = ", ".join(map(str, multiples))
        raise TapeteError("bad-table", f"the maximum {maximum} is not one of {allowed} x the minimum allowed in {jurisdiction}",
                          source=source)
    return maximum


def flag(table: Mapping[str, Any], key: str, default: bool) -> bool:
    value = table.get(key, default)
    if not isinstance(value, bool):
        raise TapeteError("bad-document", f"table.{key} is true or false")
    return value


def choice(table: Mapping[str, Any], key: str, allowed: Sequence[str], default: str, source: str | None = None) -> str:
    value = table.get(key, default)
    if value not in allowed:
        raise TapeteError("bad-table", f"table.{key} is one of {', '.join(map(repr, allowed))}", source=source)
    return value


def percent(value: object, key: str) -> Fraction:
    """A rate written as a JSON number in percent, read as an exact decimal (VOCABULARY §0.1)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise TapeteError("bad-document", f"table.{key} is a number (percent)")
    try:
        return Fraction(Decimal(str(value))) / 100
    except (InvalidOperation, ValueError) as exc:
        raise TapeteError("bad-document", f"table.{key} is a number (percent)") from exc


def rounding_of(table: Mapping[str, Any]) -> None:
    if table.get("rounding", "player") not in ("player", "house"):
        raise TapeteError("bad-document", "rounding must be 'player' or 'house'")


def carousel_of(table: Mapping[str, Any], floor: int | None, source: str) -> tuple[int | None, int | None]:
    """The carousel's single stake and its meter as the table sets them (either may be absent); the meter is never
    below `floor` x the stake where the catalog sets a floor (`source`)."""
    stake, meter = table.get("jackpot-stake"), table.get("jackpot")
    if stake is not None and (not is_int(stake) or stake <= 0):
        raise TapeteError("bad-document", "table.jackpot-stake is a positive amount in cents")
    if meter is not None and (not is_int(meter) or meter < 0):
        raise TapeteError("bad-document", "table.jackpot is the meter in cents")
    if floor and meter is not None and stake is not None and meter < floor * stake:
        raise TapeteError("bad-table", f"the carousel meter is never below {floor:,} x its stake", source=source)
    return stake, meter


# ------------------------------------------------------------------------------------------------ hands


def category_of(strength: int) -> str:
    """The evaluator's category name; the short-deck flush code never occurs with 52 cards."""
    return ev.category(strength)


def pays(table: Mapping[str, Fraction], strength: int) -> Fraction | None:
    """The multiplier `table` gives the hand's category, or None (a losing hand)."""
    return table.get(category_of(strength))


# ------------------------------------------------------------------------------------------------ the carousel


def jackpot_prizes(entries: list[tuple[BoxBet, int]], meter: Fraction, shares: Mapping[str, Fraction],
                   fixed: Mapping[str, Fraction]) -> tuple[dict[str, Fraction], Fraction]:
    """Carousel prizes of one round, each deducted from the meter as it is paid (003:3247-3250).

    Royal flushes share the meter's royal share equally (003:3273-3275); straight flushes are paid from the
    highest, each taking its share of what the meter shows then, equal ones sharing one share (003:3277-3285);
    then the fixed prizes (ES-AN 4K, FH, flush, straight), never more than the meter holds. Higher categories
    first: docs/rulings.md#sin-descarte-jackpot.
    """
    prizes: dict[str, Fraction] = {}
    royals = [b for b, s in entries if category_of(s) == "royal-flush"]
    if royals and "royal-flush" in shares:
        each = meter * shares["royal-flush"] / len(royals)
        for b in royals:
            prizes[b.id] = each
        meter -= each * len(royals)
    flushes = sorted(((s, b) for b, s in entries if category_of(s) == "straight-flush"), key=lambda x: -x[0])
    i = 0
    while i < len(flushes) and "straight-flush" in shares:
        group = [b for s, b in flushes if s == flushes[i][0]]
        each = meter * shares["straight-flush"] / len(group)
        for b in group:
            prizes[b.id] = each
        meter -= each * len(group)
        i += len(group)
    for b, s in entries:
        mult = fixed.get(category_of(s))
        if mult is not None:
            prize = min(mult * b.amount, meter)
            prizes[b.id] = prize
            meter -= prize
    return prizes, meter


def carousel_bets(state: BankedState) -> list[BoxBet]:
    """The round's carousel bets, each staking its amount."""
    bets = [b for b in state.live() if b.kind == "jackpot"]
    for b in bets:
        b.staked = Fraction(b.amount)
    return bets


def pay_carousel(state: BankedState, bets: list[BoxBet], eligible: list[tuple[BoxBet, int]],
                 shares: Mapping[str, Fraction], fixed: Mapping[str, Fraction]) -> None:
    """Settle the round's carousel bets (`bets`, their stakes already set) from the meter, paying the `eligible`
    hands by `jackpot_prizes`; then the table's contribution of every carousel stake goes into the meter."""
    assert state.meter is not None
    prizes, state.meter = jackpot_prizes(eligible, state.meter, shares, fixed)
    for b in bets:
        prize = prizes.get(b.id)
        b.returned = b.staked + prize if prize is not None else Fraction(0)
        state.log.append(f"{b.id} carousel (box {b.box}): " + (f"prize {euros(prize)}" if prize else "no prize"))
    state.meter += percent(state.config["contribution"], "jackpot-contribution") * sum(b.amount for b in bets)


# ------------------------------------------------------------------------------------------------ the game


class BankedGame(Game):
    """The round's life for a house-banked poker game; subclasses fill in the hooks below."""

    uses_shoe = True
    jokers = 0                                    # Pai Gow's deck has one (003:3777-3781)
    live_decks = 1                                # one deck per round: R: docs/rulings.md#banked-poker-fresh-deck
    fresh_deck_each_round = True
    deck_source = ""                              # citation of the deck, for the bad-card message
    kind_names: tuple[str, ...] = ()

    def state_type(self) -> type:
        return BankedState

    # -- hooks -------------------------------------------------------------------------------------
    def configure(self, rules: Rules, table: Mapping[str, Any]) -> dict[str, Any]:
        """Validate `table` against the jurisdiction's rules; the table in force, JSON values only."""
        raise NotImplementedError

    def place(self, state: BankedState, rules: Rules, bet: Bet) -> BoxBet:
        """Check one bet against the layout and limits; the record to keep."""
        raise NotImplementedError

    def deal(self, state: BankedState, rules: Rules) -> None:
        """Deal the round's cards from the shoe (state.round.hands)."""
        raise NotImplementedError

    def decide(self, state: BankedState, rules: Rules, bet: BoxBet, act: Act) -> None:
        """Record a decision on `bet` (validated now, applied when the round is resolved)."""
        raise NotImplementedError

    def croupier_act(self, state: BankedState, rules: Rules, act: Act) -> None:
        raise TapeteError("bad-document", f"{self.id}: an act names the bet of the player who decides ('bet'), not 'by'")

    def exposed_card(self, state: BankedState, act: Act, what: str) -> str:
        """The card a croupier's act shows by mistake (`what`): 'expose' is his only act, naming a card of the round."""
        assert state.round is not None
        if act.by != "croupier" or act.do != "expose":
            raise TapeteError("illegal-action", f"{self.id}: the croupier's only act is 'expose' ({what})")
        self.act_fields(act, ("card",), None)
        card = act.fields.get("card")
        if card not in state.round.drawn:
            raise TapeteError("bad-card", f"expose: {card!r} was not dealt in this round")
        return card

    def resolve(self, state: BankedState, rules: Rules) -> None:
        """Apply the defaults due, reveal, and settle every bet of the round in progress."""
        raise NotImplementedError

    def outcome(self, state: BankedState, rules: Rules, event: Outcome) -> None:
        raise TapeteError("bad-document", f"{self.id} is dealt from the shoe: it takes no {event.name!r} event")

    def void_stake(self, bet: BoxBet) -> int:
        """What a void round hands back for `bet` (all it staked before any decision)."""
        return bet.amount

    def verbs_due(self, state: BankedState, bet: BoxBet) -> list[str]:
        """The decisions `bet` may make now (for legal_actions)."""
        return []

    # -- opening -----------------------------------------------------------------------------------
    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> BankedState:
        rules = self.rules_for(jurisdiction)
        if not isinstance(table, dict):
            raise TapeteError("bad-document", "table is an object")
        config = self.configure(rules, table)
        state = BankedState(self.id, jurisdiction, dict(table), config)
        if shoe is not None:
            state.shoe = [parse_card(c, jokers=self.jokers).text for c in shoe]
        self.opened(state, rules)
        return state

    def opened(self, state: BankedState, rules: Rules) -> None:
        """State that depends on the table: the carousel meter the table starts with (config 'jackpot'), if any."""
        meter = state.config.get("jackpot")
        state.meter = Fraction(meter) if meter is not None else None

    def new_deck(self, state: BankedState, rng: TableRng) -> None:
        """Live play: the next round is dealt from a freshly shuffled deck (the cards after `pos` are replaced)."""
        from tapete.core.cards import french_deck

        cards = [c.text for c in french_deck(self.jokers)]
        rng.shuffle(cards)
        state.shoe = (state.shoe or [])[: state.pos] + cards

    # -- the reducer -------------------------------------------------------------------------------
    def apply(self, state: BankedState, event: Event) -> None:
        rules = self.rules_for(state.jurisdiction)
        if isinstance(event, Bet):
            self._end_dealt(state, rules)
            self._bet(state, rules, event)
        elif isinstance(event, Deal):
            self._end_dealt(state, rules)
            if state.round is None or not state.live():
                raise TapeteError("bad-document", "deal: there are no bets to deal to")
            self._deal(state, rules)
        elif isinstance(event, Act):
            self._act(state, rules, event)
        elif isinstance(event, Close):
            self._end_dealt(state, rules)
            if state.round is None:
                state.round = BankedRound(state.rounds + 1)
            state.round.closed = True
            state.log.append("no va más")
        elif isinstance(event, Void):
            self._void(state, event)
        elif isinstance(event, Limits):
            self._limits(state, rules, event)
        elif isinstance(event, Outcome):
            self.outcome(state, rules, event)
        else:  # pragma: no cover - the parser makes only the events above
            raise TapeteError("bad-document", f"unexpected event {event!r}")

    def _bet(self, state: BankedState, rules: Rules, bet: Bet) -> None:
        if state.round is None:
            state.round = BankedRound(state.rounds + 1)
        if state.round.closed:
            raise TapeteError("bet-closed", f"bet {bet.id}: bets are closed until the deal", bet=bet.id)
        if bet.id in bet_index(state, state.bets).ids:
            raise TapeteError("bad-document", f"bet id {bet.id!r} used twice", bet=bet.id)
        if bet.kind not in self.kind_names:
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: {bet.kind!r} is not a bet of {self.id} "
                              f"({', '.join(self.kind_names)})", bet=bet.id)
        if bet.on:
            raise TapeteError("bad-target", f"bet {bet.id}: {self.id} bets name a 'box', not 'on'", bet=bet.id)
        record = self.place(state, rules, bet)
        state.bets.append(record)

    def _deal(self, state: BankedState, rules: Rules) -> None:
        assert state.round is not None
        if state.shoe is None:
            raise TapeteError("bad-document", f"{self.id} deals from a deck: the document needs 'shoe'")
        state.round.closed = True
        self.deal(state, rules)
        state.round.phase = "dealt"

    def draw(self, state: BankedState) -> str:
        """The next card of the shoe; a card repeated within the round is `bad-card` (one deck per round)."""
        assert state.round is not None and state.shoe is not None
        if state.pos >= len(state.shoe):
            raise TapeteError("shoe-exhausted", f"the shoe ran out after {len(state.shoe)} cards")
        card = state.shoe[state.pos]
        state.pos += 1
        if card in state.round.drawn:
            raise TapeteError("bad-card", f"{card} appears twice in round {state.round.number}: each round is dealt "
                              "from one deck", source=own_citations(self.deck_source, state.jurisdiction) or None)
        state.round.drawn.append(card)
        return card

    def _act(self, state: BankedState, rules: Rules, act: Act) -> None:
        if state.round is None or not state.live():
            raise TapeteError("illegal-action", f"{act.do!r}: no round is being played" +
                              (f" (bet {act.bet!r} is settled)" if act.bet and any(b.id == act.bet for b in state.bets) else ""),
                              bet=act.bet)
        if act.bet is not None:
            bet = state.bet(act.bet)
            if bet.round != state.round.number or bet.final != "open":
                raise TapeteError("illegal-action", f"bet {bet.id} is not in the round being played", bet=bet.id)
        if state.round.phase == "betting":
            self._deal(state, rules)           # a single-round document may omit the deal
        if act.by is not None:
            self.croupier_act(state, rules, act)
        else:
            self.decide(state, rules, state.bet(act.bet), act)

    def _end_dealt(self, state: BankedState, rules: Rules) -> None:
        if state.round is not None and state.round.phase == "dealt":
            self._resolve(state, rules)

    def _resolve(self, state: BankedState, rules: Rules) -> None:
        self.resolve(state, rules)
        for b in state.live():
            b.final = "settled"
        state.rounds += 1
        state.round = None

    def finish(self, state: BankedState) -> BankedState:
        rules = self.rules_for(state.jurisdiction)
        if state.round is not None and state.live():
            if state.round.phase == "betting":
                self._deal(state, rules)
            self._resolve(state, rules)
        elif state.round is not None:
            state.round = None
        return state

    def _void(self, state: BankedState, event: Void) -> None:
        if state.round is None or not state.live():
            raise TapeteError("bad-document", "void: no round is in progress")
        for b in state.live():
            stake = Fraction(self.void_stake(b))
            b.staked = b.returned = stake
            b.final = "void"
        state.log.append(f"the round is annulled ({event.reason}): every bet is returned")
        state.round = None

    def _limits(self, state: BankedState, rules: Rules, event: Limits) -> None:
        self._end_dealt(state, rules)
        if state.round is not None and state.live():
            raise TapeteError("illegal-action", "limits change between rounds, not with bets on the table")
        table = {**state.table, **event.values}
        state.config = self.configure(rules, table)
        state.table = table
        state.log.append("new table limits: " + ", ".join(f"{k} {v}" for k, v in event.values.items()))

    # -- settlement --------------------------------------------------------------------------------
    def settle(self, state: BankedState) -> Settlement:
        results: dict[str, BetResult] = {}
        for b in state.bets:
            if b.final == "open":
                results[b.id] = BetResult(Fraction(b.amount), Fraction(0), "pending", Fraction(b.amount))
            else:
                results[b.id] = BetResult(b.staked, b.returned, "void" if b.final == "void" else "settled")
        carry = {"jackpot": state.meter} if state.meter is not None else None
        return Settlement(self.id, state.jurisdiction, results, state.commission, state.rounds, list(state.log), carry)

    def legal_actions(self, state: BankedState) -> list[Action]:
        if state.round is None or state.round.phase == "betting":
            if state.round is not None and state.round.closed:
                return [Action("deal")] if state.live() else []
            acts = [Action("bet", kind=k, minimum=state.config.get("minimum"), maximum=state.config.get("maximum"))
                    for k in self.kind_names]
            if state.round is not None and state.live():
                acts.append(Action("deal"))
            return acts
        return [Action(verb, bet=b.id) for b in state.live() for verb in self.verbs_due(state, b)]

    def chance(self, state: BankedState) -> list[tuple[Event, Fraction]]:
        """Cards come from the document's deck in its order: no chance event. The exact analysis enumerates the
        deck itself (tapete.analysis.banked_poker)."""
        return []

    # -- shared checks -----------------------------------------------------------------------------
    def limits_of(self, rules: Any, table: Mapping[str, Any], is_range: bool) -> tuple[int, int]:
        """The table's keys checked, its rounding policy, its minimum and its maximum (one of the jurisdiction's
        `maximum_multiples` of the minimum, or within their range)."""
        check_keys(self.id, table, [t.key for t in self.table_keys()])
        rounding_of(table)
        m = minimum_of(table)
        return m, maximum_of(table, m, rules.maximum_multiples, is_range, rules.sources["maximum_multiples"],
                             rules.jurisdiction)

    @staticmethod
    def box_of(bet: Bet, boxes: int, source: str) -> int:
        box = bet.extra.get("box")
        if not is_int(box) or not 1 <= box <= boxes:
            raise TapeteError("bad-target", f"bet {bet.id}: 'box' is a box number 1-{boxes} (1 = the croupier's left)",
                              bet=bet.id, source=source)
        return box

    @staticmethod
    def act_fields(act: Act, allowed: Sequence[str], bet: str | None) -> None:
        extra = set(act.fields) - set(allowed)
        if "amount" in extra:
            raise TapeteError("illegal-action", f"{act.do!r} takes no amount: what it adds is fixed by the rules", bet=bet)
        if extra:
            raise TapeteError("bad-document", f"unknown act keys {sorted(extra)} for {act.do!r}", bet=bet)

    @staticmethod
    def card_list(value: object, what: str, bet: str | None) -> list[str]:
        if not isinstance(value, list):
            raise TapeteError("bad-document", f"{what} is a list of cards", bet=bet)
        cards = [parse_card(c, jokers=1).text for c in value]
        if len(set(cards)) != len(cards):
            raise TapeteError("bad-card", f"{what} names a card twice", bet=bet)
        return cards
