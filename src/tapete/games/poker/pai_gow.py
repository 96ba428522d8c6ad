"""*Pai Gow póquer* (ES-AN only, 003:3739-3796, 003:3834-4041, 003:4126-4147): seven cards set as five and two.

Digest part D; docs/vocabulary.md §7. Each hand at the table, the croupier's included, gets seven cards of a 53-card
deck (52 + a joker) and is set as a big hand of five cards and a small hand of two, the big one always the higher
(003:4000-4003). Every hand is compared with the bank's two hands: both higher wins at par less the commission,
one higher is a push, anything else loses — copies go to the bank (003:4014-4041). A wrongly set hand loses
(003:4146-4147). The text gives the croupier no setting rule: the engine publishes its *house way* (below,
docs/rulings.md#pai-gow-house-way), which also sets every hand whose owner did not.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from tapete.core.errors import TapeteError
from tapete.core.money import euros
from tapete.engine.events import Act, Bet, Outcome
from tapete.engine.game import EdgeCase, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.rules import Rules
from tapete.games.poker import evaluator as ev
from tapete.games.poker.banked import (
    BankedGame,
    BankedState,
    BoxBet,
    check_keys,
    choice,
    is_int,
    minimum_of,
    percent,
    rounding_of,
    show,
)

R = "R: docs/rulings.md#"
SEATS = ("croupier", "1", "2", "3", "4", "5", "6")     # clockwise from the croupier (003:3979-3982)
STRAIGHT, FLUSH, STRAIGHT_FLUSH = ev.STRAIGHT, ev.FLUSH, ev.STRAIGHT_FLUSH

HOUSE_WAY = (
    "'standard' (after the Las Vegas dealer-school house way): no pair — highest card in the big hand, the next "
    "two in the small; one pair — the pair big, the next two highest small; two pair — split them (high pair big, "
    "low pair small) when one is aces, when both are jacks or better, or when neither rule below applies; keep "
    "them together with the two best singles small when both pairs are 6s or lower, or when a single ace (or the "
    "joker) can go small; three pair — the highest pair small; trío — big, two best singles small, three aces "
    "split as a pair big and an ace small; two tríos — the higher gives a pair to the small hand; full house — "
    "the pair small (two pair with the trío: the higher pair small), except deuces with an ace and a king, kept "
    "together; four of a kind — 2s-6s together, 7s-10s split unless an ace can go small, jacks-aces split, "
    "with a pair or a trío alongside that pair small; five aces — three aces big, two small, unless a pair can "
    "go small; straights, flushes and straight flushes (not with two pair, which follows the two-pair rule) — "
    "keep the five in the big hand with the best possible small hand, putting a pair small when the straight "
    "or flush survives; with one pair of 10s or better and an ace, pair big and ace small instead. A setting "
    "the rules would foul is replaced by the legal setting with the best small hand."
)


# ------------------------------------------------------------------------------------------------ house way

def make_house_way(s5: Callable[..., int], s2: Callable[..., int],
                   jit: Callable[[Callable[..., Any]], Any] = lambda f: f) -> Callable[..., tuple[int, int]]:
    """The house way over two strength functions, `s5(a, b, c, d, e, t)` and `s2(a, b, t)`; returns the positions (in the
    7-card array `c`) of the two cards set as the small hand.

    Written once, in plain loops over NumPy arrays, so that the engine runs it with the scalar evaluator and the
    simulation compiles the very same rules with Numba over lookup tables (tapete.analysis.banked_poker).
    Cards are ints (`rank * 4 + suit`, the joker 52); for grouping, the joker counts as an ace. `jit` compiles
    each helper (numba.njit in the simulation; nothing in the engine).
    """

    def _skip(m: int, lo: int, hi: int) -> int:
        """The m-th position (0..4) of seven once positions lo < hi are left out."""
        k = m + 1 if m >= lo else m
        return k + 1 if k >= hi else k

    _skip = jit(_skip)

    def high_of(c: np.ndarray, i: int, j: int, t: Any) -> int:
        """The strength of the five cards other than positions i and j."""
        lo, hi = (i, j) if i < j else (j, i)
        return s5(c[_skip(0, lo, hi)], c[_skip(1, lo, hi)], c[_skip(2, lo, hi)], c[_skip(3, lo, hi)],
                  c[_skip(4, lo, hi)], t)

    high_of = jit(high_of)

    def keep_straight(c: np.ndarray, r: np.ndarray, t: Any, pair_low: bool) -> tuple[int, int]:
        """Among legal settings whose big hand is a straight, flush or straight flush, the best small hand."""
        bi, bj, bl, bh = -1, -1, -1, -1
        for i in range(7):
            for j in range(i + 1, 7):
                if pair_low and r[i] != r[j]:
                    continue
                h = high_of(c, i, j, t)
                code = h >> 20
                if code != STRAIGHT and code != FLUSH and code != STRAIGHT_FLUSH:
                    continue
                lo = s2(c[i], c[j], t)
                if h > lo and (lo > bl or (lo == bl and h > bh)):
                    bi, bj, bl, bh = i, j, lo, h
        return bi, bj

    keep_straight = jit(keep_straight)

    def may_straight(c: np.ndarray) -> bool:
        """A cheap test: could seven cards hold a straight or a flush at all (the joker filling one gap)?"""
        s0 = s1 = s2_ = s3 = 0
        mask = 0
        extra = 0
        for k in range(7):
            if c[k] >= 52:
                extra = 1
            else:
                suit = c[k] & 3
                if suit == 0:
                    s0 += 1
                elif suit == 1:
                    s1 += 1
                elif suit == 2:
                    s2_ += 1
                else:
                    s3 += 1
                mask |= 1 << (c[k] >> 2)
        if max(s0, s1, s2_, s3) + extra >= 5:
            return True
        for top in range(3, 13):
            have = 0
            for rr in range(top - 4, top + 1):
                if (mask >> (12 if rr < 0 else rr)) & 1:
                    have += 1
            if have + extra >= 5:
                return True
        return False

    may_straight = jit(may_straight)

    def positions(r: np.ndarray, rank: int) -> np.ndarray:
        out = np.empty(5, np.int64)
        n = 0
        for k in range(7):
            if r[k] == rank:
                out[n] = k
                n += 1
        return out[:n]

    positions = jit(positions)

    def best_split(c: np.ndarray, p: np.ndarray, t: Any) -> tuple[int, int]:
        """Two of the group `p` to the small hand: the two that leave the best big hand."""
        bi, bj, bh = p[0], p[1], -1
        for x in range(p.shape[0]):
            for y in range(x + 1, p.shape[0]):
                h = high_of(c, p[x], p[y], t)
                if h > bh:
                    bi, bj, bh = p[x], p[y], h
        return bi, bj

    best_split = jit(best_split)

    def choose(c: np.ndarray, t: Any) -> tuple[int, int]:
        r = np.empty(7, np.int64)
        cnt = np.zeros(13, np.int64)
        for k in range(7):
            r[k] = 12 if c[k] >= 52 else c[k] >> 2
            cnt[r[k]] += 1
        # singles, highest first (insertion sort of at most seven positions)
        sing = np.empty(7, np.int64)
        ns = 0
        for k in range(7):
            if cnt[r[k]] == 1:
                x = ns
                while x > 0 and r[sing[x - 1]] < r[k]:
                    sing[x] = sing[x - 1]
                    x -= 1
                sing[x] = k
                ns += 1
        quad, t1, t2, p1, p2, p3 = -1, -1, -1, -1, -1, -1
        for rank in range(12, -1, -1):
            n = cnt[rank]
            if n >= 4 and quad < 0:
                quad = rank
            elif n == 3:
                if t1 < 0:
                    t1 = rank
                else:
                    t2 = rank
            elif n == 2:
                if p1 < 0:
                    p1 = rank
                elif p2 < 0:
                    p2 = rank
                else:
                    p3 = rank
        if cnt[12] == 5:                                   # five aces
            if p1 >= 0:
                pp = positions(r, p1)
                return pp[0], pp[1]
            aces = np.empty(4, np.int64)
            na = 0
            for k in range(7):
                if c[k] < 52 and r[k] == 12:
                    aces[na] = k
                    na += 1
            return aces[0], aces[1]
        if quad >= 0:                                      # four of a kind
            if t1 >= 0:
                pp = positions(r, t1)
                return best_split(c, pp, t)
            if p1 >= 0:
                pp = positions(r, p1)
                return pp[0], pp[1]
            if quad <= 4 or (quad <= 8 and r[sing[0]] == 12):
                return sing[0], sing[1]
            return best_split(c, positions(r, quad), t)
        if t2 >= 0:                                        # two tríos: the higher gives a pair
            return best_split(c, positions(r, t1), t)
        if t1 >= 0 and p1 >= 0:                            # full house
            if p2 >= 0:
                pp = positions(r, p1)
                return pp[0], pp[1]
            if p1 == 0 and r[sing[0]] == 12 and r[sing[1]] == 11:
                return sing[0], sing[1]
            pp = positions(r, p1)
            return pp[0], pp[1]
        if p3 >= 0:                                        # three pair
            pp = positions(r, p1)
            return pp[0], pp[1]
        sf = may_straight(c)
        if t1 >= 0:                                        # trío
            if sf:
                i, j = keep_straight(c, r, t, True)
                if i >= 0:
                    return i, j
            if t1 == 12:
                trio = positions(r, 12)
                bi, bh = trio[0], -1
                for x in range(3):
                    h = high_of(c, trio[x], sing[0], t)
                    if h > bh:
                        bi, bh = trio[x], h
                return bi, sing[0]
            return sing[0], sing[1]
        if p2 >= 0:                                        # two pair: the two-pair rule
            split = p1 == 12 or p2 >= 9
            if not split and not (p1 <= 4 or r[sing[0]] == 12):
                split = True
            if split:
                pp = positions(r, p2)
                return pp[0], pp[1]
            return sing[0], sing[1]
        if p1 >= 0:                                        # one pair
            if sf:
                i, j = keep_straight(c, r, t, True)
                if i >= 0:
                    return i, j
                if not (p1 >= 8 and r[sing[0]] == 12):
                    i, j = keep_straight(c, r, t, False)
                    if i >= 0:
                        return i, j
            return sing[0], sing[1]
        if sf:                                             # no pair
            i, j = keep_straight(c, r, t, False)
            if i >= 0:
                return i, j
        return sing[1], sing[2]

    choose = jit(choose)

    def house_way(c: np.ndarray, t: Any) -> tuple[int, int]:
        i, j = choose(c, t)
        if high_of(c, i, j, t) > s2(c[i], c[j], t):
            return i, j
        bi, bj, bl, bh = 5, 6, -1, -1                      # never for the default rules: a safety net
        for x in range(7):
            for y in range(x + 1, 7):
                h = high_of(c, x, y, t)
                lo = s2(c[x], c[y], t)
                if h > lo and (lo > bl or (lo == bl and h > bh)):
                    bi, bj, bl, bh = x, y, lo, h
        return bi, bj

    return jit(house_way)


def _s5(a: int, b: int, c: int, d: int, e: int, rules: ev.Rules) -> int:
    return ev.rank5([int(a), int(b), int(c), int(d), int(e)], rules)


def _s2(a: int, b: int, rules: ev.Rules) -> int:
    return ev.rank2([int(a), int(b)], rules)


_house_way_scalar = make_house_way(_s5, _s2)


def house_way(cards: list[str], rules: ev.Rules = ev.PAI_GOW) -> tuple[list[str], list[str]]:
    """The engine's house way for seven cards: (big hand, small hand), as card texts in the order given."""
    c = np.array(ev.parse_cards(cards), dtype=np.int64)
    i, j = _house_way_scalar(c, rules)
    low = [cards[i], cards[j]]
    return [x for k, x in enumerate(cards) if k not in (i, j)], low


