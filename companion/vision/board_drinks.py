"""Reading the drinks standing at stations (METRO DRINKS) on the TOKYO METRO board.

Each station has a drink place beside its pyramid (``BoardLayout.drink_spots()``: ``drink:<id>``).
A drink stands upright there; seen from above its lid or cap shows, and from a tilted camera its
side too, leaning away from the point under the camera as the other tall pieces do. The reader
says per drink place: empty, or a drink of one of the six colours. Not the shape: from above
the three cans differ only by their height, which a camera straight above cannot see, so the
reading is the colour alone (``Pieces.drinks`` then holds a colour id) and the table asks which
drink when the mover's supply has more than one of that colour (the bonus of a payout counts
colours only).

How (measured numbers and a small learned classifier, numpy at run time): at two heights of the
drink's body (its side and lid where the camera sees them) the median colour against the
sheet's paper and the empty board's own colour there, how much of the place differs from the
empty board beyond its local range, the change of the print's edges, darker and lighter apart,
and the ring round the base (a drink's shadow). No absolute colour or brightness goes in: the
lamp's colour and strength cancel against the paper, as for the other places. The place
network's layers (``board_net.PlaceNet``) over a 24 mm square of the sheet and of the empty
board round where the middle of a drink's body shows (:meth:`DrinkSpots.squares`), beside those
numbers (``models/board_drinks.npz``, trained by ``tools/learn_board_drinks.py --net`` on
rendered development and "varied" looks; its bar of a sure reading set on held-out development
looks) names the place; a name less sure than the bar is ``unsure``. (The numbers alone, through
two dense layers, left a fifth of the asked drinks of held-out looks unsure and made more sure
mistakes; the model file says which kind it is.) A place that barely changed is empty without
asking, and so is the drink place of a station read without a pyramid (a vending machine is
built only where a pyramid stands).

>>> len(DRINK_CLASSES), DRINK_CLASSES[0]
(7, 'empty')
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from ..board_layout import BoardLayout
from ..drinks import ALL_DRINKS, COLOURS
from .board_net import PAPER_EPS, PlaceNet, disc_offsets, patches

MODEL_PATH = Path(__file__).with_name("models") / "board_drinks.npz"
# The drink place's square for a model over its pixels (a PlaceNet): centred where the middle of
# a drink's body shows (its lean at this height), SQUARE mm a side
SQUARE_HEIGHT = 8.0
SQUARE = 24
DRINK_CLASSES = ("empty",) + tuple(c.value for c in COLOURS)
# the heights (mm) a drink is looked at: its lower body and its upper body (the stubby can is
# 14 mm tall, a bottle's body ends at ~16 mm): a camera straight above sees the lid at both
LOOK_HEIGHTS = (4.0, 11.0)
INNER_MM = 3.0           # the disc read at each height (a drink is 10-12 mm across)
RING_MM = (8.0, 11.0)    # the ring round the base (the drink's shadow, a neighbour's)
# A drink place whose base and body show next to no change (less than this share of them beyond
# the empty board's range) is empty: the classifier is not asked (of ~9000 training drinks one
# changed less; three in four empty places are untouched)
NO_CHANGE = 0.02
# METRO DRINKS plays with JIDOHANBAIKI's 36 drinks: six of each colour (six shapes)
PER_COLOUR = len(ALL_DRINKS) // len(COLOURS)


def feature_names() -> list[str]:
    per_height = ["colour_b", "colour_g", "colour_r", "ref_b", "ref_g", "ref_r", "change", "changed_3",
                  "spread", "lift", "top_bright"]
    return ([f"{n}@{int(h)}" for h in LOOK_HEIGHTS for n in per_height]
            + ["base_changed_3", "base_edges", "base_darker", "base_lighter", "ring_change", "ring_bright", "noise"])


def over_counted(best: np.ndarray, sure: np.ndarray) -> np.ndarray:
    """Per drink place, whether it is surely named a colour that more places are surely named
    than the game has drinks of (PER_COLOUR): a board cannot show them all, so the reading of
    that colour is wrong somewhere -- a lamp that turns every white lid mint, or a look that
    makes empty paper read as white -- and none of those places is sure (``best``: class index
    per place, 0 empty; ``sure``: sure per place).

    >>> over_counted(np.array([1] * 7 + [2]), np.ones(8, bool)).tolist()
    [True, True, True, True, True, True, True, False]
    """
    counts = np.bincount(best[sure], minlength=len(DRINK_CLASSES))
    counts[0] = 0
    return sure & (counts[best] > PER_COLOUR)


def asked_places(x: np.ndarray) -> np.ndarray:
    """Which drink places the classifier is asked about (rows of ``x``, feature_names()): those
    whose base or body changed at least NO_CHANGE."""
    names = feature_names()
    cols = [names.index(k) for k in ("base_changed_3", *(f"changed_3@{int(h)}" for h in LOOK_HEIGHTS))]
    return (x[:, cols] >= NO_CHANGE).any(axis=1)


def _gather(centres: np.ndarray, offsets: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Flat pixel indices (n, k) of ``offsets`` (k, 2) round ``centres`` (n, 2), kept on the sheet."""
    h, w = shape
    c = np.round(centres).astype(np.int64)
    x = np.clip(c[:, None, 0] + offsets[None, :, 0], 0, w - 1)
    y = np.clip(c[:, None, 1] + offsets[None, :, 1], 0, h - 1)
    return y * w + x


