"""Promotrot (ES-IB, 000:1869-1947): trotting promotion games, instant virtual tickets sold at terminals.

Pre-drawn issues (the winning tickets fixed in advance across an issue) and probabilistic games settle the same
way: a ticket costs 0.20-10 € (000:1925) and pays the prize it uncovers (000:1917-1919). At least 70 % of what
is played goes to prizes (000:1929; 000:1937). The organiser defines each issue's prize plan; when a document
gives it (`table.issue`), the plan is checked against the 70 % floor (D-17).
"""

from __future__ import annotations

from collections.abc import Sequence
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

R = "R: docs/rulings.md#"


@dataclass(frozen=True)
class PromotrotRules(Rules):
    price_minimum: int
    price_maximum: int
    prize_percentage_minimum: int
    modes: tuple[str, ...]
    issue_factors: tuple[str, ...]
    issue_check: str
    takings_check: str
    prizes_in_kind: str
    payment_places: str
    receipt_days: int
    unclaimed: str
    failures: str


RULES = PromotrotRules(
    jurisdiction="ES-IB",
    price_minimum=20, price_maximum=1000, prize_percentage_minimum=70,
    modes=("pre-drawn", "probabilistic"),
    issue_factors=("prize percentage", "tickets in the issue", "price per ticket", "prize distribution"),
    issue_check="an issue's prize plan must total at least 70 % of tickets x price (table.issue)",
    takings_check="prizes below 70 % of a document's takings are flagged in the log for the authority",
    prizes_in_kind="counted at the cash equivalent on the receipt; the winner may always take the cash",
    payment_places="the premises holder pays at once, by Lototrot's tiers: up to 120 € anywhere, from 300 € central office",
    receipt_days=30,
    unclaimed="to the organiser",
    failures="silent: play is blocked and a manual decision recorded",
    sources={
        "price_minimum": "000:1925", "price_maximum": "000:1925", "prize_percentage_minimum": "000:1929; 000:1937",
        "modes": "000:1879-1885; 000:1899", "issue_factors": "000:1887-1895; 000:1901-1909",
        "issue_check": f"000:1885; 000:1889; {R}promotrot-seventy-percent",
        "takings_check": f"000:1937; {R}promotrot-seventy-percent",
        "prizes_in_kind": f"000:1937; 000:1943; {R}promotrot-prizes-in-kind",
        "payment_places": f"000:1941; 000:1847-1851; {R}pools-payment-tiers",
        "receipt_days": f"000:1945; {R}promotrot-receipt-expiry", "unclaimed": "000:1947",
        "failures": f"{R}pools-equipment-failure",
    },
)


@dataclass
class PromoTicket:
    id: str
    player: str
    amount: int
    game: str | None = None
    prize: int | None = None


@dataclass
class PromotrotState:
    game: str
    jurisdiction: str
    table: dict[str, Any]
    minimum: int
    issue: dict[str, Any] | None
    tickets: list[PromoTicket] = field(default_factory=list)
    settled: bool = False
    log: list[str] = field(default_factory=list)


