"""Train the pixel scorer (companion/vision/pixel_scorer.py) on rendered tables, and measure it.

    .venv/bin/python tools/learn_drink_pixels.py --data [--jobs 2]      (render and cache the tables)
    .train-venv/bin/python tools/learn_drink_pixels.py --variant both   (train, choose, write, report)
    .train-venv/bin/python tools/learn_drink_pixels.py --measure        (report the committed model)

Data: tools/learn_drinks.py's tables (each table calibrated from its own rendered photos, as
``calibrate drinks`` does; its photos at the benchmark's four difficulties and harsher ones read
by the real pipeline, each piece matched to the drink it lies on), with each piece's raw crop
(``drink_crops.raw_crops``) kept beside its features, and each training table's own
calibration photos read as pieces (tools/drink_pixel_data.py); cached under build/learn_drinks/
(``*-px.pickle``). PyTorch (a training tool only, .train-venv: the `train` extra, `make model` makes it) trains the network of
``pixel_scorer`` on them: every batch augmented (turned a little, scaled, moved, mirrored
across the axis, relit, some blurred), AdamW with a one-cycle rate, a fixed seed; the numpy
network is checked against PyTorch's scores. The temperature and the bar of a sure reading
come from the temperature tables (as tools/learn_drinks.py: the lowest bar from 0.9 up where the
sure readings there were right SURE_RIGHT of the time; each family's tables on their own, the
higher bar kept). ``--variant both`` trains the network
with the feature scorer's view among its side numbers and without, and keeps the one with more
correct readings (a wrong one counted ten times) on the held-out training-family tables.
The network, its batches and its export: tools/drink_pixel_torch.py (``--norm batch``: each
convolution batch-normalised while training, folded in at the export; ``--augment strong``).
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
from types import SimpleNamespace  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import drink_pixel_data as extras  # noqa: E402
import learn_drinks as base  # noqa: E402
from net_widths import conv_widths, hidden_width  # noqa: E402
from drink_pixel_torch import AUGMENT, SEED, augmented, train  # noqa: E402,F401  (the network, its batches; augmented for the tests)

# (family, seeds, photos per difficulty, harsh photos). Training tables: of the training family
# (its looks vary far more than dev's) and of the development family. The first two are
# tools/learn_drinks.py's (make model renders them once for both tools); those from 1_320_000
# are this tool's own, rendered with fewer photos (a new look teaches more than another photo
# of the same look; a table costs its 37 calibration renders whatever its photos): the
# feature scorer never trained on them, so its view of their pieces is as unsure as on any
# new table, which the "features" variant must learn. Each training table also gives its
# calibration pieces (drink_pixel_data.py). The temperature and bar are fitted on all the
# feature scorer's temperature tables (tools/learn_drinks.py's TEMPER), the measuring on its
# held-out training-family tables and this tool's own (1_330_000), never on the evaluation
# family. The data step renders those first, then the training tables by turns
# (render_order); ``--rendered-only`` trains on those rendered so far, and the model file lists
# the tables it learned from.
TRAIN = (("train", range(1_000_000, 1_000_008), base.TRAIN_PHOTOS, base.HARSH),
         ("dev", range(100_000, 100_008), base.TRAIN_PHOTOS, base.HARSH),
         ("train", range(1_320_000, 1_320_028), 3, 4))
TEMPER = base.TEMPER
HELD_OUT = (("train", base.HELD_OUT["train"]), ("train", range(1_330_000, 1_330_004)))
# More looks of the training family (``--more-looks``, make model's set network): 192 tables of 6
# photos a difficulty and 8 harsh ones each, trained on without their calibration pieces. A
# network that must hold on looks it never saw learns from more looks, not more photos of the
# same ones: on the first 48 too (84 training-family looks against 36) the set network named 3
# points more of the held-out pieces right, and its check scored higher on fresh evaluation
# tables; on 96 (132 looks) higher again, at every difficulty; on 144 (180 looks) and all 192
# (228 looks), each with the network naming what the check leaves unsure, higher again with fewer
# sure mistakes (docs/performance.md, "The set network on more looks", "The network names what
# the rules doubt"). The first 48 were tools/choose_sureness.py's tables until then; it has its own again.
# 48 more (1400000-047, 276 looks) scored lower on fresh evaluation tables, and so did three seeds'
# networks read as one (docs/performance.md, "An ensemble of set networks, not kept").
MORE_LOOKS = (("train", range(1_350_000, 1_350_048), base.TRAIN_PHOTOS, base.HARSH),
              ("train", range(1_370_000, 1_370_048), base.TRAIN_PHOTOS, base.HARSH),
              ("train", range(1_380_000, 1_380_048), base.TRAIN_PHOTOS, base.HARSH),
              ("train", range(1_390_000, 1_390_048), base.TRAIN_PHOTOS, base.HARSH))


def render_order() -> list[tuple[str, int, int, int]]:
    """The training tables by turns: two of the others, then four of this tool's own (the
    widest looks, and cheaper)."""
    queues = [[(fam, s, photos, harsh) for s in seeds] for fam, seeds, photos, harsh in TRAIN]
    out = []
    while any(queues):
        for k, q in enumerate(queues):
            take = 4 if k == len(queues) - 1 else 2
            out.extend(q[:take])
            del q[:take]
    return out


EPOCHS = 14
N_NAMES = 37                          # the 36 drinks and "no single drink"
SURE_RIGHT = base.SURE_RIGHT          # the share right the sure bar must give on the temperature tables


def train_tables(limit: int | None = None, rendered_only: bool = False, more_looks: bool = False) -> list[dict]:
    """The training tables (the first ``limit`` of each entry of TRAIN), with their
    calibration pieces; with ``more_looks`` the tables of MORE_LOOKS too (without them)."""
    def tables_of(plan):
        return [t for fam, seeds, photos, harsh in plan
                for t in data(((fam, seeds),), photos, harsh, limit=limit, rendered_only=rendered_only)]
    return extras.with_extras(tables_of(TRAIN), rendered_only) + (tables_of(MORE_LOOKS) if more_looks else [])


def data(plan, photos: int, harsh: int, jobs: int = 1, limit: int | None = None,
         rendered_only: bool = False, pieces: bool = True) -> list[dict]:
    """The tables of a plan of (family, seeds), with their crops; ``rendered_only``: only those
    already in the cache (a training run while the data step goes on); ``pieces``: each profile
    with its calibration pieces (a network that compares needs them; drink_pixel_data.attach_pieces)."""
    if rendered_only:
        plan = [(fam, [s for s in (seeds[:limit] if limit else seeds)
                       if base.cache_path(s, fam, photos, harsh, True).exists()]) for fam, seeds in plan]
        tabs = [t for fam, seeds in plan for t in base.tables(seeds, fam, photos, False, harsh, jobs, crops=True)]
    else:
        tabs = base.family_tables(plan, photos, False, harsh, jobs, limit, crops=True)
    return [extras.attach_pieces(t) for t in tabs] if pieces else tabs


# --- examples -----------------------------------------------------------------------------------

def examples(tabs: list[dict], features: bool, with_sizes: bool = False) -> dict:
    """Every piece of the tables: its raw crop (float16), its table's references, its side
    numbers (the set's calibrated sizes too, with ``with_sizes``; the feature scorer's view too,
    with ``features``) and its name's index (36: no single drink)."""
    from companion.drinks import COLOURS, SHAPES
    from companion.vision.drink_crops import references, set_sizes, side_inputs
    from companion.vision.pixel_scorer import N_DRINKS, feature_logp
    index = {f"{c.value}-{s.value}": i * len(SHAPES) + j for i, c in enumerate(COLOURS) for j, s in enumerate(SHAPES)}
    raw, refs, side, ys, table = [], [], [], [], []
    for t, tab in enumerate(tabs):
        ref = references(tab["profile"])
        for ph in tab["photos"]:
            pieces = ph["pieces"]
            if not pieces:
                continue
            assert len(ph["crops"]) == len(pieces)
            raw.append(ph["crops"])
            refs.append(np.repeat(ref[None], len(pieces), axis=0))
            sd = side_inputs(pieces, ph["sharpness"], tab["profile"])
            if with_sizes:
                sd = np.concatenate([sd, np.repeat(set_sizes(tab["profile"])[None], len(pieces), axis=0)], axis=1)
            if features:
                sd = np.concatenate([sd, feature_logp(pieces, ph["sharpness"], tab["profile"])], axis=1)
            side.append(sd)
            ys.extend(N_DRINKS if name is None else index[name] for name in ph["truth"])
            table.extend([t] * len(pieces))
    return {"raw": np.concatenate(raw), "refs": np.concatenate(refs), "side": np.concatenate(side),
            "y": np.array(ys, np.int64), "table": np.array(table, np.int64),
            "profiles": [tab["profile"] for tab in tabs]}


