"""Train the learned drink scorer (companion/vision/learned.py) on rendered tables, and measure it.

    .venv/bin/python tools/learn_drinks.py --jobs 2         (make model: data, training, export, report)
    .venv/bin/python tools/learn_drinks.py --measure        (only the report, with the committed model)
    .venv/bin/python tools/learn_drinks.py --measure --family train   (held-out training-family tables)

Data: rendered tables (tools/drink_tables.py: each look calibrated as ``calibrate drinks``
does, photos at each difficulty read by the real pipeline, each piece matched to its drink, "no
single drink" for a piece on none). Most tables are of the training family
(companion/sim/looks.py, "train": plastics from matte to glossy, lamps from warm to cold and a
second lamp, trays of any colour, plastic, grained or woven, cameras high and low and tilted,
each shape's size on its own, shadow bands), the rest of the development family. The drift and
hard difficulties, and HARSH photos more per training table (stronger drift, blur, JPEG), are
the augmentation in the frames.

Seeds: training tables TRAIN, temperature tables TEMPER, measuring tables HELD_OUT: none is a
seed of the benchmark (5000..) or of the tests (below 31000), and none is of the evaluation
family, which is only ever scored (benchmarks/vision.py, with fresh seeds).

Training: numpy alone (no training-only dependency): a conditional softmax over the 36 drinks
and "no single drink", one small network scoring each candidate from its relative inputs,
Adam on the cross-entropy, a fixed seed; then the temperature that minimises the held-out
loss of the TEMPER tables, and on the same tables the bar of a sure reading (``choose_sure``:
the lowest confidence from 0.9 up at which the sure readings were right SURE_RIGHT of the
time). Each set also counts once more with its pieces' features jittered (``jittered``: the
augmentation in feature space). The rendered data is kept under build/learn_drinks/ (a table
per file): a second run trains without rendering again. ``--jobs 2`` renders two tables at a
time (each is seeded on its own: the same files in any order).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import copy  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

# the measuring, shared with the pixel network's tools (which use it as learn_drinks.measure, ...)
from drink_measure import BINS, DIFFICULTIES, measure, readings_of, reliability, report  # noqa: E402,F401
# the tables (rendered, read, cached), shared with the pixel network's tools the same way
import drink_tables  # noqa: E402,F401
from drink_tables import (HARSH, PHOTOS, TRAIN_PHOTOS, cache_path, family_tables, read_photos,  # noqa: E402,F401
                          table, tables, use_sim_from)

# (family, seeds): the training family's tables (companion/sim/looks.py, "train": every range
# wider than dev's) and the development family's, so that the scorer meets both kinds of look
TRAIN = (("train", range(1_000_000, 1_000_024)), ("dev", range(100_000, 100_012)))
TEMPER = (("train", range(1_100_000, 1_100_006)), ("dev", range(110_000, 110_004)))
HELD_OUT = {"dev": range(120_000, 120_010), "train": range(1_200_000, 1_200_004)}
EVAL = range(901_000, 901_010)        # the evaluation family's (issue 26), only ever scored
SURE_RIGHT = 0.998                    # the share right that the sure bar must give on the temperature tables
HIDDEN = 16
EPOCHS = 15
SEED = 2026


JITTER = {"brightness": 0.08, "channel": 0.04, "size": 0.03, "neck": 0.03, "shoulder": 0.03, "flat": 0.15,
          "edge": 0.03}


def jittered(tabs: list[dict], seed: int) -> list[dict]:
    """Copies of the tables whose pieces' features are moved as another plastic or lamp might
    move them against the calibration (a face catching more or less light, a colour off, a
    size off by a few per cent): the augmentation in feature space. Every piece of the
    development family sits close to its calibration, so without it the scorer learns that
    a few spreads off is already "not this drink" and is unsure, or sure and wrong, as soon
    as the look changes; the same jitter on the temperature tables calibrates the confidence
    for such changes. The sizes (log-normal, sd below) are the profile's spreads' order."""
    rng = np.random.default_rng(seed)
    out = []
    for tab in tabs:
        photos = []
        for ph in tab["photos"]:
            pieces = copy.deepcopy(ph["pieces"])
            for d in pieces:
                f = d["_f"]
                bright = np.exp(rng.normal(0, JITTER["brightness"]))
                for k in ("b", "g", "r"):
                    f[k] *= bright * np.exp(rng.normal(0, JITTER["channel"]))
                for k in ("length", "width"):
                    f[k] *= np.exp(rng.normal(0, JITTER["size"]))
                f["neck"] += rng.normal(0, JITTER["neck"])
                f["shoulder"] += rng.normal(0, JITTER["shoulder"])
                f["flat"] *= np.exp(rng.normal(0, JITTER["flat"]))
                f["edge"] += rng.normal(0, JITTER["edge"])
            photos.append({**ph, "pieces": pieces})
        out.append({**tab, "photos": photos})
    return out


def examples(tabs: list[dict]):
    """The pieces to learn from: inputs (pieces x 37 x N_INPUTS) and the index of the right row
    (the drink, or 36: no single drink), with the rules' reading of each piece among the
    inputs (for a fitted reading: the outline's name)."""
    from companion.drinks import COLOURS, SHAPES
    from companion.vision.learned import N_DRINKS, inputs
    index = {f"{c.value}-{s.value}": i * len(SHAPES) + j for i, c in enumerate(COLOURS) for j, s in enumerate(SHAPES)}
    xs, ys = [], []
    for tab in tabs:
        for ph in tab["photos"]:
            for d, truth in zip(ph["pieces"], ph["truth"]):
                xs.append(inputs(d["_f"], tab["profile"], ph["sharpness"], d))
                ys.append(N_DRINKS if truth is None else index[truth])
    return np.array(xs), np.array(ys)


# --- training -----------------------------------------------------------------------------------

def train(x: np.ndarray, y: np.ndarray, hidden: int = HIDDEN, epochs: int = EPOCHS, seed: int = SEED) -> dict:
    """A conditional softmax: each of the 37 rows of a piece gets a logit from one shared small
    network (tanh hidden layer plus a linear term); Adam on the mean cross-entropy with a little
    weight decay, minibatches of 128 pieces, a fixed seed."""
    rng = np.random.default_rng(seed)
    n, k, m = x.shape
    flat = x.reshape(-1, m)
    mean = flat.mean(axis=0)
    std = flat.std(axis=0)
    std[std < 1e-6] = 1.0
    z_all = (x - mean) / std
    params = {"w1": rng.normal(0, 1.0 / np.sqrt(m), (m, hidden)), "b1": np.zeros(hidden),
              "w2": rng.normal(0, 1.0 / np.sqrt(hidden), hidden), "lin": np.zeros(m)}
    moments = {p: (np.zeros_like(v), np.zeros_like(v)) for p, v in params.items()}
    lr, b1, b2, eps, decay = 3e-3, 0.9, 0.999, 1e-8, 1e-4
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for s in range(0, n, 128):
            idx = order[s:s + 128]
            z, t = z_all[idx], y[idx]
            h = np.tanh(z @ params["w1"] + params["b1"])
            logit = h @ params["w2"] + z @ params["lin"]
            logit -= logit.max(axis=1, keepdims=True)
            p = np.exp(logit)
            p /= p.sum(axis=1, keepdims=True)
            total += -np.log(p[np.arange(len(t)), t] + 1e-12).sum()
            g = p
            g[np.arange(len(t)), t] -= 1.0
            g /= len(t)                                   # d loss / d logit
            grads = {"w2": np.einsum("bk,bkh->h", g, h), "lin": np.einsum("bk,bkm->m", g, z)}
            gh = g[:, :, None] * params["w2"] * (1 - h * h)
            grads["w1"] = np.einsum("bkm,bkh->mh", z, gh)
            grads["b1"] = gh.sum(axis=(0, 1))
            step += 1
            for name, v in params.items():
                gr = grads[name] + (decay * v if name in ("w1", "w2", "lin") else 0.0)
                m1, m2 = moments[name]
                m1 *= b1
                m1 += (1 - b1) * gr
                m2 *= b2
                m2 += (1 - b2) * gr * gr
                v -= lr * (m1 / (1 - b1 ** step)) / (np.sqrt(m2 / (1 - b2 ** step)) + eps)
        if epoch % 10 == 9 or epoch == epochs - 1:
            print(f"  epoch {epoch + 1}: training loss {total / n:.4f}", flush=True)
    from companion.vision.learned import input_names
    return {"inputs": input_names(), "mean": mean.tolist(), "std": std.tolist(),
            **{p: v.tolist() for p, v in params.items()}}


def fit_temperature(model: dict, x: np.ndarray, y: np.ndarray) -> float:
    """The temperature that minimises the cross-entropy of held-out pieces (a grid: one number)."""
    from companion.vision.learned import Scorer
    logits = Scorer({**model, "temperature": 1.0}).logits(x)
    best = (np.inf, 1.0)
    for temp in np.exp(np.linspace(np.log(0.2), np.log(5.0), 81)):
        z = logits / temp
        z = z - z.max(axis=1, keepdims=True)
        loss = float(-(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(axis=1))).mean())
        best = min(best, (loss, float(temp)))
    return round(best[1], 4)


