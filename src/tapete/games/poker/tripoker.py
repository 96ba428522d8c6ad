"""*Tripóquer* (ES-AN only, 003:3541-3737 with its displaced parts 003:3798-3833): three cards against three.

Digest part C; docs/vocabulary.md §6. Before the deal a player stakes the *Ante*, the *Fortuna*, or both. Seeing his
three cards he places the *Bet* (equal to the ante) or folds, losing the ante. The croupier needs a queen or
better to qualify: if he does not, the ante is paid and the bet returned; if he does, the higher hand wins ante
and bet at par. The *Extra-Ante* pays a straight or better on the ante whatever the croupier holds; the
*Fortuna* pays any pair or better on the player's three cards alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.money import euros
from tapete.engine.events import Act, Bet, Void
from tapete.engine.game import EdgeCase, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.rules import Rules
from tapete.games.poker import evaluator as ev
from tapete.games.poker.banked import (
    BankedGame,
    BankedState,
    BoxBet,
    carousel_bets,
    carousel_of,
    category_of,
    choice,
    flag,
    pay_carousel,
    percent,
    show,
)
from tapete.games.poker.sin_descarte import JACKPOT_FIXED_AN, JACKPOT_FLOOR, JACKPOT_SHARES_IB

R = "R: docs/rulings.md#"

# 003:3674-3680 — Fortuna, "N veces el valor de la apuesta", N to 1
FORTUNE_PAYS: Mapping[str, Fraction] = {
    "straight-flush": Fraction(40), "three-of-a-kind": Fraction(30), "straight": Fraction(5), "flush": Fraction(4),
    "pair": Fraction(1),
}
# 003:3798-3804 — Extra-Ante, on the ante
EXTRA_ANTE: Mapping[str, Fraction] = {"straight-flush": Fraction(4), "three-of-a-kind": Fraction(3), "straight": Fraction(1)}
QUEEN = ev.RANKS.index("Q") + 1      # a strength's first field is rank + 1


@dataclass(frozen=True)
class TripokerRules(Rules):
    deck: str
    boxes: int
    co_bettors: bool
    ace: str
    hand_order: str
    ties: str
    fortune_pays: Mapping[str, Fraction]
    fortune_without_ante: bool
    call: str
    dealer_qualifies: str
    not_qualified: str
    win: str
    tie: str
    extra_ante: Mapping[str, Fraction]
    extra_ante_after_fold: bool
    maximum_multiples: tuple[int, ...]
    maximum_scope: str
    carousel: str
    carousel_minimum_return: Fraction
    dealing: str
    dealing_error: str
    information_forfeit: str


TRIPOKER_RULES: dict[str, TripokerRules] = {
    "ES-AN": TripokerRules(
        "ES-AN", {
            "deck": f"003:3556-3559; 003:3646-3651; {R}banked-poker-fresh-deck", "boxes": "003:3574-3585; 003:3608-3611",
            "co_bettors": "003:3608-3611", "ace": "003:3561-3565",
            "hand_order": f"003:3614-3619; 003:3676-3680; 003:3800-3804; {R}tripoker-hand-order",
            "ties": f"003:3694-3695; {R}tripoker-ties", "fortune_pays": "003:3667-3680",
            "fortune_without_ante": f"003:3655-3656; {R}tripoker-fortune", "call": "003:3656-3657; 003:3682-3687",
            "dealer_qualifies": "003:3689-3691", "not_qualified": "003:3691-3694", "win": "003:3697-3701",
            "tie": "003:3701-3703", "extra_ante": "003:3705-3714; 003:3798-3804",
            "extra_ante_after_fold": f"003:3708-3713; {R}tripoker-extra-ante",
            "maximum_multiples": "003:3814-3818", "maximum_scope": "003:3807-3812",
            "carousel": f"003:3820-3833; 003:3716-3722; {R}tripoker-carousel", "carousel_minimum_return": "003:3827-3830",
            "dealing": f"003:3659-3664; 003:3639-3644; {R}tripoker-deal-order", "dealing_error": "003:3725-3729",
            "information_forfeit": "003:3732-3737",
        },
        deck="52 French cards, one freshly shuffled deck per round", boxes=9, co_bettors=False,
        ace="below the 2 or above the K in a straight: A-2-3 and Q-K-A, never K-A-2",
        hand_order="straight flush > three of a kind > straight > flush > pair > high card",
        ties="high cards and flushes card by card, a pair then its kicker, straights by the top card (A-2-3 lowest)",
        fortune_pays=FORTUNE_PAYS, fortune_without_ante=True, call="the Bet equals the ante, or the ante is surrendered",
        dealer_qualifies="a queen high or better", not_qualified="ante paid 1 to 1, Bet returned",
        win="ante and Bet 1 to 1 to the higher hand", tie="push", extra_ante=EXTRA_ANTE, extra_ante_after_fold=False,
        maximum_multiples=(10, 50), maximum_scope="each box (Fortuna, Ante, Bet)",
        carousel="only linked with the other poker tables: sin descarte's ES-AN table on 3 own + 2 common cards",
        carousel_minimum_return=Fraction(7, 10),
        dealing="one card at a time to each box in box order, then the croupier; three rounds",
        dealing_error="the whole round is annulled", information_forfeit="every bet of the offender is lost"),
}

VERBS = ("call", "fold", "expose")


def strength3(cards: list[str], order: str = "sf-3k-st-fl") -> int:
    """003:3614-3619 — poker combinations with three cards, in the order of digest C-R1 (or the literal 5-card order)."""
    return ev.rank3(cards, five_card_order=order == "poker")


def qualifies3(strength: int) -> bool:
    """003:3689-3691 — the croupier needs "una jugada mínima de Q o superior": a pair or better, or a queen high."""
    return category_of(strength) != "high-card" or (strength >> 16) & 0xF >= QUEEN


class Tripoker(BankedGame):
    id = "tripoker"
    name_es = "Tripóquer"
    name_en = "Three-card poker"
    extra_bet_fields = frozenset({"box"})
    extra_act_fields = frozenset({"card", "amount"})
    kind_names = ("ante", "fortune", "jackpot")
    deck_source = "003:3556-3559"

    @property
    def rules(self) -> dict[str, TripokerRules]:  # type: ignore[override]
        return TRIPOKER_RULES

    def kinds(self) -> list[KindInfo]:
        return [
            KindInfo("ante", "1:1", "Ante on a box (1-9); the call (Bet) equals the ante; Extra-Ante straight 1, "
                     "trío 3, straight flush 4 x the ante after a call"),
            KindInfo("fortune", None, "Fortuna: straight flush 40, trío 30, straight 5, flush 4, pair 1 to 1 on the "
                     "player's three cards, whatever the croupier holds"),
            KindInfo("jackpot", None, "Carrusel, only with linked-carousel: sin descarte's ES-AN table on three own "
                     "cards and two common cards"),
        ]

    def verbs(self) -> list[str]:
        return list(VERBS)

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="authorised minimum of each box, cents"),
            TableKey("maximum", default=None, description="10 to 50 x minimum, for each box; default 50 x"),
            TableKey("deal", default="one-by-one", description="'one-by-one' (manual) or 'by-three' (shuffler)"),
            TableKey("three-card-rank-order", default="sf-3k-st-fl", description="'sf-3k-st-fl' (docs/rulings.md#"
                     "tripoker-hand-order) or 'poker' (flush over straight over trío, the literal reading)"),
            TableKey("linked-carousel", default=False, description="the table is linked to the other poker tables' "
                     "carousel: two common cards after the deal, jackpot bets allowed"),
            TableKey("jackpot", default=None, description="the carousel meter before the round, cents"),
            TableKey("jackpot-stake", default=None, description="the single carousel stake, cents"),
            TableKey("jackpot-contribution", default=0, description="percent of each carousel stake added to the meter"),
            TableKey("rounding", default="player", description="docs/format.md's rounding policy"),
        ]

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        return [EdgeCase("ante", option="optimal"), EdgeCase("fortune"),
                EdgeCase("jackpot", option="linked-carousel", table={"linked-carousel": True})]

    def configure(self, rules: Rules, table: Mapping[str, Any]) -> dict[str, Any]:
        assert isinstance(rules, TripokerRules)
        m, maximum = self.limits_of(rules, table, True)
        linked = flag(table, "linked-carousel", False)
        if (table.get("jackpot-stake") is not None or table.get("jackpot") is not None) and not linked:
            raise TapeteError("bad-table", "a tripóquer carousel has no paytable unless linked with the other poker "
                              "tables (linked-carousel)", source=rules.sources["carousel"])
        stake, meter = carousel_of(table, JACKPOT_FLOOR, "003:3240-3242")
        rate = table.get("jackpot-contribution", 0)
        if not 0 <= percent(rate, "jackpot-contribution") <= 1:
            raise TapeteError("bad-table", "table.jackpot-contribution is a percentage, 0 to 100")
        return {"minimum": m, "maximum": maximum, "deal": choice(table, "deal", ("one-by-one", "by-three"), "one-by-one"),
                "order": choice(table, "three-card-rank-order", ("sf-3k-st-fl", "poker"), "sf-3k-st-fl",
                                rules.sources["hand_order"]),
                "linked": linked, "jackpot-stake": stake, "jackpot": meter, "contribution": str(rate)}

    def place(self, state: BankedState, rules: Rules, bet: Bet) -> BoxBet:
        assert isinstance(rules, TripokerRules) and state.round is not None
        box = self.box_of(bet, rules.boxes, rules.sources["boxes"])
        cfg = state.config
        here = [b for b in state.live() if b.box == box]
        if any(b.kind == bet.kind for b in here):
            raise TapeteError("box-full", f"bet {bet.id}: box {box} already has its {bet.kind}; nobody bets on another "
                              "player's hand", bet=bet.id, source=rules.sources["co_bettors"])
        if here and any(b.player != bet.player for b in here):
            raise TapeteError("box-full", f"bet {bet.id}: box {box} is another player's", bet=bet.id,
                              source=rules.sources["co_bettors"])
        if bet.kind == "jackpot":
            self._check_jackpot(state, rules, bet, here)
        else:
            if bet.amount < cfg["minimum"]:
                raise TapeteError("under-minimum", f"bet {bet.id} ({bet.amount}) is under the minimum of {cfg['minimum']}",
                                  bet=bet.id, source=rules.sources["maximum_scope"])
            if bet.amount > cfg["maximum"]:
                raise TapeteError("over-maximum", f"bet {bet.id} ({bet.amount}) exceeds the maximum of {cfg['maximum']}",
                                  bet=bet.id, source=rules.sources["maximum_multiples"])
        return BoxBet(bet.id, bet.player, bet.kind, box, bet.amount, state.round.number)

    def _check_jackpot(self, state: BankedState, rules: TripokerRules, bet: Bet, here: list[BoxBet]) -> None:
        cfg = state.config
        if not cfg["linked"]:
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: a carousel bet needs a table linked with the other "
                              "poker tables (linked-carousel)", bet=bet.id, source=rules.sources["carousel"])
        if not any(b.kind in ("ante", "fortune") for b in here):
            raise TapeteError("bad-target", f"bet {bet.id}: the carousel rides the hand of a box with an ante or a "
                              "fortune bet (place it first)", bet=bet.id, source="003:3226-3228")
        if cfg["jackpot-stake"] is None:
            cfg["jackpot-stake"] = bet.amount
        if bet.amount != cfg["jackpot-stake"]:
            raise TapeteError("bad-amount", f"bet {bet.id}: the carousel is played with its single stake of "
                              f"{cfg['jackpot-stake']}", bet=bet.id, source="003:3240-3242")
        if state.meter is None:
            state.meter = Fraction(JACKPOT_FLOOR * bet.amount)

    def deal(self, state: BankedState, rules: Rules) -> None:
        rnd = state.round
        assert rnd is not None
        boxes = sorted({b.box for b in state.live() if b.kind in ("ante", "fortune")})
        hands: dict[str, list[str]] = {str(b): [] for b in boxes}
        if state.config["deal"] == "by-three":           # 003:3643-3644 — three at a time, the croupier last
            for b in boxes:
                hands[str(b)] = [self.draw(state) for _ in range(3)]
            hands["croupier"] = [self.draw(state) for _ in range(3)]
        else:                                            # 003:3659-3664; C-R6
            hands["croupier"] = []
            for _ in range(3):
                for b in boxes:
                    hands[str(b)].append(self.draw(state))
                hands["croupier"].append(self.draw(state))
        if state.config["linked"]:                       # 003:3716-3722 — two common cards, drawn last
            hands["common"] = [self.draw(state), self.draw(state)]
        rnd.hands = hands
        state.log.append(f"round {rnd.number}: no va más; three cards to box " + ", ".join(map(str, boxes))
                         + " and to the croupier" + (f"; common cards {show(hands['common'])}" if "common" in hands else ""))

    def decide(self, state: BankedState, rules: Rules, bet: BoxBet, act: Act) -> None:
        if act.do not in VERBS:
            raise TapeteError("illegal-action", f"{act.do!r} is not a decision of tripoker ({', '.join(VERBS)})", bet=bet.id)
        if bet.kind != "ante" and act.do != "expose":
            raise TapeteError("illegal-action", f"bet {bet.id}: a {bet.kind} bet takes no decision", bet=bet.id)
        self.act_fields(act, (), bet.id)
        mine = [b for b in state.live() if b.box == bet.box]
        done = [a["do"] for b in mine for a in b.acts]
        if "expose" in done:
            raise TapeteError("illegal-action", f"bet {bet.id}: the player has forfeited his bets (cards shown)",
                              bet=bet.id, source="003:3732-3737")
        if act.do in ("call", "fold") and ("call" in done or "fold" in done):
            raise TapeteError("illegal-action", f"bet {bet.id}: the ante has already been played or surrendered", bet=bet.id)
        bet.acts.append({"do": act.do})

    def croupier_act(self, state: BankedState, rules: Rules, act: Act) -> None:
        card = self.exposed_card(state, act, "a card shown while dealing")
        self._void(state, Void(f"{card} exposed while dealing"))      # 003:3725-3729

    def verbs_due(self, state: BankedState, bet: BoxBet) -> list[str]:
        if bet.kind != "ante" or any(a["do"] in ("call", "fold", "expose") for a in bet.acts):
            return []
        return ["call", "fold"]

    def resolve(self, state: BankedState, rules: Rules) -> None:
        assert isinstance(rules, TripokerRules) and state.round is not None
        rnd, order = state.round, state.config["order"]
        dealer = rnd.hands["croupier"]
        ds = strength3(dealer, order)
        plays = qualifies3(ds)
        state.log.append(f"the croupier turns up {show(dealer)}: {ev.describe(ds)}"
                         + ("" if plays else " — he does not qualify (queen high needed)"))
        boxes = sorted({b.box for b in state.live() if b.kind in ("ante", "fortune")})
        info: dict[int, tuple[int, str, bool]] = {}
        for box in boxes:
            mine = [b for b in state.live() if b.box == box]
            acts = [a["do"] for b in mine for a in b.acts]
            decision = next((d for d in acts if d in ("call", "fold")), "fold")
            info[box] = (strength3(rnd.hands[str(box)], order), decision, "expose" in acts)
        for b in state.live():
            ps, decision, exposed = info[b.box]
            b.staked = Fraction(b.amount) * (2 if b.kind == "ante" and decision == "call" else 1)
            if exposed:                                  # 003:3732-3737
                b.returned, why = Fraction(0), "cards shown: lost to the bank"
            elif b.kind == "ante":
                b.returned, why = self._ante(b, decision, ps, ds, plays)
            elif b.kind == "fortune":
                mult = FORTUNE_PAYS.get(category_of(ps))
                b.returned = b.staked * (1 + mult) if mult is not None else Fraction(0)
                why = f"{ev.describe(ps)}: " + (f"{mult} to 1" if mult is not None else "lost")
            else:
                continue
            state.log.append(f"{b.id} {b.kind} (box {b.box}): {why}")
        self._jackpot(state, rnd.hands, info)

    @staticmethod
    def _ante(b: BoxBet, decision: str, ps: int, ds: int, plays: bool) -> tuple[Fraction, str]:
        a = Fraction(b.amount)
        if decision == "fold":                           # 003:3686-3687
            return Fraction(0), "surrendered: the ante is lost"
        bonus = a * EXTRA_ANTE.get(category_of(ps), 0)   # 003:3705-3713, after a call (C-R3)
        extra = f"; Extra-Ante {euros(bonus)}" if bonus else ""
        if not plays:                                    # 003:3691-3694
            return 3 * a + bonus, "the croupier does not qualify: ante paid, Bet returned" + extra
        if ps > ds:                                      # 003:3697-3698
            return 4 * a + bonus, f"{ev.describe(ps)} wins ante and Bet" + extra
        if ps == ds:                                     # 003:3701-3703
            return 2 * a + bonus, "a tie: ante and Bet stay" + extra
        return bonus, f"{ev.describe(ps)} loses ante and Bet" + extra

    def _jackpot(self, state: BankedState, hands: dict[str, list[str]], info: dict[int, tuple[int, str, bool]]) -> None:
        bets = carousel_bets(state)
        if not bets:
            return
        eligible = []
        for b in bets:
            _, decision, exposed = info[b.box]
            folded = decision == "fold" and any(x.kind == "ante" for x in state.live() if x.box == b.box)
            if not exposed and not folded:
                eligible.append((b, ev.rank5(hands[str(b.box)] + hands["common"])))
        pay_carousel(state, bets, eligible, {**JACKPOT_SHARES_IB}, JACKPOT_FIXED_AN)


TRIPOKER = register(Tripoker())
