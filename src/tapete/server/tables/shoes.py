"""Shoes at a live table, for any card game of the engine.

The engine deals from a document `shoe` (the cards in the order they leave it). An electronic table
shuffles a whole shoe with the table CSPRNG from a committed seed and hands each round the cards still in
it; a live table hands an empty shoe and the croupier keys the cards as they are dealt. Between rounds the
server finds the engine's `Shoe` inside the state (any dataclass field) to know how many cards left it
and whether the cut card came out.
"""

from __future__ import annotations

import ast
import dataclasses
from functools import lru_cache
from typing import Any

from tapete.core.cards import parse_card
from tapete.core.errors import TapeteError
from tapete.core.rng import TableRng
from tapete.engine.game import Game
from tapete.engine.shoe import Shoe
from tapete.server.tables.adapters import adapter_for
from tapete.server.tables.seeds import new_seed

DEFAULT_PENETRATION = 0.75   # where the cut card sits when the table sets none


def find_shoe(state: Any) -> Shoe | None:
    """The engine's Shoe object inside a game state (depth-first over dataclass fields)."""
    if isinstance(state, Shoe):
        return state
    if dataclasses.is_dataclass(state) and not isinstance(state, type):
        for f in dataclasses.fields(state):
            found = find_shoe(getattr(state, f.name))
            if found is not None:
                return found
    return None


def dealt_cards(game: Game, state: Any) -> list[str] | None:
    """The cards this state took from its shoe: an engine `Shoe` up to its position, or the plain card list
    and position of the games that deal from a list (Monte, the poker games), as their adapter reads it."""
    shoe = find_shoe(state)
    if shoe is not None:
        return list(shoe.cards[:shoe.position])
    pack = adapter_for(game).pack(state) if state is not None else None
    return pack[0][:pack[1]] if pack is not None else None


def shoe_spec(game: Game, jurisdiction: str, table: dict[str, Any]) -> dict[str, Any]:
    """Decks, deck kind and jokers of the game's shoe: table keys first, then the jurisdiction's rules."""
    rules = game.rules_for(jurisdiction)
    decks = table.get("decks", game.live_decks or getattr(rules, "decks", 6))
    if isinstance(decks, tuple | list | set | frozenset):
        decks = max(decks)
    return {"decks": int(decks), "deck": game.live_deck, "jokers": game.live_jokers}


def prepare(game: Game, jurisdiction: str, table: dict[str, Any], seed_hex: str) -> dict[str, Any]:
    """A whole electronic shoe from the seed: the game's own live shoe where it has one (shuffle, cut,
    cut card, burn as its catalog says), else a CSPRNG shuffle with the cut card at DEFAULT_PENETRATION.
    Returns the cards, the position of the first card to deal and the cut card's index."""
    return dict(_prepare(game.id, jurisdiction, tuple(sorted((k, repr(v)) for k, v in table.items())), seed_hex))


@lru_cache(maxsize=64)
def _prepare(game_id: str, jurisdiction: str, table_key: tuple[tuple[str, str], ...], seed_hex: str) -> dict[str, Any]:
    from tapete.catalog import get_game

    game = get_game(game_id)
    table = {k: ast.literal_eval(v) for k, v in table_key}
    table.pop("cut-card", None)
    rng = TableRng(bytes.fromhex(seed_hex))
    adapter = adapter_for(game)
    if adapter.own_shoe:
        state = game.open(jurisdiction, table)
        adapter.prepare_shoe(state, rng)
        shoe = find_shoe(state)
        if shoe is None:     # a game that deals from a plain card list (circle poker's pack)
            pack = adapter.pack(state)
            if pack is None or not pack[0]:
                raise TapeteError("bad-config", f"{game.id}: its live shoe left no cards in the state")
            return {"cards": tuple(pack[0]), "position": pack[1], "cut": None}
        return {"cards": tuple(shoe.cards), "position": shoe.position, "cut": shoe.cut_index}
    spec = shoe_spec(game, jurisdiction, table)
    shoe = Shoe.shuffled(rng, decks=spec["decks"], deck=spec["deck"], jokers=spec["jokers"])
    behind = game.live_cut_from_end(jurisdiction)
    cut = None if game.fresh_deck_each_round else default_cut(len(shoe.cards)) if behind is None else len(shoe.cards) - behind
    return {"cards": tuple(shoe.cards), "position": 0, "cut": cut}


def cut_key(game: Game) -> bool:
    return any(k.key == "cut-card" for k in game.table_keys())


def open_state(game: Game, jurisdiction: str, table: dict[str, Any], source: str, *, seed: str | None,
               shoe: dict[str, Any] | None = None) -> Any:
    """Open a state for the next round. A card game gets the rest of the electronic shoe (from `shoe`'s
    position, the cut card moved accordingly) or, at a live table, an empty shoe the croupier fills."""
    if not game.uses_shoe:
        return game.open(jurisdiction, dict(table))
    table = dict(table)
    if source == "croupier":
        return game.open(jurisdiction, table, [])
    if shoe is None:
        shoe = {"seed": seed or new_seed()}
        shoe.update(position=prepare(game, jurisdiction, table, shoe["seed"])["position"])
    prepared = prepare(game, jurisdiction, table, shoe["seed"])
    position = shoe["position"]
    if prepared["cut"] is not None and cut_key(game):
        table["cut-card"] = max(prepared["cut"] - position, 0)
    return game.open(jurisdiction, table, list(prepared["cards"][position:]))


def default_cut(total: int) -> int:
    return int(total * DEFAULT_PENETRATION)


def shoe_over(game: Game, state: Any) -> bool:
    """The cut card came out (the round just played was the shoe's last)."""
    shoe = find_shoe(state)
    if shoe is None:
        return False
    cut = shoe.cut_index is not None and shoe.position >= shoe.cut_index
    return cut or adapter_for(game).shoe_ended(state) or shoe.remaining < 10


def add_cards(state: Any, texts: list[Any]) -> None:
    """A live table: append the cards the croupier keyed (validated) to the state's shoe."""
    shoe = find_shoe(state)
    if shoe is None:
        raise TapeteError("bad-request", "this game keeps no shoe the croupier can key cards into")
    for t in texts:
        if not isinstance(t, str):
            raise TapeteError("bad-card", f"a card is a string such as 'AS' or '12o' (got {t!r})")
        parse_card(t)
        shoe.cards.append(t)
