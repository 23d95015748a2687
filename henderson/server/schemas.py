"""Validated request bodies (pydantic): unknown fields and oversize values are refused."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

Name = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$")


class Body(BaseModel):
    """Base of every body: extra fields are an error, not silently ignored."""

    model_config = ConfigDict(extra="forbid")


Contribution = Field(
    default=None,
    min_length=32,
    max_length=128,
    pattern=r"^[0-9a-f]+$",
    description="random bits of the seat's own (hex) mixed into the dice, so that nobody else decides them",
)
Side = Field(
    default=None, min_length=1, max_length=64, description="the creator's seat (default: the first human side)"
)
Hotseat = Field(default=False, description="every human seat is played on the creator's screen: a token for each")


class CreateMatch(Body):
    """A new match: the game, its options, each side's player ("human" or an agent name), the
    creator's side, whether all human sides play on one screen, and the creator's
    contribution to the dice."""

    game: str = Name
    options: dict[str, Any] = Field(default_factory=dict)
    players: dict[str, str] = Field(default_factory=dict, max_length=16)
    side: str | None = Side
    hotseat: bool = Hotseat
    contribution: str | None = Contribution


class UploadRecord(Body):
    """A JSON Lines record to resume (or every seat's copy of one match, whose sealed record is
    resumed), optionally who plays each side from now on, and as for a new match the
    uploader's side, one screen, and contribution."""

    record: str = Field(min_length=1)
    other_copies: list[str] = Field(
        default_factory=list,
        max_length=15,
        description="when `record` is one seat's copy: the other seats' copies of the same match",
    )
    players: dict[str, str] | None = Field(default=None, max_length=16)
    side: str | None = Side
    hotseat: bool = Hotseat
    contribution: str | None = Contribution


class ClaimInvite(Body):
    """The claimer's contribution to the dice (random hex of its own)."""

    contribution: str | None = Contribution


class PlayAction(Body):
    """An action in the game's notation and the state id (`ply`) it was chosen on."""

    action: str = Field(min_length=1, max_length=1000)
    ply: int = Field(ge=0)


CalculatorValue = bool | Annotated[int, Field(ge=-(10**6), le=10**6)] | Annotated[str, Field(max_length=64)]


class CalculatorRequest(Body):
    """A battle calculator's inputs by field name (`GET /api/games/{name}/calculator` lists
    them); inputs left out take their defaults."""

    inputs: dict[Annotated[str, Field(max_length=64)], CalculatorValue] = Field(default_factory=dict, max_length=64)


class MyGames(Body):
    """The seat tokens a browser holds."""

    tokens: list[str] = Field(max_length=500)


class OddsRequest(Body):
    """An attack in the game's notation whose odds the seat wants to see before committing."""

    attack: str = Field(min_length=1, max_length=1000)


class PreviewRequest(Body):
    """Actions to try on a copy of the position, and the view fields to return for each."""

    actions: list[str] = Field(min_length=1, max_length=400)
    fields: list[str] = Field(min_length=1, max_length=8)


class UndoRequest(Body):
    """The state id the undo is asked on."""

    ply: int = Field(ge=0)


class ErrorBody(BaseModel):
    """Every refusal: a short code and a one-line message naming what is wrong."""

    error: str = Field(description="a short code, e.g. `not-your-turn`, `illegal-action`, `no-token`")
    message: str = Field(description="one line naming the field, action or rule at fault")


# The refusals any route may give (documented on every operation, as the server answers them);
# refusals are JSON even where a route's answer is text (a record)
REFUSALS = {
    400: "the request is malformed (not JSON, nested too deep, a bad field)",
    401: "a seat token is needed and none was given",
    403: "the seat may not do this (not its decision, a spectator …)",
    404: "no such game, match, seat or invite",
    409: "the request no longer fits the match (stale ply, game over …)",
    413: "the body is larger than allowed",
    422: "the request is well formed but refused by the rules or the data",
}
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "content": {"application/json": {}}, "description": text}
    for code, text in REFUSALS.items()
}
