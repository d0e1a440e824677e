"""How well and how fast the board camera reads the TOKYO METRO board (issue 29, item 6), on two
families of simulated boards.

For each look (``BoardLook.from_seed(seed, family)``: its own paper, table, lamp, pieces and
camera) it renders the empty board, locates it and keeps it rectified as the reference (what
the calibration keeps), then renders boards of sampled pieces and reads them on ONE core
(cv2.setNumThreads(1), one BLAS thread) with ``BoardReader`` (its tracker following the frames).

The families (companion/sim/board_looks.py) differ in kind: "dev" (matte board, soft overhead
light, wooden pieces, a camera nearly straight above) is what the reader was tuned on; "eval"
(a glossy board, a warm point lamp or a tube, plastic pieces, wide-angle lenses tilted up to
30 degrees, JPEG) is ONLY EVER SCORED: for it this prints totals and nothing else (no seeds,
no misreadings). Default seeds: dev 1000 on, eval 900000 on; the place model is trained on
other dev seeds and the training-only "varied" family (tools/learn_board.py: 200000 on, 300000
on); ``--family varied`` scores held-out looks of that family (330000 on), misses listed.

Run:   .venv/bin/python benchmarks/board.py                       (both families, 12 looks x 8 boards)
       .venv/bin/python benchmarks/board.py --family dev --looks 2 --boards 3     (quick)

The fields of a board: every meeple field (``field:<i>``), station (``station:<id>``) and
train stop (``stop:<L>:<k>``), each line's riders (``ride:<L>``: which colours ride it), each
line's value (``value:<L>``) and each station's drink place (``drink:<id>``: its colour; METRO
DRINKS: drinks at 0-36 stations, drawn from a generator of their own so the other pieces are
the boards of the earlier reports; ``--no-drinks`` leaves them off and unscored). A field is "right" when the reading has what the board has there
and does not call it unsure, "unsure" when the reading leaves it to a person, "wrong" when the
reading is sure of something else (the number that must stay at zero). Per-field error counts
wrong and unsure; a board is "fully right" when all its fields are right. Frames with a hand over the
board are scored apart (hands seen; anything sure and wrong taken from them), as are the
occlusion runs: two markers hidden by a cup or a card (still locked, still read), the board
bumped, and all markers hidden for HIDDEN_FRAMES frames and then back (frames until locked).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.board_layout import BoardLayout  # noqa: E402
from companion.board_pieces import BoardReading, Pieces, drink_colour  # noqa: E402
from companion.sim import board_dataset  # noqa: E402
from companion.sim.board_looks import BoardLook, Bump  # noqa: E402
from companion.sim.board_render import BoardRenderer  # noqa: E402
from companion.vision.board_calibrate import MIN_MARKERS  # noqa: E402
from companion.vision.board_pose import empty_reference  # noqa: E402
from companion.vision.board_read import BoardReader  # noqa: E402

SEEDS = {"dev": 1000, "eval": 900000, "varied": 330000}
HIDDEN_FRAMES = 5


def sample_board(rng: np.random.Generator, layout: BoardLayout, drinks: np.random.Generator | None = None) -> Pieces:
    """A board as a game might have it (the simulator's sampler: 0-5 meeples, 0-40 pyramids,
    0-12 trains, every line's value); with ``drinks`` (a generator of its own, so that the other
    pieces are the boards they were without) METRO DRINKS' drinks at 0-36 stations."""
    pieces = board_dataset.sample_board(rng, layout)
    return pieces if drinks is None else board_dataset.with_drinks(drinks, layout, pieces)


def fields_of(layout: BoardLayout, pieces: Pieces, drinks: bool = True) -> dict[str, object]:
    """Every field of the board and what stands there (None: nothing); ``drinks``: with each
    station's drink place (``drink:<id>``: the drink's colour)."""
    out: dict[str, object] = {}
    at = {place: colour for colour, place in pieces.meeples.items()}
    for i in range(len(layout.meeples)):
        out[f"field:{i}"] = at.get(f"field:{i}")
    for sid in layout.pyramids:
        out[f"station:{sid}"] = pieces.pyramids.get(sid)
    for letter, stops in layout.stops.items():
        for k in range(len(stops)):
            out[f"stop:{letter}:{k}"] = "train" if pieces.trains.get(letter) == k else None
    for letter in layout.lanes:
        out[f"ride:{letter}"] = tuple(sorted(c for c, p in pieces.meeples.items() if p == f"ride:{letter}")) or None
        out[f"value:{letter}"] = pieces.values.get(letter)
    if drinks:
        # the reader tells a drink's colour (docs/board-camera.md, "Drinks at stations")
        for sid in layout.drinks:
            out[f"drink:{sid}"] = drink_colour(pieces.drinks.get(sid))
    return out


