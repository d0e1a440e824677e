"""Train the network that sets the crates' grid right field by field (companion/vision/crate_align.py).

Two steps, two interpreters:

    # 1. render training looks (never the evaluation family) and cut, round every field of each
    #    frame, the aligner's patch on the TRUE grid moved by up to a few tenths of a pitch, with
    #    where the field's true middle lies in it (the project's venv; a process a seed range):
    .venv/bin/python tools/learn_crate_align.py render --family varied --seeds 2100:2500 --out /tmp/al-varied.npz
    .venv/bin/python tools/learn_crate_align.py render --family dev --seeds 200:320 --out /tmp/al-dev.npz
    # 2. train with PyTorch (the training venv, never a run-time dependency); writes
    #    models/crate_align.npz and crate_align.json (or --out-dir):
    .train-venv/bin/python tools/learn_crate_align.py train /tmp/al-varied.npz /tmp/al-dev.npz --epochs 12

The grid is moved as the lattice search's finds are off and a little further (a shift of
``SHIFT`` pitches sd, a turn, a scale, a tilt of the plane: docs/performance.md measures the
lattice's grid at a median 0.10 pitch off, a seventh of the fields beyond a quarter), and the
camera's nadir and height as the reader's estimates are (``crate_truth_patches.camera_estimate``). The target is exact per field, the
lens's bend included: the field's true middle (the renderer's) in the moved grid's units,
as (across, along the lean) pitches from the patch's middle.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from crate_seeds import training_seeds  # noqa: E402  (tools/, on the path above)

SHIFT = 0.15            # pitches (sd), clipped at MAX_SHIFT
MAX_SHIFT = 0.4
TURN = 2.5              # degrees (sd)
SCALE = 0.04            # relative (sd)
TILT = 0.004            # the plane's perspective terms, per pitch (sd)


def moved(rng: np.random.Generator, mid: np.ndarray) -> np.ndarray:
    """A small projective map of grid units about ``mid``: how far off a found grid may be."""
    a = math.radians(rng.normal(0, TURN))
    s = math.exp(rng.normal(0, SCALE))
    shift = np.clip(rng.normal(0, SHIFT, 2), -MAX_SHIFT, MAX_SHIFT)
    M = np.array([[s * math.cos(a), -s * math.sin(a), 0], [s * math.sin(a), s * math.cos(a), 0],
                  [rng.normal(0, TILT), rng.normal(0, TILT), 1.0]])
    to_mid = np.array([[1, 0, mid[0]], [0, 1, mid[1]], [0, 0, 1.0]])
    from_mid = np.array([[1, 0, -mid[0]], [0, 1, -mid[1]], [0, 0, 1.0]])
    return np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1.0]]) @ to_mid @ M @ from_mid


def frame_samples(frame: np.ndarray, truth: dict, rng: np.random.Generator):
    """(patches, numbers, targets) of one rendered frame: every field, its grid moved (see above)."""
    from crate_truth_patches import camera_estimate, true_grid

    from companion.vision.crate_align import align_patches, axes
    from companion.vision.crate_grid import to_frame

    cells = sorted(tuple(k) for k in truth["fields"])
    if len(cells) < 6:
        return None
    mid = np.array(cells, np.float64).mean(axis=0) + 0.5
    H = true_grid(truth) @ moved(rng, mid)
    H = H / H[2, 2]
    nadir, height = camera_estimate(truth, rng)
    P, F = align_patches(frame, H, cells, nadir, height)
    true_px = np.array([truth["centres"][c] for c in cells], np.float64)
    true_units = to_frame(np.linalg.inv(H), true_px)
    centres = np.array([(i + 0.5, j + 0.5) for i, j in cells], np.float64)
    along, across = axes(centres, nadir)
    d = true_units - centres
    T = np.column_stack([(d * across).sum(axis=1), (d * along).sum(axis=1)])
    keep = np.all(np.abs(T) < 0.9, axis=1)
    return P[keep], F[keep], T[keep].astype(np.float32)


def render(args) -> None:
    import cv2

    from companion.sim.crate_layouts import random_layout
    from companion.sim.crate_looks import CrateLook
    from companion.sim.crate_render import CrateRenderer

    cv2.setNumThreads(1)
    looks = training_seeds(args.family, args.seeds)
    Ps, Fs, Ts, Ls = [], [], [], []
    t0 = time.time()
    for seed in looks:
        r = CrateRenderer(CrateLook.from_seed(seed, args.family))
        rng = np.random.default_rng([seed, 7040])
        for _ in range(args.frames):
            frame, truth = r.render(random_layout(rng), rng)
            got = frame_samples(frame, truth, rng)
            if got is None:
                continue
            Ps.append((got[0] * 40).clip(-127, 127).astype(np.int8))     # 1/40 steps: 8 bits a colour
            Fs.append(got[1])
            Ts.append(got[2])
            Ls.append(np.full(len(got[0]), seed, np.int32))
        if (seed - looks.start) % 20 == 0:
            print(f"{args.family} {seed}: {sum(len(t) for t in Ts)} patches, {time.time() - t0:.0f} s", flush=True)
    np.savez_compressed(args.out, P=np.concatenate(Ps), F=np.concatenate(Fs), T=np.concatenate(Ts),
                        look=np.concatenate(Ls), family=args.family)
    print(f"wrote {args.out}: {sum(len(t) for t in Ts)} patches")


def train(args) -> None:
    import torch
    from torch import nn

    from companion.vision.crate_align import CHANNELS, FEATURES, HIDDEN, MODEL_PATH, NET_PATH, flat_size
    from companion.vision.model_files import save_net

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    data = [np.load(p) for p in args.data]
    P = np.concatenate([d["P"] for d in data]).astype(np.float32) / 40
    F = np.concatenate([d["F"] for d in data])
    T = np.concatenate([d["T"] for d in data])
    looks = np.concatenate([d["look"] * 10 + i for i, d in enumerate(data)])
    # a look's patches all on one side: the last fifth of each file's looks held out
    held = np.zeros(len(T), bool)
    for i, d in enumerate(data):
        own = np.unique(d["look"])
        cut = own[int(len(own) * 0.8):]
        held |= np.isin(looks, cut * 10 + i)
    mean, std = F[~held].mean(axis=0), F[~held].std(axis=0) + 1e-6
    c1, c2, c3 = CHANNELS

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1, self.c2, self.c3 = nn.Conv2d(3, c1, 3), nn.Conv2d(c1, c2, 3), nn.Conv2d(c2, c3, 3)
            self.f1, self.f2 = nn.Linear(flat_size() + len(FEATURES), HIDDEN), nn.Linear(HIDDEN, 2)

        def forward(self, x, f):
            x = torch.max_pool2d(torch.relu(self.c1(x)), 2)
            x = torch.max_pool2d(torch.relu(self.c2(x)), 2)
            x = torch.relu(self.c3(x)).flatten(1)
            return self.f2(torch.relu(self.f1(torch.cat([x, f], 1))))

    net = Net()
    X = torch.from_numpy(P).permute(0, 3, 1, 2).contiguous()
    Fz = torch.from_numpy((F - mean) / std)
    Y = torch.from_numpy(T)
    tr, ho = np.flatnonzero(~held), np.flatnonzero(held)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = args.epochs * (len(tr) // args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=2e-3, total_steps=max(1, steps))
    gen = np.random.default_rng(args.seed)
    for epoch in range(args.epochs):
        net.train()
        order = gen.permutation(tr)
        t0 = time.time()
        for s in range(0, len(order) - args.batch + 1, args.batch):
            b = torch.from_numpy(order[s:s + args.batch])
            x = X[b]
            # brightness and contrast moved a little (the patch's mean is taken off already)
            x = x * torch.empty(len(b), 1, 1, 1).uniform_(0.7, 1.3)
            loss = nn.functional.smooth_l1_loss(net(x, Fz[b]), Y[b], beta=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        err = held_out_error(net, X, Fz, Y, ho)
        print(f"epoch {epoch + 1}: loss {loss.item():.4f}, held out: {err}, {time.time() - t0:.0f} s", flush=True)
    out = Path(args.out_dir) if args.out_dir else None
    weights = {f"{n}{k[0]}": v.detach().numpy() for n, m in (("c1", net.c1), ("c2", net.c2), ("c3", net.c3),
                                                          ("f1", net.f1), ("f2", net.f2))
               for k, v in (("w", m.weight), ("b", m.bias))}
    weights.update(mean=mean, std=std)
    settings = {"trained": {"data": [Path(p).name for p in args.data], "epochs": args.epochs, "patches": int(len(tr))},
                "held_out": err}
    save_net(settings, weights, out / MODEL_PATH.name if out else MODEL_PATH, out / NET_PATH.name if out else NET_PATH)
    print("wrote", out or NET_PATH.parent)


def held_out_error(net, X, Fz, Y, rows) -> dict:
    """The held-out fields' error, pitches: before (the moved grid's) and after (the network's)."""
    import torch

    net.eval()
    with torch.no_grad():
        out = torch.cat([net(X[rows[s:s + 2048]], Fz[rows[s:s + 2048]]) for s in range(0, len(rows), 2048)])
    before = Y[rows].norm(dim=1).numpy()
    after = (out - Y[rows]).norm(dim=1).numpy()
    return {"before_median": round(float(np.median(before)), 3), "after_median": round(float(np.median(after)), 3),
            "after_p90": round(float(np.percentile(after, 90)), 3), "after_over_0.15": round(float(np.mean(after > 0.15)), 4)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    r = sub.add_parser("render", help="render training looks and cut the aligner's patches")
    r.add_argument("--family", choices=("dev", "varied"), required=True)
    r.add_argument("--seeds", required=True, help="LO:HI")
    r.add_argument("--frames", type=int, default=3)
    r.add_argument("--out", required=True)
    t = sub.add_parser("train", help="train with PyTorch and write the model")
    t.add_argument("data", nargs="+")
    t.add_argument("--epochs", type=int, default=12)
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--threads", type=int, default=1)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out-dir", help="write the model here instead of companion/vision/models")
    args = ap.parse_args(argv)
    (render if args.step == "render" else train)(args)


if __name__ == "__main__":
    main()
