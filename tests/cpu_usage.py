"""CPU seconds per test, the test's own and every process it made work: `--cpu-log FILE`.

Why CPU and not wall seconds: the suite is CPU-bound on two cores shared with other work, and a
test's wall time grows with the machine's load while its CPU seconds hardly move. Most of a
browser test's CPU is spent outside pytest (Chromium's renderers, the `companion serve` process),
and neither `time` nor `getrusage(RUSAGE_CHILDREN)` sees Chromium's (it is
reaped at the very end, and it reaps its renderers without counting their time). So this samples
/proc five times a second: the pytest process and every process below it (the node driver,
Chromium and its renderers, the servers, simavr), each one's own time, kept when it ends, from
the start of a test's setup to the end of its teardown. A module fixture is counted with the test that built it (setup) or tore it down.

    .venv/bin/python -m pytest -n 2 ... --cpu-log build/cpu.jsonl
    .venv/bin/python tests/cpu_usage.py build/cpu.jsonl        # by kind and by module

Each worker appends one JSON line per test: nodeid, module, kind (tests/suite_plan.py), cpu
(seconds), wall (seconds), worker, end (when it ended, Unix seconds: a worker idling at the end),
failed. Used for docs/performance.md ("The test suite", 2026-12-03).
"""
from __future__ import annotations

import collections
import json
import os
import sys
import threading
import time

import pytest

HZ = os.sysconf("SC_CLK_TCK")


class _Sampler:
    """The CPU ticks of this process and every process below it, read from /proc a few times a
    second: each process's own user and system time, the last seen kept when it ends. (Not the
    children's time a parent reaped: Chromium reaps its renderers without counting them, and a
    count kept of both would count a reaped server twice.) A process that lives shorter than a
    sample is missed: few do here (the servers, renderers and simavr live for seconds)."""

    EVERY = 0.2   # seconds between samples

    def __init__(self) -> None:
        self.root = os.getpid()
        self.seen: dict[tuple[int, int], int] = {}   # (pid, start time) -> last own ticks
        self.lock = threading.Lock()
        threading.Thread(target=self._run, daemon=True, name="cpu-sampler").start()

    def _run(self) -> None:
        while True:
            time.sleep(self.EVERY)
            self.sample()

    def sample(self) -> int:
        """Sample now; the ticks of every process seen so far."""
        parents, own = {}, {}
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat") as f:
                    text = f.read()
            except OSError:          # gone between the listing and the read
                continue
            fields = text[text.rfind(")") + 2:].split()
            if len(fields) < 20:     # read while the process was exiting: its stat came back cut short
                continue
            key = (int(name), int(fields[19]))
            parents[key[0]] = int(fields[1])
            own[key[0]] = (key, int(fields[11]) + int(fields[12]))   # utime + stime
        children = collections.defaultdict(list)
        for pid, parent in parents.items():
            children[parent].append(pid)
        with self.lock:
            todo = [self.root]
            while todo:
                pid = todo.pop()
                if pid in own:
                    key, ticks = own[pid]
                    self.seen[key] = max(self.seen.get(key, 0), ticks)
                todo.extend(children.get(pid, ()))
            return sum(self.seen.values())


_sampler: _Sampler | None = None


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-log", default=None, metavar="FILE",
                     help="append each test's CPU seconds (pytest and every process below it) to FILE as JSON lines")


_failed: set[str] = set()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.failed:
        _failed.add(report.nodeid)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    global _sampler
    path = item.config.getoption("--cpu-log")
    if not path:
        yield
        return
    _sampler = _sampler or _Sampler()
    started, ticks = time.monotonic(), _sampler.sample()
    yield
    cpu = (_sampler.sample() - ticks) / HZ
    from suite_plan import kind_of, module_of

    module = module_of(item)
    line = {"nodeid": item.nodeid, "module": module, "kind": kind_of(module), "cpu": round(cpu, 2),
            "wall": round(time.monotonic() - started, 2), "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
            "end": round(time.time(), 1), "failed": item.nodeid in _failed}
    with open(path, "a") as out:   # one short line per write: the workers' lines do not interleave
        out.write(json.dumps(line) + "\n")


def summary(path: str, top: int = 40) -> str:
    rows = [json.loads(line) for line in open(path)]
    by_kind, by_module, kind_of_module = collections.Counter(), collections.Counter(), {}
    wall_kind = collections.Counter()
    for row in rows:
        by_kind[row["kind"]] += row["cpu"]
        wall_kind[row["kind"]] += row["wall"]
        by_module[row["module"]] += row["cpu"]
        kind_of_module[row["module"]] = row["kind"]
    lines = [f"{len(rows)} tests, CPU {sum(by_kind.values()):.0f} s (wall summed over the workers "
             f"{sum(wall_kind.values()):.0f} s)"]
    lines += [f"  {kind:8} CPU {cpu:6.0f} s   wall {wall_kind[kind]:6.0f} s" for kind, cpu in by_kind.most_common()]
    ends = collections.defaultdict(float)
    for row in rows:
        ends[row.get("worker", "?")] = max(ends[row.get("worker", "?")], row.get("end", 0.0))
    if len(ends) > 1:
        lines.append("workers' last test ended: " + ", ".join(f"{w} {t - min(ends.values()):+.0f} s"
                                                         for w, t in sorted(ends.items())))
    lines.append("modules:")
    lines += [f"  {cpu:6.1f}  {module} ({kind_of_module[module]})" for module, cpu in by_module.most_common(top)]
    lines.append("tests:")
    lines += [f"  {row['cpu']:6.1f}  {row['nodeid']}" for row in sorted(rows, key=lambda r: -r["cpu"])[:top]]
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40))
