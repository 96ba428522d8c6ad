"""Single-zero American roulette (ruleta americana con un solo cero) and Andalucía's ruleta francesa abreviada.

American: ES 001:167-228, ES-IB 000:200-284, ES-GA 002:198-236, ES-AN 003:456-568. The French game with half a
simple chance lost at zero (no prison), its own maxima, colour chips whose value the player fixes, Andalucía's
rule that a bet must be payable with the table minimum, and ES-IB's announced bets (vecinos, serie grande,
tercio, huérfanos) laid on the wheel order and settled as their component bets.

Abreviada: ES-AN 003:441-454, the French game on a cloth with the inside bets only.
"""

from __future__ import annotations

import copy
import dataclasses
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.engine.events import Bet
from tapete.engine.game import Action, EdgeCase, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.games.roulette import layout
from tapete.games.roulette.game import RouletteBet, RouletteGame, RouletteState, TableLimits, _is_int
from tapete.games.roulette.rules import (
    AMERICAN_RULES,
    ANNOUNCED,
    ANNOUNCED_CHIPS,
    ANNOUNCED_COMPOSITION,
    SECTORS,
    SHORT_RULES,
    AmericanRules,
    AnnouncedComponent,
    RouletteRules,
)

ANNOUNCED_NAMES = {"neighbours": "Vecinos", "zero-sector": "Serie grande (sector del cero)",
                   "third": "Tercio (serie pequeña)", "orphans": "Huérfanos"}


def components(kind: str, on: tuple[int, ...] | list[int] | None) -> tuple[AnnouncedComponent, ...]:
    """The ordinary bets an announced bet stands for, with their chips (000:244-258), neighbours on the wheel
    order of layout.WHEEL_ORDER (R: docs/rulings.md#roulette-wheel-order)."""
    if kind == "neighbours":
        return tuple(("straight", (n,), 1) for n in layout.neighbours(tuple(on or ())[0]))
    return SECTORS[kind]


