"""Chemin de fer (baccara, ferrocarril): a player holds the bank against a punto hand, coup after coup.

ES 001:681-926; ES-IB 000:793-1019; ES-GA 002:498-688; ES-AN 003:1756-2458 (without 003:1843-1888, which is
punto y banca text). Vocabulary: docs/vocabulary.md §2. A document carries the table from coup to coup: the bank
bet lives until the banker loses, passes or the document ends; each coup's stakes are covered in the order of
priority, the punto hand and the bank decide in turn (`act.by`), and irregularities are one verb per rule of
the catalog's chapter VIII (001:874-926), applied as the text prescribes (R: docs/rulings.md#chemin-irregularities).
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
from tapete.engine.events import Act, Bet
from tapete.engine.game import Action, EdgeCase, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.rules import Rules
from tapete.engine.settlement import BetResult, Settlement
from tapete.engine.shoe import Shoe, check_cut_card
from tapete.games.baccarat import tableau
from tapete.games.baccarat.bank_award import Giver, Offer, Turn, award, rotation
from tapete.games.baccarat.common import (
    Articles,
    BankAccount,
    Hand,
    HoldsBanks,
    PlayerBankedGame,
    Stake,
    accept,
    check_line,
    draw_card,
    is_int,
    rotation_key,
    seat_fields,
    settle_stake,
)

KINDS = ("bank", "player", "bank-share")
PLAY_VERBS = ("draw", "stand", "cuadro", "give", "refuse")
MONEY_VERBS = ("banco", "banco-with-table", "last-completes", "pass", "garage", "top-up", "all-goes", "refuse-to-deal")
# the same article in each catalog; a document cites its own (own_citations)
FORMER_BANKER = "001:765; 000:873; 002:554; 003:2039-2042"
PASSED_HAND_LOST = "001:771; 000:877; 002:560; 003:2058-2061"
REFUSE_TO_DEAL = "001:773; 000:879; 002:562; 003:2063-2066"
STANDING_MOVES = "001:741; 000:849; 002:536; 003:1973-1976"
# the national article each refusal cites -> the same article in each catalog
ARTICLES = Articles({
    "001:741": STANDING_MOVES,
    "001:751": "001:751; 000:861; 002:542; 003:1990-1996",
    "001:753": "001:753; 000:863; 002:544-546; 003:1998-2007",
    "001:755": "001:755; 000:865; 002:548; 003:2009-2016",
    "001:757": "001:757; 000:867; 002:550; 003:2020-2025",
    "001:757-759": "001:757-759; 000:867; 002:550; 003:2020-2025",
    "001:767": "001:767; 000:873; 002:556; 003:2046-2051",
    "001:773": REFUSE_TO_DEAL,
    "001:769": "001:769; 000:875; 002:558; 003:2052-2056",
    "001:775": "001:775; 000:881; 002:564; 003:2070-2076",
    "001:777": "001:777; 000:883; 002:566; 003:2078-2081",
    "001:785": "001:785; 000:893; 002:574; 003:2097-2102",
    "001:801": "001:801; 000:911; 002:586; 003:2131-2137",
    "001:805-809": "001:805-809; 000:915-917; 002:590-594; 003:2144-2148",
    "001:811": "001:811; 000:921; 002:596; 003:2150-2160",
    "001:840": "001:840; 000:933; 002:606; 003:2194-2200",
    "001:842": "001:842; 000:935; 002:608; 003:2201-2206",
    "001:848": "001:848; 000:941; 002:614; 003:2215-2222",
    "001:850": "001:850; 000:943; 002:616; 003:2224-2230",
    "001:852": "001:852; 000:945; 002:618; 003:2232-2238",
    "001:854": "001:854; 000:947; 002:620; 003:2240-2246",
    "001:864": "001:864; 000:959; 002:630; 003:2270-2272",
    "001:866": "001:866; 000:961; 002:632; 003:2274-2284",
    "001:878": "001:878; 000:971; 002:646; 003:2315-2323",
    "001:880": "001:880; 000:973; 002:648; 003:2325-2328",
    "001:882": "001:882; 000:975; 002:648; 003:2330-2331",
    "001:890": "001:890; 000:983; 002:654; 003:2353-2360",
    "001:894": "001:894; 000:987; 002:656; 003:2365-2367",
    "001:896": "001:896; 000:989; 002:658; 003:2369-2372",
    "001:898": "001:898; 000:991; 002:660; 003:2374-2379",
    "001:916": "001:916; 000:1009; 002:680; 003:2423-2427",
    "001:916-918": "001:916-918; 000:1009-1011; 002:680-682; 003:2423-2433",
})
IRREGULARITIES = ("early-draw", "burn-exposed", "expose", "fifth-card", "extra-initial-card", "two-cards", "drop-card",
                  "early-abat", "forget-abat", "throw-cards", "wrong-call", "mistaken-call", "too-slow", "outside-advice")
HANDS = ("player", "bank", "croupier")

# The coup's stages, in the order the catalog plays them (B.5.5). An act fills the stage it belongs to; the
# coup advances through forced stages on its own, and stops where a free decision has not been written.
DEALT, PUNTO, BANK_ABAT, PUNTO_CARD, BANK, BANK_CARD, SHOWDOWN, DONE = range(8)


@dataclass(frozen=True)
class CheminRules(Rules):
    decks: int
    cards_below_stop: int
    burn: str
    minimum_players: int
    punto_draws_on: tuple[int, ...]
    punto_chooses_on: tuple[int, ...]
    punto_default_on_choice: str
    banco_free_on_authorisation: bool
    bank_must_draw_on: tuple[int, ...]
    bank_table: tuple[str, ...]
    bank_table_in_catalog: bool
    bank_default: str
    tie: str
    payout: Fraction
    cagnotte: Fraction
    bank_maximum_multiple: int
    unlimited_bank_on_authorisation: bool
    garage_threshold_multiple: int
    line_stakes_play: Fraction
    cards_thrown_by_punto: str


def _rules(jurisdiction: str, sources: dict[str, str], **fields: Any) -> CheminRules:
    base: dict[str, Any] = dict(
        decks=6, cards_below_stop=7, burn="none", minimum_players=4, punto_draws_on=(0, 1, 2, 3, 4),
        punto_chooses_on=(5,), punto_default_on_choice="stand", banco_free_on_authorisation=True,
        bank_must_draw_on=(0,), bank_table=tableau.T_CF_SEED, bank_table_in_catalog=False,
        bank_default="T-PB (T-CF drawing in its two O cells)", tie="void", payout=Fraction(1),
        cagnotte=Fraction(5, 100), bank_maximum_multiple=100, unlimited_bank_on_authorisation=True,
        garage_threshold_multiple=50, line_stakes_play=Fraction(1, 2), cards_thrown_by_punto="the punto loses",
    )
    base.update(fields)
    return CheminRules(jurisdiction=jurisdiction, sources=sources, **base)


def _sources(seed: str, lines: dict[str, str]) -> dict[str, str]:
    return {k: v if v.startswith(("R:", seed)) else f"{seed}:{v}" for k, v in lines.items()}


RULES: dict[str, CheminRules] = {
    "ES": _rules("ES", _sources("001", {
        "decks": "691", "cards_below_stop": "840", "burn": "838-840 (silent); R: docs/rulings.md#chemin-no-burn",
        "minimum_players": "836", "punto_draws_on": "805", "punto_chooses_on": "807",
        "punto_default_on_choice": "813", "banco_free_on_authorisation": "811", "bank_must_draw_on": "811",
        "bank_table": "815-832; R: docs/rulings.md#baccarat-letter-i", "bank_table_in_catalog": "817-832",
        "bank_default": "811; 815; R: docs/rulings.md#chemin-bank-default", "tie": "795",
        "payout": "868; R: docs/rulings.md#chemin-even-money", "cagnotte": "781; 868",
        "bank_maximum_multiple": "779", "unlimited_bank_on_authorisation": "779; 791",
        "garage_threshold_multiple": "785; R: docs/rulings.md#chemin-garage-threshold", "line_stakes_play": "924",
        "cards_thrown_by_punto": "922",
    }), bank_table_in_catalog=True),
    "ES-IB": _rules("ES-IB", _sources("000", {
        "decks": "803", "cards_below_stop": "933", "burn": "931-933 (silent); R: docs/rulings.md#chemin-no-burn",
        "minimum_players": "929", "punto_draws_on": "915", "punto_chooses_on": "916",
        "punto_default_on_choice": "923", "banco_free_on_authorisation": "919-921", "bank_must_draw_on": "921",
        "bank_table": "925; 967 (not reproduced: T-CF of 001:817-832); R: docs/rulings.md#baccarat-missing-tables",
        "bank_table_in_catalog": "967", "bank_default": "921; 925; R: docs/rulings.md#chemin-bank-default",
        "tie": "909", "payout": "963; R: docs/rulings.md#chemin-even-money", "cagnotte": "887",
        "bank_maximum_multiple": "885", "unlimited_bank_on_authorisation": "885; 905",
        "garage_threshold_multiple": "893; R: docs/rulings.md#chemin-garage-threshold", "line_stakes_play": "1017",
        "cards_thrown_by_punto": "1015",
    })),
    "ES-GA": _rules("ES-GA", _sources("002", {
        "decks": "506", "cards_below_stop": "606", "burn": "604-606 (silent); R: docs/rulings.md#chemin-no-burn",
        "minimum_players": "602", "punto_draws_on": "590", "punto_chooses_on": "592",
        "punto_default_on_choice": "598", "banco_free_on_authorisation": "596", "bank_must_draw_on": "596",
        "bank_table": "600; 638 (not reproduced: T-CF of 001:817-832); R: docs/rulings.md#baccarat-missing-tables",
        "bank_table_in_catalog": "638", "bank_default": "596; 600; R: docs/rulings.md#chemin-bank-default",
        "tie": "584", "payout": "634; R: docs/rulings.md#chemin-even-money", "cagnotte": "570",
        "bank_maximum_multiple": "568", "unlimited_bank_on_authorisation": "568; 580",
        "garage_threshold_multiple": "574; R: docs/rulings.md#chemin-garage-threshold", "line_stakes_play": "688",
        "cards_thrown_by_punto": "686",
    })),
    "ES-AN": _rules("ES-AN", _sources("003", {
        "decks": "1771-1778", "cards_below_stop": "2194-2200",
        "burn": "2183-2200 (silent); R: docs/rulings.md#chemin-no-burn", "minimum_players": "2178-2182",
        "punto_draws_on": "2144", "punto_chooses_on": "2145-2147", "punto_default_on_choice": "2166-2170",
        "banco_free_on_authorisation": "2150-2154", "bank_must_draw_on": "2156-2160",
        "bank_table": "2172-2175 (not printed: T-CF of 001:817-832); R: docs/rulings.md#baccarat-missing-tables",
        "bank_table_in_catalog": "2172-2175", "bank_default": "2156-2175; R: docs/rulings.md#chemin-bank-default",
        "tie": "2127-2129", "payout": "2286-2292; R: docs/rulings.md#chemin-even-money", "cagnotte": "2089-2092",
        "bank_maximum_multiple": "2082-2088", "unlimited_bank_on_authorisation": "2082-2088; 2114-2117",
        "garage_threshold_multiple": "2097-2103; R: docs/rulings.md#chemin-garage-threshold",
        "line_stakes_play": "2446-2453", "cards_thrown_by_punto": "2443-2444",
    })),
}


def bank_default_draws(bank_total: int, col: int) -> bool:
    """The bank's documented default: T-CF with its O cells read as draw, i.e. T-PB (docs/vocabulary.md §2)."""
    return tableau.cell(tableau.T_CF, bank_total, col) in ("T", "O")


