"""The drink pixel network as PyTorch trains it (``tools/learn_drink_pixels.py``): the same layers
as ``companion/vision/pixel_scorer.PixelNet``, each convolution batch-normalised if asked (folded in
at the export), the batches augmented, and the export to the weights the run time reads with numpy.
"""
from __future__ import annotations

import numpy as np

SEED = 2026
BATCH = 128


# --- the network in PyTorch (the same layers as pixel_scorer.PixelNet) ----------------------------

def torch_net(n_side: int, residual: bool, conv: tuple[int, int, int] | None = None, hidden: int | None = None,
              norm: bool = False):
    """``norm``: each convolution batch-normalised before its ReLU (``--norm batch``); the export
    folds it into the convolution (tools/torch_fold.py), so the run time's layers are the same."""
    import torch
    from torch import nn
    from companion.vision.drink_crops import CHANNELS
    from companion.vision.pixel_scorer import CONV, HIDDEN, N_DRINKS, flat_size
    c1, c2, c3 = conv or CONV
    hidden = hidden or HIDDEN

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.c1, self.c2, self.c3 = nn.Conv2d(CHANNELS, c1, 3), nn.Conv2d(c1, c2, 3), nn.Conv2d(c2, c3, 3)
            self.f1, self.f2 = nn.Linear(flat_size(c3) + n_side, hidden), nn.Linear(hidden, N_DRINKS + 1)
            self.drop = nn.Dropout(0.3)
            self.res = nn.Parameter(torch.ones(1)) if residual else None
            self.norms = nn.ModuleList(nn.BatchNorm2d(c) for c in (c1, c2, c3)) if norm else None

        def conv(self, k, x):
            x = getattr(self, f"c{k}")(x)
            return torch.relu(x if self.norms is None else self.norms[k - 1](x))

        def hidden(self, x, side):
            """The hidden layer (tools/drink_protos.py's prototype head embeds it)."""
            x = nn.functional.max_pool2d(self.conv(1, x), 2)
            x = nn.functional.max_pool2d(self.conv(2, x), 2)
            x = self.conv(3, x).mean(2).flatten(1)
            return torch.relu(self.f1(torch.cat([x, side], 1)))

        def forward(self, x, side, logp=None):
            out = self.f2(self.drop(self.hidden(x, side)))
            return out if self.res is None else out + self.res * logp

    return Net()


def layer_weights(net) -> dict:
    """A ``torch_net``'s layers in pixel_scorer.PixelNet's layout (a batch normalisation folded
    into its convolution)."""
    from torch_fold import folded
    weights = {f"{layer}{kind}": getattr(getattr(net, layer), "weight" if kind == "w" else "bias").detach().numpy()
               for layer in ("f1", "f2") for kind in ("w", "b")}
    for k in (1, 2, 3):
        weights[f"c{k}w"], weights[f"c{k}b"] = folded(getattr(net, f"c{k}"), net.norms[k - 1] if net.norms else None)
    return weights


# How far the training batches are relit and blurred (``--augment``): "plain", the committed
# network's; "strong", wider (each channel ~9 %, all ~18 %, blurred more often and more, with
# sensor noise): a lamp or camera further from the renders' than the plain one reaches.
AUGMENT = {"plain": {"channel": 0.06, "all": 0.12, "blur": 0.3, "sigma": (0.4, 1.2), "noise": 0.0},
           "strong": {"channel": 0.09, "all": 0.18, "blur": 0.45, "sigma": (0.4, 1.6), "noise": 0.03}}