def unsure_fields(reading: BoardReading) -> set[str]:
    out = set()
    for u in reading.unsure:
        out.add(f"ride:{u.split(':')[1]}" if u.startswith("ride:") else u)
    return out


def score(layout: BoardLayout, truth: Pieces, reading: BoardReading, drinks: bool = True) -> dict:
    want, got = fields_of(layout, truth, drinks), fields_of(layout, reading.pieces, drinks)
    doubt = unsure_fields(reading) if reading.usable else set(want)     # a frame not taken: nothing read
    right = wrong = unsure = 0
    by_kind: dict[str, list[int]] = {}      # kind of field -> [fields, wrong, unsure]
    for f, v in want.items():
        tally = by_kind.setdefault(f.split(":")[0], [0, 0, 0])
        tally[0] += 1
        if f in doubt:
            unsure += 1
            tally[2] += 1
        elif got[f] == v:
            right += 1
        else:
            wrong += 1
            tally[1] += 1
    return {"fields": len(want), "right": right, "wrong": wrong, "unsure": unsure, "by_kind": by_kind}


def reference_of(renderer: BoardRenderer, layout: BoardLayout, seed: int, refine: bool = True):
    """The calibration's part: the empty board, located, rectified; the tracker that found it
    (it keeps the lens it measured there). The simulated sheet is drawn from the board file's
    own layout, so that layout is what a perfect calibration would fit (the taps' fit is
    measured by tests/test_board_calibrate.py); with ``refine`` the pose is corrected from that
    print (board_refine.py), as the simulated board camera's reference is. An empty board with
    fewer than the calibration's MIN_MARKERS markers found gives none: the calibration refuses
    such a photo (two markers on one side leave the far side of the sheet centimetres off)."""
    empty, _ = renderer.render(Pieces(), rng=np.random.default_rng([seed, 1]))
    return empty_reference(empty, layout, refine, min_markers=MIN_MARKERS)


