"""The Game protocol (docs/architecture.md): a pure round reducer over data.

    state = game.open(jurisdiction, table, shoe)
    state = game.step(state, event)          # refuses anything `legal_actions` would not offer
    state = game.finish(state)               # the document ended: apply the defaults due
    settlement = game.settle(state)

plus `legal_actions(state)` (what may be done now) and `chance(state)` (the next chance event with its
exact probability). No I/O, no clock, no hidden randomness: the same code serves conformance, exact
analysis, simulation, the terminal and the server.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from tapete.core.errors import TapeteError
from tapete.engine.events import Act, Event
from tapete.engine.rules import Rules
from tapete.engine.settlement import Settlement


@dataclass(frozen=True)
class KindInfo:
    """A bet kind as `tapete games --json` lists it."""

    kind: str
    pays: str | None
    description: str


@dataclass(frozen=True)
class TableKey:
    """A `table` key a game accepts, with its default (None when required or jurisdiction-dependent)."""

    key: str
    required: bool = False
    default: Any = None
    description: str = ""

    def document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"key": self.key}
        if self.required:
            doc["required"] = True
        else:
            doc["default"] = self.default
        if self.description:
            doc["description"] = self.description
        return doc


@dataclass(frozen=True)
class Action:
    """One thing that may be done now: place a bet of `kind` (amount range), or a verb on a bet."""

    verb: str
    bet: str | None = None
    kind: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    targets: tuple[Any, ...] | None = None
    by: str | None = None                # a decision that names its hand (`act.by`) rather than a bet


@dataclass(frozen=True)
class EdgeCase:
    """One line of `tapete edge`: a single bet laid on a fresh table, and the decision policy to follow."""

    kind: str
    on: tuple[Any, ...] | None = None
    option: str | None = None            # the verb always chosen when the rules offer it
    table: dict[str, Any] = field(default_factory=dict)
    amount: int = 100
    extra: dict[str, Any] = field(default_factory=dict)
    setup: tuple[Any, ...] = ()          # events played first (a line bet and the roll that gives it its point,
                                         # for an odds bet); then only the case's own bet is measured


class Game(ABC):
    """A game of the catalogs. Subclasses set the class attributes and implement the reducer."""

    id: ClassVar[str]
    name_es: ClassVar[str]
    name_en: ClassVar[str]
    uses_shoe: ClassVar[bool] = False
    outcome_names: ClassVar[tuple[str, ...]] = ()
    extra_bet_fields: ClassVar[frozenset[str]] = frozenset()
    extra_act_fields: ClassVar[frozenset[str]] = frozenset()
    zero_amount_kinds: ClassVar[frozenset[str]] = frozenset()   # kinds whose amount may be 0 (circle poker's hand)
    # A player holds the bank (the `bank` kind of the player-banked baccarats): at a live table his bank and its
    # associates' shares are money at the table, the puntos play against it, not against the house.
    player_banked: ClassVar[bool] = False
    bank_kinds: ClassVar[frozenset[str]] = frozenset()
    # What a live table's shoe is made of, where the game has no `live_shoe`/`new_shoe` hook of its own
    # (the server shuffles it with the table CSPRNG): the deck, its jokers, how many decks (None: the rules'
    # `decks`), and whether every round is dealt from a complete, freshly shuffled deck.
    live_deck: ClassVar[str] = "french"
    live_jokers: ClassVar[int] = 0
    live_decks: ClassVar[int | None] = None
    fresh_deck_each_round: ClassVar[bool] = False

    def live_cut_from_end(self, jurisdiction: str) -> int | None:
        """Cards behind the cut (stop) card of a live shoe, where the catalog fixes it; None: the server's."""
        return None

    # -- description -------------------------------------------------------------------------------
    @property
    @abstractmethod
    def rules(self) -> dict[str, Rules]:
        """Jurisdiction code -> that jurisdiction's rules."""

    @abstractmethod
    def kinds(self) -> list[KindInfo]: ...

    def verbs(self) -> list[str]:
        return []

    @abstractmethod
    def table_keys(self) -> list[TableKey]: ...

    def rules_for(self, jurisdiction: str) -> Rules:
        from tapete.core.jurisdictions import JURISDICTIONS

        if jurisdiction not in JURISDICTIONS:
            raise TapeteError("unknown-jurisdiction", f"unknown jurisdiction {jurisdiction!r} (ES, ES-IB, ES-GA, ES-AN)")
        if jurisdiction not in self.rules:
            have = ", ".join(self.rules)
            raise TapeteError("game-not-in-jurisdiction", f"{self.id} is not in the catalog of {jurisdiction} (it is in {have})")
        return self.rules[jurisdiction]

    def info(self) -> dict[str, Any]:
        """This game as `tapete games --json` lists it."""
        return {
            "id": self.id,
            "name_es": self.name_es,
            "name_en": self.name_en,
            "jurisdictions": list(self.rules),
            "kinds": [{"kind": k.kind, "pays": k.pays, "description": k.description} for k in self.kinds()],
            "verbs": self.verbs(),
            "table": [t.document() for t in self.table_keys()],
        }

    # -- the reducer -------------------------------------------------------------------------------
    @abstractmethod
    def open(self, jurisdiction: str, table: dict[str, Any], shoe: Sequence[Any] | None = None) -> Any: ...

    def step(self, state: Any, event: Event) -> Any:
        """Apply one event to a copy of the state (the reducer stays pure)."""
        new = copy.deepcopy(state)
        self.apply(new, event)
        return new

    def run_events(self, state: Any, events: Iterable[Event]) -> Any:
        """Apply `events` in order and return the resulting state, as chained `step`s would, without copying the
        whole state per event: one private copy for the run, then `apply` in place. Stepping copied the state
        each time, so a document of n bets cost O(n²) (issue 16). The caller's `state` is never mutated; on a
        refused event the exception propagates and the private copy is dropped."""
        own = copy.deepcopy(state)
        for event in events:
            self.apply(own, event)
        return own

    @abstractmethod
    def apply(self, state: Any, event: Event) -> None:
        """Apply one event in place; raise TapeteError for anything the rules refuse."""

    def finish(self, state: Any) -> Any:
        """The document ended: apply whatever defaults are due. Default: nothing."""
        return state

    def end_round(self, state: Any) -> Any:
        """A live table's round (coup) is over: the defaults due now. Default: `finish`. A game whose table
        carries from coup to coup (a player's bank) ends the coup and keeps what carries."""
        return self.finish(state)

    def advance(self, state: Any) -> Any:
        """A live table, after a deal or a decision: play the forced steps of the round in progress (in place)
        up to its next free decision, so the table shows what is dealt before anyone decides. Default: nothing."""
        return state

    def hand_holder(self, state: Any, by: str) -> str | None:
        """The player who decides for hand `by` now (a baccarat's punto hand, the banker); None: not a
        player's hand (the croupier's), or the game does not say."""
        return None

    @abstractmethod
    def settle(self, state: Any) -> Settlement: ...

    @abstractmethod
    def legal_actions(self, state: Any) -> list[Action]: ...

    @abstractmethod
    def chance(self, state: Any) -> list[tuple[Event, Fraction]]:
        """The next chance event's outcomes with exact probabilities; [] when nothing rides on chance."""

    @abstractmethod
    def state_type(self) -> type: ...

    # -- analysis ----------------------------------------------------------------------------------
    def analysis_key(self, state: Any) -> tuple[Hashable, Fraction]:
        """(key, scale): states with equal keys have futures equal up to the money scale.

        The exact solver uses it to close cycles (a craps point repeating, a bet in prison meeting
        another zero). The default keys the whole state, scale 1; games drop bookkeeping (logs, counters).
        """
        import json

        from tapete.engine.serialize import to_json

        return json.dumps(to_json(state), sort_keys=True), Fraction(1)

    def edge_cases(self, jurisdiction: str) -> list[EdgeCase]:
        """The bets `tapete edge` solves for this jurisdiction."""
        return []

    def decision(self, state: Any, option: str | None) -> Act | None:
        """The act the solver takes now under `option` (a verb), or None to let chance move on."""
        return None
