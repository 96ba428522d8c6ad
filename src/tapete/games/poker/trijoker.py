"""*Trijoker* (ES-IB 000:1597-1701, ES-AN 003:3300-3539): three equal bets on three cards and two common cards.

Digest part B; docs/vocabulary.md §5. Despite its name there is no joker (000:1613; 003:3314). Each player puts the
same amount on each of his three boxes and gets three cards; two common cards lie face down before the
croupier. He may withdraw bet 1 after seeing his cards and bet 2 after the first common card; bet 3 always plays.
There is no comparison with the croupier: every bet still in play is paid by the final five-card hand, a pair of
jacks or better, or lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import own_citations
from tapete.engine.events import Act, Bet, Void
from tapete.engine.game import EdgeCase, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.rules import Rules
from tapete.games.poker import evaluator as ev
from tapete.games.poker.banked import (
    BankedGame,
    BankedState,
    BoxBet,
    category_of,
    flag,
    show,
)

R = "R: docs/rulings.md#"

# 000:1655-1673 ("N a 1"); 003:3411-3426 ("N veces el valor de la apuesta"), read as N to 1 (digest 0.3)
TRIJOKER_PAYS: Mapping[str, Fraction] = {
    "pair": Fraction(1), "two-pair": Fraction(2), "three-of-a-kind": Fraction(3), "straight": Fraction(5),
    "flush": Fraction(8), "full-house": Fraction(11), "four-of-a-kind": Fraction(50), "straight-flush": Fraction(200),
    "royal-flush": Fraction(500),
}
JACKS = ev.JACK + 1            # the pair field of a strength is rank + 1: a pair pays from jacks up
NO_WHEEL = ev.Rules("no-wheel", ace_low=False)


@dataclass(frozen=True)
class TrijokerRules(Rules):
    deck: str
    dealing_device: str
    boxes: int
    one_box_per_player: bool
    maximum_multiples: tuple[int, ...]
    maximum_scope: str
    pays: Mapping[str, Fraction]
    minimum_hand: str
    only_highest_paid: bool
    ace_low: str
    withdrawals: str
    dealing: str
    common_card_exposed: str
    player_card_exposed: str
    information_forfeit: str


TRIJOKER_RULES: dict[str, TrijokerRules] = {
    "ES-IB": TrijokerRules(
        "ES-IB", {
            "deck": f"000:1613-1615; {R}banked-poker-fresh-deck", "dealing_device": "000:1619",
            "boxes": "000:1607; 000:1629", "one_box_per_player": "000:1629 (silent)",
            "maximum_multiples": "000:1683", "maximum_scope": f"000:1693; {R}trijoker-maximum", "pays": "000:1655-1673",
            "minimum_hand": "000:1601; 000:1657", "only_highest_paid": "000:1675", "ace_low": "000:1613",
            "withdrawals": "000:1695", "dealing": "000:1693", "common_card_exposed": f"000:1693; {R}trijoker-exposed-cards",
            "player_card_exposed": "000:1693", "information_forfeit": f"000:1701; {R}trijoker-forfeit",
        },
        deck="52 French cards, one freshly shuffled deck per round (up to three decks in turn)",
        dealing_device="automatic shufflers allowed", boxes=7, one_box_per_player=False, maximum_multiples=(10, 20, 25),
        maximum_scope="each of the three bets", pays=TRIJOKER_PAYS, minimum_hand="a pair of jacks",
        only_highest_paid=True, ace_low="A-2-3-4-5 is a straight",
        withdrawals="bet 1 after seeing the cards, bet 2 after the first common card; bet 3 always plays",
        dealing="one card to each box, the common card at the croupier's left, one to each box, the one at his "
        "right, one to each box", common_card_exposed="10 or lower: play on; J, Q, K or A: the hand is annulled",
        player_card_exposed="the hand goes on", information_forfeit="every bet still in play is lost"),
    "ES-AN": TrijokerRules(
        "ES-AN", {
            "deck": f"003:3314-3318; {R}banked-poker-fresh-deck", "dealing_device": "003:3320-3325; 003:3457-3460",
            "boxes": "003:3327-3337; 003:3365-3368", "one_box_per_player": "003:3367-3373",
            "maximum_multiples": "003:3444-3447", "maximum_scope": "003:3435-3437", "pays": "003:3411-3426",
            "minimum_hand": "003:3303-3310; 003:3408-3409", "only_highest_paid": "003:3411-3426 (categories exclusive)",
            "ace_low": f"003:3317-3318; {R}trijoker-ace-low", "withdrawals": "003:3490-3507", "dealing": "003:3470-3481",
            "common_card_exposed": f"003:3483-3488; {R}trijoker-exposed-cards", "player_card_exposed": "003:3525-3530",
            "information_forfeit": "003:3535-3539",
        },
        deck="52 French cards from a dealing shoe (sabot), one freshly shuffled deck per round",
        dealing_device="a homologated sabot is mandatory", boxes=7, one_box_per_player=True,
        maximum_multiples=(10, 20, 30), maximum_scope="each of the three bets", pays=TRIJOKER_PAYS,
        minimum_hand="a pair of jacks", only_highest_paid=True,
        ace_low="A-2-3-4-5 is a straight (table option ace-low-straight; the text lists the ranks only)",
        withdrawals="bet 1 after seeing the cards, bet 2 after the first common card; bet 3 always plays",
        dealing="one card to each box, the common card at the croupier's left, one to each box, the one at his "
        "right, one to each box", common_card_exposed="10 or lower: play on; J, Q, K or A: the hand is annulled",
        player_card_exposed="the whole round is annulled", information_forfeit="prohibited; no sanction stated"),
}

VERBS = ("withdraw", "keep", "expose")


def payout(cards: list[str], ace_low: bool = True) -> Fraction | None:
    """The ratio the final five cards pay on each bet in play, or None: a pair pays from jacks up (000:1601)."""
    s = ev.rank5(cards, ev.STANDARD if ace_low else NO_WHEEL)
    cat = category_of(s)
    if cat == "pair" and (s >> 16) & 0xF < JACKS:
        return None
    return TRIJOKER_PAYS.get(cat)


class Trijoker(BankedGame):
    id = "trijoker"
    name_es = "Trijoker"
    name_en = "Three-bet five-card stud (Let-It-Ride-like)"
    extra_bet_fields = frozenset({"box"})
    extra_act_fields = frozenset({"card", "amount"})
    kind_names = ("main",)
    deck_source = "000:1613; 003:3314"

    @property
    def rules(self) -> dict[str, TrijokerRules]:  # type: ignore[override]
        return TRIJOKER_RULES

    def kinds(self) -> list[KindInfo]:
        return [KindInfo("main", None, "Apuestas 1, 2 y 3 on a box (1-7): `amount` is each of the three equal bets; "
                         "pair of jacks 1, two pair 2, trío 3, straight 5, flush 8, full 11, póquer 50, straight "
                         "flush 200, royal 500 to 1 on each bet in play")]

    def verbs(self) -> list[str]:
        return list(VERBS)

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="authorised minimum of each of the three bets, cents"),
            TableKey("maximum", default=None, description="ES-IB 10, 20 or 25 x minimum; ES-AN 10, 20 or 30 x; for "
                     "each of the three bets; default the largest"),
            TableKey("ace-low-straight", default=True, description="ES-AN: A-2-3-4-5 is a straight "
                     "(docs/rulings.md#trijoker-ace-low); ES-IB always"),
            TableKey("rounding", default="player", description="docs/format.md's rounding policy"),
        ]

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        return [EdgeCase("main", option="optimal")]

    def configure(self, rules: Rules, table: Mapping[str, Any]) -> dict[str, Any]:
        assert isinstance(rules, TrijokerRules)
        m, maximum = self.limits_of(rules, table, False)
        if "ace-low-straight" in table and rules.jurisdiction == "ES-IB":
            raise TapeteError("bad-table", "in ES-IB the ace is always high or low", source=rules.sources["ace_low"])
        return {"minimum": m, "maximum": maximum, "ace-low": flag(table, "ace-low-straight", True)}

    def place(self, state: BankedState, rules: Rules, bet: Bet) -> BoxBet:
        assert isinstance(rules, TrijokerRules) and state.round is not None
        box = self.box_of(bet, rules.boxes, rules.sources["boxes"])
        cfg = state.config
        live = state.live()
        if any(b.box == box for b in live):
            raise TapeteError("box-full", f"bet {bet.id}: box {box} already has its three bets", bet=bet.id,
                              source=rules.sources["boxes"])
        if rules.one_box_per_player and any(b.player == bet.player for b in live):
            raise TapeteError("box-full", f"bet {bet.id}: a player plays one box only", bet=bet.id,
                              source=rules.sources["one_box_per_player"])
        if bet.amount < cfg["minimum"]:
            raise TapeteError("under-minimum", f"bet {bet.id}: each bet ({bet.amount}) is under the minimum of "
                              f"{cfg['minimum']}", bet=bet.id, source=own_citations("000:1679; 003:3435-3437", state.jurisdiction))
        if bet.amount > cfg["maximum"]:
            raise TapeteError("over-maximum", f"bet {bet.id}: each bet ({bet.amount}) exceeds the maximum of {cfg['maximum']}",
                              bet=bet.id, source=rules.sources["maximum_multiples"])
        return BoxBet(bet.id, bet.player, bet.kind, box, bet.amount, state.round.number)

    def void_stake(self, bet: BoxBet) -> int:
        return 3 * bet.amount

    def deal(self, state: BankedState, rules: Rules) -> None:
        rnd = state.round
        assert rnd is not None
        boxes = [b.box for b in state.live()]
        hands: dict[str, list[str]] = {str(b): [] for b in boxes}
        # 000:1693; 003:3470-3481 — P1..Pn, the common card at the croupier's left, P1..Pn, the one at his right, P1..Pn
        for common in ("left", "right", None):
            for b in boxes:
                hands[str(b)].append(self.draw(state))
            if common:
                hands[common] = [self.draw(state)]
        rnd.hands = hands
        state.log.append(f"round {rnd.number}: no va más; three cards to box " + ", ".join(map(str, boxes))
                         + ", two common cards face down")

    def decide(self, state: BankedState, rules: Rules, bet: BoxBet, act: Act) -> None:
        assert isinstance(rules, TrijokerRules)
        if act.do not in VERBS:
            raise TapeteError("illegal-action", f"{act.do!r} is not a decision of trijoker ({', '.join(VERBS)})", bet=bet.id)
        self.act_fields(act, (), bet.id)
        done = [a["do"] for a in bet.acts]
        if act.do == "expose":
            if "expose" in done:
                raise TapeteError("illegal-action", f"bet {bet.id}: the cards are already shown", bet=bet.id)
        elif "expose" in done and rules.jurisdiction == "ES-IB":
            raise TapeteError("illegal-action", f"bet {bet.id}: the box has forfeited its bets (cards shown)", bet=bet.id,
                              source=rules.sources["information_forfeit"])
        elif sum(d in ("withdraw", "keep") for d in done) >= 2:
            raise TapeteError("illegal-action", f"bet {bet.id}: bet 3 always plays; only bets 1 and 2 may be withdrawn",
                              bet=bet.id, source=rules.sources["withdrawals"])
        bet.acts.append({"do": act.do})

    def croupier_act(self, state: BankedState, rules: Rules, act: Act) -> None:
        assert isinstance(rules, TrijokerRules) and state.round is not None
        card = self.exposed_card(state, act, "a card shown by mistake")
        rnd = state.round
        common = card in rnd.hands.get("left", []) + rnd.hands.get("right", [])
        if common and card[0] in "JQKA":                     # 000:1693; 003:3483-3488
            self._void(state, Void(f"common card {card} (J or higher) exposed"))
        elif not common and rules.jurisdiction == "ES-AN":   # 003:3525-3530
            self._void(state, Void(f"{card}, a player's card, exposed while dealing"))
        else:
            state.log.append(f"{show([card])} exposed by mistake: the hand goes on")

    def verbs_due(self, state: BankedState, bet: BoxBet) -> list[str]:
        decided = sum(a["do"] in ("withdraw", "keep") for a in bet.acts)
        return ["withdraw", "keep"] if decided < 2 else []

    def resolve(self, state: BankedState, rules: Rules) -> None:
        assert isinstance(rules, TrijokerRules) and state.round is not None
        rnd = state.round
        common = rnd.hands["left"] + rnd.hands["right"]
        state.log.append(f"common cards: {show(common)}")
        for b in reversed(state.live()):                     # 000:1697; 003:3512-3514 — from the croupier's right
            in_play, forfeited = [True, True, True], False
            decision = 0
            for a in b.acts:
                if a["do"] == "expose":
                    forfeited = forfeited or rules.jurisdiction == "ES-IB"
                    if rules.jurisdiction == "ES-AN":
                        state.log.append(f"{b.id}: cards shown (prohibited, no sanction stated: 003:3535-3539)")
                elif not forfeited:
                    in_play[decision] = a["do"] == "keep"
                    decision += 1
            hand = rnd.hands[str(b.box)] + common
            ratio = payout(hand, state.config["ace-low"])
            amount = Fraction(b.amount)
            b.staked = 3 * amount
            back = Fraction(0)
            for playing in in_play:
                if not playing:
                    back += amount
                elif not forfeited and ratio is not None:
                    back += amount * (1 + ratio)
            b.returned = back
            s = ev.rank5(hand, ev.STANDARD if state.config["ace-low"] else NO_WHEEL)
            why = ("cards shown: every bet in play is lost" if forfeited else
                   f"{ev.describe(s)}: " + (f"{ratio} to 1 on {sum(in_play)} bet(s)" if ratio else "no prize"))
            state.log.append(f"{b.id} (box {b.box}) {show(rnd.hands[str(b.box)])}: {why}")


TRIJOKER = register(Trijoker())
