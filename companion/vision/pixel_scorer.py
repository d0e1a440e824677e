"""Naming a piece from its pixels (issue 26): a small convolutional network over the piece's
crop (``drink_crops.py``: relit against the calibrated empty tray, turned along its axis,
scaled by the set's own drinks, colours relative to the tray and to the set's six plastics,
the piece's mask as a channel) scores the 36 drinks and "no single drink";
``identify(..., scorer="pixels")``.

Beside the pixels the network gets a few numbers of the piece (``drink_crops.side_inputs``:
the frame's blur, its area against the set's smallest drink, whether the second look placed
an outline for it) and, in the model's ``features`` variant, the learned feature scorer's
log-probabilities of the 37 names (``learned.py``: the 39 measured features per candidate
and the rules' own reading); ``tools/learn_drink_pixels.py`` trains both and keeps the one
that measured better on held-out tables of the training family (never on the evaluation
family). A softmax at the temperature fitted on tables the training never saw gives the
confidence; a reading is sure from the model's bar ``sure`` up (chosen on those tables, each
family's on its own and the higher bar kept, so that the sure readings there were right at
least 99.8 % of the time, never below 0.9).

Layers (PyTorch's weights' layout, run with numpy channel-first, ``_conv`` and ``_pool``):
three 3x3 convolutions with ReLU, 2x2 max pooling after the first two (28x56 -> 26x54 ->
13x27 -> 11x25 -> 5x12 -> 3x10), the map averaged across the piece but kept whole along it
(where along the axis a neck or a shoulder lies is what tells the shapes apart), the side
numbers standardised beside it, a hidden layer and 37 scores (the widths are the weights' own:
12/24/32 and 64 for the first networks, 24/48/64 and 128 for the set network of ``checked-set``,
which reads more pieces right and sure on looks it never saw); in the ``features`` variant the
feature scorer's log-probabilities, times a learned weight (``res``), are added to the scores:
the network learns a correction to that scorer's reading from the pixels, not a reading
from nothing (trained from nothing on the few tables rendered, it named fewer pieces right
on held-out tables than the feature scorer alone).

>>> import numpy as np
>>> net = PixelNet.random(side=3, seed=0)
>>> net.logits(np.zeros((2, 28, 56, 11), np.float32), np.zeros((2, 3), np.float32)).shape
(2, 37)
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from ..drinks import COLOURS, SHAPES
from .board_net import float_weights
from .drink_crops import CHANNELS, SET_SIZES, H, W, channels, raw_crops, references, set_sizes, side_inputs

NET_PATH = Path(__file__).with_name("models") / "drink_pixels.npz"
CONV = (12, 24, 32)            # the convolutions' widths by default (the training tool's; a model
HIDDEN = 64                    # file's own are its weights' shapes, so a wider network loads alike)
N_DRINKS = len(COLOURS) * len(SHAPES)
N_SIDE = 3                     # drink_crops.side_inputs
LOGP_FLOOR = -12.0             # the feature scorer's log-probabilities below this say no more
KEYS = ("c1w", "c1b", "c2w", "c2b", "c3w", "c3b", "f1w", "f1b", "f2w", "f2b", "mean", "std")


def flat_size(last: int = CONV[2]) -> int:
    """The last map's size once averaged across the piece (along it stays whole), for ``last``
    channels."""
    return last * (((W - 2) // 2 - 2) // 2 - 2)


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3x3 convolution without padding, then ReLU, channel-first: x (c, n, h, w) ->
    (out, n, h-2, w-2); ``w``: (out, 3 * 3 * c), the window's rows, columns, channels in that
    order (``_windowed``). The nine shifted views written into one array (each a copy of whole
    rows of the crop), then one matrix product. Channel-first because channels-last copied 11
    floats at a time and took twice as long (benchmarks/vision.py's pixel rows; the numbers are
    in docs/performance.md)."""
    c, n, h, wd = x.shape
    cols = np.empty((3, 3, c, n, h - 2, wd - 2), np.float32)
    for i in range(3):
        for j in range(3):
            cols[i, j] = x[:, :, i:i + h - 2, j:j + wd - 2]
    out = w @ cols.reshape(9 * c, -1)
    out += b[:, None]
    np.maximum(out, 0, out=out)
    return out.reshape(len(w), n, h - 2, wd - 2)


