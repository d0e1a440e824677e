"""The value markers on the TOKYO METRO board's revenue track, named by a small network run
along each line's lane (issue 29).

Its input for a lane (:meth:`LaneStrips.strips`) is a strip of the rectified sheet along it,
WIDTH mm wide and the track's length plus MARGIN mm at each end, brought to the empty board's
light, beside the same strip of the empty board: six channels of log colour against the
paper, as the place network's squares (``board_net.patches``), the strip's columns averaged in
pairs (a marker is found along the lane, not across it). Two 3x3 convolutions (ReLU, the
columns max-pooled in pairs between them), the maximum across what is left of the width, then
two convolutions along the lane (5 rows; 9 rows two apart) and a score for every row: "a
marker's face is centred here". A value space's score is the row score where its marker's
face shows (:meth:`LaneStrips.rows`: the space moved by the lean of a face ``FACE_MM`` over
the board, away from the point under the camera, read between rows); beside the spaces' scores
one learned score for "no marker on this lane". A softmax over those (with the temperature)
gives how sure the reading is.

Seeing the whole lane at once, the network weighs every place the marker could be against the
others (a tilted camera's face half a space off, a rider's shadow, a neighbour's marker); it
runs with numpy alone, 12 lanes in a few milliseconds on one core. ``tools/learn_board_values.py``
trains it (PyTorch, a training tool) and writes ``models/board_values.npz`` and
``board_values.json``; without them the reader keeps the rules' way (``board_values.ValueLanes``).

>>> from companion.board_layout import BoardLayout
>>> layout = BoardLayout.default()
>>> net = ValueNet.random(seed=0)
>>> cut = LaneStrips(layout)
>>> sheet = np.full((540, 967, 3), 200, np.float32)
>>> s = cut.strips(sheet, sheet, np.array([200, 200, 200], np.float32))
>>> s.shape[0], s.shape[2:], net.logits(s, np.repeat(cut.rows(None)[None], 12, axis=0)).shape
(12, (10, 6), (12, 62))
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..board_layout import BoardLayout
from .board_net import CLIP, PAPER_EPS, float_weights
from .board_net import NET_PATH as PLACE_NET_PATH
from .board_pose import PX_PER_MM, Pose
from .board_viewpoint import camera_above
from .model_files import load_net

NET_PATH = PLACE_NET_PATH.with_name("board_values.npz")
SETTINGS_PATH = PLACE_NET_PATH.with_name("board_values.json")
WIDTH = 20               # mm (px) across the lane: the 16 mm lane and a little of each neighbour
MARGIN = 16              # mm beyond the track's first and last space (a face leaning out, the network's reach)
FACE_MM = 3.0            # mm: the marker's face over the board (the disc's thickness)
CHANNELS = (12, 16)      # the two convolutions over the strip
LANE = (24, 24)          # the two convolutions along the lane
REACH = 1 + 1 + 2 + 8    # rows the convolutions eat at each end (3, 3, 5, 9 two apart)
KEYS = ("c1w", "c1b", "c2w", "c2b", "l1w", "l1b", "l2w", "l2b", "ow", "ob", "none")


class LaneStrips:
    """Where the lanes lie on one layout's rectified sheet, and how to cut them."""

    def __init__(self, layout: BoardLayout):
        self.layout = layout
        self.letters = tuple(layout.lanes)
        ys = np.asarray(layout.values, np.float64) * PX_PER_MM
        self.top = int(np.floor(ys.min())) - MARGIN
        self.length = int(np.ceil(ys.max())) + MARGIN - self.top + 1
        self.space_y = ys
        xs = np.array([layout.lanes[c] for c in self.letters]) * PX_PER_MM
        self.left = np.round(xs).astype(int) - WIDTH // 2

    def strips(self, sheet: np.ndarray, reference: np.ndarray | None, paper: np.ndarray,
               reference_half: np.ndarray | None = None) -> np.ndarray:
        """(lanes, length, WIDTH // 2, 6) float32: each lane's strip of ``sheet`` then of
        ``reference``, log colour against ``paper``, column pairs averaged (off the sheet: its
        edge). ``reference_half``: the reference's half made before by :meth:`half` (it is the
        same for every frame)."""
        ref = self.half(reference, paper) if reference_half is None else reference_half
        return np.concatenate([self.half(sheet, paper), ref], axis=3)

    def half(self, image: np.ndarray, paper: np.ndarray) -> np.ndarray:
        """(lanes, length, WIDTH // 2, 3) float32: each lane's strip of ``image`` as log colour
        against ``paper``, clipped, column pairs averaged."""
        h, w = image.shape[:2]
        rows = np.clip(np.arange(self.top, self.top + self.length), 0, h - 1)
        lo, hi = int(rows[0]), int(rows[-1]) + 1
        contiguous = hi - lo == self.length           # the whole track on the sheet: slices, not indexing
        out = np.empty((len(self.letters), self.length, WIDTH, 3), np.float32)
        for i, left in enumerate(self.left):
            if contiguous and left >= 0 and left + WIDTH <= w:
                out[i] = image[lo:hi, left:left + WIDTH]
            else:
                out[i] = image[rows[:, None], np.clip(np.arange(left, left + WIDTH), 0, w - 1)[None, :]]
        out += PAPER_EPS
        np.log(out, out=out)
        out -= np.log(np.asarray(paper, np.float32) + PAPER_EPS)
        np.clip(out, *CLIP, out=out)
        pairs = out.reshape(len(self.letters), self.length, WIDTH // 2, 2, 3)
        return (pairs[:, :, :, 0] + pairs[:, :, :, 1]) * 0.5

    def rows(self, pose: Pose | None) -> np.ndarray:
        """(spaces,) float: the row of a lane's strip where a marker's face on each value space
        shows (its place moved away from the point under the camera by the face's height)."""
        y = self.space_y
        lean = _camera(pose)
        if lean is not None:
            cy, height = lean
            y = y + (y - cy * PX_PER_MM) * FACE_MM / max(height - FACE_MM, 1.0)
        return y - self.top


def _camera(pose: Pose | None) -> tuple[float, float] | None:
    """The y (mm) of the point under the camera and its height (mm), when the pose says them."""
    if pose is None or pose.H is None or not pose.size[0]:
        return None
    try:
        _, cy, height = camera_above(pose)
    except (np.linalg.LinAlgError, ValueError):
        return None
    if not np.isfinite([cy, height]).all() or height < 100.0:
        return None
    return float(cy), float(height)


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray, dilation: int = 1, relu: bool = True) -> np.ndarray:
    """A convolution without padding: x (n, h, w, c), weights (out, c, kh, kw) as PyTorch keeps
    them, rows ``dilation`` apart -> (n, h - (kh-1)*dilation, w - kw + 1, out): the windows
    laid side by side (offset by offset, channels innermost) and one matrix product."""
    out_c, c, kh, kw = w.shape
    n, h, wd, _ = x.shape
    ho, wo = h - (kh - 1) * dilation, wd - kw + 1
    cols = np.concatenate([x[:, i * dilation:i * dilation + ho, j:j + wo, :] for i in range(kh) for j in range(kw)],
                          axis=3)
    y = cols.reshape(n * ho * wo, kh * kw * c) @ w.transpose(2, 3, 1, 0).reshape(kh * kw * c, out_c)
    y += b
    if relu:
        np.maximum(y, 0, out=y)
    return y.reshape(n, ho, wo, out_c)


