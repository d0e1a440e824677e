"""The board camera's source as ``companion serve --board-camera SPEC`` names it: ``sim`` or
``sim:SEED`` (the simulated board camera, sim/board_camera.py), else what
``vision.sources.open_source`` opens (a USB index, a video or image file, a URL), as for the
tray camera (sim/camera.py's ``open_camera``)."""
from __future__ import annotations

from ..vision.sources import FrameSource, open_source


def open_board_camera(spec: str, **options) -> FrameSource:
    spec = str(spec).strip()
    if spec == "sim" or spec.startswith("sim:"):
        from .board_camera import SimBoardCamera  # rendering pulls in more: only when simulated

        seed = int(spec.split(":", 1)[1]) if ":" in spec else options.pop("seed", 0)
        return SimBoardCamera(seed=seed, **options)
    return open_source(spec, **options)
