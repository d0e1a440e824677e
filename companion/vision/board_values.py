"""The line values on the TOKYO METRO board's revenue track, read from the rectified sheet (issue 29).

Each line has a lane of the track and one value marker on it. :class:`ValueLanes` finds each
marker along its lane: where the lane differs from the empty track most (a marker's width of
rows) says whether and roughly where it is; its centre is the middle of the change in colour
there (a marker is the line's colour, full strength, on the lane's pale tint; its shadow only
darkens the tint, so the colour's change is not pulled towards the shadow), else of the change
in brightness (a grey line's marker), moved back by the lean of the marker's face -> the
nearest value space. A weak peak, a second marker-sized change on the lane, or a centre too far
from any space is unsure (``value:<L>``). Used by :class:`~.board_read.BoardReader`.
"""
from __future__ import annotations

import numpy as np

from ..board_layout import BoardLayout
from .board_net import PAPER_EPS
from .board_pose import PX_PER_MM, Pose
from .board_viewpoint import camera_above

CHROMA_MARKER = 0.04     # a change of colour (share of the brightness) this strong: a coloured marker's face
VALUE_OFF = 0.4          # a value marker's centre further than this share of a space from one: unsure
VALUE_HEIGHT = 2.0       # mm: where a value marker's face is looked at (a disc ~3 mm thick)
ONES = np.ones(3, np.float32)   # a sum over the colour channels as a product (as board_read does)


class ValueLanes:
    """The lanes of one board's track on its rectified sheet (``reference``: the empty board,
    float32 BGR at PX_PER_MM; ``paper``: its paper's colour; ``probe``: flat pixel indices of
    the sheet where its noise is measured)."""

    def __init__(self, layout: BoardLayout, reference: np.ndarray, paper: np.ndarray, probe: np.ndarray):
        self.layout = layout
        self.reference = reference.reshape(-1, 3)
        self.scale = float(np.sum(paper))
        self.probe = probe
        h, w = reference.shape[:2]
        self.ys = np.arange(int(max(0, min(layout.values) - 12)), int(min(h, max(layout.values) + 12)))
        half = max(2, int(layout.lane_width * 0.22))
        self.lanes: dict[str, np.ndarray] = {}       # letter -> (rows, width) flat pixel indices
        self.shifted: dict[str, np.ndarray] = {}     # letter -> (9, rows, width): the same, a pixel each way
        for letter, x in layout.lanes.items():
            xs = np.arange(int(round(x)) - half, int(round(x)) + half + 1).clip(0, w - 1)
            self.lanes[letter] = self.ys[:, None] * w + xs[None, :]
            self.shifted[letter] = np.stack([
                np.clip(self.ys[:, None] + dy, 0, h - 1) * w + np.clip(xs[None, :] + dx, 0, w - 1)
                for dy in (-1, 0, 1) for dx in (-1, 0, 1)])
        self.r = max(2, int(round(layout.radius.get("train", 6.0))))
        self.step_mm = abs(layout.values[1] - layout.values[0]) if len(layout.values) > 1 else 6.0

    def read(self, sheet: np.ndarray, pose: Pose | None, peak_bar: float) -> tuple[dict[str, int], list[str]]:
        """The values read surely (letter -> value) and the unsure lanes (``value:<L>``) of
        ``sheet`` (the frame's sheet in the reference's light); ``peak_bar``: the least change
        along a lane, in its noise, that is surely a marker (half of it: maybe one)."""
        flat, ref = sheet.reshape(-1, 3), self.reference
        r, ys = self.r, self.ys
        kernel = np.ones(2 * r + 1) / (2 * r + 1)
        lean = self._lean(pose)
        # the lane's own noise: the frame against the empty board pixel for pixel (the profile
        # below is that difference, not the one beyond the print's local range: a grey marker on
        # a grey lane over the printed figures lies within that range and would not show)
        probe = self.probe
        noise = max(float(np.median(np.abs(flat[probe] - ref[probe]) @ ONES)) / self.scale, 0.01)
        values, unsure = {}, []
        for letter, idx in self.lanes.items():
            px = flat[idx]
            prof = (self._difference(px, letter) / self.scale).mean(axis=1) / noise
            sm = np.convolve(prof, kernel, mode="same")
            k = int(np.argmax(sm))
            peak = sm[k]
            if peak < peak_bar * 0.5:
                continue                                   # no marker on this lane
            lo, hi = max(0, k - r - 3), min(len(prof), k + r + 4)
            rf = ref[idx[lo:hi]]
            c = px[lo:hi] / (px[lo:hi] @ ONES + 3 * PAPER_EPS)[..., None]
            cr = rf / (rf @ ONES + 3 * PAPER_EPS)[..., None]
            chroma = (np.abs(c - cr) @ ONES).mean(axis=1)
            wgt = chroma if chroma.max() >= CHROMA_MARKER else prof[lo:hi]
            wgt = np.clip(wgt - 0.5 * wgt.max(), 0, None)
            centre = float((ys[lo:hi] * wgt).sum() / wgt.sum()) if wgt.sum() > 0 else float(ys[k])
            others = sm.copy()
            others[max(0, k - 3 * r):k + 3 * r + 1] = 0
            if lean is not None:        # the face's middle -> the marker's place
                centre -= (centre - lean[0]) * lean[1]
            v = self.layout.value_at(centre)
            off = abs(centre - self.layout.lane_y(v))
            if peak < peak_bar or others.max() > 0.5 * peak or off > VALUE_OFF * self.step_mm:
                unsure.append(f"value:{letter}")
                continue
            values[letter] = v
        return values, unsure

    def _difference(self, px: np.ndarray, letter: str) -> np.ndarray:
        """Per lane pixel, how far its colour is from the empty board's there, the best of the
        reference shifted by up to a pixel each way (the pose a pixel off moves the print)."""
        best = None
        for j in self.shifted[letter]:
            d = np.abs(px - self.reference[j]) @ ONES
            best = d if best is None else np.minimum(best, d)
        return best

    @staticmethod
    def _lean(pose: Pose | None) -> tuple[float, float] | None:
        """The y (px) under the camera and how much of its distance from there a value marker's
        face appears further down the sheet than its place."""
        if pose is None or pose.H is None or not pose.size[0]:
            return None
        try:
            cx, cy, height = camera_above(pose)
        except (np.linalg.LinAlgError, ValueError):
            return None
        if not np.isfinite([cx, cy, height]).all() or height < 100.0:
            return None
        return cy * PX_PER_MM, VALUE_HEIGHT / height
