"""How fast the simulated tray is drawn: the renderer behind the vision tests' tables, the drink
benchmark and the drink models' training data (`companion/sim/render.py`).

For a few looks of each family it renders the calibration photos (the empty tray and one photo
per drink, as `companion calibrate drinks` reads them) and a few benchmark photos of every
difficulty, on ONE core (cv2.setNumThreads(1), one BLAS thread), and prints the CPU milliseconds
a photo takes (process time: a busy machine stretches the wall clock, this far less), median and
95th percentile, per family and kind. Seeds: the families' first few (timing only: nothing here
is scored or looked at).

Run:   .venv/bin/python benchmarks/tray_render.py                  (2 looks a family, 4 photos a difficulty)
       .venv/bin/python benchmarks/tray_render.py --looks 1 --photos 2 --json
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.sim.looks import FAMILIES, Look  # noqa: E402
from companion.sim.render import Renderer  # noqa: E402
from companion.sim.scenes import DIFFICULTIES, calibration_photos, render_sample  # noqa: E402


def _timed(photos) -> list[float]:
    """CPU milliseconds each photo of the iterator took to make."""
    took, started = [], time.process_time()
    for _ in photos:
        now = time.process_time()
        took.append(1000 * (now - started))
        started = now
    return took


def measure(family: str, looks: int, photos: int) -> dict:
    times: dict[str, list[float]] = {"calibration": []}
    for seed in list(FAMILIES[family].seeds)[:looks]:
        look = Look.from_seed(seed, family=family)
        times["calibration"] += _timed(calibration_photos(look, seed))
        renderer, rng = Renderer(look), np.random.default_rng([seed, 4242])
        for difficulty in DIFFICULTIES:
            times.setdefault(difficulty, []).extend(
                _timed(render_sample(renderer, rng, difficulty) for _ in range(photos)))
    return {kind: {"photos": len(ms), "median_ms": round(float(np.median(ms)), 1),
                   "p95_ms": round(float(np.percentile(ms, 95)), 1)} for kind, ms in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--families", default="dev,eval,train", help="comma-separated (default dev,eval,train)")
    parser.add_argument("--looks", type=int, default=2, help="looks a family (default 2)")
    parser.add_argument("--photos", type=int, default=4, help="benchmark photos a difficulty and look (default 4)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    result = {family: measure(family, args.looks, args.photos) for family in args.families.split(",")}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"{'family':8} {'kind':12} {'photos':>6} {'median ms':>10} {'p95 ms':>8}")
    for family, kinds in result.items():
        for kind, row in kinds.items():
            print(f"{family:8} {kind:12} {row['photos']:6d} {row['median_ms']:10.1f} {row['p95_ms']:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
