"""How well the crate reader's grid lies on the crates (issue 31), against the renderer's truth,
and how much a bending lens has to do with it.

For each look it renders and calibrates as benchmarks/crates.py does (the same seeds give the same
photos and layouts) and finds each frame's grid (``crate_grid.find_grid`` from the calibration's
rim plane, as the reader does before it moves the grid off the crests). Per frame: how far each
true field's middle lies from the middle of the grid's field it falls in (pitches; 0.5 is a
field cut between two), and whether the grid is LOST (the mean over the fields over 0.25 pitch:
a lattice at a wrong pitch or turn; a grid that holds is within ~0.1).

``--lens``: only the looks whose camera has a bending lens, each frame also read STRAIGHTENED
with the renderer's own lens (the best a lens fit could do; the calibration's plane taken
through the same straightening), and for each frame how far the true field middles lie off
the best homography through them (what the bending does to a grid that has no lens in it).

Dev and varied only: the evaluation family is scored by benchmarks/crates.py and nothing else.

Run:   .venv/bin/python benchmarks/crate_grid.py --family varied --looks 40 --frames 3
       .venv/bin/python benchmarks/crate_grid.py --family varied --looks 40 --frames 3 --lens
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.sim.crate_layouts import random_layout  # noqa: E402
from companion.sim.crate_looks import CrateLook  # noqa: E402
from companion.vision.radial_lens import distort_points, undistort_points  # noqa: E402
from companion.vision.crate_grid import find_grid, fit_homography, to_frame  # noqa: E402

LOST = 0.25


def field_offsets(H: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Each true field middle (px) -> how far (pitches, the larger axis) from the middle of the
    grid's field it falls in."""
    q = to_frame(np.linalg.inv(H), centres) - 0.5
    return np.abs(q - np.round(q)).max(axis=1)


class Straightened:
    """The frame as a pinhole camera would show it, through the renderer's lens ``k`` (the
    project's lens model, vision/radial_lens.undistort_points), shrunk by 1 / (1 + k) about the
    middle so that the corners stay in the picture."""

    def __init__(self, k: float, size):
        self.k, self.size, self.shrink = k, size, 1 / (1 + k)
        self.c = np.array(size, np.float64) / 2
        w, h = size
        gx, gy = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        src = self.to_frame(np.column_stack([gx.ravel(), gy.ravel()])).astype(np.float32)
        self.maps = (src[:, 0].reshape(h, w), src[:, 1].reshape(h, w))

    def from_frame(self, px):
        return self.c + (undistort_points(px, self.k, self.size) - self.c) * self.shrink

    def to_frame(self, px):
        return distort_points(self.c + (np.asarray(px, np.float64) - self.c) / self.shrink, self.k, self.size)

    def frame(self, img):
        return cv2.remap(img, *self.maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)

    def plane(self, H):
        """A plane's homography (units -> frame px) as seen straightened (fitted over a crate's span)."""
        u = np.array([(x, y) for x in np.linspace(-1, 3, 5) for y in np.linspace(-1, 4, 6)], np.float64)
        Hs, _ = cv2.findHomography(u, self.from_frame(to_frame(H, u)), 0)
        return Hs


def bending(centres: np.ndarray, fields) -> float:
    """The largest miss (pitches) of the best homography from the true fields to their middles."""
    g = np.array(fields, np.float64) + 0.5
    H = fit_homography(centres, g, np.ones(len(g)))
    return float(np.linalg.norm(to_frame(H, centres) - g, axis=1).max())


def run(family: str, looks: int, frames: int, first: int, lens: bool, verbose: bool) -> dict:
    from crate_focal import calibrated           # calibrated as benchmarks/crates.py does (this directory)
    cv2.setNumThreads(1)
    ways = ("as seen", "straightened") if lens else ("as seen",)
    tot = {w: {"frames": 0, "lost": 0, "fields": 0, "off_0.3": 0} for w in ways}
    bends, refused, looked = [], 0, 0
    for seed in range(first, first + looks):
        look = CrateLook.from_seed(seed, family)
        if lens and not look.distortion:
            continue
        looked += 1
        r, rng, cal = calibrated(look)
        refused += cal is None
        st = Straightened(look.distortion, look.image_size) if lens else None
        for k in range(frames):
            frame, truth = r.render(random_layout(rng), rng)
            if cal is None:
                continue
            keys = list(truth["centres"])
            centres = np.array([truth["centres"][f] for f in keys], np.float64)
            seen = {"as seen": (frame, cal.H, centres)}
            if lens:
                seen["straightened"] = (st.frame(frame), st.plane(cal.H), st.from_frame(centres))
                bends.append(bending(centres, keys))
            line = []
            for way, (img, H0, c) in seen.items():
                grid = find_grid(img, H0, cal.plastic)
                t = tot[way]
                t["frames"] += 1
                t["fields"] += len(c)
                off = field_offsets(grid.H, c) if grid is not None else np.full(len(c), 0.5)
                t["lost"] += bool(off.mean() > LOST)
                t["off_0.3"] += int((off > 0.3).sum())
                line.append(f"{way}: mean {off.mean():.2f}, {int((off > 0.3).sum())} over 0.3")
            if verbose:
                print(f"  {family} {seed}/{k} (lens {look.distortion:.3f}): " + "; ".join(line), file=sys.stderr)
    out = {"family": family, "seeds": f"{first}-{first + looks - 1}", "looks": looked, "calibration_refused": refused}
    for way, t in tot.items():
        out[way] = {**t, "lost_pct": round(100 * t["lost"] / max(1, t["frames"]), 1),
                    "off_0.3_pct": round(100 * t["off_0.3"] / max(1, t["fields"]), 1)}
    if bends:
        out["bending_pitches"] = {"median": round(float(np.median(bends)), 3), "max": round(float(np.max(bends)), 3)}
    return out


def main(argv=None) -> None:
    from crate_focal import dev_varied_args      # the crate benchmarks' dev/varied options (this directory)

    def lens_flag(ap):
        ap.add_argument("--lens", action="store_true", help="lens looks only, also straightened with the true lens")
    args, first = dev_varied_args(argv, __doc__, "varied", lens_flag)
    print(json.dumps(run(args.family, args.looks, args.frames, first, args.lens, args.verbose), indent=1))

if __name__ == "__main__":
    main()
