"""Trente et quarante (*treinta y cuarenta*, *trinta e corenta*): two rows to 31-40, four even chances.

Spec part B (docs/games/trente-quarante.md). The 31-31 tie borrows the roulette zero system
(half back or prison, halving again at each further tie), shared with French roulette through
`tapete.engine.zero_system` and the jurisdiction's own roulette rules (no rule written twice).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from tapete.core.errors import TapeteError
from tapete.core.money import euros
from tapete.core.rng import TableRng
from tapete.engine import zero_system
from tapete.engine.bet_index import bet_index
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, EdgeCase, Game, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.rules import Rules
from tapete.engine.settlement import BetResult, Settlement
from tapete.engine.shoe import Shoe, check_cut_card
from tapete.games.blackjack.game import pretty
from tapete.games.roulette.rules import FRENCH_RULES

KINDS = ("black", "red", "color", "inverse")
SPANISH = {"black": "negro", "red": "rojo", "color": "color", "inverse": "inverso"}
DECISIONS = ("prison", "half")
RED_SUITS = frozenset("HD")
LIVE = ("riding", "choice", "prison")


@dataclass(frozen=True)
class TrenteQuaranteRules(Rules):
    decks: int
    row_stop: int                        # a row is complete once its total reaches this (31)
    payout: Fraction                     # every chance pays 1 to 1
    kinds: tuple[str, ...]
    refait: Literal["zero-system"]       # the 31-31 tie: the roulette zero system
    tie_default: Literal["prison", "half"]   # what a 31-31 bet becomes when the player makes no choice
    prison_lock_basis: Literal["value", "held"]   # taken from the jurisdiction's roulette
    last_coup_refund: bool               # the forced refund on the session's last coup (roulette's rule)
    insurance_premium: Fraction          # 1% of the bet, paid when it is placed
    insurance_minimum: int | None        # smallest insurable bet in cents (None: any)
    insurance_covers: Literal["31-tie", "any-tie"]
    maximum_multiple: int
    red_card_reserve: int                # cards behind the red card
    burn: int
    payment_order: tuple[str, ...]


def _tq(j: str, seed: str, lines: dict[str, str], **fields: object) -> TrenteQuaranteRules:
    roulette = FRENCH_RULES[j]
    base: dict[str, object] = dict(
        decks=6, row_stop=31, payout=Fraction(1), kinds=KINDS, refait="zero-system", tie_default="prison",
        prison_lock_basis=roulette.prison_lock_basis, last_coup_refund=roulette.last_spin_refund,
        insurance_premium=Fraction(1, 100), insurance_minimum=None, insurance_covers="31-tie",
        maximum_multiple=1000, red_card_reserve=5, burn=0, payment_order=("color", "inverse", "black", "red"),
    )
    base.update(fields)
    sources = {k: (v if v.startswith(("R:", "0")) else f"{seed}:{v}") for k, v in lines.items()}
    sources["prison_lock_basis"] = f"{sources['refait']}; {roulette.sources['prison_lock_basis']}"
    sources["last_coup_refund"] = f"{sources['refait']}; {roulette.sources['last_spin_refund']}"
    return TrenteQuaranteRules(jurisdiction=j, sources=sources, **base)  # type: ignore[arg-type]


TQ_RULES: dict[str, TrenteQuaranteRules] = {
    "ES": _tq("ES", "001", {
        "decks": "401", "row_stop": "425; 001:454", "payout": "427", "kinds": "427-433",
        "refait": "435; R: docs/rulings.md#trente-quarante-repeated-ties",
        "tie_default": "435; R: docs/rulings.md#trente-quarante-tie-default",
        "insurance_premium": "435; R: docs/rulings.md#trente-quarante-premium",
        "insurance_minimum": "435; R: docs/rulings.md#trente-quarante-insurance-threshold",
        "insurance_covers": "435; 004:5", "maximum_multiple": "441", "red_card_reserve": "452",
        "burn": "450-454 (silent)", "payment_order": "454"}),
    "ES-IB": _tq("ES-IB", "000", {
        "decks": "476", "row_stop": "500; 000:528", "payout": "504", "kinds": "504-512",
        "refait": "514; R: docs/rulings.md#trente-quarante-repeated-ties",
        "tie_default": "514; R: docs/rulings.md#trente-quarante-tie-default",
        "insurance_premium": "514; R: docs/rulings.md#trente-quarante-premium",
        "insurance_minimum": "514; R: docs/rulings.md#trente-quarante-insurance-threshold",
        "insurance_covers": "514; 004:5", "maximum_multiple": "520", "red_card_reserve": "526",
        "burn": "524-528 (silent)", "payment_order": "528"}),
    "ES-GA": _tq("ES-GA", "002", {
        "decks": "382", "row_stop": "400; 002:416", "payout": "402", "kinds": "402-406",
        "refait": "408; R: docs/rulings.md#trente-quarante-repeated-ties",
        "tie_default": "408; R: docs/rulings.md#trente-quarante-tie-default",
        "insurance_premium": "408; R: docs/rulings.md#trente-quarante-premium",
        "insurance_minimum": "408; R: docs/rulings.md#trente-quarante-insurance-threshold",
        "insurance_covers": "408; 004:5", "maximum_multiple": "410", "red_card_reserve": "414",
        "burn": "412-416 (silent)", "payment_order": "416"}),
    "ES-AN": _tq("ES-AN", "003", {
        "decks": "1043-1052", "row_stop": "1100-1103; 003:1162-1163; R: docs/rulings.md#trente-quarante-forty",
        "payout": "1109-1112", "kinds": "1114-1119",
        "refait": "1121-1127; R: docs/rulings.md#trente-quarante-repeated-ties",
        "tie_default": "1123-1127; R: docs/rulings.md#trente-quarante-tie-default",
        "insurance_premium": "1129-1133; R: docs/rulings.md#trente-quarante-premium", "insurance_minimum": "1129-1131",
        "insurance_covers": "1131-1133", "maximum_multiple": "1143-1144", "red_card_reserve": "1153-1157",
        "burn": "1147-1163 (silent)", "payment_order": "1167-1171"},
        insurance_covers="any-tie", tie_default="half"),
}


@dataclass
class TQLimits:
    minimum: int
    maximum: int
    insurance_minimum: int = 0


@dataclass
class TQBet:
    id: str
    player: str
    kind: str
    amount: int
    insured: bool = False
    phase: str = "riding"        # riding | choice (after a 31-31 tie) | prison | done
    zeros: int = 0               # 31-31 ties met
    locked: bool = False         # below the minimum: must stay in prison
    returned: Fraction = Fraction(0)
    dealt: bool = False          # has been through at least one coup

    @property
    def premium(self) -> Fraction:
        return Fraction(self.amount, 100) if self.insured else Fraction(0)


@dataclass
class Coup:
    black: list[str]
    red: list[str]
    black_total: int
    red_total: int


@dataclass
class TQState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    limits: TQLimits
    shoe: Shoe | None = None
    bets: list[TQBet] = field(default_factory=list)
    closed: bool = False
    rounds: int = 0
    coups: list[Coup] = field(default_factory=list)
    shoe_ended: bool = False     # the red card came out: the shoe is finished
    dealt_any: bool = False
    void_pending: bool = False
    log: list[str] = field(default_factory=list)


def card_value(card: str) -> int:
    """Ace 1, figures 10, the rest their face value (000:476; 003:1048-1052)."""
    r = card[0]
    return 1 if r == "A" else 10 if r in "TJQK" else int(r)


def is_red(card: str) -> bool:
    return card[1] in RED_SUITS


def winners(black_total: int, red_total: int, first_red: bool) -> tuple[str, ...] | None:
    """The chances that win; None on equal totals (void, or the 31-31 tie). The row nearer 31 — the lower
    total — wins (000:506-508); colour if the winning row has the colour of the black row's first card
    (000:510-512)."""
    if black_total == red_total:
        return None
    row = "black" if black_total < red_total else "red"
    color = "color" if (row == "red") == first_red else "inverse"
    return row, color


class TrenteQuaranteGame(Game):
    id = "trente-quarante"
    name_es = "Treinta y cuarenta"
    name_en = "Trente et quarante"
    uses_shoe = True
    outcome_names = ()
    extra_bet_fields = frozenset({"insured"})

    @property
    def rules(self) -> dict[str, TrenteQuaranteRules]:  # type: ignore[override]
        return TQ_RULES

    def state_type(self) -> type:
        return TQState

    def kinds(self) -> list[KindInfo]:
        return [KindInfo("black", "1:1", "Negro: the black (first) row is nearer 31"),
                KindInfo("red", "1:1", "Rojo: the red (second) row is nearer 31"),
                KindInfo("color", "1:1", "Color: the winning row has the colour of the black row's first card"),
                KindInfo("inverse", "1:1", "Inverso: it has the other colour")]

    def verbs(self) -> list[str]:
        return list(DECISIONS)

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="authorised minimum bet, cents (the maximum is 1000 x)"),
            TableKey("cut-card", default=None, description="index in shoe of the red card's place: reaching it voids the coup "
                     "(default: 5 cards from the end of a full 312-card shoe)"),
            TableKey("insurance-minimum", default=0, description="smallest insurable bet, cents (the 004 fragment: 1000; "
                     "docs/rulings.md#trente-quarante-insurance-threshold)"),
            TableKey("rounding", default="player", description="fractions of a cent: 'player' (docs/format.md) or 'house'"),
        ]

    def _limits(self, rules: TrenteQuaranteRules, table: dict[str, Any]) -> TQLimits:
        known = {t.key for t in self.table_keys()}
        for key in table:
            if key not in known:
                raise TapeteError("bad-document", f"unknown table key {key!r} for trente-quarante (known: {', '.join(sorted(known))})")
        m = table.get("minimum")
        if not _is_int(m) or m <= 0:
            raise TapeteError("bad-document", "table.minimum (the authorised minimum, in cents) is required and must be a positive integer")
        ins = table.get("insurance-minimum", rules.insurance_minimum or 0)
        if not _is_int(ins) or ins < 0:
            raise TapeteError("bad-document", "table.insurance-minimum is an amount in cents")
        if table.get("rounding", "player") not in ("player", "house"):
            raise TapeteError("bad-document", "rounding must be 'player' or 'house'")
        return TQLimits(m, m * rules.maximum_multiple, ins)

    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> TQState:
        rules = self.rules_for(jurisdiction)
        state = TQState(self.id, jurisdiction, dict(table), self._limits(rules, table))
        if shoe is not None:
            cut = table.get("cut-card")
            if cut is None and len(shoe) == rules.decks * 52:
                cut = len(shoe) - rules.red_card_reserve
            state.shoe = Shoe.from_document(shoe, decks=rules.decks, cut_index=cut)
            check_cut_card(state.shoe, full=52 * rules.decks, behind=rules.red_card_reserve, exact=True,   # 001:452
                           what="red card", source=rules.sources["red_card_reserve"], burned=rules.burn)
        elif table.get("cut-card") is not None:
            raise TapeteError("bad-document", "cut-card indexes the document's shoe")
        return state

    def live_shoe(self, state: TQState, rng: TableRng) -> None:
        """Shuffled, cut by the player at the croupier's right, the red card five from the end (000:524-526)."""
        rules = TQ_RULES[state.jurisdiction]
        state.shoe = Shoe.prepared(rng, decks=rules.decks, reserve=rules.red_card_reserve, burn=rules.burn)
        state.shoe_ended = False
        state.log.append("new shoe: shuffled, cut, the red card placed five cards from the end")

    # -- the reducer -------------------------------------------------------------------------------
    def apply(self, state: TQState, event: Event) -> None:
        rules = TQ_RULES[state.jurisdiction]
        if isinstance(event, Bet):
            self._bet(state, rules, event)
        elif isinstance(event, Deal):
            self._coup(state, rules, last=event.last)
        elif isinstance(event, Act):
            self._act(state, rules, event)
        elif isinstance(event, Close):
            state.closed = True
            state.log.append("no more bets")
        elif isinstance(event, Void):
            for b in state.bets:
                if b.phase == "choice":
                    self._default_choice(state, rules, b)
            state.void_pending = True
            state.log.append(f"coup annulled ({event.reason}): bets stay for the next coup")
        elif isinstance(event, Limits):
            raise TapeteError("illegal-action", "the trente et quarante texts provide no change of limits during a session",
                              source=rules.sources["maximum_multiple"])
        elif isinstance(event, Outcome):
            raise TapeteError("bad-document", "trente-quarante deals from shoe with 'deal': it takes no outcome events")

    def _bet(self, state: TQState, rules: TrenteQuaranteRules, bet: Bet) -> None:
        if state.closed:
            raise TapeteError("bet-closed", f"bet {bet.id}: bets are closed until the coup is dealt", bet=bet.id)
        if bet.id in bet_index(state, state.bets).ids:
            raise TapeteError("bad-document", f"bet id {bet.id!r} used twice", bet=bet.id)
        if bet.kind not in rules.kinds:
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: {bet.kind!r} is not a chance of trente et quarante "
                              f"({', '.join(KINDS)})", bet=bet.id, source=rules.sources["kinds"])
        if bet.on:
            raise TapeteError("bad-target", f"bet {bet.id}: the chances take no 'on'", bet=bet.id)
        insured = bet.extra.get("insured", False)
        if not isinstance(insured, bool):
            raise TapeteError("bad-document", f"bet {bet.id}: 'insured' is true or false", bet=bet.id)
        lim = state.limits
        if bet.amount < lim.minimum:
            raise TapeteError("under-minimum", f"bet {bet.id} ({bet.amount}) is under the table minimum of {lim.minimum}",
                              bet=bet.id, source=rules.sources["maximum_multiple"])
        if bet.amount > lim.maximum:   # per bet (R: docs/rulings.md#trente-quarante-maximum-scope)
            raise TapeteError("over-maximum", f"bet {bet.id} ({bet.amount}) exceeds the maximum of {lim.maximum} "
                              f"({rules.maximum_multiple} x minimum)", bet=bet.id, source=rules.sources["maximum_multiple"])
        if insured and bet.amount < lim.insurance_minimum:
            raise TapeteError("under-minimum", f"bet {bet.id} ({bet.amount}): only bets of {lim.insurance_minimum} or more "
                              "may be insured", bet=bet.id, source="004:5")
        state.bets.append(TQBet(bet.id, bet.player, bet.kind, bet.amount, insured))
        if insured:
            state.log.append(f"{bet.id} insured against the 31 tie: premium {euros(Fraction(bet.amount, 100))}")

    def _draw(self, state: TQState) -> str | None:
        """The next card, or None when the red card shows (the coup in progress is void, 000:526)."""
        shoe = state.shoe
        assert shoe is not None
        if shoe.at_cut:
            return None
        return shoe.draw().text

    def _row(self, state: TQState, rules: TrenteQuaranteRules, row: list[str]) -> bool:
        """Deal one row until 31 or more (000:528); False when the red card shows first."""
        while sum(card_value(c) for c in row) < rules.row_stop:
            card = self._draw(state)
            if card is None:
                return False
            row.append(card)
        return True

    def _coup(self, state: TQState, rules: TrenteQuaranteRules, last: bool = False) -> None:
        if state.shoe is None:
            raise TapeteError("bad-document", "trente-quarante deals from a shoe: the document needs 'shoe'")
        if state.shoe_ended:
            raise TapeteError("shoe-exhausted", "the red card came out: the shoe is finished",
                              source=rules.sources["red_card_reserve"])
        for b in state.bets:            # a choice not made before the next coup: the jurisdiction's default
            if b.phase == "choice":
                self._default_choice(state, rules, b)
        state.closed = False
        state.dealt_any = True
        state.void_pending = False
        black: list[str] = []
        red: list[str] = []
        if not (self._row(state, rules, black) and self._row(state, rules, red)):
            state.shoe_ended = True
            state.void_pending = True
            shown = " ".join(pretty(c) for c in black + red)
            state.log.append(f"the red card{' after ' + shown if shown else ''}: the coup is void, the last five cards are "
                             "counted face down, the shoe ends")
            for b in state.bets:
                if b.phase == "riding":
                    b.dealt = True
            return
        bt, rt = sum(map(card_value, black)), sum(map(card_value, red))
        state.coups.append(Coup(black, red, bt, rt))
        state.rounds += 1
        won = winners(bt, rt, is_red(black[0]))
        live = [b for b in state.bets if b.phase in ("riding", "prison")]
        for b in live:
            self.resolve(state, rules, b, bt, rt, won, last)
        self._announce(state, rules, black, red, bt, rt, won, live)

    def resolve(self, state: TQState, rules: TrenteQuaranteRules, b: TQBet, bt: int, rt: int,
                won: tuple[str, ...] | None, last: bool) -> None:
        """Settle one live bet on the coup (000:504-514; 003:1121-1133)."""
        riding = b.phase == "riding"
        b.dealt = True
        if won is not None:
            if riding:
                b.returned = b.amount * (1 + rules.payout) if b.kind in won else Fraction(0)
            else:                        # freed from prison: what it holds back, no winnings (000:150)
                b.returned = zero_system.held(b.amount, b.zeros) if b.kind in won else Fraction(0)
            b.phase = "done"
            return
        if bt != rules.row_stop:         # equal totals other than 31: void (000:514); a prison bet waits (B9-4)
            if riding:
                b.returned = Fraction(b.amount)
                b.phase = "done"
            return
        if riding and b.insured:         # insured: the stake back, the premium kept (004:5; 003:1131-1133)
            b.returned = Fraction(b.amount)
            b.phase = "done"
            return
        b.zeros += 1                     # the roulette zero system (000:150-154; 003:304-324)
        if last and rules.last_coup_refund:
            b.returned = zero_system.refund(b.amount, b.zeros)
            b.phase = "done"
            return
        b.phase = "choice"
        b.locked = b.zeros >= 2 and zero_system.below_minimum(b.amount, b.zeros, rules.prison_lock_basis,
                                                                state.limits.minimum)

    def _announce(self, state: TQState, rules: TrenteQuaranteRules, black: list[str], red: list[str], bt: int, rt: int,
                  won: tuple[str, ...] | None, live: list[TQBet]) -> None:
        rows = f"black {' '.join(map(pretty, black))} = {bt}; red {' '.join(map(pretty, red))} = {rt}"
        if won is None:
            verdict = "31 after 31: the zero rule" if bt == rules.row_stop else "equal: the coup is void"
        else:
            digit = (bt if won[0] == "black" else rt) - 30   # "dos negro y color ganan" (000:528)
            verdict = f"{digit} — {SPANISH[won[0]]} y {SPANISH[won[1]]} ganan; color {'gana' if won[1] == 'color' else 'pierde'}"
        state.log.append(f"coup {state.rounds}: {rows} — {verdict}")
        paid = [b for b in live if b.phase == "done" and b.returned > 0]
        paid.sort(key=lambda b: rules.payment_order.index(b.kind))   # color/inverso first, then black and red (000:528)
        for b in paid:
            state.log.append(f"{'pays' if b.returned > b.amount else 'returns'} {b.id} ({b.kind}): {euros(b.returned)}")
        for b in live:
            if b.phase == "choice":
                state.log.append(f"{b.id} ({b.kind}) at 31-31 #{b.zeros}: {'prison' if b.locked else 'prison or half'}")

    def _default_choice(self, state: TQState, rules: TrenteQuaranteRules, b: TQBet) -> None:
        """No choice made after a 31-31 tie. Andalucía returns half unless the player prefers to keep the bet
        (003:1123-1127); the other texts only borrow roulette's zero system, where prison is the default
        (docs/rulings.md#trente-quarante-tie-default). A bet below the minimum stays in prison either way."""
        if rules.tie_default == "half" and not b.locked:
            b.returned = zero_system.refund(b.amount, b.zeros)
            b.phase = "done"
            state.log.append(f"{b.id} made no choice: half is returned, {euros(b.returned)} (003:1123-1127)")
        else:
            b.phase = "prison"
            state.log.append(f"{b.id} stays in prison")

    def _act(self, state: TQState, rules: TrenteQuaranteRules, act: Act) -> None:
        bet = next((b for b in state.bets if b.id == act.bet), None)
        if act.by is not None or bet is None:
            raise TapeteError("bad-document", f"act names no bet of this document ({act.bet!r})")
        if act.fields:
            raise TapeteError("bad-document", f"unknown act keys {sorted(act.fields)}", bet=bet.id)
        if act.do not in DECISIONS:
            raise TapeteError("illegal-action", f"{act.do!r} is not a decision of trente-quarante (prison, half)", bet=bet.id)
        if bet.phase != "choice":
            raise TapeteError("illegal-action", f"bet {bet.id} has no decision due: prison or half follow a 31-31 tie",
                              bet=bet.id, source=rules.sources["refait"])
        if act.do == "prison":
            bet.phase = "prison"
            state.log.append(f"{bet.id} to prison")
            return
        if bet.locked:
            raise TapeteError("illegal-action", f"bet {bet.id} is below the table minimum: it stays in prison until freed",
                              bet=bet.id, source=rules.sources["prison_lock_basis"])
        bet.returned = zero_system.refund(bet.amount, bet.zeros)
        bet.phase = "done"
        state.log.append(f"{bet.id} takes back {euros(bet.returned)}")

    def finish(self, state: TQState) -> TQState:
        rules = TQ_RULES[state.jurisdiction]
        if not state.dealt_any and any(b.phase == "riding" for b in state.bets):
            self._coup(state, rules)    # a single-coup document may omit the deal
        if rules.tie_default == "half":   # 003:1123-1127: the document ended with no choice made
            for b in state.bets:
                if b.phase == "choice" and not b.locked:
                    self._default_choice(state, rules, b)
        return state

    def settle(self, state: TQState) -> Settlement:
        results: dict[str, BetResult] = {}
        for b in state.bets:
            staked = b.amount + b.premium
            if b.phase == "done":
                results[b.id] = BetResult(staked, b.returned)
            elif b.phase == "riding":
                results[b.id] = BetResult.voided(staked)
            else:
                results[b.id] = BetResult.pending(staked, at_risk=zero_system.held(b.amount, b.zeros))
        return Settlement(self.id, state.jurisdiction, results, rounds=state.rounds, log=list(state.log))

    def legal_actions(self, state: TQState) -> list[Action]:
        rules = TQ_RULES[state.jurisdiction]
        acts: list[Action] = []
        if not state.closed:
            acts += [Action("bet", kind=k, minimum=state.limits.minimum, maximum=state.limits.maximum) for k in rules.kinds]
        for b in state.bets:
            if b.phase == "choice":
                acts.append(Action("prison", bet=b.id))
                if not b.locked:
                    acts.append(Action("half", bet=b.id))
        return acts

    def chance(self, state: TQState) -> list[tuple[Event, Fraction]]:
        """Cards come from the state's shoe in its order: no chance event. The exact analysis is a dynamic
        programme over shoe compositions (tapete.analysis.trente_quarante)."""
        return []

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        """What `tapete simulate` lays by default: each chance half back at a 31-31 tie, left in prison, or insured
        (1%, 004:5); `tapete edge` answers through the analysis registry."""
        return [EdgeCase(kind, option=option, extra={"insured": True} if option == "insured" else {})
                for kind in self.rules_for(jurisdiction).kinds for option in ("half", "prison", "insured")]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


TRENTE_QUARANTE = register(TrenteQuaranteGame())
