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
clock (``settled_at``, ``proposed_at``); the rules never see a clock. The settling, proposals,
answers and to-do are the table's one watch (table/watch.py), shared with the crate camera.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from ..board_pieces import BoardReading, Difference, Pieces, differences
from .board_moves import drinks_in_play, explain, expected, without_drinks
# (SETTLE_S, SETTLE_S_RANGE and BadAnswer are the board camera's too: read from here by the tests and the CLI)
from .watch import SETTLE_S, SETTLE_S_RANGE, BadAnswer, Watch  # noqa: F401

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


def same_pieces(a: BoardReading, b: BoardReading) -> bool:
    """Whether two readings show the same pieces where both are sure."""
    return not differences(a.pieces, b.pieces, set(a.unsure) | set(b.unsure))


class BoardWatch(Watch):
    """The board camera's account of one METRO game (see the module). ``camera()``: the board
    camera's own state for this game (``present``, ``simulated``, ``feeding``, ``problem``:
    a device's problem code or None), or None without a board camera."""

    BY, THING, CAMERA = "board", "the board", "the board camera"

    def __init__(self, session: Any, camera: Callable[[str], dict | None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.markers, self.pose = 0, "lost"
        self._hands_since: float | None = None
        self._lost_since: float | None = None
        self._drinks = drinks_in_play(session.state)   # METRO DRINKS: drinks at stations are compared
        super().__init__(session, camera, clock)
        self.diffs: list[Difference] = []
        if not session.folded.history:
            # A new game: the board is still to be set up (the value markers at 0, ...): a to-do
            # from the empty board, as after a move made on the dashboard.
            self._before, self.todo_since = Pieces(), clock()

    # --- what the board camera compares ----------------------------------------------------------

    def expected(self, state: Any) -> Pieces:
        return expected(state)

    def differences(self, game: Pieces, settled: BoardReading) -> list[Difference]:
        return differences(game, settled.pieces, set(settled.unsure))

    def same(self, a: BoardReading, b: BoardReading) -> bool:
        return same_pieces(a, b)

    def pieces_of(self, settled: BoardReading) -> Pieces:
        return settled.pieces

    def search(self, state: Any, settled: BoardReading):
        return explain(self.session.game, state, settled.pieces, set(settled.unsure), may=self._may)

    def prepare(self, reading: BoardReading) -> BoardReading:
        # drinks stood on the board of another game are no news
        return reading if self._drinks else without_drinks(reading)

    def observe(self, reading: BoardReading, now: float) -> bool:
        self.markers, self.pose = reading.markers, reading.pose
        codes = list(reading.codes)
        self._hands_since = (self._hands_since or now) if reading.hands else None
        self._lost_since = (self._lost_since or now) if reading.pose == "lost" else None
        self.problem = self._problem_now(reading, codes, now)
        return reading.usable and not (set(codes) & _UNREADABLE)

    def _problem_now(self, reading: BoardReading, codes: list[str], now: float) -> dict | None:
        if self._hands_since is not None and now - self._hands_since > HANDS_STUCK_S:
            return {"code": "hands", "params": {"seconds": round(now - self._hands_since)}}
        if self._lost_since is not None and now - self._lost_since > LOST_S:
            return {"code": "no_markers" if reading.markers == 0 else "pose_lost",
                    "params": {"markers": reading.markers}}
        if codes:
            return {"code": codes[0], "params": {"detail": reading.codes[codes[0]][:200]}}
        return None

    # --- what the dashboards show --------------------------------------------------------------

    def extra_json(self) -> dict:
        """The "board_camera" object of the METRO view adds the markers seen and the pose
        (docs/board-camera.md)."""
        return {"markers": self.markers, "pose": self.pose}

    def shown_extra(self) -> tuple:
        return (self.pose == "lost",)
