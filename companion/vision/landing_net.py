"""The landing reader's network: for one candidate patch of an asked drink (a turned crop of
the top view, ``landing_crops.py``) it says whether it is that drink and where it landed
(``slot``, ``crate``, ``outside`` or ``none``: not this drink), and where the drink's middle
lies on the table as an offset from the crop's centre with its likely error (a Laplace scale).
Run with numpy alone; trained by ``tools/learn_landings.py`` (PyTorch, same weights' layout).

Four 3x3 convolutions (ReLU; 2x2 max pooling after the first three: 56 -> 54 -> 27 -> 25 -> 12
-> 10 -> 5 -> 3), the map kept whole (where in the crop the drink and the walls are is what
tells the spot and the middle), the crop's numbers beside it, a hidden layer, then 4 scores,
2 offsets (in ``OFFSET_MM``) and the log of the offsets' error scale.

The settings (``models/landing_model.json``): the scores' temperature and the bars of a sure
reading (``sure``: the spot's probability; ``sure_scale_mm``: the middle's error scale;
``rival``: how likely the drink another patch elsewhere may be), set on held-out development
frames for next to no sure mistakes.

>>> net = LandingNet.random(seed=0)
>>> spots, offsets, scales = net.forward(np.zeros((2, 56, 56, 6), np.uint8), np.zeros((2, 10), np.float32))
>>> spots.shape, offsets.shape, scales.shape
((2, 4), (2, 2), (2,))
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from .board_net import _conv, _pool, dense_head, float_weights
from .landing_crops import ALL_FEATURES, CHANNELS, CROP, FEATURES, LAYOUTS, numbers
from .landing_pixels import PixelClassNet, pixel_net
from .landing_reading import RIVAL
from .model_files import load_net, save_net

NET_PATH = Path(__file__).with_name("models") / "landing_net.npz"
MODEL_PATH = Path(__file__).with_name("models") / "landing_model.json"
SPOTS = ("slot", "crate", "outside", "none")
WIDTHS = (12, 24, 48, 64)           # the training's default; the committed network is twice as wide (``learn_landings.py
HIDDEN = 128                        # train --widths --hidden``): the run-time layers take the weights' shapes
OFFSET_MM = 10.0
OUTPUTS = len(SPOTS) + 3
KEYS = ("c1w", "c1b", "c2w", "c2b", "c3w", "c3b", "c4w", "c4b", "f1w", "f1b", "f2w", "f2b", "mean", "std")


def flat_size(widths: tuple[int, ...] = WIDTHS) -> int:
    side = CROP
    for _ in range(3):
        side = (side - 2) // 2
    return widths[3] * (side - 2) ** 2


class LandingNet:
    """The exported network (weights as PyTorch keeps them) and the standardisation of the
    crop's numbers."""

    def __init__(self, weights: dict[str, np.ndarray]):
        self.w = float_weights(weights, KEYS, "landing network", "tools/learn_landings.py")

    @classmethod
    def random(cls, seed: int = 0, widths: tuple[int, ...] = WIDTHS, hidden: int = HIDDEN,
               channels: int = len(CHANNELS)) -> "LandingNet":
        """A network of the right shapes with random weights (for tests of the plumbing)."""
        rng = np.random.default_rng(seed)
        shapes, c_in = {}, channels
        for i, c in enumerate(widths, 1):
            shapes[f"c{i}w"], shapes[f"c{i}b"] = (c, c_in, 3, 3), (c,)
            c_in = c
        shapes.update({"f1w": (hidden, flat_size(widths) + len(FEATURES)), "f1b": (hidden,),
                       "f2w": (OUTPUTS, hidden), "f2b": (OUTPUTS,)})
        w = {k: rng.normal(0, 0.05, s) for k, s in shapes.items()}
        return cls({**w, "mean": np.zeros(len(FEATURES)), "std": np.ones(len(FEATURES))})

    def raw(self, crops: np.ndarray, feats: np.ndarray) -> np.ndarray:
        """The outputs (n, OUTPUTS) for crops (n, CROP, CROP, channels) uint8 and numbers (n, F)."""
        w = self.w
        if not len(crops):
            return np.zeros((0, OUTPUTS), np.float32)
        x = np.asarray(crops, np.float32) / 255.0
        x = _pool(_conv(x, w["c1w"], w["c1b"]))
        x = _pool(_conv(x, w["c2w"], w["c2b"]))
        x = _pool(_conv(x, w["c3w"], w["c3b"]))
        x = _conv(x, w["c4w"], w["c4b"])
        flat = x.transpose(0, 3, 1, 2).reshape(len(x), -1)          # PyTorch's (c, h, w) order
        return dense_head(flat, feats, w)

    def forward(self, crops: np.ndarray, feats: np.ndarray, temperature: float = 1.0):
        """Probabilities per spot (n, 4), the middle's offset (n, 2 mm: right, up in the crop)
        and its error scale (n, mm)."""
        out = self.raw(crops, feats).astype(np.float64)
        z = out[:, :len(SPOTS)] / temperature
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        offsets = out[:, len(SPOTS):len(SPOTS) + 2] * OFFSET_MM
        scales = np.exp(np.clip(out[:, -1], -6, 6)) * OFFSET_MM
        return p, offsets, scales


