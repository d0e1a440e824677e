"""Train the value-marker network (companion/vision/board_value_net.py) on rendered boards.

    PYTHONPATH=. /work/train-venv/bin/python tools/learn_board_values.py      (data, training, export, report)
    .venv/bin/python tools/learn_board_values.py --measure        (only the report, with the committed model)

PyTorch is a training tool only (the service runs the exported weights with numpy). Data
(tools/board_value_data.py, cached under build/learn_board_values/): every lane of BOARDS boards
of TRAIN looks of the training-only "varied" family and DEV_TRAIN development looks (every other
one through a camera of its own: ``board_data.Camera``).

Training (as ``make board-values-model`` runs it): 8 epochs on the first 120 varied looks and
the development looks, then 4 more from those weights (``--init``, a lower rate) on all 200
varied looks and the development looks. (Retrained on lanes cut at the pose refined from the
print in the fifth session, and not kept: docs/performance.md, "Fifth session".) Adam on the cross-entropy over a lane's value spaces
and "no marker", the strips mirrored across the lane and turned end for end at random (the
spaces' rows with them), the frame's half nudged in colour; one thread, a fixed seed.
``--shift MM`` also moves each strip's frame half along the lane by a rounded normal step of that
spread (the pose a little off, the label kept): tried at 1.2 mm on the refined pose's lanes in the
52nd session, it left a tenth as many held-out lanes unsure but read some surely and wrongly, so
the committed network is trained without it (docs/performance.md, "Fourteenth session").

Then, on TEMPER varied and DEV_TEMPER development looks (none trained on): the temperature, and
the bar of a sure reading: the lowest confidence from SURE_FLOOR up at which at least
SURE_RIGHT of the tempering lanes read surely are right. Reported on HELD_OUT development and
VARIED_HELD_OUT and VARIED_HELD_OUT_2 varied looks. None of these seeds is one of the benchmark (dev 1000.., varied 330000.., eval 900000..), the tests, or
the place and drink networks' tools; the evaluation family is never used here.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import board_value_data  # noqa: E402
from torch_epochs import run_epochs  # noqa: E402

from companion.vision import board_value_net as bvn  # noqa: E402
from companion.vision.model_files import save_net  # noqa: E402

TRAIN = range(370_000, 370_200)        # varied looks for the weights (the first stage: the first 120)
TEMPER = range(370_300, 370_324)       # ... for the temperature and the bar
DEV_TRAIN = range(250_000, 250_040)    # development looks for the weights
DEV_TEMPER = range(260_000, 260_012)   # ... for the temperature and the bar
HELD_OUT = range(270_000, 270_008)     # development looks for the report
VARIED_HELD_OUT = range(380_000, 380_008)
VARIED_HELD_OUT_2 = range(380_400, 380_424)    # looks no run was tuned on (the pose's were chosen on 380000..)
SURE_FLOOR = 0.9
SURE_RIGHT = 0.9995         # of the sure readings of the tempering looks, at least this share right
EPOCHS = 8
BATCH = 64
SEED = 2029
SHIFT_MAX_MM = 3              # a frame half moved along the lane by --shift: never beyond half a space (6.5 mm)


def train_net(data: dict[str, np.ndarray], epochs: int = EPOCHS, seed: int = SEED,
              init: dict[str, np.ndarray] | None = None, max_lr: float = 3e-3,
              shift_mm: float = 0.0) -> dict[str, np.ndarray]:
    """The network's weights (ValueNet's keys) trained on ``data`` (strips, rows, y), from
    ``init``'s weights when given (a run continued on more looks); ``shift_mm``: see
    :func:`shifted`."""
    import torch
    from torch import nn
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    (c1, c2), (l1, l2) = bvn.CHANNELS, bvn.LANE
    strips = torch.from_numpy(data["strips"]).permute(0, 3, 1, 2)          # N, 6, length, width (float16)
    rows = torch.from_numpy(data["rows"].astype(np.float32))
    y = torch.from_numpy(data["y"].astype(np.int64))
    length = strips.shape[2]

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1, self.c2 = nn.Conv2d(6, c1, 3), nn.Conv2d(c1, c2, 3)
            self.l1, self.l2 = nn.Conv2d(c2, l1, (5, 1)), nn.Conv2d(l1, l2, (9, 1), dilation=(2, 1))
            self.o = nn.Conv2d(l2, 1, 1)
            self.none = nn.Parameter(torch.zeros(1))

        def forward(self, sq, at):
            h = nn.functional.max_pool2d(torch.relu(self.c1(sq)), (1, 2))
            h = torch.relu(self.c2(h)).amax(dim=3, keepdim=True)
            h = torch.relu(self.l2(torch.relu(self.l1(h))))
            s = self.o(h)[:, 0, :, 0]                                          # N, rows
            at = (at - bvn.REACH).clamp(0, s.shape[1] - 1.001)
            i = at.floor().long()
            f = at - i
            picked = s.gather(1, i) * (1 - f) + s.gather(1, i + 1) * f
            return torch.cat([picked, self.none.expand(len(s), 1)], dim=1)

    net = Net()
    if init is not None:
        state = {f"{layer}.{part}": torch.from_numpy(np.asarray(init[f"{layer}{part[0]}"], np.float32))
                 for layer in ("c1", "c2", "l1", "l2") for part in ("weight", "bias")}
        state.update({"o.weight": torch.from_numpy(np.asarray(init["ow"], np.float32)),
                      "o.bias": torch.from_numpy(np.asarray(init["ob"], np.float32)),
                      "none": torch.from_numpy(np.asarray(init["none"], np.float32))})
        net.load_state_dict(state)

    def loss_of(idx, gen):
        sq, at = augment(shifted(strips[idx].float(), gen, shift_mm), rows[idx].clone(), length, gen)
        return nn.functional.cross_entropy(net(sq, at), y[idx])

    run_epochs(net, len(y), epochs, loss_of, seed, BATCH, max_lr)
    sd = {name: v.detach().numpy() for name, v in net.state_dict().items()}
    return {"c1w": sd["c1.weight"], "c1b": sd["c1.bias"], "c2w": sd["c2.weight"], "c2b": sd["c2.bias"],
            "l1w": sd["l1.weight"], "l1b": sd["l1.bias"], "l2w": sd["l2.weight"], "l2b": sd["l2.bias"],
            "ow": sd["o.weight"], "ob": sd["o.bias"], "none": sd["none"]}


def shifted(sq, gen, spread_mm: float):
    """The strips (N, 6, length, width) with each one's frame half moved along the lane by a
    rounded normal step of ``spread_mm`` (1 px a mm; at most SHIFT_MAX_MM), the reference half
    and the label kept: the pose a little off along the track, as a real frame's may be, so that
    the network places a face by the frame's own print, or doubts (0: as cut)."""
    import torch
    if spread_mm <= 0:
        return sq
    n, _, length, _ = sq.shape
    step = (torch.randn(n, generator=gen) * spread_mm).round().clamp(-SHIFT_MAX_MM, SHIFT_MAX_MM).long()
    rows = (torch.arange(length)[None, :] - step[:, None]).clamp(0, length - 1)     # (n, length): edge kept
    frame = sq[:, :3].gather(2, rows[:, None, :, None].expand(n, 3, length, sq.shape[3]))
    return torch.cat([frame, sq[:, 3:]], dim=1)


