"""A seeded renderer of the table in front of the tower as the landing camera sees it: the
crates a drink may land in (each on its own, anywhere, any yaw), the drinks standing or lying
where they fell (on the table, on a slot's floor, across a crate's walls), loose coins and
cards, the lamps' shadows, the sensor (``landing_looks.py`` for the looks).

Coordinates: a :class:`~companion.landing.LandingScene` is in the landing words' millimetres
(the tower's foot the origin, y away from the tower, x to the right seen from the tower). The
renderer's table (``lit_scene.py``: x right, y down, z into the table) is the same plane seen
from above with y turned over: table (x, y) = landing (x, -y). The camera stands behind the
tower and looks forwards and down; the tower itself is not drawn but its base is: a dark
plinth 8 mm high behind the foot line (landing y from -80 to 0, x within 45 mm), at the
frame's bottom edge or just below it.

``render(scene, rng)`` returns the frame (BGR uint8); :func:`calibration_photo` the same view
with the calibration mat (``vision/mat.py``: A4, four ArUco markers) laid flat in front of the
tower, its top edge on the tower's foot line and centred on it, the print upside down seen
from the camera (page (px, py) mm = landing (148.5 - px, py): :func:`page_to_landing`), nothing
else on the table.

>>> import numpy as np
>>> from companion.sim.landing_layouts import compose
>>> look = LandingLook.from_seed(1)
>>> scene = compose([("red-short_can", "slot", None), ("blue-tall_can", "outside", 240)], np.random.default_rng(1))
>>> frame = LandingRenderer(look).render(scene, np.random.default_rng(0))
>>> frame.shape, frame.dtype.name
((720, 1280, 3), 'uint8')
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np

from ..crate_fields import CrateLayout
from ..drinks import COLOURS
from ..landing import LandingScene, PlacedCrate, PlacedDrink, spot_of, truth
from . import board_solids as solids
from .crate_render import CrateRenderer
from .crate_scene import CrateScene, Loose, loose_solid
from .crate_walls import crate_walls, hull, through
from .landing_layouts import compose, random_wants
from .landing_looks import LandingLook
from .lit_scene import _LIN
from .looks import linear_to_srgb_u8
from ..vision.landing_calibrate import page_to_landing
from ..vision.mat import render_mat

__all__ = ["LandingLook", "LandingRenderer", "calibration_photo", "landing_to_table", "page_to_landing"]
PLINTH = (-45.0, -80.0, 45.0, 0.0, 8.0)       # the tower's base: landing x0, y0, x1, y1 and its height, mm
PLINTH_SRGB = (46, 44, 48)
MAT_DPI = 150
ONE_CRATE = CrateLayout(crates=((0, 0, 0),), drinks={})
# what a pixel of ``label_picture`` shows: the drinks' colours, the crates, the table (and all else)
LABELS = tuple(c.value for c in COLOURS) + ("crate", "table")


def landing_to_table(x: float, y: float) -> tuple[float, float]:
    """Landing mm -> the renderer's table mm (y turned over)."""
    return float(x), float(-y)


