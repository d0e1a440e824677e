"""What the estimate tests of the declared games share: a check that an estimate reads nothing the
asking viewer cannot see (the idea of tests/test_metro_estimate.py, for any declared game)."""
from __future__ import annotations

import dataclasses
import random

from companion.rules.declared import nothing_hidden


def assert_estimates_blind(game, low, high, viewer: int, moves, seed: int = 4, playouts: int = 8) -> None:
    """``low`` and ``high`` differ only in what ``viewer`` cannot see: they look the same to the
    viewer and give the viewer the same estimates of ``moves``. The control: with the hidden part
    kept as it is (no redraw) the estimates differ, so the difference does matter to the game."""
    assert game.offers_estimates
    assert low != high and game.view(low, viewer) == game.view(high, viewer)

    def estimate(g, state):
        return g.estimate(state, viewer, moves, random.Random(seed), playouts=playouts, viewer=viewer)

    assert estimate(game, low) == estimate(game, high)
    seen = dataclasses.replace(game, redraw=nothing_hidden)
    assert estimate(seen, low) != estimate(seen, high)
