"""Craps (*dados*) rules as data, one instance per jurisdiction, every field with its seed citation.

The four texts agree on every bet, payout and limit formula (spec §8); they differ in the simple-bet
maximum range, the far-wall rule for a valid throw, staffing, the puck and the names on the cloth. The
Andalusian misprints in the place-bet rates are read as the other three texts (docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from tapete.engine.rules import Rules

F = Fraction
POINTS = (4, 5, 6, 8, 9, 10)
LINE = ("pass", "dont-pass", "come", "dont-come")           # the bets that travel to a number
RIGHT = ("pass", "come")                                    # win with their number, lose with 7
SIMPLE = ("pass", "dont-pass", "come", "dont-come", "field", "big-6", "big-8", "under-7", "over-7")
ONE_ROLL = ("field", "under-7", "over-7", "any-seven", "eleven", "any-craps", "craps-2", "craps-3", "craps-12", "horn")
MULTIPLE = ("hardway", "any-seven", "eleven", "any-craps", "craps-2", "craps-3", "craps-12", "horn")
ALL_KINDS = (*SIMPLE, *MULTIPLE, "odds", "place", "place-to-lose")
HARDWAYS = (4, 6, 8, 10)

# The totals each one-roll bet wins on (000:590-640; 001:506-532; 002:914-942; 003:1311-1367).
ONE_ROLL_WINS: Mapping[str, frozenset[int]] = {
    "field": frozenset({2, 3, 4, 9, 10, 11, 12}),
    "under-7": frozenset({2, 3, 4, 5, 6}),
    "over-7": frozenset({8, 9, 10, 11, 12}),
    "any-seven": frozenset({7}),
    "eleven": frozenset({11}),
    "any-craps": frozenset({2, 3, 12}),
    "craps-2": frozenset({2}),
    "craps-3": frozenset({3}),
    "craps-12": frozenset({12}),
    "horn": frozenset({2, 3, 11, 12}),
}


@dataclass(frozen=True)
class CrapsRules(Rules):
    kinds: tuple[str, ...]
    names: Mapping[str, str]                     # the catalog's name of each kind (the cloth's words)
    naturals: tuple[int, ...]                    # first roll of a right line bet: wins
    craps: tuple[int, ...]                       # first roll of a right line bet: loses
    bar: int                                     # first roll of a don't: null, the bet stays
    points: tuple[int, ...]                      # a first roll on these gives the bet (and the table) its point
    even_money: tuple[str, ...]                  # suertes sencillas, paid a la par
    field_double: tuple[int, ...]                # the field pays 2:1 on these
    one_roll_payouts: Mapping[str, Fraction]     # suertes multiples decided by one roll, "X veces" = X:1
    hardway_payouts: Mapping[int, Fraction]
    odds_payouts: Mapping[int, Fraction]         # odds on pass and come: true odds
    lay_odds_payouts: Mapping[int, Fraction]     # odds on dont-pass and dont-come: true lay odds
    place_numbers: tuple[int, ...]               # right and wrong bets (8 by reading; table option place-8)
    place_payouts: Mapping[int, Fraction]        # right bet, "X por Y" = X:Y
    place_to_lose_payouts: Mapping[int, Fraction]  # wrong bet
    simple_maximum: tuple[int, int]              # M between a x m and b x m
    multiple_maximum: tuple[int, int]            # a k:1 bet's maximum win k x max between a x M and b x M
    odds_maximum: Fraction                       # x the parent stake, pass and come odds
    lay_odds_maximum: Mapping[int, Fraction]     # x the parent stake, dont-pass and dont-come odds
    place_maximum: Mapping[int, Fraction]        # x M
    place_to_lose_maximum: Mapping[int, Fraction]  # x M
    minimum_every_bet: bool                      # the table minimum applies to every bet
    removable: tuple[str, ...]                   # kinds a player may take down while they ride
    not_removable: tuple[str, ...]               # kinds that must play until won or lost
    line_timing: str                             # when pass/dont-pass and come/dont-come may be made
    working_on_come_out: bool                    # come bets on numbers, odds, place, hardways work on come-out rolls
    bet_after_win: str                           # a place, big or hardway bet that wins is closed
    shooter_changes: str                         # which seven passes the dice
    far_wall_required: bool                      # a die that does not touch the far wall voids the throw
    void_causes: tuple[str, ...]                 # tirada nula
    croupiers: tuple[int, ...]                   # staffing, configuration only
    puck: str                                    # how the point is marked


ONE_ROLL_PAYOUTS: Mapping[str, Fraction] = {
    "field": F(1), "under-7": F(1), "over-7": F(1),
    "any-seven": F(4), "eleven": F(15), "any-craps": F(7),
    "craps-2": F(30), "craps-3": F(15), "craps-12": F(30), "horn": F(4),
}
HARDWAY_PAYOUTS: Mapping[int, Fraction] = {4: F(7), 6: F(9), 8: F(9), 10: F(7)}
ODDS_PAYOUTS: Mapping[int, Fraction] = {4: F(2), 5: F(3, 2), 6: F(6, 5), 8: F(6, 5), 9: F(3, 2), 10: F(2)}
LAY_ODDS_PAYOUTS: Mapping[int, Fraction] = {4: F(1, 2), 5: F(2, 3), 6: F(5, 6), 8: F(5, 6), 9: F(2, 3), 10: F(1, 2)}
PLACE_PAYOUTS: Mapping[int, Fraction] = {4: F(9, 5), 5: F(7, 5), 6: F(7, 6), 8: F(7, 6), 9: F(7, 5), 10: F(9, 5)}
PLACE_TO_LOSE_PAYOUTS: Mapping[int, Fraction] = {4: F(5, 11), 5: F(5, 8), 6: F(4, 5), 8: F(4, 5), 9: F(5, 8),
                                                  10: F(5, 11)}
LAY_ODDS_MAXIMUM: Mapping[int, Fraction] = {4: F(2), 5: F(3, 2), 6: F(6, 5), 8: F(6, 5), 9: F(3, 2), 10: F(2)}
PLACE_MAXIMUM: Mapping[int, Fraction] = {4: F(1), 5: F(1), 6: F(6, 5), 8: F(6, 5), 9: F(1), 10: F(1)}
PLACE_TO_LOSE_MAXIMUM: Mapping[int, Fraction] = {4: F(11, 5), 5: F(8, 5), 6: F(5, 4), 8: F(5, 4), 9: F(8, 5),
                                                  10: F(11, 5)}

VOID_CAUSES = ("slid", "broken", "stacked", "on-chip", "off-table", "on-rail", "in-basket", "incorrect-throw",
               "cocked", "inspector")

NAMES_ES: Mapping[str, str] = {
    "pass": "Win", "dont-pass": "Don't Win", "come": "Come", "dont-come": "Don't Come", "field": "Field",
    "big-6": "Big 6", "big-8": "Big 8", "under-7": "Under 7", "over-7": "Over 7", "hardway": "Hard Ways",
    "any-seven": "Juego de 7", "eleven": "Juego de 11", "any-craps": "Any Craps", "craps-2": "Craps 2",
    "craps-3": "Craps 3", "craps-12": "Craps 12", "horn": "Horn", "odds": "Suerte asociada",
    "place": "Right Bet", "place-to-lose": "Wrong Bet",
}
NAMES_GA: Mapping[str, str] = {
    "pass": "Gaña ou win", "dont-pass": "Non gaña ou don't win", "come": "Vai ou come",
    "dont-come": "Non vai ou don't come", "field": "Campo ou field", "big-6": "Pequena ou big 6",
    "big-8": "Grande ou big 8", "under-7": "Baixo 7 ou under 7", "over-7": "Sobre 7 ou over 7",
    "hardway": "Dobres ou hard ways", "any-seven": "Xogo de 7", "eleven": "Xogo de 11",
    "any-craps": "Dados ou any craps", "craps-2": "Dados 2 ou craps 2", "craps-3": "Dados 3 ou craps 3",
    "craps-12": "Dados 12 ou craps 12", "horn": "Dados 11 ou horm", "odds": "Sorte asociada",
    "place": "Aposta boa ou right bet", "place-to-lose": "Aposta mala ou wrong bet",
}


def _rules(jurisdiction: str, sources: dict[str, str], **overrides: object) -> CrapsRules:
    fields: dict[str, object] = dict(
        kinds=ALL_KINDS, names=NAMES_ES, naturals=(7, 11), craps=(2, 3, 12), bar=12, points=POINTS,
        even_money=SIMPLE, field_double=(2, 12), one_roll_payouts=ONE_ROLL_PAYOUTS,
        hardway_payouts=HARDWAY_PAYOUTS, odds_payouts=ODDS_PAYOUTS, lay_odds_payouts=LAY_ODDS_PAYOUTS,
        place_numbers=POINTS, place_payouts=PLACE_PAYOUTS, place_to_lose_payouts=PLACE_TO_LOSE_PAYOUTS,
        simple_maximum=(100, 1000), multiple_maximum=(1, 3), odds_maximum=F(1), lay_odds_maximum=LAY_ODDS_MAXIMUM,
        place_maximum=PLACE_MAXIMUM, place_to_lose_maximum=PLACE_TO_LOSE_MAXIMUM, minimum_every_bet=True,
        removable=("odds", "hardway", "place", "place-to-lose", "big-6", "big-8"), not_removable=("pass",),
        line_timing="pass/dont-pass on the come-out roll only; come/dont-come only while a point is on",
        working_on_come_out=True, bet_after_win="decided and closed", shooter_changes="seven-out only",
        far_wall_required=True, void_causes=(*VOID_CAUSES, "no-wall"), croupiers=(2,),
        puck="placa on the point's box",
    )
    fields.update(overrides)
    return CrapsRules(jurisdiction=jurisdiction, sources=sources, **fields)  # type: ignore[arg-type]


def _sources(seed: str, lines: dict[str, str], extra: dict[str, str] | None = None) -> dict[str, str]:
    """Citations of one text; the readings of silent texts are shared by all four."""
    rulings = {
        "place_numbers": "R: docs/rulings.md#craps-place-8",
        "minimum_every_bet": "R: docs/rulings.md#craps-minimum-every-bet",
        "removable": "R: docs/rulings.md#craps-remove-dont-and-come",
        "line_timing": "R: docs/rulings.md#craps-line-timing",
        "working_on_come_out": "R: docs/rulings.md#craps-working-on-come-out",
        "bet_after_win": "R: docs/rulings.md#craps-place-after-win",
        "shooter_changes": "R: docs/rulings.md#craps-seven-out",
        "void_causes": "R: docs/rulings.md#craps-cocked-die",
        "shooter_bet": "R: docs/rulings.md#craps-shooter-line-bet",
    }
    out = {}
    for name, cite in lines.items():
        cites = [f"{seed}:{part}" for part in cite.split(", ")]
        if name in rulings:
            cites.append(rulings[name])
        out[name] = "; ".join(cites)
    out.update(extra or {})
    return out


# Line numbers of each rule in each text (docs/games/craps.md; tapete cite NNN:line).
_LINES = {
    "000": {
        "shooter_bet": "694", "kinds": "566-658", "names": "572-658", "naturals": "572", "craps": "572", "bar": "576", "points": "572",
        "even_money": "568", "field_double": "590", "one_roll_payouts": "590-640", "hardway_payouts": "612",
        "odds_payouts": "644", "lay_odds_payouts": "646", "place_numbers": "652-658", "place_payouts": "654",
        "place_to_lose_payouts": "656-658", "simple_maximum": "664", "multiple_maximum": "666",
        "odds_maximum": "668", "lay_odds_maximum": "670", "place_maximum": "672", "place_to_lose_maximum": "674",
        "minimum_every_bet": "662", "removable": "594-598, 612, 642, 652", "not_removable": "586",
        "line_timing": "572-584", "working_on_come_out": "580-584, 594-598, 612, 648-652",
        "bet_after_win": "654-656", "shooter_changes": "572", "far_wall_required": "686", "void_causes": "688",
        "croupiers": "552, 560", "puck": "572",
    },
    "001": {
        "shooter_bet": "586", "kinds": "492-548", "names": "496-548", "naturals": "496", "craps": "496", "bar": "498", "points": "496",
        "even_money": "494", "field_double": "506", "one_roll_payouts": "506-532", "hardway_payouts": "518",
        "odds_payouts": "536", "lay_odds_payouts": "538", "place_numbers": "544-548", "place_payouts": "546",
        "place_to_lose_payouts": "548", "simple_maximum": "554", "multiple_maximum": "556",
        "odds_maximum": "558", "lay_odds_maximum": "560", "place_maximum": "562", "place_to_lose_maximum": "564",
        "minimum_every_bet": "552", "removable": "508-510, 518, 534, 544", "not_removable": "504",
        "line_timing": "496-502", "working_on_come_out": "500-502, 508-510, 518, 540-544",
        "bet_after_win": "546-548", "shooter_changes": "496", "far_wall_required": "578", "void_causes": "580",
        "croupiers": "478", "puck": "496",
    },
    "002": {
        "shooter_bet": "992", "kinds": "900-958", "names": "842-880, 904-958", "naturals": "904", "craps": "904", "bar": "906",
        "points": "904", "even_money": "902", "field_double": "914", "one_roll_payouts": "914-942",
        "hardway_payouts": "926-928", "odds_payouts": "946", "lay_odds_payouts": "948",
        "place_numbers": "954-958", "place_payouts": "956", "place_to_lose_payouts": "958",
        "simple_maximum": "962", "multiple_maximum": "964", "odds_maximum": "966", "lay_odds_maximum": "968",
        "place_maximum": "970", "place_to_lose_maximum": "972", "minimum_every_bet": "960",
        "removable": "916-918, 926, 944, 954", "not_removable": "912", "line_timing": "904-910",
        "working_on_come_out": "908-910, 916-918, 926, 950-954", "bet_after_win": "956-958",
        "shooter_changes": "904", "far_wall_required": "982", "void_causes": "984", "croupiers": "890",
        "puck": "904",
    },
    "003": {
        "shooter_bet": "1511-1514", "kinds": "1270-1417", "names": "1276-1417", "naturals": "1276-1285", "craps": "1276-1285",
        "bar": "1287-1292", "points": "1276-1285", "even_money": "1275", "field_double": "1311-1314",
        "one_roll_payouts": "1311-1367", "hardway_payouts": "1339-1345", "odds_payouts": "1374-1379",
        "lay_odds_payouts": "1381-1386", "place_numbers": "1400-1417", "place_payouts": "1404-1409",
        "place_to_lose_payouts": "1411-1417", "simple_maximum": "1423-1426", "multiple_maximum": "1428-1431",
        "odds_maximum": "1432-1434", "lay_odds_maximum": "1436-1441", "place_maximum": "1443-1446",
        "place_to_lose_maximum": "1448-1452", "minimum_every_bet": "1420-1422",
        "removable": "1316-1326, 1339-1341, 1369-1372, 1400-1402", "not_removable": "1307-1309",
        "line_timing": "1276-1307", "working_on_come_out": "1294-1307, 1316-1326, 1339-1345, 1388-1402",
        "bet_after_win": "1404-1417", "shooter_changes": "1284-1285", "far_wall_required": "1482-1485",
        "void_causes": "1487-1493", "croupiers": "1248-1251", "puck": "1228-1237, 1279-1282",
    },
}

CRAPS_RULES: dict[str, CrapsRules] = {
    "ES": _rules("ES", _sources("001", _LINES["001"]), names={**NAMES_ES, "horn": "Horn (Horm)"}),
    "ES-IB": _rules(
        "ES-IB", _sources("000", _LINES["000"], {"far_wall_required": "000:686; R: docs/rulings.md#craps-far-wall"}),
        simple_maximum=(20, 1000), far_wall_required=False, void_causes=VOID_CAUSES, croupiers=(1, 2),
    ),
    "ES-GA": _rules("ES-GA", _sources("002", _LINES["002"]), names=NAMES_GA),
    "ES-AN": _rules(
        "ES-AN", _sources("003", _LINES["003"], {
            "place_payouts": "003:1404-1409; R: docs/rulings.md#craps-andalucia-place-rates",
            "place_to_lose_payouts": "003:1411-1417; R: docs/rulings.md#craps-andalucia-place-rates",
        }),
        puck="disco marcador: white side up on the point while a round is in progress, black side up on the come-out",
    ),
}
