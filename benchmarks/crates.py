"""How well and how fast the crate reader reads the crates (issue 31), on two families of
simulated crate cameras.

For each look (``CrateLook.from_seed(seed, family)``: its own camera, lamps, table, crate
plastic and drinks) it renders the calibration crate (``CALIBRATION_LAYOUT``), calibrates from
that photo as a table would (``calibrate_crates``), then renders random crate layouts
(``sim/crate_layouts.py``: six crates, GRAPE SODA's square with 0-4 crates moved, sometimes
turned as in YUZU, 50-80 % of the fields holding drinks, each drink once) at a random pose and
reads them on ONE core (cv2.setNumThreads(1), one BLAS thread) with ``CrateReader``, told how
many crates the layout has as the crate device tells it the game's (``--crates-untold``: not).

Families (companion/sim/crate_looks.py): "dev" is what the reader was tuned on; "eval" differs
in kind (other lamps, two lamps, glossy or pale plastic, other tables, wide lenses with
distortion, JPEG, steeper and flatter cameras) and is ONLY EVER SCORED: for it this prints
totals and nothing else. Default seeds: dev 800000 on (the model learns from dev seeds below
1000 and the training-only "varied" family), eval 910000 on (never used in training:
tools/learn_crates.py refuses them).

A field of the layout is "right" when the reading (matched to the layout up to a shift and a
quarter turn, crate_fields.compare) has it, with the layout's drink or ``empty``, and does not
call it unsure; "unsure" when the reading calls it unsure, or when the frame has a problem code
(nothing of it is used); "wrong" when the reading is sure of something else there, or lacks
the field, or claims a field where no crate is (the number that must stay at zero); of the
unsure fields, "asked" are those the reading narrowed to a few drinks of one colour (its
``choices``) that hold the layout's drink (choices that miss it make the field wrong). A frame is
"fully right" when all its fields are right. A look whose calibration photo is refused counts
all its frames' fields as unsure (and is counted apart). ``lost`` says where the fields not read
right went (totals, for every family): a refused calibration, a frame's problem code (``unclear``,
``too_many``, ...), asked, unsure with the likeliest name right (``likeliest_right``: the bars, not
the name, held it back), unsure otherwise, wrong (with ``right`` they add up to the fields, or to
more where a reading claims fields where no crate is).

Run:   .venv/bin/python benchmarks/crates.py                          (both families, 10 looks x 4 frames)
       .venv/bin/python benchmarks/crates.py --family dev --looks 2 --frames 2      (quick)
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

from companion.crate_fields import compare, normalized  # noqa: E402
from companion.sim.crate_layouts import random_layout  # noqa: E402
from companion.sim.crate_looks import CrateLook  # noqa: E402
from companion.sim.crate_render import CrateRenderer  # noqa: E402
from companion.vision.crate_calibrate import CALIBRATION_LAYOUT, CrateCalibrationError, calibrate_crates  # noqa: E402
from companion.vision.crates import CrateReader  # noqa: E402

SEEDS = {"dev": 800000, "eval": 910000, "varied": 700000}


def score(truth_fields: dict, reading) -> tuple[int, int, int, int, int]:
    """(right, unsure, wrong, asked, likeliest_right) fields of one frame; ``asked``: of the unsure
    ones, those narrowed to a few drinks (choices) that hold the layout's (choices that miss it are
    wrong); ``likeliest_right``: of the unsure ones not asked, those whose likeliest name is the
    layout's."""
    n = len(truth_fields)
    if reading.codes or not reading.fields:
        return 0, n, 0, 0, 0
    seen = reading.grid()
    unsure = reading.unsure_fields()
    choices = reading.choice_sets()
    cmp = compare(truth_fields, seen, unsure, choices=choices)
    wrong = len(cmp.differences)
    # the fields read with doubt that lie over the layout's fields, after the same turn and shift
    # (a field read with doubt beside the crates, over no field of the layout, is no unsure field
    # of the layout: counting every unsure field, as before, made a frame all unsure as soon as
    # the ring round the crates held as many doubtful fields as the crates have)
    wrong_at = {d.field for d in cmp.differences}
    game = normalized(truth_fields)
    doubted = over_layout(game, seen, unsure, cmp)
    n_unsure = len(set(doubted) - wrong_at)
    asked = len(set(over_layout(game, seen, choices, cmp)) - wrong_at)
    likeliest_right = sum(1 for g, o in doubted.items()
                          if g not in wrong_at and o not in choices and seen[o] == game[g])
    right = max(0, n - wrong - n_unsure)
    return right, n_unsure, wrong, asked, likeliest_right


def over_layout(game: dict, seen: dict, unsure, cmp) -> dict:
    """The unsure fields of the reading that land on the layout's fields (``game``: the layout's,
    normalized; as compare matched): the layout's field -> the reading's."""
    marked = set(seen)
    doubt = set(unsure)
    turned = {f: f for f in marked}
    for _ in range(cmp.quarters):
        turned = {(-y, x): o for (x, y), o in turned.items()}
    ox, oy = min(x for x, _ in turned), min(y for _, y in turned)
    dx, dy = cmp.shift
    placed = {(x - ox + dx, y - oy + dy): o for (x, y), o in turned.items() if o in doubt}
    return {g: o for g, o in placed.items() if g in game}


