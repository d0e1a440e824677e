"""What a camera over the table's pieces does for one game, whatever it reads: the board camera
(TOKYO METRO's board, table/board_watch.py) and the crate camera (the crate games' crates,
table/crate_watch.py) are this one watch, each saying what it compares.

A camera's device hands every frame's reading to the game it feeds (:meth:`Watch.feed`). Frames
that cannot be taken (a hand over the pieces, nothing found) are passed over: they never settle
and nothing they show is proposed. The pieces *settle* when the same pieces (the places read
with doubt left out) are read in SETTLE_FRAMES usable frames in a row spanning ``settle_s`` at
least (SETTLE_S unless the table chose another). Settled pieces are compared with the game:

- equal: they match (a to-do left by a move made on the dashboard is done);
- one sequence of legal moves explains them: a proposal, confirmed with one tap by the host or
  the seat whose moves they are, or applied at once in auto mode (the host's switch);
- several explain them: the same proposal with the candidates, a question;
- none: the differences, cause ``camera`` side (``board``: a knock, a mistake).

The other way round, a move made by any other path (the dashboard, a computer player, an undo)
that changes the game's pieces turns the differences into a to-do list, cause ``dashboard``,
until the pieces settle matching. A confirmed proposal is made as any move is
(``TableSession.submit``), the record saying which camera proposed it (``by``: the watch's BY)
and who confirmed it. Times are the table's monotonic clock; the rules never see a clock.

A subclass says what a reading holds and how it compares: :meth:`expected` (the game's pieces),
:meth:`differences`, :meth:`same`, :meth:`search` (the bounded search of legal moves),
:meth:`observe` (a frame's problems), and what its JSON adds.
"""
from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..rules.engine import IllegalMove, Move
from .errors import Forbidden

log = logging.getLogger(__name__)

SETTLE_FRAMES = 3       # usable frames in a row showing the same pieces ...
SETTLE_S = 0.6          # ... over at least this long: the pieces have settled (Watch.settle_s)
SETTLE_S_RANGE = (0.2, 5.0)   # the settle times `companion serve --board-settle-s` takes
MAX_UNSURE_SHOWN = 12      # places read with doubt named on the dashboard (the first, by id)
MAX_CANDIDATES = 8      # several explanations: at most this many are put to the players


class BadAnswer(ValueError):
    """An answer to a proposal that cannot be taken as it is (a candidate it does not have)."""


@dataclass
class _Run:
    """Usable frames in a row that show the same pieces."""

    reading: Any
    start: float
    count: int = 1
    unsure: set[str] = field(default_factory=set)
    settled: bool = False
    recent: list = field(default_factory=list)   # the unsure places of the latest SETTLE_FRAMES frames

    def clearer(self) -> set[str] | None:
        """The places unsure now, when the latest frames all read clearly a place the run had
        unsure (a hand straightened a piece, a glare went): the pieces settle again on them."""
        if not self.settled or len(self.recent) < SETTLE_FRAMES:
            return None
        now = set().union(*self.recent)
        return now if self.unsure - now else None


@dataclass(frozen=True)
class Proposal:
    id: str
    candidates: tuple[tuple[Move, ...], ...]   # one: a proposal; several: a question
    step: int                                  # the game's records when it was made (stale after)
    board: Any                                 # the settled pieces it explains
    settled_at: float
    proposed_at: float

    @property
    def seat(self) -> int:
        return self.candidates[0][0].player

    def to_json(self) -> dict:
        one = len(self.candidates) == 1
        return {"id": self.id, "moves": [m.to_json() for m in self.candidates[0]] if one else [],
                "seat": self.seat, "settled_at": round(self.settled_at, 3), "proposed_at": round(self.proposed_at, 3)}


