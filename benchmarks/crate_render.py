"""How fast the simulated crate camera draws a frame (issue 31): the renderer behind the
simulated crate camera, the crate reader's benchmark and its training data.

For each family of looks (``CrateLook.from_seed(seed, family)``) it builds the renderer for a
few looks and renders GRAPE SODA's square of six crates, 50-80 % of the fields filled, at a
random pose (one frame in ten with a hand) on ONE core (cv2.setNumThreads(1), one BLAS
thread), and prints per family the milliseconds of CPU a frame takes (process time: a busy
machine stretches the wall clock, this less), median and 95th percentile, by image size, and
what building a look's renderer takes. Seeds: dev 1000 on, eval 910000 on,
varied 500000 on (timing only: nothing here is scored or looked at).

Run:   .venv/bin/python benchmarks/crate_render.py                 (3 families, 6 looks x 10 frames)
       .venv/bin/python benchmarks/crate_render.py --looks 2 --frames 4     (quick)
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.crate_fields import CrateLayout  # noqa: E402
from companion.drinks import DRINK_IDS  # noqa: E402
from companion.sim.crate_camera import START  # noqa: E402
from companion.sim.crate_looks import CrateLook  # noqa: E402
from companion.sim.crate_render import CrateRenderer  # noqa: E402

SEEDS = {"dev": 1000, "eval": 910000, "varied": 500000}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=sorted(SEEDS), action="append")
    ap.add_argument("--looks", type=int, default=6)
    ap.add_argument("--frames", type=int, default=10)
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    out = {}
    for family in args.family or ["dev", "eval", "varied"]:
        times, builds, by_size = [], [], {}
        for k in range(args.looks):
            look = CrateLook.from_seed(SEEDS[family] + k, family)
            t = time.process_time()
            r = CrateRenderer(look)
            builds.append(time.process_time() - t)
            rng = np.random.default_rng([SEEDS[family] + k, 77])
            for i in range(args.frames):
                fill = rng.uniform(0.5, 0.8)
                layout = CrateLayout(crates=START.crates, drinks={(x, y): DRINK_IDS[int(rng.integers(0, 36))]
                                                                  for x in range(6) for y in range(6) if rng.random() < fill})
                t = time.process_time()
                r.render(layout, rng, hand=(i % 10 == 9))
                dt = time.process_time() - t
                times.append(dt)
                by_size.setdefault("%dx%d" % look.image_size, []).append(dt)
        ms = np.array(times) * 1000
        out[family] = {"frames": len(times), "median_ms": round(float(np.median(ms)), 1),
                       "p95_ms": round(float(np.percentile(ms, 95)), 1),
                       "build_ms": round(float(np.median(builds) * 1000), 1),
                       "by_size_median_ms": {s: round(float(np.median(v) * 1000), 1) for s, v in sorted(by_size.items())}}
        if not args.json:
            o = out[family]
            sizes = ", ".join(f"{s} {v}" for s, v in o["by_size_median_ms"].items())
            print(f"{family:7s} {o['frames']:4d} frames: median {o['median_ms']} ms, p95 {o['p95_ms']} ms "
                  f"(by size: {sizes}); a look's renderer built in {o['build_ms']} ms", flush=True)
    if args.json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