def _pool(x: np.ndarray) -> np.ndarray:
    """2x2 max pooling over the last two axes (an odd last row or column dropped, as PyTorch's):
    the four corners' maximum, elementwise (faster than a reduction over reshaped axes)."""
    h, w = x.shape[-2] // 2 * 2, x.shape[-1] // 2 * 2
    out = np.maximum(x[..., 0:h:2, 0:w:2], x[..., 1:h:2, 0:w:2])
    np.maximum(out, x[..., 0:h:2, 1:w:2], out=out)
    np.maximum(out, x[..., 1:h:2, 1:w:2], out=out)
    return out


def _windowed(w: np.ndarray) -> np.ndarray:
    """PyTorch's (out, in, 3, 3) weights as (out, 3 * 3 * in) for ``_conv``."""
    return np.ascontiguousarray(w.transpose(0, 2, 3, 1).reshape(len(w), -1))


class PixelNet:
    """The exported network and the standardisation of its side numbers."""

    def __init__(self, weights: dict[str, np.ndarray]):
        self.w = float_weights(weights, KEYS, "drink pixel network", "tools/learn_drink_pixels.py")
        self._convs = [(_windowed(self.w[f"c{k}w"]), self.w[f"c{k}b"]) for k in (1, 2, 3)]
        self._f1 = np.ascontiguousarray(self.w["f1w"].T)
        self._f2 = np.ascontiguousarray(self.w["f2w"].T)

    @classmethod
    def random(cls, side: int = N_SIDE, seed: int = 0, conv: tuple[int, int, int] = CONV,
               hidden: int = HIDDEN) -> "PixelNet":
        """A network of the right shapes (of these widths) with random weights (for tests of the
        plumbing)."""
        rng = np.random.default_rng(seed)
        c1, c2, c3 = conv
        shapes = {"c1w": (c1, CHANNELS, 3, 3), "c1b": (c1,), "c2w": (c2, c1, 3, 3), "c2b": (c2,),
                  "c3w": (c3, c2, 3, 3), "c3b": (c3,), "f1w": (hidden, flat_size(c3) + side), "f1b": (hidden,),
                  "f2w": (N_DRINKS + 1, hidden), "f2b": (N_DRINKS + 1,)}
        w = {k: rng.normal(0, 0.1, s) for k, s in shapes.items()}
        return cls({**w, "mean": np.zeros(side), "std": np.ones(side)})

    @property
    def compares(self) -> bool:
        """Whether the network also compares a piece with the set's own calibration pieces
        (its prototype head: ``ew``, ``eb``, ``scale``)."""
        return "ew" in self.w

    def hidden(self, x: np.ndarray, side: np.ndarray) -> np.ndarray:
        """The hidden layer (n, hidden) for crops' channels (n, H, W, CHANNELS) and side numbers."""
        w = self.w
        (k1, b1), (k2, b2), (k3, b3) = self._convs
        x = np.ascontiguousarray(np.asarray(x, np.float32).transpose(3, 0, 1, 2))    # (c, n, h, w)
        h = _pool(_conv(x, k1, b1))
        h = _pool(_conv(h, k2, b2))
        h = _conv(h, k3, b3).mean(axis=2)            # across the piece: a drink mirrored is the same
        flat = h.transpose(1, 0, 2).reshape(h.shape[1], -1)          # PyTorch's (c, w) order
        z = (np.asarray(side, np.float32) - w["mean"]) / w["std"]
        return np.maximum(np.concatenate([flat, z], axis=1) @ self._f1 + w["f1b"], 0)

    def embedded(self, hidden: np.ndarray) -> np.ndarray:
        """The prototype head's unit-length embedding of hidden layers (n, E)."""
        e = hidden @ self.w["ew"].T + self.w["eb"]
        return e / np.maximum(np.linalg.norm(e, axis=1, keepdims=True), 1e-12)

    def prototypes(self, x: np.ndarray, side: np.ndarray, drinks: np.ndarray) -> np.ndarray:
        """The 36 drinks' prototypes (36, E) from calibration pieces' channels and side numbers
        and their drinks' rows: each drink's mean embedding, unit length; a drink without a piece
        has a row of zeros (it then gains nothing from comparing)."""
        e = self.embedded(self.hidden(x, side)) if len(x) else np.zeros((0, len(self.w["eb"])), np.float32)
        sums = np.zeros((N_DRINKS, e.shape[1]), np.float32)
        np.add.at(sums, np.asarray(drinks, np.int64), e)
        norm = np.linalg.norm(sums, axis=1, keepdims=True)
        return np.where(norm > 1e-12, sums / np.maximum(norm, 1e-12), 0.0).astype(np.float32)

    def logits(self, x: np.ndarray, side: np.ndarray, protos: np.ndarray | None = None) -> np.ndarray:
        """Scores (n, 37) for crops' channels (n, H, W, CHANNELS) and side numbers (n, S);
        ``protos``: the set's prototypes (``prototypes``), for a network that compares."""
        w = self.w
        if not len(x):
            return np.zeros((0, len(w["f2b"])), np.float32)
        side = np.asarray(side, np.float32)
        hidden = self.hidden(x, side)
        out = hidden @ self._f2 + w["f2b"]
        if "res" in w:
            # the features variant: the feature scorer's log-probabilities (the last side
            # numbers) are the start, the pixels a correction to them
            out += w["res"] * side[:, -(N_DRINKS + 1):]
        if protos is not None and self.compares:
            out[:, :N_DRINKS] += float(w["scale"].reshape(-1)[0]) * (self.embedded(hidden) @ protos.T)
        return out