def augment(sq, at, length: int, gen):
    """A batch of strips mirrored across the lane and turned end for end at random (the rows of
    the spaces turned with them), the frame's half nudged in colour (log, per strip and channel)."""
    import torch
    if int(torch.randint(0, 2, (1,), generator=gen)):
        sq = torch.flip(sq, dims=(3,))
    if int(torch.randint(0, 2, (1,), generator=gen)):
        sq = torch.flip(sq, dims=(2,))
        at = (length - 1) - at
    nudge = torch.randn(len(sq), 3, 1, 1, generator=gen) * 0.04 + torch.randn(len(sq), 1, 1, 1, generator=gen) * 0.06
    sq = sq.clone()
    sq[:, :3] += nudge
    return sq.clamp(*bvn.CLIP), at


# --- after training (numpy) ---------------------------------------------------------------------

def probabilities(net: bvn.ValueNet, data: dict, temperature: float = 1.0, chunk: int = 240) -> np.ndarray:
    model = bvn.ValueModel(net, {"temperature": temperature})
    return np.concatenate([model.probabilities(data["strips"][i:i + chunk].astype(np.float32), data["rows"][i:i + chunk])
                           for i in range(0, len(data["y"]), chunk)])


def fit_temperature(p1: np.ndarray, y: np.ndarray) -> float:
    logp = np.log(np.maximum(p1.astype(np.float64), 1e-300))
    best = (np.inf, 1.0)
    for temp in np.exp(np.linspace(np.log(0.3), np.log(4.0), 61)):
        z = logp / temp
        z = z - z.max(axis=1, keepdims=True)
        loss = float(-(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(axis=1))).mean())
        best = min(best, (loss, float(temp)))
    return round(best[1], 4)