def _pool_columns(x: np.ndarray) -> np.ndarray:
    n, h, w, c = x.shape
    return x[:, :, :w // 2 * 2].reshape(n, h, w // 2, 2, c).max(axis=3)


class ValueNet:
    """The exported network (weights as PyTorch keeps them)."""

    def __init__(self, weights: dict[str, np.ndarray]):
        self.w = float_weights(weights, KEYS, "board value network", "tools/learn_board_values.py")

    @classmethod
    def random(cls, seed: int = 0) -> "ValueNet":
        """A network of the right shapes with random weights (for tests of the plumbing)."""
        rng = np.random.default_rng(seed)
        (c1, c2), (l1, l2) = CHANNELS, LANE
        shapes = {"c1w": (c1, 6, 3, 3), "c1b": (c1,), "c2w": (c2, c1, 3, 3), "c2b": (c2,),
                  "l1w": (l1, c2, 5, 1), "l1b": (l1,), "l2w": (l2, l1, 9, 1), "l2b": (l2,),
                  "ow": (1, l2, 1, 1), "ob": (1,), "none": (1,)}
        return cls({k: rng.normal(0, 0.1, s) for k, s in shapes.items()})

    def row_scores(self, strips: np.ndarray) -> np.ndarray:
        """(lanes, length - 2 * REACH): the score of a marker's face centred on each row."""
        w = self.w
        x = _pool_columns(_conv(strips.astype(np.float32, copy=False), w["c1w"], w["c1b"]))
        x = _conv(x, w["c2w"], w["c2b"]).max(axis=2, keepdims=True)
        x = _conv(x, w["l1w"], w["l1b"])
        x = _conv(x, w["l2w"], w["l2b"], dilation=2)
        return _conv(x, w["ow"], w["ob"], relu=False)[:, :, 0, 0]

    def logits(self, strips: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """(lanes, spaces + 1): each value space's score (the row scores read between rows at
        ``rows``, (lanes, spaces)) and last the score of an empty lane."""
        s = self.row_scores(strips)
        at = np.clip(np.asarray(rows, np.float64) - REACH, 0, s.shape[1] - 1.001)
        i = np.floor(at).astype(int)
        f = at - i
        picked = np.take_along_axis(s, i, axis=1) * (1 - f) + np.take_along_axis(s, i + 1, axis=1) * f
        none = np.full((len(s), 1), float(self.w["none"][0]))
        return np.concatenate([picked, none], axis=1)


class ValueModel:
    """The network with its settings: the temperature and the bar of a sure reading."""

    def __init__(self, net: ValueNet, settings: dict):
        self.net = net
        self.temperature = float(settings.get("temperature", 1.0))
        self.sure = float(settings.get("sure", 0.999))

    def probabilities(self, strips: np.ndarray, rows: np.ndarray) -> np.ndarray:
        z = self.net.logits(strips, rows) / self.temperature
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)


@lru_cache(maxsize=1)
def value_model() -> ValueModel | None:
    """The committed model, or None when there is none (the reader then keeps the rules' way)."""
    loaded = load_net(SETTINGS_PATH, NET_PATH)
    if loaded is None:
        return None
    weights, settings = loaded
    return ValueModel(ValueNet(weights), settings)


class LearnedLanes:
    """Reads every lane's value marker of one board with the value network (the interface of
    ``board_values.ValueLanes``: ``read(sheet, pose, peak_bar)``)."""

    def __init__(self, layout: BoardLayout, reference: np.ndarray, paper: np.ndarray, model: ValueModel):
        self.layout = layout
        self.reference = reference
        self.paper = paper
        self.model = model
        self.cut = LaneStrips(layout)
        self._reference_half = self.cut.half(reference, paper)

    def read(self, sheet: np.ndarray, pose: Pose | None, peak_bar: float = 0.0) -> tuple[dict[str, int], list[str]]:
        """The values read surely (letter -> yen) and the unsure lanes (``value:<L>``); a lane
        surely empty is neither."""
        strips = self.cut.strips(sheet, None, self.paper, self._reference_half)
        rows = np.repeat(self.cut.rows(pose)[None], len(strips), axis=0)
        p = self.model.probabilities(strips, rows)
        best, conf = p.argmax(axis=1), p.max(axis=1)
        values, unsure = {}, []
        spaces = len(self.layout.values)
        for letter, k, c in zip(self.cut.letters, best, conf):
            if c < self.model.sure:
                unsure.append(f"value:{letter}")
            elif k < spaces:
                values[letter] = int(k) * self.layout.value_step
        return values, unsure
