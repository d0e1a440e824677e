"""The crate reader's field network: names what stands in one crate field from its patch
(:mod:`.crate_patches`), run with numpy alone (issue 31).

Classes (:data:`CLASSES`): ``none`` (no crate's slot there: the table, or a crate's outer face
seen beside the grid), ``empty``, the 36 drinks, and ``off``: a patch cut across two fields
(the grid found wrong there), so that such a patch is read as doubtful, not as a drink. Three 3x3 convolutions (ReLU; 2x2 max
pooling after the first two: 56x30 -> 54x28 -> 27x14 -> 25x12 -> 12x6 -> 10x4), the map kept whole
(where along the lean a drink's top shows is what tells the cans apart), the patch's numbers
beside it, a hidden layer and a score per class. The layers are those of
``tools/learn_crates.py`` (PyTorch, training only), with the same weights' layout; the
convolution and pooling are :mod:`.board_net`'s.

The model's settings (``models/crate_model.json``): the temperature of its scores, the bars
of a sure reading (``sure``: a drink; ``sure_empty``; ``sure_none``), set on development frames
for next to no sure mistakes, and ``mirror``: each patch read mirrored too, the probabilities
averaged (off in the committed model; ``tools/learn_crates.py bars --mirror`` sets the bars so).

>>> import numpy as np
>>> net = FieldNet.random(seed=0)
>>> net.logits(np.zeros((2, 56, 30, 3), np.float32), np.zeros((2, 4), np.float32)).shape
(2, 39)
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from ..crate_fields import EMPTY
from ..drinks import DRINK_IDS
from .board_net import _conv, _pool, dense_head, float_weights
from .crate_patches import FEATURES, SIZE
from .model_files import load_net, save_net

NET_PATH = Path(__file__).with_name("models") / "crate_net.npz"
MODEL_PATH = Path(__file__).with_name("models") / "crate_model.json"
NONE = "none"
OFF = "off"                  # a patch cut between fields (the grid found wrong there): never sure
CLASSES = (NONE, EMPTY) + tuple(DRINK_IDS) + (OFF,)
DRINK_COLUMNS = np.arange(2, 2 + len(DRINK_IDS))       # the drinks' columns of the probabilities
GRID_COLUMNS = (CLASSES.index(NONE), CLASSES.index(OFF))    # the names of the grid, not of a slot's drink
CHANNELS = (16, 32, 48)        # the default network's; one trained wider (``learn_crates.py train
HIDDEN = 128                   # --channels --hidden``) is read alike: the layers take the weights' shapes
KEYS = ("c1w", "c1b", "c2w", "c2b", "c3w", "c3b", "f1w", "f1b", "f2w", "f2b", "mean", "std")


def flat_size(channels: tuple[int, int, int] = CHANNELS) -> int:
    w, h = SIZE
    h, w = ((h - 2) // 2 - 2) // 2 - 2, ((w - 2) // 2 - 2) // 2 - 2
    return channels[2] * h * w


class FieldNet:
    """The exported network (weights as PyTorch keeps them) and the standardisation of the
    patch's numbers."""

    def __init__(self, weights: dict[str, np.ndarray]):
        self.w = float_weights(weights, KEYS, "crate field network", "tools/learn_crates.py")

    @classmethod
    def random(cls, seed: int = 0, channels: tuple[int, int, int] = CHANNELS, hidden: int = HIDDEN) -> "FieldNet":
        """A network of the given shapes with random weights (for tests of the plumbing)."""
        rng = np.random.default_rng(seed)
        c1, c2, c3 = channels
        nf = len(FEATURES)
        shapes = {"c1w": (c1, 3, 3, 3), "c1b": (c1,), "c2w": (c2, c1, 3, 3), "c2b": (c2,),
                  "c3w": (c3, c2, 3, 3), "c3b": (c3,), "f1w": (hidden, flat_size(channels) + nf), "f1b": (hidden,),
                  "f2w": (len(CLASSES), hidden), "f2b": (len(CLASSES),)}
        w = {k: rng.normal(0, 0.1, s) for k, s in shapes.items()}
        return cls({**w, "mean": np.zeros(nf), "std": np.ones(nf)})

    def logits(self, patches: np.ndarray, feats: np.ndarray) -> np.ndarray:
        """Scores (n, classes) for patches (n, h, w, 3) and their numbers (n, F)."""
        w = self.w
        if not len(patches):
            return np.zeros((0, len(w["f2b"])), np.float32)
        x = _pool(_conv(patches.astype(np.float32, copy=False), w["c1w"], w["c1b"]))
        x = _pool(_conv(x, w["c2w"], w["c2b"]))
        x = _conv(x, w["c3w"], w["c3b"])
        flat = x.transpose(0, 3, 1, 2).reshape(len(x), -1)          # PyTorch's (c, h, w) order
        return dense_head(flat, feats, w)


class FieldModel:
    """The network and its settings: probabilities per class and the bars of a sure reading."""

    def __init__(self, net: FieldNet, settings: dict | None = None):
        settings = settings or {}
        if tuple(settings.get("classes", CLASSES)) != CLASSES or tuple(settings.get("features", FEATURES)) != FEATURES:
            raise ValueError("the crate model was trained on other classes or inputs: run tools/learn_crates.py")
        self.net = net
        self.temperature = float(settings.get("temperature", 1.0))
        self.sure = float(settings.get("sure", 0.995))
        self.sure_empty = float(settings.get("sure_empty", self.sure))
        self.sure_none = float(settings.get("sure_none", 0.9))
        # each patch read twice, as cut and mirrored across the lean (a mirrored crate is as
        # real; the training mirrors at random), the probabilities averaged
        self.mirror = bool(settings.get("mirror", False))

    def probabilities(self, patches: np.ndarray, feats: np.ndarray) -> np.ndarray:
        prob = self._probabilities(patches, feats)
        if self.mirror and len(patches):
            prob = (prob + self._probabilities(patches[:, :, ::-1], feats)) / 2
        return prob

    def _probabilities(self, patches: np.ndarray, feats: np.ndarray) -> np.ndarray:
        out = [self.net.logits(patches[s:s + 256], feats[s:s + 256]) for s in range(0, len(patches), 256)]
        z = (np.concatenate(out) if out else np.zeros((0, len(CLASSES)), np.float32)).astype(np.float64)
        z = z / self.temperature
        z = np.exp(z - z.max(axis=1, keepdims=True)) if len(z) else z
        return z / z.sum(axis=1, keepdims=True) if len(z) else z

    def bar(self, name: str) -> float:
        return self.sure_empty if name == EMPTY else self.sure_none if name == NONE else self.sure


def save(settings: dict, weights: dict[str, np.ndarray], settings_path: Path = MODEL_PATH,
         net_path: Path = NET_PATH) -> None:
    save_net(settings, weights, settings_path, net_path)


@cache
def field_model(settings_path: str = str(MODEL_PATH), net_path: str = str(NET_PATH)) -> FieldModel | None:
    """The committed model (None when there is none yet)."""
    found = load_net(settings_path, net_path)
    if found is None:
        return None
    weights, settings = found
    return FieldModel(FieldNet(weights), settings)
