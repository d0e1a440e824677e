"""The crate camera from the frames' grids (issue 31): a running estimate of its focal length,
its height over the rim plane and where under it the plane lies in the picture.

The calibration fits its focal length to six can tops on one crate (2 x 3 pitches): so few
points so close together tell the perspective, and with it the focal length, only roughly
(measured on dev looks: up to twice the true one, docs/performance.md). The crate reader needs
the camera for one thing: where it stands over the rim plane (the nadir and the height), so that
each patch row is a true height over the rim (:mod:`.crate_patches`).

A frame's grid (:func:`.crate_grid.find_grid`) is a homography fitted to the local phases of the
whole lattice of slot walls, over every crate in view (up to 6 x 6 pitches and more): many points
at known places on the rim plane. With square pixels and the optical axis through the picture's
middle one plane's homography tells the focal length (:func:`.crate_pinhole.focal_from`), and
with it the camera's pose. One frame's answer is noisy (a drink leaning over a wall moves its
crest; lens bending), but the camera does not move and all crates stand on one table: the focal
length, the camera's height over the rim (in pitches) and the nadir's place IN THE PICTURE are
the same in every frame; only the crates move under them. So the camera keeps its last frames'
grids and takes the medians: the focal length (in log: too long is as wrong as too short), then
with it each kept grid's height and nadir (as a picture point); a frame's nadir on the rim plane
is that picture point through the frame's own grid. Until a frame with enough of a grid is seen,
the calibration's focal length stands and the frame's own grid tells the rest (as before).

>>> est = CameraEstimate(2000.0, (1280, 720))
>>> est.focal()
2000.0
>>> for f in (1150.0, 1300.0, 1210.0, 5000.0):
...     _ = est.add_focal(f)
>>> round(est.focal())     # the median of the three a camera may have
1210
"""
from __future__ import annotations

import math
from collections import deque

import numpy as np

from .crate_grid import to_frame
from .crate_pinhole import camera_over, focal_from

KEEP = 25                # frames kept (the last ones)
MIN_FIELDS = 12          # a grid of fewer fields with plastic (two crates) tells too little perspective
# focal lengths a crate camera may have, x the picture's width (~20-110 degrees across): an answer
# outside is a grid whose perspective is noise (a view nearly square-on)
RANGE = (0.4, 2.6)


class CameraEstimate:
    """One fixed camera over the rim plane, told better by every frame with a large grid (see the
    module's words)."""

    def __init__(self, calibration_focal: float, size: tuple[int, int]):
        self.calibration_focal = float(calibration_focal)
        self.size = (int(size[0]), int(size[1]))
        self._logs: deque = deque(maxlen=KEEP)      # log focal length of each counted frame
        self._grids: deque = deque(maxlen=KEEP)     # its grid (grid units -> px)

    def add_grid(self, H: np.ndarray, plastic_fields: int) -> float | None:
        """A frame's grid (grid units -> px) and how many of its fields show some plastic (as the
        reader counts them: crates.SOME_PLASTIC): counted in when it is large enough to tell the
        perspective; returns its focal length (None: not counted)."""
        if plastic_fields < MIN_FIELDS:
            return None
        f = focal_from(H, self.size)
        if f is None or self.add_focal(f) is None:
            return None
        if not self._grids or not np.array_equal(self._grids[-1], H):
            self._grids.append(np.array(H, np.float64))
        return f

    def add_focal(self, f: float) -> float | None:
        """One frame's focal length, when it is one a camera may have."""
        w = self.size[0]
        if not (RANGE[0] * w <= f <= RANGE[1] * w):
            return None
        lf = math.log(f)
        # the same frame read again (a still scene, a second reading) is not a second witness
        if not self._logs or self._logs[-1] != lf:
            self._logs.append(lf)
        return f

    @property
    def frames(self) -> int:
        return len(self._logs)

    def focal(self) -> float:
        if not self._logs:
            return self.calibration_focal
        return float(math.exp(float(np.median(self._logs))))

    def over(self, H: np.ndarray) -> tuple[np.ndarray, float]:
        """The camera's nadir on the rim plane of the grid ``H`` (grid units) and its height over
        it (pitches): the medians over the kept frames, or ``H``'s own with the focal length
        known so far when no frame is kept."""
        f = self.focal()
        if not self._grids:
            return camera_over(H, f, self.size)
        heights, feet = [], []
        for G in self._grids:
            nadir, height = camera_over(G, f, self.size)
            heights.append(math.log(max(height, 1e-6)))
            feet.append(to_frame(G, [nadir])[0])
        foot = np.median(np.array(feet), axis=0)
        Hi = np.linalg.inv(H)
        v = Hi @ np.array([foot[0], foot[1], 1.0])
        if abs(v[2]) < 1e-12:         # the nadir at the plane's horizon in this grid: the grid's own
            return camera_over(H, f, self.size)
        return v[:2] / v[2], float(math.exp(float(np.median(heights))))
