"""What the table refuses, in the table's words: the errors its callers (the server, the CLI,
scripts) catch, so that none of them reaches into the rules for them.

``IllegalMove`` is the rules' refusal (with its ``reason``) as the table passes it on: the same
class, named here so that the server needs nothing of ``companion.rules``.
"""
from __future__ import annotations

from ..rules.engine import IllegalMove

__all__ = ["BeamsDisagree", "BrokenGame", "Forbidden", "IllegalMove", "NoSuchGame", "NotOffered"]


class Forbidden(Exception):
    """The caller may not do this (a seat acting for another, the table making a secret move)."""


class NotOffered(Exception):
    """This game does not offer what was asked for (estimates for a game without them)."""


class NoSuchGame(KeyError):
    """No stored game has this id."""


class BeamsDisagree(IllegalMove):
    """A drop entered with another number of drinks than the exit beam counted: taken only with
    the override (a person who looked says the beam is wrong)."""


class BrokenGame(Exception):
    """A stored game that cannot be resumed: record ``seq`` (1-based; 0: the game's own
    settings) cannot be read or applied, for ``reason``. The game is set aside, as it is: its
    log stays in the store, never rewritten, and can still be read (:func:`stored_log`)."""

    def __init__(self, game_id: str, game: str, seq: int, reason: str, unreadable: bool = False):
        what = (f"its settings cannot be used ({reason})" if not seq else
                f"its record {seq} {reason}" if unreadable else f"its record {seq} cannot be applied ({reason})")
        super().__init__(f"game {game_id} ({game}) is set aside: {what}. It is kept in the store as it is, "
                         f"never rewritten; read its log at /api/games/{game_id}/log.jsonl (`companion replay` "
                         f"names it as line {seq + 1}). The other games go on; start a new game to play on.")
        self.game_id, self.game, self.seq, self.reason = game_id, game, seq, reason

    def to_json(self) -> dict:
        return {"seq": self.seq, "reason": self.reason, "message": str(self)}