@dataclass(frozen=True)
class Maps:
    """Per pixel of the sheet (flat), what the board reader measured once for every place:
    colours darker and lighter than the empty board's local range (relative to the paper), the
    change of the print's edges, the brightness (sum of the channels)."""

    darker: np.ndarray
    lighter: np.ndarray
    edges: np.ndarray
    luma: np.ndarray


class DrinkModel:
    """The exported classifier: standardisation, two layers, the temperature and the bar of a
    sure reading (``sure``); or, where the weights are a :class:`~.board_net.PlaceNet`'s, that
    network over the drink place's square (:meth:`DrinkSpots.squares`) beside the same numbers."""

    def __init__(self, weights: dict[str, np.ndarray], settings: dict):
        if settings.get("inputs") != feature_names() or tuple(settings.get("classes", ())) != DRINK_CLASSES:
            raise ValueError("the drink model was trained on other inputs: run tools/learn_board_drinks.py")
        self.net = PlaceNet(weights) if "c1w" in weights else None
        self.w = {k: np.asarray(v, np.float64) for k, v in weights.items()}
        self.temperature = float(settings.get("temperature", 1.0))
        self.sure = float(settings.get("sure", 0.99))

    def probabilities(self, x: np.ndarray, squares: np.ndarray | None = None) -> np.ndarray:
        w = self.w
        if not len(x):
            return np.zeros((0, len(DRINK_CLASSES)))
        if self.net is not None:
            if squares is None:
                raise ValueError("the drink network reads the drink places' squares")
            s = self.net.logits(squares, np.asarray(x, np.float32)).astype(np.float64) / self.temperature
        else:
            z = (np.asarray(x, np.float64) - w["mean"]) / w["std"]
            hidden = np.maximum(z @ w["w1"] + w["b1"], 0)
            s = (hidden @ w["w2"] + w["b2"]) / self.temperature
        s = np.exp(s - s.max(axis=1, keepdims=True))
        return s / s.sum(axis=1, keepdims=True)


def save_model(weights: dict[str, np.ndarray], settings: dict, path: Path = MODEL_PATH) -> None:
    """Write the model (tools/learn_board_drinks.py): weights and settings in one npz."""
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, settings=np.array(json.dumps(settings, sort_keys=True)),
                        **{k: np.asarray(v, np.float32) for k, v in weights.items()})


@cache
def drink_model(path: str = str(MODEL_PATH)) -> DrinkModel:
    with np.load(path) as data:
        settings = json.loads(str(data["settings"]))
        weights = {k: data[k] for k in data.files if k != "settings"}
    return DrinkModel(weights, settings)


