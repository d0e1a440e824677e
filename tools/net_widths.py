"""The ``--widths`` option the training tools share: a network's convolution widths as
comma-separated whole numbers, checked when the command line is parsed (a wrong one is told at
once, not after minutes of loading data).

>>> import argparse
>>> ap = argparse.ArgumentParser()
>>> _ = ap.add_argument("--widths", type=conv_widths(3))
>>> ap.parse_args(["--widths", "24,48,64"]).widths
(24, 48, 64)
"""
from __future__ import annotations

import argparse

MOST = 512      # wider than any network the service could read in its time a frame


def conv_widths(count: int):
    """An argparse ``type``: ``count`` widths of 1 to MOST, e.g. ``24,48,64`` for three."""
    def parse(text: str) -> tuple[int, ...]:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != count or not all(p.isdigit() and 1 <= int(p) <= MOST for p in parts):
            example = ",".join(str(v) for v in (24, 48, 64, 128, 256)[:count])
            raise argparse.ArgumentTypeError(
                f"{text!r}: give {count} whole numbers from 1 to {MOST}, the convolutions' widths, e.g. {example}")
        return tuple(int(p) for p in parts)
    return parse


def hidden_width(text: str) -> int:
    """An argparse ``type``: a hidden layer's width, 1 to 4 x MOST."""
    if not text.strip().isdigit() or not 1 <= int(text) <= 4 * MOST:
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number from 1 to {4 * MOST}, the hidden layer's width")
    return int(text)
