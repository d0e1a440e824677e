"""Train the crate reader's field network (companion/vision/crate_net.py) on rendered crates.

Two steps, two interpreters:

    # 1. render looks and frames, read them with the reader's own grid and patches, keep each
    #    field's patch with its true name (the project's venv; one process at a time):
    .venv/bin/python tools/learn_crates.py render --family dev --seeds 0:400 --frames 4 --budget 720 --out /tmp/crates-dev.npz
    .venv/bin/python tools/learn_crates.py render --family varied --seeds 0:3000 --frames 4 --budget 720 --out /tmp/crates-varied.npz
    # 2. train with PyTorch (a training venv of its own, never a run-time dependency), set the
    #    bars of a sure reading on held-out dev looks, write models/crate_net.npz and crate_model.json
    #    (--init: go on from an earlier model):
    .train-venv/bin/python tools/learn_crates.py train /tmp/crates-varied.npz /tmp/crates-dev.npz --tune-on dev varied --epochs 10

The committed model (36th session; patches whose rows are heights over the rim, the camera from
the frames' grids, vision/crate_focal.py): ``make crate-model``: dev seeds 0-127 and varied 0-433,
four frames each (107k patches trained on); 12 epochs in one run, no label smoothing
(``--label-smoothing``, 0 by default: the models before took 0.02, which held every probability
under the bars); the bars set on the last quarter of both families' looks (35.0k fields held
out), one sure mistake a kind per 3,000 of them. About 40 minutes of rendering and 15 of training
on one core. ``bars`` sets the committed model's bars again without training.

Each look is calibrated from its own calibration photo (``CALIBRATION_LAYOUT``), exactly as a
table would be; a look whose calibration fails is counted and, unless ``--no-truth-fallback``,
calibrated from the renderer's truth (:func:`truth_calibration`: the rim plane, the focal
length, the photo's own plastic and white can): the network still learns what such a look's
crates look like (half the varied looks were lost to it before). A field's name comes
from the renderer's truth: the cell the reader cut maps (through the truth's rim homography)
into a field of the layout within 0.3 pitch of its middle (its drink, or ``empty``), onto no
crate's field (``none``), or it is too far between fields to say (not trained on, counted as
misaligned). Evaluation seeds (>= 910000, benchmarks/crates.py) are never rendered here.

The bars are set on the held-out fields as the reader judges them: within each frame, each
drink once (``crates.ONE_OF_EACH``, ``vision/crate_once.py``); so a render keeps each patch's
frame (``frames``: seed * 100 + the frame's number), and renders without are refused.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
from crate_seeds import training_seeds  # noqa: E402
from crate_truth_patches import truth_calibration, truth_patches  # noqa: E402
from net_widths import conv_widths, hidden_width  # noqa: E402


def label_cells(found, truth) -> np.ndarray:
    """Class index per located cell ("off": cut between two fields; -1: unknown, not trained on)."""
    from companion.crate_fields import EMPTY
    from companion.vision.crate_grid import to_frame
    from companion.vision.crate_net import CLASSES

    pitch = float(truth["pitch_mm"])
    centres = np.array([(i + 0.5, j + 0.5) for i, j in found.cells])
    px = to_frame(found.grid.H, centres)
    inv = np.linalg.inv(np.array(truth["rim_to_frame"], np.float64))
    g = to_frame(inv, px) / pitch
    names = {tuple(k): v for k, v in truth["fields"].items()}
    tc = {tuple(k): np.array(v, np.float64) for k, v in truth["centres"].items()}
    keys = list(tc)
    tpts = np.array([tc[k] for k in keys]) if keys else np.zeros((0, 2))
    # the frame's pitch in px near each cell: distance between neighbouring true centres
    out = np.full(len(found.cells), -1, np.int64)
    for n, (p, gg) in enumerate(zip(px, g)):
        if len(tpts):
            d = np.linalg.norm(tpts - p, axis=1)
            k = int(np.argmin(d))
            step = np.linalg.norm(to_frame(found.grid.H, [centres[n] + (1, 0)]) - p)
            if d[k] <= 0.3 * step:
                out[n] = CLASSES.index(names[keys[k]] if names[keys[k]] != EMPTY else EMPTY)
                continue
            if d[k] <= 0.7 * step:
                out[n] = CLASSES.index("off")
                continue
        f = np.floor(gg).astype(int)
        off = gg - f - 0.5
        if tuple(f) not in names and np.abs(off).max() <= 0.3:
            out[n] = CLASSES.index("none")
    return out


def render(args) -> None:
    from companion.sim.crate_layouts import random_layout
    from companion.sim.crate_looks import CrateLook
    from companion.sim.crate_render import CrateRenderer
    from companion.vision.crate_calibrate import CALIBRATION_LAYOUT, CrateCalibrationError, calibrate_crates
    from companion.vision.crate_net import CLASSES
    from companion.vision.crates import CrateReader

    if args.guess_plastic:        # the calibration's later guesses of the plastic's colour on, as the reader's
        from companion.vision import calibration_crate
        calibration_crate.GUESS_PLASTIC = True
    if not 1 <= args.frames <= 99:
        raise SystemExit("--frames: 1 to 99 a look (a frame's id is seed * 100 + its number)")
    looks = training_seeds(args.family, args.seeds)
    P, F, Y, S, N = [], [], [], [], []
    stats = {"looks": 0, "cal_failed": 0, "cal_from_truth": 0, "frames": 0, "no_grid": 0, "cells": 0, "between": 0}
    t0 = time.time()
    for seed in looks:
        if args.budget and time.time() - t0 > args.budget:
            break
        look = CrateLook.from_seed(seed, args.family)
        r = CrateRenderer(look)
        rng = np.random.default_rng([seed, 31])
        stats["looks"] += 1
        photo, cal_truth = r.render(CALIBRATION_LAYOUT, rng)
        try:
            cal = calibrate_crates(photo)
        except CrateCalibrationError:
            stats["cal_failed"] += 1
            cal = truth_calibration(photo, cal_truth, r.f) if args.truth_fallback else None
            if cal is None:
                continue
            stats["cal_from_truth"] += 1
        reader = CrateReader(cal, model=None)
        for k in range(args.frames):
            # a game starts with empty crates: a third of the frames from nearly empty to half full
            fill = float(rng.uniform(0.0, 0.5)) if rng.random() < 0.33 else None
            frame, truth = r.render(random_layout(rng, fill=fill), rng)
            stats["frames"] += 1
            if args.truth_grid:             # cut on the true grid, a little off (crate_truth_patches.py)
                cut = truth_patches(frame, truth, cal, rng)
                if cut is None:
                    continue
                p, f, y = cut
                stats["cells"] += len(y)
                P.append(p.astype(np.float16)); F.append(f); Y.append(y)
                S.append(np.full(len(y), seed)); N.append(np.full(len(y), seed * 100 + k))
                continue
            found = reader.locate(frame)
            if found is None or len(found.patches) != len(found.cells):
                stats["no_grid"] += 1
                continue
            y = label_cells(found, truth)
            stats["cells"] += len(y)
            stats["between"] += int((y == len(CLASSES) - 1).sum())
            keep = y >= 0
            P.append(found.patches[keep].astype(np.float16))
            F.append(found.feats[keep])
            Y.append(y[keep])
            S.append(np.full(int(keep.sum()), seed))
            N.append(np.full(int(keep.sum()), seed * 100 + k))        # the frame: one drink of each in it
        if stats["looks"] % 10 == 0:
            print(f"{args.family} seed {seed}: {stats} {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    np.savez_compressed(args.out, patches=np.concatenate(P), feats=np.concatenate(F), labels=np.concatenate(Y),
                        seeds=np.concatenate(S), frames=np.concatenate(N), family=args.family,
                        cut="truth" if args.truth_grid else "found")
    print(f"{args.family}: {stats}, {sum(len(y) for y in Y)} patches, {time.time() - t0:.0f} s -> {args.out}",
          file=sys.stderr)


def train(args) -> None:
    if not 0.0 <= args.label_smoothing < 1.0:       # (before PyTorch: said in the project's venv too)
        raise SystemExit(f"--label-smoothing {args.label_smoothing}: from 0 (none) up to, not including, 1")
    import torch
    from torch import nn

    from companion.vision.crate_net import CHANNELS, CLASSES, HIDDEN, flat_size, save
    from companion.vision.crate_patches import FEATURES

    torch.set_num_threads(1)
    torch.manual_seed(0)          # the first weights and the dropout: the same model from the same data
    data = [np.load(p) for p in args.data]
    fams = [str(d["family"]) for d in data]
    tune = [i for i, (f, d) in enumerate(zip(fams, data)) if f in args.tune_on and not cut_on_truth(d)]
    # the tuning families' last quarter of looks is held out: the bars are set on it
    Ptr, Ftr, Ytr, Pho, Fho, Yho, Nho = [], [], [], [], [], [], []
    for i, d in enumerate(data):
        p, f, y, s = d["patches"], d["feats"], d["labels"], d["seeds"]
        if i in tune:
            ho = held_out_rows(s)
            Pho.append(p[ho]); Fho.append(f[ho]); Yho.append(y[ho]); Nho.append(frame_ids(d, i)[ho])
            p, f, y = p[~ho], f[~ho], y[~ho]
        Ptr.append(p); Ftr.append(f); Ytr.append(y)
    P = torch.tensor(np.concatenate(Ptr).astype(np.float32)).permute(0, 3, 1, 2).contiguous()
    Fe = np.concatenate(Ftr).astype(np.float32)
    Y = torch.tensor(np.concatenate(Ytr))
    mean, std = Fe.mean(0), Fe.std(0) + 1e-3
    Fz = torch.tensor((Fe - mean) / std)
    print(f"train {len(Y)} patches; classes {np.bincount(Y.numpy(), minlength=len(CLASSES)).tolist()}", file=sys.stderr)

    channels = args.channels or CHANNELS
    hidden = args.hidden or HIDDEN
    c1, c2, c3 = channels

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1, self.c2, self.c3 = nn.Conv2d(3, c1, 3), nn.Conv2d(c1, c2, 3), nn.Conv2d(c2, c3, 3)
            self.f1, self.f2 = nn.Linear(flat_size(channels) + len(FEATURES), hidden), nn.Linear(hidden, len(CLASSES))
            self.drop = nn.Dropout(0.2)

        def forward(self, x, f):
            x = nn.functional.max_pool2d(torch.relu(self.c1(x)), 2)
            x = nn.functional.max_pool2d(torch.relu(self.c2(x)), 2)
            x = torch.relu(self.c3(x)).flatten(1)
            h = torch.relu(self.f1(torch.cat([x, f], 1)))
            return self.f2(self.drop(h))

    net = Net()
    if args.init:                 # go on from a model trained before (its layers, not its numbers' scaling)
        with np.load(args.init) as old:
            names = {"c1": "c1", "c2": "c2", "c3": "c3", "f1": "f1", "f2": "f2"}
            for key, layer in names.items():
                getattr(net, layer).weight.data = torch.tensor(old[key + "w"])
                getattr(net, layer).bias.data = torch.tensor(old[key + "b"])
            mean, std = old["mean"], old["std"]
            Fz = torch.tensor((Fe - mean) / std)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    n = len(Y)
    steps = args.epochs * (n // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=max(1, steps))
    gen = torch.Generator().manual_seed(0)
    t0 = time.time()
    step = 0
    for epoch in range(args.epochs):
        net.train()
        perm = torch.randperm(n, generator=gen)
        total = 0.0
        for b in range(n // args.batch):
            idx = perm[b * args.batch:(b + 1) * args.batch]
            x, f, y = P[idx], Fz[idx], Y[idx]
            x = augment(x, gen, args.looks)
            loss = nn.functional.cross_entropy(net(x, f), y, label_smoothing=args.label_smoothing)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            total += float(loss.detach())
        print(f"epoch {epoch}: loss {total / max(1, n // args.batch):.4f} {time.time() - t0:.0f} s", file=sys.stderr,
              flush=True)
        if args.budget and time.time() - t0 > args.budget:
            break
    net.eval()
    w = {"c1w": net.c1.weight, "c1b": net.c1.bias, "c2w": net.c2.weight, "c2b": net.c2.bias,
         "c3w": net.c3.weight, "c3b": net.c3.bias, "f1w": net.f1.weight, "f1b": net.f1.bias,
         "f2w": net.f2.weight, "f2b": net.f2.bias}
    weights = {k: v.detach().numpy() for k, v in w.items()}
    weights.update(mean=mean, std=std)
    settings = {"classes": list(CLASSES), "features": list(FEATURES), "temperature": 1.0}
    if Yho:
        settings.update(bars(net, Pho, Fho, Yho, Nho, mean, std, CLASSES, args.per))
        settings["bars"] = {"fields_per_sure_mistake": args.per, "held_out": int(sum(len(y) for y in Yho))}
    settings["trained"] = {"patches": int(n), "epochs": args.epochs, "data": [Path(p).name for p in args.data],
                           "label_smoothing": args.label_smoothing, "channels": list(channels), "hidden": hidden}
    save(settings, weights)
    print(f"wrote the crate model: {settings}", file=sys.stderr)


def augment(x, gen, looks: bool = False):
    """Mirror across the lean (a mirrored crate is as real), a shift of a pixel or two (the
    grid is found to a tenth of a pitch), and the white reference a little off. With ``looks``
    also kinds of look the renders vary too little in: softness (JPEG, focus, a wide lens's
    corners: a blur of up to about a pixel mixed in), contrast (another lamp, glossy plastic:
    each patch's log colours scaled by 0.75-1.25) and sensor noise."""
    import torch
    n = len(x)
    flip = torch.rand(n, generator=gen) < 0.5
    x = torch.where(flip[:, None, None, None], x.flip(3), x)
    dx, dy = (int(v) for v in torch.randint(-1, 2, (2,), generator=gen))
    x = torch.roll(x, shifts=(dy, dx), dims=(2, 3))
    if looks:
        soft = torch.nn.functional.avg_pool2d(torch.nn.functional.pad(x, (1, 1, 1, 1), mode="replicate"), 3, 1)
        mix = torch.rand(n, 1, 1, 1, generator=gen) * (torch.rand(n, 1, 1, 1, generator=gen) < 0.5)
        x = x + mix * (soft - x)
        x = x * (0.75 + 0.5 * torch.rand(n, 1, 1, 1, generator=gen))
        x = x + torch.randn(x.shape, generator=gen) * 0.04 * torch.rand(n, 1, 1, 1, generator=gen)
    x = x + (torch.randn(n, 3, 1, 1, generator=gen) * 0.05 + torch.randn(n, 1, 1, 1, generator=gen) * 0.08)
    return x.clamp(-3.0, 1.0)


def frame_ids(d, i: int) -> np.ndarray:
    """Each patch's frame in one render's data, told apart from the other renders' (``i``)."""
    if "frames" not in d:
        raise SystemExit("these renders have no frame ids (the reader weighs each frame's fields "
                         "together, and the bars must too): render them again")
    return d["frames"].astype(np.int64) + (np.int64(i) << 40)      # a frame id is below 2^40


def bars(net, Pho, Fho, Yho, Nho, mean, std, classes, per: int = 3000) -> dict:
    """The bars of a sure reading, from the trained PyTorch network's held-out probabilities
    as the reader sees them (:func:`as_read`, :func:`bars_from`)."""
    import torch
    P = torch.tensor(np.concatenate(Pho).astype(np.float32)).permute(0, 3, 1, 2)
    F = torch.tensor((np.concatenate(Fho) - mean) / std, dtype=torch.float32)
    Y = np.concatenate(Yho)
    with torch.no_grad():
        prob = torch.softmax(torch.cat([net(P[s:s + 512], F[s:s + 512]) for s in range(0, len(Y), 512)]), 1).numpy()
    return bars_from(as_read(prob, np.concatenate(Nho)), Y, classes, per)


def as_read(prob: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """Held-out probabilities as the reader weighs them: within each frame, each drink once
    (crates.ONE_OF_EACH, crate_once.py)."""
    from companion.vision import crates
    from companion.vision.crate_net import DRINK_COLUMNS, GRID_COLUMNS
    from companion.vision.crate_once import by_frame
    return by_frame(prob, frames, DRINK_COLUMNS, GRID_COLUMNS) if crates.ONE_OF_EACH else prob


def bars_from(prob: np.ndarray, Y: np.ndarray, classes, per: int = 3000) -> dict:
    """The bars of a sure reading (a drink, empty, none) from held-out probabilities: the least
    under which at most one held-out field in ``per`` (at least one) of each kind is read wrong
    and sure, with a margin. A patch cut between two fields ("off") read as no slot claims
    nothing (it is dropped); read as anything else it is a sure mistake like any other.
    (One sure mistake a kind, whatever the held-out size, set the bars by the single oddest
    patch: the 2nd of 21.8k held-out fields, an "off" patch at 0.998 "empty", left 98 % of the
    empty fields unsure. One in 3,000 a kind keeps the three kinds together at most at the
    issue's 0.1 % on the held-out looks; measured against one in 5,000 on the benchmark's dev
    and varied frames: docs/performance.md.)"""
    off = len(classes) - 1
    prob = prob[:, :off]                      # as the reader does: "off" is never a name
    pred, top = prob.argmax(1), prob.max(1)
    wrong = (pred != Y) & ~((Y == off) & (pred == 0))
    allowed = max(1, len(Y) // per)
    out = {}
    for key, sel in (("sure_none", pred == 0), ("sure_empty", pred == 1), ("sure", pred >= 2)):
        scores = np.sort(top[sel & wrong])[::-1]
        worst = float(scores[allowed]) if len(scores) > allowed else 0.0
        # "no slot" drops a field from the reading (a claim about it): its bar is kept high
        floor = 0.995 if key == "sure_none" else 0.9
        bar = float(min(0.9999, max(floor, worst + (1 - worst) * 0.3)))
        out[key] = round(bar, 6)
        print(f"{key}: {int((sel & wrong).sum())} wrong of {int(sel.sum())}; bar {bar:.5f}; unsure there "
              f"{(top[sel] < bar).mean() * 100 if sel.any() else 0.0:.2f} %", file=sys.stderr)
    sure = top >= np.where(pred == 0, out["sure_none"], np.where(pred == 1, out["sure_empty"], out["sure"]))
    print(f"held out: {len(Y)} fields, {wrong.mean() * 100:.2f} % wrong; sure {sure.mean() * 100:.1f} %, sure and "
          f"wrong {(sure & wrong).mean() * 100:.3f} % ({int((sure & wrong).sum())}); {allowed} allowed a kind",
          file=sys.stderr)
    return out


def held_out_rows(seeds: np.ndarray) -> np.ndarray:
    """The rows of a tuning family's last quarter of looks (by seed): held out of training, the
    bars are set on them."""
    return seeds > np.quantile(np.unique(seeds), 0.75)


def cut_on_truth(d) -> bool:
    """Whether a render's patches were cut on the true grid (``render --truth-grid``): trained on,
    never held out, for they lack the reader's own grid's mistakes and the bars would be set too low."""
    return "cut" in d and str(d["cut"]) == "truth"


def held_out(paths, tune_on) -> tuple[list, list, list, list]:
    """The tuning families' last quarter of looks (by seed) cut on the reader's own grid: patches,
    numbers, labels, frames."""
    P, F, Y, N = [], [], [], []
    for i, path in enumerate(paths):
        d = np.load(path)
        if str(d["family"]) not in tune_on or cut_on_truth(d):
            continue
        ho = held_out_rows(d["seeds"])
        P.append(d["patches"][ho]); F.append(d["feats"][ho]); Y.append(d["labels"][ho])
        N.append(frame_ids(d, i)[ho])
    return P, F, Y, N


def rebar(args) -> None:
    """The committed model's bars set again on the held-out looks (numpy, no training)."""
    import json

    from companion.vision.crate_net import CLASSES, MODEL_PATH, field_model
    model = field_model()
    if model is None:
        raise SystemExit("no crate model to set the bars of: run the train step first")
    if args.mirror is not None:
        model.mirror = args.mirror
    P, F, Y, N = held_out(args.data, args.tune_on)
    prob = np.concatenate([model.probabilities(p.astype(np.float32), f) for p, f in zip(P, F)])
    out = bars_from(as_read(prob, np.concatenate(N)), np.concatenate(Y), CLASSES, args.per)
    settings = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    settings.update(out, mirror=model.mirror)
    settings["bars"] = {"fields_per_sure_mistake": args.per, "held_out": int(len(prob))}
    MODEL_PATH.write_text(json.dumps(settings, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"bars {out} -> {MODEL_PATH}", file=sys.stderr)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("render")
    r.add_argument("--family", default="varied", choices=["dev", "varied"])
    r.add_argument("--seeds", default="0:100")
    r.add_argument("--frames", type=int, default=6)
    r.add_argument("--budget", type=float, default=0, help="stop after this many seconds")
    r.add_argument("--no-truth-fallback", dest="truth_fallback", action="store_false",
                   help="skip a look whose calibration photo is refused (default: calibrate it from the truth)")
    r.add_argument("--guess-plastic", action="store_true",
                   help="calibrate each look with the photo's commonest warm colours tried as the plastic's "
                        "(calibration_crate.GUESS_PLASTIC; default: the module's own)")
    r.add_argument("--truth-grid", action="store_true",
                   help="cut every frame's patches on its true grid and camera, moved a little as the reader's "
                        "are off (crate_truth_patches.py), not on the grid the reader finds")
    r.add_argument("--out", type=Path, required=True)
    r.set_defaults(func=render)
    t = sub.add_parser("train")
    t.add_argument("data", nargs="+")
    t.add_argument("--tune-on", nargs="+", default=["dev"], help="the families whose last quarter of looks sets the bars")
    t.add_argument("--epochs", type=int, default=12)
    t.add_argument("--batch", type=int, default=128)
    t.add_argument("--budget", type=float, default=0)
    t.add_argument("--init", type=Path, default=None, help="start from these weights (crate_net.npz)")
    t.add_argument("--per", type=int, default=3000, help="held-out fields per sure mistake allowed a kind (at least one)")
    # 0 since the 36th session: smoothed targets (0.02) held every probability under ~0.98, right
    # at the bars, so a sure reading and a confident mistake looked alike (docs/performance.md,
    # "Without label smoothing")
    t.add_argument("--label-smoothing", type=float, default=0.0,
                   help="the targets' smoothing (0: none; the models before the 36th session took 0.02)")
    t.add_argument("--channels", type=conv_widths(3), default=None,
                   help="the three convolutions' widths, e.g. 24,48,64 (default: crate_net.CHANNELS)")
    t.add_argument("--hidden", type=hidden_width, default=None, help="the hidden layer's width (default: crate_net.HIDDEN)")
    t.add_argument("--looks", action="store_true",
                   help="augment with softness, contrast and noise too (kinds of look the renders vary little in)")
    t.set_defaults(func=train)
    b = sub.add_parser("bars", help="set the committed model's bars again on the held-out looks (no training)")
    b.add_argument("data", nargs="+")
    b.add_argument("--tune-on", nargs="+", default=["dev"])
    b.add_argument("--per", type=int, default=3000)
    b.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=None,
                   help="read each patch mirrored too, the probabilities averaged (default: as the model reads now)")
    b.set_defaults(func=rebar)
    args = ap.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
