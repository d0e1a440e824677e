"""How long the simulated tray takes to lay out touching drinks (companion/sim/scenes.py), and a
hash of the placements, so that a change to the layout can be shown to place every drink where
it did before:

    PYTHONPATH=. .venv/bin/python benchmarks/scene_placement.py

Six touching scenes (3-8 drinks) on each of six development-family and six training-family
looks; prints the placements' hash and the seconds spent placing them (wall clock, summed).
"""
from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.sim.looks import Look  # noqa: E402
from companion.sim.render import Renderer  # noqa: E402
from companion.sim.scenes import random_scene  # noqa: E402

LOOKS = [29900 + k for k in range(6)] + [1_450_000 + k for k in range(6)]
SCENES = 6


def main() -> int:
    digest, took = hashlib.sha256(), 0.0
    for seed in LOOKS:
        look = Look.from_seed(seed, family="dev" if seed < 1_000_000 else "train")
        renderer = Renderer(look)
        rng = np.random.default_rng(seed)
        for _ in range(SCENES):
            started = time.perf_counter()
            scene = random_scene(look, renderer, rng, int(rng.integers(3, 9)), True)
            took += time.perf_counter() - started
            digest.update(repr([(p.drink, p.x, p.y, p.angle, p.spin) for p in scene]).encode())
    print(f"placements {digest.hexdigest()[:16]}, {len(LOOKS) * SCENES} touching scenes placed in {took:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