class LandingRenderer(CrateRenderer):
    """Frames of landing scenes in one :class:`LandingLook`. The camera, the table and the
    lamps' light on it are computed once (``CrateRenderer``'s); each scene is drawn anew."""

    def __init__(self, look: LandingLook):
        self.look, self.size = look, look.image_size
        self.centre = (0.0, -look.far_mm / 2)
        X, Y = look.half_width_mm, look.far_mm
        extent = np.array([[-X, 5.0, 0], [X, 5.0, 0], [X, -Y, 0], [-X, -Y, 0]])
        self._aim(extent, np.array([0.0, -Y / 2, 0.0]), upright=True)
        self._table_and_lamps()
        self._crates_cache = None
        self._slot = None
        self._near: list = []
        self._feet: dict = {}

    # --- a frame ----------------------------------------------------------------------------

    def render(self, scene: LandingScene, rng: np.random.Generator | None = None,
               loose: tuple[Loose, ...] = ()) -> np.ndarray:
        """One frame (BGR uint8) of ``scene`` (landing mm), with ``loose`` things (table mm,
        ``crate_scene.Loose``: coins, cards) lying about."""
        rng = rng if rng is not None else np.random.default_rng(0)
        return self.sensor(self.clean_picture(scene, rng, loose), rng)

    def clean_picture(self, scene: LandingScene, rng: np.random.Generator,
                      loose: tuple[Loose, ...] = ()) -> np.ndarray:
        """The frame before the sensor (float, linear light): what a still camera keeps to add
        fresh noise to each time (``sim/still_camera.py``)."""
        img = self._optics(self._scene_picture(scene, loose))
        img *= self._vignette() * np.float32(self.exposure(rng))
        return img

    def label_picture(self, scene: LandingScene, loose: tuple[Loose, ...] = ()) -> np.ndarray:
        """What each pixel of ``render``'s frame shows (uint8, the frame's size): the index into
        ``LABELS`` (a drink's colour, the crates, or the table and all else on it). Painted as
        ``_scene_picture`` paints, far to near, each thing flat in its label and without
        softening, so that a pixel's label is the thing nearest the camera there: the truth a
        pixel classifier learns from (``tools/learn_landing_pixels.py``)."""
        table, crate = LABELS.index("table"), LABELS.index("crate")
        img = np.full(self.pin_size[::-1], table, np.uint8)
        walls = [self._crate_walls(c, i) for i, c in enumerate(scene.crates)]
        for w in walls:
            for p in w.floors:
                cv2.fillPoly(img, [np.round(p * 16).astype(np.int32)], crate, cv2.LINE_8, 4)
        faces, distance = [f for w in walls for f in w.faces], [d for w in walls for d in w.distance]
        solids = [self.drink_solid(scene, d) for d in scene.drinks]
        kinds = [LABELS.index(d.drink.partition("-")[0]) for d in scene.drinks]
        for i, is_solid in self._far_to_near(distance, solids):
            if not is_solid:
                for pts, _, _ in faces[i]:
                    cv2.fillPoly(img, [pts], crate, cv2.LINE_8, 4)
                continue
            px16 = np.round(self.project(solids[i].verts) * 16).astype(np.int32)
            for face in solids[i].faces:
                cv2.fillPoly(img, [px16[face]], kinds[i], cv2.LINE_8, 4)
        if self.look.distortion > 0:
            img = cv2.remap(img, self._remap[0], self._remap[1], cv2.INTER_NEAREST, borderMode=cv2.BORDER_REFLECT)
        return img

    def random_loose(self, scene: LandingScene, rng: np.random.Generator, count: int) -> tuple[Loose, ...]:
        """Up to ``count`` coins and cards on the table (table mm), clear of the scene's drinks
        and crates (they hide nothing the camera is asked about)."""
        out: list[Loose] = []
        busy = [(d.x, -d.y, max(d.length_mm, d.width_mm) / 2 + 4) for d in scene.drinks]
        busy += [(c.x, -c.y, 2 * c.pitch_mm + 4) for c in scene.crates] + [(0.0, 40.0, 60.0)]
        for _ in range(count):
            kind = ("coin", "card")[int(rng.integers(0, 2))]
            size = float(rng.uniform(9, 13.5)) if kind == "coin" else float(rng.uniform(38, 60))
            reach = size * (1.0 if kind == "coin" else 0.9)
            for _ in range(20):
                x = float(rng.uniform(-self.look.half_width_mm, self.look.half_width_mm))
                y = float(-rng.uniform(20, self.look.far_mm))
                if all(np.hypot(x - bx, y - by) > reach + br for bx, by, br in busy):
                    colour = tuple(int(v) for v in (rng.uniform(150, 215, 3) if kind == "coin" else rng.uniform(60, 250, 3)))
                    out.append(Loose(kind, x, y, float(rng.uniform(0, 360)), colour, size=size))
                    busy.append((x, y, reach))
                    break
        return tuple(out)

    def _crate_walls(self, crate: PlacedCrate, index: int):
        """One crate's wall pieces, floors, shadows and contacts (``crate_walls``), in this
        crate's own pitch and walls."""
        base = self.look
        self.look = replace(base, pitch_mm=crate.pitch_mm, wall_mm=crate.wall_mm)
        try:
            self._crates_cache = None
            x, y = landing_to_table(crate.x, crate.y)
            pose = (x, y, -crate.yaw)
            G = self.grid_matrix(ONE_CRATE, pose)
            return crate_walls(self, CrateScene(ONE_CRATE, pose, (), ((0.0, 0.0, 0.0),)), G)
        finally:
            self.look = base

    def drink_solid(self, scene: LandingScene, d: PlacedDrink) -> solids.Solid:
        """A drink's solid where it lies: on the table, on a slot's floor, or across a crate's
        walls (its middle over a crate but not in a slot)."""
        lk = self.look
        shape = d.drink.partition("-")[2]
        x, y = landing_to_table(d.x, d.y)
        over = _over_crate(scene, d)
        lift = 0.0 if over is None else (lk.floor_mm if spot_of(scene, d) == "slot" else lk.rim_mm)
        if d.standing:
            return solids.drink(x, y, -d.yaw, shape, d.length_mm, d.width_mm, lift=lift)
        s = solids.lying_drink(x, y, -d.yaw, shape, d.length_mm, d.width_mm)
        if lift:
            verts = s.verts.copy()
            verts[:, 2] -= lift
            s = solids.Solid(verts, s.faces, s.caps, [(f, p - (0, 0, lift), k) for f, p, k in s.decals],
                             s.base, s.normals)
        return s

    def _scene_picture(self, scene: LandingScene, loose: tuple[Loose, ...]) -> np.ndarray:
        """The lit pinhole picture (sRGB u8): the table lit anew where things and their shadows
        are, everything standing painted far to near from the camera's foot point."""
        lk = self.look
        walls = [self._crate_walls(c, i) for i, c in enumerate(scene.crates)]
        faces, distance, floors, contacts = [], [], [], []
        shadows = [([], []) for _ in self.lamps]
        for w in walls:
            faces += w.faces
            distance += w.distance
            floors += w.floors
            contacts += w.contacts
            for k, (t, f) in enumerate(w.shadows):
                shadows[k][0].extend(t)
                shadows[k][1].extend(f)
        things = [(self.drink_solid(scene, d), tuple(lk.drinks.get(d.drink.partition("-")[0], (128, 128, 128))),
                   lk.drink_gloss) for d in scene.drinks]
        things.append((_plinth(), PLINTH_SRGB, 0.1))
        flat = [loose_solid(o, lk) for o in loose]
        Hf = self._pin_plane(lk.floor_mm)
        for solid, _, _ in things + flat:
            for lamp, (on_table, on_floor) in zip(self.lamps, shadows):
                on_table.append(through(hull(self._shadow_of(solid.verts, lamp)), self.H_table))
                on_floor.append(through(hull(self._shadow_of(solid.verts, lamp, lk.floor_mm)), Hf))
            if solid.base is not None:
                contacts.append(through(solid.base, self.H_table))
        pw, ph = self.pin_size
        img = self.background.copy()
        polys = floors + contacts + [p for t, f in shadows for p in t + f]
        if polys:
            pts = np.concatenate(polys)
            pad = int(3 * max([lp.shadow_blur for lp in self.lamps] + [1.8]) * self.px_per_mm) + 4
            x0, y0 = (min(max(0, int(v) - pad), n) for v, n in zip(pts.min(0), (pw, ph)))
            x1, y1 = (max(min(n, int(v) + pad), 0) for v, n in zip(pts.max(0), (pw, ph)))
            x0, y0, x1, y1 = x0 - x0 % 2, y0 - y0 % 2, x1 - x1 % 2, y1 - y1 % 2
            if x1 > x0 and y1 > y0:
                img[y0:y1, x0:x1] = self._lit(floors, contacts, shadows, None, (x0, y0, x1, y1))
        for solid, colour, gloss in flat:
            self._paint(img, solid, colour, gloss)
        for i, is_solid in self._far_to_near(distance, [s for s, _, _ in things]):
            if is_solid:
                self._paint(img, *things[i])
            else:
                for pts, colour, _ in faces[i]:
                    cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, 4)
        return img

    def _far_to_near(self, wall_distances: list[float], solids: list) -> list[tuple[int, bool]]:
        """The order things are painted in, farthest from the camera's foot point first: each
        crate wall piece (by its distance) and each solid (by its middle's), as (index, is a
        solid). The frame and its label picture share it, so a pixel's label is what it shows."""
        foot = self.C[:2]
        order = [(d, i, False) for i, d in enumerate(wall_distances)]
        order += [(float(np.hypot(*(s.verts[:, :2].mean(0) - foot))), i, True) for i, s in enumerate(solids)]
        return [(i, is_solid) for _, i, is_solid in sorted(order, key=lambda o: -o[0])]

    # --- the calibration photo --------------------------------------------------------------

    def calibration_picture(self, rng: np.random.Generator | None = None) -> np.ndarray:
        """The calibration photo (BGR uint8): the mat on the empty table in front of the tower."""
        rng = rng if rng is not None else np.random.default_rng(0)
        page = _page()
        ppm = MAT_DPI / 25.4
        # page px -> page mm -> landing mm -> table mm (y turned over) -> pinhole px
        to_table = np.diag([1.0, -1.0, 1.0]) @ page_to_landing() @ np.diag([1 / ppm, 1 / ppm, 1.0])
        H = self.H_table @ to_table
        pw, ph = self.pin_size
        albedo = cv2.warpPerspective(_LIN[page] * np.float32(0.85), H, (pw, ph), flags=cv2.INTER_AREA)
        cover = cv2.warpPerspective(np.ones(page.shape, np.float32), H, (pw, ph), flags=cv2.INTER_LINEAR)
        light = self.ambient * self.lamp + sum(d[..., None] * c for d, c in zip(self.direct, self.colours))
        paper = linear_to_srgb_u8((albedo[..., None] * light).astype(np.float32)).astype(np.float32)
        # the mat lies on the table: under the plinth's edge and its shadow, so drawn into the
        # table itself for this picture
        table, background = self.table, self.background
        k = cover[..., None]
        self.table = table * (1 - k) + albedo[..., None] * k
        self.background = np.clip(background * (1 - k) + paper * k + 0.5, 0, 255).astype(np.uint8)
        try:
            img = self._scene_picture(LandingScene(), ())
        finally:
            self.table, self.background = table, background
        img = self._optics(img)
        img *= self._vignette() * np.float32(self.exposure(rng))
        return self.sensor(img, rng)