def probabilities(model, ex: dict) -> np.ndarray:
    """The model's probabilities of every piece of ``examples``; a network that compares, with
    each piece's own table's prototypes."""
    from companion.vision.drink_crops import channels
    out = np.zeros((len(ex["y"]), N_NAMES), np.float64)
    groups = [np.arange(len(ex["y"]))] if not model.net.compares else \
        [np.flatnonzero(ex["table"] == t) for t in range(len(ex["profiles"]))]
    for k, rows in enumerate(groups):
        protos = model.prototypes(ex["profiles"][k]) if model.net.compares else None
        for s in range(0, len(rows), 256):
            r = rows[s:s + 256]
            x = channels(ex["raw"][r].astype(np.float32), ex["refs"][r])
            out[r] = model.probabilities(x, ex["side"][r], protos)
    return out


def fit_temperature(model, ex: dict) -> float:
    """The temperature that minimises the held-out pieces' cross-entropy (a grid)."""
    saved = model.temperature
    model.temperature = 1.0
    p = probabilities(model, ex)
    model.temperature = saved
    logits = np.log(np.maximum(p, 1e-300))
    y = ex["y"]
    best = (np.inf, 1.0)
    for temp in np.exp(np.linspace(np.log(0.3), np.log(5.0), 81)):
        z = logits / temp
        z = z - z.max(axis=1, keepdims=True)
        loss = float(-(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(axis=1))).mean())
        best = min(best, (loss, float(temp)))
    return round(best[1], 4)


