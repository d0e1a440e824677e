"""Finds a photo of a shared table for a vision test that has a table of its own (docs/testing.md,
"Rendered tables"): the test itself is run with ``benchmark_photo`` answering each photo of the
given tables in turn, and the first photo on which it passes is printed. A test that asserts
what its breaks do (a monkeypatched constant, then the old reading) passes only on a photo
that shows the behaviour it guards; a test without such an assertion would pass on almost any
photo, so this is no way to move it.

Run from the checkout (the tables come from the rendered tables' cache, tests/vision_support.py,
built on first use):

    .venv/bin/python tests/find_shared_photo.py --tables 20002,9002 --photos 40 \\
        test_vision_split::test_shade_caught_between_drinks_is_no_drink@hard

Each test is ``module::name@difficulty``; ``--first`` skips that many photos of each sequence.
"""
from __future__ import annotations

import argparse
import copy
import importlib
import inspect
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]     # vision_support, and this checkout's companion

from companion.sim.looks import Look  # noqa: E402
from companion.sim.render import Renderer  # noqa: E402
from companion.sim.scenes import render_sample, skip_sample  # noqa: E402
from vision_support import calibrated  # noqa: E402


def passes(test, profile, image, truth) -> bool:
    """Does ``test`` pass when ``benchmark_photo`` answers this photo (whatever it asks for)?"""
    module = sys.modules[test.__module__]
    module.benchmark_photo = lambda *_, **__: (copy.deepcopy(profile), image.copy(), copy.deepcopy(truth))
    with pytest.MonkeyPatch.context() as monkeypatch:
        given = {"tmp_path": Path(tempfile.mkdtemp()), "monkeypatch": monkeypatch}
        try:
            test(**{name: given[name] for name in inspect.signature(test).parameters})
        except (AssertionError, LookupError, StopIteration, ValueError):   # StopIteration: its drink is not there
            return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tests", nargs="+", help="module::test_name@difficulty")
    parser.add_argument("--tables", required=True, help="seeds of shared tables, comma-separated")
    parser.add_argument("--photos", type=int, default=30, help="photos of each sequence to try")
    parser.add_argument("--first", type=int, default=0, help="photos of each sequence to skip first")
    args = parser.parse_args()
    pending = {}
    for spec in args.tests:
        name, difficulty = spec.rsplit("@", 1)
        module, function = name.split("::")
        pending[name] = (getattr(importlib.import_module(module), function), difficulty)
    for seed in (int(s) for s in args.tables.split(",")):
        profile = calibrated(seed)
        for difficulty in sorted({d for _, d in pending.values()}):
            renderer, rng = Renderer(Look.from_seed(seed)), np.random.default_rng([seed, 31337])  # as benchmark_photo
            for skip in range(args.photos):
                todo = [name for name, (_, d) in pending.items() if d == difficulty]
                if not todo:
                    break
                if skip < args.first:
                    skip_sample(renderer, rng, difficulty)
                    continue
                image, truth = render_sample(renderer, rng, difficulty)
                for name in todo:
                    if passes(pending[name][0], profile, image, truth):
                        print(f"{name}: benchmark_photo(tmp_path, {seed}, {skip}, {difficulty!r})", flush=True)
                        del pending[name]
    for name in pending:
        print(f"{name}: no photo found", flush=True)


if __name__ == "__main__":
    main()