# ------------------------------------------------------------------------------------------------ rules


@dataclass(frozen=True)
class PaiGowRules(Rules):
    deck: str
    joker: str
    hand_order: str
    straights: str
    small_hand: str
    setting: str
    foul: str
    copies: str
    results: str
    commission_max: Fraction
    maximum_multiple: int
    boxes: int
    dice: str
    dealing: str
    bank: str
    croupier_sets: str
    house_way: str
    irregularities: str


PAI_GOW_RULES: dict[str, PaiGowRules] = {
    "ES-AN": PaiGowRules(
        "ES-AN", {
            "deck": f"003:3777-3781; {R}banked-poker-fresh-deck", "joker": f"003:3779-3781; 003:3766-3768; {R}pai-gow-joker",
            "hand_order": "003:3880-3927", "straights": f"003:3891-3895; 003:3907-3910; {R}pai-gow-straights",
            "small_hand": f"003:3748-3751; 003:3766-3768; {R}pai-gow-ties", "setting": f"003:4000-4003; {R}pai-gow-setting",
            "foul": "003:4146-4147", "copies": f"003:3757-3764; {R}pai-gow-copies", "results": "003:4014-4041",
            "commission_max": "003:3770-3773; 003:3944-3949", "maximum_multiple": "003:3941-3942",
            "boxes": "003:3783-3791; 003:3868-3871", "dice": f"003:3968-3982; {R}pai-gow-dice",
            "dealing": f"003:3979-3989; {R}pai-gow-dice", "bank": f"003:3991-3998; 003:4014-4017; {R}pai-gow-player-bank",
            "croupier_sets": "003:4005-4012", "house_way": f"{R}pai-gow-house-way",
            "irregularities": f"003:4137-4147; {R}pai-gow-misdeal",
        },
        deck="52 French cards and one joker, one freshly shuffled deck per round",
        joker="an ace, or any card completing a straight, flush or straight flush (table option paigow-joker-mode)",
        hand_order="five aces > royal flush > straight flush > four of a kind > full house > flush > straight > "
        "trío > two pair > pair > high card",
        straights="A-K-Q-J-10 > A-2-3-4-5 > K-high > ... > 6-high (the text's 8-9-10-J-Q read as A-K-Q-J-10)",
        small_hand="a pair or two high cards; the best is a pair of aces (the joker plays as an ace)",
        setting="big hand of five above small hand of two", foul="a wrongly set hand loses automatically",
        copies="a copied hand goes to the bank", results="both hands higher: won at par less commission; one higher "
        "and one lower or copied: push; otherwise lost", commission_max=Fraction(5, 100), maximum_multiple=25,
        boxes=6, dice="three dice; counting from the bank's position as 1, sums 1, 8 and 15 give the bank the first "
        "hand", dealing="seven cards to each hand with a bet, the croupier's included, clockwise from the dice's "
        "position", bank="the croupier, or a player who accepts it in turn (a `bank` bet)",
        croupier_sets="face up, after every other hand is set", house_way=HOUSE_WAY,
        irregularities="touching or showing cards is prohibited with no sanction stated; misdeals not addressed"),
}

