"""What happens at the table without a person: the computer players' moves, and on a simulated
table the chance outcomes and the tower's drops. The table decides *when* (after every change, and
on resuming, the same step with the same seeds); *what* is decided by an :class:`Automation` that
the composition root hands in (``companion serve`` the simulated table of ``companion.sim``, a
test its own), so that the table never imports the simulation. Without one, nothing is played
on its own: computer seats and the tower wait.
"""
from __future__ import annotations

from typing import Any, Mapping, Protocol, Sequence

from ..observation import Observation
from ..rules.engine import CHANCE, ChanceDrop, IllegalMove, Move
from .errors import Forbidden


class Automation(Protocol):
    """The hands of the table that are not a person's. Every choice is reproducible from ``seed``
    (the game's seed and the log's length), so a resumed game plays on as it would have."""

    def player_move(self, game: Any, state: Any, moves: Sequence[Move], seed: str) -> Move:
        """A computer player's move among ``moves`` (legal moves of one seat)."""

    def chance_move(self, outcomes: Sequence[Move], seed: str) -> Move:
        """A chance outcome drawn on the simulated table (a card turned up, a tie-break)."""

    def drop(self, thrown: list[str], inside: list[str], seed: str, options: Mapping[str, Any]) -> Observation:
        """What the simulated tower lets out of a throw (``options``: the game's ``sim_tower``)."""

    # Optional: ``board_follow_s`` (seconds): the simulated players copy a move made on the
    # dashboard onto a simulated TOKYO METRO board this long after it (table/board_device.py).


class Automated:
    """The session's automatic moves (mixed into TableSession: uses its state, lock and commit)."""

    automation: Automation | None = None

    def throw(self) -> dict:
        """Simulated table only: throw what is due into the simulated tower and report it."""
        with self.lock:
            return self.observe(self.sim_drop()[1])

    def sim_drop(self) -> tuple[list[str], Observation]:
        """Simulated table only: what is thrown now, and what the simulated tower lets out."""
        with self.lock:
            if not self.simulated:
                raise Forbidden("this table has a real tower: throw the drinks, the camera or a tap reports them")
            if self.automation is None:
                raise Forbidden("no simulated tower runs here: throw the drinks, the camera or a tap reports them")
            spec = self.game.chance(self.state)
            if not isinstance(spec, ChanceDrop):
                raise IllegalMove("nothing is waiting to be thrown into the tower now")
            return list(spec.thrown), self._sim_tower(list(spec.thrown), list(spec.inside))

    def _sim_tower(self, thrown: list[str], inside: list[str]) -> Observation:
        return self.automation.drop(thrown, inside, f"{self.config['seed']}:{len(self.records)}",
                                    self.config.get("sim_tower", {}))

    def advance(self) -> None:
        """Let the simulated table and the computer players take their turns."""
        for _ in range(10_000):  # a bound: a game never needs this many automatic moves
            move = self._automatic_move()
            if move is None:
                return
            if isinstance(move, Observation):
                self.observe(move)
                continue
            self._commit({"type": "move", "move": move.to_json(), "by": "sim" if move.player == CHANCE else "bot"})

    def _automatic_move(self) -> Move | Observation | None:
        if self.over or self.automation is None:
            return None
        seed = f"{self.config['seed']}:{len(self.records)}"
        for pending in self.game.pending(self.state):
            if pending.actor in self.bots:
                moves = self.game.legal_moves(self.state, pending.actor)
                if any(self.held(m) for m in moves):  # its move waits for a tap on the table view
                    continue
                return self.automation.player_move(self.game, self.state, moves, seed)
            if pending.actor == CHANCE and self.simulated:
                spec = self.game.chance(self.state)
                if isinstance(spec, ChanceDrop):
                    # People throw the drinks themselves; a table of computers throws at once.
                    humans = set(range(len(self.config["names"]))) - set(self.bots)
                    return self._sim_tower(list(spec.thrown), list(spec.inside)) if not humans else None
                if self._camera_reads_chance():
                    return None   # the landing camera sees where the drinks landed; the table confirms
                return self.automation.chance_move([m for m, _ in spec.outcomes], seed)
        return None

    def _camera_reads_chance(self) -> bool:
        """Whether the chance due is where drinks landed, and a landing camera runs to see it
        (a table of computers alone does not wait for it)."""
        watch = getattr(self, "landing_watch", None)
        return watch is not None and self.has_people and watch.reads_now()
