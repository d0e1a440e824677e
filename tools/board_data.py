"""Rendered boards for the board reader's place network (companion/vision/board_net.py), cut
into the squares and numbers the reader sees of each place, with the truth.

    .venv/bin/python tools/board_data.py --family varied --seeds 300000 300240
    .venv/bin/python tools/board_data.py --family dev --seeds 200000 200040

Each look (``BoardLook.from_seed(seed, family)``) renders its empty board (the reference,
rectified as the calibration keeps it) and then BOARDS boards of sampled pieces
(``sample_board``: a crowded board is the harder one; METRO DRINKS' drinks beside 0-36 of its
pyramids, ``with_drinks``), some under a changed lamp (``relit``),
some bumped with two markers hidden; every other development look is also seen through a
camera of its own (``Camera``: the development family alone is one kind of camera). Each board
is read as the reader reads it: located, rectified, relit, its places' measured numbers
(``BoardReader.features``) and squares (``board_net.patches``) taken. Kept of every board: each
place with a piece, each empty place whose base changed (the ones the network is asked about:
``board_model.NO_CHANGE``), and a few untouched empty places; the rest is counted. Frames with a
hand over the board are left out (the reader takes nothing from them).

One file per look under build/learn_board/ (``<family>-<seed>-v<DATA_VERSION>.npz``): a second
run reuses it. Seeds: see tools/learn_board.py (none is a seed of the benchmark or the tests;
the evaluation family is never rendered here). ``collect`` gathers many looks' places into one
set, the squares written to a file one look at a time and mapped from it (more looks than the
machine's memory holds).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.board_layout import BoardLayout  # noqa: E402
from companion.board_pieces import PLAYER_COLOURS, Pieces  # noqa: E402
from companion.sim.board_dataset import with_drinks  # noqa: E402
from companion.vision import board_model, board_net, board_read  # noqa: E402
from companion.vision.board_pose import empty_reference  # noqa: E402

BOARDS = 6                     # boards per look
STORED_PATCH = 28              # mm a side of the squares kept: the network reads board_net.PATCH of it, moved a little at random in training (a pose a mm or two off)
UNTOUCHED_SHARE = 0.02         # of the empty places whose base did not change, this share is kept
GATE_SHARE = 0.5               # ... and all whose base changed by half the reader's bar or more
CACHE = ROOT / "build" / "learn_board"
DATA_VERSION = 13              # raised whenever the squares, numbers or boards rendered change (11: pose refined;
                               # 12: a two-marker frame aligned to the print, squares of STORED_PATCH; 13: drinks)
FAMILIES = ("dev", "varied")   # never "eval": it is only scored (benchmarks/board.py)


def look_data(seed: int, family: str = "dev", boards: int = BOARDS, fresh: bool = False) -> dict | None:
    """The kept places of ``boards`` rendered boards of one look (None: the look's empty board
    was not located, a steep wide-angle view)."""
    if family not in FAMILIES:
        raise ValueError(f"no training data from the {family!r} family")
    path = CACHE / f"{family}-{seed}-v{DATA_VERSION}.npz"
    if (data := cached(path, fresh)) is not None:
        return data
    layout = BoardLayout.default()
    rng = np.random.default_rng([seed, 29])
    try:
        renderer, reference, tracker = _reference(seed, family, layout)
    except RuntimeError:
        return None
    reader = board_read.BoardReader(layout, reference, tracker=tracker, model=_placeholder_model())
    spots = reader._sampling.spots
    gate = board_model.feature_names().index("base_changed_3")
    out = {"squares": [], "x": [], "y": [], "board": [], "drink_mm": []}
    counts = np.zeros(3, np.int64)       # places in all, untouched and empty, untouched with a piece
    # METRO DRINKS' drinks beside up to 36 pyramids: the network learns that a drink over a
    # place, or its shadow, is not a piece there (boards without a drink among them)
    for b, pieces, truth, pose, sheet in located_boards(renderer, reader, rng, boards,
                                                         lambda: with_drinks(rng, layout, sample_board(rng, layout)),
                                                         align=True):
        lean = reader.lean(pose)
        x = reader.features(sheet, None, lean)
        lab = labels_of(layout, pieces, truth)
        y = np.array([board_model.CLASSES.index(lab.get(s.id, "empty")) for s in spots])
        changed = x[:, gate] >= GATE_SHARE * board_model.NO_CHANGE
        keep = (y > 0) | changed | (rng.random(len(y)) < UNTOUCHED_SHARE)
        counts += [len(y), int(((y == 0) & ~changed).sum()), int(((y > 0) & ~changed).sum())]
        at = reader._sampling.centres + lean
        out["squares"].append(board_net.patches(sheet, reader.reference, reader.paper, at[keep], size=STORED_PATCH).astype(np.float16))
        out["x"].append(x[keep].astype(np.float32))
        out["y"].append(y[keep].astype(np.int8))
        out["board"].append(np.full(int(keep.sum()), b, np.int16))
        out["drink_mm"].append(drink_distance(layout, pieces, spots)[keep].astype(np.float32))
    data = {k: (np.concatenate(v) if v else np.zeros((0,))) for k, v in out.items()}
    data["counts"] = counts
    return saved(path, data)


def drink_distance(layout: BoardLayout, pieces: Pieces, spots) -> np.ndarray:
    """Per place, how far (mm) the nearest drink on the board stands from it (inf: none): the
    palette of the player colours leaves out pieces a drink may tint or hide."""
    if not pieces.drinks:
        return np.full(len(spots), np.inf)
    at = np.array([layout.drinks[sid] for sid in pieces.drinks], float)
    centres = np.array([(s.x, s.y) for s in spots], float)
    return np.hypot(*(centres[:, None, :] - at[None, :, :]).transpose(2, 0, 1)).min(axis=1)


def cached(path: Path, fresh: bool = False) -> dict | None:
    """A look's data from the cache (None: not there, or ``fresh`` asked for)."""
    if path.exists() and not fresh:
        with np.load(path) as d:
            return {k: d[k] for k in d.files}
    return None