def choose_sure(model, ex: dict, right: float = SURE_RIGHT) -> tuple[float, dict]:
    """The lowest bar from 0.9 up at which the held-out pieces on drinks read at or above it
    were right at least ``right`` of the time (as tools/learn_drinks.py chooses its bar)."""
    from companion.vision.pixel_scorer import N_DRINKS
    p = probabilities(model, ex)[:, :N_DRINKS]
    y = ex["y"]
    on = y < N_DRINKS
    return base.sure_bar(p[on].max(axis=1), p[on].argmax(axis=1) == y[on], right)


# --- measuring (the pieces as the pipeline left them, named again from their cached crops) -------

def measured(tabs: list[dict], models: dict) -> dict:
    """tools/drink_measure.py's table of correct / wrong / unsure per difficulty, for the rules,
    the feature scorer and each pixel model, on the same pieces."""
    from companion.vision.pixel_scorer import rescore
    from companion.vision.repeats import doubt_repeats

    def readings_of(tab, photo, how, model=None):
        if how not in models:
            return base.readings_of(tab, photo, how, model)
        pieces = copy.deepcopy(photo["pieces"])
        rescore(pieces, SimpleNamespace(sharpness=photo["sharpness"]), tab["profile"], models[how],
                raw=photo["crops"])
        return doubt_repeats(pieces)

    res = {"rules": base.measure(tabs, "rules"), "learned": base.measure(tabs, "learned", None)}
    res.update({how: base.measure(tabs, how, read=readings_of) for how in models})
    return res


def build(train_tabs, temper_tabs, features: bool, epochs: int, with_sizes: bool = False,
          seed: int = SEED, conv: tuple[int, int, int] | None = None, hidden: int | None = None,
          norm: bool = False, augment: str = "plain") -> tuple[dict, dict]:
    """Train one variant; its weights and settings (temperature and bar from the temperature tables)."""
    from companion.vision.pixel_scorer import PixelModel, PixelNet
    ex = examples(train_tabs, features, with_sizes)
    print(f"{len(ex['y'])} pieces ({int((ex['y'] == 36).sum())} on no drink), features={features}, "
          f"set sizes={with_sizes}", flush=True)
    t0 = time.perf_counter()
    weights = train(ex, epochs, seed, log=lambda m: print(m, flush=True), residual=features, conv=conv, hidden=hidden,
                    norm=norm, augment=augment)
    took = time.perf_counter() - t0
    settings = {"kind": "tokyo-table-companion/drink-pixels", "features": features, "set_sizes": with_sizes,
                "temperature": 1.0}
    model = PixelModel(PixelNet(weights), settings)
    held = examples(temper_tabs, features, with_sizes)
    model.temperature = settings["temperature"] = fit_temperature(model, held)
    # the bar each family's temperature tables need, the higher kept: the development family's
    # easy pieces would otherwise buy a bar the training family's wider looks do not bear
    bars = {fam: choose_sure(model, examples([t for t in temper_tabs if t["family"] == fam], features, with_sizes))
            for fam in sorted({t["family"] for t in temper_tabs})}
    fam = max(bars, key=lambda f: bars[f][0])
    model.sure, at = bars[fam]
    at = {**at, "family": fam, "bars": {f: b for f, (b, _) in bars.items()}}
    settings.update(sure=model.sure, temperature_tables_at_sure=at, epochs=epochs, seed=seed,
                    pieces=int(len(ex["y"])), training_s=round(took), norm="batch" if norm else "none",
                    augment=augment,
                    widths=[int(len(weights[f"c{k}b"])) for k in (1, 2, 3)], hidden=int(len(weights["f1b"])),
                    trained={"tables": [[t["family"], t["seed"], t["seed"]] for t in train_tabs],
                             "temperature_tables": [[fam, seeds.start, seeds[-1]] for fam, seeds in TEMPER]})
    print(f"temperature {settings['temperature']}, sure from {model.sure}: {at}; trained in {took:.0f} s", flush=True)
    return weights, settings


