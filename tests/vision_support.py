"""Shared by the vision tests: running the vision subcommands in-process, as `companion` would."""
from __future__ import annotations

import argparse

from companion.vision.cli import register


def run_cli(*argv: str) -> int:
    """Parse ``argv`` with the vision subcommands and run it; returns the exit code."""
    parser = argparse.ArgumentParser(prog="companion")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    return args.func(args)
