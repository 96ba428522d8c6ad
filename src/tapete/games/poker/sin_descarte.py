"""*Póquer sin descarte* (ES-IB 000:1225-1369, ES-AN 003:2907-3298): five cards against the croupier's five.

Digest part A of banked poker; round vocabulary docs/vocabulary.md §4. The player antes, sees his
five cards and the croupier's up-card, may buy one replacement card (priced at his ante), then says *voy* (adds
twice the ante) or *paso* (loses the ante). The croupier plays only with ace-king or better; if he does not, the
ante is paid at par and the call comes back (A-R5). Otherwise the higher hand wins: the ante at par, the call at
the category's multiple. The *seguro* pays on the player's own hand whatever the croupier holds; the carousel
(jackpot) pays out of a meter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.jurisdictions import own_citations
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
    is_int,
    pay_carousel,
    percent,
    show,
)

R = "R: docs/rulings.md#"

# 000:1275-1293; 003:2998-3040 — "se paga N veces la apuesta": N to 1 on the call (digest 0.3)
CALL_PAYS: Mapping[str, Fraction] = {
    "royal-flush": Fraction(100), "straight-flush": Fraction(25), "four-of-a-kind": Fraction(20),
    "full-house": Fraction(7), "flush": Fraction(5), "straight": Fraction(4), "three-of-a-kind": Fraction(3),
    "two-pair": Fraction(2), "pair": Fraction(1), "high-card": Fraction(1),
}
# 000:1327-1333; 003:3201-3204 — the seguro, N times the fixed stake
SEGURO_PAYS: Mapping[str, Fraction] = {
    "full-house": Fraction(100), "four-of-a-kind": Fraction(300), "straight-flush": Fraction(1000),
    "royal-flush": Fraction(2000),
}
# 000:1361-1363 / 003:3254-3266 — shares of the meter, and fixed multiples of the jackpot stake (ES-AN)
JACKPOT_SHARES_IB: Mapping[str, Fraction] = {"royal-flush": Fraction(1), "straight-flush": Fraction(1, 10)}
JACKPOT_FIXED_AN: Mapping[str, Fraction] = {
    "four-of-a-kind": Fraction(300), "full-house": Fraction(100), "flush": Fraction(50), "straight": Fraction(30),
}
JACKPOT_FLOOR = 5000     # 003:3240-3242 — the meter starts at no less than 5,000 x the jackpot stake


@dataclass(frozen=True)
class SinDescarteRules(Rules):
    deck: str
    boxes: int
    bets_per_box: int
    maximum_multiples: tuple[int, ...]
    maximum_is_range: bool
    maximum_scope: str                      # "bet" or "box"
    call_multiple: int
    call_pays: Mapping[str, Fraction]
    dealer_qualifies: str
    not_qualified: str
    ties: str
    wheel: str
    kickers: str
    insurance_max: Fraction                 # share of the table minimum
    insurance_pays: Mapping[str, Fraction]
    insurance_on_fold: str
    jackpot_shares: Mapping[str, Fraction]
    jackpot_fixed: Mapping[str, Fraction]
    jackpot_needs_ante: bool
    jackpot_contribution: str
    jackpot_floor: int | None
    jackpot_several_winners: str
    card_purchase: str                      # "always" | "casino-option"
    purchase_price: str
    blind_boxes: bool
    upcards: tuple[str, ...]
    dealing: str
    dealing_error: str
    information_forfeit: str


def _rules(jurisdiction: str, sources: dict[str, str], **fields: Any) -> SinDescarteRules:
    base: dict[str, Any] = dict(
        deck="52 French cards, one freshly shuffled deck per round", boxes=7, call_multiple=2, call_pays=CALL_PAYS,
        dealer_qualifies="ace and king, or any pair or better", not_qualified="ante paid 1 to 1, call returned",
        ties="push", wheel="A-2-3-4-5 is the lowest straight (five-high)",
        kickers="every card, highest first (flush, pair, high cards)", insurance_max=Fraction(1, 2),
        insurance_pays=SEGURO_PAYS, insurance_on_fold="lost", jackpot_fixed={}, jackpot_shares=JACKPOT_SHARES_IB,
        jackpot_needs_ante=False, jackpot_floor=None, purchase_price="the ante",
        dealing="one card at a time: each box with an ante in box order, then the croupier; five rounds",
        dealing_error="the whole round is annulled",
    )
    base.update(fields)
    return SinDescarteRules(jurisdiction=jurisdiction, sources=sources, **base)


SIN_DESCARTE_RULES: dict[str, SinDescarteRules] = {
    "ES-IB": _rules("ES-IB", {
        "deck": f"000:1235-1237; {R}banked-poker-fresh-deck", "boxes": "000:1261",
        "bets_per_box": "000:1265", "maximum_multiples": "000:1317", "maximum_is_range": "000:1317",
        "maximum_scope": f"000:1265; 000:1317; {R}sin-descarte-maximum",
        "call_multiple": f"000:1339; {R}sin-descarte-call-amount", "call_pays": "000:1275-1293; 000:1345",
        "dealer_qualifies": "000:1343", "not_qualified": f"000:1343; {R}sin-descarte-not-qualified",
        "ties": "000:1295; 000:1349", "wheel": f"000:1235; 000:1299; {R}sin-descarte-wheel",
        "kickers": "000:1293; 000:1301; 000:1307", "insurance_max": "000:1325",
        "insurance_pays": "000:1325-1333", "insurance_on_fold": f"000:1325; {R}sin-descarte-seguro",
        "jackpot_shares": "000:1361-1363", "jackpot_fixed": "000:1361-1363 (RF and SF only)",
        "jackpot_needs_ante": f"000:1359; {R}sin-descarte-jackpot", "jackpot_contribution": "000:1365",
        "jackpot_floor": "000:1357-1365 (silent)", "jackpot_several_winners": f"000:1361-1363; {R}sin-descarte-jackpot",
        "card_purchase": "000:1369", "purchase_price": "000:1369", "blind_boxes": "000:1259-1267 (absent)",
        "upcards": "000:1335; 000:1337", "dealing": f"000:1335; 000:1337; {R}sin-descarte-deal-order",
        "dealing_error": f"000:1351; {R}sin-descarte-void", "information_forfeit": f"000:1353; {R}sin-descarte-forfeit",
    }, bets_per_box=4, maximum_multiples=(10, 20, 25), maximum_is_range=False, maximum_scope="bet",
        jackpot_contribution="90% of each stake goes into the meter", jackpot_several_winners="split equally (as ES-AN)",
        card_purchase="always", blind_boxes=False, upcards=("last", "first"),
        information_forfeit="ante, call and side bets (table option)"),
    "ES-AN": _rules("ES-AN", {
        "deck": f"003:2920-2923; 003:3127-3131; {R}banked-poker-fresh-deck", "boxes": "003:2964-2968",
        "bets_per_box": "003:2968-2972", "maximum_multiples": f"003:3097-3102; {R}sin-descarte-maximum",
        "maximum_is_range": f"003:3100; {R}sin-descarte-maximum", "maximum_scope": "003:3092-3095",
        "call_multiple": f"003:3154-3157; {R}sin-descarte-call-amount", "call_pays": "003:2998-3040; 003:3173-3178",
        "dealer_qualifies": "003:3167-3169", "not_qualified": f"003:3169-3171; {R}sin-descarte-not-qualified",
        "ties": "003:3042-3046; 003:3183-3184", "wheel": f"003:2925-2927; 003:3062-3063; {R}sin-descarte-wheel",
        "kickers": f"003:3036-3039; 003:3059-3060; 003:3073-3075; {R}sin-descarte-kickers",
        "insurance_max": "003:3194-3196", "insurance_pays": "003:3191-3204",
        "insurance_on_fold": f"003:3196-3197; {R}sin-descarte-seguro", "jackpot_shares": "003:3254-3258",
        "jackpot_fixed": "003:3260-3271", "jackpot_needs_ante": "003:3226-3228",
        "jackpot_contribution": f"003:3243-3244; {R}sin-descarte-jackpot", "jackpot_floor": "003:3240-3242",
        "jackpot_several_winners": "003:3273-3285", "card_purchase": "003:3207-3209", "purchase_price": "003:3210-3214",
        "blind_boxes": "003:2984-2991", "upcards": "003:3142-3144", "dealing": f"003:3137-3144; 003:3124-3125; "
        f"{R}sin-descarte-deal-order", "dealing_error": f"003:3288-3292; {R}sin-descarte-void",
        "information_forfeit": f"003:3294-3298; {R}sin-descarte-forfeit",
    }, bets_per_box=3, maximum_multiples=(10, 30), maximum_is_range=True, maximum_scope="box",
        jackpot_fixed=JACKPOT_FIXED_AN, jackpot_needs_ante=True,
        jackpot_contribution="the rate is not stated (table option jackpot-contribution)", jackpot_floor=JACKPOT_FLOOR,
        jackpot_several_winners="royal flushes split the meter; straight flushes in turn from the highest, 10% of "
        "what remains, equal ones sharing", card_purchase="casino-option", blind_boxes=True, upcards=("last",),
        information_forfeit="ante, call and side bets (table option)"),
}

KINDS = ("ante", "insurance", "jackpot")
VERBS = ("buy", "call", "fold", "expose")


def qualifies(strength: int, cards: list[str]) -> bool:
    """000:1343; 003:3167-3169 — an ace and a king, or a higher combination (any pair or better; every straight)."""
    if category_of(strength) != "high-card":
        return True
    ranks = {c[0] for c in cards}
    return "A" in ranks and "K" in ranks


def strength(cards: list[str]) -> int:
    """Five cards under the catalogs' order: A-2-3-4-5 the lowest straight (A-R2), kickers all compared (A-R3)."""
    return ev.rank5(cards, ev.STANDARD)