def _grouped(pairs: list[tuple[str, int]]) -> list[tuple[str, list[int]]]:
    out: dict[str, list[int]] = {}
    for fam, seed in pairs:
        out.setdefault(fam, []).append(seed)
    return list(out.items())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", action="store_true", help="render and cache the tables only")
    ap.add_argument("--variant", choices=["features", "pixels", "both"], default="features",
                    help="side numbers: with the feature scorer's view, the pixels alone, or train both "
                         "and keep the one that measures better on the held-out training-family tables")
    ap.add_argument("--epochs", type=int, default=EPOCHS)
    ap.add_argument("--set-sizes", action="store_true",
                    help="give the network the set's calibrated sizes of the six shapes (drink_crops.set_sizes)")
    ap.add_argument("--jobs", type=int, default=1, help="processes rendering tables (make model: 2)")
    ap.add_argument("--train-tables", type=int, default=None, help="at most this many training tables per family")
    ap.add_argument("--rendered-only", action="store_true",
                    help="train on the training tables rendered so far (the data step may still be running)")
    ap.add_argument("--more-looks", action="store_true",
                    help="train on the looks of MORE_LOOKS too (rendered if missing)")
    ap.add_argument("--seed", type=int, default=SEED, help="the training run's seed")
    ap.add_argument("--widths", type=conv_widths(3), default=None,
                    help="the three convolutions' widths, e.g. 24,48,64 (default: pixel_scorer's CONV)")
    ap.add_argument("--hidden", type=hidden_width, default=None,
                    help="the hidden layer's width (default: pixel_scorer's HIDDEN)")
    ap.add_argument("--norm", choices=["none", "batch"], default="none",
                    help="batch-normalise each convolution while training (folded into it at the export)")
    ap.add_argument("--augment", choices=sorted(AUGMENT), default="plain",
                    help="how far the training batches are relit and blurred (AUGMENT)")
    ap.add_argument("--measure", action="store_true", help="only measure the committed model")
    ap.add_argument("--out", default=None, help="where to write the model (default: the committed file)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    import logging
    logging.basicConfig(level=logging.ERROR)
    t0 = time.perf_counter()
    if args.data:
        log = lambda m: print(m, flush=True)  # noqa: E731
        extras.render_all([(fam, s, base.TRAIN_PHOTOS, base.HARSH) for fam, seeds in TEMPER for s in seeds],
                          False, args.jobs, log)
        extras.render_all([(fam, s, base.PHOTOS, 0) for fam, seeds in HELD_OUT for s in seeds], False, args.jobs, log)
        extras.render_all(render_order(), True, args.jobs, log)
        # with their calibration pieces: the set network compares with them (tools/drink_protos.py)
        extras.render_all([(fam, s, photos, harsh) for fam, seeds, photos, harsh in MORE_LOOKS for s in seeds],
                          True, args.jobs, log)
        print(f"data: {time.perf_counter() - t0:.0f} s", flush=True)
        return 0
    import torch
    torch.set_num_threads(1)
    from companion.vision.pixel_scorer import NET_PATH, PixelModel, PixelNet, load, save
    out = Path(args.out) if args.out else NET_PATH
    held_tabs = data(HELD_OUT, base.PHOTOS, 0)
    if args.measure:
        models = {"pixels": load(out)}
    else:
        train_tabs = train_tables(args.train_tables, args.rendered_only, args.more_looks)
        temper_tabs = data(TEMPER, base.TRAIN_PHOTOS, base.HARSH)
        variants = ["features", "pixels"] if args.variant == "both" else [args.variant]
        built = {v: build(train_tabs, temper_tabs, v == "features", args.epochs, args.set_sizes, args.seed,
                          args.widths, args.hidden, args.norm == "batch", args.augment)
                 for v in variants}
        models = {f"pixels ({v})": PixelModel(PixelNet(w), st) for v, (w, st) in built.items()}
    res = measured(held_tabs, models)
    seeds = ", ".join(f"{s.start}..{s[-1]}" for _, s in HELD_OUT)
    base.report(f"held-out training-family tables {seeds}, {base.PHOTOS} photos per difficulty",
                res)
    if not args.measure:
        # the variant kept: more correct over all the held-out pieces, then fewer wrong
        def merit(v):
            r = res[f"pixels ({v})"]["all"]
            return (r["correct%"] - 10 * r["wrong%"], -r["wrong%"])
        keep = max(built, key=merit)
        weights, settings = built[keep]
        settings["held_out"] = {how: {k: round(r["all"][k], 2) for k in ("correct%", "wrong%", "unsure%")}
                                for how, r in res.items()}
        save(out, weights, settings)
        print(f"kept {keep}; wrote {out} ({out.stat().st_size} bytes)", flush=True)
    print(f"{time.perf_counter() - t0:.0f} s in all", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
