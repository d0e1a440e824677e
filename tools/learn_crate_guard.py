"""Fit the crate reader's learnt frame guard (companion/vision/crate_guard.py).

Two steps, the project's venv (numpy alone):

    # 1. read frames of development and training looks with the frame guard off and write each
    #    frame's numbers and whether it holds a sure mistake (one process a family; seeds apart
    #    from the benchmark's, benchmarks/crates.py):
    .venv/bin/python tools/learn_crate_guard.py frames --family varied --seeds 701000:701060 --out build/guard-varied1.jsonl
    .venv/bin/python tools/learn_crate_guard.py frames --family varied --seeds 701060:701120 --out build/guard-varied2.jsonl
    .venv/bin/python tools/learn_crate_guard.py frames --family dev --seeds 801000:801030 --out build/guard-dev.jsonl
    # 2. fit a logistic regression on them and pick its threshold, write models/crate_guard.json:
    .venv/bin/python tools/learn_crate_guard.py fit build/guard-varied1.jsonl build/guard-varied2.jsonl build/guard-dev.jsonl

(The guard measured in docs/performance.md, "A frame guard learnt": exactly these, about 5 minutes a
process on a loaded 2-core machine; none is committed.)

The threshold is the largest under which at most one in ``--per`` of the frames holding a sure
mistake (none, when fewer than that) would be read. Evaluation seeds are refused.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

EVAL_SEEDS_FROM = 910_000


def frames(args) -> None:
    import cv2

    import companion.vision.crates as crates
    from companion.sim.crate_layouts import random_layout
    from companion.sim.crate_looks import CrateLook
    from companion.sim.crate_render import CrateRenderer
    from companion.vision.crate_calibrate import CALIBRATION_LAYOUT, CrateCalibrationError, calibrate_crates
    from companion.vision.crate_guard import NUMBERS, frame_numbers
    from crates import score                      # benchmarks/crates.py: the benchmark's own scoring

    cv2.setNumThreads(1)
    first, last = (int(v) for v in args.seeds.split(":"))
    if last > EVAL_SEEDS_FROM:
        raise SystemExit("evaluation seeds are never read to fit the guard")
    crates.LEARNT_GUARD, crates.DOUBTFUL_SHARE = False, 1.0        # the frame guard off
    # the reader keeps no frame's probabilities (it needs none after the frame): the tool takes
    # them where the reader weighs them, the very array the guard sees inside CrateReader._read
    seen = {}
    weigh = crates.one_of_each

    def keep(prob, *rest):
        seen["prob"] = out = weigh(prob, *rest)
        return out

    crates.one_of_each = keep
    with open(args.out, "w", encoding="utf-8") as out:
        for seed in range(first, last):
            renderer = CrateRenderer(CrateLook.from_seed(seed, args.family))
            rng = np.random.default_rng([seed, 7031])       # as the benchmark draws a look's frames
            photo, _ = renderer.render(CALIBRATION_LAYOUT, rng)
            try:
                reader = crates.CrateReader(calibrate_crates(photo))
            except CrateCalibrationError:
                reader = None
            for k in range(args.frames):
                frame, truth = renderer.render(random_layout(rng), rng)
                if reader is None:
                    continue
                seen.clear()
                reading = reader.read(frame)
                if reading.codes or "prob" not in seen:
                    continue
                fields = {tuple(f): v for f, v in truth["fields"].items()}
                right, _, wrong = score(fields, reading)
                sure = len(reading.fields) - len(reading.unsure)
                row = {"seed": seed, "frame": k, "right": right, "wrong": wrong,
                       **dict(zip(NUMBERS, frame_numbers(seen["prob"], sure).tolist()))}
                out.write(json.dumps(row) + "\n")
                out.flush()


def fit(args) -> None:
    from companion.vision.crate_guard import GUARD_PATH, NUMBERS, FrameGuard
    args.out = args.out or GUARD_PATH
    rows = [json.loads(line) for path in args.data for line in open(path, encoding="utf-8")]
    X = np.array([[r[k] for k in NUMBERS] for r in rows], np.float64)
    y = np.array([r["wrong"] > 0 for r in rows], np.float64)
    right = np.array([r["right"] for r in rows])
    mean, std = X.mean(0), X.std(0) + 1e-9
    Z = np.c_[(X - mean) / std, np.ones(len(X))]
    w = np.zeros(Z.shape[1])
    for _ in range(50):          # Newton's method with a little ridge: a handful of numbers, a few hundred frames
        p = 1 / (1 + np.exp(-Z @ w))
        grad = Z.T @ (p - y) + args.ridge * w
        hess = Z.T @ (Z * (p * (1 - p))[:, None]) + args.ridge * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    p = 1 / (1 + np.exp(-Z @ w))
    mistaken = np.sort(p[y == 1])
    allowed = int(len(mistaken) // args.per)
    # a hair under the mistaken frame's chance: the reader sums the same numbers in another order
    threshold = float(mistaken[allowed]) - 1e-9 if len(mistaken) > allowed else 1.0
    read = p < threshold
    guard = FrameGuard(mean, std, w[:-1], float(w[-1]), threshold)
    args.out.write_text(json.dumps({**guard.settings(), "fitted": {
        "frames": len(rows), "with_a_sure_mistake": int(y.sum()), "per": args.per,
        "data": [Path(d).name for d in args.data]}}, indent=1) + "\n", encoding="utf-8")
    print(f"{len(rows)} frames, {int(y.sum())} with a sure mistake; threshold {threshold:.4f}: {int(read.sum())} "
          f"frames read ({int((read & (y == 1)).sum())} with a mistake), {int(right[read].sum())} of "
          f"{int(right[y == 0].sum())} right fields of the clean frames kept -> {args.out}", file=sys.stderr)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    f = sub.add_parser("frames")
    f.add_argument("--family", choices=["dev", "varied"], required=True)
    f.add_argument("--seeds", required=True, help="first:last (last not included)")
    f.add_argument("--frames", type=int, default=3)
    f.add_argument("--out", type=Path, required=True)
    f.set_defaults(func=frames)
    t = sub.add_parser("fit")
    t.add_argument("data", nargs="+")
    t.add_argument("--per", type=int, default=100, help="mistaken frames per one read allowed (none when fewer)")
    t.add_argument("--ridge", type=float, default=0.1)
    t.add_argument("--out", type=Path, default=None, help="default: the committed guard, models/crate_guard.json")
    t.set_defaults(func=fit)
    args = ap.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