class Watch:
    """A camera's account of one game (see the module). ``camera()``: the camera's own state for
    this game (``present``, ``simulated``, ``feeding``, ``problem``: a device's problem code or
    None), or None without such a camera."""

    BY = "board"                 # the records' ``by`` of the moves it proposed
    THING = "the board"          # what it reads, in its messages
    CAMERA = "the board camera"  # who it is, in its messages

    def __init__(self, session: Any, camera: Callable[[str], dict | None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.session, self.camera, self.clock = session, camera, clock
        self.rev = 0                      # bumped whenever what the dashboards show changes
        self.auto = False
        self.settle_s = SETTLE_S          # the table's choice (`companion serve --board-settle-s`)
        self.matches: bool | None = None
        self.cause: str | None = None
        self.diffs: list = []
        self.proposal: Proposal | None = None
        self.settled: Any = None
        self.settled_at: float | None = None
        self.problem: dict | None = None
        self.searches: list[float] = []   # ms of the latest searches (for the benchmark and status)
        self._run: _Run | None = None
        self._game_board = self.expected(session.state)
        self._before: Any = None              # the game's pieces before the latest move not made here
        self.todo_since: float | None = None  # since when a move made elsewhere waits to be made at the table
        self.moved_at: float | None = None    # when a move made elsewhere last changed the game's pieces
        self._dismissed: tuple[Any, int] | None = None
        self._recheck = False

    # --- what a subclass says ------------------------------------------------------------------

    def expected(self, state: Any) -> Any:
        """The game's pieces as the camera would see them."""
        raise NotImplementedError

    def differences(self, game: Any, settled: Any) -> list:
        """Where the game's pieces and a (settled) reading differ, its unsure places left out."""
        raise NotImplementedError

    def same(self, a: Any, b: Any) -> bool:
        """Whether two readings show the same pieces where both are sure."""
        raise NotImplementedError

    def search(self, state: Any, settled: Any) -> Any:
        """The bounded search for the moves that explain a settled reading (an ``Explained``)."""
        raise NotImplementedError

    def observe(self, reading: Any, now: float) -> bool:
        """Take a frame's problems (sets ``problem``); whether the frame may settle."""
        raise NotImplementedError

    def pieces_of(self, settled: Any) -> Any:
        """What of a settled reading a proposal or a dismissal is about (all of it by default)."""
        return settled

    def prepare(self, reading: Any) -> Any:
        """The reading as it is compared (the board: drinks left out where the game has none)."""
        return reading

    def merge(self, so_far: Any, reading: Any) -> Any:
        """What a run of the same pieces shows, given its reading so far and the newest frame's
        (which ``same`` found to agree): the newest frame's by default; the crates keep what
        earlier frames knew of a field the newest reads with doubt."""
        return reading

    def settle(self, reading: Any, unsure: set) -> Any:
        """The settled reading: the run's, with the pieces the run still doubts as its ``unsure``."""
        return reading.model_copy(update={"unsure": sorted(unsure)})

    def extra_json(self) -> dict:
        return {}

    def diff_json(self, d: Any) -> dict:
        return d.model_dump()

    def shown_extra(self) -> tuple:
        return ()

    # --- frames -------------------------------------------------------------------------------

    def feed(self, reading: Any, at: float | None = None) -> str | None:
        """Take one frame's reading (``at``: when it was read, the table's monotonic clock). Answers
        what it did: None (a frame in a run), ``skipped`` (not usable), or, when the pieces settle
        (or are looked at again after the game moved), ``matches``, ``proposal``, ``question``,
        ``differences`` or ``applied`` (auto mode)."""
        entered = self.clock()
        now = entered if at is None else at
        reading = self.prepare(reading)
        with self.session.lock:
            before = self._shown()
            if not self.observe(reading, now):
                self._run = None   # a hand or a lost view breaks a run: the pieces settle again after
                self._changed(before)
                return "skipped"
            run = self._run
            if run is not None and self.same(run.reading, reading):
                run.count += 1
                run.reading = self.merge(run.reading, reading)
                run.recent = (run.recent + [set(reading.unsure)])[-SETTLE_FRAMES:]
                clearer = run.clearer()
                if clearer is not None:
                    run.unsure = clearer
                    self.settled = self.settle(run.reading, clearer)
                    self._recheck = True
                elif not run.settled:
                    run.unsure |= set(reading.unsure)
            else:
                run = self._run = _Run(reading, now, unsure=set(reading.unsure), recent=[set(reading.unsure)])
            settles = not run.settled and run.count >= SETTLE_FRAMES and now - run.start >= self.settle_s - 1e-6
            again = run.settled and self._recheck
            if not settles and not again:
                self._changed(before)
                return None
            if settles:
                run.settled = True
                self.settled = self.settle(run.reading, run.unsure)
                self.settled_at = now
            self._recheck = False
            settled, settled_at = self.settled, self.settled_at
            state, step, over = self.session.state, self.session.step, self.session.over
            self._changed(before)
        # The proposal's time on the frame's clock: the watch's own when the frame was timed on it
        # (the camera's thread: the frame's reading is part of the wait), else the time the
        # frame settled plus the time taken here since (a caller with a clock of its own).
        same_clock = at is None or 0.0 <= entered - at < 30.0
        return self._compare(settled, settled_at, state, step, over,
                             self.clock if same_clock else (lambda: now + self.clock() - entered))

    # --- comparing -----------------------------------------------------------------------------

    def _compare(self, settled: Any, settled_at: float, state: Any, step: int, over: bool,
                 clock: Callable[[], float]) -> str:
        """Compare settled pieces with the game (the search runs outside the session's lock)."""
        diffs = self.differences(self.expected(state), settled)
        found = None
        if diffs and not over and not self._is_todo(settled) and not self._was_dismissed(settled, step):
            t0 = time.perf_counter()
            found = self.search(state, settled)
            self.searches = (self.searches + [(time.perf_counter() - t0) * 1000])[-20:]
        with self.session.lock:
            if self.session.step != step:   # the game moved meanwhile: look again at the next frame
                self._recheck = True
                return "stale"
            before = self._shown()
            self.diffs = list(diffs)
            self.matches = not diffs
            outcome = "matches"
            if not diffs:
                self.cause, self.proposal, self._before, self.todo_since = None, None, None, None
            elif found is not None and found.explanations:
                kept = self.proposal
                pieces = self.pieces_of(settled)
                if kept is None or kept.step != step or kept.board != pieces:
                    kept = Proposal(secrets.token_hex(6), found.explanations[:MAX_CANDIDATES], step, pieces,
                                    settled_at, clock())
                self.proposal = kept
                self.cause = "dashboard" if self._before is not None else None
                outcome = "proposal" if len(kept.candidates) == 1 else "question"
            else:
                self.proposal = None
                self.cause = "dashboard" if self._before is not None else "board"
                outcome = "differences"
            auto = self.auto and outcome == "proposal"
            self._changed(before)
        if auto:
            try:
                self.confirm(self.proposal.id, None, None, confirmed="auto")
                return "applied"
            except (IllegalMove, Forbidden) as exc:
                log.info("%s: auto mode could not apply the proposal: %s", self.CAMERA, exc)
        return outcome

    def _is_todo(self, settled: Any) -> bool:
        """Whether the pieces are still as they were before the move waiting to be made on them."""
        return self._before is not None and not self.differences(self._before, settled)

    def _was_dismissed(self, settled: Any, step: int) -> bool:
        return self._dismissed is not None and self._dismissed == (self.pieces_of(settled), step)

    def _may(self, move: Move) -> bool:
        """Moves the camera may explain: no secret kinds, no computer player's (but its held ones)."""
        s = self.session
        return move.kind not in s.secret_moves and (move.player not in s.bots or s.held(move))

    # --- the game moved --------------------------------------------------------------------------

    def game_moved(self, by: str) -> None:
        """The session committed a record (under its lock; it tells the listeners itself). A change
        of the game's pieces not made through this watch is a to-do for the table."""
        now_board = self.expected(self.session.state)
        before = self._shown()
        if self.proposal is not None:   # made for another state: looked at again at the next frame
            self.proposal = None
            self._recheck = True
        if now_board != self._game_board:
            if by != self.BY:
                self.moved_at = self.clock()
                if self._before is None:
                    self._before, self.todo_since = self._game_board, self.moved_at
            self._game_board = now_board
            if self.settled is not None:
                self.diffs = list(self.differences(now_board, self.settled))
                self.matches = not self.diffs
                if self.matches:
                    self.cause, self._before, self.todo_since = None, None, None
                else:
                    self.cause = "dashboard" if self._before is not None else "board"
                    self._recheck = True
        if self.settled is not None and not self.matches:
            self._recheck = True   # the next position may explain the pieces (or no longer)
        self._changed(before, notify=False)

    # --- answers ---------------------------------------------------------------------------------

    def confirm(self, proposal_id: str, candidate: int | None, viewer: int | None,
                confirmed: str | None = None) -> dict:
        """Make the proposed moves (``candidate``: which of several): the host (``viewer`` None) or
        the seat all of them are for. IllegalMove when it is no longer proposed, Forbidden for
        another seat, BadAnswer for a candidate it does not have."""
        with self.session.lock:
            proposal = self._current(proposal_id)
            n = len(proposal.candidates)
            if n > 1 and candidate is None:
                thing = "the board" if self.BY == "board" else "the crates" if self.BY == "crates" else "the landings"
                last = n - 1
                raise BadAnswer(f"{thing} can be read as {n} different moves: say which (candidate 0 to {last})")
            index = 0 if candidate is None else candidate
            if not 0 <= index < n:
                raise BadAnswer(f"there is no candidate {index}: this proposal has {n} (0 to {n - 1})")
            moves = proposal.candidates[index]
            if viewer is not None and any(m.player != viewer for m in moves):
                raise Forbidden("a player's phone confirms only its own seat's moves; the host confirms the "
                                "others on the table view")
            who = confirmed or ("table" if viewer is None else f"seat {viewer}")
            events: list[dict] = []
            self.proposal = None
            for move in moves:   # each as any move is made: checked, recorded, in the feed, undoable
                events += self.session.submit(move, viewer, by=self.BY, confirmed=who)
            return {"result": "applied", "moves": [m.to_json() for m in moves], "events": events}

    def dismiss(self, proposal_id: str, viewer: int | None) -> dict:
        """Set a proposal aside (the host or its seat): the differences show instead, and the same
        pieces are not proposed again for this position."""
        with self.session.lock:
            proposal = self._current(proposal_id)
            if viewer is not None and proposal.seat != viewer:
                raise Forbidden("a player's phone sets aside only a proposal for its own seat")
            before = self._shown()
            self._dismissed = (proposal.board, proposal.step)
            self.proposal = None
            self.cause = "dashboard" if self._before is not None else "board"
            self._changed(before)
            return {"result": "dismissed"}

    def set_auto(self, on: bool) -> dict:
        with self.session.lock:
            before = self._shown()
            self.auto = bool(on)
            self._changed(before)
            return {"auto": self.auto}

    def _current(self, proposal_id: str) -> Proposal:
        proposal = self.proposal
        camera = ("the board camera" if self.BY == "board" else "the crate camera" if self.BY == "crates"
                  else "the landing camera")
        thing = "the board" if self.BY == "board" else "the crates" if self.BY == "crates" else "the landings"
        if proposal is None or proposal.id != proposal_id:
            raise IllegalMove(f"{camera} proposes nothing by that id now ({thing} or the game changed "
                              f"since); look at {camera}'s panel again")
        if proposal.step != self.session.step:
            raise IllegalMove(f"the game moved on since {camera} proposed this; look at {thing} again")
        return proposal

    # --- what the dashboards show --------------------------------------------------------------

    def to_json(self) -> dict:
        """The camera's object in the game's view (the API's shape)."""
        with self.session.lock:
            device = self.camera(self.session.id) if self.camera is not None else None
            present = bool(device and device.get("present"))
            problem = (device or {}).get("problem") or self.problem
            if not present:
                state = "off"
            elif problem is not None:
                state = "problem"
            elif not device.get("feeding"):
                state = "resting"
            else:
                state = "reading"
            proposal = self.proposal
            several = proposal is not None and len(proposal.candidates) > 1
            return {
                "present": present, "simulated": bool(device and device.get("simulated")), "state": state,
                "problem": problem if present else None, **self.extra_json(),
                "matches": self.matches, "cause": None if self.matches else self.cause,
                "differences": [self.diff_json(d) for d in self.diffs],
                "proposal": proposal.to_json() if proposal is not None else None,
                "candidates": [{"moves": [m.to_json() for m in c]} for c in proposal.candidates] if several else None,
                "auto": self.auto, "rev": self.rev,
                # places read with doubt are left out of every comparison: the dashboard says which,
                # so that a piece put there is not taken for "it matches"
                "unsure": self._unsure(),
            }

    def _unsure(self) -> list[str]:
        return sorted(self.settled.unsure)[:MAX_UNSURE_SHOWN] if self.settled is not None else []

    def touch(self) -> None:
        """The camera's state around this game changed (it feeds it now, or no longer)."""
        with self.session.lock:
            self.rev += 1
            self.session.touched()
        self.session.notify()

    def _shown(self) -> tuple:
        p = self.proposal
        return (self.matches, self.cause, tuple(self.diffs), p.id if p else None, self.auto,
                (self.problem or {}).get("code"), tuple(self._unsure()), *self.shown_extra())

    def _changed(self, before: tuple, notify: bool = True) -> None:
        """Bump ``rev`` (and tell the live views) when what the dashboards show changed."""
        if self._shown() != before:
            self.rev += 1
            self.session.touched()
            if notify:
                self.session.notify()
