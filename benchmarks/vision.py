"""How well and how fast the drinks in the tray are identified, at four difficulties, on two
families of simulated tables.

For each family, difficulty and seed it renders a table of its own (a drink set, a tray, a
camera, lamps), renders the 37 calibration photos of that table and calibrates from them
exactly as `companion calibrate drinks DIR` does, then renders tray photos with ground truth
and identifies them on ONE core (cv2.setNumThreads(1), one BLAS thread).

The families (companion/sim/looks.py, FAMILIES) differ in kind, not only in seed. "dev" is
the family the reader was developed on. "eval" has other plastics, lamps, trays, cameras and
sizes, and its own seeds (900000 on; 900000-900099 were looked at while the family was built,
so reports start at 900100); it measures how the reader does on tables it was never
tuned on.

THE EVALUATION FAMILY IS ONLY EVER SCORED. For "eval" this benchmark prints totals and the
reliability table and nothing else: no misreadings, no messages of refused frames or failed
readings (their counts only), no seeds, file names or photo numbers of failures; -v lists the
dev family's misses only (and the training family's: `--family train`, its own seeds from
--train-seeds, which no model trained on: the wide looks the learned scorers learn from, there
to be looked into). Do not render eval photos to look at them one by one, and do not tune on them: a table
that has been studied measures nothing any more, so each report takes eval seeds never used
before (--eval-seeds) and says which.

Run:   .venv/bin/python benchmarks/vision.py                 (both families, 8 tables x 40 photos)
       .venv/bin/python benchmarks/vision.py --family dev --seeds 5000 --tables 2 --images 10   (quick)
       .venv/bin/python benchmarks/vision.py --scorer rules,learned ...   (both scorers on the same pieces)

A drink is "correct" when a detection whose centroid lies on it names it and is not unsure,
"wrong" when that detection names another drink, "unsure" when it is marked unsure, "missed"
when no detection lies on it; "extra" are detections on no drink, and "of them sure" those
of the extra that were not unsure (a drink taken without asking where there is none: as bad
as a wrong name). Percentages are of the
drinks in the photos. "Refused" photos are those `identify` declined (FrameError), "failed"
those on which it raised anything else (the unscored warm-up photo of each table included);
the drinks of both count as missed. The reliability table takes every detection that lies on a drink, by
its confidence: how many there are and the share that name the drink right (unsure or not);
its last column is the share right among the readings at confidence 0.9 or more that are not
marked unsure (the target: at least 99.7 %).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import copy  # noqa: E402
import logging  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.sim.looks import FAMILIES, Look  # noqa: E402
from companion.sim.render import Renderer  # noqa: E402
from companion.sim.scenes import (DIFFICULTIES, DIFFICULTY_TITLES, render_sample,  # noqa: E402
                                  write_calibration_set)
from companion.vision.calibrate import CalibrationError, calibrate_dir  # noqa: E402
from companion.vision.drinks import DEFAULT_SCORER, SCORERS, identify  # noqa: E402
from companion.vision.segment import FrameError  # noqa: E402

TARGETS = {"correct": (">=", 99.5), "wrong": ("<=", 0.3), "unsure": ("<=", 1.0), "median_ms": ("<=", 15.0)}  # issue 26, item 8
EVAL_FIRST = 900_100      # 900000-900099 were rendered to build the eval family: not fresh
TRAIN_FIRST = 1_500_000   # training-family tables no model trained or was tuned on (tools/learn_drink*.py)
RELIABLE = 0.9           # a sure reading at this confidence or more ...
RELIABLE_TARGET = 99.7   # ... is right at least this often (%)
BINS = [(0.0, 0.5, "< 0.5"), (0.5, 0.7, "0.5-0.7"), (0.7, 0.9, "0.7-0.9"), (0.9, 0.97, "0.9-0.97"),
        (0.97, float("inf"), ">= 0.97")]


def match(detections: list[dict], truth: list[dict]) -> tuple[list[tuple[dict, int | None]], set[int]]:
    """Each drink of the truth with the index of the detection on it (its centroid within 3 px
    of the drink's outline; of several, the nearest to its middle; each detection used once), or
    None where none lies on it; and the indices used."""
    used, pairs = set(), []
    for t in truth:
        box = np.array(t["box"], np.float32)
        best = None
        for j, d in enumerate(detections):
            if j in used:
                continue
            if cv2.pointPolygonTest(box, (float(d["x"]), float(d["y"])), True) > -3:
                dist = float(np.hypot(d["x"] - t["x"], d["y"] - t["y"]))
                if best is None or dist < best[0]:
                    best = (dist, j)
        if best is not None:
            used.add(best[1])
        pairs.append((t, None if best is None else best[1]))
    return pairs, used


def score(detections: list[dict], truth: list[dict], tally: dict, log_errors: list | None = None, tag: str = "",
          readings: list | None = None):
    """Tally the detections of one photo against its truth; ``readings`` gets (confidence,
    unsure, right) of every detection that lies on a drink."""
    pairs, used = match(detections, truth)
    for t, j in pairs:
        tally["drinks"] += 1
        if j is None:
            tally["missed"] += 1
            if log_errors is not None:
                log_errors.append(f"{tag} missed {t['id']}")
            continue
        d = detections[j]
        got = f"{d['color']}-{d['shape']}"
        if readings is not None:
            readings.append((float(d["confidence"]), bool(d["unsure"]), got == t["id"]))
        if d["unsure"]:
            tally["unsure"] += 1
            kind = "unsure"
        elif got == t["id"]:
            tally["correct"] += 1
            continue
        else:
            tally["wrong"] += 1
            kind = "WRONG"
        if log_errors is not None:
            why = f" [{d['_why']}]" if d.get("_why") else ""    # what made it unsure, or what a wrong one weighed
            log_errors.append(f"{tag} {kind} {t['id']} read as {got} ({d['confidence']:.2f}){why}")
    extra = len(detections) - len(used)
    tally["extra"] += extra
    # An extra reading that is sure is a drink that is not there, taken without asking: as bad as
    # a wrong name (the game moves money for it), so it is counted on its own.
    tally["extra_sure"] += sum(1 for j, d in enumerate(detections) if j not in used and not d["unsure"])
    if extra and log_errors is not None:
        log_errors.append(f"{tag} {extra} extra")


def hook(scorer: str):
    """identify's hook for ``scorer``; ``checked-set=PATH``: checked-set with another set network
    (a candidate from tools/learn_drink_pixels.py, its check chosen by tools/choose_pixel_check.py)
    read beside the committed one on the same pieces."""
    from companion.vision.drinks import scorer_hook
    if scorer.startswith("checked-set="):
        from companion.vision.checked import alone_model, check_set
        model = alone_model(scorer.split("=", 1)[1])
        return lambda pieces, an, profile: check_set(pieces, an, profile, model)
    return scorer_hook(scorer)


def candidate(scorer: str) -> bool:
    return scorer.startswith("checked-set=") and Path(scorer.split("=", 1)[1]).is_file()


def read_with(image: np.ndarray, profile, scorers: tuple[str, ...]) -> dict[str, list[dict]]:
    """The readings of one photo by each scorer. One scorer: ``identify`` itself. Several: the
    frame is analysed and split once (the pieces are the same for every scorer) and each
    scorer names the finished pieces, as ``identify`` would (the time is then that of all)."""
    if len(scorers) == 1 and not candidate(scorers[0]):
        return {scorers[0]: identify(image, profile, scorer=scorers[0])}
    from companion.vision.drinks import identify_analysis
    from companion.vision.repeats import doubt_repeats
    from companion.vision.segment import analyse
    kept = {}

    def keep(readings, an, _profile):
        kept["pieces"] = copy.deepcopy(readings)

    an = analyse(image, profile)
    got = {"rules": identify_analysis(an, profile, keep)}
    for s in scorers:
        if s != "rules":                  # each names a copy of the same pieces, in place, as in identify
            pieces = copy.deepcopy(kept["pieces"])
            hook(s)(pieces, an, profile)
            got[s] = doubt_repeats(pieces)
    return {s: got[s] for s in scorers}


def run(difficulty: str, seeds: list[int], images: int, verbose: bool, family: str = "dev",
        scorers: tuple[str, ...] = ("default",)) -> dict:
    """Score ``images`` photos of each table at ``difficulty``, for each scorer (the results
    keyed by scorer). Misses are collected (and with ``verbose`` listed) for the dev family
    only: eval photos are only ever scored."""
    scorers = tuple(DEFAULT_SCORER if s == "default" else s for s in scorers)
    per = {s: _run_one() for s in scorers}
    times: list[float] = []    # CPU time of this thread: the work of one core, whatever else runs
    walls: list[float] = []
    dev = family in ("dev", "train")   # looked into; eval is only scored
    trays: list[str] = []
    refused = crashed = 0
    for seed in seeds:
        look = Look.from_seed(seed, family=family)
        profile = calibrated(look, seed)
        if profile is None:         # calibrate refused the table's photos: a player retakes them
            continue                # (counted once per family: UNCALIBRATED, said after the table)
        trays.append(look.tray)
        renderer = Renderer(look)
        rng = np.random.default_rng([seed, 31337])
        errors = per[scorers[0]]["errors"] if dev else None
        try:
            read_with(render_sample(renderer, rng, difficulty)[0], profile, scorers)  # warm-up (caches), not scored
        except FrameError:
            pass
        except Exception as exc:            # a reader that fails is counted, the run goes on
            crashed += 1
            if errors is not None:
                errors.append(f"seed {seed} warm-up photo: reading failed: {exc!r}")
        for i in range(images):
            img, truth = render_sample(renderer, rng, difficulty)
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                found = read_with(img, profile, scorers)
            except FrameError as exc:       # counted: every drink in it is missed
                found = {s: [] for s in scorers}
                refused += 1
                if errors is not None:
                    errors.append(f"seed {seed} image {i}: frame refused: {exc}")
            except Exception as exc:        # counted: every drink in it is missed
                found = {s: [] for s in scorers}
                crashed += 1
                if errors is not None:
                    errors.append(f"seed {seed} image {i}: reading failed: {exc!r}")
            times.append(time.thread_time() - c0)
            walls.append(time.perf_counter() - t0)
            for s in scorers:
                tag = f"seed {seed} ({look.tray}) image {i}{'' if len(scorers) == 1 else ' ' + s}:" if dev else ""
                score(found[s], truth, per[s]["tally"], per[s]["errors"] if dev else None, tag, per[s]["readings"])
    out = {}
    for s in scorers:
        tally = per[s]["tally"]
        n = max(1, tally["drinks"])
        res = {k: 100.0 * tally[k] / n for k in ("correct", "wrong", "unsure", "missed", "extra", "extra_sure")}
        res.update(drinks=tally["drinks"], images=len(times), median_ms=1000 * statistics.median(times),
                   p95_ms=1000 * float(np.percentile(times, 95)),
                   wall_median_ms=1000 * statistics.median(walls), trays=trays, refused=refused,
                   crashed=crashed, readings=per[s]["readings"])
        out[s] = res
        if verbose and dev and per[s]["errors"]:
            for e in per[s]["errors"]:
                print("   ", e, file=sys.stderr)
    return out


_profiles: dict[tuple[str, int], object] = {}


def calibrated(look: Look, seed: int):
    """The table's profile, calibrated from its rendered photos as `calibrate drinks DIR` does;
    once per table, not once per difficulty (the same photos give the same profile)."""
    key = (look.family, seed)
    if key not in _profiles:
        with tempfile.TemporaryDirectory() as tmp:
            write_calibration_set(Path(tmp), look, seed)
            try:
                _profiles[key] = calibrate_dir(Path(tmp))
            except CalibrationError:
                # the table is left out of every difficulty, counted (no message: an eval
                # table's reasons are not looked at)
                _profiles[key] = None
                UNCALIBRATED.setdefault(look.family, set()).add(seed)
    return copy.deepcopy(_profiles[key])


UNCALIBRATED: dict[str, set[int]] = {}


def _run_one() -> dict:
    return {"tally": {"drinks": 0, "correct": 0, "wrong": 0, "unsure": 0, "missed": 0, "extra": 0, "extra_sure": 0},
            "errors": [], "readings": []}


def reliability(readings: list[tuple[float, bool, bool]]) -> list[str]:
    """Cells of a reliability row: per confidence bin "count: share right", then the share right
    of the sure readings at RELIABLE or more."""
    cells = []
    for lo, hi, _ in BINS:
        inside = [right for conf, _unsure, right in readings if lo <= conf < hi]
        cells.append(f"{len(inside)}: {100.0 * sum(inside) / len(inside):.1f}" if inside else "0: -")
    sure = [right for conf, unsure, right in readings if conf >= RELIABLE and not unsure]
    cells.append(f"{len(sure)}: {100.0 * sum(sure) / len(sure):.2f}" if sure else "0: -")
    return cells


def tray_counts(trays: list[str]) -> str:
    return ", ".join(f"{kind} {trays.count(kind)}" for kind in dict.fromkeys(sorted(trays)))


def meets(res: dict) -> list[str]:
    missed = []
    for key, (op, target) in TARGETS.items():
        v = res[key]
        if (op == ">=" and v < target) or (op == "<=" and v > target):
            missed.append(f"{key} {v:.2f} (target {op} {target})")
    return missed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--family", choices=["dev", "eval", "both", "train"], default="both",
                    help="the development family, the evaluation family or both (default); or the "
                         "training family (its own seeds, --train-seeds: to look into, as dev)")
    ap.add_argument("--seeds", type=int, default=5000, help="first dev seed (one table per seed)")
    ap.add_argument("--eval-seeds", type=int, default=EVAL_FIRST,
                    help=f"first eval seed (default {EVAL_FIRST}; the family's seeds are 900000 on)")
    ap.add_argument("--train-seeds", type=int, default=TRAIN_FIRST,
                    help=f"first training-family seed (default {TRAIN_FIRST}: none of the models trained on them)")
    ap.add_argument("--tables", type=int, default=8, help="tables (looks) per difficulty and family")
    ap.add_argument("--images", type=int, default=40, help="photos per table")
    ap.add_argument("--difficulty", choices=list(DIFFICULTIES), action="append",
                    help="only this difficulty (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every miss on stderr (dev family only)")
    ap.add_argument("--scorer", default="default",
                    help="how pieces are named: rules, learned, pixels, or several side by side on the same "
                         "pieces (rules,learned,pixels); checked-set=PATH: checked-set with another set "
                         "network; default: identify's default")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    logging.basicConfig(level=logging.ERROR)
    scorers = tuple(DEFAULT_SCORER if x.strip() == "default" else x.strip() for x in args.scorer.split(","))
    if not scorers or any(x not in SCORERS and not candidate(x) for x in scorers):
        ap.error(f"--scorer: one or more of {', '.join(SCORERS)} or checked-set=PATH (an existing file), "
                 "comma-separated")
    families = ["dev", "eval"] if args.family == "both" else [args.family]
    firsts = {"dev": args.seeds, "eval": args.eval_seeds, "train": args.train_seeds}
    for fam in families:
        last = firsts[fam] + args.tables - 1
        if firsts[fam] not in FAMILIES[fam].seeds or last not in FAMILIES[fam].seeds:
            ap.error(f"{fam} seeds are {FAMILIES[fam].seeds.start}..{FAMILIES[fam].seeds.stop - 1}, "
                     f"not {firsts[fam]}..{last}")
    all_ok = True
    started = time.perf_counter()
    for fam in families:
        seeds = list(range(firsts[fam], firsts[fam] + args.tables))
        print(f"\nvision benchmark, {fam} family: seeds {seeds[0]}..{seeds[-1]}, {args.images} photos per table, "
              f"1280x720, one core (cv2.setNumThreads(1)); scorer {', '.join(scorers)}"
              + ("" if len(scorers) == 1 else " (the same pieces; the time is the pipeline's with every scorer)"))
        print("| scorer | difficulty | trays | drinks | correct % | wrong % | unsure % | missed % | extra % | "
              "of them sure % | refused / failed photos | median ms | p95 ms | wall median ms | targets |")
        print("|" + "---|" * 15)
        rows = {s: [] for s in scorers}
        for diff in args.difficulty or list(DIFFICULTIES):
            results = run(diff, seeds, args.images, args.verbose and fam != "eval", fam, scorers)
            for scorer, res in results.items():
                miss = meets(res)
                all_ok &= not miss
                rows[scorer].append((DIFFICULTY_TITLES[diff], res["readings"]))
                print(f"| {scorer} | {DIFFICULTY_TITLES[diff]} | {tray_counts(res['trays'])} | {res['drinks']} | "
                      f"{res['correct']:.2f} | {res['wrong']:.2f} | {res['unsure']:.2f} | {res['missed']:.2f} | "
                      f"{res['extra']:.2f} | {res['extra_sure']:.2f} | {res['refused']} / {res['crashed']} | {res['median_ms']:.1f} | "
                      f"{res['p95_ms']:.1f} | {res['wall_median_ms']:.1f} | "
                      f"{'met' if not miss else 'MISSED: ' + '; '.join(miss)} |", flush=True)
        if UNCALIBRATED.get(fam):
            print(f"({len(UNCALIBRATED[fam])} of the {len(seeds)} tables left out: calibrate refused their photos)")
        print(f"\nreliability, {fam} family: detections on drinks by confidence, \"count: % right\"")
        print("| scorer | difficulty | " + " | ".join(label for _, _, label in BINS)
              + f" | >= {RELIABLE} and not unsure |")
        print("|" + "---|" * (len(BINS) + 3))
        for scorer in scorers:
            everything = [r for _, readings in rows[scorer] for r in readings]
            for title, readings in rows[scorer] + [("all", everything)]:
                print(f"| {scorer} | {title} | " + " | ".join(reliability(readings)) + " |")
            sure = [right for conf, unsure, right in everything if conf >= RELIABLE and not unsure]
            share = 100.0 * sum(sure) / len(sure) if sure else 0.0
            all_ok &= share >= RELIABLE_TARGET
            print(f"{scorer}: sure readings at >= {RELIABLE}: {share:.2f} % right "
                  f"({'met' if share >= RELIABLE_TARGET else 'MISSED'}: target >= {RELIABLE_TARGET} %)", flush=True)
    print("\ntargets: correct >= 99.5 %, wrong <= 0.3 %, unsure <= 1 %, median <= 15 ms per frame; "
          f"sure readings at >= {RELIABLE} right >= {RELIABLE_TARGET} %")
    print("ms: CPU time of the identifying thread per photo (one core); wall: elapsed, which other load inflates")
    print(f"took {time.perf_counter() - started:.0f} s")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
