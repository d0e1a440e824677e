"""Train the board reader's place model (companion/vision/board_read.py) on rendered boards.

    .venv/bin/python tools/learn_board.py              (data, training, export, report)
    .venv/bin/python tools/learn_board.py --measure    (only the report, with the committed model)
    .venv/bin/python tools/learn_board.py --recipe dev (the earlier model: development looks alone)

Data. Each look (96 of the training-only "varied" family of ``board_looks.py``, every property
a real table varies drawn widely: paper and piece gloss, wood or plastic, shifted hues, lamps
of any colour, fall-off and shadow, white balance, tilt up to 32 degrees, lenses, 960x540 to
1920x1080, JPEG, noise; and 40 of the development family, ``BoardLook.from_seed(seed, "dev")``)
renders its empty board (the reference, rectified as the
calibration keeps it) and then boards of sampled pieces (``sample_board`` here), some
of them under a changed lamp (the per-frame light correction is part of what is learned), some
bumped with two markers hidden. Every other development look is also seen through a camera of its own
(``Camera``: a wide-angle lens, a lamp close by whose light falls off across the board, JPEG,
more noise; the same lens and lamp for its reference): the development family alone is one
kind of camera, and the reader is to meet others. Every place of every board is one example:
the reader's own features of it (``BoardReader.features``) and its truth: empty, a player
colour, or a train. Frames with a hand over the board are left out (the reader takes nothing
from them).

Seeds: the recipe's "train" (+ DEV_TRAIN) looks for the weights, its "temper" (+ DEV_TEMPER) looks, themselves
varied, for the temperature and the bars of a sure
reading (``choose_sure``: apart for "empty" and for a piece, the lowest confidence at which the
sure readings of those looks were right at least SURE_RIGHT of the time and at most
SURE_WRONG_SHARE of their places sure and wrong, never below SURE_EMPTY_FLOOR and SURE_FLOOR),
HELD_OUT (dev) looks for the report (and VARIED_HELD_OUT with --measure). None is a seed
of the benchmark (dev 1000.., varied 330000.., eval 900000..) or of the tests (below 100); the evaluation family is
never used here.

Training: numpy alone: one tanh hidden layer, softmax over the classes, Adam on the
cross-entropy (the empty places, most of the board, weighted down), a fixed seed. The palette
(each player colour's chroma and brightness relative to the paper) is the mean over the
development training looks' pieces, its spread their standard deviation; the bar of "far from every
colour" is set so that no training piece of a player colour lies beyond it. Rendered features
are kept under build/learn_board/ (one file per look): a second run trains without rendering.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import pickle  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.board_layout import BoardLayout  # noqa: E402
from companion.board_pieces import PLAYER_COLOURS, Pieces  # noqa: E402
from companion.vision import board_model, board_read  # noqa: E402
from companion.vision.board_pose import BoardTracker, rectify  # noqa: E402

FAMILY = "varied"               # the training-only family of board_looks.py: every property varied widely
DEV_TRAIN = range(200_000, 200_040)   # development-family looks for the weights
DEV_TEMPER = range(210_000, 210_010)  # ... and for the temperature and the bars
# What a run trains on. "varied" (the default, the committed model): 96 "varied" looks beside
# the development looks for the weights, 24 others beside DEV_TEMPER for the bars, a wider
# network, and bars allowing 1 in 10 000 tempering places sure and wrong (none is reachable on
# varied looks short of leaving every piece unsure). "dev" (--recipe dev): the development looks
# alone, the model before (fewer unsure on dev, more sure and wrong elsewhere: docs/performance.md).
RECIPES = {
    "dev": {"train": range(0), "temper": range(0), "hidden": 24, "sure_right": 0.9995, "sure_wrong_share": 0.0},
    "varied": {"train": range(300_000, 300_096), "temper": range(300_096, 300_120), "hidden": 32,
               "sure_right": 0.999, "sure_wrong_share": 1e-4},
}
HELD_OUT = range(220_000, 220_010)    # development-family looks (and VARIED_HELD_OUT of the training family)
VARIED_HELD_OUT = range(320_000, 320_008)
BOARDS = 6                     # boards per look
SURE_RIGHT = 0.9995
FAR_MARGIN = 1.6             # how far beyond its training pieces a colour still counts as that colour
FAR_LEAST = 5.0               # ... and never nearer than this many spreads (a hue the training looks kept tight)
SURE_EMPTY_FLOOR = 0.95       # ... and for "empty"
SURE_FLOOR = 0.98             # never a lower bar: a sure reading is to be right
VALUE_PEAK = 4.0              # a value marker's change along its lane, in noise units (a grey marker on a grey lane shows ~5)
HIDDEN = 24
EPOCHS = 30
SEED = 2029
TRAIN_WEIGHT = 2.0             # a pale train on a pale stop is the hardest piece: weighed up
EMPTY_WEIGHT = 0.3             # the empty places are ~95 % of the examples
CACHE = ROOT / "build" / "learn_board"
DATA_VERSION = 8               # raised whenever the features or the boards rendered change


def labels_of(layout: BoardLayout, pieces: Pieces, truth: dict | None = None) -> dict[str, str]:
    """Spot id -> its true class (places not listed are empty). A meeple riding line L stands at
    the rider place the renderer's truth names (``placed``: each piece's spot), else the first."""
    out: dict[str, str] = {}
    for sid, colour in pieces.pyramids.items():
        out[f"station:{sid}"] = colour
    riders = {p["key"]: p["spot"] for p in (truth or {}).get("placed", [])
              if p["kind"] == "meeple" and str(p.get("spot", "")).startswith("ride:")}
    for colour, place in pieces.meeples.items():
        if place.startswith("field:"):
            out[place] = colour
        else:
            out[riders.get(colour, place + ":0")] = colour
    for letter, k in pieces.trains.items():
        out[f"stop:{letter}:{k}"] = "train"
    return out


def look_data(seed: int, family: str = "dev", boards: int = BOARDS, fresh: bool = False) -> dict:
    """The features and truth of every place of ``boards`` rendered boards of one look."""
    path = CACHE / f"{family}-{seed}-v{DATA_VERSION}.pkl"
    if path.exists() and not fresh:
        return pickle.loads(path.read_bytes())
    layout = BoardLayout.default()
    rng = np.random.default_rng([seed, 29])
    renderer, reference, tracker = _reference(seed, family, layout)
    model = board_model.spot_model() if board_model.MODEL_PATH.exists() and not _training() else _blank_model()
    reader = board_read.BoardReader(layout, reference, model=model, tracker=tracker)
    xs, ys, values = [], [], []
    for b in range(boards):
        pieces = sample_board(rng, layout)
        if b % 3 == 1:        # bumped, two markers hidden: the pose carried, the sheet resampled otherwise
            pair = tuple(int(m) for m in rng.choice(layout.marker_ids, 2, replace=False))
            frame, truth = renderer.render(pieces, rng=rng, bump=_bump().random(rng, angle=2.0, shift=12.0),
                                           hide_markers=pair)
        else:
            frame, truth = renderer.render(pieces, rng=rng)
        if b % 3 == 2:
            frame = relit(frame, rng)
        frame = renderer.camera(frame, rng)
        pose = reader.tracker.locate(frame)
        if pose.state == "lost":
            continue
        sheet = reader.sheet(frame, pose)
        x = reader.features(sheet, None, reader.lean(pose))
        lab = labels_of(layout, pieces, truth)
        y = np.array([board_model.CLASSES.index(lab.get(s.id, "empty")) for s in reader._sampling.spots])
        xs.append(x)
        ys.append(y)
        values.append({"truth": dict(pieces.values), "read": reader._values(sheet, None, pose)})
    data = {"x": np.concatenate(xs) if xs else np.zeros((0, board_model.N_FEATURES)),
            "y": np.concatenate(ys) if ys else np.zeros(0, int), "values": values}
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(data))
    return data


def _training() -> bool:
    return os.environ.get("LEARN_BOARD_TRAINING") == "1"


def _blank_model() -> board_model.SpotModel:
    """A model of the right shape whose weights do not matter: features alone are wanted."""
    n, k = board_model.N_FEATURES, len(board_model.CLASSES)
    return board_model.SpotModel({"inputs": board_model.feature_names(), "classes": list(board_model.CLASSES),
                                 "mean": [0.0] * n, "std": [1.0] * n, "w1": np.zeros((n, 1)).tolist(),
                                 "b1": [0.0], "w2": np.zeros((1, k)).tolist(), "b2": [0.0] * k})


def _bump():
    from companion.sim.board_looks import Bump
    return Bump


def _reference(seed: int, family: str, layout: BoardLayout):
    """The look's renderer and its empty board, rectified by the markers as the calibration does."""
    from companion.sim.board_looks import BoardLook
    from companion.sim.board_render import BoardRenderer
    renderer = BoardRenderer(layout, BoardLook.from_seed(seed, family))
    camera = Camera(seed, renderer.size, family)
    renderer.camera = camera
    empty, _ = renderer.render(Pieces(), rng=np.random.default_rng([seed, 1]))
    empty = camera(empty, np.random.default_rng([seed, 3]))
    tracker = BoardTracker(layout)
    pose = tracker.locate(empty)
    if pose.H is None:
        raise RuntimeError(f"look {family} {seed}: the empty board's markers were not found")
    return renderer, rectify(empty, pose, layout), tracker