def compare(punto: Hand, bank: Hand) -> int:
    """+1 the punto wins, -1 the bank wins, 0 a jugada nula (001:795). A punto who held 9 and forgot to abat
    loses to a bank that abats with 8 (001:918)."""
    if punto.forgot_abat and punto.total() == 9 and bank.abated and bank.total() == 8:
        return -1
    p, b = punto.total(), bank.total()
    return (p > b) - (p < b)


# -- state ---------------------------------------------------------------------------------------------------
@dataclass
class CheminCoup:
    number: int
    bank: str
    stakes: list[str]
    holder: str | None
    holder_banco: bool
    stage: int = DEALT
    punto: Hand = field(default_factory=Hand)
    banker: Hand = field(default_factory=Hand)
    punto_free: bool = False          # banco punto drawing freely (001:811)
    punto_fixed: bool = False         # croupier exposure / advice: the fixed rules, standing on 5 (001:888, 001:914)
    bank_table: str = "free"          # free | cuadro | cuadro-draw-o (the table's O cells drawn, 001:888)
    pending: list[str] = field(default_factory=list)    # a fifth card drawn ahead (001:894)
    give_due: str | None = None       # P3 / P4: the banker gives or refuses the card (001:916-918)
    give: bool | None = None
    third_dropped: bool = False       # the punto's third card fell into the cesta (001:900)
    result: int | None = None         # +1 punto, -1 bank, 0 void/tie
    forced: str | None = None         # why the result was imposed
    void: bool = False
    bank_before: int = 0              # the bank as the coup began: what a banker who loses it may take it back for


@dataclass
class CheminState(HoldsBanks):
    game: str
    jurisdiction: str
    table: dict[str, Any]
    minimum: int
    unlimited: bool
    banco_free: bool
    departments: int | None
    shoe: Shoe | None
    banks: list[BankAccount] = field(default_factory=list)
    stakes: list[Stake] = field(default_factory=list)
    shares: dict[str, str] = field(default_factory=dict)          # share bet id -> bank id
    coups: list[CheminCoup] = field(default_factory=list)
    current: CheminCoup | None = None
    closed: bool = False
    burn_at: list[int] = field(default_factory=list)              # cards of the next deal that come out face up
    banco_seguido: str | None = None
    last_pass: tuple[str, int, int] | None = None                 # (player, seat, amount) of the last bank passed
    turn: int = 1                     # the department whose turn it is to take the bank (001:749, 001:753, 001:761)
    excluded: list[str] = field(default_factory=list)             # the passer and his associates (001:767)
    former_banker: str | None = None  # takes the cards of the new bank's first coup (001:765)
    passed_from: dict[str, int] = field(default_factory=dict)     # bank id -> seat of the banker who passed it
    refused: list[str] = field(default_factory=list)  # a banker who would not deal, and the passer before him (001:773)
    passers: dict[str, str] = field(default_factory=dict)     # bank id -> the banker who passed it
    offers: list[Offer] = field(default_factory=list)             # bank offers being decided, then the void ones
    giver: Giver | None = None        # the banker whose bank is free: asked last, for the same amount (001:755)
    bidding: bool = False             # the first offer holds the bank until the next event awards it
    offer_log: int | None = None      # the log line of the first offer, reworded when another offer competes
    stop_card_out: bool = False
    commission: Fraction = Fraction(0)
    order: int = 0
    log: list[str] = field(default_factory=list)