def run_look(seed: int, family: str, boards: int, layout: BoardLayout, drinks: bool = True) -> dict:
    look = BoardLook.from_seed(seed, family)
    renderer = BoardRenderer(layout, look)
    rng = np.random.default_rng([seed, 2029])
    drink_rng = np.random.default_rng([seed, 2030]) if drinks else None
    ref, tracker = reference_of(renderer, layout, seed)
    res = {"boards": 0, "fully_right": 0, "fields": 0, "right": 0, "wrong": 0, "unsure": 0, "lost": 0,
           "ms": [], "size": list(look.image_size), "misses": [], "by_kind": {},
           "hands": 0, "hands_seen": 0, "hands_wrong": 0, "hands_false": 0,
           "two_hidden": 0, "two_hidden_locked": 0, "two_hidden_right": 0,
           "bumped": 0, "bumped_locked": 0, "bumped_right": 0, "relock": [], "no_reference": 0}
    if ref is None:
        res["no_reference"] = 1
        return res
    reader = BoardReader(layout, ref, tracker=tracker)

    def read(frame):
        t0 = time.perf_counter()
        r = reader.read(frame)
        res["ms"].append((time.perf_counter() - t0) * 1000.0)
        return r

    for b in range(boards):
        pieces = sample_board(rng, layout, drink_rng)
        frame, _ = renderer.render(pieces, rng=rng)
        reading = read(frame)
        s = score(layout, pieces, reading, drinks)
        res["boards"] += 1
        res["hands_false"] += int(reading.hands)     # no hand over this board: none is to be seen
        if reading.pose == "lost":
            res["lost"] += 1
        for k in ("fields", "right", "wrong", "unsure"):
            res[k] += s[k]
        for kind, tally in s["by_kind"].items():
            res["by_kind"][kind] = [a + b for a, b in zip(res["by_kind"].get(kind, [0, 0, 0]), tally)]
        if s["right"] == s["fields"] and reading.usable:
            res["fully_right"] += 1
        elif family != "eval":
            want, got = fields_of(layout, pieces, drinks), fields_of(layout, reading.pieces, drinks)
            doubt = unsure_fields(reading) if reading.usable else set(want)
            res["misses"] += [(seed, b, f, want[f], "unsure" if f in doubt else got[f])
                              for f in want if f in doubt or got[f] != want[f]][:6]
        # a hand over the board: seen, and nothing sure and wrong taken from the frame
        frame, truth = renderer.render(pieces, hand=True, rng=rng)
        reading = read(frame)
        if truth["hand"]:
            res["hands"] += 1
            res["hands_seen"] += int(reading.hands)
            if reading.usable and score(layout, pieces, reading, drinks)["wrong"]:
                res["hands_wrong"] += 1
        # two markers hidden: still located (from the last pose) and read
        pair = tuple(int(m) for m in rng.choice(layout.marker_ids, 2, replace=False))
        frame, _ = renderer.render(pieces, hide_markers=pair, rng=rng)
        reading = read(frame)
        res["two_hidden"] += 1
        res["two_hidden_locked"] += int(reading.pose == "locked")
        s = score(layout, pieces, reading, drinks)
        res["two_hidden_right"] += int(s["right"] == s["fields"] and reading.usable)
        # the board bumped with two markers hidden: followed (the reference stays the board's own)
        bump = Bump.random(rng, angle=2.0, shift=12.0)
        frame, _ = renderer.render(pieces, bump=bump, hide_markers=pair, rng=rng)
        reading = read(frame)
        res["bumped"] += 1
        res["bumped_locked"] += int(reading.pose == "locked")
        s = score(layout, pieces, reading, drinks)
        res["bumped_right"] += int(s["right"] == s["fields"] and reading.usable)
        # then all markers hidden for a while, then back: frames until locked again
        for _ in range(HIDDEN_FRAMES):
            frame, _ = renderer.render(pieces, bump=bump, hide_markers=layout.marker_ids, rng=rng)
            read(frame)
        for n in range(1, 6):
            frame, _ = renderer.render(pieces, bump=bump, rng=rng)
            if read(frame).pose == "locked":
                break
        else:
            n = 99
        res["relock"].append(n)
        # and the board put back where it was
        frame, _ = renderer.render(pieces, rng=rng)
        read(frame)
    return res


def total(results: list[dict]) -> dict:
    t = {k: sum(r[k] for r in results) for k in results[0] if isinstance(results[0][k], int)}
    t["ms"] = [m for r in results for m in r["ms"]]
    t["ms_by_size"] = {}
    for r in results:
        if r["ms"]:         # a look without a reference reads no frame
            t["ms_by_size"].setdefault("x".join(map(str, r["size"])), []).extend(r["ms"])
    t["relock"] = [n for r in results for n in r["relock"]]
    t["misses"] = [m for r in results for m in r["misses"]]
    t["by_kind"] = {}
    for r in results:
        for kind, tally in r["by_kind"].items():
            t["by_kind"][kind] = [a + b for a, b in zip(t["by_kind"].get(kind, [0, 0, 0]), tally)]
    return t


