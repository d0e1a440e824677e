"""One module per JIDOHANBAIKI game; ``GAMES`` maps a game id to its module."""
from __future__ import annotations

from . import pocari_bet

GAMES = {pocari_bet.NAME: pocari_bet}


def get(name: str):
    """The game module for ``name``; a KeyError that lists the known games."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}") from None
