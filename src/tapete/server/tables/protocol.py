"""The table protocol: the phases of a round, the routes and acts each phase admits, per family.

A round goes idle/settled -> betting -> closed (no va más) -> [confirming (a keyed result)] -> settled, or at
a card table betting -> (the deal) -> acting (decisions due) -> settled. These are the phases the API returns.
Every operation on a table (service.py's `op_*`) asks `admit` first, before it touches the engine: a route or an
act outside its phase is refused with the phase in the error document, before any card is drawn. The engine
would otherwise decide what an act means in whatever phase it arrives (a blackjack `stand` during the bets
deals the coup: the single-round "a document may omit the deal" convenience of `tapete settle`).

The table is data (`PhaseTable`), declared once per family by its adapter (adapters.py); docs/server.md's
phase table is generated from it (`markdown`), so the two cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Protocol

from tapete.core.errors import TapeteError

Phase = Literal["idle", "betting", "closed", "acting", "confirming", "settled"]
PHASES: tuple[Phase, ...] = ("idle", "betting", "closed", "acting", "confirming", "settled")
# The routes of a table, by the verb of the API they serve (POST /api/tables/{id}/<route>; `key` is /outcome).
Route = Literal["open", "bets", "close", "draw", "key", "confirm", "correct", "void", "limits", "act"]
ROUTES: tuple[Route, ...] = ("open", "bets", "close", "draw", "key", "confirm", "correct", "void", "limits", "act")
ANY_VERB = "*"          # an act window that admits every verb of the game

_NOW = {"idle": "no round is open", "betting": "bets are open, nothing is dealt yet",
        "closed": "no va más has been called", "acting": "decisions are due",
        "confirming": "a keyed result awaits confirmation", "settled": "the round is over"}


class PhaseError(TapeteError):
    """A route or an act refused in the table's phase: the error document names the phase and what it admits."""

    def __init__(self, table: str, phase: str, what: str, allowed: tuple[str, ...]) -> None:
        where = f"allowed in: {', '.join(allowed)}" if allowed else "never at this table"
        super().__init__("wrong-phase", f"table {table} is {phase} ({_NOW.get(phase, phase)}): {what} is refused "
                         f"({where})")
        self.phase = phase
        self.allowed = allowed

    def document(self) -> dict[str, Any]:
        doc = super().document()
        doc["error"].update(phase=self.phase, allowed=list(self.allowed))
        return doc


@dataclass(frozen=True)
class PhaseTable:
    """In which phases each route is admitted, and each act verb taken (ANY_VERB: any verb not listed)."""

    routes: MappingProxyType[str, frozenset[str]]
    acts: MappingProxyType[str, frozenset[str]] = field(default_factory=lambda: MappingProxyType({}))

    @staticmethod
    def of(routes: dict[str, tuple[str, ...]], acts: dict[str, tuple[str, ...]] | None = None) -> PhaseTable:
        for route in routes:
            if route not in ROUTES:
                raise ValueError(f"unknown route {route!r}")
        for phase in (p for ps in (*routes.values(), *(acts or {}).values()) for p in ps):
            if phase not in PHASES:
                raise ValueError(f"unknown phase {phase!r}")
        return PhaseTable(MappingProxyType({r: frozenset(p) for r, p in routes.items()}),
                          MappingProxyType({v: frozenset(p) for v, p in (acts or {}).items()}))

    def route_phases(self, route: str) -> tuple[str, ...]:
        return tuple(p for p in PHASES if p in self.routes.get(route, ()))

    def act_phases(self, verb: str | None) -> tuple[str, ...]:
        window = self.acts.get(verb or "", self.acts.get(ANY_VERB, frozenset()))
        return tuple(p for p in PHASES if p in window)

    def admits(self, phase: str, route: str, verb: str | None = None) -> bool:
        if route == "act":
            return phase in self.act_phases(verb)
        return phase in self.routes.get(route, ())


class Phased(Protocol):
    """What `admit` needs of a transaction: its table, the phase in the database and the family's table."""

    @property
    def table_id(self) -> str: ...

    @property
    def phase(self) -> str: ...

    @property
    def phases(self) -> PhaseTable: ...


def admit(ctx: Phased, route: Route, verb: str | None = None) -> None:
    """Refuse `route` (an act: its verb) unless the table's phase admits it — before the engine is touched."""
    table = ctx.phases
    if table.admits(ctx.phase, route, verb):
        return
    allowed = table.act_phases(verb) if route == "act" else table.route_phases(route)
    what = f"the act {verb!r}" if route == "act" else f"{route}"
    raise PhaseError(ctx.table_id, ctx.phase, what, allowed)


def markdown(rows: list[tuple[str, PhaseTable]]) -> str:
    """The phase table of every family, as docs/server.md shows it (generated: tests/server/test_server_protocol.py):
    per family and phase, the routes admitted and the acts taken (`act *`: any verb of the game not named)."""
    out = ["| family | " + " | ".join(PHASES) + " |", "|---|" + "---|" * len(PHASES)]
    for family, table in rows:
        cells = []
        for phase in PHASES:
            routes = [r for r in ROUTES if r != "act" and phase in table.routes.get(r, ())]
            acts = [("act *" if v == ANY_VERB else f"act {v}") for v in sorted(table.acts, key=lambda v: (v == ANY_VERB, v))
                    if phase in table.acts[v]]
            cells.append(", ".join(routes + acts) or "—")
        out.append(f"| {family} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"