def choose_sure(p: np.ndarray, y: np.ndarray) -> float:
    """The lowest confidence from SURE_FLOOR up at which the tempering lanes read surely were
    right at least SURE_RIGHT of the time (a look whose pose misplaces the track by half a space
    reads several lanes a space off, some confidently: no bar short of leaving most lanes unsure
    makes such a look's readings right; the reader's other checks must catch it)."""
    conf, ok = p.max(axis=1), p.argmax(axis=1) == y
    for bar in np.round(np.arange(SURE_FLOOR, 0.99999, 0.0005), 5):
        sure = conf >= bar
        if sure.any() and ok[sure].mean() >= SURE_RIGHT:
            return float(bar)
    return 0.99999


def report(model: bvn.ValueModel, data: dict, title: str) -> dict:
    p = np.concatenate([model.probabilities(data["strips"][i:i + 240].astype(np.float32), data["rows"][i:i + 240])
                        for i in range(0, len(data["y"]), 240)])
    y = data["y"].astype(int)
    conf, best = p.max(axis=1), p.argmax(axis=1)
    sure, ok = conf >= model.sure, best == y
    off = np.abs(best - y)[~ok & (y < p.shape[1] - 1) & (best < p.shape[1] - 1)]
    out = {"lanes": len(y), "right": float(ok.mean()), "sure_wrong": int((sure & ~ok).sum()),
           "unsure": int((~sure).sum()), "unsure_share": float((~sure).mean())}
    print(f"{title}: {out['lanes']} lanes; right {out['right']:.4f}; sure and wrong {out['sure_wrong']}; "
          f"unsure {out['unsure']} ({100 * out['unsure_share']:.2f} %); wrong by spaces {np.bincount(off).tolist()}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--measure", action="store_true", help="only report the committed model")
    ap.add_argument("--bars", action="store_true", help="only set the temperature and the bar again (the committed network kept)")
    ap.add_argument("--epochs", type=int, default=EPOCHS)
    ap.add_argument("--looks", type=int, default=len(TRAIN), help="how many training looks (of TRAIN)")
    ap.add_argument("--init", type=Path, help="continue from these weights (an npz of a run before)")
    ap.add_argument("--shift", type=float, default=0.0,
                    help="spread (mm) of a random move of each training strip's frame half along the lane")
    args = ap.parse_args(argv)
    if not args.measure:
        if args.bars:
            loaded = bvn.value_model()
            if loaded is None:
                print("no value model committed: train it first", file=sys.stderr)
                return 2
            weights = loaded.net.w
        else:
            varied = board_value_data.collect(TRAIN[:args.looks], "varied")
            dev = board_value_data.collect(DEV_TRAIN, "dev")
            data = {k: np.concatenate([varied[k], dev[k]]) for k in varied}
            del varied, dev
            print(f"training on {len(data['y'])} lanes", file=sys.stderr, flush=True)
            init = None
            if args.init:
                with np.load(args.init) as d:
                    init = {k: d[k] for k in d.files}
            weights = train_net(data, epochs=args.epochs, init=init, max_lr=1.5e-3 if init else 3e-3,
                                shift_mm=args.shift)
            board_value_data.CACHE.mkdir(parents=True, exist_ok=True)
            np.savez(board_value_data.CACHE / "last_weights.npz", **weights)
            del data
        net = bvn.ValueNet(weights)
        temper = {k: np.concatenate([a[k], b[k]]) for a, b in [(board_value_data.collect(TEMPER, "varied"),
                                                                board_value_data.collect(DEV_TEMPER, "dev"))] for k in a}
        y = temper["y"].astype(int)
        temperature = fit_temperature(probabilities(net, temper), y)
        sure = choose_sure(probabilities(net, temper, temperature), y)
        print(f"temperature {temperature}, sure from {sure}")
        save_net({"temperature": temperature, "sure": sure}, weights, bvn.SETTINGS_PATH, bvn.NET_PATH)
        bvn.value_model.cache_clear()
    model = bvn.value_model()
    if model is None:
        print("no value model committed: train it first", file=sys.stderr)
        return 2
    report(model, board_value_data.collect(HELD_OUT, "dev"), "held-out dev looks")
    report(model, board_value_data.collect(VARIED_HELD_OUT, "varied"), "held-out varied looks")
    report(model, board_value_data.collect(VARIED_HELD_OUT_2, "varied"), "held-out varied looks 380400-380423")
    return 0


if __name__ == "__main__":
    sys.exit(main())
