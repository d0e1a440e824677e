"""What the drink checks let through (issue 26): the sure mistakes and sure extra readings of
``checked-pixels`` and ``checked-set`` on training-family tables, by kind (a shape of the right
colour, a colour of the right shape, both), by pair (truth -> read) and by how the piece was
found (fitted by the second look or segmented).

    .venv/bin/python tools/drink_check_mistakes.py [--tables chosen|test|both]

``chosen``: the tables the checks were chosen on (tools/choose_pixel_check.held_out_tables);
``test``: its TEST tables (rendered when missing). Each check as its model file's settings say
(``checked.pixel_check_settings``, ``checked.no_drink_settings``), from the cached crops; never
the evaluation family.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import collections  # noqa: E402
import copy  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from types import SimpleNamespace  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import choose_pixel_check as chooser  # noqa: E402
import learn_drink_pixels as pixels_tool  # noqa: E402
import learn_drinks as base  # noqa: E402


def readings(tabs: list[dict], path: Path) -> list[dict]:
    """Every piece of the tables checked as the model's settings say: its name, its drink
    (None: on no drink), sure or not, fitted or not."""
    from companion.vision import checked
    from companion.vision.repeats import doubt_repeats
    model = checked.alone_model(str(path))
    agree, fitted, mirror = checked.pixel_check_settings(model)
    guard = checked.no_drink_settings(model)
    out = []
    for tab in tabs:
        for ph in tab["photos"]:
            if not ph["pieces"]:
                continue
            an = SimpleNamespace(sharpness=ph["sharpness"])
            pieces = copy.deepcopy(ph["pieces"])
            p = checked.pixel_opinion(pieces, an, tab["profile"], model, mirror, ph["crops"])
            at = {id(d): k for k, d in enumerate(pieces)}
            checked.check(pieces, an, tab["profile"], lambda todo, *_: p[[at[id(d)] for d in todo]], "pixels",
                          agree=agree, judge_fitted=fitted, no_drink=guard)
            doubt_repeats(pieces)
            out.extend({"read": f"{d['color']}-{d['shape']}", "truth": t, "sure": not d["unsure"],
                        "fitted": bool(d.get("_fitted"))} for d, t in zip(pieces, ph["truth"]))
    return out


def summary(rows: list[dict], title: str, top: int = 12) -> None:
    wrong = [r for r in rows if r["sure"] and r["truth"] is not None and r["truth"] != r["read"]]
    extra = [r for r in rows if r["sure"] and r["truth"] is None]
    kinds, pairs = collections.Counter(), collections.Counter()
    for r in wrong:
        (tc, ts), (rc, rs) = r["truth"].split("-", 1), r["read"].split("-", 1)
        kind = "colour" if ts == rs else "shape" if tc == rc else "both"
        kinds[kind] += 1
        pairs[f"{kind}: {ts if kind == 'shape' else tc if kind == 'colour' else r['truth']} -> "
              f"{rs if kind == 'shape' else rc if kind == 'colour' else r['read']}"] += 1
    print(f"\n{title}: {sum(r['truth'] is not None for r in rows)} pieces on drinks; sure wrong {len(wrong)} "
          f"(fitted {sum(r['fitted'] for r in wrong)}), sure extra {len(extra)} (fitted {sum(r['fitted'] for r in extra)}); "
          f"shape only {kinds['shape']}, colour only {kinds['colour']}, both {kinds['both']}")
    for pair, n in pairs.most_common(top):
        print(f"  {n:4d}  {pair}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", choices=["chosen", "test", "both"], default="both")
    args = ap.parse_args(argv)
    import cv2
    cv2.setNumThreads(1)
    import logging
    logging.basicConfig(level=logging.ERROR)
    from companion.vision.checked import ALONE_PATH, SET_PATH
    sets = {}
    if args.tables in ("chosen", "both"):
        sets["the tables the checks were chosen on"] = chooser.held_out_tables()
    if args.tables in ("test", "both"):
        sets["TEST " + ", ".join(f"{s.start}..{s[-1]}" for _, s in chooser.TEST)] = pixels_tool.data(chooser.TEST, base.PHOTOS, 0)
    for name, tabs in sets.items():
        for label, path in (("checked-pixels", ALONE_PATH), ("checked-set", SET_PATH)):
            summary(readings(tabs, path), f"{name}, {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
