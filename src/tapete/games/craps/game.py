"""The craps reducer: the come-out and the point, bets that travel and ride, odds that follow their bet.

One class serves the four catalogs; a jurisdiction is its `CrapsRules`. Every bet is judged on the roll
by its own state before the roll (spec §5.3: a come bet that travels on this roll is not also judged on
its new number), then the puck moves and, on a seven-out, the dice pass to the next player.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.money import euros, format_ratio
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, EdgeCase, Game, KindInfo, TableKey
from tapete.engine.settlement import BetResult, Settlement
from tapete.games.craps.rules import (
    ALL_KINDS,
    HARDWAYS,
    LINE,
    MULTIPLE,
    ONE_ROLL,
    ONE_ROLL_WINS,
    RIGHT,
    SIMPLE,
    CrapsRules,
)

COME_OUT, POINT = "come-out", "point"
WORKING, DONE, REMOVED = "working", "done", "removed"
TARGETED = ("hardway", "place", "place-to-lose")
DESCRIPTIONS = {
    "pass": "Win: 7/11 win and 2/3/12 lose on the come-out, then the point before 7",
    "dont-pass": "Don't Win, bar 12: 2/3 win, 7/11 lose, 12 null on the come-out, then 7 before the point",
    "come": "Come: a pass bet of its own, made while a point is on",
    "dont-come": "Don't Come, bar 12: a don't-pass bet of its own, made while a point is on",
    "field": "Field, one roll: 2 3 4 9 10 11 12 (2 and 12 pay 2:1)",
    "big-6": "Big 6: any 6 before 7", "big-8": "Big 8: any 8 before 7",
    "under-7": "Under 7, one roll: 2-6", "over-7": "Over 7, one roll: 8-12",
    "hardway": "Hard Ways [4/6/8/10]: the double before 7 or the easy way (4 and 10 pay 7:1, 6 and 8 9:1)",
    "any-seven": "Juego de 7, one roll", "eleven": "Juego de 11, one roll", "any-craps": "Any Craps: 2 3 12, one roll",
    "craps-2": "Craps 2, one roll", "craps-3": "Craps 3, one roll", "craps-12": "Craps 12, one roll",
    "horn": "Horn: 2 3 11 12, one roll, one bet at 4:1",
    "odds": "Suerte asociada (on: the id of its line or come bet): true odds; lay odds on the don'ts",
    "place": "Right Bet [4/5/6/8/9/10]: the number before 7",
    "place-to-lose": "Wrong Bet [4/5/6/8/9/10]: 7 before the number",
}
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
                10: "ten", 11: "eleven", 12: "twelve"}


@dataclass
class CrapsLimits:
    """The table's limits and options in force (cents), from the `table` keys and the jurisdiction's rules."""

    minimum: int
    maximum: int                 # M: simple bets
    maximum_multiple: int        # the largest win a multiple bet may offer: k x max, between M and 3M
    place_8: bool = True
    off_on_come_out: bool = False
    remove_dont_and_come: bool = False
    whole_cents: bool = False


@dataclass
class CrapsBet:
    id: str
    player: str
    kind: str
    amount: int
    number: int | None = None    # place/hardway target; a line or come bet's number once it travelled
    parent: str | None = None    # odds: the id of its line or come bet
    side: str | None = None      # odds: the kind of its parent
    status: str = WORKING        # working | done | removed
    ties: int = 0                # bar-12 nulls met while a don't awaited its first decision
    returned: Fraction = Fraction(0)
    seq: int = 0                 # order of placement (the settlement lists bets in it)


@dataclass
class CrapsState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    limits: CrapsLimits
    phase: str = COME_OUT
    point: int | None = None
    shooter: int = 1             # seats in order from the croupiers' left; a seven-out passes the dice on
    bets: list[CrapsBet] = field(default_factory=list)            # on the layout, working
    decided: dict[str, CrapsBet] = field(default_factory=dict)    # won, lost or taken down
    placed: int = 0
    closed: bool = False         # ya no va más
    rounds: int = 0
    void_rolls: int = 0
    die_missing: bool = False    # a die went to the floor during this shooter's round
    history: list[list[int]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class CrapsGame(Game):
    id = "craps"
    name_es = "Dados o craps"
    name_en = "Craps"
    outcome_names = ("roll",)

    def __init__(self, rules: dict[str, CrapsRules]) -> None:
        self._rules = rules

    @property
    def rules(self) -> dict[str, CrapsRules]:  # type: ignore[override]
        return self._rules

    def state_type(self) -> type:
        return CrapsState

    # -- description -------------------------------------------------------------------------------
    def kinds(self) -> list[KindInfo]:
        r = self._rules["ES"]
        pays: dict[str, str | None] = {k: "1:1" for k in SIMPLE}
        pays.update({k: format_ratio(v) for k, v in r.one_roll_payouts.items() if k != "field"})
        pays.update(field="1:1 (2:1 on 2 and 12)", hardway="7:1 on 4/10, 9:1 on 6/8", odds="true odds",
                    place="9:5 on 4/10, 7:5 on 5/9, 7:6 on 6/8", **{"place-to-lose": "5:11 on 4/10, 5:8 on 5/9, 4:5 on 6/8"})
        return [KindInfo(k, pays[k], DESCRIPTIONS[k]) for k in ALL_KINDS]

    def verbs(self) -> list[str]:
        return ["remove"]

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="authorised table minimum, cents; it applies to every bet"),
            TableKey("maximum", default=None, description="M, the simple-bet maximum: 100m-1000m (ES-IB 20m-1000m); default 1000 x minimum"),
            TableKey("maximum-multiple", default=None, description="the largest win k x max a k:1 multiple bet may offer, between M and 3M; default 3M"),
            TableKey("place-8", default=True, description="8 is a right/wrong bet number (docs/rulings.md#craps-place-8)"),
            TableKey("off-on-come-out", default=False, description="place, wrong, hardway bets and come odds do not work on come-out rolls (a casino practice the texts do not have)"),
            TableKey("remove-dont-and-come", default=False, description="don't-pass, come and don't-come bets may be taken down (the texts are silent)"),
            TableKey("whole-cents", default=False, description="refuse a stake whose payout is not a whole number of cents, instead of rounding in the player's favour"),
            TableKey("rounding", default="player", description="fractions of a cent: 'player' (docs/format.md) or 'house'"),
            TableKey("shooter", default=None, description="the player who throws the dice until the first seven-out; "
                     "he must have a Win or Don't Win bet working at each roll (docs/rulings.md#craps-shooter-line-bet)"),
        ]

    # -- table and limits --------------------------------------------------------------------------
    def _limits(self, rules: CrapsRules, table: dict[str, Any]) -> CrapsLimits:
        known = {t.key for t in self.table_keys()}
        for key in table:
            if key not in known:
                raise TapeteError("bad-document", f"unknown table key {key!r} for craps (known: {', '.join(sorted(known))})")
        m = table.get("minimum")
        if not _is_int(m) or m <= 0:
            raise TapeteError("bad-document", "table.minimum (the authorised minimum, in cents) is required and must be a positive integer")
        low, high = rules.simple_maximum
        big = table.get("maximum", high * m)
        if not _is_int(big) or not low * m <= big <= high * m:
            raise TapeteError("bad-table", f"maximum {big!r} must lie between {low} and {high} times the minimum {m} "
                              f"in {rules.jurisdiction}", source=rules.sources["simple_maximum"])
        lo_k, hi_k = rules.multiple_maximum
        multiple = table.get("maximum-multiple", hi_k * big)
        if not _is_int(multiple) or not lo_k * big <= multiple <= hi_k * big:
            raise TapeteError("bad-table", f"maximum-multiple {multiple!r} (the largest win k x max of a multiple bet) must lie "
                              f"between the simple maximum {big} and three times it", source=rules.sources["multiple_maximum"])
        flags = {}
        for key, default in (("place-8", True), ("off-on-come-out", False), ("remove-dont-and-come", False),
                             ("whole-cents", False)):
            value = table.get(key, default)
            if not isinstance(value, bool):
                raise TapeteError("bad-document", f"table.{key} must be true or false")
            flags[key.replace("-", "_")] = value
        if table.get("rounding", "player") not in ("player", "house"):
            raise TapeteError("bad-document", "rounding must be 'player' or 'house'")
        if table.get("shooter") is not None and not isinstance(table["shooter"], str):
            raise TapeteError("bad-document", "table.shooter is the name of the player who throws the dice")
        return CrapsLimits(minimum=m, maximum=big, maximum_multiple=multiple, **flags)

    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> CrapsState:
        rules = self.rules_for(jurisdiction)
        if shoe is not None:
            raise TapeteError("bad-document", "craps is not a card game: a shoe is not accepted")
        return CrapsState(self.id, jurisdiction, dict(table), self._limits(rules, table))

    def step(self, state: CrapsState, event: Event) -> CrapsState:
        """Apply one event to a copy (a shallow copy of the table with fresh bets: the exact solver steps often)."""
        new = copy.copy(state)
        new.bets = [copy.copy(b) for b in state.bets]
        new.decided = dict(state.decided)          # decided bets never change again
        new.history = list(state.history)
        new.log = list(state.log)
        self.apply(new, event)
        return new

    # -- the reducer -------------------------------------------------------------------------------
    def apply(self, state: CrapsState, event: Event) -> None:
        rules = self._rules[state.jurisdiction]
        if isinstance(event, Bet):
            self._bet(state, rules, event)
        elif isinstance(event, Outcome):
            self._roll(state, rules, event)
        elif isinstance(event, Act):
            self._act(state, rules, event)
        elif isinstance(event, Close):
            state.closed = True
            state.log.append("ya no va más")
        elif isinstance(event, Void):
            self._void(state, rules, event)
        elif isinstance(event, Limits):
            raise TapeteError("illegal-action", "the craps sections provide no change of limits during a session: "
                              "they are those of the casino's authorisation",
                              source=rules.sources["simple_maximum"] + "; R: docs/rulings.md#craps-limits-fixed")
        elif isinstance(event, Deal):
            raise TapeteError("bad-document", "craps has no deal: the dice are rolled ({\"roll\": [d1, d2]})")
        else:  # pragma: no cover - the parser builds only the events above
            raise TapeteError("bad-document", f"unknown event {event!r}")

    def _bet(self, state: CrapsState, rules: CrapsRules, bet: Bet) -> None:
        if state.closed:
            raise TapeteError("bet-closed", f"bet {bet.id}: no bet may be made after «ya no va más»",
                              source=_closing(rules), bet=bet.id)
        if bet.id in state.decided or any(b.id == bet.id for b in state.bets):
            raise TapeteError("bad-document", f"bet id {bet.id!r} used twice", bet=bet.id)
        if bet.extra:
            raise TapeteError("bad-document", f"unknown bet keys {sorted(bet.extra)}", bet=bet.id)
        if bet.kind not in rules.kinds:
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: {bet.kind!r} is not a craps bet of the catalog "
                              f"({', '.join(rules.kinds)})", source=rules.sources["kinds"], bet=bet.id)
        if not _is_int(bet.amount) or bet.amount <= 0:
            raise TapeteError("bad-document", f"bet {bet.id}: amount must be a positive integer (cents)", bet=bet.id)
        new = CrapsBet(bet.id, bet.player, bet.kind, bet.amount)
        self._target(state, rules, bet, new)
        self._timing(state, rules, new)
        self.check_amount(state, rules, new)
        new.seq = state.placed
        state.placed += 1
        state.bets.append(new)

    def _target(self, state: CrapsState, rules: CrapsRules, bet: Bet, new: CrapsBet) -> None:
        """Read `on`: a number for hardways and place bets, a bet id for odds, nothing otherwise."""
        on = bet.on
        if bet.kind == "odds":
            if not on or len(on) != 1 or not isinstance(on[0], str):
                raise TapeteError("bad-target", f"bet {bet.id}: odds take 'on': the id of their line or come bet", bet=bet.id)
            parent = next((b for b in state.bets if b.id == on[0]), None) or state.decided.get(on[0])
            self._check_parent(rules, bet, parent)
            assert parent is not None
            new.parent, new.side, new.number = parent.id, parent.kind, parent.number
            return
        if bet.kind not in TARGETED:
            if on:
                raise TapeteError("bad-target", f"bet {bet.id}: {bet.kind} takes no 'on'", bet=bet.id)
            return
        numbers = HARDWAYS if bet.kind == "hardway" else self.place_numbers(rules, state.limits)
        if not on or len(on) != 1 or not _is_int(on[0]) or on[0] not in numbers:
            source = rules.sources["hardway_payouts" if bet.kind == "hardway" else "place_numbers"]
            raise TapeteError("bad-target", f"bet {bet.id}: {bet.kind} takes 'on': one of {list(numbers)}", source=source, bet=bet.id)
        new.number = on[0]

    @staticmethod
    def place_numbers(rules: CrapsRules, limits: CrapsLimits) -> tuple[int, ...]:
        return tuple(n for n in rules.place_numbers if n != 8 or limits.place_8)

    def _check_parent(self, rules: CrapsRules, bet: Bet, parent: CrapsBet | None) -> None:
        """Odds only on a line or come bet of the same player whose point is known (000:642)."""
        source = f"{_seed(rules)}:{_odds_header(rules)}"
        if parent is None or parent.kind not in LINE:
            what = "no such bet" if parent is None else f"a {parent.kind} bet"
            raise TapeteError("illegal-action", f"bet {bet.id}: odds need a line or come bet already made ({bet.on[0]!r} is {what})",
                              source=source, bet=bet.id)
        if parent.status != WORKING or parent.number is None:
            raise TapeteError("illegal-action", f"bet {bet.id}: odds only once the point of {parent.id} is known",
                              source=source, bet=bet.id)
        if parent.player != bet.player:
            raise TapeteError("illegal-action", f"bet {bet.id}: odds go with the player's own bet ({parent.id} is another player's)",
                              source=source, bet=bet.id)

    def _timing(self, state: CrapsState, rules: CrapsRules, new: CrapsBet) -> None:
        """Win and Don't Win are made for the come-out roll, Come and Don't Come while a point is on (A5)."""
        if new.kind in ("pass", "dont-pass") and state.phase != COME_OUT:
            raise TapeteError("illegal-action", f"bet {new.id}: {rules.names[new.kind]} is made for the first roll (the come-out), "
                              f"not while the point {state.point} is on", source=rules.sources["line_timing"], bet=new.id)
        if new.kind in ("come", "dont-come") and state.phase != POINT:
            raise TapeteError("illegal-action", f"bet {new.id}: {rules.names[new.kind]} is made after the first roll, while a point is on",
                              source=rules.sources["line_timing"], bet=new.id)

    def maximum(self, state: CrapsState, rules: CrapsRules, kind: str, number: int | None,
                parent: CrapsBet | None = None) -> Fraction:
        """The largest stake a player may have on one spot (or on one bet's odds), exact."""
        lim = state.limits
        if kind == "odds":
            assert parent is not None and parent.number is not None
            factor = rules.odds_maximum if parent.kind in RIGHT else rules.lay_odds_maximum[parent.number]
            return parent.amount * factor
        if kind == "place":
            return lim.maximum * rules.place_maximum[number]  # type: ignore[index]
        if kind == "place-to-lose":
            return lim.maximum * rules.place_to_lose_maximum[number]  # type: ignore[index]
        if kind in MULTIPLE:
            return Fraction(lim.maximum_multiple) / self.multiple_k(rules, kind, number)
        return Fraction(lim.maximum)

    @staticmethod
    def multiple_k(rules: CrapsRules, kind: str, number: int | None) -> Fraction:
        return rules.hardway_payouts[number] if kind == "hardway" else rules.one_roll_payouts[kind]  # type: ignore[index]

    def _limit_source(self, rules: CrapsRules, kind: str, side: str | None) -> str:
        if kind == "odds":
            return rules.sources["odds_maximum" if side in RIGHT else "lay_odds_maximum"]
        return rules.sources[{"place": "place_maximum", "place-to-lose": "place_to_lose_maximum"}.get(
            kind, "multiple_maximum" if kind in MULTIPLE else "simple_maximum")]

    def check_amount(self, state: CrapsState, rules: CrapsRules, new: CrapsBet) -> None:
        """Minimum per bet (A22); maximum per player and spot, or per parent for odds (docs/rulings.md#craps-maximum-scope)."""
        lim = state.limits
        if new.amount < lim.minimum:
            raise TapeteError("under-minimum", f"bet {new.id} ({new.kind}, {new.amount}) is under the table minimum of {lim.minimum}",
                              source=rules.sources["minimum_every_bet"], bet=new.id)
        parent = next((b for b in state.bets if b.id == new.parent), None) if new.kind == "odds" else None
        if new.kind == "odds":
            already = sum(b.amount for b in state.bets if b.status == WORKING and b.parent == new.parent)
        else:
            already = sum(b.amount for b in state.bets if b.status == WORKING and b.player == new.player
                          and b.kind == new.kind and b.number == new.number and b.parent is None)
        top = self.maximum(state, rules, new.kind, new.number, parent)
        if already + new.amount > top:
            with_ = f" with {already} already there" if already else ""
            what = f"the odds maximum on {parent.id} ({parent.kind} {parent.amount} on {parent.number})" if parent else f"the {new.kind} maximum"
            raise TapeteError("over-maximum", f"bet {new.id} ({new.kind}, {new.amount}){with_} exceeds {what} of {_money(top)}",
                              source=self._limit_source(rules, new.kind, new.side), bet=new.id)
        if lim.whole_cents:
            win = new.amount * self.best_rate(rules, new)
            if win.denominator != 1:
                raise TapeteError("inexact-payout", f"bet {new.id}: {new.amount} would win {_money(win)} cents; this table "
                                  "takes only stakes paid in whole cents (table option whole-cents)",
                                  source="R: docs/rulings.md#craps-fractional-cents", bet=new.id)

    def best_rate(self, rules: CrapsRules, bet: CrapsBet) -> Fraction:
        """The winnings per unit staked when the bet wins (the field's 2:1 where it pays double)."""
        if bet.kind in ("odds",):
            table = rules.odds_payouts if bet.side in RIGHT else rules.lay_odds_payouts
            return table[bet.number]  # type: ignore[index]
        if bet.kind == "field":
            return Fraction(2)
        return self.rate(rules, bet, 0)

    # -- the roll ----------------------------------------------------------------------------------
    def _roll(self, state: CrapsState, rules: CrapsRules, outcome: Outcome) -> None:
        dice = outcome.value
        if (not isinstance(dice, list | tuple) or len(dice) != 2 or not all(_is_int(d) and 1 <= d <= 6 for d in dice)):
            raise TapeteError("bad-outcome", f"roll {dice!r}: two dice, each 1 to 6", source=rules.sources["points"])
        self._shooter_bet(state, rules)
        d1, d2 = dice
        total, hard = d1 + d2, d1 == d2
        state.rounds += 1
        state.history.append([d1, d2])
        state.log.append(f"roll {state.rounds}: {d1}-{d2}, {self.call(state, total, hard)}")
        results: dict[str, str] = {}
        off = state.limits.off_on_come_out and state.phase == COME_OUT
        riding = [b for b in state.bets if b.status == WORKING]
        for bet in riding:
            if bet.kind != "odds":
                results[bet.id] = self._judge(state, rules, bet, total, hard, off)
        for bet in riding:
            if bet.kind == "odds":
                self._follow(state, rules, bet, results.get(bet.parent or "", ""), off)
        self._announce(state, [b for b in riding if b.status == DONE])
        self._retire(state)
        self._move_puck(state, rules, total)
        state.closed = False

    @staticmethod
    def _shooter_bet(state: CrapsState, rules: CrapsRules) -> None:
        """000:694; 001:586; 002:992; 003:1511-1514: the player who throws must bet on Win or Don't Win before he
        throws. The table's `shooter` names him until the first seven-out passes the dice to a player the document
        does not name (R: docs/rulings.md#craps-shooter-line-bet)."""
        who = state.table.get("shooter")
        if who is None or state.shooter != 1:
            return
        if not any(b.player == who and b.kind in ("pass", "dont-pass") and b.status == WORKING for b in state.bets):
            raise TapeteError("illegal-action", f"{who} throws the dice and must first bet on {rules.names['pass']} or "
                              f"{rules.names['dont-pass']}", source=rules.sources["shooter_bet"])

    def call(self, state: CrapsState, total: int, hard: bool) -> str:
        """The stickman's call for a roll."""
        word = NUMBER_WORDS[total] + (" the hard way" if hard and total in HARDWAYS else "")
        if state.phase == COME_OUT:
            if total in (7, 11):
                return f"{word}, winner on the come-out"
            if total in (2, 3, 12):
                return f"{word}, craps"
            return f"{word}, the point is {total}"
        if total == state.point:
            return f"{word}, the point is made, winner"
        if total == 7:
            return f"{word} out, line away"
        return word

    def _judge(self, state: CrapsState, rules: CrapsRules, bet: CrapsBet, total: int, hard: bool, off: bool) -> str:
        """Win, lose, travel or stay, for one bet by its state before the roll (spec §5.3 step 4)."""
        kind = bet.kind
        if kind in ONE_ROLL:
            return self._pay(rules, bet, total) if total in ONE_ROLL_WINS[kind] else self._lose(bet)
        if kind in ("big-6", "big-8"):
            if total == int(kind[-1]):
                return self._pay(rules, bet, total)
            return self._lose(bet) if total == 7 else ""
        if off and kind in TARGETED:
            return ""                # off on the come-out (table option, not in the texts)
        if kind == "hardway":
            if total == bet.number and hard:
                return self._pay(rules, bet, total)
            return self._lose(bet) if total in (7, bet.number) else ""
        if kind == "place":
            if total == bet.number:
                return self._pay(rules, bet, total)
            return self._lose(bet) if total == 7 else ""
        if kind == "place-to-lose":
            if total == 7:
                return self._pay(rules, bet, total)
            return self._lose(bet) if total == bet.number else ""
        return self._line(rules, bet, total)

    def _line(self, rules: CrapsRules, bet: CrapsBet, total: int) -> str:
        right = bet.kind in RIGHT
        if bet.number is None:                       # its first roll: the come-out of this bet
            if total in rules.naturals:
                return self._pay(rules, bet, total) if right else self._lose(bet)
            if total in rules.craps:
                if not right and total == rules.bar:  # null: the bet stays (docs/rulings.md#craps-bar-12)
                    bet.ties += 1
                    return "tie"
                return self._lose(bet) if right else self._pay(rules, bet, total)
            bet.number = total                        # travels to its box
            return "move"
        if total == bet.number:
            return self._pay(rules, bet, total) if right else self._lose(bet)
        if total == 7:
            return self._lose(bet) if right else self._pay(rules, bet, total)
        return ""

    def rate(self, rules: CrapsRules, bet: CrapsBet, total: int) -> Fraction:
        """Winnings per unit staked of a winning bet on `total`."""
        kind = bet.kind
        if kind in SIMPLE:
            return Fraction(2) if kind == "field" and total in rules.field_double else Fraction(1)
        if kind in rules.one_roll_payouts:
            return rules.one_roll_payouts[kind]
        if kind == "hardway":
            return rules.hardway_payouts[bet.number]  # type: ignore[index]
        if kind == "place":
            return rules.place_payouts[bet.number]  # type: ignore[index]
        if kind == "place-to-lose":
            return rules.place_to_lose_payouts[bet.number]  # type: ignore[index]
        table = rules.odds_payouts if bet.side in RIGHT else rules.lay_odds_payouts
        return table[bet.number]  # type: ignore[index]

    def _pay(self, rules: CrapsRules, bet: CrapsBet, total: int) -> str:
        bet.returned = bet.amount * (1 + self.rate(rules, bet, total))
        bet.status = DONE
        return "win"

    @staticmethod
    def _lose(bet: CrapsBet) -> str:
        bet.returned = Fraction(0)
        bet.status = DONE
        return "lose"

    def _follow(self, state: CrapsState, rules: CrapsRules, odds: CrapsBet, parent_result: str, off: bool) -> None:
        """Odds "siguen la suerte" of their bet (000:642): won, lost or still riding with it."""
        if parent_result not in ("win", "lose"):
            return
        if off and odds.side in ("come", "dont-come"):
            odds.returned = Fraction(odds.amount)     # off on the come-out: handed back with the decision
            odds.status = DONE
            return
        if parent_result == "win":
            self._pay(rules, odds, 0)
        else:
            self._lose(odds)

    @staticmethod
    def _announce(state: CrapsState, decided: list[CrapsBet]) -> None:
        for b in decided:
            verb = "pays" if b.returned > b.amount else "returns" if b.returned else "takes"
            amount = euros(b.returned) if b.returned else euros(b.amount)
            state.log.append(f"{verb} {b.id} ({describe(b)}): {amount}")

    def _move_puck(self, state: CrapsState, rules: CrapsRules, total: int) -> None:
        disc = rules.jurisdiction == "ES-AN"
        if state.phase == COME_OUT:
            if total in rules.points:
                state.phase, state.point = POINT, total
                state.log.append(f"puck on {total}" + (" (disco marcador white side up)" if disc else ""))
            return
        if total not in (state.point, 7):
            return
        if total == state.point:
            state.log.append("point made: new come-out, same shooter" + (" (disco marcador black side up)" if disc else ""))
        else:
            state.shooter += 1
            state.log.append(f"seven-out: the dice pass to the next player (shooter {state.shooter})"
                             + (" (disco marcador black side up)" if disc else ""))
        state.phase, state.point = COME_OUT, None
        if state.die_missing:         # the round is over (000:684)
            state.die_missing = False
            state.log.append("end of the round: unless the lost die was found, a new set of dice for the table")

    # -- acts, voids -------------------------------------------------------------------------------
    def _act(self, state: CrapsState, rules: CrapsRules, act: Act) -> None:
        bet = next((b for b in state.bets if b.id == act.bet), None) or state.decided.get(act.bet or "")
        if act.by is not None or bet is None:
            raise TapeteError("bad-document", f"act names no bet of this round ({act.bet!r})")
        if act.fields:
            raise TapeteError("bad-document", f"unknown act keys {sorted(act.fields)}", bet=bet.id)
        if act.do != "remove":
            raise TapeteError("illegal-action", f"{act.do!r} is not a craps verb (remove)", bet=bet.id)
        if state.closed:
            raise TapeteError("bet-closed", f"bet {bet.id}: nothing is taken down after «ya no va más»",
                              source=_closing(rules), bet=bet.id)
        if bet.status != WORKING:
            raise TapeteError("illegal-action", f"bet {bet.id} is no longer on the layout", bet=bet.id)
        if not self.removable(rules, state.limits, bet):
            source = rules.sources["not_removable" if bet.kind == "pass" else "removable"]
            why = "must play until won or lost" if bet.kind == "pass" else "may not be taken down"
            raise TapeteError("illegal-action", f"bet {bet.id}: {rules.names[bet.kind]} {why}", source=source, bet=bet.id)
        self._take_down(state, bet)
        for odds in state.bets:          # odds go with the bet they follow
            if odds.parent == bet.id and odds.status == WORKING:
                self._take_down(state, odds)
        self._retire(state)

    @staticmethod
    def _retire(state: CrapsState) -> None:
        """Decided bets leave the layout for the record: a long session never rescans them."""
        if any(b.status != WORKING for b in state.bets):
            for b in state.bets:
                if b.status != WORKING:
                    state.decided[b.id] = b
            state.bets = [b for b in state.bets if b.status == WORKING]

    @staticmethod
    def removable(rules: CrapsRules, limits: CrapsLimits, bet: CrapsBet) -> bool:
        if bet.kind in rules.removable:
            return True
        return limits.remove_dont_and_come and bet.kind in ("dont-pass", "come", "dont-come")

    @staticmethod
    def _take_down(state: CrapsState, bet: CrapsBet) -> None:
        bet.status, bet.returned = REMOVED, Fraction(bet.amount)
        state.log.append(f"{bet.id} ({describe(bet)}) taken down: {euros(bet.amount)}")

    def _void(self, state: CrapsState, rules: CrapsRules, void: Void) -> None:
        reason = void.reason
        if reason == "no-wall" and not rules.far_wall_required:
            raise TapeteError("illegal-action", f"in {rules.jurisdiction} the dice are thrown with the intention of touching the far "
                              "wall: a die that did not reach it does not void a throw that was otherwise correct (the stickman "
                              "may still call an incorrect throw: 'incorrect-throw')", source=rules.sources["far_wall_required"])
        state.void_rolls += 1
        state.closed = True              # R: docs/rulings.md#craps-void-roll (the betting window does not reopen)
        known = reason in rules.void_causes
        state.log.append(f"tirada nula ({reason if known else reason + ', by the inspector'}): nothing is settled, "
                         "the same shooter throws again")
        if reason == "off-table":
            state.die_missing = True
            state.log.append("a die off the table: the shooter chooses among the four reserve dice to finish the round")

    def finish(self, state: CrapsState) -> CrapsState:
        return state

    def settle(self, state: CrapsState) -> Settlement:
        results: dict[str, BetResult] = {}
        for b in sorted([*state.bets, *state.decided.values()], key=lambda b: b.seq):
            staked = Fraction(b.amount)
            if b.status == WORKING:
                results[b.id] = BetResult.pending(staked)
            else:
                results[b.id] = BetResult(staked, b.returned)
        return Settlement(self.id, state.jurisdiction, results, rounds=state.rounds, log=list(state.log))

    # -- questions every state answers -------------------------------------------------------------
    def legal_actions(self, state: CrapsState) -> list[Action]:
        rules = self._rules[state.jurisdiction]
        if state.closed:
            return []
        lim = state.limits
        actions: list[Action] = []
        for kind in rules.kinds:
            if kind == "odds" or (kind in ("pass", "dont-pass") and state.phase != COME_OUT) or (
                    kind in ("come", "dont-come") and state.phase != POINT):
                continue
            for target in self.targets(rules, lim, kind):
                top = self.maximum(state, rules, kind, target[0] if target else None)
                actions.append(Action("bet", kind=kind, minimum=lim.minimum, maximum=int(top),
                                      targets=(target,) if target else None))
        for parent in state.bets:
            if parent.kind in LINE and parent.status == WORKING and parent.number is not None:
                room = self.maximum(state, rules, "odds", None, parent) - sum(
                    b.amount for b in state.bets if b.parent == parent.id and b.status == WORKING)
                if room >= lim.minimum:
                    actions.append(Action("bet", kind="odds", bet=parent.id, minimum=lim.minimum, maximum=int(room),
                                          targets=((parent.id,),)))
        actions += [Action("remove", bet=b.id) for b in state.bets
                    if b.status == WORKING and self.removable(rules, lim, b)]
        return actions

    def targets(self, rules: CrapsRules, limits: CrapsLimits, kind: str) -> list[tuple[int, ...] | None]:
        if kind == "hardway":
            return [(n,) for n in HARDWAYS]
        if kind in ("place", "place-to-lose"):
            return [(n,) for n in self.place_numbers(rules, limits)]
        return [None]

    def chance(self, state: CrapsState) -> list[tuple[Event, Fraction]]:
        """The 36 equally likely ordered rolls of two dice, while anything rides on them."""
        if not any(b.status == WORKING for b in state.bets):
            return []
        return [(Outcome("roll", [d1, d2]), ROLL_P) for d1 in range(1, 7) for d2 in range(1, 7)]

    def analysis_key(self, state: CrapsState) -> tuple[Hashable, Fraction]:
        """The table as the future sees it: phase, point and the bets still riding; ids, logs, counters dropped."""
        working = [b for b in state.bets if b.status == WORKING]
        if not working:
            return ("settled",), Fraction(1)
        parents = {b.id: (b.kind, b.number, b.amount) for b in working}
        key = tuple(sorted((b.kind, b.number or 0, b.amount, min(b.ties, 1), parents.get(b.parent or "", ()))
                           for b in working))
        return (state.phase, state.point or 0, state.closed, key), Fraction(1)

    def decision(self, state: CrapsState, option: str | None) -> Act | None:
        """Policy 'remove': take a don't down as soon as a bar-12 null gives it back its first roll."""
        if option != "remove" or state.closed:
            return None
        rules = self._rules[state.jurisdiction]
        for b in state.bets:
            if b.status == WORKING and b.ties and b.number is None and self.removable(rules, state.limits, b):
                return Act("remove", bet=b.id)
        return None

    # -- exact analysis ----------------------------------------------------------------------------
    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        """Every kind and every target; odds on each number of each parent kind (the parent and the rolls
        that give it its number are the case's setup); the don'ts also under the policy 'remove'."""
        rules = self.rules_for(jurisdiction)
        table = {"minimum": 100}
        limits = self._limits(rules, table)
        cases: list[EdgeCase] = []
        for kind in rules.kinds:
            if kind == "odds":
                continue
            setup = (Outcome("roll", [2, 2]),) if kind in ("come", "dont-come") else ()
            for on in self.targets(rules, limits, kind):
                cases.append(EdgeCase(kind, on, None, table=table, amount=100, setup=setup))
            if kind in ("dont-pass", "dont-come"):
                removing = {**table, "remove-dont-and-come": True}
                cases.append(EdgeCase(kind, None, "remove", table=removing, amount=100, setup=setup))
        for side in LINE:
            for n in rules.points:
                parent = Bet("parent", "player", side, 100)
                if side in ("pass", "dont-pass"):
                    setup: tuple[Event, ...] = (parent, Outcome("roll", _dice(n)))
                else:                   # a point first (not n), then the come bet travels to n
                    setup = (Outcome("roll", [4, 4] if n == 6 else [3, 3]), parent, Outcome("roll", _dice(n)))
                cases.append(EdgeCase("odds", ("parent",), None, table=table, amount=100, setup=setup))
        return cases


ROLL_P = Fraction(1, 36)


def _dice(total: int) -> list[int]:
    """An easy way to roll a total (the hard way where there is none)."""
    return {4: [1, 3], 5: [1, 4], 6: [2, 4], 8: [2, 6], 9: [3, 6], 10: [4, 6]}[total]


def describe(b: CrapsBet) -> str:
    if b.kind == "odds":
        return f"odds on {b.parent}" + (f" ({b.side} {b.number})" if b.number else "")
    if b.number is not None:
        return f"{b.kind} {b.number}"
    return b.kind


def _money(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator} (= {float(value):.2f})"


def _seed(rules: CrapsRules) -> str:
    return rules.sources["points"].split(":")[0]


def _odds_header(rules: CrapsRules) -> str:
    """The 'suertes asociadas' header line of each text."""
    return {"000": "642", "001": "534", "002": "944", "003": "1369-1372"}[_seed(rules)]


def _closing(rules: CrapsRules) -> str:
    """The closing of bets at «ya no va más» in each text."""
    return {"000": "000:694", "001": "001:586", "002": "002:992", "003": "003:1510-1511"}[_seed(rules)]
