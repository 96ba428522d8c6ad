"""Lototrot (ES-IB, 000:1703-1867): the Balearic off-course trotting pool — pick the winners of 7 races.

A mutual bet (000:1713): at least 60 % of the day's stakes go to prizes (000:1777), split into the categories
7/7, 6/7, 5/7 and 4/7 (000:1783-1793) by a table that depends on the 7/7 amount brought into the day
(000:1805-1825); categories without winners roll down (000:1829), each category is shared in equal parts
(000:1831), and a lower category never pays more per winner than a higher one (000:1833-1835).
`settle_day` is the daily settlement algorithm of spec C.1.6; the reducer grades the document's tickets and
asks it for their prizes.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tapete.core.errors import TapeteError
from tapete.core.money import euros
from tapete.engine.events import Act, Bet, Close, Deal, Event, Limits, Outcome, Void
from tapete.engine.game import Action, Game, KindInfo, TableKey
from tapete.engine.registry import register
from tapete.engine.rules import Rules
from tapete.engine.settlement import BetResult, Settlement
from tapete.games.pools import cents_down, parse_percentage

CATEGORIES = ("7", "6", "5", "4")
R = "R: docs/rulings.md#"


@dataclass(frozen=True)
class LototrotRules(Rules):
    price_minimum: int                    # cents
    price_maximum: int
    prize_percentage_minimum: int         # percent of the day's stakes
    races: int
    categories: tuple[int, ...]
    cumulative: bool                      # does a 7/7 ticket also win 6/7? (no)
    jackpot_threshold: int                # cents: the 7/7 amount that switches the split table
    split_below: Mapping[str, int]        # percent of the prize fund per category
    split_above: Mapping[str, int]        # ... with 'reserve', the 7/7 reserve fund
    threshold_equal: str                  # J exactly at the threshold (table option threshold-equal)
    roll_down: str
    category_shares: str
    inversion: str
    reserve_paid: str                     # which reserve a winning day pays (table option reserve-paid)
    dead_heat: str
    scratched: str
    not_run: str
    betting_close: str
    result_final: str
    fund_rounding: str
    remainder: str                        # where the truncated cents go (table option remainder)
    payment_from: str
    payment_places: str
    payment_means: str
    presentation_days: int
    unclaimed: str
    refunds: str


RULES = LototrotRules(
    jurisdiction="ES-IB",
    price_minimum=50, price_maximum=600, prize_percentage_minimum=60, races=7, categories=(7, 6, 5, 4),
    cumulative=False, jackpot_threshold=15_000_000,
    split_below={"7": 30, "6": 20, "5": 20, "4": 30},
    split_above={"7": 20, "6": 20, "5": 20, "4": 30, "reserve": 10},
    threshold_equal="below",
    roll_down="6/7 to 5/7 to 4/7 to the 7/7 reserve fund; 7/7 accumulates to the next day",
    category_shares="equal parts among a category's winners",
    inversion="half-and-half top-down pass, then pool the categories still inverted",
    reserve_paid="earlier",
    dead_heat="a pick on any of the dead-heated winners is right",
    scratched="the pick passes to the next higher starter, wrapping round to the lowest",
    not_run="winner drawn in public among the starters, certified by a controller",
    betting_close="at the latest the confirmed start of the first race of the bet",
    result_final="the stewards' classification on the race day; later changes have no effect",
    fund_rounding="prize fund = percentage of the stakes rounded up to the cent",
    remainder="jackpot",
    payment_from="the day after the official result",
    payment_places="up to 120 €: any outlet; over 120 and under 300 €: outlet or central office; from 300 €: central office",
    payment_means="cash; nominative cheque over 1,000 €",
    presentation_days=30,
    unclaimed="to the 7/7 amount of the first race day after the ticket expired",
    refunds="none automatic: only on the authority's decision ({\"void\": reason})",
    sources={
        "price_minimum": "000:1745", "price_maximum": "000:1745", "prize_percentage_minimum": "000:1777; 000:1779",
        "races": "000:1783-1791", "categories": "000:1783-1791", "cumulative": "000:1793",
        "jackpot_threshold": "000:1805; 000:1815", "split_below": "000:1805-1813", "split_above": "000:1815-1825",
        "threshold_equal": f"000:1805; 000:1815; {R}lototrot-threshold-equal",
        "roll_down": f"000:1829; {R}lototrot-roll-down", "category_shares": "000:1831",
        "inversion": f"000:1833-1835; {R}lototrot-inversion",
        "reserve_paid": f"000:1837; {R}lototrot-reserve-paid", "dead_heat": "000:1839",
        "scratched": f"000:1765-1767; {R}lototrot-scratched-wrap",
        "not_run": f"000:1769-1773; {R}lototrot-race-not-run", "betting_close": "000:1753",
        "result_final": "000:1761; 000:1797-1799", "fund_rounding": f"000:1777; 000:1803; {R}lototrot-rounding",
        "remainder": f"{R}lototrot-rounding", "payment_from": "000:1797; 000:1845",
        "payment_places": f"000:1847-1851; {R}pools-payment-tiers",
        "payment_means": f"000:1863; {R}pools-payment-tiers", "presentation_days": "000:1853; 000:1859",
        "unclaimed": "000:1865-1867", "refunds": f"000:1739; 000:1855-1857; {R}lototrot-refunds",
    },
)

OPTIONS = {"threshold-equal": ("below", "above"), "reserve-paid": ("earlier", "all"), "remainder": ("jackpot", "organiser")}


@dataclass
class Race:
    """One race of the result: the programme's runners 1..N, the scratched, the official winners."""

    runners: int
    scratched: list[int]
    winners: list[int]           # first place; several on a dead heat (000:1839)
    drawn: bool = False          # not run (or suspended, or all disqualified): drawn in public (000:1769-1773)
    certificate: str | None = None

    def starters(self) -> list[int]:
        return [h for h in range(1, self.runners + 1) if h not in self.scratched]

    def counts_as(self, pick: int) -> int:
        """The horse a pick stands for: a scratched horse's bet passes to the next higher starter, and past the
        last number counting "continues with number one" (000:1765-1767; R: docs/rulings.md#lototrot-scratched-wrap)."""
        starters = self.starters()
        if pick in starters:
            return pick
        higher = [s for s in starters if s > pick]
        return higher[0] if higher else starters[0]