class DrinkSpots:
    """The drink places of one board, read against its empty board (``reference``, the sheet at
    1 px per mm, and its darkest and lightest within the reader's tolerance: ``lo``, ``hi``)."""

    def __init__(self, layout: BoardLayout, reference: np.ndarray, paper: np.ndarray, px_per_mm: float,
                 model: DrinkModel | None = None):
        self.spots = tuple(layout.drink_spots())
        self.ids = tuple(s.id for s in self.spots)
        self.centres = np.array([(s.x, s.y) for s in self.spots], np.float64).reshape(-1, 2) * px_per_mm
        self.heights = np.array(LOOK_HEIGHTS, np.float64)
        self.shape = reference.shape[:2]
        self.flat_ref = reference.reshape(-1, 3)
        self.reference = reference
        self.paper = np.asarray(paper, np.float64)
        self.px = px_per_mm
        self._inner = disc_offsets(0.0, INNER_MM * px_per_mm)
        r = layout.radius.get("drink", 6.0) * px_per_mm
        self._base = disc_offsets(0.0, 0.8 * r)
        self._ring = disc_offsets(RING_MM[0] * px_per_mm, RING_MM[1] * px_per_mm)
        self._model = model

    @property
    def model(self) -> DrinkModel:
        if self._model is None:
            self._model = drink_model()
        return self._model

    def features(self, sheet: np.ndarray, maps: Maps, noise: float, lean_of) -> np.ndarray:
        """Per drink place, the classifier's inputs (feature_names()); ``lean_of(centres, heights)``
        says how far (px) a point ``heights`` mm up over each of ``centres`` shows from it."""
        n = len(self.spots)
        if not n:
            return np.zeros((0, len(feature_names())))
        flat = sheet.reshape(-1, 3)
        paper = self.paper + PAPER_EPS
        scale = float(self.paper.sum())
        change = maps.darker + maps.lighter
        ring = _gather(self.centres, self._ring, self.shape)
        ring_luma = maps.luma[ring].mean(axis=1) + 3 * PAPER_EPS
        cols = []
        for h in self.heights:
            at = self.centres + lean_of(self.centres, np.full(n, h))
            idx = _gather(at, self._inner, self.shape)
            k = idx.shape[1]
            med = np.sort(flat[idx], axis=1)[:, k // 2]          # the median (a sort: quicker here)
            ref = np.sort(self.flat_ref[idx], axis=1)[:, k // 2]
            d = change[idx]
            luma = maps.luma[idx]
            # a lit lid stands out from its own shadow round the base; a shadow falling on an
            # empty place darkens both alike
            lift = np.log((luma.mean(axis=1) + 3 * PAPER_EPS) / ring_luma)
            srt, q = np.sort(luma, axis=1), 0.9 * (k - 1)   # the 90th percentile, as np.quantile has it
            lo = int(q)
            top_luma = srt[:, lo] + (q - lo) * (srt[:, min(lo + 1, k - 1)] - srt[:, lo])
            top = np.log((top_luma + 3 * PAPER_EPS) / (scale + 3 * PAPER_EPS))
            cols += [np.log((med + PAPER_EPS) / paper), np.log((ref + PAPER_EPS) / paper),
                     d.mean(axis=1, keepdims=True), (d > 3 * noise).mean(axis=1, keepdims=True),
                     (luma / scale).std(axis=1, keepdims=True), lift[:, None], top[:, None]]
        base = _gather(self.centres, self._base, self.shape)
        bd = change[base]
        ring_bright = np.log((maps.luma[ring].mean(axis=1) + 3 * PAPER_EPS)
                             / (self.flat_ref[ring].sum(axis=2).mean(axis=1) + 3 * PAPER_EPS))
        cols += [(bd > 3 * noise).mean(axis=1, keepdims=True), maps.edges[base].mean(axis=1, keepdims=True) / scale,
                 maps.darker[base].mean(axis=1, keepdims=True), maps.lighter[base].mean(axis=1, keepdims=True),
                 change[ring].mean(axis=1, keepdims=True), ring_bright[:, None], np.full((n, 1), noise)]
        return np.concatenate(cols, axis=1)

    def squares(self, sheet: np.ndarray, lean_of, rows: np.ndarray | None = None, size: int = SQUARE) -> np.ndarray:
        """Per drink place (those of ``rows``: all by default), the square a network over its
        pixels reads (board_net.patches: the sheet's and the empty board's, log colour against
        the paper) round where the middle of a drink's body shows."""
        centres = self.centres if rows is None else self.centres[rows]
        at = centres + lean_of(centres, np.full(len(centres), SQUARE_HEIGHT))
        return patches(sheet, self.reference, self.paper, at, size)

    def read(self, x: np.ndarray, stations: set[str] | None = None,
             doubtful: set[str] = frozenset(), squares_of=None) -> tuple[dict[str, str], list[str]]:
        """``drinks`` {station id: colour} read surely, and the drink places read with doubt.
        ``stations``: the stations where a pyramid surely stands (a vending machine is built only
        at a station with a pyramid; its colour may be in doubt): the drink places of the others
        are empty (None: all stations are asked about); ``doubtful``: those whose pyramid may not
        be there: their
        drink places are doubtful too unless untouched (a pose or a lens a few millimetres off
        puts pyramid and drink both where the reader does not look for them)."""
        changed = asked_places(x)
        asked = changed.copy()
        if stations is not None:
            asked &= np.array([sid.partition(":")[2] in stations for sid in self.ids], bool)
        p = np.zeros((len(x), len(DRINK_CLASSES)))
        p[:, 0] = 1.0
        if asked.any():
            rows = np.flatnonzero(asked)
            sq = squares_of(rows) if self.model.net is not None and squares_of is not None else None
            p[asked] = self.model.probabilities(x[asked], sq)
        best = p.argmax(axis=1)
        sure = p[np.arange(len(p)), best] >= self.model.sure
        sure &= ~(changed & np.array([sid.partition(":")[2] in doubtful for sid in self.ids], bool))
        sure &= ~over_counted(best, sure)
        drinks: dict[str, str] = {}
        unsure: list[str] = []
        for i, sid in enumerate(self.ids):
            if not sure[i]:
                unsure.append(sid)
            elif best[i]:
                drinks[sid.partition(":")[2]] = DRINK_CLASSES[best[i]]
        return drinks, unsure
