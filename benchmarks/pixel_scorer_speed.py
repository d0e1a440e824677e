"""What the pixel scorer adds to a frame's reading (issue 26): the same frames read with the
rules and with the pixel scorer, one core, CPU time of the reading thread.

    .venv/bin/python benchmarks/pixel_scorer_speed.py [--seed 29800] [--frames 3] [--repeats 7] [--scorer pixels]

One development-family table is rendered and calibrated as benchmarks/vision.py does, then
``--frames`` photos of each difficulty; each frame is read ``--repeats`` times by each scorer,
by turns (so that other load on the machine falls on both alike), and the median per frame
is kept. Printed per difficulty: the median over its frames of the rules' time, the pixel
scorer's, and the difference, and of the difference alone the pixel scorer's own part
(``pixel_scorer.rescore`` on the finished pieces: crops, channels, the feature scorer's
inputs, the network). ``--scorer checked-pixels``: the rules checked by the network over the
pixels alone (vision/checked.py) in its place, its own part ``checked.check_pixels``; ``--scorer
checked-set``: the same with the network that knows the set's sizes (``checked.check_set``);
``--scorer checked-sure``: that network's view weighed by the learned sureness (``sure.check_sure``);
``--scorer checked-set=PATH``: checked-set with a candidate set network. ``--base`` replaces the
rules as what it is compared with (``--base checked-set --scorer checked-set=PATH``: a candidate
against the committed network, by turns on the same frames).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import copy  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from companion.sim.looks import Look  # noqa: E402
from companion.sim.render import Renderer  # noqa: E402
from companion.sim.scenes import DIFFICULTIES, DIFFICULTY_TITLES, render_sample  # noqa: E402
from companion.vision.drinks import identify_analysis  # noqa: E402
from companion.vision.segment import analyse  # noqa: E402
from vision import calibrated, candidate, hook  # noqa: E402


def cpu_ms(fn) -> float:
    c0 = time.thread_time()
    fn()
    return 1000.0 * (time.thread_time() - c0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=29800, help="the development-family table")
    ap.add_argument("--frames", type=int, default=3, help="photos per difficulty")
    ap.add_argument("--repeats", type=int, default=7, help="readings of each frame by each scorer")
    ap.add_argument("--scorer", default="pixels",
                    help="what is compared: pixels, checked-pixels, checked-set, checked-sure, or checked-set=PATH "
                         "(checked-set with a candidate set network, as benchmarks/vision.py reads it)")
    ap.add_argument("--base", default="rules",
                    help="what it is compared with (default the rules; e.g. checked-set, to time a candidate "
                         "network against the committed one by turns)")
    args = ap.parse_args(argv)
    known = ("rules", "pixels", "checked-pixels", "checked-set", "checked-sure")
    for name in (args.scorer, args.base):
        if name not in known and not candidate(name):
            ap.error(f"{name}: one of {', '.join(known)} or checked-set=PATH (an existing file)")
    if args.scorer == args.base:
        ap.error("--scorer and --base are the same: nothing to compare")
    cv2.setNumThreads(1)
    look = Look.from_seed(args.seed, family="dev")
    profile = calibrated(look, args.seed)
    renderer = Renderer(look)
    rng = np.random.default_rng([args.seed, 31337])
    hooks = {args.base: hook(args.base), args.scorer: hook(args.scorer)}
    own_part = hooks[args.scorer]
    print(f"pixel scorer speed: dev table {args.seed}, {args.frames} frames per difficulty, "
          f"{args.repeats} readings each, one core (CPU ms of the reading thread, medians)")
    print(f"| difficulty | {args.base} ms | {args.scorer} ms | added ms | of it the scorer's own part ms |")
    print("|---|---|---|---|---|")
    for diff in DIFFICULTIES:
        frames = [render_sample(renderer, rng, diff)[0] for _ in range(args.frames)]
        for img in frames:                      # warm-up (caches), not counted
            for reader in hooks.values():
                identify_analysis(analyse(img, profile), profile, reader)
        rules, pixels, own = [], [], []
        for img in frames:
            times = {k: [] for k in hooks}
            kept = {}
            identify_analysis(analyse(img, profile), profile,
                              lambda r, an, _p: kept.update(pieces=copy.deepcopy(r), an=an))
            rescoring = []
            for _ in range(args.repeats):
                for k, reader in hooks.items():
                    times[k].append(cpu_ms(lambda: identify_analysis(analyse(img, profile), profile, reader)))
                pieces = copy.deepcopy(kept["pieces"])
                rescoring.append(cpu_ms(lambda: own_part(pieces, kept["an"], profile)))
            rules.append(np.median(times[args.base]))
            pixels.append(np.median(times[args.scorer]))
            own.append(np.median(rescoring))
        r, p = float(np.median(rules)), float(np.median(pixels))
        print(f"| {DIFFICULTY_TITLES[diff]} | {r:.1f} | {p:.1f} | {p - r:.1f} | {float(np.median(own)):.1f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
