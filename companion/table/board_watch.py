"""The board camera's side of one TOKYO METRO game: settled boards, proposals, board vs game.

The board camera (table/board_device.py) hands every frame's :class:`BoardReading` to the game
it feeds (:meth:`BoardWatch.feed`). Frames that cannot be taken (a hand over the board, the pose
lost) are passed over: they never settle and nothing they show is proposed. The board *settles*
when the same pieces (the spots read with doubt left out) are read in SETTLE_FRAMES usable frames
in a row spanning ``settle_s`` at least (SETTLE_S unless the table chose another:
`companion serve --board-settle-s`). A settled board is compared with the game:

- equal: the board matches (a to-do left by a move made on the dashboard is done);
- one sequence of legal moves explains it (table/board_moves.py): a proposal, confirmed with
  one tap by the host or the seat whose moves they are, or applied at once in auto mode (the
  host's switch);
- several explain it: the same proposal with the candidates, a question;
- none: the differences, cause "board" (a knock, a mistake).

The other way round, a move made by any other path (the dashboard, a computer player, an
undo) that changes the game's board turns the differences into a to-do list, cause "dashboard",
until the board settles matching. Problems (a hand that never leaves, no markers, the pose lost
for a while, a colour of no player) are codes the dashboard words; the game goes on by taps.

A confirmed proposal is made as any move is (``TableSession.submit``: the same checks, record,
feed and undo), the record saying the board camera proposed it (``by: "board"``) and who
confirmed it (``confirmed``: the table, a seat, or auto). Times are the table's monotonic
clock (``settled_at``, ``proposed_at``); the rules never see a clock.
"""
from __future__ import annotations

import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..board_pieces import BoardReading, Difference, Pieces, differences
from ..rules.engine import IllegalMove, Move
from .board_moves import MAX_CANDIDATES, drinks_in_play, explain, expected, without_drinks
from .errors import Forbidden

log = logging.getLogger(__name__)

SETTLE_FRAMES = 3       # usable frames in a row showing the same pieces ...
SETTLE_S = 0.6          # ... over at least this long: the board has settled (BoardWatch.settle_s)
SETTLE_S_RANGE = (0.2, 5.0)   # the settle times `companion serve --board-settle-s` takes
MAX_UNSURE_SHOWN = 12      # places read with doubt named on the dashboard (the first, by id)
HANDS_STUCK_S = 20.0    # a hand over the board this long is a problem to show (the game goes on by taps)
LOST_S = 2.0            # the pose lost (or no markers) this long is a problem to show
BOARD_GAMES = frozenset({"tokyo_metro", "metro_drinks"})   # the games whose board the camera reads


def reads_board(game: str, state: Any) -> bool:
    """Whether the board camera can follow this game: a game of BOARD_GAMES played on TOKYO METRO's
    board (the camera's layout is that board's); OSAKA METRO's board, or a table's own board without
    a ``layout``, is not read."""
    rules = getattr(state, "rules", None)
    return (game in BOARD_GAMES and rules is not None and getattr(rules, "system", "tokyo") == "tokyo"
            and "layout" in rules.board.data)

# The reader's problems come with codes (BoardReading.codes) the dashboard words. Markers out of
# view show as the pose (held, or lost for a while: no_markers, pose_lost); a meeple seen twice
# is unsure there and needs no word of its own.
_UNREADABLE = {"wrong_board", "camera_error"}   # a frame whose reading says this is not taken at all


class BadAnswer(ValueError):
    """An answer to a proposal that cannot be taken as it is (a candidate it does not have)."""


@dataclass
class _Run:
    """Usable frames in a row that show the same pieces."""

    reading: BoardReading
    start: float
    count: int = 1
    unsure: set[str] = field(default_factory=set)
    settled: bool = False
    recent: list = field(default_factory=list)   # the unsure places of the latest SETTLE_FRAMES frames

    def clearer(self) -> set[str] | None:
        """The places unsure now, when the latest frames all read clearly a place the run had
        unsure (a hand straightened a piece, a glare went): the board settles again on them."""
        if not self.settled or len(self.recent) < SETTLE_FRAMES:
            return None
        now = set().union(*self.recent)
        return now if self.unsure - now else None


@dataclass(frozen=True)
class Proposal:
    id: str
    candidates: tuple[tuple[Move, ...], ...]   # one: a proposal; several: a question
    step: int                                  # the game's records when it was made (stale after)
    board: Pieces
    settled_at: float
    proposed_at: float

    @property
    def seat(self) -> int:
        return self.candidates[0][0].player

    def to_json(self) -> dict:
        one = len(self.candidates) == 1
        return {"id": self.id, "moves": [m.to_json() for m in self.candidates[0]] if one else [],
                "seat": self.seat, "settled_at": round(self.settled_at, 3), "proposed_at": round(self.proposed_at, 3)}


def same_pieces(a: BoardReading, b: BoardReading) -> bool:
    """Whether two readings show the same pieces where both are sure."""
    return not differences(a.pieces, b.pieces, set(a.unsure) | set(b.unsure))