class _Bars:
    """The settings a reader of crops is judged by: its temperature and the bars of a sure
    reading (the spot's probability, the middle's error scale, a rival patch's probability)."""

    def _take_bars(self, settings: dict) -> None:
        self.temperature = float(settings.get("temperature", 1.0))
        self.sure = float(settings.get("sure", 0.99))
        self.sure_scale_mm = float(settings.get("sure_scale_mm", 2.5))
        self.rival = float(settings.get("rival", RIVAL))
        # the second way to be sure (landing_reading.is_sure): none unless both are set
        self.sure_drink = None if settings.get("sure_drink") is None else float(settings["sure_drink"])
        self.sure_share = None if settings.get("sure_share") is None else float(settings["sure_share"])
        self.settings = settings


class LandingModel(_Bars):
    """The network and its settings (the temperature, the bars of a sure reading)."""

    def __init__(self, net: LandingNet, settings: dict | None = None):
        settings = settings or {}
        self.channels = tuple(settings.get("channels", CHANNELS))
        self.features = tuple(settings.get("features", FEATURES))
        if tuple(settings.get("spots", SPOTS)) != SPOTS or not set(self.features) <= set(ALL_FEATURES) \
                or self.channels not in LAYOUTS.values() or net.w["c1w"].shape[1] != len(self.channels) \
                or len(net.w["mean"]) != len(self.features):
            raise ValueError("the landing model was trained on other inputs: run tools/learn_landings.py")
        self.net = net
        self.pixels = pixels_of(settings)
        self._take_bars(settings)

    def read(self, crops: np.ndarray, feats: np.ndarray):
        """As :meth:`LandingNet.forward`, each crop read as it is and mirrored (the scene's mirror
        image is as likely), the two averaged; ``feats`` a candidate's numbers (those the model's
        settings name are read: ``landing_crops.numbers``)."""
        crops = np.asarray(crops)
        feats = numbers(feats, self.features)
        n = len(crops)
        both = np.concatenate([crops, crops[:, :, ::-1]]) if n else crops
        p, off, scale = self.net.forward(both, np.concatenate([feats, feats]) if n else feats, self.temperature)
        if not n:
            return p, off, scale
        off[n:, 0] *= -1
        return (p[:n] + p[n:]) / 2, (off[:n] + off[n:]) / 2, np.maximum(scale[:n], scale[n:]) + \
            np.linalg.norm(off[:n] - off[n:], axis=1) / 2


