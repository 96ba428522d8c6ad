"""Request bodies of the API (pydantic): shapes only — what a bet or an act means is the engine's to judge."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

MAX_CENTS = 10**11          # a billion euros: far beyond any table, small enough for any database integer
# Money is a JSON integer of cents, nothing else: no "100", " 100 ", "1_00", 100.0, 1e2 or true.
Cents = Annotated[StrictInt, Field(gt=0, le=MAX_CENTS)]
Scalar = StrictInt | StrictStr | StrictBool | None

Username = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")
Role = Literal["player", "croupier", "chief", "cashier", "inspector"]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LoginIn(Body):
    username: str = Username
    password: str = Field(max_length=256)


class UserIn(Body):
    """The cashier opens a player's account (staff accounts are the operator's: the casino file, `tapete users`)."""

    username: str = Username
    password: str = Field(min_length=1, max_length=256)
    roles: list[Role] = Field(default_factory=lambda: ["player"], min_length=1, max_length=5)
    tables: list[str] | None = Field(None, max_length=100)


class NameIn(Body):
    """The name other players see (never the login)."""

    name: str = Field(min_length=1, max_length=24)


class BetIn(Body):
    """One bet: a kind of the game, an amount in cents, its target `on` where the kind needs one, and the
    game's extra fields (box, seat, ...) in `extra`."""

    kind: str = Field(min_length=1, max_length=32)
    amount: Cents
    # a list of lists: monte-banca's Cartas, one side's cards against the other's ([[1], [2]], 003:6138-6143)
    on: list[StrictInt | StrictStr] | list[list[StrictInt]] | StrictInt | StrictStr | None = None
    extra: dict[str, Scalar] = Field(default_factory=dict, max_length=8)


class BetsIn(Body):
    bets: list[BetIn] = Field(min_length=1, max_length=50)


class ActIn(Body):
    """A decision: `do` a verb of the game on `bet` (or for hand `by`); `fields` the game's extra act
    fields (an insurance amount...); `cards` only a live table's croupier keys."""

    do: str = Field(min_length=1, max_length=32)
    bet: str | None = Field(None, max_length=64)
    by: str | None = Field(None, max_length=64)
    # scalars, or a short list of cards (a Pai Gow setting's `high` and `low`, 003:4000-4003)
    fields: dict[str, Scalar | Annotated[list[Annotated[str, Field(max_length=4)]], Field(max_length=7)]] = Field(
        default_factory=dict, max_length=8)
    cards: list[str] | None = Field(None, max_length=52)


class CloseIn(Body):
    cards: list[str] | None = Field(None, max_length=64)


class OutcomeIn(Body):
    """A keyed result: the ball's number, the dice, the symbol... as the game's outcome event takes it."""

    value: StrictInt | StrictStr | list[StrictInt | StrictStr] | dict[str, Any]
    name: str | None = Field(None, max_length=16)
    last: bool = False


class CorrectIn(OutcomeIn):
    """A correction by the table chief: the new result and why (recorded in the table's log and the staff log,
    and read out in the players' feed)."""

    reason: str = Field(min_length=1, max_length=200)      # issue 30: a correction asks for a reason, as a void does


class VoidIn(Body):
    reason: str = Field(min_length=1, max_length=200)


class LimitsIn(Body):
    values: dict[str, Scalar] = Field(min_length=1, max_length=32)


class MoneyIn(Body):
    user: str = Username
    amount: Cents
    memo: str | None = Field(None, max_length=200)


class FloatIn(Body):
    amount: Cents
    direction: Literal["fill", "credit"] = "fill"


class SitIn(Body):
    """Circle poker: take seat `seat` (1-10 from the croupier's right) with `buy_in` cents from the wallet."""

    seat: StrictInt = Field(ge=1, le=10)
    buy_in: Cents


class RebuyIn(Body):
    """Circle poker: a reposición of `amount` cents from the wallet to the caller's stack, between hands."""

    amount: Cents


class RestIn(Body):
    """Circle poker: `rest: true` sits out from the next hand (two hands at most, 003:4209-4214); false comes back."""

    rest: StrictBool
