"""The simulated table's hands, handed to the table by the composition root (``companion serve``,
the tests' fixtures): the computer players (sim/players.py), the chance outcomes drawn with the
game's seed, and the seeded tower (sim/tower.py). See companion/table/automation.py."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..observation import Observation
from .players import bot_move, choose
from .tower import SimTower


class SimTable:
    """The table's :class:`~companion.table.automation.Automation` on a simulated table."""

    # A move made on the dashboard (or by a computer player) is copied onto the simulated TOKYO
    # METRO board this many seconds later, a hand passing over it (table/board_device.py).
    board_follow_s = 1.5

    def player_move(self, game: Any, state: Any, moves: Sequence[Any], seed: str) -> Any:
        return bot_move(game, state, moves, seed)

    def chance_move(self, outcomes: Sequence[Any], seed: str) -> Any:
        return choose(outcomes, seed)

    def drop(self, thrown: list[str], inside: list[str], seed: str, options: Mapping[str, Any]) -> Observation:
        return SimTower(seed=seed, **dict(options)).drop(thrown, inside)


SIM_TABLE = SimTable()