class LandingEnsemble(_Bars):
    """Several landing models read as one. Their spot probabilities (each member at its own
    temperature, each crop read as it is and mirrored) are combined as a product of experts:
    the mean of their logs, divided by the ensemble's own ``temperature``, renormalised
    (``combine: "mean"``: the plain average instead); their middles averaged; the error scale
    their mean scale plus their mean distance from the averaged middle (the members'
    disagreement). The temperature and the bars of a sure reading are the ensemble's own,
    set on held-out dev looks (``tools/landing_ensemble.py``)."""

    def __init__(self, members: list[LandingModel], settings: dict | None = None):
        if not members:
            raise ValueError("an ensemble of no landing models")
        settings = settings or {}
        self.members = list(members)
        self.channels = members[0].channels
        if any(m.channels != self.channels for m in members):
            raise ValueError("a landing ensemble's members read crops of other channels")
        self.pixels = members[0].pixels
        if any(m.pixels is not self.pixels for m in members):
            raise ValueError("a landing ensemble's members read crops of other pixel classes")
        self.combine = str(settings.get("combine", "product"))
        if self.combine not in ("product", "mean"):
            raise ValueError(f"an ensemble combines by product or mean, not {self.combine}")
        self._take_bars(settings)

    def read(self, crops: np.ndarray, feats: np.ndarray):
        reads = [m.read(crops, feats) for m in self.members]
        if self.combine == "mean":
            p = np.mean([r[0] for r in reads], axis=0)
        else:
            z = np.mean([np.log(np.clip(r[0], 1e-12, 1.0)) for r in reads], axis=0) / self.temperature
            p = np.exp(z - z.max(axis=1, keepdims=True)) if len(z) else z
            p /= p.sum(axis=1, keepdims=True) if len(p) else 1.0
        off = np.mean([r[1] for r in reads], axis=0)
        spread = np.mean([np.linalg.norm(r[1] - off, axis=1) for r in reads], axis=0) if len(off) else np.zeros(0)
        return p, off, np.mean([r[2] for r in reads], axis=0) + spread


def pixels_of(settings: dict) -> "PixelClassNet | None":
    """The pixel classes a model's crops were cut with: the hand-written ones (None) or, where
    its settings say ``pixels: "learned"``, the committed pixel network (``landing_pixels.py``)."""
    kind = settings.get("pixels", "rules")
    if kind == "rules":
        return None
    if kind != "learned":
        raise ValueError(f"a landing model's pixel classes are 'rules' or 'learned', not {kind!r}: "
                         "run tools/learn_landings.py")
    net = pixel_net()
    if net is None:
        raise ValueError("the landing model reads learned pixel classes, and none are committed: "
                         "run tools/learn_landing_pixels.py (make landing-pixels)")
    return net


def save(settings: dict, weights: dict[str, np.ndarray], settings_path: Path = MODEL_PATH,
         net_path: Path = NET_PATH) -> None:
    save_net(settings, weights, settings_path, net_path)


@cache
def landing_model(settings_path: str = str(MODEL_PATH), net_path: str = str(NET_PATH)) -> "LandingModel | LandingEnsemble | None":
    """The committed model (None when there is none yet): one network, or an ensemble when the
    settings name its ``members`` (``[{"net": file, "temperature": t}, ...]``, files beside the first)."""
    found = load_net(settings_path, net_path)
    if found is None:
        return None
    weights, settings = found
    if not settings.get("members"):
        return LandingModel(LandingNet(weights), settings)
    # an ensemble: each member's weights beside the first (``net_path``), its own temperature
    own = {k: v for k, v in settings.items() if k != "members"}
    members = []
    for member in settings["members"]:
        path = Path(net_path).with_name(member["net"])
        w = weights
        if path.name != Path(net_path).name:
            if not path.exists():
                raise ValueError(f"the landing ensemble's {path.name} is missing: run tools/landing_ensemble.py")
            with np.load(path) as data:
                w = {k: data[k] for k in data.files}
        members.append(LandingModel(LandingNet(w), {**own, "temperature": member["temperature"]}))
    return LandingEnsemble(members, own)