class CheminDeFerGame(PlayerBankedGame):
    id = "chemin-de-fer"
    name_es = "Baccara, chemin de fer o ferrocarril"
    name_en = "Chemin de fer (baccarat)"
    bank_kinds = frozenset({"bank", "bank-share"})
    extra_bet_fields = frozenset({"seat", "behind", "line", "auction"})
    extra_act_fields = frozenset({"amount", "cards", "card", "count", "call", "withdraw", "discard", "at"})
    BANK, BANK_CARD, SHOWDOWN, DONE = BANK, BANK_CARD, SHOWDOWN, DONE
    bet_kinds, play_verbs, money_verbs, irregularities, hands = KINDS, PLAY_VERBS, MONEY_VERBS, IRREGULARITIES, HANDS
    # the catalog's words and articles where the logic is common.PlayerBankedGame's
    title = "chemin de fer"
    close_call = "no van más apuestas"                    # 001:866
    deal_size, deal_source = 4, "001:866"                 # punto, bank, punto, bank (001:797, 001:866)
    burn_source = "001:880"                               # G2: a card out face up is void and removed (001:880)
    early_draw_source = "001:878"                         # G1: cards drawn before the bets closed (001:876-878)
    early_discard = "discarded by the inspector"          # 001:878
    early_kept = "cards drawn before the bets closed: they stay in the coup, betting is closed (001:876)"
    void_source = "001:882"                               # G3, C1, the inspector: the coup is annulled (001:882)
    void_before_deal = ": stakes returned"
    stop_card_source = "001:840"                          # the partida ends with the coup (001:840)

    def cited(self, state: Any, source: str) -> str:
        return ARTICLES.cite(source, state.jurisdiction)

    def live_cut_from_end(self, jurisdiction: str) -> int | None:
        """The stop card before the last seven cards (001:840; 000:933; 002:606; 003:2194-2200)."""
        return self.rules[jurisdiction].cards_below_stop

    @property
    def rules(self) -> dict[str, CheminRules]:  # type: ignore[override]
        return RULES

    def state_type(self) -> type:
        return CheminState

    def kinds(self) -> list[KindInfo]:
        return [
            KindInfo("bank", None, "Banca: the banker's bank, staked from coup to coup until he loses or passes"),
            KindInfo("player", "1:1", "Postura of a punto against the bank; a tie is a jugada nula; line: true plays half"),
            KindInfo("bank-share", None, "Asociarse al banquero: a share of the bank's results pro rata (on: the bank bet)"),
        ]

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="the minimum del punto, cents"),
            TableKey("unlimited-bank", default=False, description="the authority allows a bank without maximum (001:779)"),
            TableKey("banco-free", default=False, description="the director allows a banco punto to draw or stand freely"),
            TableKey("departments", default=None, description="numbered seats, for the rotation; default the highest named"),
            TableKey("cut-card", default=None, description="index in shoe of the first card behind the stop card"),
            TableKey("rounding", default="player", description="fractions of a cent: deductions round down"),
        ]

    # -- table -------------------------------------------------------------------------------------------------
    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> CheminState:
        rules = self.rules_for(jurisdiction)
        m = self._table_minimum(table, "the minimum del punto, cents")
        for key in ("unlimited-bank", "banco-free"):
            if not isinstance(table.get(key, False), bool):
                raise TapeteError("bad-document", f"table.{key} is true or false")
        departments = table.get("departments")
        if departments is not None and (not is_int(departments) or departments < 1):
            raise TapeteError("bad-document", "table.departments is a positive integer")
        if table.get("rounding", "player") not in ("player", "house"):
            raise TapeteError("bad-document", "table.rounding must be 'player' or 'house'")
        live = Shoe.from_document(shoe, decks=rules.decks, cut_index=table.get("cut-card")) if shoe is not None else None
        if live is not None:            # 001:840: the stop card before the last seven cards
            check_cut_card(live, full=52 * rules.decks, behind=rules.cards_below_stop, exact=True, what="stop card",
                           source=rules.sources["cards_below_stop"])
        return CheminState(self.id, jurisdiction, dict(table), m, table.get("unlimited-bank", False),
                           table.get("banco-free", False), departments, live)

    def bank_cap(self, state: CheminState) -> int:
        return self.rules[state.jurisdiction].bank_maximum_multiple * state.minimum

    def in_play(self, state: CheminState, bank: BankAccount) -> Fraction:
        """The bank a coup may be staked against: above 100 m is the garage impropio (001:789) unless «todo va»
        (R: docs/rulings.md#chemin-bank-in-play)."""
        if state.unlimited and bank.all_goes:
            return bank.holding
        return min(bank.holding, Fraction(self.bank_cap(state)))

    def _departments(self, state: CheminState) -> int:
        if state.departments:
            return state.departments
        seats = [s.seat or s.behind or 0 for s in state.stakes] + [b.seat or b.behind or 0 for b in state.banks]
        return max(seats + [1])

    def _no_limits(self, rules: CheminRules) -> TapeteError:
        return TapeteError("illegal-action", "chemin de fer has no limit changes: the bank sets the maximum each coup",
                           source=rules.sources["bank_maximum_multiple"])

    # -- bets ------------------------------------------------------------------------------------------------------
    def _place(self, state: CheminState, rules: CheminRules, bet: Bet) -> None:
        if bet.kind == "bank-share":
            self._share(state, rules, bet)
        else:
            super()._place(state, rules, bet)

    def _bet(self, state: CheminState, rules: CheminRules, bet: Bet) -> None:
        if any(o.id == bet.id for o in state.offers):
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        super()._bet(state, rules, bet)

    def _bank_bet(self, state: CheminState, rules: CheminRules, bet: Bet) -> None:
        if state.bank() is not None and not state.bidding:
            raise TapeteError("illegal-action", f"bet {bet.id}: a bank is already in play; a new banker takes it only when "
                              "it is lost or passed", source=ARTICLES.cite("001:753", state.jurisdiction), bet=bet.id)
        if bet.on or bet.extra.get("line"):
            raise TapeteError("bad-document", f"bet {bet.id}: a bank takes a seat or behind, nothing else", bet=bet.id)
        seat, behind = seat_fields(bet.id, bet.extra)
        if bet.amount < state.minimum:
            raise TapeteError("under-minimum", f"bank {bet.id} of {bet.amount} is under the minimum del punto "
                              f"{state.minimum}", source=rules.sources["bank_maximum_multiple"], bet=bet.id)
        if not state.unlimited and bet.amount > self.bank_cap(state):
            raise TapeteError("over-maximum", f"bank {bet.id} of {bet.amount} exceeds 100 x the minimum "
                              f"({self.bank_cap(state)})", source=rules.sources["bank_maximum_multiple"], bet=bet.id)
        auction = self._check_offer(state, bet, seat)
        if any(s.coup == self._next_coup(state) and s.final == "open" for s in state.stakes):
            raise TapeteError("illegal-action", f"bank {bet.id}: the bank comes before the coup's stakes", source=ARTICLES.cite("001:842", state.jurisdiction),
                              bet=bet.id)
        if bet.player in state.refused:
            raise TapeteError("illegal-action", f"bank {bet.id}: {bet.player} may not bid for the bank auctioned after a "
                              "banker refused to deal", source=own_citations(REFUSE_TO_DEAL, state.jurisdiction), bet=bet.id)
        offer = Offer(bet.id, bet.player, bet.amount, seat, behind, len(state.offers), auction=auction)
        if state.bidding:                  # another offer for the same bank (R: docs/rulings.md#chemin-bank-award)
            if any(o.player == bet.player and o.final == "open" for o in state.offers):
                raise TapeteError("illegal-action", f"bank {bet.id}: {bet.player} has already made an offer for this bank",
                                  source=ARTICLES.cite("001:757", state.jurisdiction), bet=bet.id)
            if state.offer_log is not None:
                first = next(o for o in state.offers if o.final == "open")
                state.log[state.offer_log] = f"{first.player} offers {euros(first.amount)} for the bank"
                state.offer_log = None
            state.offers.append(offer)
            state.log.append(f"{bet.player} {'bids' if auction else 'offers'} {euros(bet.amount)} for the bank: the bank "
                             f"is awarded before the coup ({ARTICLES.cite('001:753; 001:757', state.jurisdiction)})")
            return
        self._open_bank(state, bet, seat, behind)
        state.offers = [o for o in state.offers if o.final == "void"] + [offer]
        state.bidding = True
        state.banco_seguido = None
        state.offer_log = len(state.log)
        state.log.append(f"{bet.player} takes the bank: «hay {euros(bet.amount)} en la banca»")

    # -- the award of the bank (R: docs/rulings.md#chemin-bank-award; games/baccarat/bank_award.py) ----------------
    def _check_offer(self, state: CheminState, bet: Bet, seat: int | None) -> bool:
        """What an offer may put up: a taker in the rotating turn at least the amount given up voluntarily (001:753),
        the giver taking it back the same amount (001:755), a bid at the auction the table minimum (001:757) and
        never by the banker or, after a mano pasada, his associates (001:767); the seat at the passer's right the
        table minimum (001:769). Returns whether the offer is an auction bid."""
        auction = bet.extra.get("auction", False)
        if not isinstance(auction, bool):
            raise TapeteError("bad-document", f"bet {bet.id}: 'auction' is true or false", bet=bet.id)
        giver = state.giver
        if auction and bet.player in self._barred(state):
            raise TapeteError("illegal-action", f"bank {bet.id}: {bet.player} may not bid at the auction of the bank he "
                              "has just given up, nor his associates after a mano pasada",
                              source=ARTICLES.cite("001:757; 001:767", state.jurisdiction), bet=bet.id)
        if auction or state.refused:
            return auction
        if giver is not None and bet.player == giver.player:
            if bet.amount < giver.amount:
                raise TapeteError("illegal-action", f"bank {bet.id}: {bet.player}, who gave the bank up, may take it back "
                                  f"only for the same amount, {euros(giver.amount)}",
                                  source=ARTICLES.cite("001:755", state.jurisdiction), bet=bet.id)
            return False
        floor = self.bank_floor(state)
        forced = seat is not None and seat == self._last_resort(state) and bet.amount == state.minimum
        if bet.amount < floor and not forced:
            raise TapeteError("illegal-action", f"bank {bet.id}: a hand passed with {floor} is taken for at least that "
                              "amount (or, by the seat at the passer's right, for the table minimum; or bid at the "
                              "auction with auction: true)",
                              source=ARTICLES.cite("001:753; 001:769", state.jurisdiction), bet=bet.id)
        return False

    def _barred(self, state: CheminState) -> frozenset[str]:
        """Who may not bid at the auction: the banker (001:757), after a mano pasada his associates too (001:767)."""
        barred = set(state.excluded)
        if state.giver is not None:
            barred.add(state.giver.player)
        return frozenset(barred)

    def _last_resort(self, state: CheminState) -> int | None:
        """After a mano pasada, the seat at the passer's right, who must take a bank nobody acquired (001:769)."""
        if state.last_pass is None or not state.last_pass[1]:
            return None
        return state.last_pass[1] % self._departments(state) + 1

    def _award(self, state: CheminState, rules: CheminRules) -> None:
        """The offers made for the bank are closed by the next event that is not an offer: the bank goes round the
        seated players from the department in turn, then to those standing, then back to the giver, and only then
        to auction (bank_award.award). Every other offer is void."""
        if not state.bidding:
            return
        state.bidding = False
        state.offer_log = None
        offers = [o for o in state.offers if o.final == "open"]
        deps = max([self._departments(state)] + [o.seat or o.behind or 0 for o in offers])
        turn = Turn(first=(state.turn - 1) % deps + 1, departments=deps, floor=self.bank_floor(state),
                    minimum=state.minimum, giver=state.giver, barred=self._barred(state),
                    auction_only=bool(state.refused), last_resort=self._last_resort(state))
        result = award(offers, turn, lambda national: ARTICLES.cite(national, state.jurisdiction))
        assert result is not None
        winner = result.winner
        state.log.extend(result.declined)
        provisional = state.banks[-1]
        if provisional.id != winner.id:
            state.banks.remove(provisional)
            state.banks.append(BankAccount(winner.id, winner.player, winner.seat, winner.behind, winner.amount))
            state.banks[-1].add(winner.id, winner.amount)
        if len(offers) > 1 or result.declined:
            state.log.append(f"the bank is awarded to {winner.player} {result.how}: «hay {euros(winner.amount)} en la banca»")
        for o in offers:
            if o is not winner:
                o.final = "void"
                state.log.append(f"offer {o.id} by {o.player} is void, {euros(o.amount)} returned: {result.reasons[o.id]}")
        state.offers = [o for o in state.offers if o.final == "void"]
        if state.last_pass is not None and state.banks and state.banks[-1].initial > state.last_pass[2]:
            state.former_banker = state.last_pass[0]      # 001:765: a bigger bank than the one he passed
        if state.last_pass is not None and state.banks:
            state.passers[state.banks[-1].id] = state.last_pass[0]
            if state.last_pass[1]:
                state.passed_from[state.banks[-1].id] = state.last_pass[1]
        state.refused = []
        state.last_pass = None
        state.excluded = []
        state.giver = None

    def asking_order(self, state: CheminState) -> list[tuple[str, int | None, int]]:
        """Who is asked for a free bank, in order, and the least each may put up: `(stage, seat, least)` with stage
        `rotation` (each department from the one in turn, 001:753), `standing` (001:755), `back` (the giver, for the
        same amount, 001:755), `auction` (001:757; seat None: anyone not barred) and, after a mano pasada,
        `last-resort` (the seat at the passer's right, for the table minimum, 001:769)."""
        deps = self._departments(state)
        first = (state.turn - 1) % deps + 1
        turn = Turn(first, deps, self.bank_floor(state), state.minimum, state.giver)
        order: list[tuple[str, int | None, int]] = []
        if not state.refused:
            giver_seat = state.giver.seat if state.giver is not None else None
            order += [("rotation", seat, turn.floor) for seat in rotation(turn) if seat != giver_seat]
            order.append(("standing", None, turn.floor))
            if state.giver is not None:
                order.append(("back", state.giver.seat, state.giver.amount))
        order.append(("auction", None, state.minimum))
        last = self._last_resort(state)
        if last is not None:
            order.append(("last-resort", last, state.minimum))
        return order

    def may_bid(self, state: CheminState, player: str) -> bool:
        """Whether a player may bid at the auction of the free bank (001:757; 001:767; 001:773)."""
        return player not in self._barred(state) and player not in state.refused

    def award_now(self, state: CheminState) -> None:
        """A live table: the croupier closes the offers and awards the bank before anyone stakes."""
        self._award(state, self.rules[state.jurisdiction])

    def end_bank(self, state: CheminState, bank: BankAccount, why: str) -> None:
        """A seated banker's bank ends: the turn goes to the seat at his right; after a standing banker it stays at
        the right of the last seated banker (001:753; 001:761)."""
        super().end_bank(state, bank, why)
        if why == "lost" and bank.id in state.passed_from:   # 001:771: a passed hand lost: back to the passer's right
            state.turn = state.passed_from[bank.id] % self._departments(state) + 1
        elif bank.seat is not None:
            state.turn = bank.seat % self._departments(state) + 1

    def bank_floor(self, state: CheminState) -> int:
        """The least a new bank may hold: the minimum, or after a mano pasada the amount passed (001:753), never
        more than the bank's maximum (R: docs/rulings.md#chemin-passed-hand-amount)."""
        if state.last_pass is None:
            return state.minimum
        amount = state.last_pass[2]
        return amount if state.unlimited else min(amount, self.bank_cap(state))

    def _share(self, state: CheminState, rules: CheminRules, bet: Bet) -> None:
        """An associate joins the bank in play (001:751; R: docs/rulings.md#chemin-association)."""
        if "auction" in bet.extra:
            raise TapeteError("bad-document", f"bet {bet.id}: 'auction' marks a bid for the bank, not a share", bet=bet.id)
        bank = state.bank()
        target = bet.on[0] if bet.on and len(bet.on) == 1 else None
        if bank is None or target != bank.id:
            raise TapeteError("illegal-action", f"bet {bet.id}: a share joins the bank in play (on: [its bet id])",
                              source=ARTICLES.cite("001:751", state.jurisdiction), bet=bet.id)
        if not state.unlimited and bank.holding + bet.amount > self.bank_cap(state):
            raise TapeteError("over-maximum", f"share {bet.id} takes the bank above 100 x the minimum",
                              source=rules.sources["bank_maximum_multiple"], bet=bet.id)
        bank.add(bet.id, bet.amount)
        bank.associates.append(bet.player)
        state.shares[bet.id] = bank.id
        state.log.append(f"{bet.player} joins the bank with {euros(bet.amount)}")

    def _stake(self, state: CheminState, rules: CheminRules, bet: Bet) -> None:
        if "auction" in bet.extra:
            raise TapeteError("bad-document", f"bet {bet.id}: 'auction' marks a bid for the bank, not a stake", bet=bet.id)
        bank = state.bank()
        if bank is None:
            raise TapeteError("illegal-action", f"bet {bet.id}: there is no bank to play against", source=ARTICLES.cite("001:842", state.jurisdiction), bet=bet.id)
        if bank.holding <= 0:
            raise TapeteError("illegal-action", f"bet {bet.id}: the bank is empty", source=ARTICLES.cite("001:753", state.jurisdiction), bet=bet.id)
        if state.closed:
            raise TapeteError("bet-closed", f"bet {bet.id} refused: «no van más apuestas» has been called",
                              source=ARTICLES.cite("001:866", state.jurisdiction), bet=bet.id)
        if bet.player == bank.player:
            raise TapeteError("illegal-action", f"bet {bet.id}: the banker cannot punt against his own bank", bet=bet.id)
        if bet.on:
            raise TapeteError("bad-target", f"bet {bet.id}: a punto's stake takes no 'on'", bet=bet.id)
        seat, behind = seat_fields(bet.id, bet.extra)
        line = check_line(bet.id, bet.extra)
        if bet.amount < state.minimum:
            raise TapeteError("under-minimum", f"stake {bet.id} of {bet.amount} is under the minimum del punto "
                              f"{state.minimum}", source=ARTICLES.cite("001:775", state.jurisdiction), bet=bet.id)
        limit = self.in_play(state, bank)
        if bet.amount > limit:
            raise TapeteError("over-maximum", f"stake {bet.id} of {bet.amount} exceeds the bank in play, {euros(limit)}: "
                              "the most a punto can play is banco", source=ARTICLES.cite("001:777", state.jurisdiction), bet=bet.id)
        state.order += 1
        state.stakes.append(Stake(bet.id, bet.player, bet.amount, self._next_coup(state), state.order, seat, behind, line))

    # -- money acts ----------------------------------------------------------------------------------------------
    def _no_bet(self, state: CheminState, act: Act) -> None:
        if act.bet in state.shares:
            raise TapeteError("illegal-action", f"an associate cannot intervene in the game: {act.do!r}",
                              source=ARTICLES.cite("001:751", state.jurisdiction), bet=act.bet)
        super()._no_bet(state, act)

    def _call(self, state: CheminState, rules: CheminRules, act: Act, stake: Stake) -> None:
        if act.do not in ("banco", "banco-with-table", "last-completes"):
            raise TapeteError("illegal-action", f"{act.do!r} is not a punto's decision: card play is by the hand "
                              "(act.by: player)", bet=stake.id)
        if stake.final != "open" or stake.coup != self._next_coup(state) or state.closed:
            raise TapeteError("out-of-turn", f"{act.do} on {stake.id}: bancos are called before the deal",
                              source=ARTICLES.cite("001:854", state.jurisdiction), bet=stake.id)
        bank = state.bank()
        assert bank is not None
        limit = self.in_play(state, bank)
        coup = [s for s in state.stakes if s.coup == stake.coup and s.final == "open"]
        if stake.line:
            raise TapeteError("illegal-action", f"{act.do} on {stake.id}: a stake on the line plays half; it cannot be banco",
                              bet=stake.id)
        if act.do == "banco":
            if stake.amount != math.floor(limit):
                raise TapeteError("illegal-action", f"banco on {stake.id}: the stake must be the whole bank in play "
                                  f"({euros(limit)})", source=ARTICLES.cite("001:777", state.jurisdiction), bet=stake.id)
        elif act.do == "banco-with-table":
            if any(s.call == "banco-with-table" for s in coup):
                raise TapeteError("illegal-action", f"banco con la mesa on {stake.id}: already announced", source=ARTICLES.cite("001:848", state.jurisdiction),
                                  bet=stake.id)
            if stake.amount not in (math.floor(limit / 2), math.ceil(limit / 2)):
                raise TapeteError("illegal-action", f"banco con la mesa on {stake.id}: the stake is half the bank "
                                  f"({euros(limit / 2)})", source=ARTICLES.cite("001:848", state.jurisdiction), bet=stake.id)
        else:
            table_call = next((s for s in coup if s.call == "banco-with-table"), None)
            if table_call is None:
                raise TapeteError("illegal-action", f"last-completes on {stake.id}: nobody announced banco con la mesa",
                                  source=ARTICLES.cite("001:850", state.jurisdiction), bet=stake.id)
            if any(s.call == "last-completes" for s in coup):
                raise TapeteError("illegal-action", f"last-completes on {stake.id}: the half is already completed",
                                  source=ARTICLES.cite("001:850", state.jurisdiction), bet=stake.id)
            if stake.amount != math.floor(limit) - table_call.amount:
                raise TapeteError("illegal-action", f"last-completes on {stake.id}: the stake completes the other half "
                                  f"({euros(limit - table_call.amount)})", source=ARTICLES.cite("001:850", state.jurisdiction), bet=stake.id)
        stake.call = act.do
        words = {"banco": "banco", "banco-with-table": "banco con la mesa", "last-completes": "con la mesa y último completo"}
        state.log.append(f"{stake.player}: «{words[act.do]}»")

    def _bank_act(self, state: CheminState, rules: CheminRules, act: Act, bank: BankAccount) -> None:
        if not bank.active:
            raise TapeteError("illegal-action", f"{act.do} on {bank.id}: this bank is no longer in play", bet=bank.id)
        if act.do not in ("pass", "garage", "top-up", "all-goes", "refuse-to-deal"):
            raise TapeteError("illegal-action", f"{act.do!r} is not a decision of the bank's money (card play is "
                              "act.by: bank)", bet=bank.id)
        if any(s.coup == self._next_coup(state) and s.final == "open" for s in state.stakes) or state.closed:
            raise TapeteError("out-of-turn", f"{act.do} on {bank.id}: the bank's money is decided between coups",
                              bet=bank.id)
        amount = act.fields.get("amount")
        if act.do == "refuse-to-deal":
            if bank.coups:
                raise TapeteError("illegal-action", f"refuse-to-deal on {bank.id}: he has dealt; he may pass the hand",
                                  source=own_citations(REFUSE_TO_DEAL, state.jurisdiction), bet=bank.id)
            self._refuse_to_deal(state, bank)
            return
        if act.do == "pass":
            if bank.coups == 0:
                raise TapeteError("illegal-action", f"pass on {bank.id}: whoever takes the bank must deal at least once "
                                  "(refuse-to-deal puts it to auction)",
                                  source=own_citations(REFUSE_TO_DEAL, state.jurisdiction), bet=bank.id)
            self.end_bank(state, bank, "passed")
            state.last_pass = (bank.player, bank.seat or bank.behind or 0, int(bank.holding))
            state.excluded = [bank.player, *bank.associates]               # 001:767
            state.giver = Giver(bank.player, bank.seat, self.bank_floor(state), voluntary=True)   # 001:753; 001:755
            state.log.append(f"{bank.player} passes the hand (mano pasada) with {euros(bank.holding)}")
            return
        if act.do == "all-goes":
            if not state.unlimited:
                raise TapeteError("illegal-action", "«todo va» needs a bank without maximum (table.unlimited-bank)",
                                  source=rules.sources["unlimited_bank_on_authorisation"], bet=bank.id)
            bank.all_goes = True
            state.log.append("«todo va»: the whole bank plays")
            return
        if not is_int(amount) or amount <= 0:
            raise TapeteError("bad-document", f"{act.do} on {bank.id} needs 'amount' (cents)", bet=bank.id)
        if act.do == "garage":
            threshold = rules.garage_threshold_multiple * state.minimum
            if bank.free_winnings <= threshold:
                raise TapeteError("illegal-action", f"garage on {bank.id}: the winnings not yet garaged "
                                  f"({euros(bank.free_winnings)}) must exceed 50 x the minimum ({euros(threshold)})",
                                  source=rules.sources["garage_threshold_multiple"], bet=bank.id)
            if amount > bank.free_winnings:
                raise TapeteError("illegal-action", f"garage on {bank.id}: only winnings may be garaged "
                                  f"({euros(bank.free_winnings)})", source=ARTICLES.cite("001:785", state.jurisdiction), bet=bank.id)
            bank.to_garage(Fraction(amount))
            bank.free_winnings -= amount
            state.log.append(f"garage voluntario: {euros(amount)} out of play")
            return
        if not state.unlimited and bank.holding + amount > self.bank_cap(state):
            raise TapeteError("over-maximum", f"top-up on {bank.id}: the bank may not be raised above 100 x the minimum",
                              source=rules.sources["bank_maximum_multiple"], bet=bank.id)
        bank.add(bank.id, amount)
        state.log.append(f"the bank is raised by {euros(amount)} to {euros(bank.holding)}")

    def _refuse_to_deal(self, state: CheminState, bank: BankAccount) -> None:
        """001:773: the new banker refuses to deal his first coup: his bank is returned and auctioned, and neither
        he nor the banker who passed the hand may bid."""
        self.end_bank(state, bank, "withdrawn")
        state.refused = [bank.player, *bank.associates] + ([state.passers[bank.id]] if bank.id in state.passers
                                                           else [])
        state.last_pass = None
        state.log.append(f"{bank.player} refuses to deal: the bank is auctioned, and neither he nor "
                         f"{'the banker who passed the hand' if bank.id in state.passers else 'his associates'} "
                         f"may bid ({own_citations(REFUSE_TO_DEAL, state.jurisdiction)})")

    # -- the deal -----------------------------------------------------------------------------------------------
    def deal(self, state: CheminState, rules: CheminRules) -> CheminCoup:
        bank = state.bank()
        if bank is None:
            raise TapeteError("illegal-action", "no bank is in play: a coup needs a banker", source=ARTICLES.cite("001:842", state.jurisdiction))
        if state.stop_card_out:
            raise TapeteError("shoe-exhausted", "the stop card has come out: the partida is over",
                              source=rules.sources["cards_below_stop"])
        number = self._next_coup(state)
        stakes = [s for s in state.stakes if s.coup == number and s.final == "open"]
        if not stakes:
            raise TapeteError("illegal-action", "no punto has staked against the bank: there is no coup to deal",
                              source=ARTICLES.cite("001:852", state.jurisdiction))
        holder = self._cover(state, rules, bank, stakes)
        state.former_banker = None                  # his right is for one coup only (001:765)
        coup = CheminCoup(number, bank.id, [s.id for s in stakes], holder.id, holder.call == "banco",
                          bank_before=int(bank.holding))
        coup.punto_free = state.banco_free and holder.call == "banco"
        state.current = coup
        state.closed = True
        drawn = self._deal_cards(state)        # punto, bank, punto, bank (001:797, 001:866)
        coup.punto.cards = [drawn[0], drawn[2]]
        coup.banker.cards = [drawn[1], drawn[3]]
        bank.coups += 1
        state.log.append(f"coup {number}: the cards go to {holder.player}")
        return coup

    def _cover(self, state: CheminState, rules: CheminRules, bank: BankAccount, stakes: list[Stake]) -> Stake:
        """Accept stakes in order until the bank in play is covered (001:842-852); the hand's holder."""
        capacity = self.in_play(state, bank)
        seat = bank.seat or bank.behind or 0
        deps = self._departments(state)
        order = sorted(stakes, key=lambda s: rotation_key(s, seat, deps))
        moved = [s for s in order if self._moved(state, s)]
        if moved:               # 001:741: a standing player who moved to follow the hand is paid last
            order = [s for s in order if s not in moved] + moved
            state.log.append(f"{', '.join(s.player for s in moved)} moved to follow the hand: paid last "
                             f"({own_citations(STANDING_MOVES, state.jurisdiction)})")
        bancos = [s for s in order if s.call == "banco"]
        if bancos:
            bancos.sort(key=lambda s: s.player != state.banco_seguido)   # banco seguido first (001:854)
            winner = bancos[0]
            accept([winner], capacity)
            for s in stakes:
                if s is not winner:
                    s.accepted = [Fraction(0)]
            state.log.append(f"banco by {winner.player}: the other stakes are refused")
            return winner
        with_table = [s for s in order if s.call == "banco-with-table"]
        completes = [s for s in order if s.call == "last-completes"]
        rest = [s for s in order if s.call not in ("banco-with-table", "last-completes")]
        left = accept(with_table + completes + rest, capacity)
        if left > 0:
            state.log.append(f"garage obligatorio: {euros(left)} of the bank is not covered")
        for s in stakes:
            if s.covered == 0:
                state.log.append(f"stake {s.id} refused: the bank is covered")
            elif s.covered < s.playing:
                state.log.append(f"stake {s.id} covered for {euros(s.covered)} of {euros(s.playing)}")
        if completes:
            return completes[0]
        if with_table:
            return with_table[0]
        covered = [s for s in order if s.covered > 0]
        former = next((s for s in covered if s.player == state.former_banker), None) if bank.coups == 0 else None
        if former is not None:
            state.log.append(f"{former.player}, the banker who passed the hand, takes the cards for this coup: the "
                             f"new bank is bigger than the one he passed ({own_citations(FORMER_BANKER, state.jurisdiction)})")
            return former
        seated = [s for s in covered if s.seated] or covered           # R: docs/rulings.md#chemin-cards-holder
        best = max(s.amount for s in seated)
        return next(s for s in seated if s.amount == best)

    @staticmethod
    def _moved(state: CheminState, stake: Stake) -> bool:
        """A standing stake behind another seat than the same player's earlier standing stake (001:741)."""
        return stake.behind is not None and any(
            p.player == stake.player and p.coup < stake.coup and p.behind is not None and p.behind != stake.behind
            for p in state.stakes)

    # -- card play ------------------------------------------------------------------------------------------------
    def _coup_waiting(self, state: CheminState) -> bool:
        return any(s.coup == self._next_coup(state) for s in state.stakes)

    def _handlers(self) -> dict[str, Any]:
        return {
            "draw": self._decide, "stand": self._decide, "cuadro": self._cuadro, "give": self._give, "refuse": self._give,
            "burn-exposed": self._burn_now, "expose": self._expose, "fifth-card": self._fifth, "two-cards": self._two,
            "extra-initial-card": self._extra, "drop-card": self._drop, "early-abat": self._early_abat,
            "forget-abat": self._forget, "throw-cards": self._throw, "wrong-call": self._wrong_call,
            "mistaken-call": self._mistaken, "too-slow": self._slow, "outside-advice": self._advice,
            "early-draw": self._too_late,
        }

    def _need(self, act: Act, *hands: str) -> None:
        if act.by not in hands:
            raise TapeteError("illegal-action", f"{act.do} is done by {' or '.join(hands)}, not {act.by}")

    @staticmethod
    def _due(coup: CheminCoup) -> str:
        return {DEALT: "the deal", PUNTO: "the punto's word", BANK_ABAT: "the bank's natural",
                PUNTO_CARD: "the punto's card", BANK: "the bank's draw", BANK_CARD: "the bank's card",
                SHOWDOWN: "the showdown", DONE: "nothing"}[coup.stage]

    def _decide(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        self._need(act, "player", "bank")
        draw = act.do == "draw"
        if act.by == "player":
            self._reach(state, rules, coup, PUNTO, act)
            rule = self._punto_rule(coup)
            if rule == "natural":
                raise TapeteError("illegal-action", "a punto with a natural abats: he has no card to ask for",
                                  source=ARTICLES.cite("001:801", state.jurisdiction))
            if rule != tableau.Choice.FREE and (rule == tableau.Choice.DRAW) != draw:
                raise TapeteError("illegal-action", f"the punto with {coup.punto.total()} must "
                                  f"{'draw' if rule == tableau.Choice.DRAW else 'stand'}", source=ARTICLES.cite("001:805-809", state.jurisdiction))
            coup.punto.drew = draw
            state.log.append(f"punto: «{'carta' if draw else 'no'}»")
            coup.stage = BANK_ABAT
            return
        self._reach(state, rules, coup, BANK, act)
        forced = self._bank_forced(coup)
        if forced is not None and forced != draw:
            raise TapeteError("illegal-action", f"the bank with {coup.banker.total()} must {'draw' if forced else 'stand'} "
                              f"here ({self._bank_reason(coup)})", source=self._bank_source(coup))
        coup.banker.drew = draw
        state.log.append(f"banca: {'carta' if draw else 'se planta'}")
        coup.stage = BANK_CARD

    def _cuadro(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        self._need(act, "bank")
        self._reach(state, rules, coup, BANK, act)
        if coup.bank_table == "free":
            coup.bank_table = "cuadro"
        state.log.append("the banker asks for the cuadro de jugadas de la banca (001:815)")

    def _give(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        self._need(act, "bank")
        self._reach(state, rules, coup, PUNTO_CARD, act)
        if coup.give_due is None:
            raise TapeteError("illegal-action", f"{act.do}: the banker gives or refuses a card only after a punto's "
                              "mistaken call or forgotten natural",
                              source=ARTICLES.cite("001:916-918", state.jurisdiction))
        give = act.do == "give"
        if coup.give_due == "baccara" and not give:
            raise TapeteError("illegal-action", "a punto with baccará always gets the card", source=ARTICLES.cite("001:916", state.jurisdiction))
        coup.give = give
        state.log.append(f"the banker {'gives' if give else 'refuses'} the card")

    # -- irregularities -----------------------------------------------------------------------------------------
    def _expose(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        """C1 (croupier, 001:888) and K5 (banker, 001:902): a punto card shown during the deal."""
        self._need(act, "croupier", "bank")
        self._reach(state, rules, coup, PUNTO, act)
        cards = act.fields.get("cards", 1)
        if cards not in (1, 2):
            raise TapeteError("bad-document", "expose 'cards': 1 or 2 of the punto's cards")
        if act.by == "croupier":
            coup.punto_fixed = True
            if cards == 2:
                coup.bank_table = "cuadro-draw-o"
            state.log.append("the croupier exposed a card: banker and punto play by the fixed rules (001:888)")
        else:
            if cards == 2 and coup.bank_table == "free":
                coup.bank_table = "cuadro"
            state.log.append("the banker exposed the punto's card" + ("s: he shows his and follows the cuadro (001:902)"
                             if cards == 2 else ": he shows his corresponding card (001:902)"))

    def _fifth(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        """K1: a fifth card drawn before the punto speaks is the banker's unless the punto asks (001:894)."""
        self._need(act, "bank")
        self._reach(state, rules, coup, PUNTO, act)
        if coup.pending:
            raise TapeteError("illegal-action", "a fifth card has already been drawn")
        coup.pending.append(draw_card(state.shoe, ARTICLES.cite("001:894", state.jurisdiction)))
        state.log.append(f"the banker draws a fifth card, {coup.pending[0]}: his unless the punto asks for a card")

    def _extra(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        """K2: more than two cards to himself in the deal: his total counts baccará (001:896)."""
        self._need(act, "bank")
        self._reach(state, rules, coup, PUNTO, act)
        if coup.banker.zero_from:
            raise TapeteError("illegal-action", "the over-deal is already recorded")
        count = act.fields.get("count", 1)
        if not is_int(count) or count < 1:
            raise TapeteError("bad-document", "extra-initial-card 'count' is a positive number of cards")
        for _ in range(count):
            coup.banker.cards.append(draw_card(state.shoe, ARTICLES.cite("001:896", state.jurisdiction)))
        coup.banker.zero_from = len(coup.banker.cards)
        state.log.append("the banker dealt himself more than two cards: he counts baccará and keeps his draw (001:896)")

    def _two(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        """K3: two cards given as one third card: the punto keeps the higher total, the banker the lower (001:898)."""
        self._need(act, "player", "bank")
        hand = coup.punto if act.by == "player" else coup.banker
        self._reach(state, rules, coup, BANK, act)
        if act.by == "bank":                       # two cards to himself: he drew (where he may)
            if self._bank_forced(coup) is False:
                raise TapeteError("illegal-action", f"two-cards: the bank with {hand.total()} may not draw")
            hand.drew = True
            coup.stage = BANK_CARD
            self._step(state, rules, coup, default=True)
        if not hand.drew:
            raise TapeteError("illegal-action", f"two-cards: the {act.by} has not been given a third card")
        other = draw_card(state.shoe, ARTICLES.cite("001:898", state.jurisdiction))
        first = hand.cards[-1]
        base = hand.cards[:-1]
        with_first, with_other = tableau.total(base[hand.zero_from:] + [first]), tableau.total(base[hand.zero_from:] + [other])
        keep_other = with_other > with_first if act.by == "player" else with_other < with_first
        if keep_other:
            hand.cards[-1] = other
        state.log.append(f"two cards given to the {act.by}: {first} and {other}; {hand.cards[-1]} is kept (001:898)")

    def _drop(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        """K4: a punto card dropped into the cesta: he abats with 9, or his total is 9 (001:900)."""
        self._need(act, "bank")
        card = act.fields.get("card", 1)
        if card not in (1, 2, 3):
            raise TapeteError("bad-document", "drop-card 'card': 1 or 2 (the first two) or 3 (the third card)")
        if card in (1, 2):
            self._reach(state, rules, coup, PUNTO, act)
            coup.punto.forced_total = 9
            coup.punto.abated = True
            state.log.append("a punto card fell into the cesta: the punto abats with 9 (001:900)")
            coup.stage = SHOWDOWN
            return
        self._reach(state, rules, coup, BANK, act)
        if not coup.punto.drew:
            raise TapeteError("illegal-action", "drop-card 3: the punto has no third card")
        coup.punto.forced_total = 9
        coup.third_dropped = True
        state.log.append("the punto's third card fell into the cesta: his total is 9 (001:900)")

    def _early_abat(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        """K6: the banker abats before the punto has spoken: the players may withdraw (001:904)."""
        self._need(act, "bank")
        self._reach(state, rules, coup, PUNTO, act)
        if not coup.banker.natural():
            raise TapeteError("illegal-action", "early-abat: the banker has no natural to show")
        if act.fields.get("withdraw", True):
            coup.void = True
            coup.forced = "the banker abated before the punto spoke: the stakes are withdrawn (001:904)"
            coup.result = 0
            state.log.append(coup.forced)
            coup.stage = SHOWDOWN
            return
        coup.banker.abated = True
        coup.stage = SHOWDOWN
        state.log.append("the banker abated early; the stakes stay and the coup is shown (001:904)")

    def _forget(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        """P4 (001:918) and K6 (001:904): a natural not shown in time loses the right to abat."""
        self._need(act, "player", "bank")
        if act.by == "player":
            self._reach(state, rules, coup, PUNTO, act)
            if not coup.punto.natural():
                raise TapeteError("illegal-action", "forget-abat: the punto has no natural")
            coup.punto.forgot_abat = True
            call = act.fields.get("call", "no")
            if call not in ("no", "carta"):
                raise TapeteError("bad-document", "forget-abat 'call' is 'no' or 'carta'")
            coup.punto.drew = False
            if call == "carta":
                coup.give_due = "forgot"
            state.log.append(f"the punto forgot to abat and says «{call}»: he loses the right (001:918)")
            coup.stage = BANK_ABAT
            return
        self._reach(state, rules, coup, BANK_ABAT, act)
        if not coup.banker.natural():
            raise TapeteError("illegal-action", "forget-abat: the banker has no natural")
        coup.banker.forgot_abat = True
        state.log.append("the banker, with a natural, gives a card: he loses the right to abat (001:904)")

    def _throw(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        """P6: the punto's cards into the cesta unseen lose the coup (001:922); K7: the banker's (001:906)."""
        self._need(act, "player", "bank")
        if coup.stage >= SHOWDOWN:
            raise TapeteError("out-of-turn", "throw-cards: the coup is already shown")
        coup.result = -1 if act.by == "player" else 1
        coup.forced = ("the punto threw his cards into the cesta unseen: he loses (001:922)" if act.by == "player"
                       else "the banker put a card into the cesta unseen: he loses the coup (001:906)")
        state.log.append(coup.forced)
        coup.stage = SHOWDOWN

    def _wrong_call(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        """C2: the croupier calls «carta» after the punto's «no»: the coup restored by the table (001:890)."""
        self._need(act, "croupier")
        self._reach(state, rules, coup, BANK, act)
        if coup.punto.drew:
            raise TapeteError("illegal-action", "wrong-call: the punto asked for a card; the call was right")
        count = act.fields.get("count", 1)
        if count not in (1, 2):
            raise TapeteError("bad-document", "wrong-call 'count': the cards the banker drew, 1 or 2")
        drawn = [draw_card(state.shoe, ARTICLES.cite("001:890", state.jurisdiction)) for _ in range(count)]
        if coup.banker.total() <= 5:
            coup.banker.cards.append(drawn[0])
            coup.banker.drew = True
            state.log.append(f"«carta» called in error: the banker keeps {drawn[0]}" +
                             (f", {drawn[1]} is discarded" if count == 2 else "") + " (001:890)")
        else:
            coup.banker.drew = False
            state.log.append(f"«carta» called in error: the banker has {coup.banker.total()}, the cards are discarded (001:890)")
        coup.stage = SHOWDOWN

    def _mistaken(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        """P3: the punto says «carta» for «no» or the reverse: the banker gives or refuses (001:916)."""
        self._need(act, "player")
        self._reach(state, rules, coup, PUNTO, act)
        rule = self._punto_rule(coup)
        if rule in ("natural", tableau.Choice.FREE):
            raise TapeteError("illegal-action", "mistaken-call: with this total either word is the punto's choice")
        coup.give_due = "baccara" if coup.punto.total() == 0 else "mistaken"
        coup.punto.drew = rule == tableau.Choice.DRAW       # settled by the banker at the punto's card
        state.log.append("the punto calls the wrong word: the banker gives or refuses the card (001:916)")
        coup.stage = BANK_ABAT

    def _slow(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        self._need(act, "player")
        self._reach(state, rules, coup, PUNTO, act)
        state.log.append("the punto takes too long: the cards pass to the next player in priority (001:912)")

    def _advice(self, state: CheminState, rules: CheminRules, coup: CheminCoup, act: Act) -> None:
        self._need(act, "player", "croupier")
        self._reach(state, rules, coup, PUNTO, act)
        coup.punto_fixed = True
        if coup.bank_table == "free":
            coup.bank_table = "cuadro"
        state.log.append("advice from outside: the cuadro de jugadas governs the coup (001:914)")

    # -- the stages ----------------------------------------------------------------------------------------------
    def _punto_rule(self, coup: CheminCoup) -> str:
        if coup.punto.natural():
            return "natural"
        t = coup.punto.total()
        if coup.punto.forgot_abat:
            return tableau.Choice.STAND
        if coup.punto_free and not coup.punto_fixed:
            return tableau.Choice.FREE
        rule = tableau.chemin_punto_rule(t)
        if rule == tableau.Choice.FREE and coup.punto_fixed:
            return tableau.Choice.STAND            # the croupier's advice on 5 (001:813)
        return rule

    def _bank_forced(self, coup: CheminCoup) -> bool | None:
        """True/False when the bank's draw is forced, None when he is free."""
        b = coup.banker
        if b.forgot_abat or b.total() >= 8:
            return False
        if b.total() == 0:
            return True                           # baccará must draw (001:811)
        if coup.pending and not coup.punto.drew:
            return True                           # the fifth card is his (001:894)
        if coup.third_dropped and b.total() == 7:
            return False                          # (001:900)
        if coup.bank_table != "free":
            cell = tableau.cell(tableau.T_CF, b.total(), coup.punto.column())
            if cell == "O":
                return True if coup.bank_table == "cuadro-draw-o" else None
            return cell == "T"
        return None

    def _bank_reason(self, coup: CheminCoup) -> str:
        if coup.banker.total() == 0:
            return "baccará"
        return "the cuadro de jugadas" if coup.bank_table != "free" else "the rules"

    def _bank_source(self, coup: CheminCoup) -> str:
        return "001:815-832" if coup.bank_table != "free" else "001:811"

    def _step(self, state: CheminState, rules: CheminRules, coup: CheminCoup, default: bool) -> bool:
        """Play the current stage; False when it is a free decision not written and defaults are not due."""
        stage = coup.stage
        if stage == DEALT:
            coup.stage = PUNTO
        elif stage == PUNTO:
            rule = self._punto_rule(coup)
            if rule == "natural":
                coup.punto.abated = True
                state.log.append(f"the punto abats: {coup.punto.show()}")
                coup.stage = SHOWDOWN
                return True
            if rule == tableau.Choice.FREE:
                if not default:
                    return False
                rule = tableau.Choice.STAND           # the croupier's advice (001:813)
            coup.punto.drew = rule == tableau.Choice.DRAW
            state.log.append(f"punto {coup.punto.total()}: «{'carta' if coup.punto.drew else 'no'}»")
            coup.stage = BANK_ABAT
        elif stage == BANK_ABAT:
            coup.stage = SHOWDOWN if self._bank_abats(state, coup) else PUNTO_CARD
        elif stage == PUNTO_CARD:
            if coup.give_due is not None and coup.give is None:
                if coup.give_due == "baccara":
                    coup.give = True
                elif not default:
                    return False
                else:                                  # the correct play is restored by default
                    coup.give = coup.give_due == "mistaken" and bool(coup.punto.drew)
            if coup.give is not None:
                coup.punto.drew = coup.give
            if coup.punto.drew:
                card = self._third_card(state, coup)
                coup.punto.cards.append(card)
                state.log.append(f"third card to the punto, face up: {card}")
            coup.stage = BANK
        else:
            return self._bank_stages(state, rules, coup, default)
        return True

    def _third_card(self, state: CheminState, coup: CheminCoup) -> str:
        """A fifth card drawn ahead comes first (001:894)."""
        return coup.pending.pop(0) if coup.pending else draw_card(state.shoe, ARTICLES.cite("001:811", state.jurisdiction))

    def _bank_default(self, coup: CheminCoup) -> bool:
        return bank_default_draws(coup.banker.total(), coup.punto.column())

    def _showdown(self, state: CheminState, rules: CheminRules, coup: CheminCoup) -> None:
        bank, stakes = self._coup_stakes(state, coup)
        if coup.void:
            return
        result = coup.result if coup.result is not None else compare(coup.punto, coup.banker)
        coup.result = result
        state.log.append(f"punto {coup.punto.show()} — banca {coup.banker.show()}: " +
                         {1: "gana el punto", -1: "gana la banca", 0: "jugada nula"}[result])
        won = sum((settle_stake(s, [result]) for s in stakes if s.covered > 0), Fraction(0))
        for s in stakes:
            if s.covered == 0:
                s.final, s.returned = "void", Fraction(s.amount)
        if won > 0:                               # the bank wins: 5% cagnotte (001:781, 001:868)
            cagnotte = won * rules.cagnotte
            state.commission += cagnotte
            bank.result(won - cagnotte)
            bank.free_winnings += won - cagnotte
            state.log.append(f"cagnotte {euros(cagnotte)}; the bank holds {euros(bank.holding)}")
        elif won < 0:
            bank.result(won)
            state.log.append(f"the bank pays {euros(-won)}")
        self._after_coup(state, rules, coup, bank, stakes, result)

    def _after_coup(self, state: CheminState, rules: CheminRules, coup: CheminCoup, bank: BankAccount,
                    stakes: list[Stake], result: int) -> None:
        holder = next((s for s in stakes if s.id == coup.holder), None)
        if result > 0:
            state.banco_seguido = None
            self.end_bank(state, bank, "lost")
            back = coup.bank_before if state.unlimited else min(coup.bank_before, self.bank_cap(state))
            state.giver = Giver(bank.player, bank.seat, back, voluntary=False)   # he may take it back (001:755)
            where = own_citations("001:753; 000:863; 002:544; 003:1998-2001", state.jurisdiction)
            state.log.append(f"the banker lost: the bank passes to the player at his right ({where})")
        elif result < 0 and holder is not None:
            state.banco_seguido, why = self._seguido_right(state, stakes, holder)
            if state.banco_seguido:
                state.log.append(f"{state.banco_seguido} may call banco seguido: {why}")
        self._check_stop_card(state)

    def _seguido_right(self, state: CheminState, stakes: list[Stake], holder: Stake) -> tuple[str | None, str]:
        """Who has the right to banco seguido after a coup the bank won (R: docs/rulings.md#chemin-banco-seguido):
        the player who made banco and lost (001:854); the sole punto when nobody made banco (001:864); the
        announcer of a «banco con la mesa» made alone, nobody completing the other half, to whom it gives
        priority for the next coup (001:850). The same articles in every catalog."""
        players = {s.player for s in stakes if s.covered > 0}
        if holder.call == "banco":
            return holder.player, f"he made banco and lost ({ARTICLES.cite('001:854', state.jurisdiction)})"
        if players != {holder.player}:
            return None, ""
        if holder.call == "banco-with-table":
            return holder.player, ("his «banco con la mesa» was made alone and gives priority for the next coup "
                                   f"({ARTICLES.cite('001:850', state.jurisdiction)})")
        if holder.call is None:
            return holder.player, (f"nobody made banco and he alone staked against the bank "
                                   f"({ARTICLES.cite('001:864', state.jurisdiction)})")
        return None, ""

    def _whose(self, coup: CheminCoup) -> str:
        """'player' (the punto hand) or 'bank'."""
        return "player" if coup.stage == PUNTO else "bank"

    def punto_choice(self, state: CheminState) -> bool:
        """Whether the punto has a free choice now (on 5, or a free banco)."""
        coup = state.current
        return coup is not None and coup.stage <= PUNTO and self._punto_rule(coup) == tableau.Choice.FREE

    def _annul(self, coup: CheminCoup) -> None:
        coup.void = True
        coup.result = 0

    def hand_holder(self, state: CheminState, by: str) -> str | None:
        """Who decides: the punto hand's holder (the coup's cards went to him) or the banker."""
        coup = state.current
        if by == "player" and coup is not None:
            return next((s.player for s in state.stakes if s.id == coup.holder), None)
        if by == "bank":
            return self._banker(state)
        return None

    def settle(self, state: CheminState) -> Settlement:
        """As the base; an offer that did not win the bank is void, its amount returned."""
        settlement = super().settle(state)
        for o in state.offers:
            if o.final == "void":
                settlement.bets[o.id] = BetResult.voided(Fraction(o.amount))
        return settlement

    # -- questions -------------------------------------------------------------------------------------------
    def legal_actions(self, state: CheminState) -> list[Action]:
        decisions = self._decisions(state)
        if decisions is not None:
            return decisions
        bank = state.bank()
        if bank is None:
            return [Action("bet", kind="bank", minimum=state.minimum,
                           maximum=None if state.unlimited else self.bank_cap(state))]
        limit = int(self.in_play(state, bank))
        actions = [Action("bet", kind="player", minimum=state.minimum, maximum=limit), Action("deal")]
        number = self._next_coup(state)
        coup = [s for s in state.stakes if s.coup == number and s.final == "open"]
        if not state.closed and not any(s.call == "banco" for s in coup):
            actions += [Action("banco", bet=s.id) for s in coup if not s.line and s.amount == limit]   # 001:777
        if bank.coups and not coup:
            actions.append(Action("pass", bet=bank.id))
        return actions

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        return [EdgeCase("player", table={"minimum": 100}), EdgeCase("bank", table={"minimum": 100})]


CHEMIN_DE_FER = register(CheminDeFerGame())
