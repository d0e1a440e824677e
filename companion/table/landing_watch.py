"""What the landing camera makes of one game that scores drinks by where they land (the
upside-down tower, LEMON SQUASH), on the table's one watch (table/watch.py).

The landing camera's device asks its reader about the drinks the game waits for
(``landing_moves.wanted``) and hands each frame's :class:`~companion.landing.LandingReading` here
(:meth:`LandingWatch.feed`). A frame with a problem (a hand over the table, no calibration, the
camera failing, the table out of view, the tower moved) is passed over: nothing it shows is
proposed, and a hand that stays is shown after HANDS_STUCK_S. The landings *settle* when a few
usable frames in a row over ``settle_s`` show the same drinks in the same spots (distances within
the reader's tolerance, ``landing_moves.tie``); then ``landing_moves.explain`` says which chance
moves they are:

- the game waits for nothing: the landings "match" (there is nothing to do);
- every asked drink seen and read sure: a proposal the host confirms with one tap (or auto mode
  applies at once), made as any move is and logged ``by: "landings"``;
- a drink read unsure, a thrown drink not seen while another is, two short cans in a tie: a
  question, the likeliest answer first;
- no asked drink seen: nothing is proposed (the tower is not lifted yet); the panel says so.

A landing tapped on the dashboard is no to-do for the table (nothing there needs to change): the
watch only looks again at the settled landings for what the game still waits for.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict, Field

from ..landing import CODES, Landing, LandingReading
from .landing_moves import explain, tie, wanted
from .watch import Watch

HANDS_STUCK_S = 20.0    # a hand over the table this long is a problem to show (the game goes on by taps)
_AT_ONCE = ("not_calibrated", "camera_error", "no_view", "tower_moved")   # codes shown from the first frame


class Landings(BaseModel):
    """A landing reading as the watch compares it: the reading's landings and codes, and the
    drinks read with doubt (``unsure``: not sure, or not seen), which the watch's run keeps."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    landings: tuple[Landing, ...] = ()
    codes: tuple[str, ...] = Field((), max_length=len(CODES))
    unsure: tuple[str, ...] = ()

    @classmethod
    def of(cls, reading: LandingReading) -> "Landings":
        return cls(landings=tuple(reading.landings), codes=tuple(reading.codes),
                   unsure=tuple(x.drink for x in reading.landings if not x.sure))

    @property
    def usable(self) -> bool:
        return not self.codes

    def reading(self) -> LandingReading:
        """Back to the camera's words, the run's doubt kept (a drink unsure in any frame of the run)."""
        doubt = set(self.unsure)
        landings = [x.model_copy(update={"sure": False}) if x.drink in doubt and x.sure else x for x in self.landings]
        return LandingReading(landings=landings, codes=list(self.codes))


class LandingWatch(Watch):
    """The landing camera's account of one game (see the module)."""

    BY, THING, CAMERA = "landings", "the landings", "the landing camera"

    def __init__(self, session: Any, camera: Callable[[str], dict | None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self._hands_since: float | None = None
        super().__init__(session, camera, clock)

    def reads_now(self) -> bool:
        """Whether the game waits for landings and a landing camera runs to see them: then a
        simulated table leaves them to the camera (table/automation.py) instead of drawing them."""
        device = self.camera(self.session.id) if self.camera is not None else None
        return bool(device and device.get("present")) and self.expected(self.session.state) is not None

    # --- what the landing camera compares -------------------------------------------------------

    def expected(self, state: Any) -> Any:
        return wanted(self.session.game, state)

    def prepare(self, reading: LandingReading | Landings) -> Landings:
        return reading if isinstance(reading, Landings) else Landings.of(reading)

    def differences(self, game: Any, settled: Landings) -> list[Landing]:
        """The settled landings of the drinks the game waits for (a drink not in the reading: not
        seen); none while it waits for nothing."""
        if game is None:
            return []
        read = {x.drink: x for x in settled.landings}
        return [read.get(d) or Landing(drink=d, seen=False, sure=False) for d in game.drinks]

    def same(self, a: Landings, b: Landings) -> bool:
        if [x.drink for x in a.landings] != [x.drink for x in b.landings]:
            return False
        for x, y in zip(a.landings, b.landings):
            if x.seen != y.seen:
                return False
            if not x.sure or not y.sure or not x.seen:
                continue   # read with doubt: left out of the comparison (the run keeps the doubt)
            if x.spot != y.spot or not tie(x.distance_mm, y.distance_mm):
                return False
        return True

    def search(self, state: Any, settled: Landings):
        return explain(self.session.game, state, settled.reading())

    def observe(self, reading: Landings, now: float) -> bool:
        codes = list(reading.codes)
        self._hands_since = (self._hands_since or now) if "hand" in codes else None
        if self._hands_since is not None and now - self._hands_since > HANDS_STUCK_S:
            self.problem = {"code": "hands", "params": {"seconds": round(now - self._hands_since)}}
        else:
            shown = [c for c in codes if c in _AT_ONCE]
            self.problem = {"code": shown[0], "params": {}} if shown else None
        return reading.usable

    # --- the game moved: nothing to copy onto the table, only look again ------------------------

    def game_moved(self, by: str) -> None:
        now = self.expected(self.session.state)
        before = self._shown()
        if self.proposal is not None:   # made for another state: looked at again at the next frame
            self.proposal = None
        self._game_board = now
        self._before, self.todo_since = None, None
        if self.settled is not None:
            self.diffs = self.differences(now, self.settled)
            self.matches = not self.diffs
            self.cause = None if self.matches else "board"
            self._recheck = True
        self._changed(before, notify=False)

    # --- what the dashboards show ---------------------------------------------------------------

    def diff_json(self, d: Landing) -> dict:
        return d.model_dump()

    def extra_json(self) -> dict:
        """The "landing_camera" object adds what the game waits for: the ``kind`` of move and the
        ``asked`` drinks (null: nothing), and whether any asked drink was seen yet."""
        want = self._game_board
        seen = any(d.seen for d in self.diffs) if want is not None else None
        return {"waiting": None if want is None else {"kind": want.kind, "asked": list(want.drinks),
                                                      "units": list(want.units)},
                "any_seen": seen}
