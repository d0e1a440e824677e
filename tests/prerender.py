"""Build the rendered tables and photos the vision tests use, all of them, two at a time, while
the tests start (`make test` runs it in the background beside pytest).

Why: a fresh clone has none of them cached (tests/vision_support.py builds each on first use,
about 5 s a table), and built on first use they pile up on whichever worker meets them first
while the other worker waits on a lock or runs out of other work: on two cores that took some
110 s of the suite's wall time; built alongside they fill the cores that the browser tests,
which run first, leave idle while they wait on pages (docs/performance.md). What is missing
from the list is still built on first use, as before; what is cached already is skipped.

The list, tests/data/rendered.json, is what the vision tests asked for in a run:
    .venv/bin/python tests/prerender.py --record    # runs the vision tests once, writes the list
    .venv/bin/python tests/prerender.py --jobs 2    # builds what is missing
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
LIST = HERE / "data" / "rendered.json"
# Rough seconds each kind takes, so that the longest start first and both processes end together.
COST = {"profile": 5.5, "calset": 5.0, "photo": 0.5}


def build(spec: dict) -> float:
    import vision_support  # in the worker process: numba's kernels and OpenCV loaded there

    started = time.monotonic()
    kind, args = spec["kind"], {k: v for k, v in spec.items() if k != "kind"}
    vision_support.BUILDERS[kind](**args)
    return time.monotonic() - started


def record() -> int:
    """Run the vision tests with what they ask for noted, and write the list (sorted, once each)."""
    with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as noted:
        env = {**os.environ, "TTC_RECORD_RENDERED": noted.name}
        code = subprocess.call([sys.executable, "-m", "pytest", "-q", "-n", "2", "-m", "vision",
                                "-p", "no:cacheprovider"], cwd=HERE.parent, env=env)
        specs = {json.dumps(json.loads(line), sort_keys=True) for line in noted if line.strip()}
    LIST.parent.mkdir(exist_ok=True)
    LIST.write_text("[\n" + ",\n".join(sorted(specs)) + "\n]\n")  # one a line: a change reads as one
    print(f"{len(specs)} tables and photos listed in {LIST.relative_to(HERE.parent)}")
    return code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=2, help="processes building side by side (default 2)")
    parser.add_argument("--record", action="store_true", help="run the vision tests and write the list anew")
    args = parser.parse_args()
    if args.record:
        return record()
    import vision_support

    for dropped in vision_support.prune():   # (the cache is the machine's, not the checkout's)
        print(f"rendered tables of older code dropped: {dropped}")
    specs = json.loads(LIST.read_text()) if LIST.exists() else []
    specs.sort(key=lambda s: -COST.get(s["kind"], 1.0))
    started = time.monotonic()
    with Pool(max(1, args.jobs)) as pool:
        took = pool.map(build, specs, chunksize=1)
    built = sum(t > 0.2 for t in took)  # the rest were cached already
    print(f"rendered tables ready ({built} of {len(specs)} built, {time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
