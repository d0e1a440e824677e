"""Why the landing reader is unsure: for each asked drink of some looks (as benchmarks/landings.py
draws them), whether it was read sure, whether the reading was right, and what kept it unsure
(the spot's probability short of the model's bar, a rival patch, or the error scale alone).

    PYTHONPATH=$PWD .venv/bin/python tools/landing_doubts.py --family varied --first 20000 --looks 40 [--candidates 8]

Dev and varied looks only: the eval family is only ever scored (benchmarks/landings.py).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from companion.sim.landing_render import benchmark_looks  # noqa: E402
from companion.vision import landing_crops  # noqa: E402
from companion.vision.landing_calibrate import calibrate_landing  # noqa: E402
from companion.vision.landings import LandingReader  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=("dev", "varied"), default="varied")
    ap.add_argument("--first", type=int, default=20000)
    ap.add_argument("--looks", type=int, default=40)
    ap.add_argument("--candidates", type=int, default=landing_crops.MAX_CANDIDATES, help="patches looked at")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    landing_crops.MAX_CANDIDATES = args.candidates
    rows, seed = [], args.first
    for seed, _look, frame, true, photo in benchmark_looks(args.family, args.first, args.looks):   # the benchmark's own
        reader = LandingReader(calibrate_landing(photo))
        got = reader.read(frame, tuple(x.drink for x in true))
        for a, b in zip(true, got.landings):
            right = b.seen and b.spot == a.spot and abs(b.distance_mm - a.distance_mm) <= max(10, 0.05 * a.distance_mm)
            note = reader._notes.get(a.drink, {})
            rows.append((b.seen, b.sure, right, note.get("p_spot", 0.0), note.get("rival", False)))
    unsure = [r for r in rows if r[0] and not r[1]]
    bar = reader.model.sure
    print(f"{args.family} {args.first}-{seed}, {args.candidates} candidates: {len(rows)} drinks, sure and right "
          f"{sum(r[1] and r[2] for r in rows)}, sure and wrong {sum(r[1] and not r[2] for r in rows)}, unsure "
          f"{len(unsure)} (read right {sum(r[2] for r in unsure)}), not seen {sum(not r[0] for r in rows)}; unsure by: "
          f"a rival {sum(r[4] for r in unsure)}, the spot short of {bar} {sum(r[3] < bar for r in unsure)}, "
          f"the scale alone {sum(r[3] >= bar and not r[4] for r in unsure)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
