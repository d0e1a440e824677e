"""Datasets of simulated TOKYO METRO board frames with their truth, for the board reader's
development (family "dev") and its benchmark (family "eval": scored only, never looked at one
by one).

    python -m companion.sim.board_dataset OUT --family dev --count 200 --seed 0

writes ``NNNN.png`` (the frame), ``NNNN.json`` (its truth: see ``board_render.py``, plus the
scene's seed and the name of its empty board) and one ``empty-<look>.png`` per look (the board
with nothing on it, unbumped: the reference a reader keeps). Each scene draws its look from a
few per family (``LOOKS``), a plausible board (:func:`sample_board`), and with some chance a
hand over the board, one or two markers covered, a bumped board. :func:`scenes` gives many in
the order that sets each look up once (a benchmark's loop).

>>> frame, truth, empty = scene(3)
>>> frame.shape == empty.shape, truth["family"]
(True, 'dev')
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import OrderedDict
from pathlib import Path

import cv2
import numpy as np

from ..board_layout import BoardLayout
from ..board_pieces import PLAYER_COLOURS, Pieces
from .board_looks import FAMILY_STREAMS, BoardHand, BoardLook, Bump
from .board_render import BoardRenderer

LOOKS = 12                 # looks per family
SHARES = {"hand": 0.2, "hidden": 0.15, "bump": 0.25}
MAX_COUNT = 100_000
_RENDERERS: OrderedDict = OrderedDict()
_EMPTY: dict = {}


def sample_board(rng: np.random.Generator, layout: BoardLayout) -> Pieces:
    """A board as a game might have it: 0-5 meeples (0-3 of them riding a train), 0-40
    pyramids of any colours, 0-12 trains at any stop, every line's value on its track."""
    colours = list(PLAYER_COLOURS)
    n = int(rng.integers(0, 6))
    players = [colours[i] for i in rng.permutation(5)[:n]]
    riders = min(n, int(rng.integers(0, 4)))
    letters = list(layout.line_letters)
    fields = rng.permutation(len(layout.meeples))
    meeples = {}
    for i, c in enumerate(players):
        meeples[c] = f"ride:{letters[int(rng.integers(0, len(letters)))]}" if i < riders else f"field:{int(fields[i])}"
    stations = list(layout.pyramids)
    chosen = rng.permutation(len(stations))[:int(rng.integers(0, 41))]
    pyramids = {stations[int(i)]: colours[int(rng.integers(0, 5))] for i in chosen}
    trains = {}
    for i in rng.permutation(len(letters))[:int(rng.integers(0, len(letters) + 1))]:
        letter = letters[int(i)]
        trains[letter] = int(rng.integers(0, len(layout.stops[letter])))
    top = (len(layout.values) - 1) * layout.value_step
    values = {l: int(rng.integers(0, top // layout.value_step // 2 + 1)) * layout.value_step for l in letters}
    return Pieces(pyramids=pyramids, meeples=meeples, trains=trains, values=values)


def with_drinks(rng: np.random.Generator, layout: BoardLayout, pieces: Pieces, most: int = 36,
                least: int = 0) -> Pieces:
    """``pieces`` with METRO DRINKS' drinks at ``least`` to ``most`` stations (each of the 36
    drinks at most once; a drink stands only where a pyramid does, so a station given a drink
    gets a pyramid of any player colour if it had none).

    >>> b = with_drinks(np.random.default_rng(0), BoardLayout.default(), Pieces(), least=5, most=5)
    >>> len(b.drinks), set(b.drinks) <= set(b.pyramids)
    (5, True)
    """
    from ..drinks import DRINK_IDS
    stations = [s for s in layout.pyramids if s in layout.drinks]
    n = int(rng.integers(least, min(most, len(DRINK_IDS), len(stations)) + 1))
    chosen = [stations[int(i)] for i in rng.permutation(len(stations))[:n]]
    ids = [DRINK_IDS[int(i)] for i in rng.permutation(len(DRINK_IDS))[:n]]
    pyramids = dict(pieces.pyramids)
    for sid in chosen:
        pyramids.setdefault(sid, PLAYER_COLOURS[int(rng.integers(0, len(PLAYER_COLOURS)))])
    return pieces.model_copy(update={"pyramids": pyramids, "drinks": dict(zip(chosen, ids))})


def plan(seed: int, family: str = "dev") -> dict:
    """What scene ``seed`` of ``family`` shows, before it is drawn: its look and its trials."""
    if family not in FAMILY_STREAMS:
        raise ValueError(f"no family {family!r}: one of {', '.join(FAMILY_STREAMS)}")
    rng = np.random.default_rng([int(seed), FAMILY_STREAMS[family], 8601])
    return {"seed": int(seed), "family": family, "look": int(rng.integers(0, LOOKS)),
            "hand": bool(rng.random() < SHARES["hand"]), "hidden": bool(rng.random() < SHARES["hidden"]),
            "bump": bool(rng.random() < SHARES["bump"]), "rng": rng}


def renderer(look_seed: int, family: str, layout: BoardLayout | None = None) -> BoardRenderer:
    """The renderer of one look (the last few are kept: making one costs a few tenths of a second)."""
    layout = layout or BoardLayout.default()
    key = (look_seed, family, id(layout))
    if key not in _RENDERERS:
        _RENDERERS[key] = BoardRenderer(layout, BoardLook.from_seed(look_seed, family))
        while len(_RENDERERS) > 4:
            _RENDERERS.popitem(last=False)
    _RENDERERS.move_to_end(key)
    return _RENDERERS[key]


def empty_frame(look_seed: int, family: str, layout: BoardLayout | None = None) -> np.ndarray:
    """The board of one look with nothing on it, unbumped."""
    key = (look_seed, family)
    if key not in _EMPTY:
        r = renderer(look_seed, family, layout)
        _EMPTY[key], _ = r.render(Pieces(), rng=np.random.default_rng([look_seed, 8602]), placed=[])
        while len(_EMPTY) > 16:
            _EMPTY.pop(next(iter(_EMPTY)))
    return _EMPTY[key]


def scene(seed: int, family: str = "dev", layout: BoardLayout | None = None) -> tuple[np.ndarray, dict, np.ndarray]:
    """Scene ``seed`` of ``family``: (frame, truth, the look's empty frame)."""
    layout = layout or BoardLayout.default()
    p = plan(seed, family)
    rng = p["rng"]
    r = renderer(p["look"], family, layout)
    pieces = sample_board(rng, layout)
    hand = BoardHand.random(rng, layout.sheet) if p["hand"] else None
    bump = Bump.random(rng) if p["bump"] else None
    hidden = [int(m) for m in rng.permutation(list(layout.marker_ids))[:int(rng.integers(1, 3))]] if p["hidden"] else []
    frame, truth = r.render(pieces, hand=hand, bump=bump, rng=rng, hide_markers=hidden)
    truth.update(seed=int(seed), family=family, empty=f"empty-{p['look']:02d}.png")
    return frame, truth, empty_frame(p["look"], family, layout)


def scenes(seeds, family: str = "dev", layout: BoardLayout | None = None):
    """Scenes ``seeds`` of ``family`` as (seed, frame, truth, empty frame), grouped by look (so
    each look is set up once: the order a benchmark should read them in)."""
    for s in sorted(seeds, key=lambda s: (plan(s, family)["look"], s)):
        yield (s, *scene(s, family, layout))


def write(out: Path, family: str, count: int, seed: int) -> dict:
    """Write ``count`` scenes from ``seed`` on."""
    out.mkdir(parents=True, exist_ok=True)
    looks = set()
    started = time.perf_counter()
    for s, frame, truth, empty in scenes(range(seed, seed + count), family):
        i = s - seed
        cv2.imwrite(str(out / f"{i:04d}.png"), frame)
        (out / f"{i:04d}.json").write_text(json.dumps(truth, indent=1), encoding="utf-8")
        if truth["empty"] not in looks:
            cv2.imwrite(str(out / truth["empty"]), empty)
            looks.add(truth["empty"])
    return {"scenes": count, "looks": len(looks), "seconds": round(time.perf_counter() - started, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m companion.sim.board_dataset",
                                 description="Write simulated TOKYO METRO board frames with their truth.")
    ap.add_argument("out", type=Path, help="the folder to write into (made if missing)")
    ap.add_argument("--family", default="dev", choices=sorted(FAMILY_STREAMS),
                    help="dev: to tune on; eval: to score on only")
    ap.add_argument("--count", type=int, default=100, help=f"how many scenes (1 to {MAX_COUNT})")
    ap.add_argument("--seed", type=int, default=0, help="the first scene's seed (0 to 2^31)")
    args = ap.parse_args(argv)
    if not 1 <= args.count <= MAX_COUNT:
        ap.error(f"--count is 1 to {MAX_COUNT}, not {args.count}")
    if not 0 <= args.seed < 2 ** 31 - MAX_COUNT:
        ap.error(f"--seed is 0 to {2 ** 31 - MAX_COUNT - 1}, not {args.seed}")
    print(json.dumps(write(args.out, args.family, args.count, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
