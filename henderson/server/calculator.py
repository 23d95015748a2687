"""The battle calculator served to the browser: a game's form, and the exact odds of any attack
described by its inputs. It needs no seat and reads no position, so it reveals nothing hidden."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from henderson.core.game import Capability, Game
from henderson.server.errors import ApiError
from henderson.server.matches import game_named
from henderson.server.schemas import CalculatorRequest

router = APIRouter()


def calculator_game(name: str) -> Game:
    """The game `name`, refused with 404 when it has no battle calculator."""
    game = game_named(name)
    if Capability.CALCULATOR not in game.capabilities:
        raise ApiError(404, "no-calculator", f"{name} has no battle calculator")
    return game


@router.get("/api/games/{name}/calculator", tags=["games"])
async def calculator_form(name: str) -> dict[str, Any]:
    """The battle calculator's inputs: each field's name, label, kind (number, choice, flag),
    default, range or choices, and the rule it comes from."""
    return {"game": name, **calculator_game(name).calculator_form().to_json()}


@router.post("/api/games/{name}/calculator", tags=["games"])
async def calculate(name: str, body: CalculatorRequest) -> dict[str, Any]:
    """The exact odds of any attack from the inputs given (the rest take their defaults): a
    summary, each rule that changed the odds, the chance of each result, and the game's own
    figures; a bad input is refused naming the field."""
    game = calculator_game(name)
    inputs = game.calculator_form().read(body.inputs)
    result = await asyncio.to_thread(game.calculate, inputs)
    return {"game": name, "inputs": inputs, "text": result.text(), **result.to_json()}
