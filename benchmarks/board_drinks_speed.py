"""What the board reader's drink network costs a frame (issue 29): the network's scores for
one board's asked drink places, per model, by turns on the same places, one core.

    .venv/bin/python benchmarks/board_drinks_speed.py [--looks 4] [--repeats 9] [--model PATH ...]

The places are those of tools/learn_board_drinks.py's bar-setting development looks (240000 on,
four boards each, drinks at 8-36 stations; rendered and cached under build/learn_board_drinks/
as that tool does): per board, the drink places the reader asks the network about (those that
changed: ``board_drinks.asked_places``), their numbers and squares as the reader cuts them.
Each board's places are scored ``--repeats`` times by each model by turns (so that other load on
the machine falls on all alike) and the median kept; printed per model: the median and the 90th
percentile over the boards, in ms, and the asked places per board. ``--model``: npz files of
board_drinks.save_model (default: the committed model only).
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from functools import partial  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import learn_board_drinks  # noqa: E402
from by_turns import by_turns  # noqa: E402

from companion.vision import board_drinks  # noqa: E402


def boards(looks: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(numbers, squares) of the asked places of each board of the first ``looks`` bar-setting looks."""
    out = []
    for seed in range(learn_board_drinks.SEEDS["bars"]["dev"], learn_board_drinks.SEEDS["bars"]["dev"] + looks):
        data = learn_board_drinks.look_data(seed, "dev")
        if data is None:
            continue
        x = data["x"].astype(np.float64)
        per_board = len(x) // learn_board_drinks.BOARDS
        asked = board_drinks.asked_places(x)
        first = 0                                   # the squares are the asked places' alone, board by board
        for b in range(learn_board_drinks.BOARDS):
            rows = asked[b * per_board:(b + 1) * per_board]
            n = int(rows.sum())
            out.append((x[b * per_board:(b + 1) * per_board][rows], data["squares"][first:first + n]))
            first += n
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--looks", type=int, default=4, help="bar-setting development looks (four boards each)")
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--model", action="append", type=Path, help="a drink model's npz (again for more)")
    args = ap.parse_args(argv)
    paths = args.model or [board_drinks.MODEL_PATH]
    models = [board_drinks.drink_model(str(p)) for p in paths]
    data = boards(args.looks)
    times = np.zeros((len(models), len(data)))
    for i, (x, squares) in enumerate(data):
        times[:, i] = by_turns([partial(model.probabilities, x, squares) for model in models], args.repeats)
    asked = [len(x) for x, _ in data]
    print(f"{len(data)} boards, asked drink places per board: median {int(np.median(asked))}, most {max(asked)}")
    for path, t in zip(paths, times):
        print(f"{path}: median {1000 * np.median(t):.2f} ms a board, p90 {1000 * np.quantile(t, 0.9):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