def report(family: str, seeds: range, t: dict, verbose: bool) -> dict:
    def pct(a, b):
        return 100.0 * a / b if b else 0.0
    out = {
        "family": family, "looks": len(seeds), "first_seed": seeds.start, "boards": t["boards"],
        "per_field_error_pct": round(pct(t["wrong"] + t["unsure"], t["fields"]), 4),
        "sure_wrong_pct": round(pct(t["wrong"], t["fields"]), 4),
        "unsure_pct": round(pct(t["unsure"], t["fields"]), 4),
        "boards_fully_right_pct": round(pct(t["fully_right"], t["boards"]), 2),
        "lost_boards": t["lost"], "looks_without_reference": t["no_reference"],
        "hands_seen_pct": round(pct(t["hands_seen"], t["hands"]), 2), "hand_frames": t["hands"],
        "hand_frames_sure_wrong": t["hands_wrong"],
        "boards_taken_for_hands_pct": round(pct(t["hands_false"], t["boards"]), 2),
        "two_hidden_locked_pct": round(pct(t["two_hidden_locked"], t["two_hidden"]), 2),
        "two_hidden_fully_right_pct": round(pct(t["two_hidden_right"], t["two_hidden"]), 2),
        "bumped_locked_pct": round(pct(t["bumped_locked"], t["bumped"]), 2),
        "bumped_fully_right_pct": round(pct(t["bumped_right"], t["bumped"]), 2),
        "by_kind": {kind: {"fields": n, "sure_wrong_pct": round(pct(w, n), 4), "unsure_pct": round(pct(u, n), 4)}
                    for kind, (n, w, u) in sorted(t["by_kind"].items())},
        "relock_frames_max": max(t["relock"]) if t["relock"] else None,
        "relock_frames_mean": round(float(np.mean(t["relock"])), 2) if t["relock"] else None,
        "ms_per_frame": {size: {"mean": round(float(np.mean(v)), 1), "p95": round(float(np.percentile(v, 95)), 1)}
                         for size, v in sorted(t["ms_by_size"].items())},
    }
    print(f"\n== {family}: {out['looks']} looks from seed {seeds.start}, {out['boards']} boards ==")
    if out["looks_without_reference"]:
        print(f"{out['looks_without_reference']} looks without a reference (an empty board the calibration refuses: "
              f"fewer than {MIN_MARKERS} markers found), their boards not read")
    print(f"per-field error {out['per_field_error_pct']:.4f} % (sure and wrong {out['sure_wrong_pct']:.4f} %, "
          f"unsure {out['unsure_pct']:.4f} %), boards fully right {out['boards_fully_right_pct']:.2f} %")
    print("by kind of field (totals): " + "; ".join(
        f"{kind} {v['unsure_pct']:.3f} % unsure, {v['sure_wrong_pct']:.3f} % sure and wrong"
        for kind, v in out["by_kind"].items()))
    print(f"hands seen {out['hands_seen_pct']:.1f} % of {out['hand_frames']} hand frames, "
          f"sure-and-wrong hand frames {out['hand_frames_sure_wrong']}; boards with no hand taken for hands "
          f"{out['boards_taken_for_hands_pct']:.1f} %")
    print(f"two markers hidden: locked {out['two_hidden_locked_pct']:.1f} %, fully right "
          f"{out['two_hidden_fully_right_pct']:.1f} %; bumped (and two hidden): locked {out['bumped_locked_pct']:.1f} %, "
          f"fully right {out['bumped_fully_right_pct']:.1f} %")
    print(f"all markers hidden {HIDDEN_FRAMES} frames, then back: locked again after {out['relock_frames_mean']} "
          f"frames on average (at most {out['relock_frames_max']})")
    for size, v in out["ms_per_frame"].items():
        print(f"ms per frame ({size}, one core): mean {v['mean']}, p95 {v['p95']}")
    if family != "eval" and verbose:
        for m in t["misses"][:40]:
            print("  miss", m)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", choices=["dev", "eval", "both", "varied"], default="both",
                    help='"varied": held-out looks of the training-only family (seeds --varied-seeds on)')
    ap.add_argument("--looks", type=int, default=12)
    ap.add_argument("--boards", type=int, default=8)
    ap.add_argument("--dev-seeds", type=int, default=SEEDS["dev"])
    ap.add_argument("--eval-seeds", type=int, default=SEEDS["eval"])
    ap.add_argument("--varied-seeds", type=int, default=SEEDS["varied"])
    ap.add_argument("--no-drinks", action="store_true",
                    help="boards without METRO DRINKS' drinks (the boards of issue 29's reports), drink places not scored")
    ap.add_argument("--json", action="store_true", help="the results as JSON on stdout (after the text)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list the dev family's misses")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    layout = BoardLayout.default()
    outs = []
    for family in (["dev", "eval"] if args.family == "both" else [args.family]):
        first = {"dev": args.dev_seeds, "eval": args.eval_seeds, "varied": args.varied_seeds}[family]
        seeds = range(first, first + args.looks)
        results = []
        for seed in seeds:
            t0 = time.perf_counter()
            results.append(run_look(seed, family, args.boards, layout, drinks=not args.no_drinks))
            print(f"  {family} look {len(results)}/{len(seeds)} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
        outs.append(report(family, seeds, total(results), args.verbose))
    if args.json:
        print(json.dumps(outs, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