def calibration_photo(look: LandingLook, rng: np.random.Generator | None = None) -> np.ndarray:
    """The calibration photo of ``look`` (see the module's words)."""
    return LandingRenderer(look).calibration_picture(rng)


def benchmark_looks(family: str, first: int, looks: int):
    """The looks of benchmarks/landings.py, drawn in its order from seed ``first`` (the tools that
    look into its readings draw the very same): for each of ``looks`` looks, ``(seed, look, frame,
    true landings, calibration photo)``; a seed whose drinks find no room is passed over. One
    scene of 2-6 drinks a look (``compose`` of ``random_wants``) with 0-2 coins or cards about."""
    for seed, look, frame, scene, _loose, photo in benchmark_scenes(family, first, looks):
        yield seed, look, frame, truth(scene).landings, photo


def benchmark_scenes(family: str, first: int, looks: int):
    """As :func:`benchmark_looks`, the very same draws, with the scene and its loose things
    instead of the true landings: ``(seed, look, frame, scene, loose, calibration photo)``."""
    seed, done = first, 0
    while done < looks:
        look = LandingLook.from_seed(seed, family)
        rng = np.random.default_rng([seed, 77])
        seed += 1
        try:
            scene = compose(random_wants(rng), rng, scale=look.drink_size)
        except ValueError:
            continue                      # no room for that draw: another look
        done += 1
        renderer = LandingRenderer(look)
        loose = renderer.random_loose(scene, rng, int(rng.integers(0, 3)))
        frame = renderer.render(scene, rng, loose)
        yield seed - 1, look, frame, scene, loose, calibration_photo(look, rng)


@lru_cache(maxsize=1)
def _page() -> np.ndarray:
    return render_mat(MAT_DPI)


def _plinth() -> solids.Solid:
    x0, y0, x1, y1, height = PLINTH
    outline = np.array([[x0, -y0], [x1, -y0], [x1, -y1], [x0, -y1]], np.float64)
    return solids.prism(outline, height, 0.0, 0.0, 0.0)


def _over_crate(scene: LandingScene, d: PlacedDrink) -> PlacedCrate | None:
    for c in scene.crates:
        hu, hv = c.half_size()
        u, v = c.local(d.x, d.y)
        if abs(u) <= hu and abs(v) <= hv:
            return c
    return None
