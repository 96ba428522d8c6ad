"""The wheel of fortune (ruleta de la fortuna; ES-GA ruleta da fortuna; ES-AN rueda de la fortuna).

ES-IB 000:1179-1223, ES-GA 002:994-1038, ES-AN 003:5665-5796; not in the national catalog (001). A wheel of 54
cells; a bet on a symbol is named after the number of cells that carry it (24, 15, 7, 4, 2) and the two jokers
(ES-AN's two figures) have one cell each. docs/vocabulary.md §1: kinds `number` [24|15|7|4|2], `joker-red`,
`joker-black`; the outcome names the symbol, `{"spin": 24}` or `{"spin": "joker-red"}`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import own_citations
from tapete.core.money import euros, format_ratio
from tapete.engine.bet_index import bet_index
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, EdgeCase, Game, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.rules import Rules
from tapete.engine.settlement import BetResult, Settlement

NUMBERS = (24, 15, 7, 4, 2)
JOKERS = ("joker-red", "joker-black")
KINDS = ("number", *JOKERS)
SYMBOLS: tuple[int | str, ...] = (*NUMBERS, *JOKERS)

# One arrangement of the 54 cells for drawing and display (R: docs/rulings.md#wheel-cells): no text gives the
# order, and no amount depends on it; only the counts (24, 15, 7, 4, 2, 1, 1) matter.
CELLS: tuple[int | str, ...] = (
    "joker-red", 24, 15, 24, 7, 15, 24, 4, 24, 15, 24, 2, 15, 24, 7, 24, 15, 24, 15, 24, 4, 24, 15, 7, 24, 15, 24,
    "joker-black", 24, 15, 7, 24, 4, 24, 15, 24, 15, 24, 7, 24, 2, 15, 24, 7, 24, 15, 24, 4, 24, 15, 24, 7, 15, 24,
)


@dataclass(frozen=True)
class WheelRules(Rules):
    cells: Mapping[str, int]                       # symbol -> how many of the 54 cells carry it
    payouts: Mapping[str, Fraction]                # symbol -> "X to 1", the stake kept
    joker_names: tuple[str, str]                   # what the catalog calls the two single-cell bets
    limits_set_by: str                             # who fixes the minimum and the maximum
    second_push: bool                              # "no va más" called with a second push of the wheel
    minimum_turns: int                             # full turns after the second push, or the spin is void (0: none)
    void_causes: tuple[str, ...]                   # what voids a spin ('inspector': the catch-all)
    payment_order: str | None                      # the order in which winners are paid, where prescribed
    bets_locked_after_close: bool                  # after "no va más" bets may not be touched or withdrawn
    no_bets_during_payout: bool                    # no bet while the previous round is paid and collected


_CELLS = {"24": 24, "15": 15, "7": 7, "4": 4, "2": 2, "joker-red": 1, "joker-black": 1}
_PAYOUTS = {"24": Fraction(1), "15": Fraction(2), "7": Fraction(5), "4": Fraction(10), "2": Fraction(20),
            "joker-red": Fraction(45), "joker-black": Fraction(45)}


def _wheel(jurisdiction: str, sources: dict[str, str], **fields: Any) -> WheelRules:
    base: dict[str, Any] = dict(cells=_CELLS, payouts=_PAYOUTS, second_push=False, minimum_turns=0,
                                void_causes=("inspector",), payment_order=None, bets_locked_after_close=False,
                                no_bets_during_payout=False)
    base.update(fields)
    return WheelRules(jurisdiction=jurisdiction, sources=sources, **base)


WHEEL_RULES: dict[str, WheelRules] = {
    "ES-IB": _wheel(
        "ES-IB", joker_names=("Jocker rojo", "Jocker negro"), limits_set_by="the authorisation (Consejería de Interior)",
        sources={
            "cells": "000:1189-1191; 000:1211; R: docs/rulings.md#wheel-cells", "payouts": "000:1211; 000:1223",
            "joker_names": "000:1191; 000:1211", "limits_set_by": "000:1215", "second_push": "000:1221",
            "minimum_turns": "000:1221; R: docs/rulings.md#wheel-void", "void_causes": "000:1177; R: docs/rulings.md#wheel-void",
            "payment_order": "000:1223", "bets_locked_after_close": "000:1221", "no_bets_during_payout": "000:1223",
        },
    ),
    "ES-GA": _wheel(
        "ES-GA", joker_names=("Jocker vermello", "Jocker negro"),
        limits_set_by="the authorisation (dirección xeral de xogo)",
        sources={
            "cells": "002:1004-1006; 002:1026; R: docs/rulings.md#wheel-cells", "payouts": "002:1026; 002:1038",
            "joker_names": "002:1006; 002:1026", "limits_set_by": "002:1030", "second_push": "002:1036",
            "minimum_turns": "002:1036; R: docs/rulings.md#wheel-void", "void_causes": "002:828; R: docs/rulings.md#wheel-void",
            "payment_order": "002:1038", "bets_locked_after_close": "002:1036", "no_bets_during_payout": "002:1038",
        },
    ),
    "ES-AN": _wheel(
        "ES-AN", joker_names=("figura 1", "figura 2"), limits_set_by="the casino, within the authorised band",
        second_push=True, minimum_turns=4, void_causes=("few-turns", "pin", "obstruction", "inspector"),
        payment_order="ascending-ratio", bets_locked_after_close=True, no_bets_during_payout=True,
        sources={
            "cells": "003:5697-5701; 003:5737-5748; R: docs/rulings.md#wheel-cells",
            "payouts": "003:5735-5748; 003:5788-5791", "joker_names": "003:5683; 003:5747",
            "limits_set_by": "003:5750-5753", "second_push": "003:5762-5767", "minimum_turns": "003:5769-5772",
            "void_causes": "003:5769-5786; 003:2901-2903; R: docs/rulings.md#wheel-void",
            "payment_order": "003:5788; R: docs/rulings.md#wheel-payment-order",
            "bets_locked_after_close": "003:5765-5767", "no_bets_during_payout": "003:5793-5796",
        },
    ),
}

VOID_NAMES = {"few-turns": "fewer than four turns after the second push", "pin": "the stopper rests on a pin",
              "obstruction": "a person or object obstructed the wheel"}


def symbol_key(value: object) -> str | None:
    """24 -> '24', 'joker-red' -> 'joker-red'; None for anything that is not a symbol of the wheel."""
    if isinstance(value, int) and not isinstance(value, bool) and value in NUMBERS:
        return str(value)
    if isinstance(value, str) and value in JOKERS:
        return value
    return None


@dataclass
class WheelBet:
    id: str
    player: str
    kind: str
    symbol: str                      # '24' ... '2', 'joker-red', 'joker-black'
    amount: int
    phase: str = "riding"            # riding | done
    returned: Fraction = Fraction(0)


@dataclass
class WheelState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    minimum: int
    maximum: int | None
    bets: list[WheelBet] = field(default_factory=list)
    closed: bool = False
    voided: bool = False             # the last spin was void and no valid spin has followed
    rounds: int = 0
    history: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


class WheelOfFortuneGame(Game):
    id = "wheel-of-fortune"
    name_es = "Ruleta de la fortuna"
    name_en = "Wheel of fortune"
    outcome_names = ("spin",)

    @property
    def rules(self) -> dict[str, WheelRules]:  # type: ignore[override]
        return WHEEL_RULES

    def state_type(self) -> type:
        return WheelState

    def kinds(self) -> list[KindInfo]:
        p = _PAYOUTS
        return [
            KindInfo("number", "1:1 to 20:1", "24, 15, 7, 4 or 2 posiciones, on [24|15|7|4|2]: pays "
                     + ", ".join(f"{n} {format_ratio(p[str(n)])}" for n in NUMBERS)),
            KindInfo("joker-red", format_ratio(p["joker-red"]), "Jocker rojo (ES-GA vermello; ES-AN the first figura)"),
            KindInfo("joker-black", format_ratio(p["joker-black"]), "Jocker negro (ES-AN the second figura)"),
        ]

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="the authorised minimum (cents)"),
            TableKey("maximum", default=None, description="the authorised maximum per player and box (cents); "
                     "default none"),
            TableKey("rounding", default="player", description="fractions of a cent: 'player' or 'house'"),
        ]

    # -- table -------------------------------------------------------------------------------------
    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> WheelState:
        rules = self.rules_for(jurisdiction)
        if shoe is not None:
            raise TapeteError("bad-document", "the wheel of fortune is not a card game: a shoe is not accepted")
        known = {t.key for t in self.table_keys()}
        for key in table:
            if key not in known:
                raise TapeteError("bad-document", f"unknown table key {key!r} for {self.id} (known: {', '.join(sorted(known))})")
        m = table.get("minimum")
        if not _is_int(m) or m <= 0:
            raise TapeteError("bad-document", "table.minimum (cents) is required and must be a positive integer")
        top = table.get("maximum")
        if top is not None and (not _is_int(top) or top < m):
            raise TapeteError("bad-table", f"maximum {top!r} must be an amount in cents of at least the minimum {m}",
                              source=rules.sources["limits_set_by"])
        if table.get("rounding", "player") not in ("player", "house"):
            raise TapeteError("bad-document", "rounding must be 'player' or 'house'")
        return WheelState(self.id, jurisdiction, dict(table), m, top)

    # -- the reducer -------------------------------------------------------------------------------
    def apply(self, state: WheelState, event: Event) -> None:
        rules = WHEEL_RULES[state.jurisdiction]
        if isinstance(event, Bet):
            self._bet(state, rules, event)
        elif isinstance(event, Outcome):
            self._spin(state, rules, event)
        elif isinstance(event, Close):
            state.closed = True
            state.log.append("no va más" + (" (second push)" if rules.second_push else ""))
        elif isinstance(event, Void):
            self._void(state, rules, event)
        elif isinstance(event, Act):
            source = rules.sources["bets_locked_after_close"]
            locked = " and bets may not be touched or withdrawn after no va más" if rules.bets_locked_after_close else ""
            raise TapeteError("illegal-action", f"the wheel of fortune has no decisions{locked}: {event.do!r} refused",
                              source=source, bet=event.bet)
        elif isinstance(event, Limits):
            raise TapeteError("illegal-action", f"the limits are fixed by {rules.limits_set_by}: no text provides a "
                              "change during the session", source=rules.sources["limits_set_by"])
        elif isinstance(event, Deal):
            raise TapeteError("bad-document", "the wheel of fortune has no deal: the round's outcome is a spin")
        else:  # pragma: no cover
            raise TapeteError("bad-document", f"unexpected event {event!r}")

    def _bet(self, state: WheelState, rules: WheelRules, bet: Bet) -> None:
        if state.closed:
            raise TapeteError("bet-closed", f"bet {bet.id} refused, the chip returned: no va más has been called",
                              source=own_citations("000:1221; 002:1036; 003:5765-5767", state.jurisdiction), bet=bet.id)
        if bet.id in bet_index(state, state.bets).ids:
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.extra:
            raise TapeteError("bad-document", f"unknown bet keys {sorted(bet.extra)} for {self.id}", bet=bet.id)
        if bet.kind not in KINDS:
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: the boxes are 24, 15, 7, 4, 2 (kind number) and the "
                              f"two jokers, not {bet.kind!r}", source=rules.sources["payouts"], bet=bet.id)
        symbol = self._target(rules, bet)
        if bet.amount < state.minimum:
            raise TapeteError("under-minimum", f"bet {bet.id} ({bet.amount}) is under the minimum {state.minimum}",
                              source=rules.sources["limits_set_by"], bet=bet.id)
        same = sum(b.amount for b in state.bets if b.phase == "riding" and b.player == bet.player and b.symbol == symbol)
        if state.maximum is not None and same + bet.amount > state.maximum:
            already = f" with {same} already on that box" if same else ""
            raise TapeteError("over-maximum", f"bet {bet.id} ({bet.amount}){already} exceeds the maximum "
                              f"{state.maximum}", source=f"{rules.sources['limits_set_by']}; R: docs/rulings.md#wheel-limits",
                              bet=bet.id)
        state.bets.append(WheelBet(bet.id, bet.player, bet.kind, symbol, bet.amount))

    @staticmethod
    def _target(rules: WheelRules, bet: Bet) -> str:
        if bet.kind in JOKERS:
            if bet.on:
                raise TapeteError("bad-target", f"bet {bet.id}: {bet.kind} takes no 'on'", bet=bet.id)
            return bet.kind
        on = bet.on or ()
        key = symbol_key(on[0]) if len(on) == 1 else None
        if key is None or key in JOKERS:
            raise TapeteError("bad-target", f"bet {bet.id}: the wheel has no symbol {list(on)}: a number bet is on "
                              "[24], [15], [7], [4] or [2]", source=rules.sources["cells"], bet=bet.id)
        return key

    def _spin(self, state: WheelState, rules: WheelRules, outcome: Outcome) -> None:
        symbol = symbol_key(outcome.value)
        if symbol is None:
            raise TapeteError("bad-outcome", f"spin {outcome.value!r}: the wheel's symbols are 24, 15, 7, 4, 2, "
                              "'joker-red' and 'joker-black'", source=rules.sources["cells"])
        state.rounds += 1
        state.history.append(symbol)
        name = {"joker-red": rules.joker_names[0], "joker-black": rules.joker_names[1]}.get(symbol, symbol)
        state.log.append(f"spin {state.rounds}: {name}")
        riding = [b for b in state.bets if b.phase == "riding"]
        for bet in riding:
            bet.returned = bet.amount * (1 + rules.payouts[symbol]) if bet.symbol == symbol else Fraction(0)
            bet.phase = "done"
        for bet in payment_sequence(rules, riding):
            state.log.append(f"pays {bet.id} ({_label(bet.symbol)}): {euros(bet.returned)}")
        state.closed = False
        state.voided = False

    def _void(self, state: WheelState, rules: WheelRules, void: Void) -> None:
        """ES-AN voids a spin of fewer than four turns, on a pin, or obstructed (003:5769-5786); ES-IB and ES-GA name
        no cause, the inspector decides (R: docs/rulings.md#wheel-void). Nothing is settled, the bets stay, and the
        cycle starts again with "hagan sus apuestas"."""
        if not isinstance(void.reason, str):
            raise TapeteError("bad-document", "void takes a reason (a string)")
        if void.reason in VOID_NAMES and void.reason not in rules.void_causes:
            raise TapeteError("illegal-action", f"in {rules.jurisdiction} {VOID_NAMES[void.reason]} does not void the spin "
                              "by itself: the inspector decides (void with reason 'inspector')",
                              source=rules.sources["void_causes"])
        state.voided = True
        state.closed = False
        why = VOID_NAMES.get(void.reason, void.reason)
        state.log.append(f"void spin ({why}): nothing is settled, the bets stay; hagan sus apuestas")

    def settle(self, state: WheelState) -> Settlement:
        results: dict[str, BetResult] = {}
        for b in state.bets:
            staked = Fraction(b.amount)
            if b.phase == "done":
                results[b.id] = BetResult(staked, b.returned)
            elif state.voided:
                results[b.id] = BetResult.voided(staked)
            else:
                results[b.id] = BetResult.pending(staked)
        return Settlement(self.id, state.jurisdiction, results, rounds=state.rounds, log=list(state.log))

    # -- questions every state answers -------------------------------------------------------------
    def legal_actions(self, state: WheelState) -> list[Action]:
        if state.closed:
            return []
        return [Action("bet", kind="number", minimum=state.minimum, maximum=state.maximum,
                       targets=tuple((n,) for n in NUMBERS))] + [
            Action("bet", kind=k, minimum=state.minimum, maximum=state.maximum, targets=(None,)) for k in JOKERS]

    def chance(self, state: WheelState) -> list[tuple[Event, Fraction]]:
        if not any(b.phase == "riding" for b in state.bets):
            return []
        cells = WHEEL_RULES[state.jurisdiction].cells
        total = sum(cells.values())
        return [(Outcome("spin", s), Fraction(cells[str(s)], total)) for s in SYMBOLS]

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        self.rules_for(jurisdiction)
        return [EdgeCase("number", (n,), table={"minimum": 100}) for n in NUMBERS] + [
            EdgeCase(k, None, table={"minimum": 100}) for k in JOKERS]


def payment_sequence(rules: WheelRules, bets: list[WheelBet]) -> list[WheelBet]:
    """The winners in paying order: ES-AN "de menor a mayor", the smallest prize multiple first
    (R: docs/rulings.md#wheel-payment-order); elsewhere as they lie."""
    winners = [b for b in bets if b.phase == "done" and b.returned > 0]
    if rules.payment_order == "ascending-ratio":
        winners.sort(key=lambda b: rules.payouts[b.symbol])
    return winners


def _label(symbol: str) -> str:
    return symbol if symbol in JOKERS else f"number {symbol}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


WHEEL_OF_FORTUNE = register(WheelOfFortuneGame())
