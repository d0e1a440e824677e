"""One table's session: the live game, who may act, and the fold and commit of its records.

Every change goes the same way: check it against the engine on a copy, commit the
record to the store, then adopt the new state and tell the listeners. So an
illegal move or a failed write changes nothing, and a restart folds the same log
back to the same point.

The session is split by concern: what each viewer sees (table/views.py), what the
table does without a person (table/automation.py, its hands injected), what
observations mean (table/observing.py), hints and estimates (table/hints.py), the
listeners and the views shared by every device (table/live.py).
"""
from __future__ import annotations

import json
import secrets
import threading
import time
from typing import Any, Callable, Mapping

from ..rules.engine import CHANCE, ChanceDrop, IllegalMove, Move
from ..rules.options import RULES_VERSION
from .automation import Automated, Automation
from .board_watch import BoardWatch, reads_board
from .corrections import taught_by
from .crate_moves import reads_crates
from .crate_watch import CrateWatch
from .landing_moves import reads_landings
from .landing_watch import LandingWatch
from .errors import BeamsDisagree, BrokenGame, Forbidden, NotOffered  # noqa: F401 (the table's errors)
from .hints import ESTIMATE_BUDGET, ESTIMATE_PLAYOUTS, Hints  # noqa: F401
from .live import Live
from .log import Folded, LogError, fold, to_jsonl
from .observing import CONFIRM_BELOW, Observing  # noqa: F401
from .store import BoardEvent, CorruptRecord, EventStore
from .summary import keep as keep_summary
from .views import Viewer, Views


__all__ = ["BeamsDisagree", "BrokenGame", "CONFIRM_BELOW", "ESTIMATE_BUDGET", "ESTIMATE_PLAYOUTS", "Forbidden",
           "NotOffered", "TableSession", "Viewer", "parse_move", "public_config", "stored_log"]


def public_config(config: Mapping[str, Any]) -> dict:
    """A game's settings without the players' link tokens: what may leave the server."""
    return {k: v for k, v in config.items() if k != "tokens"}


def stored_log(store: EventStore, game_id: str) -> str:
    """A game's log file (``.jsonl``) made of its records exactly as stored, readable or not,
    one per line: the header's line 1, record N's line N + 1."""
    info = store.game(game_id)
    header = json.dumps({"type": "game", "game": info.game, "config": public_config(info.config)}, sort_keys=True)
    lines = [body.decode("utf-8", "backslashreplace").replace("\r", "\\r").replace("\n", "\\n")
             for _seq, body in store.raw_records(game_id)]
    return "".join(line + "\n" for line in [header, *lines])


def parse_move(data: Any) -> Move:
    """A move as a request carries it (``{"kind", "player", "args"}``); IllegalMove when it is not one."""
    return Move.from_json(data)



def wall_ms() -> int:
    """The service's wall clock in milliseconds: the stamp of a real-time game's moments (and what
    `GET /api/time` tells a dashboard, which runs its clock from it)."""
    return int(time.time() * 1000)

