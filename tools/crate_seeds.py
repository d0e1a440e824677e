"""The crate training tools' looks: a seed range of a training family, never the evaluation
family's looks (benchmarks/crates.py only ever scores those).

>>> training_seeds("varied", "0:3")
range(0, 3)
>>> training_seeds("eval", "0:3")
Traceback (most recent call last):
...
SystemExit: evaluation looks are only scored (benchmarks/crates.py), never learned from
"""
from __future__ import annotations

EVAL_SEEDS_FROM = 910_000        # the evaluation family's seeds (benchmarks/crates.py) start here


def training_seeds(family: str, seeds: str) -> range:
    """The looks ``LO:HI`` of ``family``; refused (SystemExit) for the evaluation family or a
    range that reaches its seeds."""
    lo, hi = (int(v) for v in seeds.split(":"))
    if family == "eval" or hi > EVAL_SEEDS_FROM:
        raise SystemExit("evaluation looks are only scored (benchmarks/crates.py), never learned from")
    return range(lo, hi)
