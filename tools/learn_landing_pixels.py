"""Train the landing camera's pixel classes (companion/vision/landing_pixels.py) on rendered
landing scenes whose every pixel's truth is known (``LandingRenderer.label_picture``).

    # 1. render varied looks (never eval), calibrate each from its mat photo as a table would,
    #    keep every drink and crate pixel of the top view and a share of the table (KEEP), each weighed back:
    .venv/bin/python tools/learn_landing_pixels.py render --family varied --seeds 0:200 --out /tmp/pix-a.npz
    # 2. train with PyTorch (never a run-time dependency), write models/landing_pixels.*:
    .train-venv/bin/python tools/learn_landing_pixels.py train /tmp/pix-a.npz --out-dir /tmp/pix-model
    # 3. compare the hand-written classes and a trained model on held-out looks (varied or dev):
    .venv/bin/python tools/learn_landing_pixels.py check --family varied --first 20000 --looks 40 --model /tmp/pix-model

``check`` reports, for every drink in the scenes, whether the reader's patches of its colour
(``landing_crops.patches``, the biggest ``MAX_CANDIDATES``) include one mostly on it ("found"),
the share of its pixels of its colour, and how many patches of an asked colour lie on no drink
of it. A drink the reader has no patch on is a drink it cannot see.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

# the share of each kind of pixel kept (drinks are a few pixels in a thousand): each kept pixel
# weighs the inverse of its share in training, so the network learns the view's own odds
KEEP = {"drink": 0.5, "crate": 1 / 8, "table": 1 / 200, "table_odd": 1 / 8}     # table_odd: the rules read it not table
SCENES = 4


def _look_views(family: str, seeds, scenes: int):
    """(seed, scene, frame, the top view's maps, the calibration, each top-view pixel's true class
    (``LABELS``' index; 255: out of view or the tower's base)) of each scene of the looks ``seeds``
    whose mat was found."""
    import cv2
    from learn_landings import random_crates
    from companion.sim.landing_layouts import compose, random_wants
    from companion.sim.landing_render import LandingLook, LandingRenderer
    from companion.vision.landing_calibrate import LandingCalibrationError, calibrate_landing
    from companion.vision.landing_crops import BEHIND_MM
    from companion.vision.landings import LandingReader

    cv2.setNumThreads(1)
    for seed in seeds:
        look = LandingLook.from_seed(seed, family)
        rng = np.random.default_rng([seed, 5151])
        renderer = LandingRenderer(look)
        try:
            cal = calibrate_landing(renderer.calibration_picture(rng))
        except LandingCalibrationError:
            continue
        reader = LandingReader(cal, learned=False)
        for _ in range(scenes):
            try:
                scene = compose(random_wants(rng, (40, 330)), rng, crates=random_crates(rng, look), scale=look.drink_size)
            except ValueError:
                continue
            loose = renderer.random_loose(scene, rng, int(rng.integers(0, 4)))
            frame = renderer.render(scene, rng, loose)
            size = (frame.shape[1], frame.shape[0])
            maps = reader._top_maps(size)
            mx, my, valid, _, gy = maps
            truth = cv2.remap(renderer.label_picture(scene, loose), mx, my, cv2.INTER_NEAREST,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=255)
            truth[~valid | (gy < BEHIND_MM)] = 255
            yield seed, scene, frame, maps, cal, truth


def render(args) -> None:
    from companion.vision.landing_colours import CLASSES, REFERENCES, balanced, cost_stack, costs_of, features, labels
    from companion.vision.landing_crops import TOP_PX_PER_MM
    from companion.vision.landing_pixels import inputs

    import cv2
    lo, hi = (int(v) for v in args.seeds.split(":"))
    if args.family not in ("varied", "dev"):
        raise SystemExit("only varied and dev looks are rendered for training (eval is only ever scored)")
    xs, ys, ws, looks, t0 = [], [], [], [], time.time()
    for n, (seed, _, frame, maps, cal, truth) in enumerate(_look_views(args.family, range(lo, hi), args.scenes)):
        rng = np.random.default_rng([seed, n, 77])
        top = cv2.remap(frame, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        lin = balanced(top, cal.white_bgr)
        feats = features(lin, TOP_PX_PER_MM)
        x = inputs(lin, TOP_PX_PER_MM, feats)
        r = rng.random(truth.shape)
        rules = labels(cost_stack(costs_of(feats, REFERENCES)))[0]
        table, crate = CLASSES.index("table"), CLASSES.index("yellow")
        share = np.where(truth < crate, KEEP["drink"], np.where(truth == crate, KEEP["crate"], np.where(
            rules != table, KEEP["table_odd"], KEEP["table"]))).astype(np.float32)
        keep = (truth != 255) & (r < share)
        xs.append(x[keep].astype(np.float16))
        ys.append(truth[keep])
        ws.append(1 / share[keep])
        looks.append(np.full(int(keep.sum()), seed, np.int32))
        if n % 40 == 39:
            print(f"{n + 1} scenes, {sum(len(y) for y in ys)} pixels, {time.time() - t0:.0f} s", flush=True)
    y = np.concatenate(ys)
    np.savez_compressed(args.out, x=np.concatenate(xs), y=y, w=np.concatenate(ws), looks=np.concatenate(looks))
    print(f"{args.out}: {len(y)} pixels, classes {np.bincount(y, minlength=8).tolist()}, {time.time() - t0:.0f} s")


def train(args) -> None:
    import torch
    from companion.vision.landing_colours import CLASSES
    from companion.vision.landing_pixels import INPUTS
    from companion.vision.model_files import save_net

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    parts = [np.load(p) for p in args.data]
    x = np.concatenate([p["x"] for p in parts]).astype(np.float32)
    y = np.concatenate([p["y"] for p in parts]).astype(np.int64)
    w = np.concatenate([p["w"] for p in parts]).astype(np.float32)
    mean, std = x.mean(0), np.maximum(x.std(0), 1e-3)
    h1, h2 = args.hidden
    net = torch.nn.Sequential(torch.nn.Linear(len(INPUTS), h1), torch.nn.ReLU(), torch.nn.Linear(h1, h2),
                              torch.nn.ReLU(), torch.nn.Linear(h2, len(CLASSES)))
    xt, yt, wt = torch.from_numpy((x - mean) / std), torch.from_numpy(y), torch.from_numpy(w / w.mean())
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-5)
    steps = args.epochs * (len(y) // args.batch + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=5e-3, total_steps=steps)
    t0 = time.time()
    print(f"training on {len(y)} pixels {np.bincount(y, minlength=len(CLASSES)).tolist()}", flush=True)
    for epoch in range(args.epochs):
        order = torch.from_numpy(rng.permutation(len(y)))
        total = 0.0
        for s in range(0, len(y), args.batch):
            b = order[s:s + args.batch]
            loss = (torch.nn.functional.cross_entropy(net(xt[b]), yt[b], reduction="none") * wt[b]).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            if sched.last_epoch < steps - 1:
                sched.step()
            total += float(loss.detach()) * len(b)
        print(f"epoch {epoch + 1}: loss {total / len(y):.4f}, {time.time() - t0:.0f} s", flush=True)
    sd = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    weights = {"mean": mean, "std": std, "w1": sd["0.weight"], "b1": sd["0.bias"], "w2": sd["2.weight"],
               "b2": sd["2.bias"], "w3": sd["4.weight"], "b3": sd["4.bias"]}
    out = Path(args.out_dir)
    save_net({"table_bias": args.table_bias, "hidden": list(args.hidden),
              "epochs": args.epochs, "seed": args.seed, "trained_on": int(len(y)),
              "data": [Path(p).name for p in args.data], "inputs": list(INPUTS)},
             weights, out / "landing_pixels.json", out / "landing_pixels.npz")
    print(f"wrote {out}/landing_pixels.json and .npz")


def check(args) -> None:
    import cv2
    from companion.vision.landing_colours import CLASSES
    from companion.vision.landing_crops import frame_projector, patches, top_view
    from companion.vision.landing_pixels import PixelClassNet, pixel_net

    models = {"rules": None}
    for m in args.model:
        folder, _, bias = m.partition("@")
        net = pixel_net(str(Path(folder) / "landing_pixels.npz"), str(Path(folder) / "landing_pixels.json"))
        if bias:
            net = PixelClassNet(net.w, float(bias))
        models[m] = net
    tally = {k: {"drinks": 0, "found": 0, "share": 0.0, "stray": 0, "ms": []} for k in models}
    first = args.first
    seeds = range(first, first + args.looks)
    for seed, scene, frame, maps, cal, truth in _look_views(args.family, seeds, args.scenes):
        size = (frame.shape[1], frame.shape[0])
        colours = {d.drink.partition("-")[0] for d in scene.drinks}
        for name, net in models.items():
            t = time.process_time()
            view = top_view(frame, maps, cal.white_bgr, cal.camera_position, frame_projector(cal, size), pixels=net)
            tally[name]["ms"].append((time.process_time() - t) * 1000)
            for colour in CLASSES[:6]:
                k = CLASSES.index(colour)
                found, _ = patches(view, colour)
                own = truth == k
                on = [int((own[y:y + s.shape[0], x:x + s.shape[1]] & s).sum()) * 2 >= int(s.sum())
                      for _, _, (y, x, s) in found]
                tally[name]["stray"] += on.count(False)
                if colour in colours and own.sum() >= 10:
                    tally[name]["drinks"] += 1
                    tally[name]["found"] += any(on)
                    tally[name]["share"] += float((view.label[own] == k).mean())
    rows = {}
    for name, t in tally.items():
        n = max(t["drinks"], 1)
        rows[name] = {"drinks": t["drinks"], "found": t["found"], "found_pct": round(100 * t["found"] / n, 2),
                      "own_colour_share": round(t["share"] / n, 3), "stray_patches": t["stray"],
                      "top_view_ms": round(float(np.median(t["ms"])), 1)}
    print(json.dumps(rows, indent=1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="step", required=True)
    r = sub.add_parser("render")
    r.add_argument("--family", default="varied")
    r.add_argument("--seeds", required=True, help="lo:hi")
    r.add_argument("--scenes", type=int, default=SCENES)
    r.add_argument("--out", required=True)
    t = sub.add_parser("train")
    t.add_argument("data", nargs="+")
    t.add_argument("--out-dir", default=str(ROOT / "companion/vision/models"))
    t.add_argument("--epochs", type=int, default=6)
    t.add_argument("--batch", type=int, default=2048)
    t.add_argument("--hidden", type=lambda s: tuple(int(v) for v in s.split(",")), default=(64, 32))
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--table-bias", type=float, default=0.3,
                   help="the table's odds times this at run time (below 1: more drink pixels found; chosen by check)")
    t.add_argument("--threads", type=int, default=1)
    c = sub.add_parser("check")
    c.add_argument("--family", default="varied")
    c.add_argument("--first", type=int, default=20000)
    c.add_argument("--looks", type=int, default=20)
    c.add_argument("--scenes", type=int, default=SCENES)
    c.add_argument("--model", action="append", default=[], help="a model's folder, or folder@table_bias")
    args = ap.parse_args()
    {"render": render, "train": train, "check": check}[args.step](args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
