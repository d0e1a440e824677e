"""Simple computer players for empty seats: they choose among the legal moves."""
from __future__ import annotations

import random
from typing import Sequence, TypeVar

T = TypeVar("T")


def choose(options: Sequence[T], seed: str) -> T:
    """A reproducible choice: the same seed (game seed + log position) picks the same
    option, so a resumed game's computer players behave as before the restart."""
    if not options:
        raise ValueError("no options to choose from")
    return random.Random(seed).choice(list(options))