@dataclass
class Ticket:
    id: str
    player: str
    amount: int
    picks: list[int]
    correct: int | None = None
    category: str | None = None
    prize: int = 0


@dataclass
class PoolDay:
    """One jornada's settlement (spec C.1.6), every figure in cents; `amounts` exact before truncation."""

    staked: int
    percentage: Fraction
    fund: int
    house: int
    jackpot_in: int
    reserve_in: int
    above_threshold: bool
    split: dict[str, Fraction]
    winners: dict[str, int]
    amounts: dict[str, Fraction]          # per category after roll-down, before the inversion check
    per_winner: dict[str, int]            # what each winner is paid
    paid: int
    jackpot_out: int
    reserve_out: int
    remainder: int                        # truncated cents (to the next 7/7, or the organiser)
    notes: list[str] = field(default_factory=list)
    facts: list[tuple[str, dict[str, Any]]] = field(default_factory=list)   # the notes as (catalog key, values)


@dataclass
class LototrotState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    minimum: int
    percentage: Fraction
    jackpot: int
    reserve: int
    runners: list[int] | None
    threshold_equal: str
    reserve_paid: str
    remainder: str
    tickets: dict[str, Ticket] = field(default_factory=dict)
    closed: bool = False
    voided: str | None = None
    races: list[Race] | None = None
    day: PoolDay | None = None
    log: list[str] = field(default_factory=list)


# -- the day's arithmetic ------------------------------------------------------------------------------------

