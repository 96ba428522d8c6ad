"""Black Jack rules as data, one instance per jurisdiction, every field with its seed citation.

Digest part A (docs/games/blackjack.md). The four texts share most of the game word for
word; `tapete diff blackjack` prints what differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from tapete.engine.rules import Rules

# AND's Bolsa pay table, "X a 1" on the Bolsa stake; only the highest combination is paid (003:823-843)
BOLSA_PAYS: Mapping[str, Fraction] = {
    "first-seven": Fraction(2),          # the first card is any 7
    "two-sevens": Fraction(10),          # two 7s of different suits
    "two-sevens-suited": Fraction(100),  # two 7s of the same suit
    "three-sevens": Fraction(200),       # three 7s of three different suits
}
BOLSA_JACKPOT_MINIMUM = 3000            # three suited 7s: the whole Bolsa, never under 3000 x stake (003:838-840)


@dataclass(frozen=True)
class BlackjackRules(Rules):
    decks: int
    burn: int                                    # cards set aside before the first round of a shoe
    cut_reserve: int                             # at least this many cards behind the cut card
    boxes: tuple[int, ...]                       # the table's box counts allowed
    dealer_stands_soft_17: bool
    hole_card: bool                              # False: the dealer's 2nd card comes after the players
    blackjack_pays: Fraction
    insurance_pays: Fraction
    insurance_max: Fraction                      # share of the original bet
    even_money: bool
    even_money_window: str                       # table: with insurance, before the first play | box: until the
    #                                              next player asks for a third card (003:771-772)
    surrender: bool                              # retiro: half lost, not against an ace
    double_totals: tuple[int, ...] | None        # None: any two cards
    double_initial_aces: bool                    # may an initial A-A double
    double_after_split: bool
    resplit: bool
    split_aces_one_card: bool
    split_21_is_blackjack: bool
    dealer_draws_without_live_hands: bool
    min_hands: int
    max_bettors_per_box: int | None
    consent_to_back: Literal["consent", "seated-consent-standing-no-objection", "none"]
    vacant_box_decider: Literal["first-bet", "largest-then-nearest-shoe", "largest-then-right-of-shoe"]
    maximum_multiples: tuple[int, ...]           # the maxima a table may be authorised with (x minimum)
    maximum_is_range: bool                       # ES-AN: anything between the two
    limit_change: Literal["never", "after-3-rounds"]
    bolsa: bool
    bolsa_pays: Mapping[str, Fraction] | None
    accumulated_jackpots: bool                   # ES-IB may authorise them; the text gives no rules


def _rules(jurisdiction: str, seed: str, lines: Mapping[str, str], **fields: object) -> BlackjackRules:
    base: dict[str, object] = dict(
        decks=6, burn=5, cut_reserve=52, boxes=(7,), dealer_stands_soft_17=True, hole_card=False,
        blackjack_pays=Fraction(3, 2), insurance_pays=Fraction(2), insurance_max=Fraction(1, 2),
        even_money=False, even_money_window="table", surrender=False, double_totals=(9, 10, 11), double_initial_aces=False,
        double_after_split=True, resplit=True, split_aces_one_card=True, split_21_is_blackjack=False,
        dealer_draws_without_live_hands=True, min_hands=1, max_bettors_per_box=None,
        consent_to_back="consent", vacant_box_decider="first-bet", maximum_multiples=(50, 100, 200),
        maximum_is_range=False, limit_change="never", bolsa=False, bolsa_pays=None, accumulated_jackpots=False,
    )
    base.update(fields)
    sources = {k: (v if v.startswith(("R:", "0")) else f"{seed}:{v}") for k, v in lines.items()}
    return BlackjackRules(jurisdiction=jurisdiction, sources=sources, **base)  # type: ignore[arg-type]


BLACKJACK_RULES: dict[str, BlackjackRules] = {
    "ES": _rules("ES", "001", {
        "decks": "240", "burn": "328; R: docs/rulings.md#blackjack-burn-once-per-shoe", "cut_reserve": "326",
        "boxes": "262", "dealer_stands_soft_17": "280", "hole_card": "272-280", "blackjack_pays": "288",
        "insurance_pays": "294", "insurance_max": "294", "even_money": "290-294 (absent)",
        "even_money_window": "290-294 (absent)", "surrender": "268-308 (absent)", "double_totals": "308; R: docs/rulings.md#blackjack-double-soft",
        "double_initial_aces": "308 (2 or 12 is not 9-11)", "double_after_split": "308", "resplit": "296-300",
        "split_aces_one_card": "302", "split_21_is_blackjack": "304", "dealer_draws_without_live_hands": "280",
        "min_hands": "262 (silent)", "max_bettors_per_box": "262-266 (silent)", "consent_to_back": "262; 001:266",
        "vacant_box_decider": "262; R: docs/rulings.md#blackjack-vacant-box", "maximum_multiples": "316",
        "maximum_is_range": "316", "limit_change": "314; 001:145-147", "bolsa": "268-308 (absent)",
        "bolsa_pays": "268-308 (absent)", "accumulated_jackpots": "268-308 (absent)",
    }),
    "ES-IB": _rules("ES-IB", "000", {
        "decks": "296", "burn": "406; R: docs/rulings.md#blackjack-burn-once-per-shoe", "cut_reserve": "404",
        "boxes": "310; 000:328; R: docs/rulings.md#blackjack-nine-boxes", "dealer_stands_soft_17": "346",
        "hole_card": "338-346", "blackjack_pays": "356", "insurance_pays": "362", "insurance_max": "362",
        "even_money": "364; R: docs/rulings.md#blackjack-decision-window", "surrender": "380-382",
        "even_money_window": "364 (no deadline); 000:360-362; R: docs/rulings.md#blackjack-decision-window",
        "double_totals": "378", "double_initial_aces": "378; R: docs/rulings.md#blackjack-double-aces-balears",
        "double_after_split": "378", "resplit": "368-370", "split_aces_one_card": "372",
        "split_21_is_blackjack": "374", "dealer_draws_without_live_hands": "346", "min_hands": "328 (silent)",
        "max_bettors_per_box": "328-332 (silent)", "consent_to_back": "328; 000:332",
        "vacant_box_decider": "328; R: docs/rulings.md#blackjack-vacant-box", "maximum_multiples": "394",
        "maximum_is_range": "394", "limit_change": "392; 000:174-176; R: docs/rulings.md#blackjack-limit-change",
        "bolsa": "334-386 (absent)", "bolsa_pays": "334-386 (absent)",
        "accumulated_jackpots": "384-386; R: docs/rulings.md#accumulated-bets-unmodelled",
    }, boxes=(7, 9), even_money=True, surrender=True, double_totals=None, maximum_multiples=(20, 25, 50, 100, 200),
        consent_to_back="seated-consent-standing-no-objection", limit_change="after-3-rounds",
        accumulated_jackpots=True),
    "ES-GA": _rules("ES-GA", "002", {
        "decks": "246", "burn": "326; R: docs/rulings.md#blackjack-burn-once-per-shoe", "cut_reserve": "324",
        "boxes": "262", "dealer_stands_soft_17": "286", "hole_card": "278-286", "blackjack_pays": "294",
        "insurance_pays": "298", "insurance_max": "298", "even_money": "296-298 (absent)", "surrender": "312",
        "even_money_window": "296-298 (absent)",
        "double_totals": "308; R: docs/rulings.md#blackjack-double-soft",
        "double_initial_aces": "308 (2 or 12 is not 9-11)", "double_after_split": "310", "resplit": "300-302",
        "split_aces_one_card": "304", "split_21_is_blackjack": "306", "dealer_draws_without_live_hands": "284",
        "min_hands": "264; R: docs/rulings.md#blackjack-galicia-two-hands", "max_bettors_per_box": "272",
        "consent_to_back": "262; 002:268", "vacant_box_decider": "270; R: docs/rulings.md#blackjack-vacant-box",
        "maximum_multiples": "318", "maximum_is_range": "318", "limit_change": "316; 002:174-176",
        "bolsa": "274-312 (absent)", "bolsa_pays": "274-312 (absent)", "accumulated_jackpots": "274-312 (absent)",
    }, surrender=True, min_hands=2, max_bettors_per_box=3, vacant_box_decider="largest-then-nearest-shoe",
        maximum_multiples=(20, 25, 50, 100, 200)),
    "ES-AN": _rules("ES-AN", "003", {
        "decks": "583-588", "burn": "889-891; R: docs/rulings.md#blackjack-burn-once-per-shoe",
        "cut_reserve": "883-885", "boxes": "629-630", "dealer_stands_soft_17": "717-724", "hole_card": "695-717",
        "blackjack_pays": "742-746", "insurance_pays": "761-763", "insurance_max": "758-760",
        "even_money": "767-772; R: docs/rulings.md#blackjack-decision-window", "surrender": "692-848 (absent)",
        "even_money_window": "771-772; R: docs/rulings.md#blackjack-even-money-per-box",
        "double_totals": "800-805", "double_initial_aces": "800-805", "double_after_split": "804-805",
        "resplit": "777-789", "split_aces_one_card": "791-793", "split_21_is_blackjack": "795-798",
        "dealer_draws_without_live_hands": "715-717; R: docs/rulings.md#blackjack-dealer-draws-andalucia",
        "min_hands": "655-688 (silent)", "max_bettors_per_box": "682-683", "consent_to_back": "666-668; 003:675-678",
        "vacant_box_decider": "683-688; R: docs/rulings.md#blackjack-vacant-box", "maximum_multiples": "863-865",
        "maximum_is_range": "863-865", "limit_change": "859-861; 003:355-367; R: docs/rulings.md#blackjack-limit-change",
        "bolsa": "807-821; R: docs/rulings.md#blackjack-bolsa", "bolsa_pays": "823-843", "accumulated_jackpots": "807-848 (absent)",
    }, even_money=True, even_money_window="box", double_totals=None, double_initial_aces=True,
        dealer_draws_without_live_hands=False,
        max_bettors_per_box=3, consent_to_back="none", vacant_box_decider="largest-then-right-of-shoe",
        maximum_multiples=(10, 200), maximum_is_range=True, limit_change="after-3-rounds", bolsa=True,
        bolsa_pays=BOLSA_PAYS),
}
