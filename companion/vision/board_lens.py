"""The board camera's lens, from the sheet's four long straight edges (a wide-angle lens bows
them): measured once per camera by :class:`~.board_pose.BoardTracker`, on the first frame locked
by three or four markers."""
from __future__ import annotations

import cv2
import numpy as np

from ..board_layout import BoardLayout
from .board_pose import _project
from .radial_lens import distort_points, undistort_points

EDGE_SAMPLES = 16        # places along each side of the sheet where its edge is looked for
EDGE_SEARCH = 30.0       # mm either side of where the pose puts the edge
LENS_KS = np.round(np.arange(-0.06, 0.2501, 0.005), 4)    # the lens distortions tried
EDGE_STEP_PX = 0.75      # a search step shorter than this in the frame (a far, small sheet) lowers the
                         # bar of a clear edge in proportion: the same step in brightness is spread
                         # over more steps


def measure_lens(layout: BoardLayout, gray: np.ndarray, seen: dict[int, np.ndarray], H: np.ndarray, k_now: float,
                 marker_mm: dict[int, np.ndarray], colour: np.ndarray | None = None) -> float | None:
    """The lens's distortion from the sheet's four edges (long straight lines: a wide-angle
    lens bows them) and the markers' corners: the sheet's edge is found across ``EDGE_SAMPLES``
    places along each side (the strongest step in brightness across it), then the k whose
    undistorted corners and edge points fit one homography best. None when the edges are not
    clear enough to say (too few found, or no k clearly best)."""
    size = (gray.shape[1], gray.shape[0])
    # the edge in colour as well as brightness: a grey table may be as light as the paper
    src = colour if colour is not None else gray
    smooth = cv2.GaussianBlur(src, (0, 0), 1.2).astype(np.float32)
    planes = cv2.split(smooth) if smooth.ndim == 3 else [smooth]
    w, h = layout.sheet
    sides = [((0, 0), (w, 0), (0, -1)), ((w, 0), (w, h), (1, 0)), ((w, h), (0, h), (0, 1)), ((0, h), (0, 0), (-1, 0))]
    t = np.linspace(0.1, 0.9, EDGE_SAMPLES)
    s = np.arange(-EDGE_SEARCH, EDGE_SEARCH + 0.01, 0.5)
    points, which = [], []
    for n, (a, b, normal) in enumerate(sides):
        a, b, normal = np.array(a, float), np.array(b, float), np.array(normal, float)
        base = a + (b - a) * t[:, None]                               # (m, 2) on the edge, mm
        prof_mm = base[:, None, :] + s[None, :, None] * normal        # (m, q, 2)
        px = distort_points(_project(H, prof_mm.reshape(-1, 2)), k_now, size).astype(np.float32)
        mx, my = px[:, 0].reshape(len(t), -1), px[:, 1].reshape(len(t), -1)
        steps = px.reshape(len(t), -1, 2)
        step_px = float(np.median(np.linalg.norm(np.diff(steps, axis=1), axis=2)))
        grad = np.zeros((len(t), len(s) - 1), np.float32)
        outside = np.zeros((len(t), len(s) - 1), bool)
        for plane in planes:
            vals = cv2.remap(plane, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=-1)
            grad += np.abs(np.diff(vals, axis=1))
            outside |= (vals[:, 1:] < 0) | (vals[:, :-1] < 0)
        grad[outside] = 0
        j = grad.argmax(axis=1)
        bar = 4.0 * len(planes) * min(1.0, step_px / EDGE_STEP_PX)
        strong = grad[np.arange(len(t)), j] > max(bar, 3 * float(np.median(grad)))
        at = base + ((s[j] + s[j + 1]) / 2)[:, None] * normal
        for i in np.flatnonzero(strong):
            points.append(distort_points(_project(H, at[i:i + 1]), k_now, size)[0])
            which.append(n)
    if len(points) < 2 * EDGE_SAMPLES or len(set(which)) < 3:
        return None
    points, which = np.array(points), np.array(which)
    ids = [i for i in layout.marker_ids if i in seen]
    src = np.concatenate([marker_mm[i] for i in ids]).astype(np.float32)
    # the frame's own distorted positions: undo the present k first
    corners = np.concatenate([seen[i] for i in ids])
    best = []
    for k in LENS_KS:
        dst = undistort_points(corners, k, size).astype(np.float32)
        Hk, _ = cv2.findHomography(src, dst, 0)
        if Hk is None:
            continue
        mm = _project(np.linalg.inv(Hk), undistort_points(points, k, size))
        across = np.where(which % 2 == 0, mm[:, 1] - np.where(which == 0, 0.0, h), mm[:, 0] - np.where(which == 1, w, 0.0))
        # the better half of the edge points: a piece or a highlight at the edge is left out
        best.append((float(np.mean(np.sort(np.abs(across))[: max(8, len(across) // 2)])), float(k)))
    if not best:
        return None
    cost = np.array([c for c, _ in best])
    ks = np.array([k for _, k in best])
    i = int(cost.argmin())
    if cost[i] > 3.0:                 # mm: the edges do not lie on one sheet at any k
        return None
    if 0 < i < len(cost) - 1:        # a parabola through the best three
        c0, c1, c2 = cost[i - 1:i + 2]
        den = c0 - 2 * c1 + c2
        off = 0.5 * (c0 - c2) / den if den > 1e-9 else 0.0
        return round(float(ks[i] + off * (ks[1] - ks[0])), 4)
    return round(float(ks[i]), 4)