def order_prizes(amounts: Mapping[str, Fraction], winners: Mapping[str, int]) -> dict[str, Fraction]:
    """Per-winner prizes that never increase going down the categories (000:1833-1835).

    Only categories with winners are compared, adjacent in that list (D-5). Step (a): one top-down pass; where
    the lower pays more per winner, both categories get half their joint amount. Step (b): categories still
    inverted are pooled and share their joint amount by their joint winners, until the order holds (D-6).
    R: docs/rulings.md#lototrot-inversion
    """
    cats = [k for k in CATEGORIES if winners.get(k, 0) > 0]
    amount = {k: Fraction(amounts[k]) for k in cats}
    for upper, lower in zip(cats, cats[1:], strict=False):
        if amount[lower] / winners[lower] > amount[upper] / winners[upper]:
            amount[upper] = amount[lower] = (amount[upper] + amount[lower]) / 2
    groups = [[k] for k in cats]

    def per(group: list[str]) -> Fraction:
        return sum((amount[k] for k in group), Fraction(0)) / sum(winners[k] for k in group)

    merged = True
    while merged:
        merged = False
        for i in range(len(groups) - 1):
            if per(groups[i + 1]) > per(groups[i]):
                groups[i:i + 2] = [groups[i] + groups[i + 1]]
                merged = True
                break
    return {k: per(g) for g in groups for k in g}


def settle_day(staked: int, percentage: Fraction, jackpot: int, reserve: int, winners: Mapping[str, int], *,
               threshold_equal: str = "below", reserve_paid: str = "earlier", remainder: str = "jackpot",
               rules: LototrotRules = RULES) -> PoolDay:
    """Spec C.1.6 for one jornada and one bet type; money in = money out, to the cent.

    paid + house + jackpot_out + reserve_out == staked + jackpot + reserve.
    """
    n = {k: int(winners.get(k, 0)) for k in CATEGORIES}
    fund = math.ceil(Fraction(staked) * percentage / 100)          # R: docs/rulings.md#lototrot-rounding
    house = staked - fund
    above = jackpot > rules.jackpot_threshold or (jackpot == rules.jackpot_threshold and threshold_equal == "above")
    table = rules.split_above if above else rules.split_below       # 000:1805-1825
    split = {k: Fraction(fund * v, 100) for k, v in table.items()}
    own_reserve = split.get("reserve", Fraction(0))
    amounts = {k: split[k] for k in CATEGORIES}
    amounts["7"] += jackpot                                           # 000:1827: the accumulated amount on top
    notes: list[str] = []
    facts: list[tuple[str, dict[str, Any]]] = []
    if n["7"]:                                                        # 000:1837 (D-3)
        amounts["7"] += reserve
        new_reserve = own_reserve
        if reserve_paid == "all":
            amounts["7"] += own_reserve
            new_reserve = Fraction(0)
        if reserve:
            notes.append(f"the reserve fund ({euros(reserve)}) goes to the 7/7 winners (000:1837)")
            facts.append(("pool.note.reserve", {"amount": reserve}))
        carried = Fraction(0)
    else:
        new_reserve = reserve + own_reserve
        carried = amounts["7"]                                        # 000:1829: accumulates to the next day
        amounts["7"] = Fraction(0)
        notes.append(f"no 7/7 winner: {euros(math.floor(carried))} accumulates to the next day (000:1829)")
        facts.append(("pool.note.no-7", {"amount": math.floor(carried)}))
    for upper, lower in (("6", "5"), ("5", "4")):                     # 000:1829 (D-4)
        if not n[upper]:
            if amounts[upper]:
                notes.append(f"no {upper}/7 winner: its {euros(math.floor(amounts[upper]))} rolls down to {lower}/7 (000:1829)")
                facts.append(("pool.note.rolls", {"upper": upper, "lower": lower, "amount": math.floor(amounts[upper])}))
            amounts[lower] += amounts[upper]
            amounts[upper] = Fraction(0)
    if not n["4"]:
        if amounts["4"]:
            notes.append(f"no 4/7 winner: its {euros(math.floor(amounts['4']))} goes to the 7/7 reserve fund (000:1829)")
            facts.append(("pool.note.no-4", {"amount": math.floor(amounts["4"])}))
        new_reserve += amounts["4"]
        amounts["4"] = Fraction(0)
    exact = order_prizes(amounts, n)
    raw = {k: amounts[k] / n[k] for k in exact}
    if any(exact[k] != raw[k] for k in exact):
        notes.append("a lower category paid more per winner than a higher one: prizes evened out (000:1833-1835)")
        facts.append(("pool.note.evened", {}))
    per_winner = {k: cents_down(exact[k]) if k in exact else 0 for k in CATEGORIES}           # D-8
    paid = sum(per_winner[k] * n[k] for k in CATEGORIES)
    reserve_out = math.floor(new_reserve)
    rest = staked + jackpot + reserve - house - paid - reserve_out    # an integer: every cent is somewhere
    carried_cents = math.floor(carried)
    cents_left = rest - carried_cents
    if remainder == "organiser":
        house += cents_left
        jackpot_out = carried_cents
    else:                                                             # D-8: to the next day's 7/7 amount
        jackpot_out = rest
    return PoolDay(staked, percentage, fund, house, jackpot, reserve, above, split, dict(n), amounts, per_winner,
                   paid, jackpot_out, reserve_out, cents_left, notes, facts)


