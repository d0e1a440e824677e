"""Reading the crates: which drink stands in which slot, frame by frame (issue 31).

``CrateReader(calibration).read(frame)`` gives a :class:`~companion.crate_fields.CrateReading`:

1. the crates' grid (:func:`.crate_grid.find_grid`): the rim plane through the calibration's
   homography, the lattice of slot walls found there (its turn, pitch and phase, then a
   homography fitted to its local phases), each field's share of crate plastic;
2. the fields worth asking about: the largest connected patch of fields with some plastic, and
   the ring round it (a crate's outer face, seen beside the grid, looks like plastic too: the
   network tells it from a slot);
3. the camera over the rim plane (its focal length, height and nadir told by the frames'
   grids as they come, :mod:`.crate_focal`; the calibration's focal length until then): each
   field's lean and the camera's height, so that its patch (:mod:`.crate_patches`) is cut
   turned the same way, a row for each height over the rim;
4. the field network (:mod:`.crate_net`) names each: no slot, empty, or a drink; a name whose
   probability is under the model's bar is reported unsure (its likeliest name kept), and so
   is the less likely of two fields read as the same drink (there is one of each). Before the
   bars, each field's probabilities are told what the frame's other fields hold
   (:mod:`.crate_once`, ``ONE_OF_EACH``): a field torn between two heights of a colour whose
   other height stands surely elsewhere is the one left. The fields asked grow round every
   field read as a slot (``GROW_ROUNDS``): a crate corner whose plastic tall drinks hide is
   asked about, not left out.

Problem codes: ``not_calibrated`` (no calibration, or one made for another picture size),
``no_crates`` (no lattice of crate plastic, or an unreadable frame: a bad frame never raises),
``unclear`` (crates seen, but no field of them read surely: the frame is not read, see
SURE_OR_UNREAD),
``too_many`` (more fields than a table's crates have; with COUNT_SLOTS, more fields read as
slots than the game's crates have: ``read(frame, crates=N)``), ``hand`` (a hand over the crates: more than
a quarter of the grid's fields unreadable and skin-coloured or unlike anything in a crate).

>>> CrateReader(None).read(np.zeros((48, 64, 3), np.uint8)).codes
['not_calibrated']
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, replace

import cv2
import numpy as np

from ..crate_fields import EMPTY, LENGTH, MAX_CRATES, MAX_FIELDS, WIDTH, CrateReading
from .crate_calibrate import CrateCalibration
from .crate_align import align_net, refit
from .crate_pinhole import camera_over
from .crate_focal import CameraEstimate
from .crate_grid import Grid, field_coverage, find_grid, to_frame
from .crate_guard import frame_guard, frame_numbers
from .crate_choices import choices as colour_choices
from .crate_net import CLASSES, DRINK_COLUMNS, GRID_COLUMNS, NONE, OFF, FieldModel, field_model
from .crate_once import one_of_each
from .crate_patches import exposure_gain, field_patches

log = logging.getLogger(__name__)
OFF_INDEX = CLASSES.index(OFF)
SOME_PLASTIC = 0.15     # a field with this share of plastic may hold a slot
DOUBTFUL_SHARE = 0.7    # a frame with more of its sure slots' fields unsure than this is unsure as a whole (set on dev and varied: docs/performance.md, "the camera from the frames' grids")
# The lattice's crests lie a little towards the camera's nadir of the walls' tops (the walls' inner
# faces and the floors show on that side): the grid is moved this many pitches away from it
# (measured on development frames: a twentieth of a pitch on the whole)
CREST_SHIFT = 0.05
MIN_SIDE = 64
# the camera from the frames' grids (crate_focal.py); False: the calibration's alone (as
# before, kept to measure against: docs/performance.md)
FOCAL_FROM_FRAMES = True
# A frame whose crates' lattice no fit over a window round the crates' middle confirmed (the
# global lattice alone: its pitch only rough) is not read: its fields would be cut from a wrong
# lattice, and a field of the layout the reading then lacks reads as gone. Measured on varied
# 700000-700049 and dev 800000-800009 (docs/performance.md, "The lattice unconfirmed").
REFINED_ONLY = True
# A reading with no field sure (every field under its bar, or the frame unsure as a whole by
# DOUBTFUL_SHARE) is not read either (``unclear``): it tells nothing surely, yet the fields it
# lacks would read as gone (to the table's comparison as to the benchmark). Every sure-and-wrong
# field on varied 700000-700049 and dev 800000-800009 (main's 37, the guessed-plastic
# candidate's 46) was such a lacking field; with this, none, and no right field lost
# (docs/performance.md, "The plastic measured over the walls (branch crates6)").
SURE_OR_UNREAD = True
# A frame with more fields read as slots than the game's crates have (``read(frame, crates=N)``,
# the crate device telling the game's count; maybe-no-slot fields not counted) is ``too_many``:
# some of its slots are something else (fields beyond the picture's edge, the table beside the
# crates) and its sure drinks were wrong as well. Alone it took every sure mistake of fresh dev
# and varied looks but refused good frames (6.0 % fewer fields right); ON with ALIGN, the two
# measured together (docs/performance.md, "The aligner and the count together"): on fresh dev
# 800280-309 and varied 700775-834 1,713 fields right and none sure and wrong against main's 1,354
# and 2; fresh eval 910380-399 146 and 0 against 126 and 0. False: not counted.
COUNT_SLOTS = True
# Only fields whose middle lies in the picture are asked of the network: a field beyond its edge
# (crates that run out of view) shows nothing of itself, and its patch of the edge's pixels was
# read as slots and drinks (dev 800198's third frame: 30 fields sure and wrong). Such a field is
# reported as one that may be no slot (unsure: the table's comparison takes it as either), and
# counts as doubt in the frame guard's share. OFF: measured (docs/performance.md, "The fields
# beyond the picture"), it took the sure mistakes of such frames on dev looks (52 to 22 over three
# sets), but on fresh eval looks read 18 % fewer fields right (77 against 94, neither with a sure
# mistake); counted in the guard's share as no doubt, it had let in eval frames with 27 sure
# mistakes. True: so read.
IN_VIEW_ONLY = False
# Each drink stands once: the network's probabilities weighed by what the other fields of the
# frame hold (crate_once.py); the model's bars are set with it (tools/learn_crates.py, when on).
# With GROW_ROUNDS, on varied 700000-049 and dev 800000-009 it reads 756 fields right and sure
# against 456, none sure and wrong (docs/performance.md, "One drink of each"). False: each field
# on its own, as before (kept to measure against).
ONE_OF_EACH = True
# The fields asked about grow where the network sees slots: the ring round the patch of plastic
# is one field wide, and where drinks hide a crate's plastic over two fields in a row (a corner
# of tall drinks) the crate's outer fields lie beyond it, lacking from the reading (sure
# mistakes, once ONE_OF_EACH read such frames). Each field the network reads as a slot has its
# neighbours asked too, up to this many rounds (0: the ring alone, as before); a round that finds
# no new slot ends the growing. Five, not two (53rd session): crates full of drinks (YUZU's start)
# show so little plastic that their far corner lies four fields beyond the first patch.
GROW_ROUNDS = 5
# A round that would ask more fields than twice a table's crates asks those with the most slots
# round them, up to that many, instead of none: crates full of drinks show little plastic, so
# the first patch of fields is small, its ring wide, and the round that reaches their far corner
# was the one dropped (YUZU's start: a crate of bottles lacking from the reading, 53rd session).
# False: such a round is dropped whole (as before).
GROW_WITHIN_ROOM = True
# The frame's doubt learnt (crate_guard.py): where a guard is fitted (models/crate_guard.json),
# it decides whether a frame is unsure as a whole, in place of DOUBTFUL_SHARE. None is committed:
# fitted to read no frame holding a sure mistake, it read fewer fields right than the share
# (docs/performance.md, "A frame guard learnt"). False: the share, whatever is fitted.
LEARNT_GUARD = True
# A field whose colour is sure and whose shape is in doubt is reported with its choices
# (crate_choices.py: a drink of this colour, one of these shapes), in a frame the guard reads.
# Counted as read by the guard as well, such fields let in frames whose few sure fields were
# wrong (docs/performance.md, "A sure colour, its shapes asked"): the guard counts them as doubt.
# False: no choices (kept to measure against).
SURE_COLOURS = True
# The grid set right field by field (crate_align.py): each field with at least ALIGN_PLASTIC of
# crate plastic says where its true middle lies and the grid is fitted anew through them. ON, with
# COUNT_SLOTS (see there for the measure of the two together): alone it read more fields right but
# more sure and wrong too (fresh dev 800170-189 and varied 700555-594: 1,247 and 47 against main's
# 1,039 and 36; docs/performance.md, "The grid set right by a network", "The game's crates told"),
# in frames with more slots than the crates have, which the count refuses. With it the simulated
# GRAPE SODA game is played through by the crate reader (tests/test_dashboard_crates.py). The
# camera's estimate counts the lattice's grid, not the refitted one: a refit made through a
# far-off first camera keeps no frame out of it (tests/test_crate_focal.py). False: the lattice's grid.
ALIGN = True
ALIGN_PLASTIC = 0.5
# A drink is read surely only when its probability clears this too (over the model's own bar,
# set for one sure mistake a kind per 3,000 held-out fields, most of them easy empty slots): on
# fresh dev and varied frames that bar left drinks of a neighbouring height read surely
# (docs/performance.md, "A drink's bar raised"). Below it, a drink of a sure colour is asked
# among its shapes (SURE_COLOURS). None: the model's bar alone.
SURE_DRINK: float | None = 0.999
# The frame guard's share counts the fields unsure by the model's own bars (the ones it was set
# with): a drink unsure by SURE_DRINK alone is no doubt about the frame. False: every unsure field.
GUARD_ON_MODEL_BARS = True


@dataclass(frozen=True)
class Located:
    """A frame's grid and what the network is asked: ``cells`` (i, j), their patches and numbers."""

    grid: Grid
    cells: list
    patches: np.ndarray
    feats: np.ndarray
    nadir: np.ndarray
    height: float
    white: np.ndarray | None = None     # the white can's colour in this frame (the patches' reference)
    unseen: tuple = ()                  # fields to ask about whose middle lies beyond the picture (IN_VIEW_ONLY)