def augmented(raw: np.ndarray, rng: np.random.Generator, how: str = "plain") -> np.ndarray:
    """Raw crops (n, H, W, RAW) turned a little (up to 6 degrees), scaled (up to 5 %), moved (up to
    1.5 px), mirrored across the axis (a drink mirrored is the same drink), relit (the plastic's
    colour against the calibration: each channel by up to ~6 %, all by ~12 %) and some blurred:
    what another lamp, camera or table does to a piece that the renders did not (``how``: one of
    AUGMENT)."""
    amount = AUGMENT[how]
    import cv2
    from companion.vision.drink_crops import H, W
    out = np.empty_like(raw, dtype=np.float32)
    for k in range(len(raw)):
        a = np.deg2rad(rng.uniform(-6, 6))
        sc = float(np.exp(rng.uniform(-0.05, 0.05)))
        m = cv2.getRotationMatrix2D(((W - 1) / 2, (H - 1) / 2), float(np.rad2deg(a)), sc)
        m[:, 2] += rng.uniform(-1.5, 1.5, 2)
        img = raw[k].astype(np.float32)
        if rng.random() < 0.5:
            img = img[::-1]
        img = np.ascontiguousarray(img)
        warped = np.empty_like(img)
        warped[..., :3] = cv2.warpAffine(img[..., :3], m, (W, H), borderMode=cv2.BORDER_REPLICATE)
        warped[..., 3:] = cv2.warpAffine(img[..., 3:], m, (W, H), borderMode=cv2.BORDER_CONSTANT).reshape(H, W, -1)
        if rng.random() < amount["blur"]:
            warped[..., :3] = cv2.GaussianBlur(warped[..., :3], (0, 0), float(rng.uniform(*amount["sigma"])))
        warped[..., :3] *= np.exp(rng.normal(0, amount["channel"], 3) + rng.normal(0, amount["all"]))
        if amount["noise"]:
            # the sensor's noise, relative to the level (the relit colour is ~0-255)
            warped[..., :3] *= np.exp(rng.normal(0, amount["noise"], warped[..., :3].shape)).astype(np.float32)
        out[k] = warped
    return out


def train(ex: dict, epochs: int, seed: int = SEED, log=print, residual: bool | None = None,
          conv: tuple[int, int, int] | None = None, hidden: int | None = None, norm: bool = False,
          augment: str = "plain") -> dict:
    """AdamW with a one-cycle rate, minibatches of BATCH, every batch augmented (``augment``: one
    of AUGMENT); the weights in PixelNet's layout (``conv``, ``hidden``: the layers' widths,
    pixel_scorer's by default; ``norm``: batch-normalised while training, folded at the export)."""
    import torch
    from companion.vision.drink_crops import channels
    from companion.vision.pixel_scorer import N_DRINKS, N_SIDE
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    side = ex["side"].astype(np.float32)
    mean, std = side.mean(axis=0), side.std(axis=0)
    std[std < 1e-6] = 1.0
    sidez = torch.tensor((side - mean) / std)
    if residual is None:                  # the piece's numbers and the feature scorer's view only
        residual = side.shape[1] > N_SIDE
    logp = torch.tensor(side[:, -(N_DRINKS + 1):] if residual else side[:, :0])
    y = torch.tensor(ex["y"])
    net = torch_net(side.shape[1], residual, conv, hidden, norm)
    n = len(y)
    steps = epochs * ((n + BATCH - 1) // BATCH)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=max(1, steps))
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(n)
        total = 0.0
        for s in range(0, n, BATCH):
            idx = order[s:s + BATCH]
            x = channels(augmented(ex["raw"][idx], rng, augment), ex["refs"][idx])
            x = torch.tensor(x).permute(0, 3, 1, 2)
            loss = torch.nn.functional.cross_entropy(net(x, sidez[idx], logp[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        log(f"  epoch {epoch + 1}: training loss {total / n:.4f}")
    net.eval()
    sd = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    weights = {**layer_weights(net), "mean": mean, "std": std}
    if residual:
        weights["res"] = sd["res"]
    # the numpy network must give PyTorch's scores (the same layers, the same layout)
    from companion.vision.pixel_scorer import PixelNet
    k = min(64, n)
    x = channels(ex["raw"][:k].astype(np.float32), ex["refs"][:k])
    with torch.no_grad():
        want = net(torch.tensor(x).permute(0, 3, 1, 2), sidez[:k], logp[:k]).numpy()
    got = PixelNet(weights).logits(x, side[:k])
    assert np.allclose(got, want, atol=1e-3), float(np.abs(got - want).max())
    return weights