# -- the reducer ---------------------------------------------------------------------------------------------

class LototrotGame(Game):
    id = "lototrot"
    name_es = "Lototrot (apuestas hípicas externas)"
    name_en = "Lototrot (off-course trotting pool)"
    outcome_names = ("result",)

    @property
    def rules(self) -> dict[str, LototrotRules]:  # type: ignore[override]
        return {"ES-IB": RULES}

    def state_type(self) -> type:
        return LototrotState

    def kinds(self) -> list[KindInfo]:
        return [KindInfo("pick-7", "pari-mutuel", "Apuesta Lototrot: the winners of 7 races, on = 7 horse numbers in race order")]

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="the organiser's ticket price floor, 50-600 cents (000:1745)"),
            TableKey("prize-percentage", default=60, description="share of the stakes to prizes, at least 60 (000:1777)"),
            TableKey("jackpot", default=0, description="the 7/7 amount J brought into the day, cents (D-2)"),
            TableKey("reserve", default=0, description="the 7/7 reserve fund R brought in, cents"),
            TableKey("runners", default=None, description="the programme: runners per race (7 numbers); checks tickets as sold"),
            TableKey("threshold-equal", default="below", description="J exactly 150,000 €: 'below' (30/20/20/30) or 'above' (D-1)"),
            TableKey("reserve-paid", default="earlier", description="a winning day pays the reserve of 'earlier' days or 'all' (D-3)"),
            TableKey("remainder", default="jackpot", description="truncated cents go to the next 'jackpot' or the 'organiser' (D-8)"),
        ]

    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> LototrotState:
        self.rules_for(jurisdiction)
        if shoe is not None:
            raise TapeteError("bad-document", "lototrot is not a card game: a shoe is not accepted")
        known = {t.key for t in self.table_keys()}
        unknown = set(table) - known
        if unknown:
            raise TapeteError("bad-document", f"unknown table keys {sorted(unknown)} for lototrot (known: {', '.join(sorted(known))})")
        minimum = table.get("minimum")
        if not _is_int(minimum):
            raise TapeteError("bad-document", "table.minimum (the ticket price floor, cents) is required")
        if not RULES.price_minimum <= minimum <= RULES.price_maximum:
            raise TapeteError("bad-table", f"the ticket price is set between {euros(RULES.price_minimum)} and "
                              f"{euros(RULES.price_maximum)}", source=RULES.sources["price_minimum"])
        pct = parse_percentage(table.get("prize-percentage", 60), "prize-percentage")
        if not RULES.prize_percentage_minimum <= pct <= 100:
            raise TapeteError("bad-table", f"prize-percentage {float(pct):g} is below the legal 60 % (or above 100)",
                              source=RULES.sources["prize_percentage_minimum"])
        amounts = {}
        for key in ("jackpot", "reserve"):
            value = table.get(key, 0)
            if not _is_int(value) or value < 0:
                raise TapeteError("bad-table", f"table.{key} is an amount in cents, 0 or more")
            amounts[key] = value
        runners = table.get("runners")
        if runners is not None and (not isinstance(runners, list) or len(runners) != RULES.races
                                    or not all(_is_int(r) and r >= 1 for r in runners)):
            raise TapeteError("bad-table", "table.runners lists the runners of each of the 7 races", source=RULES.sources["races"])
        choices = {}
        for key, allowed in OPTIONS.items():
            value = table.get(key, allowed[0])
            if value not in allowed:
                raise TapeteError("bad-table", f"table.{key} is one of {', '.join(allowed)}")
            choices[key.replace("-", "_")] = value
        return LototrotState(self.id, jurisdiction, dict(table), minimum, pct, amounts["jackpot"], amounts["reserve"],
                             runners, **choices)

    def step(self, state: LototrotState, event: Event) -> LototrotState:
        """Pure without a deep copy of a day's tickets: tickets and races are replaced, never changed."""
        new = copy.copy(state)
        new.tickets = dict(state.tickets)
        new.log = list(state.log)
        self.apply(new, event)
        return new

    def apply(self, state: LototrotState, event: Event) -> None:
        if isinstance(event, Bet):
            self._ticket(state, event)
        elif isinstance(event, Close):
            state.closed = True
            state.log.append("bets closed: the first race has started (000:1753)")
        elif isinstance(event, Outcome):
            self._result(state, event)
        elif isinstance(event, Void):
            self._void(state, event)
        elif isinstance(event, Act | Deal | Limits):
            raise TapeteError("bad-document", f"lototrot has no {type(event).__name__.lower()} event")
        else:  # pragma: no cover - the parser builds only the events above
            raise TapeteError("bad-document", f"unexpected event {event!r}")

    def _ticket(self, state: LototrotState, bet: Bet) -> None:
        if state.closed or state.races is not None or state.voided:
            raise TapeteError("bet-closed", f"ticket {bet.id} refused: betting closed at the start of the first race",
                              source=RULES.sources["betting_close"], bet=bet.id)
        if bet.id in state.tickets:
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.kind != "pick-7":
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: lototrot has one bet type, pick-7 (the winners of 7 races)",
                              source=RULES.sources["races"], bet=bet.id)
        picks = self._picks(bet)
        if state.runners is not None:
            for race, pick in enumerate(picks, 1):
                self._check_pick(bet.id, race, pick, state.runners[race - 1])
        if bet.amount < state.minimum:
            raise TapeteError("under-minimum", f"ticket {bet.id} ({euros(bet.amount)}) is under the price of {euros(state.minimum)}",
                              source=RULES.sources["price_minimum"], bet=bet.id)
        if bet.amount > RULES.price_maximum:
            raise TapeteError("over-maximum", f"ticket {bet.id} ({euros(bet.amount)}) is over the maximum price of 6.00 €",
                              source=RULES.sources["price_maximum"], bet=bet.id)
        state.tickets[bet.id] = Ticket(bet.id, bet.player, bet.amount, picks)

    @staticmethod
    def _picks(bet: Bet) -> list[int]:
        on = list(bet.on or ())
        if len(on) != RULES.races or not all(_is_int(h) for h in on):
            raise TapeteError("bad-target", f"ticket {bet.id}: a pick-7 names one horse number for each of the 7 races "
                              f"(got {len(on)})", source=RULES.sources["races"], bet=bet.id)
        for race, h in enumerate(on, 1):
            if h < 1:
                raise TapeteError("bad-target", f"ticket {bet.id}: race {race}: horse numbers start at 1",
                                  source="000:1715", bet=bet.id)
        return on

    @staticmethod
    def _check_pick(bet_id: str, race: int, pick: int, runners: int) -> None:
        if not 1 <= pick <= runners:
            raise TapeteError("bad-target", f"ticket {bet_id}: horse {pick} is not in race {race} (runners 1-{runners})",
                              source="000:1715; 000:1759", bet=bet_id)

    def _void(self, state: LototrotState, void: Void) -> None:
        if state.races is not None:
            raise TapeteError("illegal-action", "the result is final: later changes have no effect on the bets",
                              source=RULES.sources["result_final"])
        state.voided = void.reason
        state.log.append(f"bets refunded on the authority's decision: {void.reason} (R: docs/rulings.md#lototrot-refunds)")

    # -- the result --------------------------------------------------------------------------------------
    def _result(self, state: LototrotState, outcome: Outcome) -> None:
        if state.races is not None:
            raise TapeteError("bad-document", "a lototrot document holds one result")
        if state.voided:
            raise TapeteError("bad-document", "the day's bets were refunded: no result settles them")
        body = outcome.value
        if not isinstance(body, dict) or set(body) - {"races", "pool"} or "races" not in body:
            raise TapeteError("bad-outcome", "result is {\"races\": [7 races], \"pool\"?: {...}}")
        raw = body["races"]
        if not isinstance(raw, list) or len(raw) != RULES.races:
            raise TapeteError("bad-outcome", "result.races holds the 7 races of the bet", source=RULES.sources["races"])
        races = [self._race(state, i, r) for i, r in enumerate(raw, 1)]
        for t in state.tickets.values():
            for i, (pick, race) in enumerate(zip(t.picks, races, strict=True), 1):
                self._check_pick(t.id, i, pick, race.runners)
        state.races = races
        state.closed = True
        for i, race in enumerate(races, 1):
            state.log.append(describe_race(i, race))
        graded = {}
        for t in state.tickets.values():     # tickets are replaced, never changed in place (see `step`)
            right = sum(race.counts_as(p) in race.winners for p, race in zip(t.picks, races, strict=True))
            category = str(right) if right >= min(RULES.categories) else None           # 000:1785-1793
            graded[t.id] = dataclasses.replace(t, correct=right, category=category)
        state.tickets = graded
        staked, winners = self._pool(state, body.get("pool"))
        day = settle_day(staked, state.percentage, state.jackpot, state.reserve, winners,
                         threshold_equal=state.threshold_equal, reserve_paid=state.reserve_paid, remainder=state.remainder)
        state.day = day
        state.tickets = {t.id: dataclasses.replace(t, prize=day.per_winner[t.category] if t.category else 0)
                         for t in state.tickets.values()}
        state.log.extend(describe_day(day))

    def _race(self, state: LototrotState, index: int, raw: object) -> Race:
        where = f"race {index}"
        if not isinstance(raw, dict) or set(raw) - {"runners", "scratched", "finish", "drawn", "certificate"}:
            raise TapeteError("bad-outcome", f"{where}: {{\"runners\", \"scratched\"?, \"finish\", \"drawn\"?, \"certificate\"?}}")
        runners = raw.get("runners", state.runners[index - 1] if state.runners else None)
        if not _is_int(runners) or runners < 1:
            raise TapeteError("bad-outcome", f"{where}: runners (the programme numbers 1..N) is required")
        if state.runners is not None and runners != state.runners[index - 1]:
            raise TapeteError("bad-outcome", f"{where}: {runners} runners, but the programme has {state.runners[index - 1]}",
                              source="000:1759")
        scratched = raw.get("scratched", [])
        if (not isinstance(scratched, list) or not all(_is_int(h) and 1 <= h <= runners for h in scratched)
                or len(set(scratched)) != len(scratched) or len(scratched) >= runners):
            raise TapeteError("bad-outcome", f"{where}: scratched lists distinct programme numbers, leaving a starter",
                              source=RULES.sources["scratched"])
        finish = raw.get("finish")
        if not isinstance(finish, list) or not finish or not isinstance(finish[0], list) or not finish[0]:
            raise TapeteError("bad-outcome", f"{where}: finish is [[first...], [second...], ...]")
        first = finish[0]
        if not all(_is_int(h) and 1 <= h <= runners and h not in scratched for h in first) or len(set(first)) != len(first):
            raise TapeteError("bad-outcome", f"{where}: the winner must be a starter of the race (1-{runners}, not scratched)",
                              source=RULES.sources["scratched"])
        drawn = raw.get("drawn", False)
        certificate = raw.get("certificate")
        if not isinstance(drawn, bool) or (certificate is not None and not isinstance(certificate, str)):
            raise TapeteError("bad-outcome", f"{where}: drawn is true or false, certificate a string")
        if drawn and len(first) != 1:
            raise TapeteError("bad-outcome", f"{where}: a public draw gives one winner, never a dead heat",
                              source=RULES.sources["not_run"])
        return Race(runners, sorted(scratched), sorted(first), drawn, certificate)

    def _pool(self, state: LototrotState, pool: object) -> tuple[int, dict[str, int]]:
        mine = {k: sum(t.category == k for t in state.tickets.values()) for k in CATEGORIES}
        sold = sum(t.amount for t in state.tickets.values())
        if pool is None:
            return sold, mine
        if not isinstance(pool, dict) or set(pool) - {"staked", "winners"} or "staked" not in pool:
            raise TapeteError("bad-document", "result.pool is {\"staked\": T, \"winners\": {\"7\": n7, ...}}")
        staked, winners = pool["staked"], pool.get("winners", {})
        if not _is_int(staked) or staked < sold:
            raise TapeteError("bad-document", f"result.pool.staked must include the document's own tickets ({sold})")
        if not isinstance(winners, dict) or set(winners) - set(CATEGORIES):
            raise TapeteError("bad-document", "result.pool.winners counts the winners of categories 7, 6, 5 and 4")
        counts = {}
        for k in CATEGORIES:
            v = winners.get(k, 0)
            if not _is_int(v) or v < mine[k]:
                raise TapeteError("bad-document", f"result.pool.winners[{k!r}] must count the document's {mine[k]} "
                                  f"{k}/7 ticket(s) too")
            counts[k] = v
        return staked, counts

    # -- settlement ----------------------------------------------------------------------------------------
    def settle(self, state: LototrotState) -> Settlement:
        results: dict[str, BetResult] = {}
        for t in state.tickets.values():
            staked = Fraction(t.amount)
            if state.voided:
                results[t.id] = BetResult.voided(staked)
            elif state.day is None:
                results[t.id] = BetResult.pending(staked)
            else:
                results[t.id] = BetResult(staked, Fraction(t.prize))
        day = state.day
        if day is None:
            carry = {"jackpot": Fraction(state.jackpot), "reserve": Fraction(state.reserve)}
            return Settlement(self.id, state.jurisdiction, results, rounds=0, log=list(state.log), carry=carry)
        carry = {"jackpot": Fraction(day.jackpot_out), "reserve": Fraction(day.reserve_out)}
        return Settlement(self.id, state.jurisdiction, results, commission=Fraction(day.house), rounds=1,
                          log=list(state.log), carry=carry)

    def legal_actions(self, state: LototrotState) -> list[Action]:
        if state.closed or state.races is not None or state.voided:
            return []
        return [Action("bet", kind="pick-7", minimum=state.minimum, maximum=RULES.price_maximum)]

    def chance(self, state: LototrotState) -> list[tuple[Event, Fraction]]:
        return []          # race results are not a game of the house's chance: no exact enumeration


