"""Measuring a way of naming the drinks on rendered tables, as benchmarks/vision.py counts: per
difficulty, correct / wrong / unsure / missed / extra, the readings by confidence, and the
markdown tables the drink tools print. Shared by tools/learn_drinks.py (the feature scorer) and
the pixel network's tools (learn_drink_pixels, choose_pixel_check, choose_sureness,
choose_network_names), which pass their own ways of naming as ``read``.
"""
from __future__ import annotations

import copy
from types import SimpleNamespace

from companion.vision.checked import AGREED

DIFFICULTIES = ("separated", "touching", "drift", "hard")
BINS = [(0.0, 0.5, "< 0.5"), (0.5, 0.7, "0.5-0.7"), (0.7, 0.9, "0.7-0.9"), (0.9, 0.97, "0.9-0.97"),
        (0.97, 1.01, ">= 0.97")]


def readings_of(tab: dict, photo: dict, how: str, model=None) -> list[dict]:
    """The final readings of a photo: the rules' as the pipeline gave them, or the same pieces
    named again by the learned scorer and then checked for repeats as the pipeline does."""
    if how == "rules":
        return photo["rules"]
    if how.startswith("rules at "):      # the rules asked below the learned scorer's bar: like for like
        bar = float(how.split()[-1])
        return [{**d, "unsure": d["unsure"] or d["confidence"] < bar} for d in photo["rules"]]
    from companion.vision.learned import rescore
    from companion.vision.repeats import doubt_repeats
    pieces = copy.deepcopy(photo["pieces"])
    rescore(pieces, SimpleNamespace(sharpness=photo["sharpness"]), tab["profile"], model)
    return doubt_repeats(pieces)


def measure(tabs: list[dict], how: str, model=None, read=readings_of) -> dict:
    """Per difficulty and over all: correct, wrong, unsure, missed, extra (% of the drinks, as
    benchmarks/vision.py counts them), and the readings on drinks by confidence. ``read(tab,
    photo, how, model)``: a photo's final readings (a tool's own ways of naming; default
    ``readings_of``)."""
    res = {}
    for difficulty in (*DIFFICULTIES, "all"):
        # by_network: sure readings on drinks that the check's naming named (checked.Naming);
        # by_agreement: those of them named under the lower bar, one of the rules' two drinks
        tally = dict(drinks=0, correct=0, wrong=0, unsure=0, extra=0, extra_sure=0, fitted=0, named=0,
                     by_network=0, by_network_right=0, by_agreement=0, by_agreement_right=0)
        conf = []
        for tab in tabs:
            for ph in tab["photos"]:
                if difficulty != "all" and ph["difficulty"] != difficulty:
                    continue
                tally["drinks"] += ph["drinks"]
                for d, truth in zip(read(tab, ph, how, model), ph["truth"]):
                    by_network = "_named" in d and not d["unsure"]
                    by_agreement = by_network and AGREED in d["_named"]
                    tally["by_network"] += by_network
                    tally["by_agreement"] += by_agreement
                    if truth is None:
                        tally["extra"] += 1
                        tally["extra_sure"] += not d["unsure"]
                        continue
                    right = f"{d['color']}-{d['shape']}" == truth
                    tally["by_network_right"] += by_network and right
                    tally["by_agreement_right"] += by_agreement and right
                    tally["fitted"] += bool(d.get("_fitted"))
                    tally["named"] += right         # the name right, sure or not
                    tally["unsure" if d["unsure"] else "correct" if right else "wrong"] += 1
                    conf.append((d["confidence"], d["unsure"], right))
        n = max(tally["drinks"], 1)
        tally["missed"] = tally["drinks"] - tally["correct"] - tally["wrong"] - tally["unsure"]
        res[difficulty] = {**tally, **{f"{k}%": 100.0 * tally[k] / n
                                       for k in ("correct", "wrong", "unsure", "missed", "extra", "named")},
                           "reliability": reliability(conf)}
    return res


def reliability(conf: list[tuple[float, bool, bool]]) -> list[str]:
    cells = []
    for lo, hi, _ in BINS:
        inside = [right for c, _u, right in conf if lo <= c < hi]
        cells.append(f"{len(inside)}: {100.0 * sum(inside) / len(inside):.1f}" if inside else "0: -")
    sure = [right for c, unsure, right in conf if c >= 0.9 and not unsure]
    cells.append(f"{len(sure)}: {100.0 * sum(sure) / len(sure):.2f}" if sure else "0: -")
    return cells


def report(title: str, results: dict[str, dict]) -> None:
    print(f"\n{title}")
    print("| scorer | difficulty | drinks | correct % | wrong % | unsure % | missed % | extra % (sure) | named right % |")
    print("|---|---|---|---|---|---|---|---|---|")
    for how, res in results.items():
        for diff, r in res.items():
            print(f"| {how} | {diff} | {r['drinks']} | {r['correct%']:.2f} | {r['wrong%']:.2f} | {r['unsure%']:.2f} | "
                  f"{r['missed%']:.2f} | {r['extra%']:.2f} ({r['extra_sure']}) | {r['named%']:.2f} |")
    print("\nreliability (readings on drinks, \"count: % right\"; last: sure readings at >= 0.9)")
    print("| scorer | difficulty | " + " | ".join(b[2] for b in BINS) + " | sure at >= 0.9 |")
    print("|---|---|" + "---|" * (len(BINS) + 1))
    for how, res in results.items():
        for diff, r in res.items():
            print(f"| {how} | {diff} | " + " | ".join(r["reliability"]) + " |")
