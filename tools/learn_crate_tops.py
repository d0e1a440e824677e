"""Train the network that marks the calibration cans' tops (companion/vision/crate_tops.py).

Two steps, two interpreters:

    # 1. render calibration photos of training looks (never the evaluation family) and cut
    #    squares of them at random scales round the crate (and one anywhere), with where the
    #    six cans' tops are in them (the project's venv; a process a seed range):
    .venv/bin/python tools/learn_crate_tops.py render --family varied --seeds 0:1000 --out /tmp/tops-v0.npz
    .venv/bin/python tools/learn_crate_tops.py render --family dev --seeds 0:600 --out /tmp/tops-d.npz
    # 2. train with PyTorch (the training venv, never a run-time dependency); writes
    #    models/crate_tops.npz and crate_tops.json (or --out-dir):
    .train-venv/bin/python tools/learn_crate_tops.py train /tmp/tops-v0.npz /tmp/tops-d.npz --epochs 14

The squares are read at a pitch of crate_tops.PITCH x 2^U(-SPREAD, SPREAD), so that the few
scales the reader tries (a factor of two apart) each cover their share. The target is the
usual heat map of points (a Gaussian of ``SIGMA`` cells round each top, the nearest cell 1) and
the loss the penalty-reduced focal loss that goes with it. The training changes the colours
(each channel's gain, the exposure, the contrast, sometimes the channels' order: the crate is
not always the yellow of our renders), turns and mirrors.
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

SIDE = 160               # px of a square at the read scale (40 cells)
SPREAD = 0.65            # the squares' pitch: PITCH x 2^U(-SPREAD, SPREAD)
ROUND_CRATE = 2          # squares round the crate a photo, and one anywhere
SIGMA = 0.6              # cells


def photo_pitch(truth: dict) -> float:
    """The crate's pitch in the photo (px): the mean distance of neighbouring fields' middles."""
    c = {tuple(k): np.array(v) for k, v in truth["centres"].items()}
    d = [np.linalg.norm(c[(x + 1, y)] - p) for (x, y), p in c.items() if (x + 1, y) in c]
    d += [np.linalg.norm(c[(x, y + 1)] - p) for (x, y), p in c.items() if (x, y + 1) in c]
    return float(np.mean(d))


def squares(photo: np.ndarray, truth: dict, rng: np.random.Generator):
    """(squares, their tops (6, 2) px with NaN outside, their pitch px) cut from one photo."""
    import cv2

    from companion.vision.crate_tops import PITCH

    pitch = photo_pitch(truth)
    tops = np.array([d["top_px"] for d in truth["drinks"]], np.float64)
    out = []
    for k in range(ROUND_CRATE + 1):
        target = PITCH * 2.0 ** rng.uniform(-SPREAD, SPREAD)
        s = target / pitch
        h, w = photo.shape[:2]
        size = (max(SIDE, int(round(w * s))), max(SIDE, int(round(h * s))))
        big = cv2.resize(photo, size, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        t = (tops + 0.5) * np.array([size[0] / w, size[1] / h]) - 0.5
        if k < ROUND_CRATE:
            lo, hi = t.min(axis=0), t.max(axis=0)
            # (a crate wider than the square with its margins: the bounds cross, any offset between)
            x0 = rng.uniform(*sorted((max(0, hi[0] + target - SIDE), min(size[0] - SIDE, lo[0] - target))))
            y0 = rng.uniform(*sorted((max(0, hi[1] + target - SIDE), min(size[1] - SIDE, lo[1] - target))))
        else:
            x0, y0 = rng.uniform(0, size[0] - SIDE), rng.uniform(0, size[1] - SIDE)
        x0, y0 = int(np.clip(x0, 0, size[0] - SIDE)), int(np.clip(y0, 0, size[1] - SIDE))
        sq = big[y0:y0 + SIDE, x0:x0 + SIDE]
        tt = t - (x0, y0)
        tt[np.any((tt < 0) | (tt >= SIDE), axis=1)] = np.nan
        out.append((sq, tt.astype(np.float32), np.float32(target)))
    return out


def render(args) -> None:
    import cv2

    from companion.sim.crate_looks import CrateLook
    from companion.sim.crate_render import CrateRenderer
    from companion.vision.crate_calibrate import CALIBRATION_LAYOUT

    cv2.setNumThreads(1)
    looks = training_seeds(args.family, args.seeds)
    S, T, P, L = [], [], [], []
    t0 = time.time()
    for seed in looks:
        r = CrateRenderer(CrateLook.from_seed(seed, args.family))
        rng = np.random.default_rng([seed, 7050])
        for _ in range(args.photos):
            photo, truth = r.render(CALIBRATION_LAYOUT, rng)
            for sq, tt, pitch in squares(photo, truth, rng):
                S.append(sq)
                T.append(tt)
                P.append(pitch)
                L.append(seed)
        if (seed - looks.start) % 100 == 0:
            print(f"{args.family} {seed}: {len(S)} squares, {time.time() - t0:.0f} s", flush=True)
    np.savez(args.out, S=np.stack(S), T=np.stack(T), P=np.array(P), look=np.array(L, np.int32))
    print(f"wrote {args.out}: {len(S)} squares")


def heat_targets(T: np.ndarray, cells: int) -> np.ndarray:
    """(n, cells, cells) target maps for tops (n, 6, 2) in square px (NaN: none)."""
    from companion.vision.crate_tops import STRIDE

    g = np.arange(cells, dtype=np.float32)
    out = np.zeros((len(T), cells, cells), np.float32)
    for i, tops in enumerate(T):
        for x, y in tops:
            if not np.isfinite(x):
                continue
            cx, cy = (x + 0.5) / STRIDE - 0.5, (y + 0.5) / STRIDE - 0.5
            m = np.exp(-((g[None, :] - cx) ** 2 + (g[:, None] - cy) ** 2) / (2 * SIGMA ** 2))
            out[i] = np.maximum(out[i], m)
            iy, ix = int(round(min(max(cy, 0), cells - 1))), int(round(min(max(cx, 0), cells - 1)))
            out[i, iy, ix] = 1.0
    return out


def train(args) -> None:
    import torch
    from torch import nn

    from companion.vision.crate_tops import CHANNELS, MODEL_PATH, NET_PATH, STRIDE
    from companion.vision.model_files import save_net

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    data = [np.load(p) for p in args.data]
    S = np.concatenate([d["S"] for d in data])
    T = np.concatenate([d["T"] for d in data])
    P = np.concatenate([d["P"] for d in data])
    looks = np.concatenate([d["look"] * 10 + i for i, d in enumerate(data)])
    cells = SIDE // STRIDE
    Y = heat_targets(T, cells)
    held = np.zeros(len(S), bool)
    for i, d in enumerate(data):          # the last tenth of each file's looks held out
        own = np.unique(d["look"])
        held |= np.isin(looks, own[int(len(own) * 0.9):] * 10 + i)
    print(f"{len(S)} squares, {held.sum()} held out", flush=True)

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            c = (3,) + CHANNELS
            self.convs = nn.ModuleList(nn.Conv2d(c[i], c[i + 1], 3, padding=1) for i in range(len(CHANNELS)))
            self.out = nn.Conv2d(c[-1], 1, 1)
            nn.init.constant_(self.out.bias, -4.0)

        def forward(self, x):
            for i, conv in enumerate(self.convs):
                x = torch.relu(conv(x))
                if i < 2:
                    x = torch.max_pool2d(x, 2)
            return self.out(x)[:, 0]

    net = Net()
    X = torch.from_numpy(S)                     # uint8 (n, h, w, 3), turned to floats a batch at a time
    Yt = torch.from_numpy(Y)
    train_rows = np.nonzero(~held)[0]
    steps = args.epochs * math.ceil(len(train_rows) / args.batch)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=max(1, steps))
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    for epoch in range(args.epochs):
        net.train()
        order = rng.permutation(train_rows)
        total = 0.0
        for s in range(0, len(order), args.batch):
            b = torch.from_numpy(order[s:s + args.batch])
            x = X[b].permute(0, 3, 1, 2).float() / 255.0
            y = Yt[b]
            x, y = varied(x, y, len(b))
            loss = focal_loss(net(x - 0.5), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(b)
        print(f"epoch {epoch + 1}: loss {total / len(order):.4f}, held out {held_out(net, X, T, P, np.nonzero(held)[0])}, "
              f"{time.time() - t0:.0f} s", flush=True)
    weights = {}
    for i, conv in enumerate(net.convs, 1):
        weights[f"c{i}w"], weights[f"c{i}b"] = conv.weight.detach().numpy(), conv.bias.detach().numpy()
    weights["c6w"], weights["c6b"] = net.out.weight.detach().numpy(), net.out.bias.detach().numpy()
    settings = {"trained_on": [Path(p).name for p in args.data], "epochs": args.epochs, "squares": int(len(S)),
                "recipe": "make crate-tops-model"}
    out = Path(args.out_dir) if args.out_dir else None
    save_net(settings, weights, out / MODEL_PATH.name if out else MODEL_PATH, out / NET_PATH.name if out else NET_PATH)
    print("wrote the network")


def varied(x, y, n: int):
    """The batch's colours, turns and mirrors changed at random (the same turns for the maps)."""
    import torch

    gain = torch.empty(n, 3, 1, 1).uniform_(0.7, 1.3) * torch.empty(n, 1, 1, 1).uniform_(0.6, 1.4)
    x = (x * gain).clamp(0, 1) ** torch.empty(n, 1, 1, 1).uniform_(0.7, 1.4)
    swap = torch.rand(n) < 0.25
    if swap.any():
        x[swap] = x[swap][:, torch.randperm(3)]
    x = (x + torch.randn_like(x) * torch.empty(n, 1, 1, 1).uniform_(0, 0.03)).clamp(0, 1)
    k = int(torch.randint(0, 4, (1,)))
    x, y = torch.rot90(x, k, (2, 3)), torch.rot90(y, k, (1, 2))
    if bool(torch.rand(1) < 0.5):
        x, y = torch.flip(x, (3,)), torch.flip(y, (2,))
    return x, y


