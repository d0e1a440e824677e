"""The board reader's learned place model: what it is given (:func:`feature_names`, beside the
squares of :mod:`.board_net`), what it names (:data:`CLASSES`), and the model as exported
(:class:`SpotModel`: the network's weights in ``models/board_net.npz``, its settings -- the
temperature of its scores, the bars of a sure reading, the player colours' palette -- in
``models/board_spots.json``; tools/learn_board.py trains and writes both).
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import numpy as np

from ..board_pieces import PLAYER_COLOURS
from .board_net import NET_PATH, PlaceNet

MODEL_PATH = Path(__file__).with_name("models") / "board_spots.json"
KINDS = ("meeple", "pyramid", "train", "rider")
CLASSES = ("empty",) + PLAYER_COLOURS + ("train",)
# A place whose base shows less of it changed than this holds no piece (the network is not asked):
# every piece of the training looks changed at least 5 % of its base (tools/learn_board.py
# reports any it would have missed).
NO_CHANGE = 0.02


def feature_names() -> list[str]:
    return (["change", "changed_3", "changed_6", "spread", "base_change", "base_changed_3", "base_edges",
             "base_darker", "base_lighter"]
            + [f"colour_{c}" for c in "bgr"] + ["chroma_bg", "chroma_rg", "bright"]
            + [f"ref_{c}" for c in "bgr"] + [f"diff_{c}" for c in "bgr"]
            + ["ring_change", "ring_bright"]
            + [f"kind_{k}" for k in KINDS])


N_FEATURES = len(feature_names())
_KIND_TRAIN = feature_names().index("kind_train")
_BASE_CHANGED = feature_names().index("base_changed_3")
_TRAIN = CLASSES.index("train")


def asked(x: np.ndarray) -> np.ndarray:
    """Which places the network is asked about: those whose base changed at least NO_CHANGE
    (the others are empty)."""
    return x[:, _BASE_CHANGED] >= NO_CHANGE


def allowed_names(x: np.ndarray) -> np.ndarray:
    """Which names each place may have, by the kind among its measured numbers: a stop is empty
    or holds a train; any other place is empty or holds a piece of a player colour."""
    is_train = x[:, _KIND_TRAIN] > 0.5
    al = np.zeros((len(x), len(CLASSES)), bool)
    al[:, 0] = True
    al[is_train, CLASSES.index("train")] = True
    al[~is_train, 1:1 + len(PLAYER_COLOURS)] = True
    return al


class SpotModel:
    """The exported model: the network (:class:`~.board_net.PlaceNet`) and its settings: the
    temperature of its scores, ``sure`` the bar of a confident player colour, ``sure_train`` of
    a confident train and ``sure_empty`` of a confident "empty" (``clear_of_drinks``: any of them
    apart for places clear of drinks), ``palette`` the player colours' chroma against the paper
    as the development looks showed them (with its spread and the bar ``far`` of no player's
    colour), ``value_peak`` the least change along a lane that is a value marker."""

    def __init__(self, settings: dict, net: PlaceNet):
        if settings.get("inputs") != feature_names() or tuple(settings.get("classes", ())) != CLASSES:
            raise ValueError("the board spot model was trained on other inputs: run tools/learn_board.py")
        self.net = net
        self.temperature = float(settings.get("temperature", 1.0))
        self.sure = float(settings.get("sure", 0.98))                    # a piece's name
        self.sure_empty = float(settings.get("sure_empty", self.sure))  # "empty"
        # a stop's question is "a train or nothing", not which colour: its errors are others
        self.sure_train = float(settings.get("sure_train", self.sure))
        # the bars above hold where a drink stands within ``clear_mm`` (METRO DRINKS: a drink's
        # body beside a stop is what the network takes for a train); those given here hold clear
        # of every drink (tools/learn_board.py sets the train's; the others default to the above)
        clear = settings.get("clear_of_drinks") or {}
        self.clear_mm = float(clear.get("mm", 0.0))
        self.clear_bars = tuple(float(clear.get(k, getattr(self, k))) for k in ("sure_empty", "sure_train", "sure"))
        # per player colour: its chroma (log b/g, log r/g against the paper), the spread of it,
        # and how many spreads away a piece is of no player's colour
        self.palette = {c: np.array(v) for c, v in settings.get("palette", {}).items()}
        self.palette_spread = {c: np.array(v) for c, v in settings.get("palette_spread", {}).items()}
        self.far = {c: float(v) for c, v in settings.get("far", {}).items()}
        self.value_peak = float(settings.get("value_peak", 6.0))

    def bars(self, best: np.ndarray, clear: np.ndarray | None = None) -> np.ndarray:
        """Per place, the bar its reading must reach to be sure, by the name it is read as
        (``best``: indices into CLASSES) and, where ``clear`` says so, for a place clear of drinks.

        >>> m = SpotModel({"inputs": feature_names(), "classes": CLASSES, "sure": 0.99, "sure_empty": 0.98,
        ...                "sure_train": 0.995, "clear_of_drinks": {"mm": 40, "sure_empty": 0.9}}, None)
        >>> m.bars(np.array([0, 1, 6, 0]), clear=np.array([False, True, True, True])).tolist()
        [0.98, 0.99, 0.995, 0.9]
        """
        near = np.where(best == 0, self.sure_empty, np.where(best == _TRAIN, self.sure_train, self.sure))
        if clear is None:
            return near
        empty, train, colour = self.clear_bars
        return np.where(clear, np.where(best == 0, empty, np.where(best == _TRAIN, train, colour)), near)

    def probabilities_of(self, squares: np.ndarray, x: np.ndarray) -> np.ndarray:
        """Per place, the probability of each name (CLASSES), names its kind cannot have at 0."""
        out = [self.net.logits(squares[s:s + 1024].astype(np.float32, copy=False), x[s:s + 1024])
               for s in range(0, len(x), 1024)] or [np.zeros((0, len(CLASSES)), np.float32)]
        z = np.concatenate(out).astype(np.float64) / self.temperature
        z = np.where(allowed_names(x), z, -np.inf)
        z = np.exp(z - z.max(axis=1, keepdims=True))
        return z / z.sum(axis=1, keepdims=True)


def save(settings: dict, weights: dict[str, np.ndarray], settings_path: Path = MODEL_PATH,
         net_path: Path = NET_PATH) -> None:
    """Write the model (tools/learn_board.py): the settings as JSON, the weights as npz."""
    settings_path.parent.mkdir(parents=True, exist_ok=True)
    settings_path.write_text(json.dumps(_rounded(settings), separators=(",", ":"), sort_keys=True) + "\n",
                             encoding="utf-8")
    np.savez_compressed(net_path, **{k: np.asarray(v, np.float32) for k, v in weights.items()})


def _rounded(v):
    if isinstance(v, float):
        return round(v, 6)
    if isinstance(v, list):
        return [_rounded(e) for e in v]
    if isinstance(v, dict):
        return {k: _rounded(e) for k, e in v.items()}
    return v


@cache
def spot_model(settings_path: str = str(MODEL_PATH), net_path: str = str(NET_PATH)) -> SpotModel:
    with np.load(net_path) as data:
        net = PlaceNet({k: data[k] for k in data.files})
    return SpotModel(json.loads(Path(settings_path).read_text(encoding="utf-8")), net)
