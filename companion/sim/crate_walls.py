"""The crates' walls ready to paint for one layout at one pose: each wall piece's visible faces
shaded (a face inside a slot less lit), handle holes on the short sides, and the floors, the
shadows each lamp has them cast and the dark at their feet, in the pinhole picture. Built once
for a still scene (``CrateRenderer`` keeps the last one).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .crate_scene import CrateScene
from .crate_solids import crate_parts, nudged
from .lit_scene import _LIN, UP
from .looks import linear_to_srgb_u8

SLOT_LIGHT = 0.72      # the light on a wall's face inside a slot against one in the open


@dataclass(frozen=True)
class Walls:
    """The crates of one layout at one pose, ready to draw (:func:`crate_walls`)."""

    faces: list            # per wall piece: its visible faces (pinhole px * 16, BGR, whether the top)
    distance: list         # per wall piece: from the camera's foot point, mm
    floors: list           # the slots' floors, pinhole px
    contacts: list         # wall pieces' feet, pinhole px
    shadows: list          # per lamp: (on the table, on the floors), pinhole px


def crate_walls(r, scene: CrateScene, G: np.ndarray) -> Walls:
    """The crates' wall pieces (faces to paint, each piece's distance from the camera's foot
    point), floors, shadows and contacts in pinhole px, for a scene's crates (the last ones
    are kept: a still scene is drawn again and again)."""
    feet = r.footprints(scene.layout)
    key = (tuple(feet), tuple(scene.pose), tuple(scene.nudges))
    if r._crates_cache and r._crates_cache[0] == key:
        return r._crates_cache[1]
    lk = r.look
    p = lk.pitch_mm
    parts = crate_parts(feet, lk)
    middles = [((f[0] + f[2]) * p / 2, (f[1] + f[3]) * p / 2) for f in feet]
    feet = list(feet)
    nudges = list(scene.nudges) or [(0.0, 0.0, 0.0)] * len(feet)
    Hf = r._pin_plane(lk.floor_mm)
    floors = [through(nudged(f, nudges[i], middles[i]) @ G[:2, :2].T + G[:2, 2], Hf)
              for i, f in enumerate(parts.floors)]
    n = len(parts.walls)
    if not n:
        made = Walls([], [], floors, [], [([], []) for _ in r.lamps])
        r._crates_cache = (key, made)
        return made
    box = np.array([[w.x0, w.y0, w.x1, w.y1, w.z0] for w in parts.walls], np.float64)
    corners = np.stack([box[:, [0, 1]], box[:, [2, 1]], box[:, [2, 3]], box[:, [0, 3]]], 1)   # (n, 4, 2)
    corners = np.stack([nudged(c, nudges[w.crate], middles[w.crate]) for c, w in zip(corners, parts.walls)])
    flat = corners @ G[:2, :2].T + G[:2, 2]
    verts = np.concatenate([np.dstack([flat, -box[:, 4:5, None].repeat(4, 1)]),
                            np.dstack([flat, np.full((n, 4, 1), -lk.rim_mm)])], 1)   # (n, 8, 3)
    # the sides (outward: -y, +x, +y, -x in the grid, then turned with it) and the top
    out = np.array([[0, -1], [1, 0], [0, 1], [-1, 0]], np.float64) @ G[:2, :2].T
    turns = [np.radians(nudges[w.crate][2]) for w in parts.walls]
    side = [np.array([k, (k + 1) % 4, 4 + (k + 1) % 4, 4 + k]) for k in range(4)]
    faces = side + [np.array([4, 5, 6, 7])]
    c, s = np.cos(turns), np.sin(turns)
    sides = np.stack([np.column_stack([c * o[0] - s * o[1], s * o[0] + c * o[1]]) for o in out], 1)   # (n, 4, 2)
    normals = np.concatenate([np.dstack([sides, np.zeros((n, 4, 1))]), np.tile(UP, (n, 1, 1))], 1)   # (n, 5, 3)
    centres = np.stack([verts[:, f].mean(1) for f in faces], 1)                           # (n, 5, 3)
    seen = np.einsum("nfk,nfk->nf", normals, r.C - centres) > 0
    wi, fi = np.nonzero(seen)
    tints = np.array([lk.crate_tint(i) for i in range(len(feet))]).reshape(-1, 3)
    albedo = _LIN[np.array(lk.crate_srgb[::-1])] * tints[[parts.walls[w].crate for w in wi]]
    lin = r._shade(albedo, normals[wi, fi], centres[wi, fi], lk.crate_gloss)
    # a face inside a slot sees little of the room and of the lamp past the wall across it
    inward = np.array([fi_ < 4 and parts.walls[wi_].out != fi_ for wi_, fi_ in zip(wi, fi)])
    lin = lin * np.where(inward, SLOT_LIGHT, 1.0)[:, None]
    if lk.crate_gloss > 0.1:        # glossy plastic: a face turned just so catches the lamp
        c = centres[wi, fi]
        for lamp, tone in zip(r.lamps, r.colours):
            _, glint = r._light_at(c[:, 0], c[:, 1], normals[wi, fi], c[:, 2], specular=True, shininess=250.0, lamp=lamp)
            lin = lin + (glint * lk.crate_gloss * np.where(inward, 0.3, 1.0))[:, None] * tone * 0.5
    bgr = linear_to_srgb_u8(lin.reshape(-1, 1, 3).astype(np.float32)).reshape(-1, 3)
    px = r.project(verts.reshape(-1, 3)).reshape(n, 8, 2)
    paint = [[] for _ in range(n)]
    for w, f, c in zip(wi, fi, bgr):
        paint[w].append((np.round(px[w, faces[f]] * 16).astype(np.int32), tuple(int(v) for v in c), f == 4))
        if lk.handles and f == parts.walls[w].out:
            hole = handle_hole(r, parts.walls[w], feet[parts.walls[w].crate], nudges, middles, G)
            if hole is not None:
                paint[w].append((hole, tuple(int(v * 0.3) for v in c), False))
    foot = r.C[:2]
    distance = [float(v) for v in np.hypot(*(flat.mean(1) - foot).T)]
    shadows = []
    for lamp in r.lamps:
        on_table, on_floor = [], []
        for w in range(n):
            if box[w, 4] == 0:      # an outer wall: its shadow falls on the table outside too
                on_table.append(through(hull(r._shadow_of(verts[w], lamp)), r.H_table))
            on_floor.append(through(hull(r._shadow_of(verts[w], lamp, lk.floor_mm)), Hf))
        shadows.append((on_table, on_floor))
    ground = [Hf if wall.z0 else r.H_table for wall in parts.walls]
    contacts = [through(flat[w], ground[w]) for w in range(n)]
    made = Walls(paint, distance, floors, contacts, shadows)
    r._crates_cache = (key, made)
    return made


def handle_hole(r, wall, foot, nudges, middles, G) -> np.ndarray | None:
    """The part of a crate's handle hole (a slot through the middle of each short side, under
    the rim) on this piece of outer wall, as a polygon to fill (pinhole px * 16), or None."""
    lk = r.look
    p = lk.pitch_mm
    fx0, fy0, fx1, fy1 = foot
    along_x = wall.out in (0, 2)
    if (fx1 - fx0 if along_x else fy1 - fy0) != 2:
        return None
    mid = (fx0 + fx1) * p / 2 if along_x else (fy0 + fy1) * p / 2
    lo, hi = (wall.x0, wall.x1) if along_x else (wall.y0, wall.y1)
    a, b = max(lo, mid - 0.55 * p), min(hi, mid + 0.55 * p)
    if b <= a:
        return None
    side = {0: wall.y0, 1: wall.x1, 2: wall.y1, 3: wall.x0}[wall.out]
    flat = np.array([[a, side], [b, side]]) if along_x else np.array([[side, a], [side, b]])
    flat = nudged(flat, nudges[wall.crate], middles[wall.crate]) @ G[:2, :2].T + G[:2, 2]
    top, bottom = -lk.rim_mm * 0.8, -lk.rim_mm * 0.5
    quad = np.array([[*flat[0], top], [*flat[1], top], [*flat[1], bottom], [*flat[0], bottom]])
    return np.round(r.project(quad) * 16).astype(np.int32)


def hull(pts: np.ndarray) -> np.ndarray:
    return cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)


def through(poly: np.ndarray, H: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(poly, np.float64).reshape(-1, 1, 2), H).reshape(-1, 2)


def fill(mask: np.ndarray, px: np.ndarray) -> None:
    cv2.fillPoly(mask, [np.round(px * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
