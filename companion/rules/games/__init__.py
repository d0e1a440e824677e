"""One module per JIDOHANBAIKI game; ``GAMES`` maps a game id to its module (TOKYO METRO,
which lives in its own package, is registered here too)."""
from __future__ import annotations

from . import (chocolate_milk, jasmine_tea, lemon_squash, melon_soda, pocari_bet, pura, upside_down_tower,
               vending_poker)

from ..metro import game as tokyo_metro



class _Undeclared:
    """TRANSITION (issue 27): a game module not yet declared, offered with the declared surface.
    Removed once every game is declared."""

    def __init__(self, module):
        self.module, self.name, self.players = module, module.NAME, module.PLAYERS
        self.title = getattr(module, "TITLE", module.NAME)
        self.options = getattr(module, "Options", None)

    def __getattr__(self, name):
        return getattr(self.module, name)

    secret_kinds = property(lambda self: frozenset(getattr(self.module, "SECRET_MOVES", ())))
    held_kinds = property(lambda self: frozenset(getattr(self.module, "HELD_FOR_PEOPLE", ())))
    offers_estimates = property(lambda self: hasattr(self.module, "estimate"))

    def composite_moves(self, state, seat):
        describe = getattr(self.module, "composite_moves", None)
        return describe(state, seat) if describe else []

    def estimate_cost(self, state):
        return getattr(self.module, "estimate_cost", lambda _state: 1)(state)

    def secret_owner(self, before, move):
        from ..engine import CHANCE
        if move.player == CHANCE:
            return next((p.secret_for for p in self.module.pending(before) if p.actor == CHANCE), None)
        return move.player if move.kind in self.secret_kinds else None


# A game module offers its declaration as GAME (rules/declared.py).
GAMES = {m.NAME: m.GAME if hasattr(m, "GAME") else _Undeclared(m)
         for m in (pocari_bet, jasmine_tea, melon_soda, vending_poker, upside_down_tower, chocolate_milk, pura,
                   lemon_squash, tokyo_metro)}


def get(name: str):
    """The game module for ``name``; a KeyError that lists the known games."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}") from None