def run(family: str, looks: int, frames: int, first: int, verbose: bool, shares=(), told: bool = True) -> dict:
    import companion.vision.crates as crates
    cv2.setNumThreads(1)
    kept = crates.DOUBTFUL_SHARE
    guard = {sh: {"right": 0, "unsure": 0, "wrong": 0} for sh in shares}
    tot = {"fields": 0, "right": 0, "unsure": 0, "asked": 0, "wrong": 0, "frames": 0, "fully_right": 0,
           "looks": 0, "calibration_refused": 0, "frames_with_codes": 0}
    lost = {"calibration_refused": 0, "asked": 0, "likeliest_right": 0, "unsure_otherwise": 0, "wrong": 0}
    times = []
    for seed in range(first, first + looks):
        look = CrateLook.from_seed(seed, family)
        r = CrateRenderer(look)
        rng = np.random.default_rng([seed, 7031])
        tot["looks"] += 1
        photo, _ = r.render(CALIBRATION_LAYOUT, rng)
        try:
            reader = CrateReader(calibrate_crates(photo))
        except CrateCalibrationError as exc:
            tot["calibration_refused"] += 1
            reader = None
            if verbose and family != "eval":
                print(f"  {family} {seed}: calibration refused: {exc}", file=sys.stderr)
        for _ in range(frames):
            layout = random_layout(rng)
            frame, truth = r.render(layout, rng)
            fields = {tuple(k): v for k, v in truth["fields"].items()}
            tot["frames"] += 1
            tot["fields"] += len(fields)
            if reader is None:
                tot["unsure"] += len(fields)
                lost["calibration_refused"] += len(fields)
                for g in guard.values():
                    g["unsure"] += len(fields)
                continue
            crates_told = len(layout.crates) if told else None      # the game in play knows them
            t0 = time.perf_counter()
            reading = reader.read(frame, crates_told)
            times.append(time.perf_counter() - t0)
            right, unsure, wrong, asked, likeliest_right = score(fields, reading)
            if reading.codes:
                for code in reading.codes[:1]:          # a frame's fields go to its first code
                    lost[code] = lost.get(code, 0) + len(fields)
            else:
                lost["asked"] += asked
                lost["likeliest_right"] += likeliest_right
                lost["unsure_otherwise"] += unsure - asked - likeliest_right
            lost["wrong"] += wrong
            for sh, g in guard.items():
                crates.DOUBTFUL_SHARE = sh
                for key, v in zip(("right", "unsure", "wrong"), score(fields, reader.read(frame, crates_told))[:3]):
                    g[key] += v
                crates.DOUBTFUL_SHARE = kept
            tot["right"] += right
            tot["unsure"] += unsure
            tot["wrong"] += wrong
            tot["asked"] += asked
            tot["frames_with_codes"] += bool(reading.codes)
            tot["fully_right"] += right == len(fields)
            if verbose and family != "eval":
                print(f"  {family} {seed}: {right} right, {unsure} unsure ({asked} asked), {wrong} wrong of {len(fields)}"
                      f"{' codes ' + ','.join(reading.codes) if reading.codes else ''}; {times[-1] * 1000:.0f} ms",
                      file=sys.stderr)
    n = max(1, tot["fields"])
    ms = np.array(times) * 1000 if times else np.zeros(1)
    return {"family": family, "seeds": f"{first}-{first + looks - 1}", **tot,
            "wrong_pct": round(100 * tot["wrong"] / n, 3), "unsure_pct": round(100 * tot["unsure"] / n, 2),
            "asked_pct": round(100 * tot["asked"] / n, 2),
            "fully_right_pct": round(100 * tot["fully_right"] / max(1, tot["frames"]), 1),
            "ms_median": round(float(np.median(ms)), 1), "ms_p95": round(float(np.percentile(ms, 95)), 1),
            "lost": lost,
            **({"guard": {str(sh): {k: round(100 * v / n, 2) for k, v in g.items()} for sh, g in guard.items()}}
               if guard else {})}


def main(argv=None) -> None:
    from crate_focal import guess_plastic, guess_plastic_arg      # (this directory)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--family", choices=["dev", "eval", "varied", "both"], default="both")
    ap.add_argument("--looks", type=int, default=10)
    ap.add_argument("--frames", type=int, default=4)
    ap.add_argument("--seeds", type=int, default=None, help="first look seed (default: the family's)")
    ap.add_argument("-v", "--verbose", action="store_true", help="each frame of dev/varied on stderr")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--guard-shares", default="",
                    help="also score the same frames with the frame guard at these shares (crates.DOUBTFUL_SHARE, "
                         "comma-separated; 1.0: off), to set it on dev and varied; never with --family eval")
    ap.add_argument("--crates-untold", action="store_true",
                    help="read without telling the reader how many crates stand there (as a reader outside a game)")
    guess_plastic_arg(ap)
    args = ap.parse_args(argv)
    guess_plastic(args)
    shares = [float(v) for v in args.guard_shares.split(",") if v.strip()]
    if shares and args.family in ("eval", "both"):
        raise SystemExit("the frame guard is set on dev and varied, never on eval")
    fams = ["dev", "eval"] if args.family == "both" else [args.family]
    out = []
    for fam in fams:
        first = args.seeds if args.seeds is not None else SEEDS[fam]
        if fam == "eval" and first < SEEDS["eval"]:
            raise SystemExit(f"evaluation seeds start at {SEEDS['eval']}")
        res = run(fam, args.looks, args.frames, first, args.verbose, shares, told=not args.crates_untold)
        out.append(res)
        if not args.json:
            print(f"{fam} {res['seeds']}: {res['fields']} fields in {res['frames']} frames; sure and wrong "
                  f"{res['wrong_pct']} %, unsure {res['unsure_pct']} %, frames fully right {res['fully_right_pct']} %; "
                  f"calibration refused {res['calibration_refused']} of {res['looks']} looks; "
                  f"{res['ms_median']} ms a frame (p95 {res['ms_p95']}) on one core; fields not read right: {res['lost']}")
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
