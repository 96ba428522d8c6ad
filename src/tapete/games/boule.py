"""Boule (bola o «boule»): ES 001:332-389, ES-IB 000:410-464, ES-GA 002:330-372, ES-AN 003:903-1027.

A rubber ball falls into one of eighteen holes numbered 1-9 (each number twice, R). A number pays 7 to 1; the six
simple chances pay 1 to 1 and all lose to the 5, which is in none of them. The rules that affect outcomes are the
same in the four catalogs; only the citations differ.
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

SIMPLE = ("red", "black", "even", "odd", "low", "high")
KINDS = ("number", *SIMPLE)
SPANISH = {"red": "rojo", "black": "negro", "even": "par", "odd": "impar", "low": "falta", "high": "pasa"}
DESCRIPTIONS = {
    "number": "Número entero (pleno): one number 1-9, the 5 included, on [n]",
    "red": "Rojo: 2, 4, 7, 9", "black": "Negro: 1, 3, 6, 8", "even": "Par: 2, 4, 6, 8", "odd": "Impar: 1, 3, 7, 9",
    "low": "Falta: 1-4", "high": "Pasa: 6-9",
}


@dataclass(frozen=True)
class BouleRules(Rules):
    numbers: tuple[int, ...]                       # the holes' numbers
    holes_per_number: int                          # eighteen holes for nine numbers
    chances: Mapping[str, tuple[int, ...]]         # the simple chances; 5 is in none of them
    payouts: Mapping[str, Fraction]                # 'number' and each simple chance, "X to 1", the stake kept
    five_takes_simple: bool                        # when 5 comes up every simple-chance bet loses
    layout_minimum_multiple: int                   # a layout may open at this multiple of the authorised minimum
    number_maximum_bounds: tuple[int, int]         # the authorised maximum on a number, in multiples of m
    simple_maximum_bounds: tuple[int, int]         # ... and on a simple chance
    maximum_scope: str                             # per table, each player on his own
    limit_change: str                              # no text provides a change of limits during a session
    void_causes: tuple[str, ...]                   # none in the texts: the inspector's catch-all


def _boule(jurisdiction: str, sources: dict[str, str]) -> BouleRules:
    return BouleRules(
        jurisdiction=jurisdiction, sources=sources, numbers=tuple(range(1, 10)), holes_per_number=2,
        chances={
            "red": (2, 4, 7, 9), "black": (1, 3, 6, 8), "even": (2, 4, 6, 8), "odd": (1, 3, 7, 9),
            "low": (1, 2, 3, 4), "high": (6, 7, 8, 9),
        },
        payouts={"number": Fraction(7), **{k: Fraction(1) for k in SIMPLE}}, five_takes_simple=True,
        layout_minimum_multiple=2, number_maximum_bounds=(40, 100), simple_maximum_bounds=(200, 500),
        maximum_scope="per-player", limit_change="never", void_causes=("inspector",),
    )


def _sources(colours: str, cloth: str, holes: str, bets: str, minimum: str, maximum: str, scope: str, catch_all: str,
             ) -> dict[str, str]:
    return {
        "numbers": holes, "holes_per_number": f"{holes}; R: docs/rulings.md#boule-holes",
        "chances": f"{colours}; {cloth}", "payouts": bets, "five_takes_simple": f"{cloth}; {bets}",
        "layout_minimum_multiple": f"{minimum}; R: docs/rulings.md#boule-layouts",
        "number_maximum_bounds": maximum, "simple_maximum_bounds": maximum,
        "maximum_scope": f"{scope}; R: docs/rulings.md#boule-maximum-scope",
        "limit_change": f"{minimum}; {maximum}; R: docs/rulings.md#boule-limits",
        "void_causes": f"{catch_all}; R: docs/rulings.md#boule-void",
    }


BOULE_RULES: dict[str, BouleRules] = {
    "ES": _boule("ES", _sources("001:344", "001:346", "001:342", "001:363-365; 001:389", "001:369", "001:371",
                                "001:379", "001:1084")),
    "ES-IB": _boule("ES-IB", _sources("000:422", "000:424", "000:420", "000:444-446; 000:464", "000:450", "000:452",
                                      "000:454", "000:1177")),
    "ES-GA": _boule("ES-GA", _sources("002:340", "002:342", "002:340", "002:356-360; 002:372", "002:362", "002:364",
                                      "002:364", "002:828")),
    "ES-AN": _boule("ES-AN", _sources("003:928-930", "003:935-944", "003:921-926", "003:967-978; 003:1023-1027",
                                      "003:981-989", "003:991-996", "003:996-1000", "003:2901-2903")),
}


@dataclass
class BouleBet:
    id: str
    player: str
    kind: str
    on: list[int]
    amount: int
    layout: int = 1
    phase: str = "riding"            # riding | done
    returned: Fraction = Fraction(0)


@dataclass
class BouleState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    minimum: int                     # the authorised minimum
    layout_minima: list[int]         # each layout's minimum: the authorised one or twice it
    maximum_number: int
    maximum_simple: int
    aggregate_layouts: bool          # a player's bets on one spot count together across the layouts
    bets: list[BouleBet] = field(default_factory=list)
    closed: bool = False
    void_pending: bool = False
    rounds: int = 0
    history: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


class BouleGame(Game):
    id = "boule"
    name_es = "Bola o boule"
    name_en = "Boule"
    outcome_names = ("spin",)
    extra_bet_fields = frozenset({"layout"})

    @property
    def rules(self) -> dict[str, BouleRules]:  # type: ignore[override]
        return BOULE_RULES

    def state_type(self) -> type:
        return BouleState

    def kinds(self) -> list[KindInfo]:
        return [KindInfo(k, format_ratio(BOULE_RULES["ES"].payouts[k]), DESCRIPTIONS[k]) for k in KINDS]

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="the authorised minimum (cents)"),
            TableKey("maximum-number", default=None, description="the authorised maximum on a number, 40-100 x minimum; "
                     "default 100 x minimum"),
            TableKey("maximum-simple", default=None, description="the authorised maximum on a simple chance, 200-500 x "
                     "minimum; default 500 x minimum"),
            TableKey("layout-minima", default=None, description="the minimum of each layout (paño), one or two, each "
                     "the minimum or twice it; default [minimum]"),
            TableKey("establishment-keeps-minimum", default=True, description="another boule layout of the "
                     "establishment keeps the authorised minimum (001:369)"),
            TableKey("boule-max-aggregate-across-panos", default=True, description="a player's bets on one spot count "
                     "together across the layouts (docs/rulings.md#boule-maximum-scope)"),
            TableKey("rounding", default="player", description="fractions of a cent: 'player' or 'house'"),
        ]

    # -- table -------------------------------------------------------------------------------------
    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> BouleState:
        rules = self.rules_for(jurisdiction)
        if shoe is not None:
            raise TapeteError("bad-document", "boule is not a card game: a shoe is not accepted")
        known = {t.key for t in self.table_keys()}
        for key in table:
            if key not in known:
                raise TapeteError("bad-document", f"unknown table key {key!r} for boule (known: {', '.join(sorted(known))})")
        m = table.get("minimum")
        if not _is_int(m) or m <= 0:
            raise TapeteError("bad-document", "table.minimum (the authorised minimum, in cents) is required and must be "
                              "a positive integer")
        maxima = {}
        for key, bounds, field_name in (("maximum-number", rules.number_maximum_bounds, "number_maximum_bounds"),
                                        ("maximum-simple", rules.simple_maximum_bounds, "simple_maximum_bounds")):
            low, high = bounds[0] * m, bounds[1] * m
            value = table.get(key, high)
            if not _is_int(value) or not low <= value <= high:
                raise TapeteError("bad-table", f"{key} {value!r} must lie between {bounds[0]} and {bounds[1]} times the "
                                  f"authorised minimum ({low}-{high})", source=rules.sources[field_name])
            maxima[key] = value
        layouts = self._layouts(rules, table, m)
        aggregate = table.get("boule-max-aggregate-across-panos", True)
        for key in ("boule-max-aggregate-across-panos", "establishment-keeps-minimum"):
            if not isinstance(table.get(key, True), bool):
                raise TapeteError("bad-document", f"{key} is true or false")
        if table.get("rounding", "player") not in ("player", "house"):
            raise TapeteError("bad-document", "rounding must be 'player' or 'house'")
        return BouleState(self.id, jurisdiction, dict(table), m, layouts, maxima["maximum-number"],
                          maxima["maximum-simple"], aggregate)

    @staticmethod
    def _layouts(rules: BouleRules, table: dict[str, Any], m: int) -> list[int]:
        """One or two layouts, each at the authorised minimum or at twice it, the authorised minimum being kept on
        at least one layout of the establishment (001:340; 001:369)."""
        layouts = table.get("layout-minima", [m])
        double = rules.layout_minimum_multiple * m
        if not isinstance(layouts, list) or not 1 <= len(layouts) <= 2 or any(v not in (m, double) for v in layouts):
            raise TapeteError("bad-table", f"layout-minima lists one or two layouts, each at the minimum {m} or at "
                              f"{rules.layout_minimum_multiple} x minimum ({double})",
                              source=rules.sources["layout_minimum_multiple"])
        if m not in layouts and not table.get("establishment-keeps-minimum", True):
            raise TapeteError("bad-table", f"the authorised minimum {m} must be kept on at least one layout of the "
                              "establishment while it is open", source=rules.sources["layout_minimum_multiple"])
        return list(layouts)

    # -- the reducer -------------------------------------------------------------------------------
    def apply(self, state: BouleState, event: Event) -> None:
        rules = BOULE_RULES[state.jurisdiction]
        if isinstance(event, Bet):
            self._bet(state, rules, event)
        elif isinstance(event, Outcome):
            self._spin(state, rules, event)
        elif isinstance(event, Close):
            state.closed = True
            state.log.append("no va más")
        elif isinstance(event, Void):
            self._void(state, event)
        elif isinstance(event, Limits):
            raise TapeteError("illegal-action", "boule's limits are those of the authorisation: no text provides a change "
                              "during the session", source=rules.sources["limit_change"])
        elif isinstance(event, Act):
            raise TapeteError("illegal-action", f"boule has no decisions: {event.do!r} is not a verb of the game",
                              source=rules.sources["payouts"], bet=event.bet)
        elif isinstance(event, Deal):
            raise TapeteError("bad-document", "boule has no deal: the round's outcome is a spin")
        else:  # pragma: no cover
            raise TapeteError("bad-document", f"unexpected event {event!r}")

    def _bet(self, state: BouleState, rules: BouleRules, bet: Bet) -> None:
        if state.closed or state.void_pending:
            why = "the ball is relaunched at once after a void roll" if state.void_pending else "no va más has been called"
            raise TapeteError("bet-closed", f"bet {bet.id} refused, the chips pushed back: {why}",
                              source=own_citations("001:385; 000:460; 002:368; 003:1014-1017", state.jurisdiction), bet=bet.id)
        if bet.id in bet_index(state, state.bets).ids:
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.kind not in KINDS:
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: boule has only numbers and the simple chances, not "
                              f"{bet.kind!r}", source=rules.sources["payouts"], bet=bet.id)
        on = self._target(rules, bet)
        layout = bet.extra.get("layout", 1)
        if not _is_int(layout) or not 1 <= layout <= len(state.layout_minima):
            raise TapeteError("bad-target", f"bet {bet.id}: this table has layouts 1-{len(state.layout_minima)}",
                              bet=bet.id)
        minimum = state.layout_minima[layout - 1]
        if bet.amount < minimum:
            raise TapeteError("under-minimum", f"bet {bet.id} ({bet.amount}) is under the minimum {minimum} of layout "
                              f"{layout}", source=rules.sources["layout_minimum_multiple"], bet=bet.id)
        maximum = state.maximum_number if bet.kind == "number" else state.maximum_simple
        same = sum(b.amount for b in state.bets if b.phase == "riding" and b.player == bet.player and b.kind == bet.kind
                   and b.on == on and (state.aggregate_layouts or b.layout == layout))
        if same + bet.amount > maximum:
            already = f" with {same} already on it" if same else ""
            raise TapeteError("over-maximum", f"bet {bet.id} ({bet.kind}, {bet.amount}){already} exceeds the maximum "
                              f"of {maximum} for each player", source=rules.sources["maximum_scope"], bet=bet.id)
        state.bets.append(BouleBet(bet.id, bet.player, bet.kind, on, bet.amount, layout))

    @staticmethod
    def _target(rules: BouleRules, bet: Bet) -> list[int]:
        if bet.kind != "number":
            if bet.on:
                raise TapeteError("bad-target", f"bet {bet.id}: a simple chance ({bet.kind}) takes no 'on'", bet=bet.id)
            return []
        on = bet.on or ()
        if len(on) != 1 or not _is_int(on[0]) or on[0] not in rules.numbers:
            raise TapeteError("bad-target", f"bet {bet.id}: a number bet is on one number 1-9, not {list(on)}",
                              source=rules.sources["numbers"], bet=bet.id)
        return [on[0]]

    def _spin(self, state: BouleState, rules: BouleRules, outcome: Outcome) -> None:
        n = outcome.value
        if not _is_int(n) or n not in rules.numbers:
            raise TapeteError("bad-outcome", f"spin {n!r}: the holes are numbered 1 to 9", source=rules.sources["numbers"])
        state.rounds += 1
        state.history.append(n)
        chances = [SPANISH[k] for k in SIMPLE if n in rules.chances[k]]
        state.log.append(f"roll {state.rounds}: {n}" + (f" — {', '.join(chances)}" if chances else
                                                         " — the 5: every simple chance loses"))
        for bet in state.bets:
            if bet.phase == "riding":
                bet.returned = self.returned(rules, bet, n)
                bet.phase = "done"
                if bet.returned:
                    state.log.append(f"pays {bet.id} ({bet.kind}{' ' + str(bet.on[0]) if bet.on else ''}): "
                                     f"{euros(bet.returned)}")
        state.closed = False
        state.void_pending = False

    @staticmethod
    def returned(rules: BouleRules, bet: BouleBet, n: int) -> Fraction:
        """Stake plus winnings when the bet's spot holds n (001:365; 001:389), else nothing."""
        if bet.kind == "number":
            wins = n in bet.on
        else:
            wins = n in rules.chances[bet.kind] and not (n == 5 and rules.five_takes_simple)
        return bet.amount * (1 + rules.payouts[bet.kind]) if wins else Fraction(0)

    def _void(self, state: BouleState, void: Void) -> None:
        """No text voids a roll; the inspector may (R: docs/rulings.md#boule-void): bets stay, the ball is relaunched."""
        if not isinstance(void.reason, str):
            raise TapeteError("bad-document", "void takes a reason (a string)")
        state.void_pending = True
        state.closed = False
        state.log.append(f"roll annulled by the inspector ({void.reason}): the ball is launched again")

    def settle(self, state: BouleState) -> Settlement:
        results: dict[str, BetResult] = {}
        for b in state.bets:
            staked = Fraction(b.amount)
            if b.phase == "done":
                results[b.id] = BetResult(staked, b.returned)
            elif state.void_pending:
                results[b.id] = BetResult.voided(staked)
            else:
                results[b.id] = BetResult.pending(staked)
        return Settlement(self.id, state.jurisdiction, results, rounds=state.rounds, log=list(state.log))

    # -- questions every state answers -------------------------------------------------------------
    def legal_actions(self, state: BouleState) -> list[Action]:
        if state.closed or state.void_pending:
            return []
        low = min(state.layout_minima)
        return [Action("bet", kind="number", minimum=low, maximum=state.maximum_number,
                       targets=tuple((n,) for n in BOULE_RULES[state.jurisdiction].numbers))] + [
            Action("bet", kind=k, minimum=low, maximum=state.maximum_simple, targets=(None,)) for k in SIMPLE]

    def chance(self, state: BouleState) -> list[tuple[Event, Fraction]]:
        if not any(b.phase == "riding" for b in state.bets):
            return []
        rules = BOULE_RULES[state.jurisdiction]
        holes = rules.holes_per_number * len(rules.numbers)
        return [(Outcome("spin", n), Fraction(rules.holes_per_number, holes)) for n in rules.numbers]

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        rules = self.rules_for(jurisdiction)
        return [EdgeCase("number", (n,), table={"minimum": 100}) for n in rules.numbers] + [
            EdgeCase(k, None, table={"minimum": 100}) for k in SIMPLE]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


BOULE = register(BouleGame())
