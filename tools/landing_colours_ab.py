"""The landing reader with the plastics' colours nominal and taken from the view itself
(``landing_crops.ADAPT`` off and on), on the very looks benchmarks/landings.py draws, each look
rendered once and read both ways (the rendering is most of a run's time):

    PYTHONPATH=$PWD nice -n 10 .venv/bin/python tools/landing_colours_ab.py --family varied --first 20000 \
        --looks 40 [--show]

Counts as the benchmark's (right: sure, seen, the true spot, the distance within max(10 mm,
5 %)); ``--show`` lists each drink the two read differently. Dev and varied looks only: the
eval family is only ever scored, by benchmarks/landings.py.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from companion.sim.landing_render import benchmark_looks  # noqa: E402
from companion.vision import landing_crops  # noqa: E402
from companion.vision.landing_calibrate import LandingCalibrationError, calibrate_landing  # noqa: E402
from companion.vision.landings import LandingReader  # noqa: E402

WAYS = {"nominal": False, "adapted": True}


def outcome(true, got) -> str:
    if not got.seen:
        return "not_seen"
    if not got.sure:
        return "unsure"
    ok = got.spot == true.spot and abs(got.distance_mm - true.distance_mm) <= max(10, 0.05 * true.distance_mm)
    return "right" if ok else "sure_wrong"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=("dev", "varied"), default="dev")
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--looks", type=int, default=60)
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    counts = {w: dict.fromkeys(("right", "sure_wrong", "unsure", "not_seen"), 0) for w in WAYS}
    cpu = {w: [] for w in WAYS}
    for seed, _look, frame, true, photo in benchmark_looks(args.family, args.first, args.looks):
        try:
            cal = calibrate_landing(photo)
        except LandingCalibrationError:
            for w in WAYS:
                counts[w]["not_seen"] += len(true)
            continue
        reader = LandingReader(cal)
        reader.top_view(frame)
        got = {}
        for w, on in WAYS.items():
            landing_crops.ADAPT = on
            c = time.process_time()
            got[w] = reader.read(frame, tuple(x.drink for x in true))
            cpu[w].append((time.process_time() - c) * 1000)
        for i, a in enumerate(true):
            res = {w: "not_seen" if got[w].codes else outcome(a, got[w].landings[i]) for w in WAYS}
            for w in WAYS:
                counts[w][res[w]] += 1
            if args.show and res["nominal"] != res["adapted"]:
                b = got["adapted"].landings[i] if not got["adapted"].codes else None
                print(f"  look {seed}: {a.drink} {a.spot} {a.distance_mm}: {res['nominal']} -> {res['adapted']}"
                      + (f" ({b.spot} {b.distance_mm})" if b is not None and b.seen else ""), flush=True)
    for w in WAYS:
        n = counts[w]
        print(f"{w}: {args.family} {args.first} +{args.looks}: right {n['right']}, sure-wrong {n['sure_wrong']}, "
              f"unsure {n['unsure']}, not seen {n['not_seen']} of {sum(n.values())}; CPU ms median "
              f"{np.median(cpu[w]):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