class Camera:
    """What a look's own camera and lamp may add to its frames, beyond the development family:
    (for every other look) a wide-angle lens (barrel distortion), a lamp close by (light falling
    off across the board), JPEG and stronger noise. The same lens and lamp for the look's empty
    board (the reference) and its frames; JPEG and noise per frame. Seeded per look."""

    def __init__(self, seed: int, size: tuple[int, int], family: str = "dev"):
        rng = np.random.default_rng([seed, 77])
        # the "varied" family brings its own lenses, lamps and JPEG; the development family's
        # looks are given them here, every other one
        self.on = seed % 2 == 1 and family == "dev"
        w, h = size
        self.k = float(rng.uniform(0.03, 0.12)) if rng.random() < 0.7 else 0.0
        cx, cy = rng.uniform(-0.3, 1.3), rng.uniform(-0.3, 1.3)
        strength = rng.uniform(0.5, 2.5) if rng.random() < 0.7 else 0.0
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        d2 = ((xs / w - cx) ** 2 + (ys / h - cy) ** 2)
        fall = 1.0 / (1.0 + strength * d2)
        self.gain = (fall / fall.max() * rng.uniform(0.95, 1.15)).astype(np.float32)[..., None]
        self.quality = (45, 90)
        self.noise = float(rng.uniform(0.0, 3.0))
        self.map = None
        if self.k:
            from companion.vision.board_pose import undistort_points
            src = undistort_points(np.column_stack([xs.ravel(), ys.ravel()]), self.k, (w, h)).astype(np.float32)
            self.map = (src[:, 0].reshape(h, w), src[:, 1].reshape(h, w))

    def __call__(self, frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        if not self.on:
            return frame
        f = frame
        if self.map is not None:
            f = cv2.remap(f, self.map[0], self.map[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        f = f.astype(np.float32) * self.gain + rng.normal(0, self.noise, f.shape).astype(np.float32)
        f = np.clip(f, 0, 255).astype(np.uint8)
        q = int(rng.integers(*self.quality))
        return cv2.imdecode(cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, q])[1], cv2.IMREAD_COLOR)


def relit(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The frame under another lamp: a smooth gain across it, per channel (brighter or darker,
    warmer or cooler, more light on one side): the light a game night changes."""
    h, w = frame.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = xs / w - 0.5, ys / h - 0.5
    gain = np.empty((h, w, 3), np.float32)
    level = rng.uniform(0.7, 1.08)         # brighter than that, the paper would be blown out
    tilt = rng.normal(0, 0.15, 2)
    for c in range(3):
        gain[..., c] = level * rng.uniform(0.9, 1.1) * (1 + tilt[0] * u + tilt[1] * v)
    return np.clip(frame.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def sample_board(rng: np.random.Generator, layout: BoardLayout) -> Pieces:
    """A board to learn from: pyramids at up to 70 stations (more than the simulator's boards
    carry: a crowded board is the harder one), each player's meeple on a field or riding a
    line, trains, values."""
    stations = list(layout.pyramids)
    n = int(rng.integers(0, 70))
    pyramids = {s: PLAYER_COLOURS[int(rng.integers(5))] for s in rng.choice(stations, n, replace=False)}
    letters = list(layout.lanes)
    meeples = {}
    fields = rng.choice(len(layout.meeples), len(PLAYER_COLOURS), replace=False)
    for c, f in zip(PLAYER_COLOURS, fields):
        if rng.random() < 0.85:
            meeples[c] = (f"ride:{letters[int(rng.integers(len(letters)))]}" if rng.random() < 0.2 else f"field:{int(f)}")
    trains = {l: int(rng.integers(len(layout.stops[l]))) for l in letters if rng.random() < 0.85}
    values = {l: int(rng.integers(0, len(layout.values))) * layout.value_step for l in letters if rng.random() < 0.9}
    return Pieces(pyramids=pyramids, meeples=meeples, trains=trains, values=values)


def collect_both(varied, dev, fresh=False) -> tuple[np.ndarray, np.ndarray]:
    """The places of the "varied" looks ``varied`` and the development looks ``dev`` together."""
    xd, yd = collect(dev, "dev", fresh=fresh)
    if not len(varied):
        return xd, yd
    xv, yv = collect(varied, FAMILY, fresh=fresh)
    return np.concatenate([xv, xd]), np.concatenate([yv, yd])


def collect(seeds, family="dev", fresh=False) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for s in seeds:
        t0 = time.perf_counter()
        try:
            d = look_data(s, family, fresh=fresh)
        except RuntimeError as e:       # a look whose empty board's markers are not all found (a steep
            print(f"  {e}: left out", file=sys.stderr, flush=True)   # wide-angle view): no reference
            continue
        xs.append(d["x"])
        ys.append(d["y"])
        print(f"  look {family} {s}: {len(d['y'])} places ({time.perf_counter() - t0:.1f} s)", file=sys.stderr, flush=True)
    return np.concatenate(xs), np.concatenate(ys)


# --- training --------------------------------------------------------------------------------

def train(x: np.ndarray, y: np.ndarray, hidden: int = HIDDEN, epochs: int = EPOCHS, seed: int = SEED) -> dict:
    rng = np.random.default_rng(seed)
    n, m = x.shape
    k = len(board_model.CLASSES)
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std < 1e-6] = 1.0
    z_all = (x - mean) / std
    allowed = _allowed(x)
    weight = np.where(y == 0, EMPTY_WEIGHT, 1.0) * np.where(y == board_model.CLASSES.index("train"), TRAIN_WEIGHT, 1.0)
    params = {"w1": rng.normal(0, 1.0 / np.sqrt(m), (m, hidden)), "b1": np.zeros(hidden),
              "w2": rng.normal(0, 1.0 / np.sqrt(hidden), (hidden, k)), "b2": np.zeros(k)}
    moments = {p: (np.zeros_like(v), np.zeros_like(v)) for p, v in params.items()}
    lr, b1, b2, eps, decay = 3e-3, 0.9, 0.999, 1e-8, 1e-4
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(n)
        total = 0.0
        for s in range(0, n, 256):
            idx = order[s:s + 256]
            z, t, wt, al = z_all[idx], y[idx], weight[idx], allowed[idx]
            h = np.tanh(z @ params["w1"] + params["b1"])
            logit = h @ params["w2"] + params["b2"]
            logit = np.where(al, logit, -1e9)
            logit -= logit.max(axis=1, keepdims=True)
            p = np.exp(logit)
            p /= p.sum(axis=1, keepdims=True)
            total += float(-(wt * np.log(p[np.arange(len(t)), t] + 1e-12)).sum())
            g = p
            g[np.arange(len(t)), t] -= 1.0
            g *= wt[:, None] / wt.sum()
            grads = {"w2": h.T @ g, "b2": g.sum(axis=0)}
            gh = (g @ params["w2"].T) * (1 - h * h)
            grads["w1"] = z.T @ gh
            grads["b1"] = gh.sum(axis=0)
            step += 1
            for name, v in params.items():
                gr = grads[name] + (decay * v if name in ("w1", "w2") else 0.0)
                m1, m2 = moments[name]
                m1 *= b1
                m1 += (1 - b1) * gr
                m2 *= b2
                m2 += (1 - b2) * gr * gr
                v -= lr * (m1 / (1 - b1 ** step)) / (np.sqrt(m2 / (1 - b2 ** step)) + eps)
        if epoch % 10 == 9 or epoch == epochs - 1:
            print(f"  epoch {epoch + 1}: training loss {total / weight.sum():.5f}", file=sys.stderr, flush=True)
    return {"inputs": board_model.feature_names(), "classes": list(board_model.CLASSES),
            "mean": mean.tolist(), "std": std.tolist(), **{p: v.tolist() for p, v in params.items()}}


def _allowed(x: np.ndarray) -> np.ndarray:
    names = board_model.feature_names()
    is_train = x[:, names.index("kind_train")] > 0.5
    al = np.zeros((len(x), len(board_model.CLASSES)), bool)
    al[:, 0] = True
    al[is_train, board_model.CLASSES.index("train")] = True
    al[~is_train, 1:1 + len(PLAYER_COLOURS)] = True
    return al


def fit_temperature(model: dict, x: np.ndarray, y: np.ndarray) -> float:
    logits = board_model.SpotModel({**model, "temperature": 1.0}).logits(x)
    logits = np.where(_allowed(x), logits, -1e9)
    best = (np.inf, 1.0)
    for temp in np.exp(np.linspace(np.log(0.2), np.log(5.0), 81)):
        z = logits / temp
        z = z - z.max(axis=1, keepdims=True)
        loss = float(-(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(axis=1))).mean())
        best = min(best, (loss, float(temp)))
    return round(best[1], 4)


def choose_sure(model: dict, x: np.ndarray, y: np.ndarray, right: float = SURE_RIGHT,
                share: float = 0.0) -> tuple[float, float, dict]:
    """The bars of a sure reading, apart for "empty" and for a piece (a piece read where there
    is none is what a wrong proposal is made of; an empty place read where a piece stands hides
    a move, which the table notices anyway): for each, the lowest confidence from its floor up
    at which the held-out places so read were right at least ``right`` of the time and at most
    ``share`` of all the places were sure and wrong."""
    p = board_model.SpotModel(model).probabilities(x, _allowed(x))
    conf, best = p.max(axis=1), p.argmax(axis=1)
    ok = best == y
    bars = {}
    for name, sel, floor in (("empty", best == 0, SURE_EMPTY_FLOOR), ("piece", best > 0, SURE_FLOOR)):
        bar = 0.9999
        for t in np.round(np.arange(floor, 0.99991, 0.0005), 4):
            sure = sel & (conf >= t)
            if sure.any() and ok[sure].mean() >= right and (sure & ~ok).sum() <= share * len(y):
                bar = float(t)
                break
        bars[name] = bar
    sure = conf >= np.where(best == 0, bars["empty"], bars["piece"])
    return bars["piece"], bars["empty"], {"places": int(len(y)), "sure": int(sure.sum()),
                                          "wrong_sure": int((sure & ~ok).sum()), "unsure": int((~sure).sum())}


def palette(x: np.ndarray, y: np.ndarray) -> tuple[dict, dict, dict]:
    """Each player colour's hue (log b/g, log r/g of the piece against the paper's) as the
    training looks showed it: the median, the robust spread (MAD) per axis, and the bar of
    "not this colour": FAR_MARGIN times the distance (in spreads) that all but 1 in 2000
    training pieces of the colour stay within. Brightness is left out: shade changes it."""
    names = board_model.feature_names()
    cols = [names.index("chroma_bg"), names.index("chroma_rg")]
    pal, spread, far = {}, {}, {}
    for i, c in enumerate(PLAYER_COLOURS, start=1):
        v = x[y == i][:, cols]
        if len(v) < 20:
            continue
        m = np.median(v, axis=0)
        sd = np.maximum(1.4826 * np.median(np.abs(v - m), axis=0), 0.03)
        d = np.sqrt((((v - m) / sd) ** 2).sum(axis=1))
        pal[c], spread[c] = m.tolist(), sd.tolist()
        far[c] = round(max(FAR_MARGIN * float(np.quantile(d, 0.9995)), FAR_LEAST), 3)
    return pal, spread, far


def report(model: dict, x: np.ndarray, y: np.ndarray, title: str) -> None:
    p = board_model.SpotModel(model).probabilities(x, _allowed(x))
    conf, best = p.max(axis=1), p.argmax(axis=1)
    sure = conf >= np.where(best == 0, model.get("sure_empty", model.get("sure", 0.98)), model.get("sure", 0.98))
    ok = best == y
    print(f"{title}: {len(y)} places, right {ok.mean():.5f}, sure {sure.mean():.4f}, "
          f"wrong among sure {int((sure & ~ok).sum())}, unsure {int((~sure).sum())}")
    for i, c in enumerate(board_model.CLASSES):
        sel = y == i
        if sel.any():
            print(f"  {c:8s} {int(sel.sum()):7d}  right {ok[sel].mean():.4f}  unsure {(~sure[sel]).mean():.4f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--measure", action="store_true", help="only measure the committed model")
    ap.add_argument("--fresh", action="store_true", help="render again (ignore build/learn_board)")
    ap.add_argument("--looks", type=int, default=None, help="how many training looks (of the recipe's varied ones)")
    ap.add_argument("--recipe", choices=sorted(RECIPES), default="varied",
                    help='what to train on: "varied" (the committed model) or "dev" (development looks alone)')
    ap.add_argument("--palette", action="store_true", help="only learn the palette and the bars again (the committed network kept)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    os.environ["LEARN_BOARD_TRAINING"] = "1"
    rc = RECIPES[args.recipe]
    looks = list(rc["train"])[:args.looks] if args.looks is not None else list(rc["train"])
    if args.palette:
        model = json.loads(board_model.MODEL_PATH.read_text())
        model["palette"], model["palette_spread"], model["far"] = palette(*collect(DEV_TRAIN, "dev"))
        model["sure"], model["sure_empty"], got = choose_sure(model, *collect_both(rc["temper"], DEV_TEMPER), rc["sure_right"], rc["sure_wrong_share"])
        model["value_peak"] = VALUE_PEAK
        print(f"sure from {model['sure']} (empty {model['sure_empty']}): {got}")
        board_model.MODEL_PATH.write_text(json.dumps(_rounded(model), separators=(",", ":")) + "\n")
        print(f"palette {model['palette']}, bars {model['far']}")
        return 0
    if args.measure:
        model = json.loads(board_model.MODEL_PATH.read_text())
        report(model, *collect(HELD_OUT, fresh=args.fresh), "held-out dev looks")
        report(model, *collect(VARIED_HELD_OUT, FAMILY, fresh=args.fresh), f"held-out {FAMILY} looks")
        return 0
    x, y = collect_both(looks, DEV_TRAIN, fresh=args.fresh)
    model = train(x, y, hidden=rc["hidden"])
    xt, yt = collect_both(rc["temper"], DEV_TEMPER, fresh=args.fresh)
    model["temperature"] = fit_temperature(model, xt, yt)
    model["sure"], model["sure_empty"], got = choose_sure(model, xt, yt, rc["sure_right"], rc["sure_wrong_share"])
    print(f"temperature {model['temperature']}, sure from {model['sure']} (empty {model['sure_empty']}): {got}")
    # the palette of "no player's colour" from the development looks alone: the varied looks'
    # hues spread so far that an orange piece would pass for red or yellow (a table calibrates
    # its own colours: ``colours``)
    model["palette"], model["palette_spread"], model["far"] = palette(*collect(DEV_TRAIN, "dev"))
    model["value_peak"] = VALUE_PEAK
    board_model.MODEL_PATH.parent.mkdir(parents=True, exist_ok=True)
    board_model.MODEL_PATH.write_text(json.dumps(_rounded(model), separators=(",", ":")) + "\n")
    report(model, x, y, "training looks")
    report(model, *collect(HELD_OUT, fresh=args.fresh), "held-out dev looks")
    return 0


def _rounded(v):
    if isinstance(v, float):
        return round(v, 6)
    if isinstance(v, list):
        return [_rounded(e) for e in v]
    if isinstance(v, dict):
        return {k: _rounded(e) for k, e in v.items()}
    return v


if __name__ == "__main__":
    sys.exit(main())