class BoardWatch:
    """The board camera's account of one METRO game (see the module). ``camera()``: the board
    camera's own state for this game (``present``, ``simulated``, ``feeding``, ``problem``:
    a device's problem code or None), or None without a board camera."""

    def __init__(self, session: Any, camera: Callable[[str], dict | None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.session, self.camera, self.clock = session, camera, clock
        self.rev = 0                      # bumped whenever what the dashboards show changes
        self.auto = False
        self.settle_s = SETTLE_S          # the table's choice (`companion serve --board-settle-s`)
        self.markers, self.pose = 0, "lost"
        self.matches: bool | None = None
        self.cause: str | None = None
        self.diffs: list[Difference] = []
        self.proposal: Proposal | None = None
        self.settled: BoardReading | None = None
        self.settled_at: float | None = None
        self.problem: dict | None = None
        self.searches: list[float] = []   # ms of the latest searches (for the benchmark and status)
        self._run: _Run | None = None
        self._hands_since: float | None = None
        self._lost_since: float | None = None
        self._game_board = expected(session.state)
        self._drinks = drinks_in_play(session.state)   # METRO DRINKS: drinks at stations are compared
        self._before: Pieces | None = None    # the game's board before the latest move not made here
        self.todo_since: float | None = None  # since when a move made elsewhere waits to be made on the board
        self.moved_at: float | None = None    # when a move made elsewhere last changed the game's board
        self._dismissed: tuple[Pieces, int] | None = None
        self._recheck = False
        if not session.folded.history:
            # A new game: the board is still to be set up (the value markers at 0, ...): a to-do
            # from the empty board, as after a move made on the dashboard.
            self._before, self.todo_since = Pieces(), clock()

    # --- frames -------------------------------------------------------------------------------

    def feed(self, reading: BoardReading, at: float | None = None) -> str | None:
        """Take one frame's reading (``at``: when it was read, the table's monotonic clock). Answers
        what it did: None (a frame in a run), ``skipped`` (not usable), or, when the board settles
        (or is looked at again after the game moved), ``matches``, ``proposal``, ``question``,
        ``differences`` or ``applied`` (auto mode)."""
        entered = self.clock()
        now = entered if at is None else at
        if not self._drinks:
            reading = without_drinks(reading)   # drinks stood on the board of another game are no news
        with self.session.lock:
            before = self._shown()
            self.markers, self.pose = reading.markers, reading.pose
            codes = list(reading.codes)
            usable = reading.usable and not (set(codes) & _UNREADABLE)
            self._hands_since = (self._hands_since or now) if reading.hands else None
            lost = reading.pose == "lost"
            self._lost_since = (self._lost_since or now) if lost else None
            self.problem = self._problem_now(reading, codes, now)
            if not usable:
                self._run = None   # a hand or a lost pose breaks a run: the board settles again after
                self._changed(before)
                return "skipped"
            run = self._run
            if run is not None and same_pieces(run.reading, reading):
                run.count += 1
                run.reading = reading
                run.recent = (run.recent + [set(reading.unsure)])[-SETTLE_FRAMES:]
                clearer = run.clearer()
                if clearer is not None:
                    run.unsure = clearer
                    self.settled = reading.model_copy(update={"unsure": sorted(clearer)})
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
                self.settled = reading.model_copy(update={"unsure": sorted(run.unsure)})
                self.settled_at = now
            self._recheck = False
            settled, settled_at = self.settled, self.settled_at
            state, step, over = self.session.state, self.session.step, self.session.over
            self._changed(before)
        # The proposal's time on the frame's clock: the watch's own when the frame was timed on it
        # (the board camera's thread: the frame's reading is part of the wait), else the time the
        # frame settled plus the time taken here since (a caller with a clock of its own).
        same_clock = at is None or 0.0 <= entered - at < 30.0
        return self._compare(settled, settled_at, state, step, over,
                             self.clock if same_clock else (lambda: now + self.clock() - entered))

    def _problem_now(self, reading: BoardReading, codes: list[str], now: float) -> dict | None:
        if self._hands_since is not None and now - self._hands_since > HANDS_STUCK_S:
            return {"code": "hands", "params": {"seconds": round(now - self._hands_since)}}
        if self._lost_since is not None and now - self._lost_since > LOST_S:
            return {"code": "no_markers" if reading.markers == 0 else "pose_lost",
                    "params": {"markers": reading.markers}}
        if codes:
            return {"code": codes[0], "params": {"detail": reading.codes[codes[0]][:200]}}
        return None

    # --- comparing -----------------------------------------------------------------------------

    def _compare(self, settled: BoardReading, settled_at: float, state: Any, step: int, over: bool,
                 clock: Callable[[], float]) -> str:
        """Compare a settled board with the game (the search runs outside the session's lock)."""
        board, unsure = settled.pieces, set(settled.unsure)
        diffs = differences(expected(state), board, unsure)
        found = None
        if diffs and not over and not self._is_todo(board, unsure) and not self._was_dismissed(board, step):
            t0 = time.perf_counter()
            found = explain(self.session.game, state, board, unsure, may=self._may)
            self.searches = (self.searches + [(time.perf_counter() - t0) * 1000])[-20:]
        with self.session.lock:
            if self.session.step != step:   # the game moved meanwhile: look again at the next frame
                self._recheck = True
                return "stale"
            before = self._shown()
            self.diffs = diffs
            self.matches = not diffs
            outcome = "matches"
            if not diffs:
                self.cause, self.proposal, self._before, self.todo_since = None, None, None, None
            elif found is not None and found.explanations:
                kept = self.proposal
                if kept is None or kept.step != step or kept.board != board:
                    kept = Proposal(secrets.token_hex(6), found.explanations[:MAX_CANDIDATES], step, board,
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
                log.info("board camera: auto mode could not apply the proposal: %s", exc)
        return outcome

    def _is_todo(self, board: Pieces, unsure: set[str]) -> bool:
        """Whether the board is still as it was before the move waiting to be made on it."""
        return self._before is not None and not differences(self._before, board, unsure)

    def _was_dismissed(self, board: Pieces, step: int) -> bool:
        return self._dismissed is not None and self._dismissed == (board, step)

    def _may(self, move: Move) -> bool:
        """Moves the board may explain: no secret kinds, no computer player's (but its held ones)."""
        s = self.session
        return move.kind not in s.secret_moves and (move.player not in s.bots or s.held(move))

    # --- the game moved --------------------------------------------------------------------------

    def game_moved(self, by: str) -> None:
        """The session committed a record (under its lock; it tells the listeners itself). A change
        of the game's board not made through this watch is a to-do for the physical board."""
        now_board = expected(self.session.state)
        before = self._shown()
        if self.proposal is not None:   # made for another state: looked at again at the next frame
            self.proposal = None
            self._recheck = True
        if now_board != self._game_board:
            if by != "board":
                self.moved_at = self.clock()
                if self._before is None:
                    self._before, self.todo_since = self._game_board, self.moved_at
            self._game_board = now_board
            if self.settled is not None:
                self.diffs = differences(now_board, self.settled.pieces, set(self.settled.unsure))
                self.matches = not self.diffs
                if self.matches:
                    self.cause, self._before, self.todo_since = None, None, None
                else:
                    self.cause = "dashboard" if self._before is not None else "board"
                    self._recheck = True
        if self.settled is not None and not self.matches:
            self._recheck = True   # the next position may explain the board (or no longer)
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
                raise BadAnswer(f"the board can be read as {n} different moves: say which (candidate 0 to {n - 1})")
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
                events += self.session.submit(move, viewer, by="board", confirmed=who)
            return {"result": "applied", "moves": [m.to_json() for m in moves], "events": events}

    def dismiss(self, proposal_id: str, viewer: int | None) -> dict:
        """Set a proposal aside (the host or its seat): the board's differences show instead, and
        the same board is not proposed again for this position."""
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
        if proposal is None or proposal.id != proposal_id:
            raise IllegalMove("the board camera proposes nothing by that id now (the board or the game changed "
                              "since); look at the board panel again")
        if proposal.step != self.session.step:
            raise IllegalMove("the game moved on since the board camera proposed this; look at the board again")
        return proposal

    # --- what the dashboards show --------------------------------------------------------------

    def to_json(self) -> dict:
        """The "board_camera" object of the METRO view (docs/board-camera.md; the API's shape)."""
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
                "problem": problem if present else None, "markers": self.markers, "pose": self.pose,
                "matches": self.matches, "cause": None if self.matches else self.cause,
                "differences": [d.model_dump() for d in self.diffs],
                "proposal": proposal.to_json() if proposal is not None else None,
                "candidates": [{"moves": [m.to_json() for m in c]} for c in proposal.candidates] if several else None,
                "auto": self.auto, "rev": self.rev,
                # places read with doubt are left out of every comparison: the dashboard says which,
                # so that a piece put there is not taken for "the board matches"
                "unsure": self._unsure(),
            }

    def _unsure(self) -> list[str]:
        return sorted(self.settled.unsure)[:MAX_UNSURE_SHOWN] if self.settled is not None else []

    def touch(self) -> None:
        """The board camera's state around this game changed (it feeds it now, or no longer)."""
        with self.session.lock:
            self.rev += 1
            self.session.touched()
        self.session.notify()

    def _shown(self) -> tuple:
        p = self.proposal
        return (self.matches, self.cause, tuple(self.diffs), p.id if p else None, self.auto,
                (self.problem or {}).get("code"), self.pose == "lost", tuple(self._unsure()))

    def _changed(self, before: tuple, notify: bool = True) -> None:
        """Bump ``rev`` (and tell the live views) when what the dashboards show changed."""
        if self._shown() != before:
            self.rev += 1
            self.session.touched()
            if notify:
                self.session.notify()
