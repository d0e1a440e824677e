"""Shared by the vision tests: running the vision subcommands in-process, as `companion` would,
and rendered tables with the photos the benchmark takes of them."""
from __future__ import annotations

import argparse
import copy

import numpy as np

from companion.sim.looks import Look
from companion.sim.render import Renderer
from companion.sim.scenes import render_sample, write_calibration_set
from companion.vision.calibrate import calibrate_dir
from companion.vision.cli import register


def run_cli(*argv: str) -> int:
    """Parse ``argv`` with the vision subcommands and run it; returns the exit code."""
    parser = argparse.ArgumentParser(prog="companion")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    return args.func(args)


def reading_at(found: list[dict], truth: dict) -> dict:
    return min(found, key=lambda f: (f["x"] - truth["x"]) ** 2 + (f["y"] - truth["y"]) ** 2)


_calibrated: dict[int, object] = {}


def benchmark_photo(tmp_path, seed: int, skip: int, difficulty: str = "touching"):
    """A table of its own, calibrated from its rendered photos, and the photo that follows the
    first ``skip`` of the benchmark's sequence at that difficulty: profile, image, truth.

    A table is calibrated once per test run (a seed always renders the same photos, and
    rendering and calibrating them is most of such a test's time); each caller gets its own
    copy of the profile to change."""
    look = Look.from_seed(seed)
    if seed not in _calibrated:
        write_calibration_set(tmp_path, look, seed)
        _calibrated[seed] = calibrate_dir(tmp_path)
    profile = copy.deepcopy(_calibrated[seed])
    renderer = Renderer(look)
    rng = np.random.default_rng([seed, 31337])
    for _ in range(skip):
        render_sample(renderer, rng, difficulty)
    return (profile, *render_sample(renderer, rng, difficulty))
