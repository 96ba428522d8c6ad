"""The player-banked games at a live table (chemin de fer, baccara a dos paños): where the banker's money lives.

The server still knows no rule. The engine says which bet kinds are a player's bank (`Game.bank_kinds`: the
banker's `bank`, an associate's `bank-share`), who decides for a hand (`Game.hand_holder`), how a coup ends
while the bank carries (`Game.end_round`) and, through its settlement, what every bet staked and returned.
This module only books that money in the right place:

  banca:<table>   the bank in play: the banker's stake and his associates' shares, collected from their wallets
                  when they take (or raise) the bank, plus every coup's result against the puntos, less the
                  cagnotte. The puntos' lost stakes go into it, their winnings come out of it, the cagnotte goes
                  from it to commission:<table>; when the bank bet ends (lost, passed, withdrawn at the stop
                  card) what the engine returns goes back to the banker's wallet. The house float never moves:
                  the casino is not a party to a player-banked coup.

A cent left in the account once no bank is in play (the settlement rounds each bet once) goes to the float.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tapete.core.errors import TapeteError
from tapete.engine.events import Act
from tapete.games.baccarat.chemin_de_fer import CheminCoup, CheminState
from tapete.games.baccarat.common import HoldsBanks
from tapete.games.baccarat.two_tables import TwoTablesState
from tapete.server.money import ledger
from tapete.server.tables.adapters import adapter_for
from tapete.server.tables.open_bets import load_open_bets
from tapete.server.tables.shoes import shoe_over

if TYPE_CHECKING:
    from tapete.engine.game import Game
    from tapete.server.tables.table_ctx import Ctx


def banca(table: str) -> str:
    return f"banca:{table}"


def banked(game: Game) -> bool:
    return adapter_for(game).player_banked


def stake_account(ctx: Ctx, kind: str | None) -> str:
    """Where a bet's stake is held while it is open: the bank in play for a bank kind, else the table's stakes."""
    if banked(ctx.game) and kind in ctx.game.bank_kinds:
        ledger.ensure_account(ctx.conn, banca(ctx.table_id))
        return banca(ctx.table_id)
    return ledger.stakes(ctx.table_id)


def counterparty(ctx: Ctx) -> str:
    """Who pays the winners and receives the losers' stakes: the player's bank, else the house float."""
    if banked(ctx.game):
        ledger.ensure_account(ctx.conn, banca(ctx.table_id))
        return banca(ctx.table_id)
    return ledger.float_(ctx.table_id)


def partida_goes_on(ctx: Ctx) -> bool:
    """A player-banked table keeps its state from coup to coup until its shoe ends (the bank, the mano pasada,
    the banco seguido, a barred banker are the partida's)."""
    return banked(ctx.game) and ctx.state is not None and not shoe_over(ctx.game, ctx.state)


def check_decider(ctx: Ctx, event: Any, user: str, staff: bool) -> None:
    """A decision that names its hand (`by`) is taken by the player the engine says holds it; at a player-banked
    table nobody else's word (a croupier's irregularity: staff only)."""
    by = event.by if isinstance(event, Act) else None
    if staff or (isinstance(event, Act) and event.bet is not None) or by is None:
        return
    holder = ctx.game.hand_holder(ctx.state, by)
    if holder is not None and holder != user:
        raise TapeteError("forbidden", f"the {by} hand is another player's to decide")   # never whose: a login
    if holder is None and banked(ctx.game):
        raise TapeteError("forbidden", f"no player holds the {by} hand now: only the croupier of a live table acts for it")


def sweep(ctx: Ctx) -> None:
    """No bank in play any more: a rounding cent left in the bank account goes to the float (one transaction)."""
    if not banked(ctx.game):
        return
    if any(b["kind"] in ctx.game.bank_kinds and b["status"] == "open" for b in load_open_bets(ctx).values()):
        return
    left = ledger.balance(ctx.conn, banca(ctx.table_id))
    if left:
        ledger.commit(ctx.conn, ledger.Entry("settle", ctx.table_id, ctx.row["round_id"], ctx.actor, memo="bank rounding")
                      .move(banca(ctx.table_id), ledger.float_(ctx.table_id), left), lane=ctx.lane)


def summary(game: Game, state: Any) -> dict[str, Any] | None:
    """The bank as the table shows it: who holds it, what it holds (engine amounts, cents), its coups."""
    if not banked(game) or state is None:
        return None
    banks = state.banks if isinstance(state, HoldsBanks) else []
    active = next((b for b in banks if b.active), None)
    last = active or (banks[-1] if banks else None)
    if last is None:
        return {"banker": None, "holding": 0, "active": False}
    return {"banker": last.player, "bet": last.id, "holding": int(last.holding), "garage": int(last.garage),
            "coups": last.coups, "active": last.active, "ended": last.ended}


def reveal(game: Game, state: Any, raw: dict[str, Any], out: dict[str, Any], viewer: str | None, mask: str) -> None:
    """Chemin de fer's cards as the table shows them (the view masks every card of a game with hole cards):
    the coups already shown and their narration are public; in the coup being played, a hand's first two cards
    are seen by its holder (the punto's cards holder, the banker), a third card is dealt face up (001:811)."""
    if not banked(game) or "coups" not in raw or "current" not in raw:
        return
    out["coups"] = raw["coups"]
    current = state.current if isinstance(state, CheminState | TwoTablesState) else None
    if current is None or (isinstance(current, CheminCoup) and current.result is not None):
        out["current"], out["log"] = raw.get("current"), raw.get("log", [])
        return
    for by, key in (("player", "punto"), ("bank", "banker")):
        hand, shown = raw["current"].get(key), out.get("current", {}).get(key)
        if not isinstance(hand, dict) or not isinstance(shown, dict):
            continue
        cards = list(hand.get("cards") or [])
        own = viewer is not None and game.hand_holder(state, by) == viewer
        shown["cards"] = cards if own else [mask] * min(len(cards), 2) + cards[2:]