def focal_loss(z, y):
    """The penalty-reduced focal loss of point heat maps (scores ``z``, targets ``y``)."""
    import torch

    p = torch.sigmoid(z).clamp(1e-4, 1 - 1e-4)
    pos = y >= 0.999
    lp = -((1 - p) ** 2 * torch.log(p))[pos].sum()
    ln = -((1 - y) ** 4 * p ** 2 * torch.log(1 - p))[~pos].sum()
    return (lp + ln) / max(1, int(pos.sum()))


def held_out(net, X, T, P, rows) -> str:
    """Of the held-out squares with all six tops inside: how many have the six tops as their six
    strongest peaks (each within 0.15 of the square's pitch ``P``)."""
    import torch

    from companion.vision.crate_tops import peaks

    net.eval()
    whole = [r for r in rows if np.isfinite(T[r]).all()]
    hit = 0
    with torch.no_grad():
        for s in range(0, len(whole), 256):
            b = whole[s:s + 256]
            heat = torch.sigmoid(net(X[b].permute(0, 3, 1, 2).float() / 255.0 - 0.5)).numpy()
            for r, hm in zip(b, heat):
                got = np.array([(x, y) for x, y, _ in peaks(hm, 0.3, 6)]).reshape(-1, 2)
                if len(got) == 6:
                    d = np.linalg.norm(got[:, None] - T[r][None], axis=2).min(axis=0)
                    hit += bool((d <= 0.15 * P[r]).all())
    return f"{hit}/{len(whole)} squares' six tops"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="step", required=True)
    r = sub.add_parser("render", help="render training squares (never the evaluation family)")
    r.add_argument("--family", choices=("dev", "varied"), required=True)
    r.add_argument("--seeds", required=True, help="LO:HI (below the evaluation seeds)")
    r.add_argument("--photos", type=int, default=1, help="calibration photos a look")
    r.add_argument("--out", required=True)
    t = sub.add_parser("train", help="train and write the network (PyTorch)")
    t.add_argument("data", nargs="+")
    t.add_argument("--epochs", type=int, default=14)
    t.add_argument("--batch", type=int, default=32)
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out-dir", default="")
    args = ap.parse_args(argv)
    render(args) if args.step == "render" else train(args)


if __name__ == "__main__":
    main()
