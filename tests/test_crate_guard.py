"""The crate reader's learnt frame guard (crate_guard.py): a frame's numbers from its fields'
probabilities, the guard's chance and threshold, its fit (tools/learn_crate_guard.py fit)."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np

from companion.vision.crate_guard import NUMBERS, FrameGuard, frame_guard, frame_numbers
from companion.vision.crate_net import CLASSES

TOOL = Path(__file__).resolve().parents[1] / "tools" / "learn_crate_guard.py"
NONE, EMPTY, OFF = CLASSES.index("none"), CLASSES.index("empty"), CLASSES.index("off")


def learn_guard(argv: list) -> None:
    spec = importlib.util.spec_from_file_location("learn_crate_guard", TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    tool.main(argv)


def probabilities(*rows: dict) -> np.ndarray:
    prob = np.zeros((len(rows), len(CLASSES)))
    for i, row in enumerate(rows):
        for k, v in row.items():
            prob[i, k] = v
    return prob


def test_a_frames_numbers_are_its_slots_their_certainty_and_the_patches_cut_between_fields():
    prob = probabilities({EMPTY: 1.0}, {2: 0.6, 3: 0.4}, {NONE: 1.0}, {NONE: 0.5, OFF: 0.5}, {EMPTY: 0.8, OFF: 0.2})
    numbers = dict(zip(NUMBERS, frame_numbers(prob, sure=1)))
    assert numbers["slots"] == 3 and numbers["sure"] == 1            # the "off" patch named as no slot
    assert numbers["slot_top_median"] == 0.8
    assert numbers["off_mean"] == (0.5 + 0.2) / 5
    assert numbers["off_slots"] == 0.2 / 3
    assert numbers["torn"] == 1                                        # p(none) 0.5: torn about being a slot


def test_the_guard_doubts_a_frame_over_its_threshold():
    guard = FrameGuard(mean=np.zeros(len(NUMBERS)), std=np.ones(len(NUMBERS)),
                       weights=np.eye(len(NUMBERS))[NUMBERS.index("off_mean")] * 4, bias=-2.0, threshold=0.5)
    calm, cut = np.zeros(len(NUMBERS)), np.eye(len(NUMBERS))[NUMBERS.index("off_mean")]
    assert guard.chance(calm) < 0.5 < guard.chance(cut)
    assert not guard.doubtful(calm) and guard.doubtful(cut)


def test_the_fit_reads_no_frame_holding_a_mistake_and_writes_a_guard_the_reader_loads(tmp_path):
    rng = np.random.default_rng(0)
    rows = []
    for i in range(300):                   # frames cut between fields hold the mistakes
        off = float(rng.uniform(0, 0.3))
        wrong = int(off > 0.2 and rng.random() < 0.8)
        rows.append({"seed": i, "frame": 0, "right": 10, "wrong": wrong,
                     **{k: float(rng.normal()) for k in NUMBERS}, "off_mean": off})
    data = tmp_path / "frames.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "guard.json"
    learn_guard(["fit", str(data), "--out", str(out)])
    guard = frame_guard(str(out))
    read = [not guard.doubtful(np.array([r[k] for k in NUMBERS])) for r in rows]
    assert not any(ok and r["wrong"] for ok, r in zip(read, rows))   # fewer than 100 mistaken frames: none read
    assert sum(ok for ok, r in zip(read, rows) if r["off_mean"] < 0.15) > 100   # the clean ones mostly read
    assert json.loads(out.read_text())["fitted"]["frames"] == 300
