"""The crate camera's side of one crate game (GRAPE SODA, YUZU, the exploding cans): settled
crates, proposals, crates vs game.

The crate camera (table/crate_device.py) hands every frame's
:class:`~companion.crate_fields.CrateReading` to the game it feeds (:meth:`CrateWatch.feed`). A
frame with a problem (a hand over the crates, no crates seen, no calibration) is passed over. The
crates *settle* when the same fields (those read with doubt left out) are read in a few usable
frames over ``settle_s`` (the table's one watch, table/watch.py, as for the board camera); then
they are compared with the game's crates (its declaration's ``crates`` hook):

- equal: the crates match (a to-do left by a move made on the dashboard is done);
- legal moves explain them (table/crate_moves.py, at most two: a GRAPE SODA turn): a proposal
  the host or the seat whose move it is confirms (or auto mode applies), or a question with the
  candidates when several do;
- none: the fields that differ, cause "board" (the crates changed in a way no move explains).

A move made on the dashboard that changes the crates is a to-do until the crates match it.

The camera does not know which way round the game's grid lies on the table. The watch learns it
(``quarters``) from the first settled crates that match the game one way round only (a drink
placed, a crate moved away from the square); until then the crates are compared every way round,
so that on the symmetric empty square a drink placed in a corner may be a question of which.
Once known, only that turn is compared: a drink in the opposite corner is a difference, not a
match. Moves confirmed here are logged ``by: "crates"``.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from ..crate_fields import CrateReading, FieldDifference, compare, doubts, field_key, fits
from .crate_moves import Seen, explain, game_fields
from .watch import Watch

HANDS_STUCK_S = 20.0    # a hand over the crates this long is a problem to show (the game goes on by taps)
LOST_S = 2.0            # no crates seen this long is a problem to show
_AT_ONCE = {"not_calibrated", "camera_error"}   # codes shown from the first frame


def _unread(codes: list[str]) -> str | None:
    """Why a frame gave no crates to read: none seen, seen but read surely nowhere, or more
    slots seen than the game's crates have (other crates, or something of their colour beside)."""
    return next((c for c in ("unclear", "no_crates", "too_many") if c in codes), None)


