"""The crash campaign, long: SIGKILL the real server at random points of many games, restart it
on the same data folder, and check after every restart that no confirmed move is lost, no game
waits on nobody and every view equals a fold of the stored log (tests/crash_support.py).

Run: .venv/bin/python benchmarks/crash_campaign.py [--kills 200] [--seed 25]
Prints one line per kill on stderr and the figures as JSON on stdout; exits 1 on the first
failed check, with what failed. tests/test_crash_campaign.py runs the same with 8 kills.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from crash_support import Campaign  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=200, help="SIGKILLs of the server (default 200)")
    parser.add_argument("--seed", type=int, default=25, help="the campaign's seed (default 25)")
    parser.add_argument("--data", type=Path, default=None, help="data folder (default: a new temporary one)")
    args = parser.parse_args()
    data = args.data or Path(tempfile.mkdtemp(prefix="crash-campaign-")) / "data"
    campaign = Campaign(data, seed=args.seed, say=lambda line: print(line, file=sys.stderr, flush=True))
    try:
        report = campaign.run(kills=args.kills)
    except AssertionError as exc:
        print(f"crash campaign failed (seed {args.seed}, data {data}): {exc}", file=sys.stderr)
        return 1
    finally:
        campaign.close()
    print(json.dumps({"seed": args.seed, **report.summary()}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