class AmericanRouletteGame(RouletteGame):
    """The French reducer with the American differences as rules data and a few hooks."""

    extra_bet_fields = frozenset({"chips"})

    # -- description -------------------------------------------------------------------------------
    def kinds(self) -> list[KindInfo]:
        found = super().kinds()
        for kind in ANNOUNCED:
            found.append(KindInfo(kind, None, f"{ANNOUNCED_NAMES[kind]} ({ANNOUNCED_CHIPS[kind]} chips, amount = one "
                                              f"chip's value; ES-IB, ES-AN by option): {ANNOUNCED_COMPOSITION[kind]}"))
        return found

    def table_keys(self) -> list[TableKey]:
        keys = [k if k.key != "tier" else TableKey("tier", default=3, description="maxima tier 1-3 (ES: fixed, equal "
                                                                                 "to tier 2, the only one accepted)")
                for k in super().table_keys()]
        return keys + [
            TableKey("colour-chips", default={}, description="player -> the value he gave his colour chips (cents); "
                     "a player not listed has chips worth the minimum"),
            TableKey("chip-unit", default=1, description="the casino's smallest value chip (cents): colour-chip values "
                     "must be multiples of it (docs/rulings.md#roulette-american-colour-chips)"),
            TableKey("announced-bets", default=None, description="announced bets (vecinos, series): on in ES-IB "
                     "(default true), ES-AN markers by casino option (default false), never in ES, ES-GA"),
        ]

    # -- table -------------------------------------------------------------------------------------
    def _limits(self, rules: RouletteRules, table: dict[str, Any]) -> TableLimits:
        limits = super()._limits(rules, table)
        assert isinstance(rules, AmericanRules)
        unit = table.get("chip-unit", 1)
        if not _is_int(unit) or unit <= 0:
            raise TapeteError("bad-table", "chip-unit is the smallest value chip, a positive number of cents")
        self._announced_enabled(rules, table)
        values = table.get("colour-chips", {})
        if not isinstance(values, dict):
            raise TapeteError("bad-table", "colour-chips maps each player to the value of his colour chips (cents)")
        for player, value in values.items():
            self.check_chip_value(rules, limits, unit, value, f"the colour chips of {player}")
        return limits

    @staticmethod
    def _announced_enabled(rules: AmericanRules, table: dict[str, Any]) -> bool:
        """ES-IB has them (000:210-212); ES-AN's casino may use markers (003:498-502); ES and ES-GA have none."""
        flag = table.get("announced-bets")
        if flag is not None and not isinstance(flag, bool):
            raise TapeteError("bad-table", "announced-bets is true or false")
        if rules.announced == "none":
            if flag:
                raise TapeteError("bad-table", f"the catalog of {rules.jurisdiction} has no announced bets",
                                  source=rules.sources["announced"])
            return False
        if rules.announced == "catalog":
            return flag is not False
        return bool(flag)

    def check_chip_value(self, rules: RouletteRules, limits: TableLimits, unit: int, value: object, what: str,
                         bet: str | None = None) -> None:
        """A chip's value lies between the minimum and the straight-up maximum (001:177; 001:201; 000:244;
        R: docs/rulings.md#roulette-announced-chip-value)."""
        assert isinstance(rules, AmericanRules)
        if not _is_int(value) or value <= 0:
            raise TapeteError("bad-table" if bet is None else "bad-document", f"{what}: a value is a positive number of cents",
                              bet=bet)
        assert isinstance(value, int)
        if value < limits.minimum:
            raise TapeteError("under-minimum", f"{what}: a chip of {value} is worth less than the table minimum "
                              f"{limits.minimum}", source=rules.sources["colour_chips"], bet=bet)
        if value > limits.maxima["straight"]:
            raise TapeteError("over-maximum", f"{what}: a chip of {value} is worth more than the straight-up maximum "
                              f"{limits.maxima['straight']}", source=rules.sources["colour_chips"], bet=bet)
        if value % unit:
            raise TapeteError("bad-amount", f"{what}: a chip of {value} cannot be made of the casino's chips of {unit}",
                              source="001:177; R: docs/rulings.md#roulette-american-colour-chips", bet=bet)

    def colour_value(self, state: RouletteState, player: str) -> int:
        """The value the player gave his colour chips; unfixed, each is worth the minimum (001:201; 003:557-559)."""
        return int(state.table.get("colour-chips", {}).get(player, state.limits.minimum))

    def take_colour_chips(self, state: RouletteState, player: str, value: int) -> RouletteState:
        """A player takes a new series of colour chips worth `value` each (a new state; the table keeps it)."""
        rules = self._rules[state.jurisdiction]
        self.check_chip_value(rules, state.limits, state.table.get("chip-unit", 1), value, f"the colour chips of {player}")
        new = copy.deepcopy(state)
        new.table = {**new.table, "colour-chips": {**new.table.get("colour-chips", {}), player: value}}
        return new

    # -- bets --------------------------------------------------------------------------------------
    def _bet(self, state: RouletteState, rules: RouletteRules, bet: Bet) -> None:
        assert isinstance(rules, AmericanRules)
        if state.closed or state.void_pending:
            super()._bet(state, rules, bet)      # refused there: bet-closed
            return
        if bet.kind in ANNOUNCED:
            if not self._announced_enabled(rules, state.table):
                why = ("its casino has not enabled the markers for series and neighbours (table announced-bets)"
                       if rules.announced == "markers" else "not in its catalog")
                raise TapeteError("unknown-bet-kind", f"bet {bet.id}: {bet.kind} is not a bet of {self.id} in "
                                  f"{rules.jurisdiction}: {why}", source=rules.sources["announced"], bet=bet.id)
            if bet.extra:
                raise TapeteError("bad-document", f"bet {bet.id}: an announced bet has its own number of chips "
                                  f"({ANNOUNCED_CHIPS[bet.kind]}); amount is one chip's value", bet=bet.id)
            total = dataclasses.replace(bet, amount=bet.amount * ANNOUNCED_CHIPS[bet.kind])
            super()._bet(state, dataclasses.replace(rules, kinds=rules.kinds + (bet.kind,)), total)
            return
        if "chips" in bet.extra:
            bet = self._colour_stack(state, rules, bet)
        super()._bet(state, rules, bet)

    def _colour_stack(self, state: RouletteState, rules: AmericanRules, bet: Bet) -> Bet:
        """`chips`: that many of the player's colour chips, `amount` being one chip's value (staked = both)."""
        chips = bet.extra["chips"]
        if not _is_int(chips) or chips <= 0:
            raise TapeteError("bad-document", f"bet {bet.id}: chips is a positive number of colour chips", bet=bet.id)
        value = self.colour_value(state, bet.player)
        if bet.amount != value:
            fixed = "fixed" if bet.player in state.table.get("colour-chips", {}) else "left at the minimum"
            raise TapeteError("bad-amount", f"bet {bet.id}: {bet.player}'s colour chips are worth {value} (the value he "
                              f"{fixed}), not {bet.amount}", source=rules.sources["colour_chips"], bet=bet.id)
        extra = {k: v for k, v in bet.extra.items() if k != "chips"}
        return dataclasses.replace(bet, amount=chips * value, extra=extra)

    def parse_target(self, rules: RouletteRules, limits: TableLimits, bet: Bet) -> tuple[int, ...] | None:
        if bet.kind == "neighbours":
            on = bet.on or ()
            if len(on) != 1 or not _is_int(on[0]) or not 0 <= on[0] <= 36:
                raise TapeteError("bad-target", f"bet {bet.id}: neighbours takes one number of the wheel, 0-36",
                                  source="000:244", bet=bet.id)
            return (on[0],)
        if bet.kind in ANNOUNCED:
            if bet.on:
                raise TapeteError("bad-target", f"bet {bet.id}: {bet.kind} is a fixed sector and takes no 'on'",
                                  source="000:246-258", bet=bet.id)
            return None
        return super().parse_target(rules, limits, bet)

    def check_amount(self, state: RouletteState, rules: RouletteRules, bet: Bet, on: tuple[int, ...] | None) -> None:
        assert isinstance(rules, AmericanRules)
        if bet.kind in ANNOUNCED:
            chip = bet.amount // ANNOUNCED_CHIPS[bet.kind]
            self.check_chip_value(rules, state.limits, state.table.get("chip-unit", 1), chip,
                                  f"bet {bet.id} ({bet.kind})", bet=bet.id)
            for kind, spot, chips in components(bet.kind, on):
                if chips * chip > state.limits.maxima[kind]:
                    raise TapeteError("over-maximum", f"bet {bet.id}: {chips} chips of {chip} on the {kind} "
                                      f"{'/'.join(map(str, spot))} exceed its maximum of {state.limits.maxima[kind]}",
                                      source=f"{rules.sources['maxima']}; R: docs/rulings.md#roulette-announced-chip-value",
                                      bet=bet.id)
                self._check_payable(state, rules, bet, kind, Fraction(chips * chip))
            return
        super().check_amount(state, rules, bet, on)
        self._check_payable(state, rules, bet, bet.kind, Fraction(bet.amount))

    @staticmethod
    def _check_payable(state: RouletteState, rules: AmericanRules, bet: Bet, kind: str, stake: Fraction) -> None:
        """ES-AN: "apuestas por un valor que permita su pago con el mínimo de la mesa" (003:561-562): the winnings
        are a whole number of minima (R: docs/rulings.md#roulette-american-payable-minimum)."""
        if not rules.payable_with_minimum:
            return
        winnings = stake * rules.payouts[kind]
        m = state.limits.minimum
        if (winnings / m).denominator != 1:
            raise TapeteError("bad-amount", f"bet {bet.id}: {kind} of {stake} would win {winnings}, which cannot be paid "
                              f"in chips of the table minimum {m}", source=rules.sources["payable_with_minimum"],
                              bet=bet.id)

    # -- the spin ----------------------------------------------------------------------------------
    def resolve(self, state: RouletteState, rules: RouletteRules, bet: RouletteBet, n: int, last: bool) -> None:
        if bet.kind in ANNOUNCED:   # each component settled as an ordinary bet (000:244-258)
            chip = Fraction(bet.amount, ANNOUNCED_CHIPS[bet.kind])
            bet.returned = sum((chips * chip * (1 + rules.payouts[kind])
                                for kind, spot, chips in components(bet.kind, bet.on) if n in spot), Fraction(0))
            bet.phase = "done"
            return
        super().resolve(state, rules, bet, n, last)

    def _announce_payments(self, state: RouletteState, rules: RouletteRules, bets: list[RouletteBet]) -> None:
        """001:193: the order of AMERICAN_ORDER, "pero si un jugador tiene varias combinaciones ganadoras, se pagan
        todas de una sola vez" (R: docs/rulings.md#roulette-american-payment-order)."""
        super()._announce_payments(state, dataclasses.replace(rules, payment_order=None), payment_sequence(rules, bets))

    # -- questions every state answers -------------------------------------------------------------
    def legal_actions(self, state: RouletteState) -> list[Action]:
        actions = super().legal_actions(state)
        rules = self._rules[state.jurisdiction]
        assert isinstance(rules, AmericanRules)
        if not (state.closed or state.void_pending) and self._announced_enabled(rules, state.table):
            lim = state.limits
            for kind in ANNOUNCED:
                targets = tuple((n,) for n in layout.NUMBERS) if kind == "neighbours" else (None,)
                actions.append(Action("bet", kind=kind, minimum=lim.minimum, maximum=lim.maxima["straight"],
                                      targets=targets))
        return actions

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        """As French roulette's; a 1:2 bet staked at two minima, so that ES-AN's payability rule accepts it."""
        rules = self.rules_for(jurisdiction)
        return [dataclasses.replace(c, amount=c.amount * rules.payouts[c.kind].denominator)
                for c in super().edge_cases(jurisdiction)]