def choose_sure(model: dict, x: np.ndarray, y: np.ndarray, right: float = SURE_RIGHT) -> tuple[float, dict]:
    """The lowest bar of confidence at which the held-out pieces that lie on a drink and are
    read at or above it are right at least ``right`` of the time (the benchmark's reliability:
    a sure reading at 0.9 or more right 99.7 % of the time; a little margin on top), and
    never below 0.9. Returns the bar and what it gives there."""
    from companion.vision.learned import N_DRINKS, Scorer
    p = Scorer(model).probabilities(x)[:, :N_DRINKS]
    on = y < N_DRINKS
    return sure_bar(p[on].max(axis=1), p[on].argmax(axis=1) == y[on], right)


def sure_bar(conf: np.ndarray, ok: np.ndarray, right: float = SURE_RIGHT) -> tuple[float, dict]:
    """The lowest bar from 0.9 up (0.999 at most) at which the readings of confidence ``conf``
    at or above it were right (``ok``) at least ``right`` of the time, and what it gives."""
    bar = 0.999
    for t in np.round(np.arange(0.9, 0.9991, 0.001), 3):
        sure = conf >= t
        if sure.any() and ok[sure].mean() >= right:
            bar = float(t)
            break
    sure = conf >= bar
    return bar, {"pieces_on_drinks": int(len(conf)), "sure": int(sure.sum()),
                 "sure_right": round(float(ok[sure].mean()) if sure.any() else 0.0, 5),
                 "right_at_0.9": round(float(ok[conf >= 0.9].mean()) if (conf >= 0.9).any() else 0.0, 5)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--measure", action="store_true", help="only measure the committed model")
    ap.add_argument("--family", choices=["dev", "train", "eval"], default="dev", help="the tables to measure on")
    ap.add_argument("--seeds", type=int, help="the first measuring table (default: the family's held-out tables)")
    ap.add_argument("--sim-from", help="a checkout whose companion/sim renders the tables")
    ap.add_argument("--tables", type=int, help="measuring tables (default: all of the family's)")
    ap.add_argument("--train-tables", type=int, default=None, help="at most this many training tables per family")
    ap.add_argument("--photos", type=int, default=PHOTOS, help="photos per table and difficulty")
    ap.add_argument("--hidden", type=int, default=HIDDEN)
    ap.add_argument("--epochs", type=int, default=EPOCHS)
    ap.add_argument("--jobs", type=int, default=1, help="processes rendering tables (make model: 2)")
    ap.add_argument("--no-measure", action="store_true", help="train and write the model only")
    ap.add_argument("--out", default=None, help="where to write the model (default: the committed file)")
    ap.add_argument("--fresh", action="store_true", help="render again what build/learn_drinks/ holds")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    use_sim_from(args.sim_from)
    import logging
    logging.basicConfig(level=logging.ERROR)
    from companion.vision.learned import MODEL_PATH, Scorer, input_names
    out = Path(args.out) if args.out else MODEL_PATH
    t_start = time.perf_counter()
    if not args.measure:
        print("training tables:", flush=True)
        # (with the pieces' crops: the pixel scorer's tool reads the same tables, rendered once)
        train_tabs = family_tables(TRAIN, TRAIN_PHOTOS, args.fresh, HARSH, args.jobs, args.train_tables, crops=True)
        x, y = examples(train_tabs + jittered(train_tabs, SEED + 1))
        print(f"{len(y)} pieces ({int((y == 36).sum())} on no drink), {x.shape[2]} inputs per candidate", flush=True)
        model = train(x, y, args.hidden, args.epochs)
        print("temperature tables:", flush=True)
        temper_tabs = family_tables(TEMPER, TRAIN_PHOTOS, args.fresh, HARSH, args.jobs, crops=True)
        # the temperature and the bar from the pieces as rendered and read (the training
        # family's looks and the harsh photos are the change of look now; the jitter stays in
        # the training)
        xt, yt = examples(temper_tabs)
        model["temperature"] = fit_temperature(model, xt, yt)
        model["sure"], held = choose_sure(model, xt, yt)
        print(f"temperature {model['temperature']}, sure from {model['sure']}: {held}", flush=True)
        model = {"kind": "tokyo-table-companion/drink-scorer", "inputs": input_names(), "hidden": args.hidden,
                 "trained": {"tables": {fam: [seeds.start, seeds[:args.train_tables][-1]] for fam, seeds in TRAIN},
                             "tables_used": len(train_tabs), "epochs": args.epochs,
                             "photos_per_difficulty": TRAIN_PHOTOS, "harsh_photos": HARSH, "jitter": JITTER,
                             "pieces": int(len(y)), "seed": SEED,
                             "temperature_tables": {fam: [seeds.start, seeds[-1]] for fam, seeds in TEMPER},
                             "sure_right": SURE_RIGHT, "temperature_tables_at_sure": held},
                 **{k: (np.round(np.array(v), 6).tolist() if k not in ("temperature", "sure", "inputs") else v)
                    for k, v in model.items()}}
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(model, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {out} ({out.stat().st_size} bytes); {time.perf_counter() - t_start:.0f} s", flush=True)
        if args.no_measure:
            return 0
    model = Scorer(json.loads(out.read_text(encoding="utf-8")))
    seeds = EVAL if args.family == "eval" else HELD_OUT[args.family]
    if args.seeds is not None:
        seeds = range(args.seeds, args.seeds + len(seeds))
    seeds = seeds[:args.tables] if args.tables else seeds
    print(f"measuring tables ({args.family}):", flush=True)
    tabs = tables(seeds, args.family, args.photos, args.fresh, 0, args.jobs)
    bar = f"rules at {model.sure:g}"
    report(f"{args.family} family, tables {seeds.start}..{seeds[-1]}, {args.photos} photos per difficulty each "
           f"(the same pieces for both scorers; the learned scorer's sure bar {model.sure:g})",
           {"rules": measure(tabs, "rules"), bar: measure(tabs, bar), "learned": measure(tabs, "learned", model)})
    if args.family == "dev":
        # the proxy the development family offers for a table that looks otherwise than its
        # calibration (the rules' readings are the pipeline's and not jittered: learned only)
        report("the same tables, the pieces' features jittered as in training (another seed)",
               {"learned": measure(jittered(tabs, SEED + 3), "learned", model)})
    print(f"\n{time.perf_counter() - t_start:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