class PixelModel:
    """The network and its settings: temperature, the bar of a sure reading, whether the set's
    calibrated sizes (``drink_crops.set_sizes``, after the piece's own numbers) and whether the
    feature scorer's log-probabilities (last) are among its side numbers."""

    def __init__(self, net: PixelNet, settings: dict | None = None):
        settings = settings or {}
        self.net = net
        self.temperature = float(settings.get("temperature", 1.0))
        self.sure = float(settings.get("sure", 0.99))
        self.features = bool(settings.get("features", False))
        self.set_sizes = bool(settings.get("set_sizes", False))
        self.settings = settings
        if len(net.w["mean"]) != side_count(self.set_sizes, self.features):
            raise ValueError("the drink pixel network was trained on other inputs: run tools/learn_drink_pixels.py")

    def side(self, readings: list[dict], sharpness: float, profile) -> np.ndarray:
        """The side numbers of readings (with the feature scorer's view when the model takes it)."""
        own = self.with_set_sizes(side_inputs(readings, sharpness, profile), profile)
        return np.concatenate([own, feature_logp(readings, sharpness, profile)], axis=1) if self.features else own

    def with_set_sizes(self, own: np.ndarray, profile) -> np.ndarray:
        """Pieces' own side numbers (``side_inputs``), then the set's sizes when the model takes them."""
        if not self.set_sizes:
            return own
        return np.concatenate([own, np.repeat(set_sizes(profile)[None], len(own), axis=0)], axis=1)

    def prototypes(self, profile) -> np.ndarray | None:
        """The set's prototypes from the profile's calibration pieces (cached in the profile);
        None for a network that does not compare, or a profile without pieces."""
        pieces = getattr(profile, "pieces", None)
        if not self.net.compares or not pieces:
            return None
        cached = profile._cache.setdefault("prototypes", {})
        got = cached.get(id(self))
        if got is None or got[0] is not self:        # (the model kept beside them: an id is reused)
            got = cached[id(self)] = (self, self.net.prototypes(*self.piece_inputs(profile)))
        return got[1]

    def piece_inputs(self, profile) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The profile's calibration pieces as the network takes them: their channels, side
        numbers (their own three, then the set's sizes; a network that compares takes no feature
        scorer's view, which the pieces do not keep) and drinks' rows (colour-major)."""
        colours, shapes = [c.value for c in COLOURS], [s.value for s in SHAPES]
        rows, crops, sides = [], [], []
        for drink, (raw, side) in profile.pieces.items():
            colour, shape = drink.split("-", 1)
            rows += [colours.index(colour) * len(SHAPES) + shapes.index(shape)] * len(raw)
            crops.append(np.asarray(raw, np.float32))
            sides.append(self.with_set_sizes(np.asarray(side, np.float32), profile))
        return channels(np.concatenate(crops), references(profile)), np.concatenate(sides), np.array(rows)

    def probabilities(self, x: np.ndarray, side: np.ndarray, protos: np.ndarray | None = None) -> np.ndarray:
        out = [self.net.logits(x[s:s + 128], side[s:s + 128], protos) for s in range(0, len(x), 128)]
        z = (np.concatenate(out) if out else np.zeros((0, N_DRINKS + 1), np.float32)).astype(np.float64)
        z = z / self.temperature
        if not len(z):
            return z
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)


def side_count(with_set_sizes: bool, with_features: bool) -> int:
    """How many side numbers a network takes: the piece's, the set's sizes, the feature scorer's view."""
    return N_SIDE + (SET_SIZES if with_set_sizes else 0) + (N_DRINKS + 1 if with_features else 0)


def feature_logp(readings: list[dict], sharpness: float, profile) -> np.ndarray:
    """The learned feature scorer's log-probabilities of the 37 names, per reading (its inputs
    carry the rules' reading, as the reading holds it)."""
    from .learned import inputs, scorer
    model = scorer()
    if not readings:
        return np.zeros((0, N_DRINKS + 1), np.float32)
    x = np.stack([inputs(d["_f"], profile, sharpness, d) for d in readings])
    z = model.logits(x) / model.temperature
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return np.maximum(logp, LOGP_FLOOR).astype(np.float32)


def load(path: str | Path) -> PixelModel:
    with np.load(path) as data:
        weights = {k: data[k] for k in data.files if k != "settings"}
        settings = json.loads(str(data["settings"])) if "settings" in data.files else {}
    return PixelModel(PixelNet(weights), settings)


@cache
def pixel_model(path: str = str(NET_PATH)) -> PixelModel:
    if not Path(path).exists():
        raise FileNotFoundError(f"{path}: no drink pixel model; run tools/learn_drink_pixels.py (make model)")
    return load(path)


def save(path: Path, weights: dict[str, np.ndarray], settings: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, settings=np.array(json.dumps(settings, sort_keys=True)),
                        **{k: np.asarray(v, np.float32) for k, v in weights.items()})


def probabilities(readings: list[dict], an, profile, model: PixelModel | None = None,
                  raw: np.ndarray | None = None, mirror: bool = False) -> np.ndarray:
    """(n, 37) for readings with ``_f`` (and ``_piece``); ``raw``: their raw crops when already
    cut (the training tool's cache); ``mirror``: the mean of the crop's and its mirror image's
    across the piece's axis, both run as one batch (the channels are made pixel by pixel, so
    the mirror image's are the crop's turned over: made once)."""
    model = model or pixel_model()
    if raw is None:
        raw = raw_crops(readings, an, profile)
    x = channels(np.asarray(raw, np.float32), references(profile))
    side = model.side(readings, an.sharpness, profile)
    protos = model.prototypes(profile)
    if not mirror:
        return model.probabilities(x, side, protos)
    n = len(x)
    both = model.probabilities(np.concatenate([x, x[:, ::-1]]), np.concatenate([side, side]), protos)
    return 0.5 * (both[:n] + both[n:])


def rescore(readings: list[dict], an, profile, model: PixelModel | None = None,
            raw: np.ndarray | None = None) -> list[dict]:
    """Name the finished readings of a frame again from their pixels, in place (the hook of
    ``drinks.identify_analysis``); ``raw``: crops of the readings that have ``_f``, in order."""
    from .learned import renamed
    model = model or pixel_model()
    todo = [d for d in readings if "_f" in d]
    if not todo:
        return readings
    p = probabilities(todo, an, profile, model, raw)
    for d, row in zip(todo, p):
        order = np.argsort(-row[:N_DRINKS], kind="stable")
        best = int(order[0])
        ci, si = divmod(best, len(SHAPES))
        conf = float(row[best])
        why = ""
        if conf < model.sure:
            c2, s2 = divmod(int(order[1]), len(SHAPES))
            why = f"or {COLOURS[c2].value}-{SHAPES[s2].value}?"
            if row[N_DRINKS] > 0.1:
                why += f"; no single drink? ({row[N_DRINKS]:.2f})"
        renamed(d, {"color": COLOURS[ci].value, "shape": SHAPES[si].value, "confidence": round(conf, 3),
                    "unsure": conf < model.sure, "why": why}, profile)
    return readings