def describe_race(index: int, race: Race) -> str:
    words = [f"race {index}:"]
    if race.scratched:
        words.append(f"scratched {', '.join(map(str, race.scratched))};")
    if race.drawn:
        words.append("not run, winner drawn in public:")
    words.append(("dead heat " if len(race.winners) > 1 else "winner ") + ", ".join(map(str, race.winners)))
    if race.certificate:
        words.append(f"(certificate {race.certificate})")
    return " ".join(words)


def describe_day(day: PoolDay) -> list[str]:
    lines = [f"pool {euros(day.staked)}; {float(day.percentage):g} % to prizes: {euros(day.fund)}; organiser {euros(day.house)}",
             f"7/7 amount brought in {euros(day.jackpot_in)}, reserve fund {euros(day.reserve_in)}"
             + ("; above 150 000 €: 10 % to the reserve fund" if day.above_threshold else "")]
    lines.extend(day.notes)
    for k in CATEGORIES:
        if day.winners[k]:
            lines.append(f"{k}/7: {day.winners[k]} winner(s), {euros(day.per_winner[k])} each")
    lines.append(f"carried to the next day: 7/7 amount {euros(day.jackpot_out)}, reserve fund {euros(day.reserve_out)}")
    return lines


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


GAME = register(LototrotGame())