def payment_sequence(rules: RouletteRules, bets: list[RouletteBet]) -> list[RouletteBet]:
    """The winners in the order the croupier pays them; where the catalog says so, all of a player's winning bets
    together when the order first reaches one of them. Announced bets are paid with the plenos, last."""
    winners = [b for b in bets if b.phase == "done" and b.returned > 0]
    order = rules.payment_order
    if not order:
        return winners
    winners.sort(key=lambda b: order.index(b.kind) if b.kind in order else len(order))
    if not (isinstance(rules, AmericanRules) and rules.pay_player_at_once):
        return winners
    players = list(dict.fromkeys(b.player for b in winners))
    return [b for p in players for b in winners if b.player == p]


class ShortRouletteGame(RouletteGame):
    """The abreviada: no simple chances, so no simple-chance minimum (003:448-450)."""

    def table_keys(self) -> list[TableKey]:
        return [k for k in super().table_keys() if k.key != "minimum-simple"]


ROULETTE_AMERICAN = register(AmericanRouletteGame("roulette-american", "Ruleta americana con un solo cero",
                                                  "Single-zero American roulette", AMERICAN_RULES))  # type: ignore[arg-type]
ROULETTE_FRENCH_SHORT = register(ShortRouletteGame("roulette-french-short", "Ruleta francesa abreviada",
                                                   "Short French roulette (abreviada)", SHORT_RULES))
