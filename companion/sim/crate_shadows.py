"""The shadows that fall on what stands, for the crate renderer (``crate_render.py``; ``r`` is
the renderer): a slot's walls hiding a lamp from the lower part of the drink in it, taller
neighbours shading a drink's sides and top, and the drinks and the hand shading the crates' rims. (The
table and the slots' floors take their shadows in ``CrateRenderer._lit``.)
"""
from __future__ import annotations

import cv2
import numpy as np

from .board_hand import draw_stroke
from .crate_walls import fill, hull, through
from .lit_scene import _LIN, UP, soften
from .looks import linear_to_srgb_u8


def past_walls(r, at: np.ndarray, lamp) -> np.ndarray:
    """How much of ``lamp`` reaches points (table mm) in the slot ``r._slot`` (its inside,
    grid mm, and grid -> table): none where the way to the lamp leaves the slot under the rim."""
    lk = r.look
    (x0, y0, x1, y1), G = r._slot
    if lamp.kind == "overhead":
        to = np.tile(np.array([lamp.at[0], lamp.at[1], -1.0]), (len(at), 1))
    else:
        to = np.array([lamp.at[0], lamp.at[1], -lamp.at[2]]) - at
    rise = np.maximum(lk.rim_mm + at[:, 2], 0)                      # mm the way climbs to the rim
    exit_ = at[:, :2] + to[:, :2] * (rise / np.maximum(-to[:, 2], 1e-6))[:, None]
    Gi = np.linalg.inv(G)
    q = exit_ @ Gi[:2, :2].T + Gi[:2, 2]
    # signed distance of the way's exit at the rim's height outside the slot's inside
    out = np.maximum(np.maximum(x0 - q[:, 0], q[:, 0] - x1), np.maximum(y0 - q[:, 1], q[:, 1] - y1))
    shade = np.clip(0.5 + out / max(lamp.shadow_blur, 0.3), 0, 1) * (rise > 0)
    return 1 - shade * lamp.shadow_depth

# --- where things are -------------------------------------------------------------------


def by_neighbours(r, at: np.ndarray, normals: np.ndarray, lamp) -> np.ndarray:
    """How much of ``lamp`` reaches the sides of a drink (faces at table points ``at``) past its
    neighbours (``r._near``: each a column x, y, radius, top's height): none where the way to
    the lamp passes through one below its top (a soft lamp's shadow taken weaker). A face turned
    up (a top) is left to :func:`shaded_lid`."""
    out = np.ones(len(at))
    if not r._near:
        return out
    if lamp.kind == "overhead":
        to = np.tile(np.array([lamp.at[0], lamp.at[1], -1.0]), (len(at), 1))
    else:
        to = np.array([lamp.at[0], lamp.at[1], -lamp.at[2]]) - at
    flat = np.maximum((to[:, :2] ** 2).sum(1), 1e-9)
    side = normals[:, 2] > -0.7
    depth = lamp.shadow_depth * float(np.clip(1.5 - lamp.shadow_blur / 4, 0.3, 1.0))
    x, y, radius, top = (c[None, :] for c in np.array(r._near).T)                # (1, k) each
    ax, ay, az = at[:, :1], at[:, 1:2], at[:, 2:3]
    tx, ty, tz = to[:, :1], to[:, 1:2], to[:, 2:3]
    s = ((x - ax) * tx + (y - ay) * ty) / flat[:, None]          # along the way: nearest each column's axis
    miss = np.hypot(ax + s * tx - x, ay + s * ty - y)
    height = -(az + s * tz)                                      # the way's height there
    hidden = ((s > 0) & (miss < radius) & (height < top)).any(1) & side
    return np.where(hidden, 1 - depth, out)


def shaded_lid(r, img: np.ndarray, i: int, drinks: list) -> None:
    """Paint the part of drink ``i``'s top (its lid or cap) that a taller neighbour shades
    from a lamp, in the top's colour less that lamp's light (a soft lamp's shadow taken
    weaker: it is spread wider)."""
    solid, colour, gloss = drinks[i]
    cap = max(solid.caps)
    top = solid.verts[solid.faces[cap]]
    h = -float(top[0, 2])
    near = [s for j, (s, _, _) in enumerate(drinks) if j != i and -float(s.verts[:, 2].min()) > h + 0.5
            and float(np.hypot(*(s.base.mean(0) - solid.base.mean(0)))) < 4 * r.look.pitch_mm]
    if not near:
        return
    lid = top[:, :2].astype(np.float32)
    centre = top.mean(0)
    albedo = _LIN[np.array(colour[::-1])]
    lit = r._shade(albedo, UP, centre, gloss)[0]
    for lamp, tone in zip(r.lamps, r.colours):
        parts = []
        for s in near:
            area, part = cv2.intersectConvexConvex(lid, hull(r._shadow_of(s.verts, lamp, h)).astype(np.float32))
            if area > 0.05 and part is not None:
                parts.append(part.reshape(-1, 2))
        if not parts:
            continue
        direct, _ = r._light_at(centre[:1], centre[1:2], UP, centre[2], lamp=lamp)
        if r._slot is not None:
            direct = direct * past_walls(r, centre[None], lamp)
        depth = lamp.shadow_depth * float(np.clip(1.5 - lamp.shadow_blur / 4, 0.3, 1.0))
        dark = np.clip(lit - albedo * float(direct[0]) * tone * depth, 0, 1)
        bgr = tuple(int(v) for v in linear_to_srgb_u8(dark.reshape(1, 1, 3).astype(np.float32)).reshape(3))
        for part in parts:
            px = r.project(np.column_stack([part, np.full(len(part), -h)]))
            cv2.fillPoly(img, [np.round(px * 16).astype(np.int32)], bgr, cv2.LINE_AA, 4)


def shadows_on_rims(r, img, tops, standing, strokes) -> None:
    """Darken the walls' tops (``tops``: where they show) where the drinks and the hand
    shade them from a lamp: the shadows on the rim plane, each lamp's share of the light
    taken out (in sRGB, near enough for a shadow's edge)."""
    if not tops.any():
        return
    lk = r.look
    ys, xs = np.nonzero(tops[::4, ::4])
    x0, y0 = max(0, xs.min() * 4 - 4), max(0, ys.min() * 4 - 4)
    x1, y1 = min(tops.shape[1], xs.max() * 4 + 8), min(tops.shape[0], ys.max() * 4 + 8)
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    H = shift @ r._pin_plane(lk.rim_mm)
    lit = np.full((y1 - y0, x1 - x0), r.ambient, np.float32)
    full = lit.copy()
    for lamp, direct in zip(r.lamps, r.direct):
        cast = np.zeros(lit.shape, np.uint8)
        for solid in standing:
            fill(cast, through(hull(r._shadow_of(solid.verts, lamp, lk.rim_mm)), H))
        for pts3, width, _ in strokes or ():
            draw_stroke(cast, r._shadow_of(pts3, lamp, lk.rim_mm), width, 255, H)
        d = direct[y0:y1, x0:x1]
        full += d
        lit += d * (1 - soften(cast, lamp.shadow_blur * r.px_per_mm) * np.float32(lamp.shadow_depth))
    keep = (lit / full) ** np.float32(1 / 2.2)
    w = tops[y0:y1, x0:x1].astype(np.float32) * np.float32(1 / 255)
    factor = 1 - w + w * keep
    part = img[y0:y1, x0:x1]
    part[:] = np.clip(part * factor[..., None] + 0.5, 0, 255).astype(np.uint8)
