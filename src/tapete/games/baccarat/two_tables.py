"""Baccara a dos paños (banca, banca francesa): one banker against the hands of two table sides.

ES 001:928-1084; ES-IB 000:1021-1177; ES-GA 002:690-828; ES-AN 003:2460-2904. Chemin de fer's rules of play
(its apartado VI) apply with the adaptations of 001:1002-1012; its errors chapter does not: dos paños has its own
(001:1032-1084), one verb per rule (R: docs/rulings.md#two-tables-irregularities). Vocabulary: docs/vocabulary.md §3.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import own_citations
from tapete.core.money import euros
from tapete.engine.events import Act, Bet, Event
from tapete.engine.game import Action, EdgeCase, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.rules import Rules
from tapete.engine.settlement import BetResult, Settlement
from tapete.engine.shoe import Shoe
from tapete.games.baccarat import tableau
from tapete.games.baccarat.chemin_de_fer import Offer
from tapete.games.baccarat.common import (
    Articles,
    BankAccount,
    Hand,
    HoldsBanks,
    PlayerBankedGame,
    Stake,
    check_line,
    is_int,
    seat_fields,
)

KINDS = ("bank", "player")
PLAY_VERBS = ("draw", "stand", "cuadro")
MONEY_VERBS = ("banco", "pass", "top-up", "lot")
IRREGULARITIES = ("early-draw", "burn-exposed", "expose", "misdeal-card", "drop-card", "mistaken-call", "forget-abat",
                  "throw-cards", "wrong-point", "too-slow", "outside-advice")
HANDS = ("side-1", "side-2", "bank", "croupier")
STOOD, ABATED, OUT = tableau.STAND, 11, 12     # columns beyond the third-card values: stood, showed a natural, annulled

AUCTION = "001:976; 000:1071; 002:728; 003:2584-2586"      # no banker: the bank to the best bid
LOT = "001:978; 000:1073; 002:728; 003:2586-2587"          # equal bids: by lot
FREE_BANK = "001:934; 000:1027; 002:698; 003:2483-2484"    # banca libre answers every stake without limit
# the national article each refusal cites -> the same article in each catalog
ARTICLES = Articles({
    "001:976": "001:976; 000:1071; 002:728; 003:2582-2587",
    "001:982": "001:982; 000:1077; 002:732; 003:2595-2598",
    "001:984": "001:984; 000:1079-1081; 002:732; 003:2600-2605",
    "001:988": "001:988; 000:1085; 002:736; 003:2615-2618",
    "001:990": "001:990; 000:1087; 002:738; 003:2620-2623",
    "001:992": "001:992; 000:1089; 002:740; 003:2625-2634",
    "001:1006": "001:1006; 000:1101; 002:752; 003:2658-2663",
    "001:1008": "001:1008; 000:1103; 002:754; 003:2665-2670",
    "001:1012": "001:1012; 000:1107; 002:758; 003:2675-2684",
    "001:1018": "001:1018; 000:1115; 002:764; 003:2694-2701",
    "001:1020": "001:1020; 000:1117; 002:766; 003:2703-2710",
    "001:1024": "001:1024; 000:1123; 002:770; 003:2729-2733",
    "001:1034": "001:1034; 000:1129; 002:778; 003:2764-2769",
    "001:1036": "001:1036; 000:1131; 002:780; 003:2774-2777",
    "001:1038": "001:1038; 000:1133; 002:782; 003:2779-2780",
    "001:1056-1060": "001:1056-1060; 000:1153-1157; 002:800-804; 003:2819-2840",
    "001:1068": "001:1068; 000:1163; 002:812; 003:2859-2865",
})

DEALT, SIDE1, SIDE2, BANK_ABAT, SIDE1_CARD, SIDE2_CARD, BANK, BANK_CARD, SHOWDOWN, DONE = range(10)


@dataclass(frozen=True)
class TwoTablesRules(Rules):
    decks: int
    new_decks: bool
    stop_card: tuple[str, int]                 # ("exactly" | "at-least", cards below the stop card)
    burn: str
    minimum_players_per_side: int
    deal_order: str
    side_draws_on: tuple[int, ...]
    side_chooses_on: tuple[int, ...]
    bank_free: str
    bank_table: tuple[str, ...]
    one_side_natural: str
    split_after_banker_error: str
    two_card_eight: str
    two_card_nine: str
    cagnotte_limited: Fraction
    cagnotte_free: Fraction
    cagnotte_base: str
    banco: str
    a_caballo: str
    thrown_cards: str


def _rules(jurisdiction: str, sources: dict[str, str], **fields: Any) -> TwoTablesRules:
    base: dict[str, Any] = dict(
        decks=6, new_decks=True, stop_card=("exactly", 10), burn="none", minimum_players_per_side=2,
        deal_order="side 1, side 2, bank, twice", side_draws_on=(0, 1, 2, 3, 4), side_chooses_on=(5,),
        bank_free="free, except on 0 and after the cuadro when both sides agree", bank_table=tableau.T_CF_SEED,
        one_side_natural="T-CF against the other side, drawing in the O cells",
        split_after_banker_error="draw on 0-5, stand on 6-7",
        two_card_eight="beats a three-card 8 or 9", two_card_nine="beats a three-card 9",
        cagnotte_limited=Fraction(2, 100), cagnotte_free=Fraction(125, 10000),
        cagnotte_base="net gain over both sides, when above 0",
        banco="once at the start of the partida, both sides; repeated up to twice after a juego nulo",
        a_caballo="half on each side; an odd number of units: the larger part on side 1",
        thrown_cards="the hand counts 0 (baccará)",
    )
    base.update(fields)
    return TwoTablesRules(jurisdiction=jurisdiction, sources=sources, **base)


RULES: dict[str, TwoTablesRules] = {
    "ES": _rules("ES", {
        "decks": "001:942", "new_decks": "001:942", "stop_card": "001:1018",
        "burn": "001:1018 (silent); R: docs/rulings.md#chemin-no-burn", "minimum_players_per_side": "001:1016",
        "deal_order": "001:1024", "side_draws_on": "001:1006", "side_chooses_on": "001:1006; 001:813",
        "bank_free": "001:1008; 001:811", "bank_table": "001:1008; 001:817-832; R: docs/rulings.md#baccarat-letter-i",
        "one_side_natural": "001:1056; R: docs/rulings.md#two-tables-one-side-natural",
        "split_after_banker_error": "001:1060", "two_card_eight": "001:1010",
        "two_card_nine": "001:1010 (silent); R: docs/rulings.md#two-tables-two-card-nine",
        "cagnotte_limited": "001:998", "cagnotte_free": "001:998",
        "cagnotte_base": "001:998; 001:1030; R: docs/rulings.md#two-tables-cagnotte-base",
        "banco": "001:1012; R: docs/rulings.md#two-tables-banco", "a_caballo": "001:952; 001:1022",
        "thrown_cards": "001:1078",
    }),
    "ES-IB": _rules("ES-IB", {
        "decks": "000:1037", "new_decks": "000:1037", "stop_card": "000:1115",
        "burn": "000:1115 (silent); R: docs/rulings.md#chemin-no-burn", "minimum_players_per_side": "000:1113",
        "deal_order": "000:1123", "side_draws_on": "000:1101", "side_chooses_on": "000:1101",
        "bank_free": "000:1103", "bank_table": "000:1103; 000:967 (not reproduced: T-CF of 001:817-832); "
                                               "R: docs/rulings.md#baccarat-missing-tables",
        "one_side_natural": "000:1149; R: docs/rulings.md#two-tables-one-side-natural",
        "split_after_banker_error": "000:1153", "two_card_eight": "000:1105",
        "two_card_nine": "000:1105 (silent); R: docs/rulings.md#two-tables-two-card-nine",
        "cagnotte_limited": "000:1093", "cagnotte_free": "000:1093",
        "cagnotte_base": "000:1093; 000:1125; R: docs/rulings.md#two-tables-cagnotte-base",
        "banco": "000:1107; R: docs/rulings.md#two-tables-banco", "a_caballo": "000:1047; 000:1119-1121",
        "thrown_cards": "000:1171",
    }),
    "ES-GA": _rules("ES-GA", {
        "decks": "002:704", "new_decks": "002:704", "stop_card": "002:764",
        "burn": "002:764 (silent); R: docs/rulings.md#chemin-no-burn", "minimum_players_per_side": "002:762",
        "deal_order": "002:770", "side_draws_on": "002:752", "side_chooses_on": "002:752",
        "bank_free": "002:754", "bank_table": "002:754; 002:638 (not reproduced: T-CF of 001:817-832); "
                                              "R: docs/rulings.md#baccarat-missing-tables",
        "one_side_natural": "002:800; R: docs/rulings.md#two-tables-one-side-natural",
        "split_after_banker_error": "002:804", "two_card_eight": "002:756",
        "two_card_nine": "002:756 (silent); R: docs/rulings.md#two-tables-two-card-nine",
        "cagnotte_limited": "002:744", "cagnotte_free": "002:744",
        "cagnotte_base": "002:744; 002:772; R: docs/rulings.md#two-tables-cagnotte-base",
        "banco": "002:758; R: docs/rulings.md#two-tables-banco", "a_caballo": "002:708; 002:768",
        "thrown_cards": "002:822",
    }),
    "ES-AN": _rules("ES-AN", {
        "decks": "003:2487-2494", "new_decks": "003:2487-2494", "stop_card": "003:2694-2701",
        "burn": "003:2694-2701 (silent); R: docs/rulings.md#chemin-no-burn", "minimum_players_per_side": "003:2688-2693",
        "deal_order": "003:2725-2734",
        "side_draws_on": "003:2658-2663; R: docs/rulings.md#two-tables-andalucia-three-or-nine",
        "side_chooses_on": "003:2658-2663", "bank_free": "003:2665-2670",
        "bank_table": "003:2665-2670 (not printed: T-CF of 001:817-832); R: docs/rulings.md#baccarat-missing-tables",
        "one_side_natural": "003:2819-2825; R: docs/rulings.md#two-tables-one-side-natural",
        "split_after_banker_error": "003:2830-2840; R: docs/rulings.md#two-tables-andalucia-split",
        "two_card_eight": "003:2672-2674",
        "two_card_nine": "003:2672-2674 (silent); R: docs/rulings.md#two-tables-two-card-nine",
        "cagnotte_limited": "003:2641-2646", "cagnotte_free": "003:2641-2646",
        "cagnotte_base": "003:2641-2646; 003:2748-2753; R: docs/rulings.md#two-tables-cagnotte-base",
        "banco": "003:2675-2685; R: docs/rulings.md#two-tables-banco", "a_caballo": "003:2716-2724",
        "thrown_cards": "003:2882-2889",
    }, stop_card=("at-least", 10)),
}


# -- the decisions and the comparison, shared with the exact analysis ----------------------------------------------
def bank_decision(bank_total: int, c1: int, c2: int, *, cuadro: bool = False,
                  restored: str | None = None) -> tuple[bool | None, bool]:
    """(forced draw or None when free, the default) for the bank against the sides' columns: a third card's
    value 0-9, STOOD, ABATED (a natural shown) or OUT (annulled). C.5.4 and 001:1054-1060."""
    cols = [c for c in (c1, c2) if c != OUT]
    live = [c for c in cols if c != ABATED]
    if not live:
        return False, False                      # every side abated (or annulled): no third card is relevant
    if bank_total == 0:
        return True, True                        # baccará draws (001:811 via 001:1002)
    if len(live) < len(cols):                    # one side abated: T-CF against the other, O drawn (001:1056)
        draw = tableau.cell(tableau.T_CF, bank_total, live[0]) in ("T", "O")
        return draw, draw
    cells = [tableau.cell(tableau.T_CF, bank_total, c) for c in live]
    same = len(set(cells)) == 1 and cells[0] in ("T", "P")
    read = {"T" if x == "O" else x for x in cells}
    default = read.pop() == "T" if len(read) == 1 else bank_total <= 5
    if same and (cuadro or restored):
        return cells[0] == "T", cells[0] == "T"  # the table agrees for both: follow it (001:1008, 001:1058)
    if restored == "banker":
        return bank_total <= 5, bank_total <= 5  # a split after the banker's own error (001:1060)
    return None, default


def compare(side: Hand, bank: Hand, two_card_nine: str = "wins") -> int:
    """+1 the side wins, -1 the bank, 0 equal. A two-card 8 beats a three-card 8 or 9 (001:1010); a two-card 9
    beats a three-card 9 unless `two_card_nine` is 'void' (R: docs/rulings.md#two-tables-two-card-nine)."""
    s, b = side.total(), bank.total()
    s2, b2 = side.two_card() and not side.thrown, bank.two_card() and not bank.thrown
    s3, b3 = len(side.cards) - side.zero_from == 3, len(bank.cards) - bank.zero_from == 3
    for mine, theirs, me2, them3, sign in ((s, b, s2, b3, 1), (b, s, b2, s3, -1)):
        if me2 and them3 and mine == 8 and theirs in (8, 9):
            return sign
        if me2 and them3 and mine == 9 and theirs == 9 and two_card_nine == "wins":
            return sign
    return (s > b) - (s < b)


def split_caballo(playing: Fraction, unit: int) -> tuple[Fraction, Fraction]:
    """Half on each side; an odd number of betting units puts the larger part on side 1 (001:1022)."""
    if playing % unit == 0 and (playing // unit) % 2 == 1:
        units = int(playing // unit)
        return Fraction(math.ceil(units / 2) * unit), Fraction(units // 2 * unit)
    return playing / 2, playing / 2


# -- state ---------------------------------------------------------------------------------------------------
@dataclass
class TwoTablesCoup:
    number: int
    bank: str
    stakes: list[str]
    banco: str | None = None
    stage: int = DEALT
    sides: list[Hand] = field(default_factory=lambda: [Hand(), Hand()])
    banker: Hand = field(default_factory=Hand)
    out: list[bool] = field(default_factory=lambda: [False, False])   # a side annulled (001:1052)
    fixed: list[bool] = field(default_factory=lambda: [False, False])  # advised: stands on 5 (001:1076)
    cuadro: bool = False
    restored: str | None = None      # player | banker: whose error restored the coup (001:1054-1060)
    results: list[int] = field(default_factory=lambda: [0, 0])
    void: bool = False


@dataclass
class TwoTablesState(HoldsBanks):
    game: str
    jurisdiction: str
    table: dict[str, Any]
    minimum: int
    maximum: int | None
    modality: str
    unit: int
    two_card_nine: str
    juego_nulo: str
    shoe: Shoe | None
    banks: list[BankAccount] = field(default_factory=list)
    stakes: list[Stake] = field(default_factory=list)
    coups: list[TwoTablesCoup] = field(default_factory=list)
    current: TwoTablesCoup | None = None
    closed: bool = False
    burn_at: list[int] = field(default_factory=list)
    banco_coups: int = 0              # consecutive banco coups that ended in a juego nulo
    barred: list[str] = field(default_factory=list)  # bankers who won and withdrew (001:982)
    offers: list[Offer] = field(default_factory=list)  # the bids of an auction for the bank, then the void ones
    bidding: bool = False             # the first bid holds the bank until the next other event awards it
    lot: str | None = None            # the bid that won the draw among equal best bids (001:978)
    stop_card_out: bool = False
    commission: Fraction = Fraction(0)
    order: int = 0
    log: list[str] = field(default_factory=list)


class TwoTablesGame(PlayerBankedGame):
    id = "baccarat-two-tables"
    name_es = "Baccara a dos paños"
    name_en = "Baccarat with two tables (banque)"
    bank_kinds = frozenset({"bank"})
    BANK, BANK_CARD, SHOWDOWN, DONE = BANK, BANK_CARD, SHOWDOWN, DONE
    bet_kinds, play_verbs, money_verbs, irregularities, hands = KINDS, PLAY_VERBS, MONEY_VERBS, IRREGULARITIES, HANDS
    # the catalog's words and articles where the logic is common.PlayerBankedGame's
    title = "dos paños"
    close_call = "ya no va más"                           # 001:1020
    deal_size, deal_source = 6, "001:1024"                # side 1, side 2, bank, twice (001:1024)
    burn_source = "001:1036"                              # DG2: a card out face up is burned; stakes stay (001:1036)
    early_draw_source = "001:1034"                        # DG1: cards drawn before the bets closed (001:1034)
    early_discard = "discarded"                           # the director's exception (001:1034)
    early_kept = "cards drawn before the bets closed stay in the coup; betting is closed (001:1034)"
    void_source = "001:1038"                              # DG3 (cards stuck together), DK1, the inspector
    void_before_deal = ""
    stop_card_source = "001:1018"                         # the partida ends with the coup (001:1018)

    def cited(self, state: Any, source: str) -> str:
        return ARTICLES.cite(source, state.jurisdiction)

    def live_cut_from_end(self, jurisdiction: str) -> int | None:
        """The stop card ten cards from the end (001:1018; 000:1115; 002:764; 003:2694-2701)."""
        return self.rules[jurisdiction].stop_card[1]
    extra_bet_fields = frozenset({"seat", "behind", "line"})
    extra_act_fields = frozenset({"amount", "cards", "side", "call", "withdraw", "discard", "at", "count", "shown"})

    @property
    def rules(self) -> dict[str, TwoTablesRules]:  # type: ignore[override]
        return RULES

    def state_type(self) -> type:
        return TwoTablesState

    def kinds(self) -> list[KindInfo]:
        return [
            KindInfo("bank", None, "Banca: the banker's deposit, at risk against both sides from coup to coup"),
            KindInfo("player", "1:1", "Postura on side [1], [2] or a caballo [1, 2]; a tie on a side is void; "
                                      "line: true plays half"),
        ]

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="the minimum stake, cents"),
            TableKey("maximum", default=None, description="the maximum stake of the authorisation (none in banca libre)"),
            TableKey("modality", default="limited", description="'limited' (banca limitada, 2%) or 'free' (libre, 1.25%)"),
            TableKey("unit", default=None, description="the betting unit for a caballo; default the minimum"),
            TableKey("bank-minimum", default=None, description="the authorised minimum bank (banca limitada)"),
            TableKey("bank-maximum", default=None, description="the authorised maximum bank (banca limitada)"),
            TableKey("two-card-nine", default="wins", description="a two-card 9 against a three-card 9: 'wins' or 'void'"),
            TableKey("juego-nulo", default="both-ties", description="a banco's void game: 'both-ties' or 'no-net'"),
            TableKey("cut-card", default=None, description="index in shoe of the first card behind the stop card"),
            TableKey("rounding", default="player", description="fractions of a cent: deductions round down"),
        ]

    # -- table -------------------------------------------------------------------------------------------------
    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> TwoTablesState:
        rules = self.rules_for(jurisdiction)
        m = self._table_minimum(table, "cents")
        modality = table.get("modality", "limited")
        choices = {"modality": ("limited", "free"), "two-card-nine": ("wins", "void"),
                   "juego-nulo": ("both-ties", "no-net"), "rounding": ("player", "house")}
        for key, allowed in choices.items():
            if key in table and table[key] not in allowed:
                raise TapeteError("bad-document", f"table.{key} must be one of {list(allowed)}")
        maximum = table.get("maximum")
        if maximum is not None:
            if modality == "free":
                raise TapeteError("bad-table", "in banca libre the casino may not set a maximum stake",
                                  source=ARTICLES.cite("001:992", jurisdiction))
            if not is_int(maximum) or maximum < m:
                raise TapeteError("bad-table", "table.maximum is an amount of at least the minimum")
        unit = table.get("unit", m)
        for key in ("unit", "bank-minimum", "bank-maximum"):
            value = table.get(key)
            if value is not None and (not is_int(value) or value <= 0):
                raise TapeteError("bad-document", f"table.{key} is a positive amount in cents")
        live = None
        if shoe is not None:
            live = Shoe.from_document(shoe, decks=rules.decks, cut_index=table.get("cut-card"))
            self.check_stop_card(rules, live)
        return TwoTablesState(self.id, jurisdiction, dict(table), m, maximum, modality, unit,
                              table.get("two-card-nine", "wins"), table.get("juego-nulo", "both-ties"), live)

    def check_stop_card(self, rules: TwoTablesRules, shoe: Shoe) -> None:
        """With the whole shoe in the document, the cards below the stop card can be counted (001:1018;
        R: docs/rulings.md#two-tables-stop-card)."""
        if shoe.cut_index is None or len(shoe.cards) != 52 * rules.decks:
            return
        below = len(shoe.cards) - shoe.cut_index
        if not stop_card_ok(rules, below):
            how, n = rules.stop_card
            raise TapeteError("bad-table", f"the stop card has {below} cards below it: {how.replace('-', ' ')} {n} in "
                              f"{rules.jurisdiction}", source=rules.sources["stop_card"])

    def rate(self, state: TwoTablesState) -> Fraction:
        rules = self.rules[state.jurisdiction]
        return rules.cagnotte_free if state.modality == "free" else rules.cagnotte_limited

    def _no_limits(self, rules: TwoTablesRules) -> TapeteError:
        return TapeteError("illegal-action", "the limits of a dos paños table are those of its authorisation",
                           source=ARTICLES.cite("001:988", rules.jurisdiction))

    # -- bets ------------------------------------------------------------------------------------------------------

    def _bank_bet(self, state: TwoTablesState, rules: TwoTablesRules, bet: Bet) -> None:
        if state.bank() is not None and not state.bidding:
            raise TapeteError("illegal-action", f"bet {bet.id}: a bank is already in play", source=ARTICLES.cite("001:976", state.jurisdiction), bet=bet.id)
        if any(o.id == bet.id for o in state.offers):
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.player in state.barred:
            raise TapeteError("illegal-action", f"bank {bet.id}: a banker who won and withdrew may not be banker again "
                              "during the same sabot", source=ARTICLES.cite("001:982", state.jurisdiction), bet=bet.id)
        seat, behind = seat_fields(bet.id, bet.extra, required=False)
        low, high = state.table.get("bank-minimum"), state.table.get("bank-maximum")
        if low is not None and bet.amount < low:
            raise TapeteError("under-minimum", f"bank {bet.id} is under the authorised minimum {low}", source=ARTICLES.cite("001:990", state.jurisdiction),
                              bet=bet.id)
        if high is not None and state.modality == "limited" and bet.amount > high:
            raise TapeteError("over-maximum", f"bank {bet.id} exceeds the authorised maximum {high}", source=ARTICLES.cite("001:990", state.jurisdiction),
                              bet=bet.id)
        offer = Offer(bet.id, bet.player, bet.amount, seat, behind, len(state.offers))
        if state.bidding:               # another bid in the auction (001:976-978; R: docs/rulings.md#two-tables-auction)
            if any(o.player == bet.player and o.final == "open" for o in state.offers):
                raise TapeteError("illegal-action", f"bank {bet.id}: {bet.player} has already bid for this bank",
                                  source=own_citations(AUCTION, state.jurisdiction), bet=bet.id)
            state.offers.append(offer)
            state.log.append(f"{bet.player} bids {euros(bet.amount)} for the bank: the best bid takes it "
                             f"({own_citations(AUCTION, state.jurisdiction)})")
            return
        self._open_bank(state, bet, seat, behind)
        state.offers = [o for o in state.offers if o.final == "void"] + [offer]
        state.bidding, state.lot = True, None
        state.log.append(f"{bet.player} holds the bank: {euros(bet.amount)} ({'banca libre' if state.modality == 'free' else 'banca limitada'})")

    # -- the auction of the bank (001:976-978; 003:2584-2587; R: docs/rulings.md#two-tables-auction) -----------
    def apply(self, state: TwoTablesState, event: Event) -> None:
        if isinstance(event, Act) and event.do == "lot":
            self._lot(state, event)             # the draw between equal bids: it does not close the auction
            return
        super().apply(state, event)

    def _lot(self, state: TwoTablesState, act: Act) -> None:
        open_bids = [o for o in state.offers if o.final == "open"]
        if not state.bidding or len(open_bids) < 2:
            raise TapeteError("illegal-action", "a lot settles equal bids in an auction for the bank",
                              source=own_citations(LOT, state.jurisdiction), bet=act.bet)
        if act.by is not None or act.fields or not any(o.id == act.bet for o in open_bids):
            raise TapeteError("bad-document", f"lot names the bid that won the draw ({act.bet!r} is none)",
                              bet=act.bet)
        state.lot = act.bet

    def _award(self, state: TwoTablesState, rules: TwoTablesRules) -> None:
        """The auction closes with the next event that is not a bid: the bank goes to the best bid; equal best bids
        are settled by lot, which the document records with a `lot` act (001:976-978; 003:2584-2587). The other
        bids are void, their amounts returned."""
        if not state.bidding:
            return
        state.bidding = False
        bids = [o for o in state.offers if o.final == "open"]
        state.offers = [o for o in state.offers if o.final == "void"]
        if len(bids) > 1:
            best = max(o.amount for o in bids)
            tied = [o for o in bids if o.amount == best]
            if len(tied) > 1 and state.lot not in {o.id for o in tied}:
                raise TapeteError("bad-document", f"equal best bids of {euros(best)} ({', '.join(o.id for o in tied)}): "
                                  "the bank is drawn by lot; the document names the winner with a `lot` act",
                                  source=own_citations(LOT, state.jurisdiction))
            winner = tied[0] if len(tied) == 1 else next(o for o in tied if o.id == state.lot)
            provisional = state.banks[-1]
            if provisional.id != winner.id:
                state.banks.remove(provisional)
                bank = BankAccount(winner.id, winner.player, winner.seat, winner.behind, winner.amount)
                bank.add(winner.id, winner.amount)
                state.banks.append(bank)
            how = (f"by lot among equal bids ({own_citations(LOT, state.jurisdiction)})" if len(tied) > 1
                   else f"at auction, the best bid ({own_citations(AUCTION, state.jurisdiction)})")
            state.log.append(f"the bank is awarded to {winner.player} {how}: {euros(winner.amount)}")
            for o in bids:
                if o is not winner:
                    o.final = "void"
                    state.offers.append(o)
                    state.log.append(f"bid {o.id} by {o.player} is void, {euros(o.amount)} returned")
        state.lot = None

    def settle(self, state: TwoTablesState) -> Settlement:
        """As the base; a bid that did not win the auction is void, its amount returned."""
        settlement = super().settle(state)
        for o in state.offers:
            if o.final == "void":
                settlement.bets[o.id] = BetResult.voided(Fraction(o.amount))
        return settlement

    def _stake(self, state: TwoTablesState, rules: TwoTablesRules, bet: Bet) -> None:
        bank = state.bank()
        if bank is None:
            raise TapeteError("illegal-action", f"bet {bet.id}: there is no bank to play against", source=ARTICLES.cite("001:1020", state.jurisdiction),
                              bet=bet.id)
        if bank.holding <= 0 and state.modality == "limited":
            raise TapeteError("illegal-action", f"bet {bet.id}: la banca ha saltado; no stake until a new deposit",
                              source=ARTICLES.cite("001:984", state.jurisdiction), bet=bet.id)
        if state.closed:
            raise TapeteError("bet-closed", f"bet {bet.id} refused: «ya no va más» has been called", source=ARTICLES.cite("001:1020", state.jurisdiction),
                              bet=bet.id)
        if bet.player == bank.player:
            raise TapeteError("illegal-action", f"bet {bet.id}: the banker cannot punt against his own bank", bet=bet.id)
        on = tuple(bet.on or ())
        if on not in ((1,), (2,), (1, 2), (2, 1)):
            raise TapeteError("bad-target", f"bet {bet.id}: on is [1], [2] or [1, 2] (a caballo)", bet=bet.id)
        seat, behind = seat_fields(bet.id, bet.extra, required=False)
        line = check_line(bet.id, bet.extra)
        if bet.amount < state.minimum:
            raise TapeteError("under-minimum", f"stake {bet.id} of {bet.amount} is under the minimum {state.minimum}",
                              source=ARTICLES.cite("001:988", state.jurisdiction), bet=bet.id)
        if state.maximum is not None and bet.amount > state.maximum:
            raise TapeteError("over-maximum", f"stake {bet.id} of {bet.amount} exceeds the maximum {state.maximum}",
                              source=ARTICLES.cite("001:988", state.jurisdiction), bet=bet.id)
        state.order += 1
        stake = Stake(bet.id, bet.player, bet.amount, self._next_coup(state), state.order, seat, behind, line,
                      sides=sorted(set(on)))
        if len(stake.sides) == 2:
            stake.parts = list(split_caballo(stake.playing, state.unit))
        else:
            stake.parts = [stake.playing, Fraction(0)] if on == (1,) else [Fraction(0), stake.playing]
        state.stakes.append(stake)

    # -- money acts ----------------------------------------------------------------------------------------------
    def _call(self, state: TwoTablesState, rules: TwoTablesRules, act: Act, stake: Stake) -> None:
        if act.do != "banco":
            raise TapeteError("illegal-action", f"{act.do!r} is not a punto's decision (card play is act.by)", bet=stake.id)
        if stake.final != "open" or stake.coup != self._next_coup(state) or state.closed:
            raise TapeteError("out-of-turn", f"banco on {stake.id}: asked before the deal", source=ARTICLES.cite("001:1012", state.jurisdiction), bet=stake.id)
        number = stake.coup
        if number != 1 and not (state.banco_coups and state.banco_coups == number - 1 and state.banco_coups <= 2):
            raise TapeteError("illegal-action", f"banco on {stake.id}: asked once, at the start of the partida, and repeated "
                              "at most twice after a juego nulo", source=rules.sources["banco"], bet=stake.id)
        bank = state.bank()
        assert bank is not None
        if stake.sides != [1, 2] or stake.line or stake.amount != math.floor(bank.holding):
            raise TapeteError("illegal-action", f"banco on {stake.id}: a stake a caballo ([1, 2]) of the whole bank "
                              f"({euros(bank.holding)})", source=rules.sources["banco"], bet=stake.id)
        if any(s.call == "banco" for s in state.stakes if s.coup == number):
            state.log.append(f"{stake.player} also asks for banco: the first request has priority (the lot)")
            return
        stake.call = "banco"
        state.log.append(f"{stake.player}: «banco» on both sides")

    def _bank_act(self, state: TwoTablesState, rules: TwoTablesRules, act: Act, bank: BankAccount) -> None:
        if not bank.active:
            raise TapeteError("illegal-action", f"{act.do} on {bank.id}: this bank is no longer in play", bet=bank.id)
        if act.do not in ("pass", "top-up"):
            raise TapeteError("illegal-action", f"{act.do!r} is not a decision of the bank's money", bet=bank.id)
        if any(s.coup == self._next_coup(state) and s.final == "open" for s in state.stakes) or state.closed:
            raise TapeteError("out-of-turn", f"{act.do} on {bank.id}: between coups", bet=bank.id)
        if act.do == "pass":
            if bank.coups == 0:
                raise TapeteError("illegal-action", "the banker may leave once the first coup is played", source=ARTICLES.cite("001:982", state.jurisdiction),
                                  bet=bank.id)
            if bank.holding + bank.garage > bank.initial:      # R: docs/rulings.md#two-tables-banker-withdraws
                state.barred.append(bank.player)
            self.end_bank(state, bank, "passed")
            state.log.append(f"{bank.player} gives up the bank, withdrawing {euros(bank.holding)}")
            return
        amount = act.fields.get("amount")
        if not is_int(amount) or amount <= 0:
            raise TapeteError("bad-document", f"top-up on {bank.id} needs 'amount' (cents)", bet=bank.id)
        if bank.holding == 0 and amount < bank.initial:
            raise TapeteError("illegal-action", f"top-up on {bank.id}: after the bank jumps, a new deposit of at least "
                              f"{euros(bank.initial)}", source=ARTICLES.cite("001:984", state.jurisdiction), bet=bank.id)
        bank.add(bank.id, amount)
        state.log.append(f"the bank is raised to {euros(bank.holding)}")

    # -- the deal -----------------------------------------------------------------------------------------------
    def deal(self, state: TwoTablesState, rules: TwoTablesRules) -> TwoTablesCoup:
        bank = state.bank()
        if bank is None:
            raise TapeteError("illegal-action", "no bank is in play", source=ARTICLES.cite("001:976", state.jurisdiction))
        if bank.holding <= 0 and state.modality == "limited":
            raise TapeteError("illegal-action", "la banca ha saltado: a new deposit (top-up) or the banker leaves (pass)",
                              source=ARTICLES.cite("001:984", state.jurisdiction))
        if state.stop_card_out:
            raise TapeteError("shoe-exhausted", "the stop card has come out: the partida is over",
                              source=rules.sources["stop_card"])
        number = self._next_coup(state)
        stakes = [s for s in state.stakes if s.coup == number and s.final == "open"]
        if not stakes:
            raise TapeteError("illegal-action", "no stake on either side: there is no coup to deal", source=ARTICLES.cite("001:1020", state.jurisdiction))
        banco = self._cover(state, bank, stakes)
        coup = TwoTablesCoup(number, bank.id, [s.id for s in stakes], banco.id if banco else None)
        state.current = coup
        state.closed = True
        drawn = self._deal_cards(state)       # side 1, side 2, bank, twice (001:1024)
        coup.sides[0].cards = [drawn[0], drawn[3]]
        coup.sides[1].cards = [drawn[1], drawn[4]]
        coup.banker.cards = [drawn[2], drawn[5]]
        bank.coups += 1
        state.log.append(f"coup {number}: side 1 and side 2 against the bank of {euros(bank.holding)}")
        return coup

    def _cover(self, state: TwoTablesState, bank: BankAccount, stakes: list[Stake]) -> Stake | None:
        """Accept stakes while both sides together stay within the bank: side 1 first, seated by seat, then the
        others in document order (docs/vocabulary.md §3; R: docs/rulings.md#two-tables-coverage). A free bank answers
        every stake without limit (001:934; R: docs/rulings.md#two-tables-free-bank)."""
        left = bank.holding if state.modality == "limited" else Fraction(sum(s.amount for s in stakes))
        bancos = [s for s in stakes if s.call == "banco"]
        for s in stakes:
            s.accepted = [Fraction(0), Fraction(0)]
        if bancos:
            banco = bancos[0]
            banco.accepted = list(banco.parts)
            state.log.append(f"banco by {banco.player}: the other stakes are refused")
            return banco
        for side in (0, 1):
            on_side = [s for s in stakes if s.parts[side] > 0]
            on_side.sort(key=lambda s: (0, s.seat, s.order) if s.seat is not None else (1, 0, s.order))
            for s in on_side:
                take = min(s.parts[side], left)
                s.accepted[side] = take
                left -= take
                if take < s.parts[side]:
                    state.log.append(f"stake {s.id} covered for {euros(take)} of {euros(s.parts[side])} on side {side + 1}")
        return None

    # -- card play ----------------------------------------------------------------------------------------------
    def _coup_waiting(self, state: TwoTablesState) -> bool:
        return any(s.coup == self._next_coup(state) and s.final == "open" for s in state.stakes)

    def _handlers(self) -> dict[str, Any]:
        return {
            "draw": self._decide, "stand": self._decide, "cuadro": self._cuadro, "burn-exposed": self._burn_now,
            "expose": self._expose, "misdeal-card": self._misdeal, "drop-card": self._drop,
            "mistaken-call": self._mistaken, "forget-abat": self._forget, "throw-cards": self._throw,
            "wrong-point": self._wrong_point, "too-slow": self._slow, "outside-advice": self._advice,
            "early-draw": self._too_late,
        }

    @staticmethod
    def _side_of(act: Act) -> int:
        return 0 if act.by == "side-1" else 1

    def _target_side(self, act: Act) -> int:
        side = act.fields.get("side")
        if act.by in ("side-1", "side-2"):
            return self._side_of(act)
        if side not in (1, 2):
            raise TapeteError("bad-document", f"{act.do} by {act.by} names the 'side' (1 or 2)")
        return side - 1

    @staticmethod
    def _due(coup: TwoTablesCoup) -> str:
        return {DEALT: "the deal", SIDE1: "side 1's word", SIDE2: "side 2's word", BANK_ABAT: "the bank's natural",
                SIDE1_CARD: "side 1's card", SIDE2_CARD: "side 2's card", BANK: "the bank's draw",
                BANK_CARD: "the bank's card", SHOWDOWN: "the showdown", DONE: "nothing"}[coup.stage]

    def side_rule(self, coup: TwoTablesCoup, side: int) -> str:
        hand = coup.sides[side]
        if coup.out[side] or hand.thrown:
            return tableau.Choice.STAND
        if hand.natural():
            return "natural"
        if hand.forgot_abat:
            return tableau.Choice.STAND
        if coup.banco is not None and not coup.fixed[side]:
            return tableau.Choice.FREE                # the banco player is free (001:1006)
        rule = tableau.chemin_punto_rule(hand.total())
        return tableau.Choice.STAND if rule == tableau.Choice.FREE and coup.fixed[side] else rule

    def columns(self, coup: TwoTablesCoup) -> tuple[int, int]:
        cols = []
        for i, hand in enumerate(coup.sides):
            cols.append(OUT if coup.out[i] else ABATED if hand.abated else hand.column())
        return cols[0], cols[1]

    def bank_choice(self, coup: TwoTablesCoup) -> tuple[bool | None, bool]:
        b = coup.banker
        if b.thrown or b.forgot_abat or b.total() >= 8:
            return False, False
        c1, c2 = self.columns(coup)
        return bank_decision(b.total(), c1, c2, cuadro=coup.cuadro, restored=coup.restored)

    def _decide(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, act: Act) -> None:
        draw = act.do == "draw"
        if act.by in ("side-1", "side-2"):
            side = self._side_of(act)
            self._reach(state, rules, coup, SIDE1 + side, act)
            rule = self.side_rule(coup, side)
            if rule == "natural":
                raise TapeteError("illegal-action", f"side {side + 1} holds a natural: it abats", source=ARTICLES.cite("001:1006", state.jurisdiction))
            if rule != tableau.Choice.FREE and (rule == tableau.Choice.DRAW) != draw:
                raise TapeteError("illegal-action", f"side {side + 1} with {coup.sides[side].total()} must "
                                  f"{'draw' if rule == tableau.Choice.DRAW else 'stand'}", source=ARTICLES.cite("001:1006", state.jurisdiction))
            coup.sides[side].drew = draw
            state.log.append(f"side {side + 1}: «{'carta' if draw else 'no'}»")
            coup.stage = SIDE1 + side + 1
            return
        if act.by != "bank":
            raise TapeteError("illegal-action", f"{act.do} is decided by a side or the bank")
        self._reach(state, rules, coup, BANK, act)
        forced, _ = self.bank_choice(coup)
        if forced is not None and forced != draw:
            raise TapeteError("illegal-action", f"the bank with {coup.banker.total()} must {'draw' if forced else 'stand'} "
                              "here", source=ARTICLES.cite("001:1008; 001:1056-1060", state.jurisdiction))
        coup.banker.drew = draw
        state.log.append(f"banca: {'carta' if draw else 'se planta'}")
        coup.stage = BANK_CARD

    def _cuadro(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, act: Act) -> None:
        if act.by != "bank":
            raise TapeteError("illegal-action", "the bank asks for the cuadro")
        self._reach(state, rules, coup, BANK, act)
        coup.cuadro = True
        state.log.append("the banker asks for the cuadro de jugadas de la banca (001:1008)")

    # -- irregularities -----------------------------------------------------------------------------------------
    def _expose(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, act: Act) -> None:
        """DK3: both cards of a side exposed in the deal: the coup is played under the split rule (001:1050)."""
        if act.by not in ("bank", "croupier"):
            raise TapeteError("illegal-action", "expose is the banker's or the croupier's fault")
        side = self._target_side(act)
        self._reach(state, rules, coup, SIDE1, act)
        if act.fields.get("cards", 2) == 2:
            coup.restored = "banker" if act.by == "bank" else coup.restored or "player"
            state.log.append(f"both cards of side {side + 1} were exposed: no stake may change; the split rule governs "
                             "the bank (001:1050, 001:1060)")
        else:
            state.log.append(f"a card of side {side + 1} was exposed (001:1046)")

    def _misdeal(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, act: Act) -> None:
        """DK2: a card given to a side that said «no», or refused to one that asked: restored as a player's
        error, and not the banker's fault (001:1048, 001:1060)."""
        if act.by != "bank":
            raise TapeteError("illegal-action", "misdeal-card is the banker's")
        side = self._target_side(act)
        self._reach(state, rules, coup, SIDE1_CARD, act)
        coup.restored = coup.restored or "player"
        state.log.append(f"a card misdealt to side {side + 1}: the coup is restored (001:1048)")

    def _drop(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, act: Act) -> None:
        """DK4: cards into the cesta unseen during the deal annul the coup for that side, or both (001:1052)."""
        if act.by != "bank":
            raise TapeteError("illegal-action", "drop-card is the banker's")
        self._reach(state, rules, coup, SIDE1, act)
        side = act.fields.get("side")
        if side == 0 or side == "bank":
            coup.out = [True, True]
            state.log.append("the banker's cards fell into the cesta: the coup is annulled on both sides (001:1052)")
            coup.stage = SHOWDOWN
            return
        index = self._target_side(act)
        coup.out[index] = True
        state.log.append(f"side {index + 1}'s cards fell into the cesta: the coup is annulled for that side (001:1052)")
        if all(coup.out):
            coup.stage = SHOWDOWN

    def _mistaken(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, act: Act) -> None:
        """DP1-DP3, DP5: a side's wrong word is corrected and the bank acts as in restored coups (001:1064-1072)."""
        if act.by not in ("side-1", "side-2"):
            raise TapeteError("illegal-action", "mistaken-call is a side's")
        side = self._side_of(act)
        self._reach(state, rules, coup, SIDE1 + side, act)
        rule = self.side_rule(coup, side)
        if rule in ("natural", tableau.Choice.FREE):
            raise TapeteError("illegal-action", "with this total the side's first word stands",
                              source=ARTICLES.cite("001:1068", state.jurisdiction))
        coup.sides[side].drew = rule == tableau.Choice.DRAW
        coup.restored = coup.restored or "player"
        state.log.append(f"side {side + 1} called the wrong word: the card goes where the rules send it and the bank "
                         "acts as in a restored coup (001:1064-1066)")
        coup.stage = SIDE1 + side + 1

    def _forget(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, act: Act) -> None:
        """DP4: «no» with 8 or 9 loses the right to abat; asking for a card is restored (001:1070)."""
        if act.by not in ("side-1", "side-2"):
            raise TapeteError("illegal-action", "forget-abat is a side's")
        side = self._side_of(act)
        self._reach(state, rules, coup, SIDE1 + side, act)
        hand = coup.sides[side]
        if not hand.natural():
            raise TapeteError("illegal-action", f"side {side + 1} has no natural")
        hand.forgot_abat = True
        hand.drew = False
        if act.fields.get("call", "no") == "carta":
            coup.restored = coup.restored or "player"
        state.log.append(f"side {side + 1} does not abat: it loses the right (001:1070)")
        coup.stage = SIDE1 + side + 1

    def _throw(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, act: Act) -> None:
        """DO3: cards thrown into the cesta unshown count baccará (001:1078)."""
        if act.by == "croupier":
            state.log.append("the croupier threw the cards: they are recovered and the total rebuilt (001:1078)")
            return
        if coup.stage >= SHOWDOWN:
            raise TapeteError("out-of-turn", "throw-cards: the coup is already shown")
        hand = coup.banker if act.by == "bank" else coup.sides[self._side_of(act)]
        hand.thrown = True
        hand.forced_total = 0
        hand.abated = False
        if hand.drew is None:
            hand.drew = False
        state.log.append(f"the {act.by}'s cards went into the cesta unshown: they count baccará (001:1078)")

    def _wrong_point(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, act: Act) -> None:
        """DO4: the banker announced a point not his: after the others showed, the split rule as his error."""
        if act.by != "bank":
            raise TapeteError("illegal-action", "wrong-point is the banker's")
        self._reach(state, rules, coup, BANK, act)
        if act.fields.get("shown", True):
            coup.restored = "banker"
        state.log.append("the banker announced a point not his (001:1080)")

    def _slow(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, act: Act) -> None:
        side = self._side_of(act)
        state.log.append(f"side {side + 1}'s hand-holder takes too long: the cards pass on (001:1074)")

    def _advice(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, act: Act) -> None:
        side = self._target_side(act)
        self._reach(state, rules, coup, SIDE1 + side, act)
        coup.fixed[side] = True
        coup.cuadro = True
        state.log.append("advice from outside: the cuadro de jugadas governs (001:1076)")

    # -- the stages --------------------------------------------------------------------------------------------
    def _step(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup, default: bool) -> bool:
        stage = coup.stage
        if stage == DEALT:
            coup.stage = SIDE1
        elif stage in (SIDE1, SIDE2):
            side = stage - SIDE1
            hand = coup.sides[side]
            if hand.drew is None:
                rule = self.side_rule(coup, side)
                if rule == "natural":
                    hand.abated = True
                    hand.drew = False
                    state.log.append(f"side {side + 1} abats: {hand.show()}")
                else:
                    if rule == tableau.Choice.FREE:
                        if not default:
                            return False
                        rule = tableau.Choice.STAND          # the croupier's advice (001:813)
                    hand.drew = rule == tableau.Choice.DRAW
                    if not coup.out[side] and not hand.thrown:
                        state.log.append(f"side {side + 1} {hand.total()}: «{'carta' if hand.drew else 'no'}»")
            coup.stage += 1
        elif stage == BANK_ABAT:
            coup.stage = SHOWDOWN if self._bank_abats(state, coup) else SIDE1_CARD
        elif stage in (SIDE1_CARD, SIDE2_CARD):
            side = stage - SIDE1_CARD
            hand = coup.sides[side]
            if hand.drew and not coup.out[side] and not hand.thrown:
                hand.cards.append(self._third_card(state, coup))
                state.log.append(f"third card to side {side + 1}, face up: {hand.cards[-1]}")
            coup.stage += 1
        else:
            return self._bank_stages(state, rules, coup, default)
        return True

    def _bank_forced(self, coup: TwoTablesCoup) -> bool | None:
        return self.bank_choice(coup)[0]

    def _bank_default(self, coup: TwoTablesCoup) -> bool:
        return self.bank_choice(coup)[1]

    def _showdown(self, state: TwoTablesState, rules: TwoTablesRules, coup: TwoTablesCoup) -> None:
        bank, stakes = self._coup_stakes(state, coup)
        if coup.void:
            return
        for i in (0, 1):
            coup.results[i] = 0 if coup.out[i] else compare(coup.sides[i], coup.banker, state.two_card_nine)
            if not coup.out[i]:
                word = {1: "wins", -1: "loses", 0: "ties"}[coup.results[i]]
                state.log.append(f"side {i + 1} {coup.sides[i].show()} {word} against banca {coup.banker.show()}")
        net = Fraction(0)
        for s in stakes:
            if s.covered == 0:
                s.final, s.returned = "void", Fraction(s.amount)
                continue
            to_bank = -sum((a * r for a, r in zip(s.accepted, coup.results, strict=True)), Fraction(0))
            s.returned = s.staked - to_bank
            s.final = "settled"
            net += to_bank
        if net > 0:                     # the cagnotte on the net gain over both sides (001:1030, C.9-2)
            cagnotte = net * self.rate(state)
            state.commission += cagnotte
            if bank.holding == 0:          # a free bank played from an empty table: the gain is the banker's
                bank.parts[bank.id] += net - cagnotte
            else:
                bank.result(net - cagnotte)
            state.log.append(f"the bank gains {euros(net)}: cagnotte {euros(cagnotte)}; bank {euros(bank.holding)}")
        elif net < 0:
            self._draw_on_deposit(state, bank, -net)
            bank.result(net)
            state.log.append(f"the bank pays {euros(-net)}: bank {euros(bank.holding)}")
        if bank.holding <= 0 and state.modality == "limited":
            state.log.append("la banca ha saltado: a new deposit of at least the first, or the banker leaves (001:984)")
        self._banco_bookkeeping(state, coup, stakes)
        self._check_stop_card(state)

    def _draw_on_deposit(self, state: TwoTablesState, bank: BankAccount, pay: Fraction) -> None:
        """Banca libre: the banker answers every stake without limit, from the deposit he proved before the game
        (001:934; 001:992-994; 003:2483-2484). What the bank on the table lacks is drawn from that deposit and added to the bank's
        stake, so the settlement shows it paying beyond its bank (R: docs/rulings.md#two-tables-free-bank)."""
        short = pay - bank.holding
        if state.modality != "free" or short <= 0:
            return
        drawn = math.ceil(short)
        bank.add(bank.id, drawn)
        state.log.append(f"banca libre: the bank draws {euros(drawn)} from the banker's deposit to pay every stake "
                         f"({own_citations(FREE_BANK, state.jurisdiction)})")

    def _banco_bookkeeping(self, state: TwoTablesState, coup: TwoTablesCoup, stakes: list[Stake]) -> None:
        banco = next((s for s in stakes if s.id == coup.banco), None)
        if banco is None:
            state.banco_coups = 0
            return
        nulo = coup.results == [0, 0] or (state.juego_nulo == "no-net" and banco.returned == banco.staked)
        state.banco_coups = coup.number if nulo else 0
        if nulo:
            state.log.append("juego nulo: the banco may be repeated (001:1012)")

    def _whose(self, coup: TwoTablesCoup) -> str:
        """'side-1', 'side-2' or 'bank'."""
        return {SIDE1: "side-1", SIDE2: "side-2"}.get(coup.stage, "bank")

    def hand_holder(self, state: TwoTablesState, by: str) -> str | None:
        """Who decides: the banker for the bank; for a paño, the banco player, else the largest stake the bank
        covers on that side (the first in the order of coverage among equals)."""
        coup = state.current
        if by == "bank":
            return self._banker(state)
        if by not in ("side-1", "side-2") or coup is None:
            return None
        stakes = [s for s in state.stakes if s.id in coup.stakes]
        if coup.banco is not None:
            return next((s.player for s in stakes if s.id == coup.banco), None)
        side = 0 if by == "side-1" else 1
        covered = [s for s in stakes if len(s.accepted) > side and s.accepted[side] > 0]
        if not covered:
            return None
        best = max(s.accepted[side] for s in covered)
        return next(s.player for s in covered if s.accepted[side] == best)

    def legal_actions(self, state: TwoTablesState) -> list[Action]:
        decisions = self._decisions(state)
        if decisions is not None:
            return decisions
        bank = state.bank()
        if bank is None:
            return [Action("bet", kind="bank", minimum=state.minimum)]
        actions = [Action("bet", kind="player", minimum=state.minimum, maximum=state.maximum, targets=((1,), (2,), (1, 2))),
                   Action("deal")]
        if bank.coups and not state.closed and not any(s.coup == self._next_coup(state) and s.final == "open"
                                                       for s in state.stakes):
            actions.append(Action("pass", bet=bank.id))
        return actions

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        return [EdgeCase("player", (1,), table={"minimum": 100}), EdgeCase("player", (2,), table={"minimum": 100}),
                EdgeCase("bank", table={"minimum": 100})]


def stop_card_ok(rules: TwoTablesRules, below: int) -> bool:
    how, n = rules.stop_card
    return below == n if how == "exactly" else below >= n


TWO_TABLES = register(TwoTablesGame())
