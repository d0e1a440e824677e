"""Whether the crate calibration puts the six cans in their slots (issue 31), against the
renderer's truth: per look, calibrated (and then every can's top nearest the slot the calibration
gave it, or not) or refused, and how far the chosen fit missed the tops (pitches); how many
the network's marks placed (``calibration_crate.learned_place``, where every guess refused).

``--photos training`` draws the calibration photos as tools/learn_crates.py renders them (the
network's training looks); ``benchmark`` as benchmarks/crates.py does. Dev and varied only.

Run:   .venv/bin/python benchmarks/crate_calibration.py --family varied --seeds 0 --looks 60
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

from companion.sim.crate_looks import CrateLook  # noqa: E402
from companion.sim.crate_render import CrateRenderer  # noqa: E402
from companion.vision.calibration_crate import CALIBRATION_LAYOUT, CrateCalibrationError, place_crate  # noqa: E402
from companion.vision.crate_grid import to_frame  # noqa: E402

STREAMS = {"training": 31, "benchmark": 7031}     # the second number of each one's random stream


def check(look: CrateLook, stream: int) -> dict:
    """One look's calibration photo: refused, or the chosen fit's miss and whether every can is
    in its slot (the white can's slot 0 included)."""
    photo, truth = CrateRenderer(look).render(CALIBRATION_LAYOUT, np.random.default_rng([look.seed, stream]))
    tops_at = {tuple(d["field"]): np.array(d["top_px"]) for d in truth["drinks"]}
    try:
        placed = place_crate(photo)
    except CrateCalibrationError:
        return {"seed": look.seed, "refused": True}
    H, src, dst, tops = placed.H, placed.points, placed.fields, placed.tops
    pitch = float(np.linalg.norm(to_frame(H, [(0.5, 0.5)]) - to_frame(H, [(1.5, 0.5)])))
    miss = float(np.linalg.norm(to_frame(H, dst) - src, axis=1).max()) / pitch
    nearest = [min(tops_at, key=lambda f: float(np.linalg.norm(tops_at[f] - p))) for p in src]
    right = all(f == tuple(int(v) for v in d - 0.5) for f, d in zip(nearest, dst))
    return {"seed": look.seed, "refused": False, "tops": len(tops), "miss": round(miss, 3), "guess": placed.guess, "right": right}


def main(argv=None) -> None:
    from crate_focal import dev_varied_args      # the crate benchmarks' dev/varied options (this directory)

    def photos(ap):
        ap.add_argument("--photos", choices=sorted(STREAMS), default="training")
    args, first = dev_varied_args(argv, __doc__, "varied", photos)
    cv2.setNumThreads(1)
    rows = [check(CrateLook.from_seed(s, args.family), STREAMS[args.photos]) for s in range(first, first + args.looks)]
    done = [r for r in rows if not r["refused"]]
    if args.verbose:
        for r in rows:
            print(f"  {args.family} {r}", file=sys.stderr)
    print(json.dumps({"family": args.family, "seeds": f"{first}-{first + args.looks - 1}", "photos": args.photos,
                      "looks": len(rows), "refused": len(rows) - len(done),
                      "cans_in_their_slots": sum(r["right"] for r in done),
                      "wrong_slots": sum(not r["right"] for r in done),
                      "placed_by_network": sum(r["guess"] == -1 for r in done),
                      "network_wrong_slots": sum(r["guess"] == -1 and not r["right"] for r in done),
                      "miss_right_max": max([r["miss"] for r in done if r["right"]], default=None),
                      "miss_wrong": sorted(r["miss"] for r in done if not r["right"])}, indent=1))


if __name__ == "__main__":
    main()
