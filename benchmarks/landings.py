"""How well and how fast the landing reader (issue 32, item 9) tells where each asked drink
landed, on two families of simulated landing cameras.

For each look (``LandingLook.from_seed(seed, family)``: its own camera, lamps, table, crate
plastic and drink sizes) it renders the calibration photo (the mat at the tower's foot),
calibrates from it as a table would (``calibrate_landing``), then renders one scene of 2-6
drinks of different colours (``sim/landing_layouts.compose``: each asked for in a slot, in the
crate, outside, or anywhere, half of the outside ones at a set distance of 60-320 mm as LEMON
SQUASH's far throws) with 0-2 coins or cards about, and reads it on ONE core.

A drink is "right" when the reading is sure, seen, of its true spot and its distance within
max(10 mm, 5 %); "sure-wrong" when it is sure and not right (what must stay at zero);
"unsure" when seen but not sure; "not seen" when not found (a look whose calibration photo is
refused counts all its drinks as not seen, and is counted apart; so does a frame the reader
refuses whole with a code, such as ``camera_error``: its drinks are not seen, the frame counted apart).

Some truths are a knife's edge: a lying drink whose middle is a millimetre inside a crate's rim
is "crate", a millimetre farther "outside". The lying drinks within ``EDGE_MM`` of another spot
(``companion.landing.edge_mm``) are counted apart too: their share, and right and sure-wrong
among the others (a camera that places a drink to a millimetre or two cannot be sure of those).

Families: "dev" is what the reader was tuned on (seeds 0 on); "eval" (seeds 940000 on) differs
in kind and is ONLY EVER SCORED: totals only.

Run:   .venv/bin/python benchmarks/landings.py                      (both families, 60 looks each)
       .venv/bin/python benchmarks/landings.py --rules               (the hand-written rules instead of the network)
       .venv/bin/python benchmarks/landings.py --family eval --first 940100   (a fresh set of eval looks)
       .venv/bin/python benchmarks/landings.py --family dev --looks 5  (quick)
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
from companion.landing import edge_mm, truth  # noqa: E402
from companion.sim.landing_render import benchmark_scenes  # noqa: E402
from companion.vision.landing_calibrate import LandingCalibrationError, calibrate_landing  # noqa: E402
from companion.vision.landings import LandingReader  # noqa: E402

FIRST_SEED = {"dev": 0, "eval": 940000, "varied": 0}
EDGE_MM = 2.0       # a lying drink this near another spot (``landing.edge_mm``) is on a knife's edge: counted apart


def run(family: str, looks: int, show: bool = False, learned: bool = True, first: int | None = None) -> dict:
    counts = {"right": 0, "sure_wrong": 0, "unsure": 0, "not_seen": 0}
    clear = {"drinks": 0, "right": 0, "sure_wrong": 0}     # the drinks not on a knife's edge
    refused, refused_frames, ms, cpu = 0, 0, [], []
    for seed, _look, frame, scene, _loose, photo in benchmark_scenes(family, FIRST_SEED[family] if first is None else first,
                                                                     looks):
        true = truth(scene).landings
        on_edge = [not d.standing and edge_mm(scene, d, EDGE_MM) < EDGE_MM for d in scene.drinks]
        clear["drinks"] += on_edge.count(False)
        try:
            cal = calibrate_landing(photo)
        except LandingCalibrationError:
            refused += 1
            counts["not_seen"] += len(true)
            continue
        reader = LandingReader(cal, learned=learned)
        reader.top_view(frame)            # the top view's maps are made once a camera: not a frame's cost
        t, c = time.perf_counter(), time.process_time()
        got = reader.read(frame, tuple(x.drink for x in true))
        ms.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)     # a busy machine stretches the wall clock, not this
        if got.codes:                     # the frame refused whole: none of its drinks was read
            refused_frames += 1
            counts["not_seen"] += len(true)
            continue
        for a, b, edge in zip(true, got.landings, on_edge):
            if show and family != "eval" and b.sure and not (b.spot == a.spot and abs(b.distance_mm - a.distance_mm) <= max(10, 0.05 * a.distance_mm)):
                print(f"  look {seed}: {a.drink} {a.spot} {a.distance_mm} -> {b.spot} {b.distance_mm} "
                      f"{'sure' if b.sure else 'unsure'} {reader._notes.get(a.drink)}")
            if not b.seen:
                counts["not_seen"] += 1
            elif not b.sure:
                counts["unsure"] += 1
            elif b.spot == a.spot and abs(b.distance_mm - a.distance_mm) <= max(10, 0.05 * a.distance_mm):
                counts["right"] += 1
                clear["right"] += not edge
            else:
                counts["sure_wrong"] += 1
                clear["sure_wrong"] += not edge
    total = sum(counts.values())
    return {"family": family, "looks": looks, "drinks": total, "refused_calibrations": refused,
            "refused_frames": refused_frames,
            **{k: round(100 * v / max(total, 1), 1) for k, v in counts.items()},
            "counts": dict(counts),
            "on_edge": round(100 * (total - clear["drinks"]) / max(total, 1), 1),
            "clear_right": round(100 * clear["right"] / max(clear["drinks"], 1), 1),
            "clear_sure_wrong": round(100 * clear["sure_wrong"] / max(clear["drinks"], 1), 1),
            "ms_median": round(float(np.median(ms)), 0) if ms else None,
            "ms_p95": round(float(np.percentile(ms, 95)), 0) if ms else None,
            "cpu_ms_median": round(float(np.median(cpu)), 0) if cpu else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=("dev", "eval", "varied", "both"), default="both",
                    help="both: dev and eval; varied (the training looks) for looking into what generalises")
    ap.add_argument("--looks", type=int, default=60)
    ap.add_argument("--rules", action="store_true", help="the hand-written rules, not the learned reader")
    ap.add_argument("--first", type=int, help="the first look's seed (eval: 940000 by default; 940100 the fresh set)")
    ap.add_argument("--show", action="store_true", help="list the drinks read sure and wrong (dev and varied; never eval's)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    for family in (("dev", "eval") if args.family == "both" else (args.family,)):
        r = run(family, args.looks, args.show, not args.rules, args.first)
        print(f"{family}: {r['drinks']} drinks in {r['looks']} looks: right {r['right']} %, sure-wrong "
              f"{r['sure_wrong']} %, unsure {r['unsure']} %, not seen {r['not_seen']} % ({' / '.join(str(v) for v in r['counts'].values())}); "
              f"calibrations refused "
              f"{r['refused_calibrations']}, frames refused {r['refused_frames']}; ms a frame median {r['ms_median']}, p95 {r['ms_p95']} "
              f"(CPU ms median {r['cpu_ms_median']}); on a knife's edge (lying within {EDGE_MM:g} mm of another spot) "
              f"{r['on_edge']} %, the others right {r['clear_right']} %, sure-wrong {r['clear_sure_wrong']} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
