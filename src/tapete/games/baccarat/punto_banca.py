"""Punto y banca (punto banco): the casino banks a punto hand and a bank hand dealt by the tableau alone.

ES 001:588-679; ES-IB 000:696-791; ES-GA 002:420-496; ES-AN 003:1517-1754 with its section VII printed at
003:1843-1888. A document's coups read one continuous `shoe` (after the opening burn); each `deal` closes the
bets and plays one coup to the end, since no one decides anything (docs/format.md: no verbs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import own_citations
from tapete.core.money import euros
from tapete.core.rng import TableRng
from tapete.engine.bet_index import bet_index, forget
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, EdgeCase, Game, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.rules import Rules
from tapete.engine.settlement import BetResult, Settlement
from tapete.engine.shoe import Shoe, check_cut_card
from tapete.games.baccarat import tableau

KINDS = ("player", "banker", "tie")
DESCRIPTIONS = {
    "player": "Punto (mano del jugador): the punto hand beats the bank hand; a tie is a push",
    "banker": "Banca (mano de la banca): the bank hand wins, less the house deduction; a tie is a push",
    "tie": "Empate / igualdad: the two hands tie",
}
BURN_READINGS = ("exposed-plus-value", "value-including-exposed")


@dataclass(frozen=True)
class PuntoBancaRules(Rules):
    decks: int
    cards_below_stop: int
    burn_reading: str                          # default reading of the opening burn (table option `burn`)
    player_draws_on: tuple[int, ...]
    bank_table: tuple[str, ...]                # as printed by the seed the jurisdiction relies on
    kinds: tuple[str, ...]
    banker_commission: Fraction                # on winning banca stakes
    banker_six_deduction: Fraction             # on banca stakes won by a bank total of 6 (ES-AN)
    tie_payout: Fraction | None
    tie_maximum_share: Fraction | None         # of the table maximum
    tie_on_punto_banca: str                    # what a tie does to punto and banca stakes
    maxima: tuple[int, ...] | None             # allowed maxima, in multiples of the minimum
    maximum_range: tuple[int, int] | None      # or a range of multiples
    stake_unit: str                            # stakes may be required in multiples of...
    sabot_passes: str
    reduced_tables: tuple[str, ...]
    reduced_table_dealer: str


_NAT_SOURCES = {
    "decks": "001:598", "cards_below_stop": "001:671",
    "burn_reading": "001:673; R: docs/rulings.md#baccarat-burn-count",
    "player_draws_on": "001:644-650", "bank_table": "001:652-667; R: docs/rulings.md#baccarat-letter-i",
    "kinds": "001:630-640", "banker_commission": "001:634", "banker_six_deduction": "001:634",
    "tie_payout": "001:640", "tie_maximum_share": "001:640", "tie_on_punto_banca": "001:640",
    "maxima": "001:636", "maximum_range": "001:636", "stake_unit": "001:636", "sabot_passes": "001:628-630; R: docs/rulings.md#punto-banca-sabot-rotation",
    "reduced_tables": "001:606", "reduced_table_dealer": "001:628",
}


# «no va más» in each catalog; Andalucía's text is silent and the national article applies by a reading
NO_VA_MAS = "001:675; 000:785; 002:486; 003:1680-1689 (silent); R: docs/rulings.md#punto-banca-andalucia-no-va-mas"


def _rules(jurisdiction: str, sources: dict[str, str], **fields: Any) -> PuntoBancaRules:
    base: dict[str, Any] = dict(
        decks=6, cards_below_stop=7, burn_reading="exposed-plus-value", player_draws_on=(0, 1, 2, 3, 4, 5),
        bank_table=tableau.T_PB_SEED, kinds=KINDS, banker_commission=Fraction(5, 100),
        banker_six_deduction=Fraction(0), tie_payout=Fraction(8), tie_maximum_share=Fraction(1, 10),
        tie_on_punto_banca="push", maxima=None, maximum_range=None, stake_unit="minimum",
        sabot_passes="when-the-bank-hand-loses", reduced_tables=("mini: <= 7 seats", "midi: <= 9 seats"),
        reduced_table_dealer="croupier",
    )
    base.update(fields)
    return PuntoBancaRules(jurisdiction=jurisdiction, sources=sources, **base)


RULES: dict[str, PuntoBancaRules] = {
    "ES": _rules("ES", _NAT_SOURCES, kinds=("player", "banker"), tie_payout=None, tie_maximum_share=None,
                 maxima=(50, 100), reduced_tables=(), reduced_table_dealer="none (no reduced tables)"),
    "ES-IB": _rules("ES-IB", {
        "decks": "000:706", "cards_below_stop": "000:781",
        "burn_reading": "000:783; R: docs/rulings.md#baccarat-burn-count", "player_draws_on": "000:768-773",
        "bank_table": "000:775-777 (not reproduced: T-PB of 001:652-667); R: docs/rulings.md#baccarat-missing-tables",
        "kinds": "000:754-764", "banker_commission": "000:758", "banker_six_deduction": "000:758",
        "tie_payout": "000:764; 000:791", "tie_maximum_share": "000:764", "tie_on_punto_banca": "000:764",
        "maxima": "000:760", "maximum_range": "000:760", "stake_unit": "000:760", "sabot_passes": "000:752-754; R: docs/rulings.md#punto-banca-sabot-rotation",
        "reduced_tables": "000:714-726", "reduced_table_dealer": "000:744",
    }, maxima=(25, 50, 100), reduced_table_dealer="croupier or the customer"),
    "ES-GA": _rules("ES-GA", {
        "decks": "002:428", "cards_below_stop": "002:482",
        "burn_reading": "002:484; R: docs/rulings.md#baccarat-burn-count", "player_draws_on": "002:472-476",
        "bank_table": "002:478-480 (not reproduced: T-PB of 001:652-667); R: docs/rulings.md#baccarat-missing-tables",
        "kinds": "002:456-466", "banker_commission": "002:458", "banker_six_deduction": "002:458",
        "tie_payout": "002:466", "tie_maximum_share": "002:466", "tie_on_punto_banca": "002:466",
        "maxima": "002:460", "maximum_range": "002:460; R: docs/rulings.md#punto-banca-galicia-maximum",
        "stake_unit": "002:460", "sabot_passes": "002:454-456; R: docs/rulings.md#punto-banca-sabot-rotation", "reduced_tables": "002:432-434",
        "reduced_table_dealer": "002:448",
    }, maximum_range=(20, 100)),
    "ES-AN": _rules("ES-AN", {
        "decks": "003:1528-1535", "cards_below_stop": "003:1843-1851",
        "burn_reading": "003:1852-1857; R: docs/rulings.md#baccarat-burn-count", "player_draws_on": "003:1734-1738",
        "bank_table": "003:1740-1754 (row 0 lost at 003:1745: T-PB of 001:652-667); "
                      "R: docs/rulings.md#baccarat-missing-tables",
        "kinds": "003:1682-1726", "banker_commission": "003:1699-1704",
        "banker_six_deduction": "003:1699-1702; R: docs/rulings.md#punto-banca-andalucia-six",
        "tie_payout": "003:1722-1724; 003:1887-1888; R: docs/rulings.md#punto-banca-andalucia-tie-payout",
        "tie_maximum_share": "003:1724-1726",
        "tie_on_punto_banca": "003:1721-1724 (silent); R: docs/rulings.md#punto-banca-andalucia-tie-push",
        "maxima": "003:1707-1709", "maximum_range": "003:1707-1709", "stake_unit": "003:1709-1711",
        "sabot_passes": "003:1674-1689; R: docs/rulings.md#punto-banca-sabot-rotation", "reduced_tables": "003:1595-1608",
        "reduced_table_dealer": "003:1659-1661; 003:1691-1694",
    }, banker_commission=Fraction(0), banker_six_deduction=Fraction(1, 2), maximum_range=(10, 200),
        stake_unit="minimum or an integer fraction of it"),
}


# -- money: the one function settle, the exact analysis and the simulation kernel's check all use -------------
def winner(player_total: int, bank_total: int) -> str:
    """The higher total wins; equal totals tie (001:640)."""
    return "player" if player_total > bank_total else "banker" if bank_total > player_total else "tie"


def bet_return(rules: PuntoBancaRules, kind: str, amount: Fraction, player_total: int,
               bank_total: int) -> tuple[Fraction, Fraction]:
    """(returned, house deduction) for a stake of `amount` on `kind` once the hands are final (A.3)."""
    result = winner(player_total, bank_total)
    if kind == "tie":
        return (amount * (1 + rules.tie_payout), Fraction(0)) if result == "tie" else (Fraction(0), Fraction(0))
    if result == "tie":                 # "la jugada será considerada nula" (001:640): a push
        return amount, Fraction(0)
    if result != kind:
        return Fraction(0), Fraction(0)
    if kind == "player":
        return 2 * amount, Fraction(0)  # a la par (003:1702-1704)
    rate = rules.banker_six_deduction if bank_total == 6 and rules.banker_six_deduction else rules.banker_commission
    return 2 * amount - amount * rate, amount * rate


def opening_burn(first: str, reading: str = "exposed-plus-value") -> int:
    """Cards that leave a new shoe before the first coup: the exposed card's value, tens and faces 10 (001:673),
    plus the exposed card itself by default (R: docs/rulings.md#baccarat-burn-count)."""
    return tableau.burn_value(first) + (1 if reading == "exposed-plus-value" else 0)


def deal_coup(draw: Any) -> tuple[list[str], list[str]]:
    """The cards of one coup from `draw()`: P, B, P, B, then the tableau (001:642-675)."""
    player = [str(draw())]
    bank = [str(draw())]
    player.append(str(draw()))
    bank.append(str(draw()))
    if tableau.is_natural(player) or tableau.is_natural(bank):     # 001:642
        return player, bank
    third: str | None = None
    if tableau.punto_banca_player_draws(tableau.total(player)):    # 001:644-650
        third = str(draw())
        player.append(third)
    if tableau.punto_banca_bank_draws(tableau.total(bank), third):  # 001:652-667
        bank.append(str(draw()))
    return player, bank


# -- state ------------------------------------------------------------------------------------------------------
@dataclass
class PuntoBancaBet:
    id: str
    player: str
    kind: str
    amount: int
    coup: int                      # the coup it rides (1-based)
    final: str = "open"            # open | settled | void
    returned: Fraction = Fraction(0)
    deduction: Fraction = Fraction(0)


def _open_stake(bet: PuntoBancaBet) -> tuple[int, str, str] | None:
    """The total a bet counts in for the table maximum: open bets, per coup, player and kind."""
    return (bet.coup, bet.player, bet.kind) if bet.final == "open" else None


@dataclass
class PuntoBancaCoup:
    number: int
    player: list[str]
    bank: list[str]
    winner: str
    sabot_before: int
    bets: list[str] = field(default_factory=list)
    void: bool = False


@dataclass
class PuntoBancaState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    minimum: int
    maximum: int
    tie_maximum: int | None
    unit: int | None
    seats: int
    shoe: Shoe | None
    bets: list[PuntoBancaBet] = field(default_factory=list)
    coups: list[PuntoBancaCoup] = field(default_factory=list)
    closed: bool = False
    stop_card_out: bool = False
    sabot_seat: int = 1
    last_was_deal: bool = False
    log: list[str] = field(default_factory=list)


class PuntoBancaGame(Game):
    id = "punto-banca"
    name_es = "Punto y banca"
    name_en = "Punto banco (baccarat)"
    uses_shoe = True

    @property
    def rules(self) -> dict[str, PuntoBancaRules]:  # type: ignore[override]
        return RULES

    def state_type(self) -> type:
        return PuntoBancaState

    def kinds(self) -> list[KindInfo]:
        pays = {"player": "1:1", "banker": "1:1 less 5% (ES-AN: 1:2 on a bank 6, else 1:1)", "tie": "8:1"}
        return [KindInfo(k, pays[k], DESCRIPTIONS[k]) for k in KINDS]

    def verbs(self) -> list[str]:
        return []

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="the table minimum, cents"),
            TableKey("maximum", default=None, description="one of the maxima the jurisdiction allows; default the largest"),
            TableKey("cut-card", default=None, description="index in shoe of the first card behind the stop card"),
            TableKey("stake-unit", default=None, description="stakes must be multiples of this (the minimum; ES-AN also an "
                                                             "integer fraction of it); default any amount"),
            TableKey("seats", default=14, description="numbered seats the sabot rotates round"),
            TableKey("burn", default="exposed-plus-value", description="live shoes: the exposed card plus as many as its "
                                                                       "value ('value-including-exposed': the value in all)"),
            TableKey("rounding", default="player", description="fractions of a cent: 'player' (docs/format.md) or 'house'"),
        ]

    # -- table -------------------------------------------------------------------------------------------------
    def limits(self, rules: PuntoBancaRules, table: dict[str, Any]) -> tuple[int, int, int | None, int | None]:
        known = {t.key for t in self.table_keys()}
        for key in table:
            if key not in known:
                raise TapeteError("bad-document", f"unknown table key {key!r} for {self.id} (known: {', '.join(sorted(known))})")
        m = table.get("minimum")
        if not _is_int(m) or m <= 0:
            raise TapeteError("bad-document", "table.minimum (cents) is required and must be a positive integer")
        allowed = self.allowed_maxima(rules, m)
        maximum = table.get("maximum", max(allowed) if isinstance(allowed, tuple) else allowed.stop - 1)
        if not _is_int(maximum) or maximum not in allowed:
            what = (f"one of {list(allowed)}" if isinstance(allowed, tuple)
                    else f"between {allowed.start} and {allowed.stop - 1}")
            raise TapeteError("bad-table", f"maximum {maximum!r} must be {what} (in {rules.jurisdiction}, "
                              "multiples of the minimum)", source=rules.sources["maxima"])
        tie_max = None
        if rules.tie_maximum_share is not None:
            tie_max = int(maximum * rules.tie_maximum_share)       # a stake at most M/10 (000:764)
        unit = table.get("stake-unit")
        if unit is not None:
            ok = _is_int(unit) and unit > 0 and (unit == m or (rules.stake_unit != "minimum" and m % unit == 0))
            if not ok:
                raise TapeteError("bad-table", f"stake-unit {unit!r}: stakes may be required in multiples of the minimum "
                                  f"{m}" + (" or of an integer fraction of it" if rules.stake_unit != "minimum" else ""),
                                  source=rules.sources["stake_unit"])
        for key, choices in (("burn", BURN_READINGS), ("rounding", ("player", "house"))):
            if key in table and table[key] not in choices:
                raise TapeteError("bad-document", f"table.{key} must be one of {list(choices)}")
        seats = table.get("seats", 14)
        if not _is_int(seats) or seats < 1:
            raise TapeteError("bad-document", "table.seats is a positive integer")
        return m, maximum, tie_max, unit

    @staticmethod
    def allowed_maxima(rules: PuntoBancaRules, m: int) -> tuple[int, ...] | range:
        if rules.maxima is not None:
            return tuple(k * m for k in rules.maxima)
        low, high = rules.maximum_range  # type: ignore[misc]
        return range(low * m, high * m + 1)

    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> PuntoBancaState:
        rules = self.rules_for(jurisdiction)
        m, maximum, tie_max, unit = self.limits(rules, table)
        live = None
        if shoe is not None:
            live = Shoe.from_document(shoe, decks=rules.decks, cut_index=table.get("cut-card"))
            check_cut_card(live, full=52 * rules.decks, behind=rules.cards_below_stop, exact=True,   # 001:671
                           what="stop card", source=rules.sources["cards_below_stop"])
        return PuntoBancaState(self.id, jurisdiction, dict(table), m, maximum, tie_max, unit,
                               table.get("seats", 14), live)

    def new_shoe(self, state: PuntoBancaState, rng: TableRng) -> list[str]:
        """A live shoe: shuffled, the stop card 7 from the end, the opening burn (001:671-673); the burned cards."""
        rules = self.rules[state.jurisdiction]
        shoe = Shoe.shuffled(rng, decks=rules.decks, cut_from_end=rules.cards_below_stop)
        first = shoe.cards[0]
        count = opening_burn(first, state.table.get("burn", rules.burn_reading))
        shoe.position = count
        state.shoe = shoe
        state.stop_card_out = False
        state.log.append(f"new shoe: first card {first} burns {count} card(s) in all")
        return shoe.cards[:count]

    # -- reducer -----------------------------------------------------------------------------------------------
    def apply(self, state: PuntoBancaState, event: Event) -> None:
        rules = self.rules[state.jurisdiction]
        if not isinstance(event, Bet):
            forget(state)            # a deal or void settles bets: the per-coup totals are rebuilt
        if isinstance(event, Bet):
            self._bet(state, rules, event)
            state.last_was_deal = False
        elif isinstance(event, Deal):
            self.deal(state, rules)
        elif isinstance(event, Close):
            state.closed = True
            state.log.append("no va más")
        elif isinstance(event, Void):
            self._void(state, event)
        elif isinstance(event, Act):
            raise TapeteError("illegal-action", f"punto y banca has no decisions: the tableau decides ({event.do!r})",
                              source=rules.sources["player_draws_on"], bet=event.bet)
        elif isinstance(event, Limits):
            raise TapeteError("illegal-action", "the punto y banca texts fix a table's maximum; they allow no change "
                              "during the session", source=rules.sources["maxima"])
        elif isinstance(event, Outcome):
            raise TapeteError("bad-document", "punto y banca is dealt from the shoe: use deal")
        else:  # pragma: no cover
            raise TapeteError("bad-document", f"unexpected event {event!r}")

    def _bet(self, state: PuntoBancaState, rules: PuntoBancaRules, bet: Bet) -> None:
        if state.closed:
            raise TapeteError("bet-closed", f"bet {bet.id} refused: no va más has been called", bet=bet.id,
                              source=own_citations(NO_VA_MAS, state.jurisdiction))
        if bet.id in bet_index(state, state.bets, _open_stake).ids:
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.kind not in rules.kinds:
            why = " (the national catalog has no tie bet)" if bet.kind == "tie" else ""
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: punto y banca in {rules.jurisdiction} has no bet "
                              f"{bet.kind!r}{why}", source=rules.sources["kinds"], bet=bet.id)
        if bet.on:
            raise TapeteError("bad-target", f"bet {bet.id}: {bet.kind} takes no 'on'", bet=bet.id)
        if bet.amount < state.minimum:
            raise TapeteError("under-minimum", f"bet {bet.id} ({bet.kind}, {bet.amount}) is under the table minimum "
                              f"of {state.minimum}", source=rules.sources["stake_unit"], bet=bet.id)
        if state.unit and bet.amount % state.unit:
            raise TapeteError("bad-amount", f"bet {bet.id}: stakes are multiples of {state.unit} at this table",
                              source=rules.sources["stake_unit"], bet=bet.id)
        coup = len(state.coups) + 1
        limit = state.tie_maximum if bet.kind == "tie" else state.maximum
        same = bet_index(state, state.bets, _open_stake).total((coup, bet.player, bet.kind))
        if limit is not None and same + bet.amount > limit:
            what = "tie maximum (a tenth of the table maximum)" if bet.kind == "tie" else "table maximum"
            src = rules.sources["tie_maximum_share" if bet.kind == "tie" else "maxima"]
            raise TapeteError("over-maximum", f"bet {bet.id} ({bet.kind}, {bet.amount}) exceeds the {what} of {limit}",
                              source=src, bet=bet.id)
        state.bets.append(PuntoBancaBet(bet.id, bet.player, bet.kind, bet.amount, coup))

    def deal(self, state: PuntoBancaState, rules: PuntoBancaRules) -> PuntoBancaCoup:
        """Close the bets and play one coup from the shoe to its settlement (A.5)."""
        forget(state)                # also called by `finish`, outside `apply`
        if state.shoe is None:
            raise TapeteError("shoe-exhausted", "punto y banca is dealt from a shoe: the document has none")
        if state.stop_card_out:
            raise TapeteError("shoe-exhausted", "the stop card has come out: no further coup in this shoe",
                              source=rules.sources["cards_below_stop"])
        number = len(state.coups) + 1
        riding = [b for b in state.bets if b.coup == number and b.final == "open"]
        state.log.append("no va más — cartas")
        punto_bets = [b for b in riding if b.kind == "player"]
        holder = max(punto_bets, key=lambda b: b.amount).player if punto_bets else "the croupier"
        player, bank = deal_coup(state.shoe.draw)
        pt, bt = tableau.total(player), tableau.total(bank)
        result = winner(pt, bt)
        coup = PuntoBancaCoup(number, player, bank, result, state.sabot_seat, [b.id for b in riding])
        state.coups.append(coup)
        self._announce(state, coup, holder)
        for b in riding:
            b.returned, b.deduction = bet_return(rules, b.kind, Fraction(b.amount), pt, bt)
            b.final = "settled"
            if b.returned:
                state.log.append(f"pays {b.id} ({b.kind}): {euros(b.returned)}"
                                 + (f" (deduction {euros(b.deduction)})" if b.deduction else ""))
        if result == "player":    # the bank hand lost: the sabot passes on (001:630)
            state.sabot_seat = state.sabot_seat % state.seats + 1
            state.log.append(f"the bank hand lost: the sabot passes to seat {state.sabot_seat}")
        if state.shoe.cut_reached:
            state.stop_card_out = True
            state.log.append("the stop card has come out: this was the last coup of the shoe")
        state.closed = False
        state.last_was_deal = True
        return coup

    @staticmethod
    def _announce(state: PuntoBancaState, coup: PuntoBancaCoup, holder: str) -> None:
        p2, b2 = coup.player[:2], coup.bank[:2]
        state.log.append(f"coup {coup.number}: the punto's cards to {holder}: {' '.join(p2)} = {tableau.total(p2)}; "
                         f"banca {' '.join(b2)} = {tableau.total(b2)}")
        if tableau.is_natural(p2) or tableau.is_natural(b2):
            state.log.append("natural: no third card")
        else:
            if len(coup.player) == 3:
                state.log.append(f"carta para el jugador: {coup.player[2]} = {tableau.total(coup.player)}")
            else:
                state.log.append(f"el jugador se planta: {tableau.total(coup.player)}")
            if len(coup.bank) == 3:
                state.log.append(f"carta para la banca: {coup.bank[2]} = {tableau.total(coup.bank)}")
            else:
                state.log.append(f"la banca se planta: {tableau.total(coup.bank)}")
        pt, bt = tableau.total(coup.player), tableau.total(coup.bank)
        words = {"player": f"gana el punto con {pt}", "banker": f"gana la banca con {bt}", "tie": f"empate a {pt}"}
        state.log.append(words[coup.winner])

    def _void(self, state: PuntoBancaState, void: Void) -> None:
        """The jefe de mesa annuls the coup in progress (R: docs/rulings.md#punto-banca-irregularities)."""
        number = len(state.coups) + 1
        open_bets = [b for b in state.bets if b.coup == number and b.final == "open"]
        if open_bets or not state.last_was_deal or not state.coups:
            for b in open_bets:
                b.final, b.returned = "void", Fraction(b.amount)
            state.closed = False
            state.log.append(f"coup annulled before the deal ({void.reason}): stakes returned")
            return
        coup = state.coups[-1]        # the coup just dealt: its cards are discarded, its stakes returned
        coup.void = True
        for b in state.bets:
            if b.id in coup.bets:
                b.final, b.returned, b.deduction = "void", Fraction(b.amount), Fraction(0)
        moved = state.sabot_seat != coup.sabot_before
        state.sabot_seat = coup.sabot_before
        state.last_was_deal = False
        state.log.append(f"coup {coup.number} annulled ({void.reason}): its cards are discarded, stakes returned"
                         + (f"; the sabot stays at seat {state.sabot_seat}" if moved else ""))

    def finish(self, state: PuntoBancaState) -> PuntoBancaState:
        number = len(state.coups) + 1
        if any(b.coup == number and b.final == "open" for b in state.bets):
            self.deal(state, self.rules[state.jurisdiction])   # a single-coup document may omit the deal
        return state

    def settle(self, state: PuntoBancaState) -> Settlement:
        results: dict[str, BetResult] = {}
        commission = Fraction(0)
        for b in state.bets:
            staked = Fraction(b.amount)
            if b.final == "settled":
                results[b.id] = BetResult(staked, b.returned)
                commission += b.deduction
            elif b.final == "void":
                results[b.id] = BetResult.voided(staked)
            else:
                results[b.id] = BetResult.pending(staked)
        rounds = sum(1 for c in state.coups if not c.void)
        return Settlement(self.id, state.jurisdiction, results, commission=commission, rounds=rounds, log=list(state.log))

    # -- questions ---------------------------------------------------------------------------------------------
    def legal_actions(self, state: PuntoBancaState) -> list[Action]:
        if state.closed:
            return [Action("deal")]
        rules = self.rules[state.jurisdiction]
        actions = [Action("bet", kind=k, minimum=state.minimum,
                          maximum=state.tie_maximum if k == "tie" else state.maximum) for k in rules.kinds]
        if not state.stop_card_out:
            actions.append(Action("deal"))
        return actions

    def chance(self, state: PuntoBancaState) -> list[tuple[Event, Fraction]]:
        """Nothing for the generic solver: the exact analysis enumerates shoe compositions (analysis/baccarat.py)."""
        return []

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        return [EdgeCase(k, table={"minimum": 100}) for k in self.rules_for(jurisdiction).kinds]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


PUNTO_BANCA = register(PuntoBancaGame())