class PromotrotGame(Game):
    id = "promotrot"
    name_es = "Juegos de promoción del trote (Promotrot)"
    name_en = "Promotrot (trotting promotion instant games)"
    outcome_names = ("result",)
    extra_bet_fields = frozenset({"game"})

    @property
    def rules(self) -> dict[str, PromotrotRules]:  # type: ignore[override]
        return {"ES-IB": RULES}

    def state_type(self) -> type:
        return PromotrotState

    def kinds(self) -> list[KindInfo]:
        return [KindInfo("ticket", None, "Billete virtual: pays the prize it uncovers (pre-drawn or probabilistic)")]

    def table_keys(self) -> list[TableKey]:
        return [
            TableKey("minimum", required=True, description="the price floor, 20-1000 cents (000:1925)"),
            TableKey("issue", default=None, description="{price, tickets, prizes: [[cents, count], ...]}: checked against 70 % (D-17)"),
        ]

    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> PromotrotState:
        self.rules_for(jurisdiction)
        if shoe is not None:
            raise TapeteError("bad-document", "promotrot is not a card game: a shoe is not accepted")
        unknown = set(table) - {"minimum", "issue"}
        if unknown:
            raise TapeteError("bad-document", f"unknown table keys {sorted(unknown)} for promotrot (known: issue, minimum)")
        minimum = table.get("minimum")
        if not _is_int(minimum):
            raise TapeteError("bad-document", "table.minimum (the price floor, cents) is required")
        self._check_price(minimum, "table.minimum")
        issue = table.get("issue")
        if issue is not None:
            issue = self._check_issue(issue)
        return PromotrotState(self.id, jurisdiction, dict(table), minimum, issue)

    @staticmethod
    def _check_price(price: int, what: str) -> None:
        if not RULES.price_minimum <= price <= RULES.price_maximum:
            raise TapeteError("bad-table", f"{what}: the price of a play is set between 0.20 € and 10.00 €",
                              source=RULES.sources["price_minimum"])

    def _check_issue(self, issue: object) -> dict[str, Any]:
        """The pre-drawn issue as a whole must meet the prize percentage (000:1885; D-17)."""
        if not isinstance(issue, dict) or set(issue) != {"price", "tickets", "prizes"}:
            raise TapeteError("bad-document", "table.issue is {\"price\": cents, \"tickets\": N, \"prizes\": [[cents, count], ...]}")
        price, tickets, prizes = issue["price"], issue["tickets"], issue["prizes"]
        if not _is_int(price) or not _is_int(tickets) or tickets < 1:
            raise TapeteError("bad-document", "table.issue: price and tickets are positive integers")
        self._check_price(price, "table.issue.price")
        if not isinstance(prizes, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(_is_int(x) and x >= 0 for x in p) for p in prizes):
            raise TapeteError("bad-document", "table.issue.prizes is [[cents, count], ...]")
        total = sum(c * n for c, n in prizes)
        if sum(n for _, n in prizes) > tickets:
            raise TapeteError("bad-document", "table.issue: more winning tickets than tickets in the issue")
        if 100 * total < RULES.prize_percentage_minimum * tickets * price:
            share = Fraction(100 * total, tickets * price)
            raise TapeteError("bad-document", f"table.issue: the prize plan totals {euros(total)}, {float(share):.2f} % of "
                              f"{euros(tickets * price)}: below the 70 % floor", source=RULES.sources["issue_check"])
        return {"price": price, "tickets": tickets, "prizes": [list(p) for p in prizes]}

    def apply(self, state: PromotrotState, event: Event) -> None:
        if isinstance(event, Bet):
            self._ticket(state, event)
        elif isinstance(event, Outcome):
            self._result(state, event)
        elif isinstance(event, Act | Deal | Close | Limits | Void):
            raise TapeteError("bad-document", f"promotrot has no {type(event).__name__.lower()} event: a play is paid "
                              "and played at the terminal (000:1935)")
        else:  # pragma: no cover
            raise TapeteError("bad-document", f"unexpected event {event!r}")

    def _ticket(self, state: PromotrotState, bet: Bet) -> None:
        if state.settled:
            raise TapeteError("bet-closed", f"ticket {bet.id}: the document's result is in", bet=bet.id)
        if any(t.id == bet.id for t in state.tickets):
            raise TapeteError("bad-document", f"bet id {bet.id!r} is used twice", bet=bet.id)
        if bet.kind != "ticket":
            raise TapeteError("unknown-bet-kind", f"bet {bet.id}: promotrot sells one thing, a ticket", bet=bet.id)
        if bet.on:
            raise TapeteError("bad-target", f"ticket {bet.id}: a virtual ticket takes no 'on'", bet=bet.id)
        game = bet.extra.get("game")
        if game is not None and not isinstance(game, str):
            raise TapeteError("bad-document", f"ticket {bet.id}: game is the concrete game's id (a string)", bet=bet.id)
        if bet.amount < state.minimum:
            raise TapeteError("under-minimum", f"ticket {bet.id} ({euros(bet.amount)}) is under the price floor of "
                              f"{euros(state.minimum)}", source=RULES.sources["price_minimum"], bet=bet.id)
        if bet.amount > RULES.price_maximum:
            raise TapeteError("over-maximum", f"ticket {bet.id} ({euros(bet.amount)}) is over the 10.00 € maximum",
                              source=RULES.sources["price_maximum"], bet=bet.id)
        if state.issue is not None:
            if bet.amount != state.issue["price"]:
                raise TapeteError("bad-document", f"ticket {bet.id}: the issue's price is {euros(state.issue['price'])}",
                                  source="000:1893", bet=bet.id)
            if len(state.tickets) >= state.issue["tickets"]:
                raise TapeteError("bad-document", f"ticket {bet.id}: the issue has {state.issue['tickets']} tickets", bet=bet.id)
        state.tickets.append(PromoTicket(bet.id, bet.player, bet.amount, game))

    def _result(self, state: PromotrotState, outcome: Outcome) -> None:
        if state.settled:
            raise TapeteError("bad-document", "a promotrot document holds one result")
        body = outcome.value
        if not isinstance(body, dict) or set(body) != {"prizes"} or not isinstance(body["prizes"], dict):
            raise TapeteError("bad-outcome", "result is {\"prizes\": {ticket id: cents, ...}}")
        prizes = body["prizes"]
        ids = {t.id for t in state.tickets}
        for bet_id, cents in prizes.items():
            if bet_id not in ids:
                raise TapeteError("bad-document", f"result names {bet_id!r}, which is not a ticket of this document")
            if not _is_int(cents) or cents < 0:
                raise TapeteError("bad-outcome", f"ticket {bet_id}: a prize is an amount in cents (a prize in kind: its "
                                  "cash equivalent)", source=RULES.sources["prizes_in_kind"], bet=bet_id)
        if state.issue is not None:
            self._check_plan(state.issue, [c for c in prizes.values() if c])
        for t in state.tickets:
            t.prize = prizes.get(t.id, 0)
        state.settled = True
        self._report(state)

    @staticmethod
    def _check_plan(issue: dict[str, Any], won: list[int]) -> None:
        """A pre-drawn issue's winning tickets come from its plan (000:1885)."""
        left = {}
        for cents, count in issue["prizes"]:
            left[cents] = left.get(cents, 0) + count
        for c in won:
            if left.get(c, 0) <= 0:
                raise TapeteError("bad-outcome", f"a prize of {euros(c)} is not (or no longer) in the issue's prize plan",
                                  source="000:1885; 000:1895")
            left[c] -= 1

    @staticmethod
    def _report(state: PromotrotState) -> None:
        takings = sum(t.amount for t in state.tickets)
        paid = sum(t.prize or 0 for t in state.tickets)
        for t in state.tickets:
            if t.prize:
                state.log.append(f"ticket {t.id}: prize {euros(t.prize)}")
        if takings:
            share = Fraction(100 * paid, takings)
            state.log.append(f"takings {euros(takings)}; prizes {euros(paid)} ({float(share):.2f} %)")
            if share < RULES.prize_percentage_minimum:
                state.log.append("prizes below 70 % of these takings: to be reported to the authority if the concrete "
                                 "game ends so (000:1937; R: docs/rulings.md#promotrot-seventy-percent)")

    def settle(self, state: PromotrotState) -> Settlement:
        results: dict[str, BetResult] = {}
        for t in state.tickets:
            staked = Fraction(t.amount)
            if t.prize is None:
                results[t.id] = BetResult.pending(staked)
            else:
                results[t.id] = BetResult(staked, Fraction(t.prize))
        return Settlement(self.id, state.jurisdiction, results, rounds=1 if state.settled else 0, log=list(state.log))

    def legal_actions(self, state: PromotrotState) -> list[Action]:
        if state.settled:
            return []
        return [Action("bet", kind="ticket", minimum=state.minimum, maximum=RULES.price_maximum)]

    def chance(self, state: PromotrotState) -> list[tuple[Event, Fraction]]:
        return []       # the prize plan is the organiser's, per issue: not in the seeds


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


GAME = register(PromotrotGame())