KINDS = ("main", "bank")


def strengths(high: list[str], low: list[str], rules: ev.Rules) -> tuple[int, int]:
    return ev.rank5(high, rules), ev.rank2(low, rules)


def compare(player: tuple[int, int], bank: tuple[int, int]) -> str:
    """003:4014-4041 — 'won' (both higher), 'push' (one higher), 'lost' (none higher: copies go to the bank)."""
    higher = (player[0] > bank[0]) + (player[1] > bank[1])
    return ("lost", "push", "won")[higher]


class PaiGow(BankedGame):
    id = "pai-gow"
    name_es = "Pai Gow póquer"
    name_en = "Pai Gow poker"
    outcome_names = ("roll",)
    jokers = 1
    live_jokers = 1                               # 52 French cards and one joker (003:3777-3781)
    extra_bet_fields = frozenset({"box"})
    extra_act_fields = frozenset({"high", "low", "amount"})
    kind_names = KINDS
    deck_source = "003:3777-3781"

    @property
    def rules(self) -> dict[str, PaiGowRules]:  # type: ignore[override]
        return PAI_GOW_RULES

    def kinds(self) -> list[KindInfo]:
        return [
            KindInfo("main", "1:1", "Apuesta inicial on a box (1-6): both hands above the bank's win at par less the "
                     "commission; one above is a push; copies go to the bank"),
            KindInfo("bank", None, "A player holding the bank (the white cylinder) on his box: `amount` is his bank, "
                     "which must cover the bets; he settles as the croupier's side would, commission on his net win"),
        ]

    def verbs(self) -> list[str]:
        return ["set"]

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="authorised minimum bet, cents"),
            TableKey("maximum", default=None, description="always 25 x the minimum (003:3941-3942)"),
            TableKey("commission", default=5, description="percent of each win kept by the house, at most 5, announced"),
            TableKey("house-way", default="standard", description="the setting rule for the croupier and for "
                     "defaults (docs/rulings.md#pai-gow-house-way)"),
            TableKey("paigow-joker-mode", default="ace-or-completes", description="'ace-or-completes' (reading a) or "
                     "'ace-only' (the literal reading b; docs/rulings.md#pai-gow-joker)"),
            TableKey("house-stake", default=0, description="with a player bank: what the croupier's own hand stakes "
                     "against it, cents (docs/rulings.md#pai-gow-player-bank)"),
            TableKey("rounding", default="player", description="docs/format.md's rounding policy"),
        ]

    # -- analysis ----------------------------------------------------------------------------------
    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        return [EdgeCase("main", option="house-way"), EdgeCase("bank", option="house-way")]

    # -- the table ---------------------------------------------------------------------------------
    def configure(self, rules: Rules, table: Mapping[str, Any]) -> dict[str, Any]:
        assert isinstance(rules, PaiGowRules)
        check_keys(self.id, table, [t.key for t in self.table_keys()])
        rounding_of(table)
        m = minimum_of(table)
        maximum = table.get("maximum", rules.maximum_multiple * m)
        if maximum != rules.maximum_multiple * m:
            raise TapeteError("bad-table", f"the maximum is always {rules.maximum_multiple} x the minimum",
                              source=rules.sources["maximum_multiple"])
        rate = table.get("commission", 5)
        if not 0 <= percent(rate, "commission") <= rules.commission_max:
            raise TapeteError("bad-table", "the commission may never exceed 5% of the win",
                              source=rules.sources["commission_max"])
        stake = table.get("house-stake", 0)
        if not is_int(stake) or stake < 0:
            raise TapeteError("bad-document", "table.house-stake is an amount in cents")
        return {"minimum": m, "maximum": maximum, "commission": str(rate),
                "house-way": choice(table, "house-way", ("standard",), "standard"),
                "joker": choice(table, "paigow-joker-mode", ("ace-or-completes", "ace-only"), "ace-or-completes",
                                rules.sources["joker"]),
                "house-stake": stake}

    @staticmethod
    def hand_rules(state: BankedState) -> ev.Rules:
        return ev.PAI_GOW if state.config["joker"] == "ace-or-completes" else ev.PAI_GOW_LITERAL

    # -- bets --------------------------------------------------------------------------------------
    def place(self, state: BankedState, rules: Rules, bet: Bet) -> BoxBet:
        assert isinstance(rules, PaiGowRules) and state.round is not None
        box = self.box_of(bet, rules.boxes, rules.sources["boxes"])
        if state.round.data.get("roll") is not None:
            raise TapeteError("bet-closed", f"bet {bet.id}: the dice are thrown, bets are closed", bet=bet.id)
        live = state.live()
        if any(b.box == box for b in live):
            raise TapeteError("box-full", f"bet {bet.id}: box {box} already has its bet (one hand per box)",
                              bet=bet.id, source=rules.sources["boxes"])
        cfg = state.config
        if bet.kind == "bank":
            if any(b.kind == "bank" for b in live):
                raise TapeteError("illegal-action", f"bet {bet.id}: the bank is already held this round", bet=bet.id,
                                  source=rules.sources["bank"])
        else:
            if bet.amount < cfg["minimum"]:
                raise TapeteError("under-minimum", f"bet {bet.id} ({bet.amount}) is under the minimum of {cfg['minimum']}",
                                  bet=bet.id, source="003:3963-3966")
            if bet.amount > cfg["maximum"]:
                raise TapeteError("over-maximum", f"bet {bet.id} ({bet.amount}) exceeds the maximum of {cfg['maximum']}",
                                  bet=bet.id, source=rules.sources["maximum_multiple"])
        return BoxBet(bet.id, bet.player, bet.kind, box, bet.amount, state.round.number)

    def outcome(self, state: BankedState, rules: Rules, event: Outcome) -> None:
        assert isinstance(rules, PaiGowRules)
        self._end_dealt(state, rules)
        dice = event.value
        if event.name != "roll" or not isinstance(dice, list) or len(dice) != 3 or not all(
                is_int(d) and 1 <= d <= 6 for d in dice):
            raise TapeteError("bad-document", "roll: three dice, each 1-6", source=rules.sources["dice"])
        rnd = state.round
        if rnd is None or not state.live():
            raise TapeteError("bad-document", "roll: the dice are thrown after the bets", source=rules.sources["dice"])
        if rnd.data.get("roll") is not None:
            raise TapeteError("illegal-action", "the dice are thrown once a round", source=rules.sources["dice"])
        rnd.data["roll"] = sum(dice)
        rnd.closed = True
        state.log.append(f"no va más; the dice show {dice[0]}-{dice[1]}-{dice[2]} = {sum(dice)}")

    # -- the deal ----------------------------------------------------------------------------------
    def seating(self, state: BankedState) -> list[str]:
        """The hands in dealing order (003:3975-3982; D-R5): positions counted clockwise from the bank's seat as 1,
        the first hand to position ((s - 1) mod 7) + 1, then clockwise, empty boxes skipped."""
        live = state.live()
        bank = next((str(b.box) for b in live if b.kind == "bank"), "croupier")
        taken = {"croupier"} | {str(b.box) for b in live}
        start = SEATS.index(bank)
        ring = [SEATS[(start + k) % 7] for k in range(7)]
        s = state.round.data.get("roll") if state.round else None
        first = ((s or 1) - 1) % 7
        order = [ring[(first + k) % 7] for k in range(7)]
        return [seat for seat in order if seat in taken]

    def deal(self, state: BankedState, rules: Rules) -> None:
        rnd = state.round
        assert rnd is not None
        order = self.seating(state)
        for seat in order:
            rnd.hands[seat] = [self.draw(state) for _ in range(7)]
        rnd.data["settings"] = {}
        bank = next((str(b.box) for b in state.live() if b.kind == "bank"), "croupier")
        holder = next((b for b in state.live() if b.kind == "bank"), None)
        if holder is not None:      # D-R6: a player's bank covers every bet it faces
            cover = sum(b.amount for b in state.live() if b.kind == "main") + state.config["house-stake"]
            if cover > holder.amount:
                raise TapeteError("over-maximum", f"bet {holder.id}: a bank of {holder.amount} cannot cover {cover} of bets",
                                  bet=holder.id, source=rules.sources["bank"])
        rnd.data["bank"] = bank
        state.log.append(f"round {rnd.number}: seven cards to " + ", ".join(
            "the croupier" if s == "croupier" else f"box {s}" for s in order)
            + ("; the croupier holds the bank" if bank == "croupier" else f"; box {bank} holds the bank"))

    # -- setting -----------------------------------------------------------------------------------
    def _set(self, state: BankedState, rules: PaiGowRules, seat: str, act: Act, bet: str | None) -> None:
        rnd = state.round
        assert rnd is not None
        if act.do != "set":
            raise TapeteError("illegal-action", f"{act.do!r} is not a Pai Gow decision (set)", bet=bet)
        self.act_fields(act, ("high", "low"), bet)
        if seat in rnd.data["settings"]:
            raise TapeteError("illegal-action", "this hand is already set", bet=bet, source=rules.sources["setting"])
        high = self.card_list(act.fields.get("high"), "set.high", bet)
        low = self.card_list(act.fields.get("low"), "set.low", bet)
        hand = rnd.hands[seat]
        for card in high + low:
            if card not in hand:
                raise TapeteError("bad-card", f"{card} is not in the hand set ({show(hand)})", bet=bet)
        if set(high) & set(low):
            raise TapeteError("bad-card", f"{sorted(set(high) & set(low))} named in both hands", bet=bet)
        hr = self.hand_rules(state)
        foul = len(high) != 5 or len(low) != 2 or ev.rank5(high, hr) <= ev.rank2(low, hr)
        if foul and seat == "croupier":
            raise TapeteError("illegal-action", "the croupier's setting is foul (a big hand of five above a small hand "
                              "of two); the text says nothing of a fouled bank hand", source=f"{rules.sources['setting']}; "
                              "R: docs/rulings.md#pai-gow-fouled-bank")
        rnd.data["settings"][seat] = {"high": high, "low": low, "foul": foul}

    def decide(self, state: BankedState, rules: Rules, bet: BoxBet, act: Act) -> None:
        assert isinstance(rules, PaiGowRules)
        self._set(state, rules, str(bet.box), act, bet.id)

    def croupier_act(self, state: BankedState, rules: Rules, act: Act) -> None:
        assert isinstance(rules, PaiGowRules)
        if act.by != "croupier":
            raise TapeteError("bad-document", f"pai-gow: 'by' names the croupier's hand, not {act.by!r}")
        self._set(state, rules, "croupier", act, None)

    def verbs_due(self, state: BankedState, bet: BoxBet) -> list[str]:
        assert state.round is not None
        return [] if str(bet.box) in state.round.data.get("settings", {}) else ["set"]

    # -- the showdown ------------------------------------------------------------------------------
    def setting_of(self, state: BankedState, seat: str) -> tuple[list[str], list[str], bool]:
        rnd = state.round
        assert rnd is not None
        found = rnd.data["settings"].get(seat)
        if found is None:
            high, low = house_way(rnd.hands[seat], self.hand_rules(state))
            rnd.data["settings"][seat] = found = {"high": high, "low": low, "foul": False, "house-way": True}
        return found["high"], found["low"], found["foul"]

    def resolve(self, state: BankedState, rules: Rules) -> None:
        assert isinstance(rules, PaiGowRules) and state.round is not None
        rnd, hr = state.round, self.hand_rules(state)
        rate = percent(state.config["commission"], "commission")
        bank_seat = rnd.data["bank"]
        seats = [s for s in SEATS if s in rnd.hands]
        for seat in [s for s in seats if s != bank_seat] + [bank_seat]:      # the bank sets last (003:4005-4012)
            high, low, foul = self.setting_of(state, seat)
            who = "croupier" if seat == "croupier" else f"box {seat}"
            how = " (house way)" if rnd.data["settings"][seat].get("house-way") else ""
            state.log.append(f"{who} sets {show(high)} / {show(low)}{how}" + (" — FOUL: loses" if foul else ""))
        bh, bl, bfoul = self.setting_of(state, bank_seat)
        bank_s = strengths(bh, bl, hr)
        net = Fraction(0)                                 # the bank's result
        opponents: list[tuple[str, Fraction, BoxBet | None]] = [
            (str(b.box), Fraction(b.amount), b) for b in state.live() if b.kind == "main"]
        if bank_seat != "croupier" and state.config["house-stake"]:
            opponents.insert(0, ("croupier", Fraction(state.config["house-stake"]), None))  # 003:4014-4017
        for seat, stake, b in opponents:
            ph, pl, pfoul = self.setting_of(state, seat)
            if pfoul:                                     # 003:4146-4147
                result = "lost"
            elif bfoul:                                   # D-R10: a fouled player bank loses to every set hand
                result = "won"
            else:
                result = compare(strengths(ph, pl, hr), bank_s)
            fee = stake * rate if result == "won" else Fraction(0)
            state.commission += fee
            back = {"won": 2 * stake - fee, "push": stake, "lost": Fraction(0)}[result]
            net += {"won": -stake, "push": Fraction(0), "lost": stake}[result]
            if b is not None:
                b.staked, b.returned = stake, back
                state.log.append(f"{b.id} (box {seat}): " + {"won": f"both hands higher: won, commission {euros(fee)}",
                                                            "push": "one hand each way: push",
                                                            "lost": "lost" + (" (foul)" if pfoul else "")}[result])
            else:
                state.log.append(f"the croupier's hand against the bank ({euros(stake)}): {result}")
        bank = next((b for b in state.live() if b.kind == "bank"), None)
        if bank is not None:
            fee = net * rate if net > 0 else Fraction(0)
            state.commission += fee
            bank.staked, bank.returned = Fraction(bank.amount), bank.amount + net - fee
            state.log.append(f"{bank.id} (the bank, box {bank.box}): net {euros(net)}"
                             + (f", commission {euros(fee)}" if fee else ""))


PAI_GOW = register(PaiGow())
