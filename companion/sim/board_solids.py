"""The board's pieces as small 3D solids (and the things that cover a board: a cup, a card),
in table millimetres: x right, y down, z into the table (a height h is z = -h). A solid is
its corners and its faces; ``board_render.py`` projects, shades and paints them far to near.

Sizes follow the layout's base radii: a meeple (an extruded person, ~20 mm tall), a pyramid
(square base ~13 mm, ~15 mm tall), a train marker (a block ~12 x 8 x 8 mm with an arrow on top
pointing along its line), a line-value marker (a disc ~4.5 mm in radius) and a standing drink
(METRO DRINKS: a can is a cylinder with its lid a little sunk inside the rim; a bottle narrows
from its body over the shoulder to the neck and a cap; the square bottle is square in section).

>>> s = pyramid(100.0, 50.0, 0.0, 6.5)
>>> s.verts.shape, len(s.faces)
((5, 3), 4)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

# the bottles' outline along their height (body, shoulder, neck ends; neck and cap radii): the
# tray's renderer draws them lying down from the same profile
from .looks import BOTTLE_PROFILE as BOTTLES


@dataclass
class Solid:
    """``verts`` (n, 3) table mm; ``faces`` index lists, counter-clockwise seen from outside;
    ``caps``: faces drawn after the others of the solid (an extrusion's front and back: when
    one faces the camera nothing of the same solid lies in front of it); ``decals``: flat
    polygons painted on a face (index of that face, (m, 3) points, colour factor)."""

    verts: np.ndarray
    faces: list[np.ndarray]
    caps: set[int] = field(default_factory=set)
    decals: list[tuple[int, np.ndarray, float]] = field(default_factory=list)
    base: np.ndarray | None = None         # the footprint on the table, (k, 2)
    normals: np.ndarray | None = None      # each face's outward normal, when known


def _place(local: np.ndarray, x: float, y: float, yaw: float) -> np.ndarray:
    """Local (along, across, height) -> table mm at (x, y) turned by ``yaw`` degrees."""
    c, s = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
    out = np.empty_like(local, dtype=np.float64)
    out[:, 0] = x + local[:, 0] * c - local[:, 1] * s
    out[:, 1] = y + local[:, 0] * s + local[:, 1] * c
    out[:, 2] = -local[:, 2]
    return out


def prism(outline: np.ndarray, height: float, x: float, y: float, yaw: float, z0: float = 0.0) -> Solid:
    """A vertical prism over ``outline`` ((k, 2) local mm, either winding), ``height`` tall."""
    k = len(outline)
    bottom = np.column_stack([outline, np.full(k, z0)])
    top = np.column_stack([outline, np.full(k, z0 + height)])
    verts = _place(np.vstack([bottom, top]), x, y, yaw)
    centre = verts.mean(0)
    faces = [_orient(verts, np.array([i, (i + 1) % k, k + (i + 1) % k, k + i]), centre) for i in range(k)]
    faces.append(_orient(verts, np.arange(k, 2 * k), centre))          # the top
    return Solid(verts, faces, base=verts[:k, :2])


def _orient(verts: np.ndarray, face: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """``face`` wound so that its normal points away from ``inside`` (a point within the solid
    behind that face: the middle of a convex solid, or a point just inside for others)."""
    n = face_normals(verts, [face])[0]
    return face if np.dot(n, verts[face].mean(0) - inside) >= 0 else face[::-1]


def _area(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def _make_pyramid(x: float, y: float, yaw: float, r: float, height: float = 15.0) -> Solid:
    a = r
    local = np.array([[-a, -a, 0], [a, -a, 0], [a, a, 0], [-a, a, 0], [0, 0, height]], np.float64)
    verts = _place(local, x, y, yaw)
    faces = [np.array([0, 4, 1]), np.array([1, 4, 2]), np.array([2, 4, 3]), np.array([3, 4, 0])]
    return Solid(verts, faces, base=verts[:4, :2])


def _make_train(x: float, y: float, yaw: float, length: float = 12.0, width: float = 8.0, height: float = 8.0) -> Solid:
    hl, hw = length / 2, width / 2
    s = prism(np.array([[-hl, -hw], [hl, -hw], [hl, hw], [-hl, hw]]), height, x, y, yaw)
    arrow = np.array([[0.42, 0], [0.0, -0.34], [0.0, -0.14], [-0.4, -0.14], [-0.4, 0.14], [0.0, 0.14], [0.0, 0.34]])
    arrow = np.column_stack([arrow[:, 0] * length, arrow[:, 1] * width * 1.3, np.full(len(arrow), height + 0.05)])
    s.decals.append((len(s.faces) - 1, _place(arrow, x, y, yaw), 1.9))
    return s


def _make_disc(x: float, y: float, r: float = 4.5, height: float = 3.0, sides: int = 14) -> Solid:
    t = np.linspace(0, 2 * math.pi, sides, endpoint=False)
    return prism(np.column_stack([r * np.cos(t), r * np.sin(t)]), height, x, y, 0.0)


def _meeple_outline(width: float, height: float) -> np.ndarray:
    """The person's outline (across, up) in mm, from the top of the head down the right side
    and up the left: head, arms held out, two legs."""
    hw = width / 2
    head = [(0.40 * math.cos(a), 0.83 + 0.155 * math.sin(a)) for a in np.linspace(math.pi / 2, -0.9, 6)]
    body = [(0.28, 0.66), (0.85, 0.60), (1.0, 0.52), (0.9, 0.44), (0.55, 0.42), (0.58, 0.25), (0.92, 0.0),
            (0.25, 0.0), (0.0, 0.22)]
    right = head + body
    left = [(-u, v) for u, v in reversed(right[1:-1])]
    return np.array([(u * hw, v * height) for u, v in right + left], np.float64)


_OUTLINES: dict = {}


def _make_meeple(x: float, y: float, yaw: float, r: float, height: float = 20.0, thickness: float = 8.0) -> Solid:
    """A standing meeple: its person outline (2r + 1 mm wide) extruded ``thickness`` deep."""
    key = (round(r, 2), round(height, 2))
    if key not in _OUTLINES:
        _OUTLINES[key] = _meeple_outline(2 * r + 1.0, height)
    out = _OUTLINES[key]
    k = len(out)
    t = thickness / 2
    front = np.column_stack([out[:, 0], np.full(k, -t), out[:, 1]])
    back = np.column_stack([out[:, 0], np.full(k, t), out[:, 1]])
    verts = _place(np.vstack([front, back]), x, y, yaw)
    # each side's outward direction: the outline edge's normal in the person's plane
    ccw = _area(out) > 0
    faces = []
    for i in range(k):
        j = (i + 1) % k
        d = out[j] - out[i]
        o = np.array([d[1], -d[0]]) if ccw else np.array([-d[1], d[0]])
        mid = (out[i] + out[j]) / 2 - 0.05 * o / max(np.linalg.norm(o), 1e-9)
        inside = _place(np.array([[mid[0], 0.0, mid[1]]]), x, y, yaw)[0]
        faces.append(_orient(verts, np.array([i, k + i, k + j, j]), inside))
    centre = _place(np.array([[0.0, 0.0, height * 0.4]]), x, y, yaw)[0]
    faces.append(_orient(verts, np.arange(k), centre))              # front
    faces.append(_orient(verts, np.arange(k, 2 * k), centre))       # back
    feet = np.abs(out[:, 1]) < 0.01
    fx = out[feet, 0]
    base = _place(np.array([[fx.min(), -t, 0], [fx.max(), -t, 0], [fx.max(), t, 0], [fx.min(), t, 0]]), x, y, yaw)
    return Solid(verts, faces, caps={k, k + 1}, base=base[:, :2])


def cup(x: float, y: float, r: float = 40.0, height: float = 95.0, sides: int = 28) -> Solid:
    return disc(x, y, r, height, sides)


def card(x: float, y: float, yaw: float, w: float = 63.0, h: float = 88.0) -> Solid:
    return prism(np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]), 0.4, x, y, yaw)


def _make_lathe(profile: list[tuple[float, float]], sides: int, lid: float | None = None) -> Solid:
    """A solid of rings standing on the table at the origin: ``profile`` (height, radius) from
    the foot up, each ring ``sides`` corners (4: square in section); ``lid``: a decal on the top
    face, its radius as a share of the top's (a can's lid inside its rim), drawn a little darker."""
    turn = np.pi / 4 if sides == 4 else 0.0
    t = turn + np.linspace(0, 2 * math.pi, sides, endpoint=False)
    unit = np.column_stack([np.cos(t), np.sin(t)])
    rings = [np.column_stack([unit * r, np.full(sides, z)]) for z, r in profile]
    verts = _place(np.vstack(rings), 0.0, 0.0, 0.0)
    faces = []
    for i in range(len(profile) - 1):
        (z0, r0), (z1, r1) = profile[i], profile[i + 1]
        if abs(z1 - z0) < 1e-6 and abs(r1 - r0) < 1e-6:
            continue
        inside = np.array([0.0, 0.0, -(z0 + z1) / 2])
        for j in range(sides):
            a, b = i * sides + j, i * sides + (j + 1) % sides
            faces.append(_orient(verts, np.array([a, b, b + sides, a + sides]), inside))
    top = len(profile) - 1
    faces.append(_orient(verts, np.arange(top * sides, (top + 1) * sides), np.array([0.0, 0.0, -profile[-1][0] + 1.0])))
    solid = Solid(verts, faces, caps={len(faces) - 1}, base=verts[:sides, :2].copy())
    if lid:
        z, r = profile[-1]
        lid_pts = np.column_stack([unit * r * lid, np.full(sides, z + 0.05)])
        solid.decals.append((len(faces) - 1, _place(lid_pts, 0.0, 0.0, 0.0), 0.82))
    return solid




def _make_drink(shape: str, height: float, width: float, cuts: tuple = ()) -> Solid:
    """``cuts``: heights (mm) where the body is cut into bands of its own (each band is shaded
    on its own: a crate's renderer darkens what stands below the crate's rim)."""
    r = width / 2
    if shape not in BOTTLES:                   # a can: a cylinder, its lid inside the rim
        return _make_lathe(_cut([(0.0, r), (height, r)], cuts), 16, lid=0.8)
    body, shoulder, neck, neck_r, cap_r = BOTTLES[shape]
    profile = [(0.0, r), (body * height, r), (shoulder * height, neck_r * r), (neck * height, neck_r * r),
               (neck * height, cap_r * r), (height, cap_r * r)]
    return _make_lathe(_cut(profile, cuts), 4 if shape == "square_bottle" else 14)


def _cut(profile: list, cuts) -> list:
    """The profile with a ring added at each cut height inside its first (straight) section."""
    extra = [(c, profile[0][1]) for c in sorted(cuts) if 0 < c < profile[1][0] - 0.2]
    return profile[:1] + extra + profile[1:]


@lru_cache(maxsize=128)
def _template(kind: str, *size) -> Solid:
    """A solid built once at the origin (yaw 0): the orientation checks cost more than moving it."""
    if kind == "disc":
        solid = _make_disc(0.0, 0.0, *size)
    elif kind == "drink":
        solid = _make_drink(*size)
    else:
        solid = {"pyramid": _make_pyramid, "train": _make_train, "meeple": _make_meeple}[kind](0.0, 0.0, 0.0, *size)
    solid.normals = face_normals(solid.verts, solid.faces)
    return solid


def _moved(t: Solid, x: float, y: float, yaw: float, lift: float = 0.0) -> Solid:
    c, s = math.cos(math.radians(yaw)), math.sin(math.radians(yaw))
    rot = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    shift = np.array([x, y, -lift])
    return Solid(t.verts @ rot.T + shift, t.faces, t.caps,
                 [(f, p @ rot.T + shift, k) for f, p, k in t.decals],
                 None if t.base is None else t.base @ rot[:2, :2].T + shift[:2],
                 None if t.normals is None else t.normals @ rot.T)


def pyramid(x: float, y: float, yaw: float, r: float, height: float = 15.0) -> Solid:
    return _moved(_template("pyramid", r, height), x, y, yaw)


def train(x: float, y: float, yaw: float, length: float = 12.0, width: float = 8.0, height: float = 8.0) -> Solid:
    return _moved(_template("train", length, width, height), x, y, yaw)


def disc(x: float, y: float, r: float = 4.5, height: float = 3.0, sides: int = 14) -> Solid:
    return _moved(_template("disc", r, height, sides), x, y, 0.0)


def drink(x: float, y: float, yaw: float, shape: str, height: float, width: float, lift: float = 0.0,
          cuts: tuple = ()) -> Solid:
    """A drink standing at (x, y): ``shape`` a drinks.py shape id, ``height`` and ``width`` mm
    (its length and width lying down, drinks.md); ``lift``: what it stands on is that many mm
    over the table (a crate's floor); ``cuts``: heights where its body is cut into bands."""
    size = (shape, round(height, 2), round(width, 2)) + ((tuple(round(c, 1) for c in cuts),) if cuts else ())
    return _moved(_template("drink", *size), x, y, yaw, lift)


def lying_drink(x: float, y: float, yaw: float, shape: str, height: float, width: float) -> Solid:
    """A drink lying on its side on the table, its middle at (x, y), its foot towards ``yaw``
    + 180 degrees (a drink knocked over beside the crates)."""
    return _moved(_lying(shape, round(height, 2), round(width, 2)), x, y, yaw)


@lru_cache(maxsize=128)
def _lying(shape: str, height: float, width: float) -> Solid:
    """The standing drink's template laid on its side: its height along x, its side down."""
    t = _template("drink", shape, height, width)
    r = width / 2

    def turn(v, shift):
        return np.column_stack([-v[:, 2] - shift[0], v[:, 1], v[:, 0] - shift[1]])

    base = np.array([[-height / 2, -r * 0.6], [height / 2, -r * 0.6], [height / 2, r * 0.6], [-height / 2, r * 0.6]])
    return Solid(turn(t.verts, (height / 2, r)), t.faces, t.caps,
                 [(f, turn(p, (height / 2, r)), k) for f, p, k in t.decals], base, turn(t.normals, (0.0, 0.0)))


def meeple(x: float, y: float, yaw: float, r: float, height: float = 20.0, thickness: float = 8.0) -> Solid:
    return _moved(_template("meeple", r, height, thickness), x, y, yaw)


def face_normals(verts: np.ndarray, faces: list[np.ndarray]) -> np.ndarray:
    """Each face's outward unit normal (Newell's method: right for any planar polygon, convex
    or not), all faces at once."""
    idx = np.concatenate(faces)
    nxt = np.concatenate([np.roll(f, -1) for f in faces])
    fid = np.repeat(np.arange(len(faces)), [len(f) for f in faces])
    p, q = verts[idx], verts[nxt]
    n = np.column_stack([np.bincount(fid, (p[:, 1] - q[:, 1]) * (p[:, 2] + q[:, 2]), len(faces)),
                         np.bincount(fid, (p[:, 2] - q[:, 2]) * (p[:, 0] + q[:, 0]), len(faces)),
                         np.bincount(fid, (p[:, 0] - q[:, 0]) * (p[:, 1] + q[:, 1]), len(faces))])
    return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-9)