def saved(path: Path, data: dict) -> dict:
    """``data`` written to ``path`` whole or not at all (a run stopped midway leaves no half file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **data)
    tmp.replace(path)
    return data


def located_boards(renderer, reader, rng, boards: int, pieces_of, cycle: int = 3, align: bool = False):
    """The boards of one look as the training tools see them: for each of ``boards`` boards of
    ``pieces_of()``, rendered (every ``cycle``-th from the second bumped with two markers hidden,
    from the third under a changed lamp), seen through the look's camera, located and
    rectified: (index, pieces, truth, pose, sheet); a board whose pose is lost is left out.
    ``align``: a frame held by fewer than three markers has its pose laid onto the print as the
    reader's is (``FrameAlign``; off for the tools whose committed models learned from the
    carried pose, so that their recipes still rebuild them). The
    draws from ``rng`` come in the order the tools always drew them (the caller's own draws for
    a board included), so their data stay the same."""
    layout = reader.layout
    for b in range(boards):
        pieces = pieces_of()
        if b % cycle == 1:    # bumped, two markers hidden: the pose carried, the sheet resampled otherwise
            pair = tuple(int(m) for m in rng.choice(layout.marker_ids, 2, replace=False))
            frame, truth = renderer.render(pieces, rng=rng, bump=_bump().random(rng, angle=2.0, shift=12.0),
                                           hide_markers=pair)
        else:
            frame, truth = renderer.render(pieces, rng=rng)
        if b % cycle == 2:
            frame = relit(frame, rng)
        frame = renderer.camera(frame, rng)
        pose = reader.tracker.locate(frame)
        if pose.state == "lost":
            continue
        if align:
            pose = reader.align.pose(frame, pose)
        yield b, pieces, truth, pose, reader.sheet(frame, pose)


def _placeholder_model() -> board_model.SpotModel:
    """A model of the right shape whose weights do not matter: the squares and numbers alone are
    wanted here (the model being trained may not exist yet)."""
    net = board_net.PlaceNet.random(board_model.N_FEATURES, len(board_model.CLASSES))
    return board_model.SpotModel({"inputs": board_model.feature_names(), "classes": list(board_model.CLASSES)}, net)


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
    # the pose corrected from the print, as the benchmarks read
    reference, tracker = empty_reference(empty, layout, refine=True)
    if reference is None:
        raise RuntimeError(f"look {family} {seed}: the empty board's markers were not found")
    return renderer, reference, tracker



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
            from companion.vision.radial_lens import undistort_points
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




def _one(job: tuple[int, str, bool]) -> tuple[int, str, int, float]:
    seed, family, fresh = job
    cv2.setNumThreads(1)
    t0 = time.perf_counter()
    d = look_data(seed, family, fresh=fresh)
    return seed, family, -1 if d is None else len(d["y"]), time.perf_counter() - t0


def render_all(jobs: list[tuple[int, str]], workers: int = 1, fresh: bool = False) -> None:
    """Render (or find in the cache) every (seed, family) look, ``workers`` processes at once."""
    todo = [(s, f, fresh) for s, f in jobs]
    if workers <= 1:
        results = map(_one, todo)
    else:
        results = ProcessPoolExecutor(workers).map(_one, todo)
    for seed, family, n, secs in results:
        words = "no reference (left out)" if n < 0 else f"{n} places kept"
        print(f"  look {family} {seed}: {words} ({secs:.1f} s)", file=sys.stderr, flush=True)


def looks_of(varied=(), dev=()) -> list[tuple[int, str]]:
    """The looks ``varied`` then ``dev`` (seeds) as (seed, family): the order they are gathered in."""
    return [*((s, "varied") for s in varied), *((s, "dev") for s in dev)]


def collect(looks: list[tuple[int, str]], crop: bool = True) -> dict[str, np.ndarray]:
    """The kept places of ``looks`` (:func:`looks_of`; rendered now if not cached), in one
    array each; their squares cut to the network's size about their middle (``crop``), or as
    stored (training moves the cut at random: ``learn_board.augment``).

    The squares are written to a file one look at a time and mapped from it (``np.memmap``),
    never held whole in memory: 600 looks' squares were ~9 GB and their gathering ~19 GB at the
    peak; 1,200 would not fit the machine's 23 GB. The file is removed at once (the map keeps
    its pages, which the system caches as memory allows); the rest (numbers, names) is small."""
    small: dict[str, list[np.ndarray]] = {}
    counts, shape, dtype, total = [], None, None, 0
    CACHE.mkdir(parents=True, exist_ok=True)
    path = CACHE / f"gathered-{os.getpid()}-{time.monotonic_ns()}.squares"
    try:        # the file goes whatever happens: the map (or nothing) is what stays
        with open(path, "wb") as out:
            for s, fam in looks:
                t0 = time.perf_counter()
                d = look_data(s, fam)
                if d is None:
                    print(f"  look {fam} {s}: no reference, left out", file=sys.stderr, flush=True)
                    continue
                squares = np.ascontiguousarray(d.pop("squares"))
                shape, dtype = shape or squares.shape[1:], dtype or squares.dtype
                if squares.shape[1:] != shape or squares.dtype != dtype:
                    raise ValueError(f"look {fam} {s}: squares {squares.shape[1:]} {squares.dtype}, not {shape} {dtype}")
                out.write(squares.tobytes())
                total += len(squares)
                counts.append(d["counts"])
                for k in ("x", "y", "drink_mm"):
                    if k in d:
                        small.setdefault(k, []).append(d[k])
                if time.perf_counter() - t0 > 1.0:
                    print(f"  look {fam} {s}: {len(d['y'])} places ({time.perf_counter() - t0:.1f} s)",
                          file=sys.stderr, flush=True)
        if not total:
            raise ValueError(f"no places in the looks {looks[:3]}{'...' if len(looks) > 3 else ''}")
        squares = np.memmap(path, dtype, mode="r+", shape=(total, *shape))
    finally:
        path.unlink(missing_ok=True)
    out_data = {"squares": squares, "x": np.concatenate(small["x"]), "y": np.concatenate(small["y"])}
    if len(small.get("drink_mm", ())) == len(counts):
        out_data["drink_mm"] = np.concatenate(small["drink_mm"])
    if crop:
        out_data["squares"] = centre_crop(out_data["squares"])
    out_data["counts"] = np.sum(counts, axis=0)
    return out_data


def centre_crop(squares: np.ndarray, size: int = board_net.PATCH) -> np.ndarray:
    """Squares kept larger than the network reads, cut to its size about the same middle."""
    lo = squares.shape[1] // 2 - size // 2
    return squares[:, lo:lo + size, lo:lo + size] if squares.shape[1] != size else squares


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=FAMILIES, default="varied")
    ap.add_argument("--seeds", type=int, nargs=2, metavar=("FIRST", "END"), required=True)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--fresh", action="store_true", help="render again (ignore build/learn_board)")
    args = ap.parse_args(argv)
    render_all([(s, args.family) for s in range(*args.seeds)], args.workers, args.fresh)
    return 0


if __name__ == "__main__":
    sys.exit(main())
