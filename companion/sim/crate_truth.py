"""The truth of a crate camera's frame: which drink stands in which field, and where the grid,
its fields, its drinks and the camera are in the frame (``CrateRenderer.truth``; the keys are
described in ``crate_render.py``). For tests, benchmarks and training data.
"""
from __future__ import annotations

import numpy as np

from .crate_scene import CrateScene
from .looks import NOMINAL_SIZE_MM


def scene_truth(r, scene: CrateScene, hand_mask: np.ndarray | None = None) -> dict:
    """The truth of ``scene`` as renderer ``r`` draws it; ``hand_mask``: the hand's (pinhole
    picture) or None."""
    lk = r.look
    layout, pose = scene.layout, scene.pose
    G = r.grid_matrix(layout, pose)
    fields = layout.fields()
    p = lk.pitch_mm
    keys = sorted(fields)
    mids = np.array([((x + 0.5) * p, (y + 0.5) * p) for x, y in keys], np.float64).reshape(-1, 2)
    centres = r.grid_to_frame(mids, layout, pose, lk.rim_mm) if keys else np.zeros((0, 2))
    drinks = []
    for s in scene.standing:
        shape = s.drink.partition("-")[2]
        tall = NOMINAL_SIZE_MM[shape][0] * lk.drink_mm(shape)
        foot = r.grid_to_frame([(s.x, s.y)], layout, pose, lk.floor_mm)[0]
        t, a = np.radians(s.lean[0]), np.radians(s.lean[1])
        top = r.grid_to_frame([(s.x + tall * np.sin(t) * np.cos(a), s.y + tall * np.sin(t) * np.sin(a))], layout, pose,
                              lk.floor_mm + tall * np.cos(t))[0]
        drinks.append({"field": s.field, "drink": s.drink, "mm": [round(s.x, 2), round(s.y, 2)],
                       "height_mm": round(tall, 2), "lean_deg": round(s.lean[0], 2),
                       "foot_px": [round(float(v), 2) for v in foot],
                       "top_px": [round(float(v), 2) for v in top]})
    Gi = np.linalg.inv(G)
    cam = Gi @ np.array([r.C[0], r.C[1], 1.0])
    hand_box = None
    if hand_mask is not None and hand_mask.any():
        w, h = r.size
        ys, xs = np.nonzero(hand_mask[::2, ::2])
        box = r.pin_to_frame(np.array([[xs.min(), ys.min()], [xs.max(), ys.max()]], np.float64) * 2)
        hand_box = [int(np.clip(box[0, 0], 0, w)), int(np.clip(box[0, 1], 0, h)),
                    int(np.clip(box[1, 0], 0, w)), int(np.clip(box[1, 1], 0, h))]
    norm = lambda H: (H / H[2, 2]).round(10).tolist()  # noqa: E731
    return {
        "fields": fields,
        "crates": [list(f) for f in layout.footprints()],
        "rim_to_frame": norm(r.plane(lk.rim_mm) @ G),
        "table_to_frame": norm(r.plane(0.0) @ G),
        "floor_to_frame": norm(r.plane(lk.floor_mm) @ G),
        "camera": [round(float(cam[0] / cam[2]), 3), round(float(cam[1] / cam[2]), 3), round(float(-r.C[2]), 3)],
        "pitch_mm": lk.pitch_mm, "rim_height_mm": lk.rim_mm, "floor_mm": lk.floor_mm, "wall_mm": lk.wall_mm,
        "centres": {f: [round(float(u), 2), round(float(v), 2)] for f, (u, v) in zip(keys, centres)},
        "drinks": drinks,
        "loose": [{"kind": o.kind, "drink": o.drink, "mm": [round(o.x, 2), round(o.y, 2)],
                   "px": [round(float(v), 2) for v in r.pin_to_frame(r.project(np.array([[o.x, o.y, 0.0]])))[0]]}
                  for o in scene.loose],
        "pose": list(pose),
        "hand": hand_mask is not None and bool(hand_mask.any()),   # a hand in sight
        "hand_box": hand_box,
        "size": list(r.size),
        "distortion": lk.distortion,
        "look": lk.describe(),
    }
