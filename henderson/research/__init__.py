"""For researchers: henderson's games as fixed token action spaces with legal-action masks,
observation tensors per seat, dice as explicit chance nodes, and PettingZoo, Gymnasium and
OpenSpiel environments (docs/research.md).

The names below are imported when first used, so that `import henderson.research` needs
nothing beyond henderson; the tensors need numpy and the environments their libraries:
`pip install 'henderson[rl]'` (and `[openspiel]`).
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ActionSpace": "henderson.research.actions",
    "LegalTokens": "henderson.research.actions",
    "action_space": "henderson.research.actions",
    "END_ID": "henderson.research.actions",
    "Vocabulary": "henderson.research.vocabulary",
    "VocabularyError": "henderson.research.vocabulary",
    "vocabulary": "henderson.research.vocabulary",
    "register_vocabulary": "henderson.research.vocabulary",
    "Match": "henderson.research.match",
    "MatchError": "henderson.research.match",
    "CHANCE": "henderson.research.match",
    "ChosenDice": "henderson.research.chance",
    "DieNeeded": "henderson.research.chance",
    "Observer": "henderson.research.observation",
    "ObservationSpec": "henderson.research.observation",
    "register_encoder": "henderson.research.observation",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'henderson.research' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