def slots_round(cell: tuple[int, int], slots) -> int:
    """How many of ``slots`` touch ``cell`` (its eight neighbours).

    >>> slots_round((0, 0), {(1, 0), (1, 1), (0, 0), (5, 5)})
    2
    """
    x, y = cell
    return sum((x + dx, y + dy) in slots for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)


def in_view(H: np.ndarray, cells: list, shape) -> list:
    """Those of ``cells`` whose middle (grid ``H``) lies in a picture of ``shape``.

    >>> in_view(np.diag([10.0, 10.0, 1.0]), [(0, 0), (4, 1), (-1, 0)], (20, 50, 3))
    [(0, 0), (4, 1)]
    """
    if not cells:
        return []
    mids = to_frame(H, [(i + 0.5, j + 0.5) for i, j in cells])
    h, w = shape[:2]
    return [c for c, (x, y) in zip(cells, mids) if 0 <= x < w and 0 <= y < h]


def candidate_cells(coverage: dict) -> list:
    """The 4-connected patches of fields with some plastic (the largest, and any other of a
    crate's size or more: crates that touch only where drinks hide their walls), and the ring
    round them."""
    some = {c for c, v in coverage.items() if v >= SOME_PLASTIC}
    best: set = set()
    seen: set = set()
    parts: list = []
    for start in some:
        if start in seen:
            continue
        comp, todo = set(), [start]
        while todo:
            c = todo.pop()
            if c in comp:
                continue
            comp.add(c)
            x, y = c
            todo += [n for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if n in some and n not in comp]
        seen |= comp
        parts.append(comp)
        if len(comp) > len(best):
            best = comp
    best = set().union(*[p for p in parts if p is best or len(p) >= 6]) if parts else set()
    ring = {(x + dx, y + dy) for x, y in best for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - best
    return sorted(best) + sorted(ring)


class CrateReader:
    """Reads frames of one calibrated crate camera (see the module's words)."""

    def __init__(self, calibration: CrateCalibration | None, model: FieldModel | None = None):
        self.calibration = calibration
        self.model = model if model is not None else field_model()
        self.camera = CameraEstimate(calibration.focal_px, calibration.image_size) if calibration is not None else None

    def locate(self, frame: np.ndarray) -> Located | None:
        """The grid and the fields' patches (None: no crates seen)."""
        cal = self.calibration
        grid = find_grid(frame, cal.H, cal.plastic)
        if grid is None or (REFINED_ONLY and not grid.refined):
            return None
        cells = candidate_cells(grid.cells)
        if not cells:
            return None
        if len(cells) > 2 * MAX_FIELDS:             # more than a table's crates: not cut up
            empty = np.zeros((0,), np.float32)
            return Located(grid, cells, empty, empty, np.zeros(2), 0.0)
        # the lattice's grid is the camera's witness: a refit leans on the camera, so a refit
        # made with a far-off first camera (the calibration's) would count its error in
        nadir, height = self._camera(grid)
        net = align_net() if ALIGN else None
        if net is not None:
            H = refit(net, frame, grid.H, [c for c, v in grid.cells.items() if v >= ALIGN_PLASTIC], nadir, height)
            if H is not grid.H:
                grid = replace(grid, H=H, cells=field_coverage(frame, H, cal.plastic) or grid.cells)
                nadir, height = self._camera(grid, count=False)
        mid = np.array([(i + 0.5, j + 0.5) for i, j in cells]).mean(axis=0)
        away = mid - nadir
        away = away / max(1e-6, float(np.linalg.norm(away)))
        shift = np.array([[1, 0, -CREST_SHIFT * away[0]], [0, 1, -CREST_SHIFT * away[1]], [0, 0, 1.0]])
        grid = replace(grid, H=grid.H @ np.linalg.inv(shift))
        nadir = nadir + CREST_SHIFT * away
        gain = exposure_gain(frame, cal.plastic_bgr, cal.plastic)
        white = np.asarray(cal.white_bgr, np.float64) * gain
        unseen: tuple = ()
        if IN_VIEW_ONLY:
            seen = in_view(grid.H, cells, frame.shape)
            unseen = tuple(sorted(set(cells) - set(seen)))
            cells = seen
            if not cells:
                return None
        patches, feats = field_patches(frame, grid.H, cells, nadir, height, white, grid.cells)
        return Located(grid, cells, patches, feats, nadir, height, white, unseen)

    def _camera(self, grid: Grid, count: bool = True) -> tuple[np.ndarray, float]:
        """The camera's nadir and height over the rim plane of ``grid`` (``count``: the grid
        counted into the camera's estimate first)."""
        if not FOCAL_FROM_FRAMES:
            return camera_over(grid.H, self.calibration.focal_px, self.calibration.image_size)
        if count:
            self.camera.add_grid(grid.H, sum(v >= SOME_PLASTIC for v in grid.cells.values()))
        return self.camera.over(grid.H)

    def _grown(self, frame: np.ndarray, found: Located) -> tuple[Located, np.ndarray]:
        """The fields asked about and the network's probabilities, grown round every field read
        as a slot (GROW_ROUNDS; see there), within a table's crates and their ring."""
        prob = self.model.probabilities(found.patches, found.feats)
        none = CLASSES.index(NONE)
        for _ in range(GROW_ROUNDS):
            asked = set(found.cells) | set(found.unseen)
            slots = {c for c, p in zip(found.cells, prob) if int(np.argmax(p[:OFF_INDEX])) != none}
            new = sorted({(x + dx, y + dy) for x, y in slots for dx in (-1, 0, 1) for dy in (-1, 0, 1)} - asked)
            room = 2 * MAX_FIELDS - len(asked)
            if len(new) > room and GROW_WITHIN_ROOM:
                new = sorted(sorted(new, key=lambda c: -slots_round(c, slots))[:max(0, room)])
            if not new or len(asked) + len(new) > 2 * MAX_FIELDS:
                break
            if IN_VIEW_ONLY:
                seen = in_view(found.grid.H, new, frame.shape)
                found = replace(found, unseen=found.unseen + tuple(sorted(set(new) - set(seen))))
                new = seen
                if not new:
                    break
            patches, feats = field_patches(frame, found.grid.H, new, found.nadir, found.height, found.white,
                                           found.grid.cells)
            found = replace(found, cells=found.cells + new, patches=np.concatenate([found.patches, patches]),
                            feats=np.concatenate([found.feats, feats]))
            prob = np.concatenate([prob, self.model.probabilities(patches, feats)])
        return found, prob

    def _bar(self, name: str) -> float:
        """The probability a field's name must reach to be read surely."""
        bar = self.model.bar(name)
        return max(bar, SURE_DRINK) if SURE_DRINK is not None and name not in (EMPTY, NONE) else bar

    def read(self, frame, crates: int | None = None) -> CrateReading:
        """One frame (BGR uint8) -> its reading; never raises for a bad frame. ``crates``: how
        many crates stand on the table (the game in play knows; None: MAX_CRATES); with
        COUNT_SLOTS, a reading of more slots than they have is ``too_many``."""
        if self.calibration is None:
            return CrateReading(codes=["not_calibrated"])
        frame = _as_bgr(frame)
        if frame is None:
            return CrateReading(codes=["no_crates"])
        if (frame.shape[1], frame.shape[0]) != tuple(self.calibration.image_size):
            return CrateReading(codes=["not_calibrated"])
        limit = MAX_FIELDS if crates is None else WIDTH * LENGTH * max(1, min(MAX_CRATES, int(crates)))
        try:
            return self._read(frame, limit)
        except (cv2.error, np.linalg.LinAlgError, ValueError, FloatingPointError) as exc:
            log.warning("crate frame not read: %s", exc)
            return CrateReading(codes=["no_crates"])

    def _read(self, frame: np.ndarray, max_fields: int) -> CrateReading:
        found = self.locate(frame)
        if found is None:
            return CrateReading(codes=["no_crates"])
        if len(found.cells) > 2 * MAX_FIELDS:
            return CrateReading(codes=["too_many"])
        if self.model is None:
            # no trained model: where the crates are, every field unsure
            fields = {c: EMPTY for c in found.cells if found.grid.cells.get(c, 0) >= 0.4}
            return CrateReading.of(fields, unsure=fields, codes=[] if fields else ["no_crates"])
        found, prob = self._grown(frame, found)
        if ONE_OF_EACH:
            prob = one_of_each(prob, DRINK_COLUMNS, GRID_COLUMNS)
        fields, unsure, maybe = {}, [], []
        raised = []         # unsure by SURE_DRINK alone: sure by the model's bar
        for c, p in zip(found.cells, prob):
            k = int(np.argmax(p[:OFF_INDEX]))        # "off": the likeliest other name, unsure
            name = CLASSES[k]
            if name == NONE:
                if p[k] >= self.model.bar(NONE):
                    continue
                # maybe no slot, maybe a slot: reported as the likeliest slot's reading, unsure
                k = 1 + int(np.argmax(p[1:OFF_INDEX]))
                fields[c] = CLASSES[k]
                unsure.append(c)
                maybe.append((float(p[0]), c))
                continue
            fields[c] = name
            if p[k] < self._bar(name):
                unsure.append(c)
                if p[k] >= self.model.bar(name):
                    raised.append(c)
        # each drink is there once: of two fields read as one drink, only the surer may be sure
        best: dict = {}
        for c, p in zip(found.cells, prob):
            name = fields.get(c)
            if name not in (None, EMPTY):
                score = float(p[CLASSES.index(name)])
                if name in best:
                    worse = c if score < best[name][0] else best[name][1]
                    if worse not in unsure:
                        unsure.append(worse)
                    if worse in raised:         # doubt about the frame after all: two fields, one drink
                        raised.remove(worse)
                    if score > best[name][0]:
                        best[name] = (score, c)
                else:
                    best[name] = (score, c)
        # the fields beyond the picture's edge: may be slots, may be none (left out first below)
        for c in found.unseen:
            fields[c] = EMPTY
            unsure.append(c)
            maybe.append((1.0, c))
        # more fields than a table has: the likeliest to be no slot at all are left out first
        for _, c in sorted(maybe, reverse=True):
            if len(fields) <= MAX_FIELDS:
                break
            del fields[c]
            unsure.remove(c)
        # a field of a sure colour whose shape is in doubt: the few drinks it may be
        choices = {}
        if SURE_COLOURS:
            for c, p in zip(found.cells, prob):
                names = colour_choices(p) if c in unsure and c in fields else None
                if names and names[0] == fields[c]:
                    choices[c] = names
        # a frame read mostly with doubt (its grid, its light unlike any learnt) is no ground
        # for the few fields that cleared their bars either; counted over the fields that are
        # surely slots (a ring of maybe-no-slot fields round the crates is doubt about the
        # table beside them, not about the slots); a frame so doubted keeps no choices either
        maybe_slot = {m for _, m in maybe}
        slots = [c for c in fields if c not in maybe_slot]
        # a field beyond the picture is doubt about the frame as a slot read with doubt is (read
        # from the edge's pixels, as before, it mostly was one; uncounted, frames of crates
        # running out of view were let in with their sure mistakes: docs/performance.md)
        judged = slots + [c for c in found.unseen if c in fields]
        guard = frame_guard() if LEARNT_GUARD else None
        if guard is not None:
            if guard.doubtful(frame_numbers(prob, len(set(fields) - set(unsure)))):
                unsure, choices = list(fields), {}
        elif sum(c in unsure and (c not in raised or not GUARD_ON_MODEL_BARS) for c in judged) \
                > DOUBTFUL_SHARE * max(1, len(judged)):
            unsure, choices = list(fields), {}
        if not fields:
            return CrateReading(codes=["no_crates"])
        # more fields read as slots than the table's crates have (COUNT_SLOTS): some are something
        # else (fields beyond the picture's edge, the table beside the crates), and the fields sure
        # of a drink in such a frame were wrong in it as well. Fields that may be no slot are not
        # counted: a ring of them round the crates is usual
        if len(fields) > MAX_FIELDS or (COUNT_SLOTS and len(slots) > max_fields):
            return CrateReading(codes=["too_many"])
        if SURE_OR_UNREAD and set(fields) <= set(unsure):
            return CrateReading(codes=["unclear"])
        return CrateReading.of(fields, unsure=unsure, choices=choices)


def _as_bgr(frame) -> np.ndarray | None:
    """The frame as an 8-bit BGR array, or None when it cannot be one (or is too small)."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        return None
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4) or min(frame.shape[:2]) < MIN_SIDE:
        return None
    if frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(frame)
