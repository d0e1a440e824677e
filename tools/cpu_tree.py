"""Run a command and count the CPU seconds of it and of every process it starts, by kind.

`time` counts only the children a process reaps, and Playwright's Chromium is reaped by nobody in
the test run: its CPU (most of a browser test's) never shows there. This samples /proc five times
a second over the command's whole process tree, keeps each process's last CPU time (so a process
that ends is counted up to its last sample) and sums by kind: chromium, the `companion serve`
processes, the rendered tables' builder, Playwright's node driver, pytest.

    .venv/bin/python tools/cpu_tree.py .venv/bin/python -m pytest tests/test_dashboard_games.py -q

Used for the suite's measurements in docs/performance.md (2026-12-03).
"""
from __future__ import annotations

import collections
import os
import subprocess
import sys
import time

HZ = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, int, int] | None:
    """(parent, CPU ticks, start time) of a process, or None when it is gone."""
    try:
        text = open(f"/proc/{pid}/stat").read()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()
    return int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[19])


def _kind(pid: int) -> str:
    try:
        cmd = open(f"/proc/{pid}/cmdline").read().replace("\0", " ")
    except OSError:
        return "?"
    for needle, kind in (("chromium", "chromium"), ("companion.cli serve", "server"), ("server_fork", "server"), ("prerender", "prerender"),
                         ("playwright", "node")):
        if needle in cmd:
            return kind
    return "pytest" if "pytest" in cmd or "exec(eval" in cmd else cmd[:40]


def main(argv: list[str]) -> int:
    root = subprocess.Popen(argv)
    seen: dict[tuple[int, int], list] = {}   # (pid, start) -> [ticks, kind]
    began = time.monotonic()
    while True:
        done = root.poll() is not None
        stats = {int(d): s for d in os.listdir("/proc") if d.isdigit() and (s := _stat(int(d)))}
        tree, grown = {root.pid}, True
        while grown:
            grown = False
            for pid, (parent, _, _) in stats.items():
                if pid not in tree and parent in tree:
                    tree.add(pid)
                    grown = True
        for pid in tree & stats.keys():
            _, ticks, start = stats[pid]
            entry = seen.setdefault((pid, start), [ticks, _kind(pid)])
            entry[0] = max(entry[0], ticks)
        if done:
            break
        time.sleep(0.2)
    by = collections.Counter()
    for ticks, kind in seen.values():
        by[kind] += ticks / HZ
    print(f"\n== wall {time.monotonic() - began:.1f} s, cpu {sum(by.values()):.1f} s: "
          + ", ".join(f"{k} {v:.1f}" for k, v in by.most_common(8)), file=sys.stderr)
    return root.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
