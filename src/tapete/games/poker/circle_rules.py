"""Circle-poker rules as data: one `CircleRules` per variant and jurisdiction, every field with its citation.

The nine variants share Andalucía's common rules (003:4149-4823, with the displaced part 003:4043-4124); each
variant (003:4827-5663) changes the deck, the cards, the rounds and who acts first. Póquer sintético also
exists in Illes Balears (000:1371-1596). `tapete rules GAME -j J` and `tapete diff GAME` print these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from tapete.engine.rules import Rules

COMMON = {
    "structures": "003:4382-4407",
    "ante_max_half": "003:4433-4435",
    "rake_max": "003:4082-4088; R: docs/rulings.md#circle-rake-cents",
    "raise_rule": "003:4416-4419; 003:4529-4531",
    "raise_cap": "003:4384-4388; 003:4535-4539",
    "fixed_high_from": "003:4388-4393",
    "uncalled": "003:82-89; R: docs/rulings.md#circle-uncalled-chips",
    "split": "003:4651-4659; R: docs/rulings.md#circle-split-and-odd-chips",
    "out_of_turn_withdraw": "003:4790-4795; R: docs/rulings.md#circle-out-of-turn",
    "skipped_turn": "003:4808-4812",
    "session_fees": "003:4090-4101; docs/vocabulary.md §14-4",
    "buy_in": "003:4374-4380; R: docs/rulings.md#circle-server-buy-in",
    "rebuy_times_bet": "003:4378-4379 (the casino's; no scale); R: docs/rulings.md#circle-rebuy-bounds",
    "min_players": "003:4155-4158; R: docs/rulings.md#minimum-player-counts",
    "rebuy_minimum_share": "003:4378-4380; R: docs/rulings.md#circle-rebuy-bounds",
}


@dataclass(frozen=True)
class CircleRules(Rules):
    """What a circle table plays by. Money rules are the common ones; the rest changes per variant."""

    deck_sizes: tuple[int, ...]            # 52; draw 52 or 32; sintético 28
    max_players: int
    hole_cards: str                        # how many cards each player gets, and how
    board: str                             # the common cards
    burns: int                             # burn cards between streets
    betting_rounds: int
    direction: str                         # clockwise | counter-clockwise
    structures: tuple[str, ...]            # fixed | pot-limit | no-limit
    forced: tuple[str, ...]                # ante | blinds
    ante_max_half: bool                    # ante <= m/2 (ES-IB sintético: the ante is the table minimum)
    rake_max: Decimal                      # option (a): percent of each hand's money
    raise_rule: str                        # double | any
    raise_cap: str                         # fixed limit: 3 raises per round | per player (stud)
    fixed_high_from: int                   # fixed limit: the round from which the unit is 2m
    first_actor: str
    hand: str                              # which five cards count
    ranking: str                           # evaluator preset: standard | short-deck | draw-52/32
    uncalled: str                          # returned before the rake (R-UNCALLED)
    split: str                             # equal per pot, odd chip to the last envite
    out_of_turn_withdraw: bool             # an out-of-turn bet may be withdrawn after an intermediate raise
    skipped_turn: str                      # a player skipped with no bet pending
    session_fees: str                      # options (b) and (c): charged by the table server
    special: tuple[str, ...]               # the variant's own rules, in words
    buy_in: tuple[int, int | None] = (10, None)   # the resto inicial in multiples of m: least, most (None: the casino's)
    rebuy_times_bet: tuple[int, int] | None = None    # each reposición in multiples of m (ES-IB sintético: 5 to 100)
    rebuy_minimum_share: tuple[Fraction, Fraction] | None = (Fraction(0), Fraction(1))   # the reposición mínima
    min_players: int = 2                   # to deal a hand at a live table (ES-IB sintético: 4, 000:1491)
    #                                                 as a share of the resto inicial: above the first, at most the second


def _rules(jurisdiction: str, sources: Mapping[str, str], **fields: object) -> CircleRules:
    base: dict[str, object] = dict(
        deck_sizes=(52,), max_players=10, burns=3, direction="clockwise",
        structures=("fixed", "pot-limit", "no-limit"), forced=("ante", "blinds"), ante_max_half=True,
        rake_max=Decimal(5), raise_rule="double", raise_cap="round", fixed_high_from=3,
        uncalled="returned", split="equal per pot; odd chip to the last envite, then in play order",
        out_of_turn_withdraw=True, skipped_turn="deemed a check", session_fees="outside round settlement",
        special=(),
    )
    base.update(fields)
    return CircleRules(jurisdiction=jurisdiction, sources={**COMMON, **sources}, **base)  # type: ignore[arg-type]


BOARD_SOURCES = {
    "deck_sizes": "003:4164-4167", "max_players": "003:4046-4056",
    "structures": "003:4382-4407; 003:5277-5285",
    "forced": "003:5248-5252", "burns": "003:5264-5275",
    "direction": "003:4490-4492; 003:4529-4533; R: docs/rulings.md#circle-seat-direction",
    "first_actor": "003:5259-5262; 003:4440-4448; R: docs/rulings.md#circle-first-actor-blinds",
    "ranking": "003:4277-4365",
}

RULES: dict[str, dict[str, CircleRules]] = {
    "draw-poker": {"ES-AN": _rules(
        "ES-AN",
        {
            "deck_sizes": "003:4831-4835; R: docs/rulings.md#circle-draw-32", "max_players": "003:4046-4056",
            "hole_cards": "003:4841; R: docs/rulings.md#circle-draw-deal", "board": "003:4827-4841",
            "burns": "003:4952-4953", "betting_rounds": "003:4841-4861; 003:4916-4923",
            "direction": "003:4490-4492; 003:4842-4844", "forced": "003:4838-4841",
            "fixed_high_from": "003:4388-4390; R: docs/rulings.md#circle-draw-fixed",
            "first_actor": "003:4842-4844; 003:4916-4919; R: docs/rulings.md#circle-after-draw",
            "hand": "003:4827-4835", "ranking": "003:4299-4312; 003:4353-4355",
            "special": "003:4846-4873; 003:4876-4909; 003:4956-4967; R: docs/rulings.md#circle-openers-proof; "
                       "R: docs/rulings.md#circle-false-open-excess",
        },
        deck_sizes=(52, 32), hole_cards="5 down, one at a time from the mano", board="none", burns=0,
        betting_rounds=2, forced=("ante",), fixed_high_from=3,
        first_actor="round 1 the mano; round 2 the opener, or if he folded the active player to his right",
        hand="his five cards", ranking="draw-52 (draw-32 with 32 cards: flush over full, A-7-8-9-T)",
        special=("openers: a pair of jacks or better; QQ, KK, AA after 1, 2, 3+ consecutive blank hands",
                 "draw 0-5 cards, opener first, then clockwise", "figuras rank between three of a kind and two pair",
                 "a false opener cannot win; his last bet uncalled keeps the pot for the next deal"),
    )},
    "seven-stud": {"ES-AN": _rules(
        "ES-AN",
        {
            "deck_sizes": "003:4164-4167", "max_players": "003:4974-4977", "hole_cards": "003:5004-5007; 003:5046-5050",
            "board": "003:4978-4981", "burns": "003:5019-5021; 003:5047-5049; 003:5059-5063",
            "betting_rounds": "003:5009-5050", "direction": "003:4490-4492", "forced": "003:5003-5004",
            "structures": "003:4984-5001", "raise_cap": "003:4995-4998; R: docs/rulings.md#circle-stud-cap",
            "fixed_high_from": "003:4989-4991",
            "first_actor": "003:5009-5017; 003:5024-5029; 003:5050-5051; R: docs/rulings.md#circle-stud-first",
            "hand": "003:4978-4981", "ranking": "003:4277-4365",
            "special": "003:4991-4995; 003:5029-5031; 003:5038-5041; 003:5063-5094; R: docs/rulings.md#circle-stud-short; "
                       "R: docs/rulings.md#circle-exposed-stud-cards",
        },
        max_players=8, hole_cards="2 down and 1 up, then 3 up and 1 down", board="none", burns=4, betting_rounds=5,
        forced=("ante",), raise_cap="player",
        first_actor="round 1 the lowest up-card brings in (ace high, clubs lowest); then the best showing cards",
        hand="best five of his seven", ranking="standard",
        special=("the bring-in bets at least m and may neither check nor fold",
                 "the first actor of rounds 2-5 may not fold",
                 "fixed: an open pair on 4th street allows the high limit in round 2",
                 "a player who drops with no bet pending is dealt until a bet is made",
                 "shortage at 7th street: burned cards reshuffled, then folded hands, then one common card"),
    )},
    "five-stud": {"ES-AN": _rules(
        "ES-AN",
        {
            "deck_sizes": "003:5196-5199", "max_players": "003:4046-4056; R: docs/rulings.md#circle-five-stud",
            "hole_cards": "003:5207-5222", "board": "003:5192-5194", "burns": "003:5217-5219",
            "betting_rounds": "003:5217-5222", "direction": "003:4490-4492", "forced": "003:5202-5205",
            "structures": "003:5229-5232", "raise_cap": "003:5229-5232; 003:4995-4998; R: docs/rulings.md#circle-stud-cap",
            "fixed_high_from": "003:5229-5232; 003:4989-4991",
            "first_actor": "003:5212-5215; 003:5224-5226; R: docs/rulings.md#circle-five-stud",
            "hand": "003:5192-5194", "ranking": "003:4277-4365",
            "special": "003:5190-5192; R: docs/rulings.md#circle-five-stud",
        },
        hole_cards="1 down and 1 up, then 3 up", board="none", burns=3, betting_rounds=4, forced=("ante",),
        raise_cap="player", first_actor="round 1 the lowest up-card brings in with exactly m; then the best showing",
        hand="his five cards", ranking="standard",
        special=("seven stud's rules apply where not contradicted (R-5STUD)",),
    )},
    "omaha": {"ES-AN": _rules(
        "ES-AN", {**BOARD_SOURCES, "hole_cards": "003:5254-5256", "board": "003:5243-5245",
                  "betting_rounds": "003:5258-5275", "hand": "003:5241-5245",
                  "special": "003:5287-5350; R: docs/rulings.md#circle-common-card-errors"},
        hole_cards="4 down", board="flop 3, turn 1, river 1", betting_rounds=4,
        first_actor="the mano in every round; with blinds round 1 starts left of the big blind",
        hand="exactly two hole cards and three common cards", ranking="standard",
    )},
    "omaha-5": {"ES-AN": _rules(
        "ES-AN", {**BOARD_SOURCES, "max_players": "003:5373-5374", "hole_cards": "003:5367-5371",
                  "board": "003:5376-5380; R: docs/rulings.md#circle-omaha5-early-card",
                  "betting_rounds": "003:5367-5371", "hand": "003:5358-5364", "structures": "003:5382-5390",
                  "special": "003:5376-5380; 003:5392-5396"},
        max_players=8, hole_cards="5 down", board="flop 3 (or 1 at the deal + 2), turn 1, river 1", betting_rounds=4,
        first_actor="as omaha", hand="exactly two hole cards and three common cards", ranking="standard",
        special=("casino option: the first common card shown at the deal",),
    )},
    "omaha-hilo": {"ES-AN": _rules(
        "ES-AN", {**BOARD_SOURCES, "hole_cards": "003:5413-5418", "board": "003:5413-5418",
                  "betting_rounds": "003:5413-5416", "hand": "003:5405-5424; R: docs/rulings.md#circle-hilo-low",
                  "structures": "003:5426-5434", "special": "003:5416-5424; R: docs/rulings.md#circle-hilo-low"},
        hole_cards="4 down", board="flop 3, turn 1, river 1", betting_rounds=4, first_actor="as omaha",
        hand="high: exactly 2 + 3; low: eight or better, ace to five, exactly 2 + 3", ranking="standard",
        special=("low only with three common cards of 8 or lower", "the pot is halved; the odd chip per R-HALF"),
    )},
    "holdem": {"ES-AN": _rules(
        "ES-AN", {**BOARD_SOURCES, "hole_cards": "003:5453-5457", "board": "003:5453-5457",
                  "betting_rounds": "003:5453-5457", "hand": "003:5449-5451", "structures": "003:5459-5467",
                  "special": "003:5469-5473"},
        hole_cards="2 down", board="flop 3, turn 1, river 1", betting_rounds=4, first_actor="as omaha",
        hand="best five of his two and the five common", ranking="standard",
    )},
    "double-holdem": {"ES-AN": _rules(
        "ES-AN", {**BOARD_SOURCES, "hole_cards": "003:5495-5497",
                  "board": "003:5505-5517; R: docs/rulings.md#circle-double-holdem-rows",
                  "betting_rounds": "003:5499-5517", "forced": "003:5489-5493", "hand": "003:5482-5486; 003:5519-5520",
                  "structures": "003:5524-5532", "special": "003:5519-5522; 003:4651-4652"},
        hole_cards="2 down", board="two rows: flop 3+3, turn 1+1, river 1+1", betting_rounds=4, first_actor="as omaha",
        hand="best five of his two and each row", ranking="standard",
        special=("each pot is halved between the two rows",),
    )},
    "poker-sintetico": {
        "ES-AN": _rules(
            "ES-AN",
            {
                "deck_sizes": "003:5557-5565", "max_players": "003:4046-4056", "hole_cards": "003:5603-5605",
                "board": "003:5551-5553; 003:5607-5624", "burns": "003:5603-5624",
                "betting_rounds": "003:5607-5624", "direction": "003:5567-5571; 003:5603-5605; 003:5619-5621",
                "structures": "003:5574-5579", "forced": "003:5599-5601", "ante_max_half": "003:5582-5583",
                "rebuy_minimum_share": "003:5581-5582; R: docs/rulings.md#circle-rebuy-bounds",
                "first_actor": "003:5607-5621; R: docs/rulings.md#circle-sintetico-first",
                "hand": "003:5545-5549", "ranking": "003:5557-5565; 003:5585-5591",
                "special": "003:5594-5597; 003:5626-5663",
            },
            deck_sizes=(28,), hole_cards="2 down, counter-clockwise", board="5 common, one before each round",
            burns=0, betting_rounds=5, direction="counter-clockwise", structures=("no-limit",), forced=("ante",),
            first_actor="round 1 the mano; then the previous round's highest bettor (if all-in, the next to his right)",
            hand="exactly his two cards and three common cards", ranking="short-deck (flush over full, A-8-9-T-J)",
            special=("the marca marks the mano, starts at the first occupied seat to the croupier's right",),
            rebuy_minimum_share=(Fraction(1, 5), Fraction(2, 5)),
        ),
        "ES-IB": _rules(
            "ES-IB",
            {
                "deck_sizes": "000:1381-1383", "max_players": "000:1387", "hole_cards": "000:1515-1519",
                "board": "000:1519", "burns": "000:1519", "betting_rounds": "000:1519",
                "direction": "000:1493; 000:1515; 000:1533", "structures": "000:1479-1481; docs/vocabulary.md §8",
                "forced": "000:1515", "ante_max_half": "000:1515", "rake_max": "000:1393",
                "raise_rule": "000:1533", "raise_cap": "000:1479-1481", "fixed_high_from": "000:1479-1481",
                "first_actor": "000:1519; R: docs/rulings.md#circle-sintetico-first",
                "hand": "000:1375", "ranking": "000:1381-1383; 000:1441-1459",
                "uncalled": "000:1537; R: docs/rulings.md#circle-uncalled-chips",
                "split": "000:1549; R: docs/rulings.md#circle-split-and-odd-chips",
                "out_of_turn_withdraw": "000:1589", "skipped_turn": "000:1595",
                "session_fees": "000:1393", "special": "000:1491; 000:1561-1595", "buy_in": "000:1483-1487",
                "rebuy_times_bet": "000:1483; 000:1487", "min_players": "000:1491", "rebuy_minimum_share": "000:1483-1487 (none: the scale is "
                "of the table's bet)",
            },
            deck_sizes=(28,), hole_cards="2 down, counter-clockwise", board="5 common laid at once, turned one per round",
            burns=0, betting_rounds=5, direction="counter-clockwise", forced=("ante",), ante_max_half=False,
            rake_max=Decimal(3),
            raise_rule="any", first_actor="round 1 the mano; then the previous round's highest bettor",
            hand="best five of his seven cards", ranking="short-deck (flush over full, A-8-9-T-J)",
            out_of_turn_withdraw=False, skipped_turn="the jefe de sector decides (default: a check)",
            session_fees="none: only the per-hand percentage",
            special=("at least four players: the table server deals no hand to fewer (settle does not check it, "
                     "docs/vocabulary.md §0.4)",),
            buy_in=(25, 100), rebuy_times_bet=(5, 100), rebuy_minimum_share=None, min_players=4,
        ),
    },
}
