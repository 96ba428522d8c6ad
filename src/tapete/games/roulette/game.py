"""The roulette reducer: bets on a single-zero cloth, the spin, the zero on the simple chances, limits.

One class serves every roulette of the catalogs; a variant is its rules (kinds, zero rule, maxima).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import own_citations
from tapete.core.money import euros, format_ratio
from tapete.engine import zero_system
from tapete.engine.bet_index import bet_index, forget
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, EdgeCase, Game, KindInfo, TableKey
from tapete.engine.limits import minimum_moves_maximum
from tapete.engine.settlement import BetResult, Settlement
from tapete.games.roulette import layout
from tapete.games.roulette.rules import ALL_KINDS, OUTSIDE, SIMPLE, RouletteRules, max_group

DESCRIPTIONS = {
    "straight": "Pleno: one number, 0 included",
    "split": "Caballo: two numbers that touch on the cloth",
    "street": "Fila transversal: a row of three (zero trios 0-1-2, 0-2-3 where allowed)",
    "corner": "Cuadro: four numbers in a square (0-1-2-3 where allowed)",
    "six-line": "Seisena: two adjacent rows",
    "column": "Columna: 12 numbers, on [1-3]",
    "dozen": "Docena: 1-12, 13-24, 25-36, on [1-3]",
    "two-columns": "Dos columnas (columna a caballo): two adjacent columns",
    "two-dozens": "Dos docenas (docena a caballo): two adjacent dozens",
    "red": "Rojo", "black": "Negro", "even": "Par", "odd": "Impar",
    "low": "Falta: 1-18", "high": "Pasa: 19-36",
}
SPANISH = {"red": "rojo", "black": "negro", "even": "par", "odd": "impar", "low": "falta", "high": "pasa"}
DECISIONS = ("prison", "half")


@dataclass
class TableLimits:
    """The table's limits in force (cents), derived from the `table` keys and the jurisdiction's rules."""

    minimum: int
    tier: int
    minimum_simple: int
    maxima: dict[str, int]           # kind (or 'simple') -> maximum per player and spot
    allow_zero_splits: bool = True


@dataclass
class RouletteBet:
    id: str
    player: str
    kind: str
    on: list[int]
    amount: int
    phase: str = "riding"            # riding | choice (after a zero) | prison | done
    zeros: int = 0                   # zeros met on a simple chance
    locked: bool = False             # below the minimum: must stay in prison (001:107)
    returned: Fraction = Fraction(0)


@dataclass
class RouletteState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    limits: TableLimits
    bets: list[RouletteBet] = field(default_factory=list)
    closed: bool = False             # no va más called
    void_pending: bool = False       # a void spin awaits its relaunch
    rounds: int = 0
    history: list[int] = field(default_factory=list)
    next_table: dict[str, Any] | None = None   # a limit change announced, taking effect...
    spins_to_change: int = 0                   # ...after this many spins at the old limit
    log: list[str] = field(default_factory=list)


def held_amount(bet: RouletteBet) -> Fraction:
    """What a simple chance still holds: S, then S/2^(z-1) after z zeros (spec §1.6, docs/rulings.md)."""
    return zero_system.held(bet.amount, bet.zeros)


LIVE = ("riding", "choice", "prison")


def _riding_spot(bet: RouletteBet) -> tuple[str, str, tuple[int, ...]] | None:
    """The total a bet counts in for the maximum per player and spot: riding bets only."""
    return (bet.player, bet.kind, tuple(bet.on)) if bet.phase == "riding" else None


class RouletteGame(Game):
    outcome_names = ("spin",)
    zero_pocket_count = 37

    def __init__(self, game_id: str, name_es: str, name_en: str, rules: dict[str, RouletteRules]) -> None:
        self.id = game_id  # type: ignore[misc]
        self.name_es = name_es  # type: ignore[misc]
        self.name_en = name_en  # type: ignore[misc]
        self._rules = rules

    @property
    def rules(self) -> dict[str, RouletteRules]:  # type: ignore[override]
        return self._rules

    def state_type(self) -> type:
        return RouletteState

    # -- description -------------------------------------------------------------------------------
    def kinds(self) -> list[KindInfo]:
        present = [k for k in ALL_KINDS if any(k in r.kinds for r in self._rules.values())]
        payouts = next(iter(self._rules.values())).payouts
        return [KindInfo(k, format_ratio(payouts[k]), DESCRIPTIONS[k]) for k in present]

    def verbs(self) -> list[str]:
        return list(DECISIONS) if any(r.zero_on_simple == "choice" for r in self._rules.values()) else []

    def table_keys(self) -> list[TableKey]:
        keys = [
            TableKey("minimum", required=True, description="authorised minimum on a straight-up number, cents"),
            TableKey("tier", default=3, description="maxima tier 1-3 (ES: the fixed maxima equal tier 3)"),
            TableKey("minimum-simple", default=None, description="simple-chance minimum, up to 5 x minimum (not ES); default the minimum"),
        ]
        keys += [TableKey(f"maximum-{k}", default=None, description="a maximum set by the authorisation (ES-AN) or raised on notice (ES-IB)")
                 for k in self._max_keys()]
        keys += [
            TableKey("allow-zero-splits", default=True, description="splits 0/1, 0/2, 0/3 at 17:1 (docs/rulings.md)"),
            TableKey("rounding", default="player", description="fractions of a cent: 'player' (docs/format.md) or 'house'"),
        ]
        return keys

    def _max_keys(self) -> list[str]:
        cached = self.__dict__.get("_max_keys_cached")      # the rules never change: computed once (every bet asks)
        if cached is None:
            kinds = {k for r in self._rules.values() for k in r.kinds}
            cached = self._max_keys_cached = [k for k in ALL_KINDS if k in kinds and k not in SIMPLE] + (["simple"] if kinds & set(SIMPLE) else [])
        return list(cached)

    # -- table and limits --------------------------------------------------------------------------
    def _limits(self, rules: RouletteRules, table: dict[str, Any]) -> TableLimits:
        known = {t.key for t in self.table_keys()}
        for key in table:
            if key not in known:
                raise TapeteError("bad-document", f"unknown table key {key!r} for {self.id} (known: {', '.join(sorted(known))})")
        m = table.get("minimum")
        if not _is_int(m) or m <= 0:
            raise TapeteError("bad-document", "table.minimum (the authorised minimum, in cents) is required and must be a positive integer")
        tier = table.get("tier", max(rules.maxima))
        if tier not in rules.maxima:
            raise TapeteError("bad-table", f"tier {tier!r} is not available in {rules.jurisdiction} (tiers: {sorted(rules.maxima)})",
                              source=rules.sources["maxima"])
        ms = table.get("minimum-simple", m)
        if not _is_int(ms) or not m <= ms <= rules.simple_minimum_multiple * m:
            raise TapeteError("bad-table", f"minimum-simple {ms!r} must lie between the minimum {m} and "
                              f"{rules.simple_minimum_multiple} x minimum", source=rules.sources["simple_minimum_multiple"])
        maxima = {k: v * m for k, v in rules.maxima[tier].items()}
        for key in self._max_keys():
            value = table.get(f"maximum-{key}")
            if value is None:
                continue
            if rules.maxima_override == "none":
                raise TapeteError("bad-table", f"maximum-{key}: the maxima of {rules.jurisdiction} are fixed by the catalog",
                                  source=rules.sources["maxima_override"])
            if not _is_int(value) or value < m:
                raise TapeteError("bad-table", f"maximum-{key} must be an amount in cents of at least the minimum")
            if rules.maxima_override == "raise" and value < maxima[key]:
                raise TapeteError("bad-table", f"maximum-{key} {value} is below the tier maximum {maxima[key]}: the casino may only raise it",
                                  source=rules.sources["maxima_override"])
            maxima[key] = value
        zero_splits = table.get("allow-zero-splits", True)
        if not isinstance(zero_splits, bool):
            raise TapeteError("bad-document", "allow-zero-splits must be true or false")
        if table.get("rounding", "player") not in ("player", "house"):
            raise TapeteError("bad-document", "rounding must be 'player' or 'house'")
        return TableLimits(minimum=m, tier=tier, minimum_simple=ms, maxima=maxima, allow_zero_splits=zero_splits)

    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> RouletteState:
        rules = self.rules_for(jurisdiction)
        if shoe is not None:
            raise TapeteError("bad-document", f"{self.id} is not a card game: a shoe is not accepted")
        return RouletteState(self.id, jurisdiction, dict(table), self._limits(rules, table))

    # -- the reducer -------------------------------------------------------------------------------
    def apply(self, state: RouletteState, event: Event) -> None:
        rules = self._rules[state.jurisdiction]
        if not isinstance(event, Bet):
            forget(state)            # a spin, act or void moves bets between phases: the spot totals are rebuilt
        if isinstance(event, Bet):
            self._bet(state, rules, event)
        elif isinstance(event, Outcome):
            self._spin(state, rules, event)
        elif isinstance(event, Act):
            self._act(state, rules, event)
        elif isinstance(event, Close):
            state.closed = True
            state.log.append("no va más")
        elif isinstance(event, Void):
            self._void(state, rules, event)
        elif isinstance(event, Limits):
            self._change_limits(state, rules, event)
        elif isinstance(event, Deal):
            raise TapeteError("bad-document", f"{self.id} has no deal: the round's outcome is a spin")
        else:  # pragma: no cover - the document parser only builds the events above
            raise TapeteError("bad-document", f"unexpected event {event!r}")

    def _bet(self, state: RouletteState, rules: RouletteRules, bet: Bet) -> None:
        if state.closed or state.void_pending:
            why = "after a void spin the ball is relaunched at once" if state.void_pending else "no va más has been called"
            raise TapeteError("bet-closed", f"bet {bet.id} refused: {why}", source=own_citations("001:159; 000:192; 002:190; 003:396-400", state.jurisdiction), bet=bet.id)
        if bet.id in bet_index(state, state.bets, _riding_spot).ids:
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.extra:
            raise TapeteError("bad-document", f"unknown bet keys {sorted(bet.extra)} for {self.id}", bet=bet.id)
        if bet.kind not in rules.kinds:
            where = " (not on this cloth)" if bet.kind in ALL_KINDS else ""
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: {self.id} in {rules.jurisdiction} has no bet {bet.kind!r}{where}",
                              source=rules.sources["kinds"], bet=bet.id)
        on = self.parse_target(rules, state.limits, bet)
        self.check_amount(state, rules, bet, on)
        state.bets.append(RouletteBet(bet.id, bet.player, bet.kind, list(on or ()), bet.amount))

    def parse_target(self, rules: RouletteRules, limits: TableLimits, bet: Bet) -> tuple[int, ...] | None:
        """Validate `on` for the bet's kind; the spot as a sorted tuple (None for simple chances)."""
        kind, on = bet.kind, bet.on
        if kind in SIMPLE:
            if on:
                raise TapeteError("bad-target", f"bet {bet.id}: a simple chance ({kind}) takes no 'on'", bet=bet.id)
            return None
        if not on or not all(_is_int(n) for n in on):
            raise TapeteError("bad-target", f"bet {bet.id}: {kind} needs 'on', a list of numbers", bet=bet.id)
        spot = tuple(sorted(on))
        if kind in OUTSIDE:
            size = 2 if kind.startswith("two-") else 1
            if len(spot) != size or not all(1 <= n <= 3 for n in spot) or len(set(spot)) != size:
                raise TapeteError("bad-target", f"bet {bet.id}: {kind} takes {size} of 1, 2, 3 in 'on'", bet=bet.id)
            if size == 2 and spot[1] - spot[0] != 1:
                raise TapeteError("bad-target", f"bet {bet.id}: {kind} must straddle two adjacent boxes (1+2 or 2+3)",
                                  source="001:95-97; R: docs/rulings.md#roulette-adjacent-pairs", bet=bet.id)
            return spot
        if any(not 0 <= n <= 36 for n in spot):
            raise TapeteError("bad-target", f"bet {bet.id}: numbers run from 0 to 36", bet=bet.id)
        spots = layout.inside_spots(kind, zero_trios=rules.zero_trios, first_four=rules.first_four,
                                    zero_splits=limits.allow_zero_splits)
        if spot not in spots:
            if spot in layout.ZERO_TRIOS and kind == "street":
                raise TapeteError("bad-target", f"bet {bet.id}: the zero trio {list(spot)} is not among the bets of {rules.jurisdiction}",
                                  source=rules.sources["zero_trios"], bet=bet.id)
            if spot == layout.FIRST_FOUR and kind == "corner":
                raise TapeteError("bad-target", f"bet {bet.id}: 0-1-2-3 is not among the bets of {rules.jurisdiction}",
                                  source=rules.sources["first_four"], bet=bet.id)
            shape = {"straight": "one number", "split": "two numbers that touch on the cloth",
                     "street": "a row of three", "corner": "four numbers in a square",
                     "six-line": "two adjacent rows"}[kind]
            raise TapeteError("bad-target", f"bet {bet.id}: {kind} {list(spot)} is not {shape}",
                              source=rules.sources["kinds"], bet=bet.id)
        return spot

    def check_amount(self, state: RouletteState, rules: RouletteRules, bet: Bet, on: tuple[int, ...] | None) -> None:
        """Minimum per bet; maximum per player and spot (R: docs/rulings.md#roulette-maximum-scope)."""
        if not _is_int(bet.amount) or bet.amount <= 0:
            raise TapeteError("bad-document", f"bet {bet.id}: amount must be a positive integer (cents)", bet=bet.id)
        lim = state.limits
        minimum = lim.minimum_simple if bet.kind in SIMPLE else lim.minimum
        if bet.amount < minimum:
            what = "simple-chance minimum" if bet.kind in SIMPLE else "table minimum"
            raise TapeteError("under-minimum", f"bet {bet.id} ({bet.kind}, {bet.amount}) is under the {what} of {minimum}",
                              source=rules.sources["simple_minimum_multiple" if bet.kind in SIMPLE else "maxima"], bet=bet.id)
        group = max_group(bet.kind)
        maximum = lim.maxima[group]
        same_spot = bet_index(state, state.bets, _riding_spot).total((bet.player, bet.kind, tuple(on or ())))
        if same_spot + bet.amount > maximum:
            multiple = f" ({maximum // lim.minimum} x minimum)" if maximum % lim.minimum == 0 else ""
            already = f" with {same_spot} already on that spot" if same_spot else ""
            raise TapeteError("over-maximum", f"bet {bet.id} ({bet.kind}, {bet.amount}){already} exceeds the {group} maximum of "
                              f"{maximum}{multiple}", source=rules.sources["maxima"], bet=bet.id)

    def _spin(self, state: RouletteState, rules: RouletteRules, outcome: Outcome) -> None:
        if outcome.name not in self.outcome_names:
            raise TapeteError("bad-document", f"{self.id} takes a 'spin', not a {outcome.name!r}")
        n = outcome.value
        if not _is_int(n) or not 0 <= n <= 36:
            raise TapeteError("bad-outcome", f"spin {n!r}: the wheel has pockets 0 to 36",
                              source=own_citations("001:46; 000:90; 002:104; 003:130-141", state.jurisdiction))
        for bet in state.bets:   # a choice not made by the next spin: prison (R: docs/rulings.md#roulette-default-prison)
            if bet.phase == "choice":
                bet.phase = "prison"
        state.rounds += 1
        state.history.append(n)
        chances = [SPANISH[k] for k in SIMPLE if n in layout.SIMPLE_CHANCES[k]]
        state.log.append(f"spin {state.rounds}: {n}" + (f" — {', '.join(chances)}" if chances else " — zero")
                         + (" (last spin of the session)" if outcome.last else ""))
        riding = [b for b in state.bets if b.phase in ("riding", "prison")]
        for bet in riding:
            self.resolve(state, rules, bet, n, outcome.last)
        self._announce_payments(state, rules, riding)
        state.closed = False
        state.void_pending = False
        if state.next_table is not None:
            state.spins_to_change -= 1
            if state.spins_to_change <= 0:
                state.limits = self._limits(rules, state.next_table)
                state.table, state.next_table = state.next_table, None
                state.log.append(f"new limits in force: minimum {state.limits.minimum}")

    def resolve(self, state: RouletteState, rules: RouletteRules, bet: RouletteBet, n: int, last: bool) -> None:
        """Settle one bet against the pocket n (spec §1.5 step 6, §1.6)."""
        wins = n in layout.covered(bet.kind, bet.on)
        if bet.kind not in SIMPLE:
            bet.returned = bet.amount * (1 + rules.payouts[bet.kind]) if wins else Fraction(0)
            bet.phase = "done"
            return
        if n == 0:
            bet.zeros += 1
            self._zero(state, rules, bet, last)
            return
        if bet.phase == "prison":    # freed: the held amount back, no winnings (001:105; 003:1121-1127)
            bet.returned = held_amount(bet) if wins else Fraction(0)
        else:
            bet.returned = bet.amount * (1 + rules.payouts[bet.kind]) if wins else Fraction(0)
        bet.phase = "done"

    def _zero(self, state: RouletteState, rules: RouletteRules, bet: RouletteBet, last: bool) -> None:
        if rules.zero_on_simple == "half-lost":
            bet.returned = Fraction(bet.amount, 2)
            bet.phase = "done"
            return
        if last and rules.last_spin_refund:   # forced refund of S/2^z (001:109; 000:154; 002:138; 003:320-324)
            bet.returned = Fraction(bet.amount, 2 ** bet.zeros)
            bet.phase = "done"
            return
        bet.phase = "choice"
        bet.locked = bet.zeros >= 2 and self._below_minimum(rules, state.limits, bet)

    @staticmethod
    def _below_minimum(rules: RouletteRules, limits: TableLimits, bet: RouletteBet) -> bool:
        """The lock (001:107 / 003:316-320): N/B/G compare the value S/2^z, Andalucía the held S/2^(z-1)."""
        return zero_system.below_minimum(bet.amount, bet.zeros, rules.prison_lock_basis, limits.minimum)

    def _announce_payments(self, state: RouletteState, rules: RouletteRules, bets: list[RouletteBet]) -> None:
        winners = [b for b in bets if b.phase == "done" and b.returned > 0]
        if rules.payment_order:
            winners.sort(key=lambda b: rules.payment_order.index(b.kind) if b.kind in rules.payment_order else 99)
        for b in winners:
            verb = "returns" if b.returned <= b.amount else "pays"
            state.log.append(f"{verb} {b.id} ({b.kind}{' ' + '-'.join(map(str, b.on)) if b.on else ''}): {euros(b.returned)}")
        for b in bets:
            if b.phase == "choice":
                options = "prison" if b.locked else "prison or half"
                state.log.append(f"{b.id} ({b.kind}) hit by zero #{b.zeros}: {options}")

    def _act(self, state: RouletteState, rules: RouletteRules, act: Act) -> None:
        bet = next((b for b in state.bets if b.id == act.bet), None)
        if act.by is not None or bet is None:
            raise TapeteError("bad-document", f"act names no bet of this round ({act.bet!r})")
        if act.fields:
            raise TapeteError("bad-document", f"unknown act keys {sorted(act.fields)}", bet=bet.id)
        if act.do not in DECISIONS or rules.zero_on_simple != "choice":
            raise TapeteError("illegal-action", f"{act.do!r} is not a decision of {self.id} in {rules.jurisdiction}", bet=bet.id)
        if bet.phase != "choice":
            raise TapeteError("illegal-action", f"bet {bet.id} has no decision due: prison or half is chosen after a zero "
                              "on a simple chance", source=rules.sources["zero_on_simple"], bet=bet.id)
        if act.do == "prison":
            bet.phase = "prison"
            state.log.append(f"{bet.id} to prison")
            return
        if bet.locked:
            raise TapeteError("illegal-action", f"bet {bet.id} is below the table minimum: it must stay in prison until freed",
                              source=rules.sources["prison_lock_basis"], bet=bet.id)
        bet.returned = Fraction(bet.amount, 2 ** bet.zeros)     # take back half the value (001:105-107)
        bet.phase = "done"
        state.log.append(f"{bet.id} takes back {euros(bet.returned)}")

    def _void(self, state: RouletteState, rules: RouletteRules, void: Void) -> None:
        if not isinstance(void.reason, str):
            raise TapeteError("bad-document", "void takes a reason (a string)")
        # R: docs/rulings.md#roulette-defective-launch-andalucia
        if void.reason == "defective-launch" and "defective-launch" not in rules.void_causes:
            raise TapeteError("illegal-action", f"in {rules.jurisdiction} a defective launch that keeps the ball in the wheel does not "
                              "void the spin by itself: the table inspector decides (void with reason 'inspector')",
                              source=rules.sources["void_causes"])
        state.void_pending = True          # R: docs/rulings.md#roulette-void-spin
        state.closed = False
        state.log.append(f"tirada nula ({void.reason}): the ball is relaunched from "
                         f"{state.history[-1] if state.history else 'the last result'}")

    def _change_limits(self, state: RouletteState, rules: RouletteRules, event: Limits) -> None:
        if rules.limit_change == "never":
            raise TapeteError("illegal-action", f"in {rules.jurisdiction} a table's limit may not change during the session",
                              source=rules.sources["limit_change"])
        if rules.jurisdiction == "ES-AN":   # 003:362-367, 003:374-376: the minimum varies, the maxima with it
            new_table = minimum_moves_maximum(state.table, event.values,
                                              minimum_keys=frozenset({"minimum", "minimum-simple"}),
                                              maximum_keys=frozenset({"tier"}), source=rules.sources["limit_change"])
        else:
            new_table = {**state.table, **event.values}
        self._limits(rules, new_table)     # validate now
        state.next_table = new_table
        state.spins_to_change = 3          # R: docs/rulings.md#roulette-limit-change (000:176; 003:362-367)
        state.log.append("limit change announced: three more spins at the old limit")

    def finish(self, state: RouletteState) -> RouletteState:
        return state

    def settle(self, state: RouletteState) -> Settlement:
        results: dict[str, BetResult] = {}
        for b in state.bets:
            staked = Fraction(b.amount)
            if b.phase == "done":
                results[b.id] = BetResult(staked, b.returned)
            elif b.phase == "riding" and state.void_pending:
                results[b.id] = BetResult.voided(staked)
            else:
                results[b.id] = BetResult.pending(staked, at_risk=held_amount(b))
        return Settlement(self.id, state.jurisdiction, results, rounds=state.rounds, log=list(state.log))

    # -- questions every state answers -------------------------------------------------------------
    def legal_actions(self, state: RouletteState) -> list[Action]:
        rules = self._rules[state.jurisdiction]
        actions: list[Action] = []
        if not (state.closed or state.void_pending):
            lim = state.limits
            for kind in rules.kinds:
                minimum = lim.minimum_simple if kind in SIMPLE else lim.minimum
                actions.append(Action("bet", kind=kind, minimum=minimum, maximum=lim.maxima[max_group(kind)],
                                      targets=tuple(self.targets(rules, kind, lim.allow_zero_splits))))
        for b in state.bets:
            if b.phase == "choice":
                actions.append(Action("prison", bet=b.id))
                if not b.locked:
                    actions.append(Action("half", bet=b.id))
        return actions

    def targets(self, rules: RouletteRules, kind: str, zero_splits: bool = True) -> list[tuple[int, ...] | None]:
        """Every legal `on` of a kind in this jurisdiction (None for the simple chances)."""
        if kind in SIMPLE:
            return [None]
        if kind in ("column", "dozen"):
            return [(1,), (2,), (3,)]
        if kind in ("two-columns", "two-dozens"):
            return [(1, 2), (2, 3)]
        return list(layout.inside_spots(kind, zero_trios=rules.zero_trios, first_four=rules.first_four, zero_splits=zero_splits))

    def chance(self, state: RouletteState) -> list[tuple[Event, Fraction]]:
        if not any(b.phase in LIVE for b in state.bets):
            return []
        p = Fraction(1, 37)
        return [(Outcome("spin", n), p) for n in layout.NUMBERS]

    def analysis_key(self, state: RouletteState) -> tuple[Hashable, Fraction]:
        live = [b for b in state.bets if b.phase in LIVE]
        if not live:
            return ("settled",), Fraction(1)
        scale = held_amount(live[0])
        key = tuple(sorted((b.kind, tuple(b.on), b.phase, min(b.zeros, 2), b.locked, held_amount(b) / scale) for b in live))
        return (key, state.closed, state.void_pending), scale

    def decision(self, state: RouletteState, option: str | None) -> Act | None:
        for b in state.bets:
            if b.phase == "choice" and option in DECISIONS and not (option == "half" and b.locked):
                return Act(option, bet=b.id)
        return None

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        rules = self.rules_for(jurisdiction)
        cases = []
        for kind in rules.kinds:
            options: tuple[str | None, ...] = DECISIONS[::-1] if kind in SIMPLE and rules.zero_on_simple == "choice" else (None,)
            for on in self.targets(rules, kind):
                for option in options:
                    cases.append(EdgeCase(kind, on, option, table={"minimum": 100}, amount=100))
        return cases


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
