"""What the two player-banked baccarats share: hands with their irregular states, the bank as an account
(the banker's bet, his associates, the garage), the puntos' stakes and their coverage, and seat priority.

Both games keep everything as plain dataclasses so a state survives a JSON round trip between any two events.
Money stays exact; the settlement document rounds once (R: docs/rulings.md#baccarat-circle-rounding).

`PlayerBankedGame` is the table's life the two share: the reducer, the coup's end and its annulment, the deal's
cards, the stages common to both coups (the bank's natural, its draw and its card), the settlement document and
the live-table questions. Where the same rule has its own article or its own words in each catalog, the game
names them (`title`, `close_call`, `deal_source`, `burn_source`, `void_source`, `stop_card_source`, ...).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import own_citations
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, Game
from tapete.engine.settlement import BetResult, Settlement
from tapete.engine.shoe import Shoe
from tapete.games.baccarat import tableau


@dataclass
class Hand:
    """One hand. `zero_from` drops cards that count nothing (a banker's over-deal, 001:896); `forced_total` is a
    total the rules impose (deemed 9, 001:900; thrown unseen, 0, 001:1078)."""

    cards: list[str] = field(default_factory=list)
    zero_from: int = 0
    forced_total: int | None = None
    abated: bool = False              # showed a natural
    forgot_abat: bool = False         # held a natural and let the moment pass (001:904, 001:918, 001:1070)
    drew: bool | None = None          # the third-card decision, once taken
    thrown: bool = False

    def total(self) -> int:
        if self.forced_total is not None:
            return self.forced_total
        return tableau.total(self.cards[self.zero_from:])

    def natural(self) -> bool:
        """A two-card 8 or 9 that may still be shown."""
        return (self.forced_total is None and self.zero_from == 0 and not self.forgot_abat
                and tableau.is_natural(self.cards))

    def two_card(self) -> bool:
        return len(self.cards) - self.zero_from == 2 and self.forced_total is None

    def third(self) -> str | None:
        return self.cards[2] if len(self.cards) >= 3 and self.zero_from == 0 else None

    def column(self) -> int:
        """The table column this hand gives the bank: its third card's value, P if it stood."""
        return tableau.column(self.third()) if self.drew else tableau.STAND

    def show(self) -> str:
        shown = " ".join(self.cards) if self.cards else "—"
        return f"{shown} = {self.total()}"


@dataclass
class BankAccount:
    """The bank as money: each contributor's part of what it holds (the banker's bet and his associates share
    every result pro rata, 001:751), what is garaged, and the net winnings not yet garaged."""

    id: str
    player: str
    seat: int | None
    behind: int | None
    initial: int
    parts: dict[str, Fraction] = field(default_factory=dict)
    garaged: dict[str, Fraction] = field(default_factory=dict)
    staked: dict[str, int] = field(default_factory=dict)
    free_winnings: Fraction = Fraction(0)
    all_goes: bool = False
    coups: int = 0
    active: bool = True
    ended: str | None = None         # lost | passed | jumped | withdrawn
    associates: list[str] = field(default_factory=list)   # the players of its shares (001:751, 001:767)

    @property
    def holding(self) -> Fraction:
        return sum(self.parts.values(), Fraction(0))

    @property
    def garage(self) -> Fraction:
        return sum(self.garaged.values(), Fraction(0))

    def add(self, contributor: str, amount: int) -> None:
        self.parts[contributor] = self.parts.get(contributor, Fraction(0)) + amount
        self.garaged.setdefault(contributor, Fraction(0))
        self.staked[contributor] = self.staked.get(contributor, 0) + amount

    def result(self, delta: Fraction) -> None:
        """Add (or take) `delta` pro rata to what each contributor holds."""
        total = self.holding
        if total == 0:
            return
        for k in self.parts:
            self.parts[k] += delta * self.parts[k] / total

    def to_garage(self, amount: Fraction) -> None:
        total = self.holding
        for k in self.parts:
            share = amount * self.parts[k] / total
            self.parts[k] -= share
            self.garaged[k] += share

    def returned(self, contributor: str) -> Fraction:
        return self.parts.get(contributor, Fraction(0)) + self.garaged.get(contributor, Fraction(0))


@dataclass
class Stake:
    """A punto's stake for one coup; `accepted` is the part the bank covers (after halving a line stake)."""

    id: str
    player: str
    amount: int
    coup: int
    order: int
    seat: int | None = None
    behind: int | None = None
    line: bool = False
    call: str | None = None           # banco | banco-with-table | last-completes
    sides: list[int] = field(default_factory=list)      # dos paños: the paños it plays (a caballo: both)
    parts: list[Fraction] = field(default_factory=list)  # dos paños: the amount playing on each side
    accepted: list[Fraction] = field(default_factory=list)
    final: str = "open"               # open | settled | void
    returned: Fraction = Fraction(0)

    @property
    def playing(self) -> Fraction:
        """What plays: half of a stake on the line (001:924; 001:1022)."""
        return Fraction(self.amount, 2) if self.line else Fraction(self.amount)

    @property
    def covered(self) -> Fraction:
        return sum(self.accepted, Fraction(0))

    @property
    def staked(self) -> Fraction:
        """A stake cut down by the coverage counts only its accepted part (docs/vocabulary.md §2, Money)."""
        return self.covered * 2 if self.line else self.covered

    @property
    def seated(self) -> bool:
        return self.seat is not None


def seat_fields(bet_id: str, extra: dict[str, Any], *, required: bool = True) -> tuple[int | None, int | None]:
    seat, behind = extra.get("seat"), extra.get("behind")
    if seat is not None and behind is not None:
        raise TapeteError("bad-document", f"bet {bet_id}: name a seat or the seat it stands behind, not both", bet=bet_id)
    for name, value in (("seat", seat), ("behind", behind)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
            raise TapeteError("bad-document", f"bet {bet_id}: {name} is a department number (1, 2, ...)", bet=bet_id)
    if required and seat is None and behind is None:
        raise TapeteError("bad-document", f"bet {bet_id}: a seat or 'behind' (the seat a standing player stands behind) "
                          "is needed for the order of priority", bet=bet_id)
    return seat, behind


def check_line(bet_id: str, extra: dict[str, Any]) -> bool:
    line = extra.get("line", False)
    if not isinstance(line, bool):
        raise TapeteError("bad-document", f"bet {bet_id}: line is true or false", bet=bet_id)
    return line


def rotation_key(stake: Stake, banker_seat: int, departments: int) -> tuple[int, int, int]:
    """Seated before standing; from the seat at the banker's right onwards; then document order (001:731)."""
    place = stake.seat if stake.seat is not None else stake.behind or 0
    distance = (place - banker_seat - 1) % max(departments, 1)
    return (0 if stake.seated else 1, distance, stake.order)


def accept(stakes: Iterable[Stake], capacity: Fraction, side: int = 0) -> Fraction:
    """Cover stakes in the given order until the bank in play is exhausted; returns what is left uncovered."""
    left = capacity
    for s in stakes:
        want = s.parts[side] if s.parts else s.playing
        take = min(want, left)
        while len(s.accepted) <= side:
            s.accepted.append(Fraction(0))
        s.accepted[side] = take
        left -= take
    return left


def settle_stake(stake: Stake, results: list[int]) -> Fraction:
    """Settle a stake from its sides' results (+1 the punto wins, -1 the bank wins, 0 a tie): the stake's money
    lost to the bank (negative when the bank pays)."""
    to_bank = Fraction(0)
    for amount, r in zip(stake.accepted, results, strict=False):
        to_bank -= amount * r
    stake.returned = stake.staked - to_bank
    stake.final = "settled"
    return to_bank


class Articles(dict[str, str]):
    """National citation -> the same article in every catalog ('001:x; 000:y; 002:z; 003:w'): a refusal written
    once cites, in a regional document, that jurisdiction's own article (own_citations)."""

    def cite(self, national: str, jurisdiction: str) -> str:
        parts = (part.strip() for part in national.split(";"))
        return "; ".join(own_citations(self[p], jurisdiction) if p in self else p for p in parts)


def draw_card(shoe: Shoe | None, rules_source: str) -> str:
    if shoe is None:
        raise TapeteError("shoe-exhausted", "this game is dealt from a shoe: the document has none", source=rules_source)
    return str(shoe.draw())


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- the table's life -----------------------------------------------------------------------------------------
class HoldsBanks:
    """The state of a player-banked table keeps every bank it had in `banks`; at most one is in play."""

    banks: list[BankAccount]

    def bank(self) -> BankAccount | None:
        return next((b for b in self.banks if b.active), None)


class PlayerBankedGame(Game):
    """What chemin de fer and dos paños do alike. A game supplies its stages (`SHOWDOWN`, `DONE`), its verbs,
    its bets and decisions, and the catalog's words and articles where the shared logic speaks or cites."""

    uses_shoe = True
    player_banked = True
    BANK: int                  # the stages both coups end with: the bank's word, its card, the showdown, done
    BANK_CARD: int
    SHOWDOWN: int
    DONE: int
    bet_kinds: tuple[str, ...]
    play_verbs: tuple[str, ...]
    money_verbs: tuple[str, ...]
    irregularities: tuple[str, ...]
    hands: tuple[str, ...]
    title: str                 # the game as a message names it
    close_call: str            # the croupier's words when the bets close
    deal_size: int             # the cards of the deal
    deal_source: str           # the order of the deal
    burn_source: str           # a card out face up in the deal is burned
    early_draw_source: str     # cards drawn before the bets closed
    early_discard: str         # ... discarded, in the catalog's words
    early_kept: str            # ... kept in the coup, in the catalog's words
    void_source: str           # a coup annulled: the stakes returned
    void_before_deal: str      # what the log adds when the annulled coup was not yet dealt
    stop_card_source: str      # the stop card ends the partida with the coup

    # -- hooks -----------------------------------------------------------------------------------------------
    def cited(self, state: Any, source: str) -> str:
        """`source` (a national article) as the document's jurisdiction cites it; a game with an articles table
        (chemin de fer, dos paños) answers with that jurisdiction's own article."""
        return source

    def deal(self, state: Any, rules: Any) -> Any:
        raise NotImplementedError

    def _bank_bet(self, state: Any, rules: Any, bet: Bet) -> None:
        raise NotImplementedError

    def _award(self, state: Any, rules: Any) -> None:
        """Award the bank among the offers made for it, where the game decides between several."""

    def _stake(self, state: Any, rules: Any, bet: Bet) -> None:
        raise NotImplementedError

    def _call(self, state: Any, rules: Any, act: Act, stake: Stake) -> None:
        raise NotImplementedError

    def _bank_act(self, state: Any, rules: Any, act: Act, bank: BankAccount) -> None:
        raise NotImplementedError

    def _step(self, state: Any, rules: Any, coup: Any, default: bool) -> bool:
        raise NotImplementedError

    def _showdown(self, state: Any, rules: Any, coup: Any) -> None:
        raise NotImplementedError

    def _handlers(self) -> dict[str, Callable[[Any, Any, Any, Act], None]]:
        """The verbs played on a coup in progress, each with its handler."""
        raise NotImplementedError

    @staticmethod
    def _due(coup: Any) -> str:
        raise NotImplementedError

    def _whose(self, coup: Any) -> str:
        """Whose free decision stopped the coup at its stage."""
        raise NotImplementedError

    def _no_limits(self, rules: Any) -> TapeteError:
        raise NotImplementedError

    def _bank_forced(self, coup: Any) -> bool | None:
        """True/False when the bank's draw is forced, None when he is free."""
        raise NotImplementedError

    def _bank_default(self, coup: Any) -> bool:
        """The bank's draw when his free decision is not written."""
        raise NotImplementedError

    def _coup_waiting(self, state: Any) -> bool:
        """An act with no coup dealt: whether the next coup has stakes, so the act deals it."""
        raise NotImplementedError

    def verbs(self) -> list[str]:
        return list(self.play_verbs + self.money_verbs + self.irregularities)

    def _table_minimum(self, table: dict[str, Any], what: str) -> int:
        known = {t.key for t in self.table_keys()}
        for key in table:
            if key not in known:
                raise TapeteError("bad-document", f"unknown table key {key!r} for {self.id} (known: {', '.join(sorted(known))})")
        m = table.get("minimum")
        if not is_int(m) or m <= 0:
            raise TapeteError("bad-document", f"table.minimum ({what}) is required")
        return m

    # -- the reducer -------------------------------------------------------------------------------------------
    def apply(self, state: Any, event: Event) -> None:
        rules = self.rules[state.jurisdiction]
        if not (isinstance(event, Bet) and event.kind == "bank"):
            self._award(state, rules)            # offers for the bank close with the next other event
        if isinstance(event, Bet):
            self._end_coup(state, rules)
            self._bet(state, rules, event)
        elif isinstance(event, Deal):
            self._end_coup(state, rules)
            self.deal(state, rules)
        elif isinstance(event, Act):
            self._act(state, rules, event)
        elif isinstance(event, Close):
            self._end_coup(state, rules)
            state.closed = True
            state.log.append(self.close_call)
        elif isinstance(event, Void):
            self._void(state, rules, event.reason)
        elif isinstance(event, Limits):
            raise self._no_limits(rules)
        elif isinstance(event, Outcome):
            raise TapeteError("bad-document", f"{self.title} is dealt from the shoe: use deal")
        else:  # pragma: no cover
            raise TapeteError("bad-document", f"unexpected event {event!r}")

    def _next_coup(self, state: Any) -> int:
        return len(state.coups) + 1

    def _bet(self, state: Any, rules: Any, bet: Bet) -> None:
        ids = {s.id for s in state.stakes} | {k for b in state.banks for k in b.staked}   # banks and their shares
        if bet.id in ids:
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.kind not in self.bet_kinds:
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: {self.title} has bets {', '.join(self.bet_kinds)}",
                              bet=bet.id)
        self._place(state, rules, bet)

    def _place(self, state: Any, rules: Any, bet: Bet) -> None:
        if bet.kind == "bank":
            self._bank_bet(state, rules, bet)
        else:
            self._stake(state, rules, bet)

    def _open_bank(self, state: Any, bet: Bet, seat: int | None, behind: int | None) -> BankAccount:
        bank = BankAccount(bet.id, bet.player, seat, behind, bet.amount)
        bank.add(bet.id, bet.amount)
        state.banks.append(bank)
        return bank

    def end_bank(self, state: Any, bank: BankAccount, why: str) -> None:
        bank.active = False
        bank.ended = why

    # -- acts ----------------------------------------------------------------------------------------------------
    def _money_act(self, state: Any, rules: Any, act: Act) -> None:
        stake = next((s for s in state.stakes if s.id == act.bet), None)
        bank = next((b for b in state.banks if b.id == act.bet), None)
        if stake is not None:
            self._call(state, rules, act, stake)
        elif bank is not None:
            self._end_coup(state, rules)
            self._bank_act(state, rules, act, bank)
        else:
            self._no_bet(state, act)

    def _no_bet(self, state: Any, act: Act) -> None:
        raise TapeteError("bad-document", f"act names no bet of this document ({act.bet!r})")

    def _act(self, state: Any, rules: Any, act: Act) -> None:
        if act.bet is not None:
            if act.do in self.irregularities or act.do in self.play_verbs:
                raise TapeteError("bad-document", f"{act.do}: card play and irregularities name the hand (act.by)",
                                  bet=act.bet)
            self._money_act(state, rules, act)
            return
        if act.by not in self.hands:
            raise TapeteError("bad-document", f"act.by is one of {', '.join(self.hands)} in {self.title}")
        if act.do in ("early-draw", "burn-exposed") and self._before_deal(state):
            self._before_deal_act(state, rules, act)
            return
        coup = state.current
        if coup is None or coup.stage == self.DONE:
            if self._coup_waiting(state):
                coup = self.deal(state, rules)          # a single-coup document may omit the deal
            else:
                raise TapeteError("out-of-turn", f"{act.by} {act.do}: no coup is being played")
        handler = self._handlers().get(act.do)
        if handler is None:
            raise TapeteError("illegal-action", f"{act.do!r} is not a verb of {self.title}")
        handler(state, rules, coup, act)

    def _before_deal(self, state: Any) -> bool:
        return state.current is None or state.current.stage == self.DONE

    def _before_deal_act(self, state: Any, rules: Any, act: Act) -> None:
        """A card out face up before the deal is burned when the deal reaches it (`burn_source`); cards drawn
        before the bets closed stay in the coup and close the betting, or are discarded (`early_draw_source`)."""
        self._end_coup(state, rules)
        if act.do == "burn-exposed":
            last = self.deal_size - 1
            at = act.fields.get("at", 0)
            if not is_int(at) or not 0 <= at <= last:
                raise TapeteError("bad-document", f"burn-exposed 'at': the position in the deal, 0-{last}")
            state.burn_at.append(at + len(state.burn_at))
            return
        count = act.fields.get("count", 1)
        if not is_int(count) or count < 1:
            raise TapeteError("bad-document", "early-draw 'count' is a positive number of cards")
        if act.fields.get("discard", False):
            for _ in range(count):
                card = draw_card(state.shoe, self.cited(state, self.early_draw_source))
                state.log.append(f"{card} drawn too early: {self.early_discard} ({self.cited(state, self.early_draw_source)})")
        else:
            state.closed = True
            state.log.append(self.early_kept)

    def _reach(self, state: Any, rules: Any, coup: Any, stage: int, act: Act) -> None:
        """Advance through forced stages to `stage`; a free decision on the way is out of turn."""
        while coup.stage < stage:
            if not self._step(state, rules, coup, default=False):
                raise TapeteError("out-of-turn", f"{act.by} {act.do}: a decision is due first ({self._due(coup)})")
        if coup.stage > stage:
            raise TapeteError("out-of-turn", f"{act.by} {act.do}: too late in the coup ({self._due(coup)})")

    def _too_late(self, state: Any, rules: Any, coup: Any, act: Act) -> None:
        raise TapeteError("out-of-turn", "early-draw: the cards are already dealt")

    def _burn_now(self, state: Any, rules: Any, coup: Any, act: Act) -> None:
        card = draw_card(state.shoe, self.cited(state, self.burn_source))
        state.log.append(f"{card} comes out face up: it is burned; stakes stay ({self.cited(state, self.burn_source)})")

    # -- the deal and the stages both coups play ---------------------------------------------------------------
    def _deal_cards(self, state: Any) -> list[str]:
        """The deal's cards in the order dealt (`deal_source`); a card marked to come out face up is burned."""
        drawn: list[str] = []
        position = 0
        while len(drawn) < self.deal_size:
            card = draw_card(state.shoe, self.cited(state, self.deal_source))
            if position in state.burn_at:
                state.log.append(f"{card} comes out face up: it is burned ({self.cited(state, self.burn_source)})")
            else:
                drawn.append(card)
            position += 1
        state.burn_at = []
        return drawn

    def _third_card(self, state: Any, coup: Any) -> str:
        return draw_card(state.shoe, "001:811")

    def _bank_abats(self, state: Any, coup: Any) -> bool:
        """The banker shows a natural (one he has not thrown away)."""
        if coup.banker.natural() and not coup.banker.thrown:
            coup.banker.abated = True
            state.log.append(f"the banker abats: {coup.banker.show()}")
            return True
        return False

    def _bank_draws(self, state: Any, coup: Any, default: bool) -> bool:
        """The bank's word, forced or (when the events ran out) its default; False when it is his free decision."""
        forced = self._bank_forced(coup)
        if forced is None:
            if not default:
                return False
            forced = self._bank_default(coup)
        coup.banker.drew = forced
        state.log.append(f"banca {coup.banker.total()}: {'carta' if forced else 'se planta'}")
        return True

    def _bank_card(self, state: Any, coup: Any) -> None:
        if coup.banker.drew:
            card = self._third_card(state, coup)
            coup.banker.cards.append(card)
            state.log.append(f"third card to the bank, face up: {card}")

    def _bank_stages(self, state: Any, rules: Any, coup: Any, default: bool) -> bool:
        """Play the stages both coups end with; False when the bank's free decision is not written."""
        if coup.stage == self.BANK:
            if not self._bank_draws(state, coup, default):
                return False
            coup.stage = self.BANK_CARD
        elif coup.stage == self.BANK_CARD:
            self._bank_card(state, coup)
            coup.stage = self.SHOWDOWN
        elif coup.stage == self.SHOWDOWN:
            self._showdown(state, rules, coup)
            coup.stage = self.DONE
        return True

    def _coup_stakes(self, state: Any, coup: Any) -> tuple[BankAccount, list[Stake]]:
        """The coup's bank and stakes; an annulled coup returns every stake."""
        bank = next(b for b in state.banks if b.id == coup.bank)
        stakes = [s for s in state.stakes if s.id in coup.stakes]
        if coup.void:
            for s in stakes:
                s.final, s.returned = "void", Fraction(s.amount)
        return bank, stakes

    def _check_stop_card(self, state: Any) -> None:
        if state.shoe is not None and state.shoe.cut_reached:
            state.stop_card_out = True
            state.log.append(f"the stop card has come out: the partida ends with this coup ({self.cited(state, self.stop_card_source)})")

    # -- the coup's end ----------------------------------------------------------------------------------------
    def _end_coup(self, state: Any, rules: Any) -> None:
        """The coup's events ran out: every decision still due takes its default (docs/vocabulary.md §0.2)."""
        coup = state.current
        if coup is None:
            return
        while coup.stage != self.DONE:
            self._step(state, rules, coup, default=True)
        state.coups.append(coup)
        state.current = None
        state.closed = False

    def _annul(self, coup: Any) -> None:
        coup.void = True

    def _void(self, state: Any, rules: Any, reason: str) -> None:
        """The coup in progress is annulled and its stakes returned (`void_source`); before the deal, the next
        coup's stakes are returned."""
        coup = state.current
        if coup is not None and coup.stage < self.DONE:
            self._annul(coup)
            coup.stage = self.SHOWDOWN
            self._showdown(state, rules, coup)
            coup.stage = self.DONE
            self._end_coup(state, rules)
            state.log.append(f"coup {coup.number} annulled ({reason}): stakes returned ({self.cited(state, self.void_source)})")
            return
        number = self._next_coup(state)
        for s in state.stakes:
            if s.coup == number and s.final == "open":
                s.final, s.returned, s.coup = "void", Fraction(s.amount), -1
        state.closed = False
        state.log.append(f"the coup is annulled before the deal ({reason}){self.void_before_deal}")

    def finish(self, state: Any) -> Any:
        rules = self.rules[state.jurisdiction]
        self._award(state, rules)
        self._end_coup(state, rules)
        if state.bank() is not None and any(s.coup == self._next_coup(state) and s.final == "open" for s in state.stakes):
            self.deal(state, rules)
            self._end_coup(state, rules)
        for bank in state.banks:
            if bank.active:
                self.end_bank(state, bank, "withdrawn")    # settled as withdrawn (docs/vocabulary.md §2)
        return state

    def settle(self, state: Any) -> Settlement:
        results: dict[str, BetResult] = {}
        for bank in state.banks:
            for contributor, staked in bank.staked.items():
                ret = bank.returned(contributor)
                if bank.active:
                    results[contributor] = BetResult.pending(Fraction(staked), at_risk=ret)
                else:
                    results[contributor] = BetResult(Fraction(staked), ret)
        for s in state.stakes:
            if s.final == "settled":
                results[s.id] = BetResult(s.staked, s.returned)
            elif s.final == "void":
                results[s.id] = BetResult.voided(Fraction(s.amount))
            else:
                results[s.id] = BetResult.pending(Fraction(s.amount), at_risk=s.playing)
        rounds = sum(1 for c in state.coups if not c.void)
        return Settlement(self.id, state.jurisdiction, results, commission=state.commission, rounds=rounds,
                          log=list(state.log))

    # -- a live table ------------------------------------------------------------------------------------------
    def due(self, state: Any) -> str | None:
        """For a live table: play the forced stages of the coup in progress and say whose free decision is due,
        or None once the coup is settled (it is then closed)."""
        coup = state.current
        rules = self.rules[state.jurisdiction]
        if coup is None:
            return None
        while coup.stage != self.DONE:
            if not self._step(state, rules, coup, default=False):
                return self._whose(coup)
        self._end_coup(state, rules)
        return None

    def advance(self, state: Any) -> Any:
        """A live table: the coup's forced stages (a forced word, the third cards, face up) are played up to the
        next free decision or the showdown."""
        coup = state.current
        rules = self.rules[state.jurisdiction]
        while coup is not None and coup.stage < self.SHOWDOWN and self._step(state, rules, coup, default=False):
            pass
        return state

    def end_round(self, state: Any) -> Any:
        """A live table's coup is over: its defaults apply and the bank carries to the next coup, unless the
        stop card came out (the partida ends: a bank still held is withdrawn, `stop_card_source`)."""
        self._end_coup(state, self.rules[state.jurisdiction])
        return self.finish(state) if state.stop_card_out else state

    def _banker(self, state: Any) -> str | None:
        """The player holding the bank of the coup in progress (or the bank in play)."""
        coup = state.current
        bank = next((b for b in state.banks if coup is not None and b.id == coup.bank), None) or state.bank()
        return bank.player if bank is not None else None

    def _decisions(self, state: Any) -> list[Action] | None:
        """A coup in progress: the decisions now due (played forward on a copy), or the deal; None between coups."""
        coup = state.current
        if coup is None or coup.stage == self.DONE:
            return None
        who = self.due(copy.deepcopy(state))      # the forced stages played on a copy: whose decision is next
        if who is None:
            return [Action("deal")]
        if who == "bank":
            return [Action("draw", by="bank"), Action("stand", by="bank"), Action("cuadro", by="bank")]
        return [Action("draw", by=who), Action("stand", by=who)]

    def chance(self, state: Any) -> list[tuple[Event, Fraction]]:
        """Nothing for the generic solver: the exact analysis enumerates shoe compositions (analysis/baccarat.py)."""
        return []