class CrateWatch(Watch):
    """The crate camera's account of one crate game (see the module)."""

    BY, THING, CAMERA = "crates", "the crates", "the crate camera"

    def __init__(self, session: Any, camera: Callable[[str], dict | None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.quarters: int | None = None      # the camera's grid turned this far is the game's (learnt)
        self._hands_since: float | None = None
        self._none_since: float | None = None
        super().__init__(session, camera, clock)
        if not session.folded.history:
            # A new game: the crates are still to be set out as the game starts them: a to-do
            # from no crates at all, as after a move made on the dashboard.
            self._before, self.todo_since = {}, clock()

    # --- what the crate camera compares --------------------------------------------------------

    def expected(self, state: Any) -> dict:
        return game_fields(self.session.game, state)

    def differences(self, game: dict, settled: CrateReading) -> list[FieldDifference]:
        seen, unsure, choices = settled.grid(), settled.unsure_fields(), settled.choice_sets()
        diffs = list(compare(game, seen, unsure, quarters=self.quarters, choices=choices).differences)
        if not diffs and self.quarters is None and game:
            turns = Seen.of(seen, unsure, choices=choices).turns_matching(game)
            if len(turns) == 1:   # only one way round: how the camera's grid lies, from now on
                self.quarters = turns[0]
        return diffs

    def same(self, a: CrateReading, b: CrateReading) -> bool:
        """The same crates: the same fields, each read alike where both read it surely; a field
        narrowed to a few drinks in one is among them in the other (a drink put into a slot read
        surely empty before is news even when its shape is in doubt); a field read with doubt and
        no choices in either may be anything."""
        if a.fields.keys() != b.fields.keys():
            return False
        marks = [doubts(r.grid(), r.unsure_fields(), r.choice_sets()) for r in (a, b)]
        return all(marks[0][f][1] is True or marks[1][f][1] is True
                   or (fits(marks[0][f], marks[1][f][0]) and fits(marks[1][f], marks[0][f][0])) for f in marks[0])

    def merge(self, so_far: CrateReading, reading: CrateReading) -> CrateReading:
        """A field the newest frame reads with doubt keeps what the run knew of it (read surely, or
        narrowed to a few drinks: the drinks both narrowed it to), so that a drink put into a slot
        read surely empty is news even when frames between read that slot with doubt and no
        choices. Fields read surely now are the newest frame's."""
        fields, unsure, choices = {}, [], {}
        for k, v in reading.fields.items():
            now, before = reading.choices.get(k), so_far.choices.get(k)
            if k not in reading.unsure:                # read surely now
                fields[k] = v
                continue
            if k not in so_far.unsure and now is not None:    # sure before, and among the choices now
                fields[k] = so_far.fields[k]
                continue
            if now is None:                            # doubt and no choices now: what the run knew
                fields[k] = so_far.fields[k]
                if k in so_far.unsure:
                    unsure.append(k)
                    if before is not None:
                        choices[k] = before
                continue
            kept = [n for n in now if before is None or n in before] or now
            fields[k], choices[k] = kept[0], kept
            unsure.append(k)
        return CrateReading(fields=fields, unsure=sorted(unsure), choices=choices, codes=list(reading.codes))

    def settle(self, reading: CrateReading, unsure: set) -> CrateReading:
        """As the watch settles it, keeping choices only for fields still in doubt (a field read
        surely in the latest frame but with doubt earlier in the run keeps none: it may hold
        anything), so that the settled reading holds what ``CrateReading`` checks."""
        return reading.model_copy(update={"unsure": sorted(unsure),
                                          "choices": {k: v for k, v in reading.choices.items() if k in unsure}})

    def search(self, state: Any, settled: CrateReading):
        return explain(self.session.game, state, settled.grid(), settled.unsure_fields(), may=self._may,
                       quarters=self.quarters, choices=settled.choice_sets())

    def observe(self, reading: CrateReading, now: float) -> bool:
        codes = list(reading.codes)
        self._hands_since = (self._hands_since or now) if "hand" in codes else None
        # crates not seen, seen but read surely nowhere, or more slots than the game's crates:
        # shown once it lasts (a glare, a hand's shadow passes), each by its own words
        self._none_since = (self._none_since or now) if _unread(codes) else None
        self.problem = self._problem_now(codes, now)
        return reading.usable

    def _problem_now(self, codes: list[str], now: float) -> dict | None:
        if self._hands_since is not None and now - self._hands_since > HANDS_STUCK_S:
            return {"code": "hands", "params": {"seconds": round(now - self._hands_since)}}
        if self._none_since is not None and now - self._none_since > LOST_S:
            return {"code": _unread(codes), "params": {}}
        shown = [c for c in codes if c in _AT_ONCE]
        return {"code": shown[0], "params": {}} if shown else None

    # --- what the dashboards show --------------------------------------------------------------

    def diff_json(self, d: FieldDifference) -> dict:
        return {"field": field_key(d.field), "game": d.game, "seen": d.seen}

    def extra_json(self) -> dict:
        """The "crate_camera" object of a crate game's view adds the turn learnt (null: not yet) and
        the fields read with doubt that the camera narrowed to a few drinks (``choices``: field ->
        drink ids, likeliest first; the first MAX_UNSURE_SHOWN fields, as ``unsure``)."""
        return {"quarters": self.quarters, "choices": self._choices_shown()}

    def shown_extra(self) -> tuple:
        return tuple((k, tuple(v)) for k, v in self._choices_shown().items())

    def _choices_shown(self) -> dict[str, list[str]]:
        if self.settled is None:
            return {}
        shown = set(self._unsure())
        return {k: v for k, v in sorted(self.settled.choices.items()) if k in shown}

