"""Scenes for the simulated table, the tests and the benchmark: drinks laid on the tray apart
or touching, the benchmark's difficulties, datasets with ground truth, the calibration
photos (one drink each, or all 36 on the printed mat) and the checked-in calibration folder.

A difficulty says what a photo has (touching drinks, drifting light, JPEG, shake); how strong
each is comes from the look's family (``looks.FAMILIES``): the eval family's JPEG is harsher,
its shake bends, and its drifting light brings a person's shadow band across the tray.
"""
from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from ..drinks import DRINK_IDS, Drink
from .looks import FAMILIES, Lighting, Look, Placement
from .render import Renderer

class Layout:
    """Places drinks on the tray without overlaps, either apart or touching one another."""

    def __init__(self, look: Look, renderer: Renderer, rng: np.random.Generator):
        self.look, self.r, self.rng = look, renderer, rng
        hx, hy = renderer.mm_half
        self.hx, self.hy = hx - 7, hy - 7     # keep drinks inside the frame, clear of the walls
        self.res = 2.0                         # occupancy grid, px per mm
        self.grid = np.zeros((int(2 * hy * self.res) + 1, int(2 * hx * self.res) + 1), np.uint8)
        self.placed: list[Placement] = []
        self._sizes: dict[str, tuple[float, float]] = {}
        for _img, sx, sy, side in renderer.stickers:
            self._mark(np.array([[sx, sy], [sx + side, sy], [sx + side, sy + side], [sx, sy + side]]))

    def _poly(self, drink: str, x, y, angle: float) -> np.ndarray:
        """The drink's four corners at (x, y), (4, 2); with arrays of centres, (n, 4, 2). Each
        corner is x + along - across, evaluated in that order, so that the arrays' corners are
        the very numbers of the single ones (place_touching's slide takes them all at once)."""
        L, W = self._size(drink)
        th = math.radians(angle)
        ax, ay = math.cos(th), math.sin(th)
        pts = [(x + sx * L / 2 * ax - sy * W / 2 * ay, y + sx * L / 2 * ay + sy * W / 2 * ax)
               for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        if np.ndim(x) == 0:
            return np.array(pts)
        return np.stack([np.stack(c, axis=-1) for c in pts], axis=-2)

    def _size(self, drink: str) -> tuple[float, float]:
        size = self._sizes.get(drink)
        if size is None:
            size = self._sizes[drink] = self.look.sizes[Drink.parse(drink).shape.value]
        return size

    def _inside(self, poly: np.ndarray):
        """Every corner within the tray's bounds (as no |x| > hx and no |y| > hy: two reductions
        where the four-ufunc form cost a tenth of a touching scene's search); for (n, 4, 2)
        corners, one answer a polygon."""
        lo, hi = poly.min(axis=-2), poly.max(axis=-2)
        return (-lo[..., 0] <= self.hx) & (hi[..., 0] <= self.hx) & (-lo[..., 1] <= self.hy) & (hi[..., 1] <= self.hy)

    def _fits(self, poly: np.ndarray, gap: float) -> bool:
        if not self._inside(poly):
            return False
        # Only the window of the grid round the drink (and its gap) is drawn and compared: the
        # same cells as a drawing over the whole grid (the polygon moved by whole cells is
        # rasterised alike), at a fraction of the cost -- a touching scene tries thousands.
        pts = ((poly + [self.hx + 7, self.hy + 7]) * self.res * 16).round().astype(np.int32)
        k = int(round(gap * self.res)) * 2 + 1 if gap > 0 else 1
        h, w = self.grid.shape
        x0 = max(0, int(pts[:, 0].min()) // 16 - k)
        y0 = max(0, int(pts[:, 1].min()) // 16 - k)
        x1 = min(w, int(pts[:, 0].max()) // 16 + k + 2)
        y1 = min(h, int(pts[:, 1].max()) // 16 + k + 2)
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(m, [pts - np.int32([x0 * 16, y0 * 16])], 1, cv2.LINE_8, 4)
        if gap > 0:
            m = cv2.dilate(m, np.ones((k, k), np.uint8))
        return not np.any(m & self.grid[y0:y1, x0:x1])

    def _mark(self, poly: np.ndarray) -> None:
        pts = ((poly + [self.hx + 7, self.hy + 7]) * self.res * 16).round().astype(np.int32)
        cv2.fillPoly(self.grid, [pts], 1, cv2.LINE_8, 4)

    def place_apart(self, drink: str, gap: float = 4.0, tries: int = 300) -> Placement | None:
        for _ in range(tries):
            x, y = self.rng.uniform(-self.hx, self.hx), self.rng.uniform(-self.hy, self.hy)
            a = self.rng.uniform(0, 360)
            poly = self._poly(drink, x, y, a)
            if self._fits(poly, gap):
                return self._add(drink, x, y, a, poly)
        return None

    def place_touching(self, drink: str, tries: int = 60) -> Placement | None:
        """Slide a drink towards one already placed until they touch."""
        if not self.placed:
            return self.place_apart(drink, gap=2.0)
        for _ in range(tries):
            target = self.placed[int(self.rng.integers(len(self.placed)))]
            a = self.rng.uniform(0, 360)
            if self.rng.random() < 0.35:  # side by side is common once drinks roll together
                a = target.angle + self.rng.choice([0, 180]) + self.rng.normal(0, 8)
            d = self.rng.uniform(0, 2 * math.pi)
            # From 45 mm away towards the target in steps of 0.25 mm, the last free place before
            # the drink meets another (or leaves the tray again). Every step's corners and
            # whether they lie on the tray are worked out at once (the step-by-step loop cost a
            # third of rendering a touching photo); only steps on the tray are drawn and compared.
            dists = 45.0 - 0.25 * np.arange(180)       # 45, 44.75, ... 0.25: exact in binary
            xs, ys = target.x + dists * math.cos(d), target.y + dists * math.sin(d)
            polys = self._poly(drink, xs, ys, a)
            inside = self._inside(polys)
            last_free = None
            for k in range(len(dists)):
                if not inside[k]:
                    if last_free is not None:
                        break
                elif self._fits(polys[k], 0.0):
                    last_free = k
                else:
                    break
            else:
                continue                              # slid right into the target: no place
            if last_free is not None:
                return self._add(drink, float(xs[last_free]), float(ys[last_free]), a, polys[last_free])
        return None

    def _add(self, drink, x, y, a, poly) -> Placement:
        self._mark(poly)
        p = Placement(drink, float(x), float(y), float(a), spin=float(self.rng.uniform(-40, 40)))
        self.placed.append(p)
        return p


def random_scene(look: Look, renderer: Renderer, rng: np.random.Generator, n: int, touching: bool,
                 exclude: list[str] = ()) -> list[Placement]:
    ids = [d for d in DRINK_IDS if d not in set(exclude)]
    chosen = list(rng.choice(ids, size=n, replace=False))
    lay = Layout(look, renderer, rng)
    for i, d in enumerate(chosen):
        if touching and i > 0 and rng.random() < 0.85:
            lay.place_touching(d)
        else:
            lay.place_apart(d, gap=4.0 if not touching else 3.0)
    return lay.placed


# --- datasets --------------------------------------------------------------------------------

DIFFICULTIES = {
    "separated": {"touching": False, "drift": 0.0, "jpeg": None, "blur": 0.0},
    "touching": {"touching": True, "drift": 0.0, "jpeg": None, "blur": 0.0},
    "drift": {"touching": False, "drift": 1.0, "jpeg": None, "blur": 0.0},
    "hard": {"touching": True, "drift": 1.0, "jpeg": True, "blur": 1.0},
}
DIFFICULTY_TITLES = {"separated": "separated", "touching": "touching", "drift": "lighting drift",
                     "hard": "touching + drift + JPEG + motion blur"}


def calibration_photos(look: Look, seed: int):
    """The calibration photos, one at a time: ("background", the empty tray), then (drink id,
    a photo of that drink alone) for each of the 36 drinks."""
    r = Renderer(look)
    rng = np.random.default_rng([seed, 7003])
    yield "background", r.render([], Lighting.steady(rng), rng=rng)[0]
    for d in DRINK_IDS:
        yield d, r.render([calibration_placement(look, r, rng, d)], Lighting.steady(rng), rng=rng)[0]


def calibration_placement(look: Look, renderer: Renderer, rng: np.random.Generator, drink: str) -> Placement:
    """Where ``drink`` lies in its calibration photo: anywhere on the middle of the tray, or, for a
    long drink on a tray the camera sees narrow (one look in a few hundred), anywhere on it with
    more tries (the looks that found a place at once keep their photos)."""
    lay = Layout(look, renderer, rng)
    lay.hx, lay.hy = lay.hx * 0.8, lay.hy * 0.8
    p = lay.place_apart(drink)
    if p is None:
        lay.hx, lay.hy = lay.hx / 0.8, lay.hy / 0.8
        p = lay.place_apart(drink, gap=0.0, tries=3000)
    if p is None:
        raise ValueError(f"{drink} finds no place of its own on this look's tray")
    return p


def write_calibration_set(out: Path, look: Look, seed: int) -> None:
    """background.png (the empty tray) and 36 photos <colour>-<shape>.png, one drink each."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, img in calibration_photos(look, seed):
        cv2.imwrite(str(out / f"{name}.png"), img)


def _sample_scene(renderer: Renderer, rng: np.random.Generator, difficulty: str, n_min: int, n_max: int) -> dict:
    """What one sample photo shows, drawn from ``rng``: the arguments of ``Renderer.render``."""
    spec, fam = DIFFICULTIES[difficulty], FAMILIES[renderer.look.family]
    n = int(rng.integers(n_min, n_max + 1))
    scene = random_scene(renderer.look, renderer, rng, n, spec["touching"])
    if not spec["drift"]:
        light = Lighting.steady(rng)
    elif fam.shade == "band":
        light = Lighting.drift_across(rng, spec["drift"], fam.band_chance[difficulty])
    else:
        light = Lighting.drift(rng, spec["drift"])
    blur = float(rng.uniform(*fam.shake_px)) * spec["blur"] if spec["blur"] else 0.0
    q = int(rng.integers(*fam.jpeg_quality)) if spec["jpeg"] else None
    return {"placements": scene, "lighting": light, "jpeg_quality": q, "motion_blur": blur}


def render_sample(renderer: Renderer, rng: np.random.Generator, difficulty: str, n_min: int = 3,
                  n_max: int = 8):
    """The next photo of a sequence at ``difficulty``: image and truth."""
    return renderer.render(rng=rng, **_sample_scene(renderer, rng, difficulty, n_min, n_max))


def skip_sample(renderer: Renderer, rng: np.random.Generator, difficulty: str, n_min: int = 3,
                n_max: int = 8) -> None:
    """Move ``rng`` past the photo ``render_sample`` would render, without rendering it: the
    tests reach the n-th photo of a benchmark sequence in a fraction of the time."""
    scene = _sample_scene(renderer, rng, difficulty, n_min, n_max)
    renderer.draws(rng, motion_blur=scene["motion_blur"])


def write_dataset(out: Path, seed: int, difficulty: str, n_images: int, tray: str | None = None,
                  family: str = "dev") -> dict:
    """A calibration set (out/calibration) and n_images scenes with truth.json."""
    out = Path(out)
    look = Look.from_seed(seed, tray, family)
    write_calibration_set(out / "calibration", look, seed)
    r = Renderer(look)
    rng = np.random.default_rng([seed, 7004])
    truth = {}
    ext = ".jpg" if DIFFICULTIES[difficulty]["jpeg"] else ".png"
    for i in range(n_images):
        img, t = render_sample(r, rng, difficulty)
        name = f"{i:04d}{ext}"
        if ext == ".jpg":   # already JPEG-compressed by the camera model; store the decoded frame losslessly
            name = f"{i:04d}.png"
        cv2.imwrite(str(out / name), img)
        truth[name] = [{k: v for k, v in d.items() if k != "mask"} for d in t]
    meta = {"seed": seed, "family": family, "difficulty": difficulty, "tray": look.tray, "truth": truth}
    (out / "truth.json").write_text(json.dumps(meta, indent=1))
    return meta


# --- the calibration mat and the tray marker -----------------------------------------------------

def mat_look(look: Look, seed: int) -> Look:
    """The same drinks photographed on the mat on a table: the camera higher, to see all of A4."""
    rng = np.random.default_rng([seed, 7005])
    return replace(look, px_per_mm=float(rng.uniform(3.05, 3.25)),
                   tilt=(float(rng.uniform(-4, 4)), float(rng.uniform(-4, 4))), roll=float(rng.uniform(-3, 3)))


def render_mat_photo(look: Look, seed: int, drinks: list[str] | None = None, extra: dict | None = None):
    """A photo of the printed mat with the drinks laid on their spots (None: all 36)."""
    from ..vision import mat
    page = mat.render_mat(dpi=150)
    lk = mat_look(look, seed)
    r = Renderer(lk, paper=page, paper_mm=mat.PAGE_MM)
    rng = np.random.default_rng([seed, 7006])
    placements = []
    for d in (DRINK_IDS if drinks is None else drinks):
        cx, cy = mat.spot_centre(d)
        placements.append(Placement(d, cx - mat.PAGE_MM[0] / 2 + float(rng.normal(0, 0.8)),
                                    cy - mat.PAGE_MM[1] / 2 + float(rng.normal(0, 0.6)),
                                    float(rng.choice([0.0, 180.0]) + rng.normal(0, 4)), spin=float(rng.uniform(-30, 30))))
    for d, (dx, dy) in (extra or {}).items():
        cx, cy = mat.spot_centre(d)
        placements.append(Placement(d, cx - mat.PAGE_MM[0] / 2 + dx, cy - mat.PAGE_MM[1] / 2 + dy, 0.0))
    img, _ = r.render(placements, Lighting.steady(rng), rng=rng)
    return img


def tray_marker_sticker(renderer: Renderer):
    """The cut-out tray marker lying in the top-left corner of the visible tray."""
    from ..vision import mat
    ppm = 150 / 25.4
    page = mat.render_mat(dpi=150)
    x, y, side = mat.TRAY_BOX
    crop = page[int(round(y * ppm)):int(round((y + side) * ppm)), int(round(x * ppm)):int(round((x + side) * ppm))]
    hx, hy = renderer.mm_half
    return (crop, -hx + 6.0, -hy + 6.0, side)


# --- the checked-in calibration folder -----------------------------------------------------------

def make_calibration_folder(out: Path, seed: int | None = None) -> None:
    """Regenerate calibration/: the mat (PNG, PDF), the simulated table's profile, example photos."""
    import tempfile

    from ..vision import mat
    from ..vision.calibrate import calibrate_dir
    from .camera import SIM_SEED

    seed = SIM_SEED if seed is None else seed
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    mat.write_mat(out / "mat")
    look = Look.from_seed(seed)
    with tempfile.TemporaryDirectory() as tmp:
        write_calibration_set(Path(tmp), look, seed)
        profile = calibrate_dir(Path(tmp))
        profile.source = f"calibrate drinks (rendered calibration set of the simulated table, look seed {seed})"
        profile.save(out / "sim-profile.json")
        ex = out / "examples"
        ex.mkdir(exist_ok=True)
        for name in ("background", "red-tall_can"):
            img = cv2.imread(str(Path(tmp) / f"{name}.png"))
            cv2.imwrite(str(ex / f"calibration-{name}.jpg"), cv2.resize(img, (640, 360), interpolation=cv2.INTER_AREA),
                        [cv2.IMWRITE_JPEG_QUALITY, 85])
    r = Renderer(look)
    rng = np.random.default_rng([seed, 7010])
    img, _ = render_sample(r, rng, "touching", 6, 6)
    cv2.imwrite(str(ex / "tray-touching.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    photo = render_mat_photo(look, seed)
    cv2.imwrite(str(ex / "mat-photo.jpg"), photo, [cv2.IMWRITE_JPEG_QUALITY, 85])
