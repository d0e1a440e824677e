"""The simulated board's hand and arm, drawn as thick strokes in 3D (a hand passing over the
board, or one resting there): :func:`hand_shapes` says where, :func:`draw_stroke` draws one,
through the camera or, for its shadow on the table, through the table's homography.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .board_looks import BoardHand


def hand_shapes(hand: BoardHand, sheet, B, reach: float = 450.0,
                rise: float = 230.0) -> list[tuple[np.ndarray, float, tuple[int, int, int]]]:
    """A hand and arm as thick 3D polylines (table mm): (points, width mm, sRGB colour), the
    sleeve first. The arm comes from ``reach`` mm beyond ``edge`` and rises ``rise`` mm away
    from the hand (a camera standing low over small things sees a flatter arm)."""
    tip = np.array([hand.x, hand.y])
    if B is not None:
        tip = B[:2, :2] @ tip + B[:2, 2]
    w, h = sheet
    start = {"bottom": (tip[0] * 0.8 + w * 0.1, h + reach), "top": (tip[0] * 0.8 + w * 0.1, -reach),
             "left": (-reach, tip[1]), "right": (w + reach, tip[1])}[hand.edge]
    start = np.array(start)
    u = tip - start
    u /= np.linalg.norm(u)
    n = np.array([-u[1], u[0]])
    wrist = tip - u * 165
    z = lambda height: -height  # noqa: E731
    arm = np.array([[*start, z(hand.height + rise)], [*(wrist - u * 5), z(hand.height + 25)]])
    cut = arm[0] + (arm[1] - arm[0]) * (1 - hand.sleeve_share)
    shapes = [(np.array([arm[0], cut]), 95.0, hand.sleeve),
              (np.array([cut - (arm[1] - arm[0]) * 0.02, arm[1]]), 62.0, hand.skin)]
    palm_end = wrist + u * 85
    shapes.append((np.array([[*wrist, z(hand.height + 22)], [*palm_end, z(hand.height + 10)]]), 82.0, hand.skin))
    for k, off in enumerate((-1.5, -0.5, 0.5, 1.5)):
        a = math.radians(off * hand.spread)
        d = np.array([u[0] * math.cos(a) - u[1] * math.sin(a), u[0] * math.sin(a) + u[1] * math.cos(a)])
        base = palm_end + n * off * 19
        ln = 70 if k in (1, 2) else 58
        shapes.append((np.array([[*base, z(hand.height + 10)], [*(base + d * ln), z(hand.height)]]), 17.0, hand.skin))
    thumb_base = wrist + u * 30 + n * 40
    thumb_dir = u * 0.6 + n * 0.8
    shapes.append((np.array([[*thumb_base, z(hand.height + 18)], [*(thumb_base + thumb_dir * 55), z(hand.height + 8)]]),
                   20.0, hand.skin))
    return shapes


def draw_stroke(img, pts3, width_mm, colour, H=None, project=None) -> None:
    """A thick stroke (a capsule) along 3D points: through ``project`` (table mm with z ->
    px) or, for points already on the table ((n, 2)), through the homography ``H``."""
    if project is not None:
        px = project(pts3)
        ends = project(pts3 + np.array([width_mm / 2, 0, 0]))
    else:
        p2 = np.asarray(pts3, np.float64)[:, :2]
        px = cv2.perspectiveTransform(p2.reshape(-1, 1, 2), H).reshape(-1, 2)
        ends = cv2.perspectiveTransform((p2 + np.array([width_mm / 2, 0])).reshape(-1, 1, 2), H).reshape(-1, 2)
    # the stroke's width in pixels where each end is (it grows nearer the camera)
    widths = 2 * np.linalg.norm(ends - px, axis=1)
    steps = 8
    for i in range(len(px) - 1):
        for s in range(steps + 1):
            t = s / steps
            c = px[i] + (px[i + 1] - px[i]) * t
            r = (widths[i] + (widths[i + 1] - widths[i]) * t) / 2
            cv2.circle(img, (int(round(c[0] * 16)), int(round(c[1] * 16))), max(16, int(round(r * 16))), colour, -1,
                       cv2.LINE_AA, 4)
        a, b = px[i], px[i + 1]
        d = b - a
        nrm = np.array([-d[1], d[0]]) / max(np.linalg.norm(d), 1e-9)
        quad = np.array([a + nrm * widths[i] / 2, b + nrm * widths[i + 1] / 2, b - nrm * widths[i + 1] / 2,
                         a - nrm * widths[i] / 2])
        cv2.fillPoly(img, [np.round(quad * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)
