"""How near the landing reader's plastic references come to each look's true plastics: the
makers' nominal ones against those taken from the view (``landing_colour_adapt.adapted_references``),
for the coloured plastics on the table and the crates' yellow (the chromaticity distance; one
class's sigma is 0.045). The benchmark's own draws; dev and varied looks only.

    PYTHONPATH=$PWD nice -n 10 .venv/bin/python tools/landing_colour_refs.py varied 20000 12
"""
from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from companion.sim.landing_render import benchmark_scenes  # noqa: E402
from companion.vision import landing_colour_adapt as la  # noqa: E402
from companion.vision import landing_colours as lc  # noqa: E402
from companion.vision.landing_calibrate import LandingCalibrationError, calibrate_landing  # noqa: E402
from companion.vision.landing_crops import BEHIND_MM, TOP_PX_PER_MM  # noqa: E402
from companion.vision.landings import LandingReader  # noqa: E402


def main() -> int:
    family, first, looks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if family not in ("dev", "varied"):
        raise SystemExit("dev or varied looks only: the eval family is only ever scored")
    cv2.setNumThreads(1)
    errs = {"nominal": [], "adapted": []}
    for seed, look, frame, scene, _loose, photo in benchmark_scenes(family, first, looks):
        try:
            cal = calibrate_landing(photo)
        except LandingCalibrationError:
            continue
        mx, my, valid, gx, gy = LandingReader(cal)._top_maps((frame.shape[1], frame.shape[0]))
        top = cv2.remap(frame, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        feats = lc.features(lc.balanced(top, cal.white_bgr), TOP_PX_PER_MM)
        # the yellow as the EM estimates it (the reader reads it nominal)
        refs = la.adapted_references(feats, valid & (gy >= BEHIND_MM), keep_yellow=False)
        present = {d.drink.partition("-")[0] for d in scene.drinks}
        for c in la.ADAPTED + ("yellow",):
            if c not in present and not (c == "yellow" and scene.crates):
                continue
            true = lc._reference(look.crate_srgb if c == "yellow" else look.drinks[c])[0]
            en, ea = (float(np.linalg.norm(r[c][0] - true)) for r in (lc.REFERENCES, refs))
            errs["nominal"].append(en)
            errs["adapted"].append(ea)
            print(f"{seed} {c}: nominal {en:.3f}, adapted {ea:.3f}")
    for k, v in errs.items():
        v = np.array(v)
        print(f"{k}: mean {v.mean():.4f}, median {np.median(v):.4f}, p90 {np.percentile(v, 90):.4f}, "
              f"beyond 0.045: {int((v > 0.045).sum())} of {len(v)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