class TableSession(Views, Observing, Automated, Hints, Live):
    # The table's look book (table/looks.py), set by whoever holds the sessions: what the host's
    # corrections of the camera teach it; None: they teach nothing.
    teacher = None

    def __init__(self, store: EventStore, game_id: str, automation: Automation | None = None,
                 landing_camera: Callable[[str], dict | None] | None = None):
        """Resume a stored game (unknown id: KeyError); BrokenGame when its log cannot be folded.
        Whatever is due without a person (computer seats, the simulated table's chance) is
        played at once by ``automation`` (None: nothing is), as after any move (:meth:`advance`).
        ``landing_camera(game_id)``: the landing camera's state for this game (Tables.landing_status),
        known before anything is played: while one runs, a simulated table leaves the landings to it."""
        info = store.game(game_id)
        self.store, self.id, self.name, self.config = store, game_id, info.game, info.config
        self.automation = automation
        if info.problem:
            raise BrokenGame(game_id, info.game, 0, info.problem)
        try:
            self.records = store.records(game_id)
            self.folded: Folded = fold(info.game, info.config, self.records)
        except CorruptRecord as exc:
            raise BrokenGame(game_id, info.game, exc.seq, exc.reason, unreadable=True) from None
        except LogError as exc:
            raise BrokenGame(game_id, info.game, exc.line, exc.reason) from None
        except Exception as exc:  # fold's setup: an unknown game, settings it cannot take
            reason = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
            raise BrokenGame(game_id, info.game, 0, str(reason)) from None
        self.lock = threading.RLock()
        self._init_live()
        self._init_hints()
        # The board camera's account of a game whose board it reads (TOKYO METRO), else None.
        self.board_watch: BoardWatch | None = (BoardWatch(self) if reads_board(info.game, self.folded.state)
                                               else None)
        # The crate camera's account of a game played on a grid of crates (GRAPE SODA, ...), else None.
        self.crate_watch: CrateWatch | None = CrateWatch(self) if reads_crates(self.game) else None
        # The landing camera's account of a game that scores drinks by where they land, else None.
        self.landing_watch: LandingWatch | None = (LandingWatch(self, landing_camera)
                                                   if reads_landings(self.game) else None)
        # A person's move is committed before the computer players and the simulated table's
        # chance follow it, so a crash in between leaves a log that waits on nobody at the
        # table. Resuming does what was due: the same step as after a move, with the same seeds.
        with self.lock:
            self.advance()

    # --- creating -----------------------------------------------------------------------

    @classmethod
    def create(cls, store: EventStore, game: str, names: list[str], bots: list[int] = (),
               simulated: bool = True, seed: int | None = None,
               options: Mapping[str, Any] | None = None, automation: Automation | None = None,
               landing_camera: Callable[[str], dict | None] | None = None) -> "TableSession":
        # "rules": the rules version the game is played under (rules/options.py RULES_VERSION).
        config = {"names": list(names), "bots": sorted(set(bots)), "simulated": simulated, "rules": RULES_VERSION,
                  "seed": secrets.randbits(32) if seed is None else seed,
                  "options": dict(options or {})}
        fold(game, config, [])  # raises (KeyError / IllegalMove) before anything is stored
        # resuming it plays what is due
        return cls(store, store.create_game(game, config), automation, landing_camera)

    # --- reading ------------------------------------------------------------------------

    @property
    def game(self):
        return self.folded.game

    @property
    def state(self):
        return self.folded.state

    @property
    def bots(self) -> list[int]:
        return list(self.config.get("bots", []))

    @property
    def simulated(self) -> bool:
        return bool(self.config.get("simulated", True))

    @property
    def over(self) -> bool:
        """Whether nothing more happens in this game: it reached its end, or the host ended it."""
        return self.folded.ended or self.game.is_over(self.state)

    @property
    def seats(self) -> int:
        return len(self.config["names"])

    def log_jsonl(self) -> str:
        return to_jsonl(self.name, self.public_config(), self.records)

    def public_config(self) -> dict:
        return public_config(self.config)

    def moves_in_effect(self) -> list[Move]:
        """The moves in effect now (those undo has not taken back), in order."""
        return [move for _state, move, _by in self.folded.history]

    # --- changing -----------------------------------------------------------------------

    def submit(self, move: Move, viewer: Viewer, by: str | None = None, override_beams: bool = False,
               confirmed: str | None = None) -> list[dict]:
        """A move from the table view or a player's phone; raises IllegalMove or Forbidden.
        A drop whose number of drinks the exit beam contradicts raises BeamsDisagree unless
        ``override_beams`` (the host looked and says the beam is wrong; logged with the move).
        ``by``: who entered it when not the viewer's device ("board", "crates": the board or crate camera proposed it,
        ``confirmed`` naming who confirmed it: "table", "seat N" or "auto")."""
        with self.lock:
            self._authorize(move, viewer)
            record = {"type": "move", "move": move.to_json(),
                      "by": by or ("table" if viewer is None else f"seat {viewer}")}
            if confirmed:
                record["confirmed"] = confirmed
            contradicted = self._beams_contradict(move)
            if contradicted is not None:
                if not override_beams:
                    raise BeamsDisagree(contradicted + ". Look into the tray and the chute; if the beam is wrong, "
                                        "confirm this drop with the override (`override_beams: true` with the move)")
                record["override"] = {"beams": list(self.folded.beams)}
            # The host's answer to the camera's question about a drop: what it read wrong, and
            # what the drink really was, teaches the camera (table/corrections.py), logged with it.
            taught = taught_by(self.folded.question, move.args.get("out")) \
                if viewer is None and move.player == CHANCE else []
            if taught:
                record["taught"] = taught
            events = self._commit(record)
            if taught and self.teacher is not None:
                self.teacher.teach(self.id, len(self.folded.history) - 1, len(self.records),
                                   list(move.args["out"]), taught)
            self.advance()
            return events

    def _beams_contradict(self, move: Move) -> str | None:
        """Why the exit beam contradicts this move (a drop with another number of drinks out than
        it counted for this drop), or None (not a drop, no beam counted, the numbers agree)."""
        if move.player != CHANCE or not isinstance(self.game.chance(self.state), ChanceDrop) \
                or not any(self.folded.beams):
            return None
        out = move.args.get("out", ())
        counted = self.folded.beams[1]
        n = len(out) if isinstance(out, (list, tuple)) else 0
        if n == counted:
            return None
        return f"the exit beam counted {counted} drink(s) coming out of this drop; this drop says {n}"

    def _authorize(self, move: Move, viewer: Viewer) -> None:
        if move.player == CHANCE:
            if self._chance_enterer() == viewer:
                return
            if self._secret_for() is not None and viewer is None:
                raise Forbidden("only the player who drew the card enters it, on their own phone")
            raise Forbidden("table outcomes (cards turned up, the tower) are entered on the table view")
        if move.player in self.bots:
            if viewer is None and self.held(move):
                return
            raise Forbidden(f"seat {move.player} is played by the computer")
        if viewer is None and move.kind in self.secret_moves:
            raise Forbidden(f"a {move.kind} is secret: make it on your own phone")
        if viewer is not None and viewer != move.player:
            raise Forbidden("a player's phone can only act for that player")

    def dismiss_question(self) -> None:
        with self.lock:
            self._commit({"type": "dismiss", "by": "table"})

    def end(self) -> None:
        """The host ends the game here (an "end" record): no move, undo or observation follows."""
        with self.lock:
            if self.over:
                raise IllegalMove("this game is over already")
            self._commit({"type": "end", "by": "table"})

    def undo(self) -> list[dict]:
        """Take back the latest move a person made; the events as the table may know them."""
        with self.lock:
            self._commit({"type": "undo", "by": "table"})
            if self.teacher is not None:  # a correction taken back teaches nothing
                self.teacher.take_back(self.id, len(self.folded.history))
            return self.events_for(None)

    def _commit(self, record: dict, applied: tuple | None = None, board: BoardEvent | None = None) -> list[dict]:
        """Check on the fold, write to the store, then adopt. Raises before writing. ``applied``:
        the engine's answer to the record's move, tried already (see Folded.step); ``board``: the
        sensor board's event the record holds (the store's index; Duplicate when it is stored)."""
        if record.get("type") == "move" and record["move"].get("kind") in self.game.clocked_kinds:
            # a real-time game's moment: the service's clock, whatever a device sent (rules/declared.py)
            record = {**record, "move": {**record["move"], "args": {**record["move"].get("args", {}),
                                                                    "at_ms": wall_ms()}}}
        trial = self.folded.trial()
        trial.step(record, applied)
        self.store.append(self.id, record, board=board)
        self.records.append(record)
        self.folded = trial
        if trial.ended or self.game.is_over(trial.state):
            self.store.set_status(self.id, "finished")
            keep_summary(self.store, self.id, trial)  # the history's line of it (table/summary.py)
        for watch in (self.board_watch, self.crate_watch, self.landing_watch):
            if watch is not None:
                watch.game_moved(str(record.get("by", "")))
        self.notify()
        return [e.to_json() for e in trial.events]
