"""Validated request bodies (pydantic): unknown fields and oversize values are refused."""

from __future__ import annotations

from typing import Any

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
    """A JSON Lines record to resume, optionally who plays each side from now on, and as for a
    new match the uploader's side, one screen, and contribution."""

    record: str = Field(min_length=1)
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