class PokerSinDescarte(BankedGame):
    id = "poker-sin-descarte"
    name_es = "Póquer sin descarte"
    name_en = "Caribbean-stud-like poker (no draw)"
    extra_bet_fields = frozenset({"box", "blind"})
    extra_act_fields = frozenset({"cards", "card", "amount"})
    kind_names = KINDS
    deck_source = "000:1235; 003:2920-2923"

    @property
    def rules(self) -> dict[str, SinDescarteRules]:  # type: ignore[override]
        return SIN_DESCARTE_RULES

    def kinds(self) -> list[KindInfo]:
        return [
            KindInfo("ante", "1:1", "Apuesta inicial on a box (1-7); the call (voy) adds 2 x the ante and pays 1 to 100 "
                     "to 1 by the player's hand when the croupier plays (ace-king or better)"),
            KindInfo("insurance", None, "Seguro: the fixed stake (table.insurance, at most half the minimum) on a box "
                     "with an ante; full house 100, four of a kind 300, straight flush 1,000, royal 2,000 to 1"),
            KindInfo("jackpot", None, "Carrousel/carrusel: the jackpot stake on a box with an ante; royal flush the meter, "
                     "straight flush 10% of it (ES-AN also 4K 300, FH 100, flush 50, straight 30 to 1)"),
        ]

    def verbs(self) -> list[str]:
        return list(VERBS)

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="authorised minimum ante, cents"),
            TableKey("maximum", default=None, description="ES-IB 10, 20 or 25 x minimum per bet; ES-AN 10-30 x minimum "
                     "per box; default the largest"),
            TableKey("insurance", default=None, description="the fixed seguro stake, cents, at most minimum/2; default "
                     "minimum/2"),
            TableKey("card-purchase", default=False, description="ES-AN: the casino admits buying a card (ES-IB: always)"),
            TableKey("deal", default="one-by-one", description="'one-by-one' (manual) or 'by-five' (shuffler)"),
            TableKey("upcard", default="last", description="the croupier's face-up card: 'last', or 'first' (ES-IB)"),
            TableKey("jackpot", default=None, description="the carousel meter before the round, cents; default 5,000 x "
                     "the jackpot stake"),
            TableKey("jackpot-stake", default=None, description="the single carousel stake, cents; default: the first "
                     "jackpot bet's amount"),
            TableKey("jackpot-contribution", default=None, description="percent of each carousel stake added to the "
                     "meter after the round (ES-IB: 90, fixed; ES-AN: default 0)"),
            TableKey("seguro-paid-if-fold", default=False, description="the seguro and carousel still pay after a fold "
                     "(docs/rulings.md#sin-descarte-seguro)"),
            TableKey("forfeit-side-bets", default=True, description="a player who shows his cards also loses his seguro "
                     "and carousel stakes (default yes in both texts; docs/rulings.md#sin-descarte-forfeit-both)"),
            TableKey("rounding", default="player", description="docs/format.md's rounding policy"),
        ]

    # -- analysis ----------------------------------------------------------------------------------
    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        return [EdgeCase("ante", option="strategy"), EdgeCase("insurance"), EdgeCase("jackpot")]

    # -- the table ---------------------------------------------------------------------------------
    def configure(self, rules: Rules, table: Mapping[str, Any]) -> dict[str, Any]:
        assert isinstance(rules, SinDescarteRules)
        m, maximum = self.limits_of(rules, table, rules.maximum_is_range)
        cap = Fraction(m) * rules.insurance_max
        insurance = table.get("insurance", int(cap))
        if not is_int(insurance) or insurance <= 0 or insurance > cap:
            raise TapeteError("bad-table", f"the seguro is a single fixed amount of at most half the minimum ({cap})",
                              source=rules.sources["insurance_max"])
        if "card-purchase" in table and rules.card_purchase == "always":
            raise TapeteError("bad-table", f"card purchase is always offered in {rules.jurisdiction}: no option",
                              source=rules.sources["card_purchase"])
        purchase = rules.card_purchase == "always" or flag(table, "card-purchase", False)
        upcard = choice(table, "upcard", rules.upcards, "last", rules.sources["upcards"])
        deal = choice(table, "deal", ("one-by-one", "by-five"), "one-by-one")
        stake, meter = carousel_of(table, rules.jackpot_floor, rules.sources["jackpot_floor"])
        rate = table.get("jackpot-contribution")
        if rules.jurisdiction == "ES-IB":
            if rate is not None and percent(rate, "jackpot-contribution") != Fraction(9, 10):
                raise TapeteError("bad-table", "in ES-IB 90% of the carousel stakes go into the meter",
                                  source=rules.sources["jackpot_contribution"])
            rate = 90
        elif rate is None:
            rate = 0
        if not 0 <= percent(rate, "jackpot-contribution") <= 1:
            raise TapeteError("bad-table", "table.jackpot-contribution is a percentage, 0 to 100")
        # 000:1353 and 003:3297-3298 say the same (R: docs/rulings.md#sin-descarte-forfeit-both)
        forfeit = flag(table, "forfeit-side-bets", True)
        return {"minimum": m, "maximum": maximum, "insurance": insurance, "purchase": purchase, "upcard": upcard,
                "deal": deal, "jackpot-stake": stake, "jackpot": meter, "contribution": str(rate),
                "seguro-if-fold": flag(table, "seguro-paid-if-fold", False), "forfeit-side-bets": forfeit}

    # -- bets --------------------------------------------------------------------------------------
    def place(self, state: BankedState, rules: Rules, bet: Bet) -> BoxBet:
        assert isinstance(rules, SinDescarteRules) and state.round is not None
        box = self.box_of(bet, rules.boxes, rules.sources["boxes"])
        blind = bet.extra.get("blind", False)
        if not isinstance(blind, bool):
            raise TapeteError("bad-document", f"bet {bet.id}: 'blind' is true or false", bet=bet.id)
        if blind and not rules.blind_boxes:
            raise TapeteError("bad-document", f"bet {bet.id}: blind bets on a vacant box are an ES-AN rule",
                              bet=bet.id, source=rules.sources["blind_boxes"])
        cfg = state.config
        here = [b for b in state.live() if b.box == box]
        antes = [b for b in here if b.kind == "ante"]
        if bet.kind == "ante":
            self._check_ante(rules, cfg, bet, antes)
        elif not antes:
            need = rules.sources["jackpot_needs_ante"] if bet.kind == "jackpot" else rules.sources["insurance_pays"]
            raise TapeteError("bad-target", f"bet {bet.id}: the {bet.kind} rides the hand of a box with an ante "
                              "(place the ante first)", bet=bet.id, source=need)
        elif any(b.kind == bet.kind for b in here):
            raise TapeteError("bad-target", f"bet {bet.id}: box {box} already has its {bet.kind} bet", bet=bet.id)
        elif bet.kind == "insurance" and bet.amount != cfg["insurance"]:
            raise TapeteError("bad-amount", f"bet {bet.id}: the seguro is the single fixed amount of {cfg['insurance']}",
                              bet=bet.id, source=rules.sources["insurance_max"])
        elif bet.kind == "jackpot":
            self._check_jackpot(state, rules, bet)
        return BoxBet(bet.id, bet.player, bet.kind, box, bet.amount, state.round.number, blind)

    def _check_ante(self, rules: SinDescarteRules, cfg: dict[str, Any], bet: Bet, antes: list[BoxBet]) -> None:
        if bet.amount < cfg["minimum"]:
            raise TapeteError("under-minimum", f"bet {bet.id} ({bet.amount}) is under the table minimum of {cfg['minimum']}",
                              bet=bet.id, source=own_citations("000:1335; 003:3133-3135", rules.jurisdiction))
        on_box = sum(b.amount for b in antes) if rules.maximum_scope == "box" else 0
        if on_box + bet.amount > cfg["maximum"]:
            already = f" with {on_box} already on the box" if on_box else ""
            raise TapeteError("over-maximum", f"bet {bet.id} ({bet.amount}){already} exceeds the maximum of {cfg['maximum']}"
                              f" per {rules.maximum_scope}", bet=bet.id, source=rules.sources["maximum_scope"])
        if len(antes) >= rules.bets_per_box:
            raise TapeteError("box-full", f"bet {bet.id}: box already has {len(antes)} bets, the most allowed",
                              bet=bet.id, source=rules.sources["bets_per_box"])

    def _check_jackpot(self, state: BankedState, rules: SinDescarteRules, bet: Bet) -> None:
        cfg = state.config
        stake = cfg["jackpot-stake"]
        if stake is None:
            stake = cfg["jackpot-stake"] = bet.amount
        if bet.amount != stake:
            raise TapeteError("bad-amount", f"bet {bet.id}: the carousel is played with its single stake of {stake}",
                              bet=bet.id, source=own_citations("000:1359; 003:3240-3242", state.jurisdiction))
        if state.meter is None:
            state.meter = Fraction(JACKPOT_FLOOR * stake)
        elif rules.jackpot_floor and state.meter < rules.jackpot_floor * stake and state.rounds == 0:
            raise TapeteError("bad-table", f"the carousel meter is never below {rules.jackpot_floor:,} x its stake",
                              source=rules.sources["jackpot_floor"])

    # -- the deal ----------------------------------------------------------------------------------
    def deal(self, state: BankedState, rules: Rules) -> None:
        rnd = state.round
        assert rnd is not None
        boxes = sorted({b.box for b in state.live() if b.kind == "ante"})
        if not boxes:
            raise TapeteError("bad-document", "deal: no box holds an ante")
        hands: dict[str, list[str]] = {str(b): [] for b in boxes}
        hands["croupier"] = []
        if state.config["deal"] == "by-five":        # 000:1337 — five at a time, the croupier's the last five
            for b in boxes:
                hands[str(b)] = [self.draw(state) for _ in range(5)]
            hands["croupier"] = [self.draw(state) for _ in range(5)]
        else:                                        # 000:1335; 003:3137-3143 — one at a time, then the bank
            for _ in range(5):
                for b in boxes:
                    hands[str(b)].append(self.draw(state))
                hands["croupier"].append(self.draw(state))
        rnd.hands = hands
        up = hands["croupier"][0 if state.config["upcard"] == "first" else 4]
        rnd.data["upcard"] = up
        state.log.append(f"round {rnd.number}: no va más; cards dealt to box " + ", ".join(map(str, boxes))
                         + f"; the croupier shows {show([up])}")

    # -- decisions ---------------------------------------------------------------------------------
    def _seated(self, state: BankedState, box: int) -> BoxBet:
        return next(b for b in state.live() if b.box == box and b.kind == "ante")

    def decide(self, state: BankedState, rules: Rules, bet: BoxBet, act: Act) -> None:
        assert isinstance(rules, SinDescarteRules) and state.round is not None
        if act.do not in VERBS:
            raise TapeteError("illegal-action", f"{act.do!r} is not a decision of {self.id} ({', '.join(VERBS)})", bet=bet.id)
        if bet.kind != "ante":
            raise TapeteError("illegal-action", f"bet {bet.id}: a {bet.kind} bet takes no decision; the box's ante decides",
                              bet=bet.id)
        if self._seated(state, bet.box).id != bet.id:
            raise TapeteError("illegal-action", f"bet {bet.id}: the player seated at box {bet.box} decides for it",
                              bet=bet.id, source=own_citations("000:1267; 003:2974-2977", state.jurisdiction))
        done = [a["do"] for a in bet.acts]
        if "expose" in done:
            raise TapeteError("illegal-action", f"bet {bet.id}: the box has forfeited (cards shown)", bet=bet.id,
                              source=rules.sources["information_forfeit"])
        self.act_fields(act, ("cards",) if act.do == "buy" else (), bet.id)
        if act.do == "buy":
            self._buy(state, rules, bet, act, done)
        elif act.do in ("call", "fold"):
            if "call" in done or "fold" in done:
                raise TapeteError("illegal-action", f"bet {bet.id}: the box has already said voy or paso", bet=bet.id)
            bet.acts.append({"do": act.do})
        else:
            bet.acts.append({"do": "expose"})

    def _buy(self, state: BankedState, rules: SinDescarteRules, bet: BoxBet, act: Act, done: list[str]) -> None:
        if not state.config["purchase"]:
            raise TapeteError("illegal-action", f"bet {bet.id}: this table does not sell cards (table.card-purchase)",
                              bet=bet.id, source=rules.sources["card_purchase"])
        if bet.blind:
            raise TapeteError("illegal-action", f"bet {bet.id}: no card is bought for a blind box", bet=bet.id,
                              source="003:2990-2991")
        if done:
            raise TapeteError("illegal-action", f"bet {bet.id}: one card may be bought, before saying voy or paso",
                              bet=bet.id, source=f"{rules.sources['purchase_price']}; R: docs/rulings.md#sin-descarte-purchase")
        cards = self.card_list(act.fields.get("cards"), "buy.cards", bet.id)
        hand = state.round.hands[str(bet.box)] if state.round else []
        if len(cards) != 1:
            raise TapeteError("illegal-action", f"bet {bet.id}: exactly one card is discarded ('un solo naipe')",
                              bet=bet.id, source=rules.sources["card_purchase"])
        if cards[0] not in hand:
            raise TapeteError("bad-card", f"bet {bet.id}: {cards[0]} is not in box {bet.box}'s hand", bet=bet.id)
        bet.acts.append({"do": "buy", "cards": cards})

    def croupier_act(self, state: BankedState, rules: Rules, act: Act) -> None:
        assert state.round is not None
        card = self.exposed_card(state, act, "a card shown while dealing")
        if card == state.round.data.get("upcard"):
            raise TapeteError("illegal-action", f"{card} is the croupier's up-card: it is dealt face up")
        self._void(state, Void(f"{card} exposed while dealing"))

    def verbs_due(self, state: BankedState, bet: BoxBet) -> list[str]:
        if bet.kind != "ante" or self._seated(state, bet.box).id != bet.id:
            return []
        done = [a["do"] for a in bet.acts]
        if "expose" in done or "call" in done or "fold" in done:
            return []
        verbs = ["call", "fold"]
        if not done and state.config["purchase"] and not bet.blind:
            verbs.insert(0, "buy")
        return verbs

    # -- the showdown ------------------------------------------------------------------------------
    def void_stake(self, bet: BoxBet) -> int:
        return bet.amount       # purchases are drawn at the showdown: a void round has bought nothing (A-R10)

    def resolve(self, state: BankedState, rules: Rules) -> None:
        assert isinstance(rules, SinDescarteRules) and state.round is not None
        rnd = state.round
        boxes = sorted({b.box for b in state.live() if b.kind == "ante"})
        final: dict[int, tuple[list[str], str, bool]] = {}      # box -> (hand, decision, exposed)
        for box in boxes:                                       # VOCABULARY §0.2: purchases in box order
            seated = self._seated(state, box)
            hand = list(rnd.hands[str(box)])
            bought = next((a for a in seated.acts if a["do"] == "buy"), None)
            if bought:
                new = self.draw(state)
                hand[hand.index(bought["cards"][0])] = new
                state.log.append(f"box {box} buys a card for {euros(seated.amount)}: {show(bought['cards'])} out, "
                                 f"{show([new])} in")
            decision = next((a["do"] for a in seated.acts if a["do"] in ("call", "fold")), "fold")
            exposed = any(a["do"] == "expose" for a in seated.acts)
            final[box] = (hand, decision, exposed)
            rnd.hands[str(box)] = hand
        dealer = rnd.hands["croupier"]
        ds = strength(dealer)
        plays = qualifies(ds, dealer)
        state.log.append(f"the croupier turns up {show(dealer)}: {ev.describe(ds)}"
                         + ("" if plays else " — the bank does not play (no ace-king)"))
        strengths = {box: strength(hand) for box, (hand, _, _) in final.items()}
        for b in state.live():
            hand, decision, exposed = final[b.box]
            seated = self._seated(state, b.box)
            forfeits = exposed and b.player == seated.player
            if b.kind == "ante":
                self._settle_ante(state, rules, b, b is seated, decision, forfeits, strengths[b.box], ds, plays)
            elif b.kind == "insurance":
                self._settle_insurance(state, b, decision, forfeits, strengths[b.box])
        self._settle_jackpot(state, rules, final, strengths)

    def _settle_ante(self, state: BankedState, rules: SinDescarteRules, b: BoxBet, seated: bool, decision: str,
                     forfeits: bool, ps: int, ds: int, plays: bool) -> None:
        a = Fraction(b.amount)
        price = a if seated and any(x["do"] == "buy" for x in b.acts) else Fraction(0)
        call = a * rules.call_multiple if decision == "call" else Fraction(0)
        b.staked = a + call + price
        if forfeits:                                  # 000:1353; 003:3294-3298 — the whole bet to the bank
            b.returned, why = Fraction(0), "cards shown: the bet is lost"
        elif decision == "fold":                      # 000:1339; 003:3157-3160
            b.returned, why = Fraction(0), "paso: the ante is lost"
        elif not plays:                               # 000:1343; 003:3169-3171; A-R5
            b.returned, why = 2 * a + call, "the bank does not play: ante paid 1 to 1, call returned"
        elif ps > ds:                                 # 000:1345; 003:3173-3178
            mult = rules.call_pays[category_of(ps)]
            b.returned, why = 2 * a + call * (1 + mult), f"{ev.describe(ps)} wins: ante 1 to 1, call {mult} to 1"
        elif ps == ds:                                # 000:1295; 003:3045-3046
            b.returned, why = a + call, "a tie: the bets stay, no prize"
        else:
            b.returned, why = Fraction(0), f"{ev.describe(ps)} loses"
        state.log.append(f"{b.id} (box {b.box}): {why}")

    def _settle_insurance(self, state: BankedState, b: BoxBet, decision: str, forfeits: bool, ps: int) -> None:
        b.staked = Fraction(b.amount)
        mult = SEGURO_PAYS.get(category_of(ps))
        folded = decision == "fold" and not state.config["seguro-if-fold"]
        if forfeits and state.config["forfeit-side-bets"]:
            b.returned, why = Fraction(0), "lost with the bet (cards shown)"
        elif folded:
            b.returned, why = Fraction(0), "lost: the box folded (A-R6)"
        elif mult is not None:
            b.returned, why = b.staked * (1 + mult), f"{ev.describe(ps)}: {mult} to 1"
        else:
            b.returned, why = Fraction(0), "no seguro hand"
        state.log.append(f"{b.id} seguro (box {b.box}): {why}")

    def _settle_jackpot(self, state: BankedState, rules: SinDescarteRules, final: dict[int, tuple[list[str], str, bool]],
                        strengths: dict[int, int]) -> None:
        bets = carousel_bets(state)
        if not bets:
            return
        eligible = []
        for b in bets:
            _, decision, exposed = final[b.box]
            seated = self._seated(state, b.box)
            lost = (exposed and b.player == seated.player and state.config["forfeit-side-bets"]) or (
                decision == "fold" and not state.config["seguro-if-fold"])
            if not lost:
                eligible.append((b, strengths[b.box]))
        pay_carousel(state, bets, eligible, rules.jackpot_shares, rules.jackpot_fixed)
        state.log.append(f"the carousel meter now shows {euros(state.meter)}")


POKER_SIN_DESCARTE = register(PokerSinDescarte())
