"""Finding the calibration crate in one photo (issue 31): the crate the host stood alone in the
camera's view with the six drinks of :data:`CALIBRATION_DRINKS` in its slots, its plastic's
colour under this lamp, its cans' tops, and which top stands in which slot
(:func:`place_crate`). crate_calibrate.py makes the calibration from what is found here.

Every refusal is a :class:`CrateCalibrationError` saying what to do (:func:`what_to_do`).

>>> [CALIBRATION_DRINKS[s] for s in (0, 5)]
['white-stubby_can', 'black-stubby_can']
>>> CALIBRATION_FIELDS[5]
(1, 2)
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from ..crate_fields import CrateLayout
from .crate_grid import to_frame
from .crate_plastic import Plastic, mean_hue, plastic_of, yellow_map
from .crate_pinhole import as_camera
from .crate_tops import tops_by_scale

# slot -> drink (slots row by row: 0 1 / 2 3 / 4 5): the six stubby cans, the lowest drinks (their
# tops about level with the rim, so the walls show all round them), every colour once, the white
# one and the black one at the two ends (which end is slot 0 is told by them)
CALIBRATION_DRINKS = ("white-stubby_can", "mint-stubby_can", "blue-stubby_can", "red-stubby_can",
                      "purple-stubby_can", "black-stubby_can")
CALIBRATION_FIELDS = tuple((s % 2, s // 2) for s in range(6))
# the same as a layout (what the simulated crate camera's calibration_photo is given)
CALIBRATION_LAYOUT = CrateLayout(crates=((0, 0, 0),), drinks=dict(zip(CALIBRATION_FIELDS, CALIBRATION_DRINKS)))
MIN_CRATE_SHARE = 0.002     # the crate covers at least this share of the photo
FOCALS = (0.55, 0.7, 0.85, 1.0, 1.2, 1.45, 1.8)   # x the width: the focal lengths tried (~30-85 degrees across)

# Set on varied training looks 0-99 (docs/performance.md, "The plastic's colour guessed (branch
# crates2)"): how many of the commonest warm colours are tried as the plastic's, and the fit a
# later guess must make to count (six tops, each within a tenth of a pitch of its slot's
# middle; the right fits of the first guess miss by up to 0.13, a later guess's loose fits
# were as often wrong as right)
GUESSES = 6
SURE_MISS = 0.1
# The guesses after the first are ON by default (``calibrate_crates(..., guesses=False)``: the
# first guess alone). Measured on varied 700000-700049 (docs/performance.md, "The plastic's colour
# guessed"), they calibrate 13 looks more; the field network had learnt those looks calibrated
# from the renderer's truth and read them with 54 more fields sure and wrong, so it was retrained
# with this on (`tools/learn_crates.py render --guess-plastic`, branch crates3: the committed
# models/crate_net.npz). With a reading that has nothing sure not read (crates.SURE_OR_UNREAD,
# branch crates6) it read 456 right / 0 sure and wrong on varied + dev against 366 / 0 with the
# guesses off and the earlier network; on fresh eval 910080-910099 (branch crates7, a rule fixed
# before measuring, "The plastic guessed, judged by a new rule") 24 right / 0 sure and wrong
# against 12 / 0, and dev 800000-800009 296 / 0 against 302 / 0.
GUESS_PLASTIC = True
# A later guess's plastic measured again over the placed crate's walls (:func:`wall_plastic`)
# instead of over the guess's own colour: OFF (docs/performance.md, "The plastic measured over
# the walls (branch crates6)"): on look 700028 the walls themselves are the pale colour the
# guess took (the glossy rims are all a calibration crate full of cans shows; the saturated
# body colour is on the frames' empty floors), and with crates3's network and the guesses the
# walls' colour read 467 fields right / 72 sure and wrong on varied + dev against 456 / 46.
WALL_PLASTIC = False


class CrateCalibrationError(ValueError):
    """A crate calibration that cannot be made or read; the message says what to do."""


def what_to_do() -> str:
    slots = ", ".join(f"slot {s}: {d}" for s, d in enumerate(CALIBRATION_DRINKS))
    return ("stand ONE yellow crate alone on the table in the camera's view with the six stubby cans upright "
            f"in its slots ({slots}; slots row by row: 0 1 / 2 3 / 4 5), nothing else yellow in view, and "
            "photograph it with the camera where it will stay")


def _small(image: np.ndarray) -> np.ndarray:
    """The photo averaged down to about 640 px across (the crate's patches are big)."""
    h, w = image.shape[:2]
    k = max(1, int(round(max(h, w) / 640)))
    return cv2.resize(image, (w // k, h // k), interpolation=cv2.INTER_AREA) if k > 1 else image


def find_crate(image: np.ndarray, guess: Plastic | None = None) -> tuple[np.ndarray, Plastic]:
    """The patch of crate yellow most like a crate full of cans (a mask at full size) and the
    plastic's colour there; ``guess``: what the plastic looks like (None: the most saturated
    warm colour of the photo, :func:`.crate_plastic.yellow_map`)."""
    h, w = image.shape[:2]
    small = _small(image)
    mask = (yellow_map(small, guess) >= 0.5).astype(np.uint8)
    # the drinks cut the crate's yellow into pieces: pieces close together are one crate
    near = cv2.dilate(mask, np.ones((15, 15), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(near, connectivity=8)
    if n <= 1:
        raise CrateCalibrationError(f"no yellow crate in the photo: {what_to_do()}")
    best = crate_like(labels, stats, mask)
    if stats[best, cv2.CC_STAT_AREA] < MIN_CRATE_SHARE * mask.size:
        raise CrateCalibrationError(f"the yellow crate is too small in the photo (or there is none): {what_to_do()}")
    blob = cv2.resize(((labels == best) & (mask > 0)).astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST) > 0
    yellow = blob & (yellow_map(image, guess) >= 0.5)
    if yellow.sum() < 20:
        raise CrateCalibrationError(f"no yellow crate in the photo: {what_to_do()}")
    return blob, plastic_of(image, yellow)


def plastic_guesses(image: np.ndarray, most: int = GUESSES) -> list[Plastic]:
    """What the crate's plastic may look like in this photo, likeliest first: the commonest warm
    colours (peaks of a hue x saturation histogram of the lit warm pixels). The most saturated
    warm colour (what :func:`find_crate` takes without a guess) is a red can or a brass coin
    where the plastic is pale or the lamp tints it; the plastic covers a fair patch of the photo
    in one colour, so it is among the commonest. Which guess is the crate is told by the cans."""
    hsv = cv2.cvtColor(_small(image), cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    warm = hsv[(hsv[:, 0] >= 6) & (hsv[:, 0] <= 50) & (hsv[:, 1] >= 35) & (hsv[:, 2] >= 50)]
    if len(warm) < 50:
        return []
    hist, he, se = np.histogram2d(warm[:, 0], warm[:, 1], bins=(np.arange(6, 53, 3), np.arange(35, 261, 15)))
    hist = cv2.GaussianBlur(hist.astype(np.float32), (3, 3), 0.7)
    peaks = (hist >= cv2.dilate(hist, np.ones((3, 3), np.uint8))) & (hist >= 0.0002 * len(hsv))
    out = []
    for i, j in sorted(zip(*np.nonzero(peaks)), key=lambda ij: -hist[ij])[:most]:
        hue, sat = (he[i] + he[i + 1]) / 2, (se[j] + se[j + 1]) / 2
        near = warm[(np.abs(warm[:, 0] - hue) <= 3) & (np.abs(warm[:, 1] - sat) <= 15)]
        # (its BGR is not needed to find it: find_crate measures the plastic it finds)
        out.append(Plastic(float(hue), float(sat), float(np.median(near[:, 2])) if len(near) else 128.0, (0.0, 0.0, 0.0)))
    return out


def crate_like(labels: np.ndarray, stats: np.ndarray, mask: np.ndarray, among: int = 4) -> int:
    """Of the biggest patches of yellow (``labels`` of the dilated mask), the one most like a
    crate full of cans: the most of its outline's inside NOT yellow (the cans' tops). A yellow
    card or coin is yellow all over its outline; a crate is a frame round six cans."""
    order = 1 + np.argsort(stats[1:, cv2.CC_STAT_AREA])[::-1][:among]
    big = stats[order[0], cv2.CC_STAT_AREA]
    best, score = int(order[0]), -1.0
    for k in order:
        if stats[k, cv2.CC_STAT_AREA] < 0.15 * big:
            break
        x, y, w, h = (int(v) for v in stats[k, :4])
        part = labels[y:y + h, x:x + w] == k
        pts = np.column_stack(np.nonzero(part)[::-1]).astype(np.int32)
        hull = np.zeros(part.shape, np.uint8)
        cv2.fillPoly(hull, [cv2.convexHull(pts).reshape(-1, 2)], 1)
        holes = float(((hull > 0) & ~(mask[y:y + h, x:x + w] > 0)).sum())
        if holes > score:
            best, score = int(k), holes
    return best


def can_tops(image: np.ndarray, blob: np.ndarray, plastic: Plastic | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
    """The drinks' tops in the crate: (centre px, median BGR) of the six largest cores of
    patches that are neither crate plastic (``plastic``; None: the most saturated warm colour)
    nor table, in and just round the crate's outline (a near can may stand out over the
    crate's near wall)."""
    hull = cv2.convexHull(np.column_stack(np.nonzero(blob)[::-1]).astype(np.int32))
    side = math.sqrt(float(cv2.contourArea(hull)) / 8.0)          # about a pitch
    inside = np.zeros(blob.shape, np.uint8)
    cv2.fillPoly(inside, [hull.reshape(-1, 2)], 1)
    r = max(1, int(round(0.8 * side)))
    near = cv2.dilate(inside, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    outer = cv2.dilate(near, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))) - near
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    table = np.median(lab[outer > 0], axis=0) if (outer > 0).any() else np.zeros(3, np.float32)
    spread = np.median(np.abs(lab[outer > 0] - table), axis=0) if (outer > 0).any() else np.ones(3, np.float32)
    like_table = np.all(np.abs(lab - table) <= np.maximum(3.5 * spread, 6.0), axis=2)
    yel = yellow_map(image, plastic)
    other = (((inside > 0) | ((near > 0) & ~like_table)) & (yel < 0.3)).astype(np.uint8)
    k = max(1, int(round(side * 0.06)))
    other = cv2.morphologyEx(other, cv2.MORPH_OPEN, np.ones((2 * k + 1, 2 * k + 1), np.uint8))
    # touching cans join into one patch: their cores (far from the patch's edge) do not
    dist = cv2.distanceTransform(other, cv2.DIST_L2, 5)
    tops: list = []
    for share in (0.2, 0.25, 0.3, 0.35, 0.4):       # deeper cores until six cans come apart
        cores = (dist > share * side).astype(np.uint8)
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(cores, connectivity=8)
        order = 1 + np.argsort(stats[1:, cv2.CC_STAT_AREA])[::-1]
        found = []
        for lab_i in order:
            if len(found) == 6 or stats[lab_i, cv2.CC_STAT_AREA] < 0.004 * side * side:
                break
            # a can's middle lies over the crate (a thing beside it on the table does not)
            if cv2.pointPolygonTest(hull, tuple(float(v) for v in centroids[lab_i]), True) < -0.35 * side:
                continue
            px = image[labels == lab_i]
            found.append((centroids[lab_i].astype(np.float64), np.median(px, axis=0).astype(np.float64)))
        if len(found) > len(tops):
            tops = found
        if len(tops) == 6:
            break
    return tops


def crate_from_tops(tops, size) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """Crate units -> photo px (and the focal length) from four to six tops: each top is tried as
    the white can of slot 0, the others going to the slots where a camera's view of the crate
    (keeping the picture's handedness) fits them best; of the tries that fit about as well as the
    best, the one whose white can is the brightest top is taken. (The brightest top alone was
    taken for the white can before: under a coloured lamp or a spot a light can beside it, mint,
    may be brighter, and the cans were then put in slots no camera shows them in; the handedness
    rules the neighbours out, and the black can, the one opposite, is far darker.) Also the
    tops' points and their fields, in the same order, and how far the fit misses the farthest
    top (pitches)."""
    bright = [float(c.sum()) for _, c in tops]
    fits = [fit for w_i in range(len(tops)) if (fit := _tops_fit(tops, w_i, size)) is not None]
    if not fits:
        raise CrateCalibrationError(f"the cans do not stand in a crate's 2 x 3 slots: {what_to_do()}")
    least = min(fits, key=lambda fit: fit[0])
    pitch = float(np.linalg.norm(to_frame(least[1], [(0.5, 0.5)]) - to_frame(least[1], [(1.5, 0.5)])))
    near = [fit for fit in fits if fit[0] <= WHITE_FIT * least[0] + 0.05 * pitch]
    best = max(near, key=lambda fit: bright[fit[5]])
    pitch = float(np.linalg.norm(to_frame(best[1], [(0.5, 0.5)]) - to_frame(best[1], [(1.5, 0.5)])))
    if best[0] > MAX_MISS * pitch:
        raise CrateCalibrationError(f"the cans do not stand in a crate's 2 x 3 slots: {what_to_do()}")
    return best[1], best[2], best[3], best[4], best[0] / pitch


# Set on varied looks 0-99 (docs/performance.md, "The white can by the crate's handedness"): the
# fits that put every can in its slot missed by at most 0.15 pitch, the wrong ones mostly by
# 0.18-0.4 (taken before, up to 0.4); four tops fit any four slots (all four-top looks were wrong)
MAX_MISS = 0.2           # pitches: a worse fit is refused
MIN_TOPS = 5             # cans' tops found, at least
WHITE_FIT = 1.5          # a try whose white can is brighter is taken if it misses by at most this x the best's (+ 1/20 pitch)


def _tops_fit(tops, w_i: int, size):
    """(the largest miss px, crate units -> px, the tops' points, their fields, the focal length,
    ``w_i``) of the best fit with top ``w_i`` as the white can; None when no assignment keeps the
    picture's handedness."""
    centres = np.array([(x + 0.5, y + 0.5) for x, y in CALIBRATION_FIELDS], np.float64)
    rest = [i for i in range(len(tops)) if i != w_i]
    best = None
    for slots in itertools.permutations(range(1, 6), len(rest)):
        dst = centres[[0, *slots]]
        src = np.array([tops[i][0] for i in [w_i, *rest]])
        H, _ = cv2.findHomography(dst, src, 0)
        if H is None or not np.all(np.isfinite(H)):
            continue
        J = H[:2, :2] - np.outer(H[:2, 2], H[2, :2])       # the map's turn near the crate's corner
        if np.linalg.det(J) * H[2, 2] <= 0:
            continue
        # judged as a camera would see the crate (a free homography fits five points too easily),
        # for a few focal lengths a camera may have (the best fit tells it, roughly)
        for focal in FOCALS:
            Hf = pose_fit(H, src, dst, focal * size[0], size)
            err = float(np.linalg.norm(to_frame(Hf, dst) - src, axis=1).max())
            if best is None or err < best[0]:
                best = (err, Hf, src, dst, focal * size[0], w_i)
    return best


def pose_fit(H: np.ndarray, tops, fields, f: float, size) -> np.ndarray:
    """The crate's plane seen by a camera of focal length ``f``, fitted to the tops (px) of the
    fields' middles ``fields`` (crate units); ``H`` the homography that told which is which."""
    obj = np.column_stack([np.asarray(fields, np.float64), np.zeros(len(fields))])
    img = np.array(tops, np.float64)
    K = np.array([[f, 0, size[0] / 2], [0, f, size[1] / 2], [0, 0, 1.0]])
    ok, rvec, tvec = cv2.solvePnP(obj, img.reshape(-1, 1, 2), K, None, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        return as_camera(H, f, size)
    R, _ = cv2.Rodrigues(rvec)
    out = K @ np.column_stack([R[:, 0], R[:, 1], tvec.ravel()])
    return out / out[2, 2]


WALL_TOP = 0.45          # pitches: round each can's top, left out of the walls' measure


def wall_plastic(image: np.ndarray, H: np.ndarray, tops) -> Plastic | None:
    """The plastic's colour measured over a placed crate (``H``: crate units -> px; ``tops``:
    the cans' tops, px first): inside its outline on the rim plane, less a disc of
    :data:`WALL_TOP` pitch round each can's top, what is left is its walls (rims, inner faces,
    the floor between can and wall). Their commonest warm colour (the peak of a hue x
    saturation histogram, as :func:`plastic_guesses` takes over the whole photo) and the pixels
    near it give the hue, the saturation, the value of their lit half and its mean BGR, as
    :func:`find_crate` measures its patch. None when the walls show too little warm colour."""
    poly = to_frame(H, [(0, 0), (2, 0), (2, 3), (0, 3)])
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 1)
    pitch = float(np.linalg.norm(to_frame(H, [(0.5, 0.5)]) - to_frame(H, [(1.5, 0.5)])))
    for centre, _ in tops:
        cv2.circle(mask, tuple(int(round(float(v))) for v in centre), max(1, int(round(WALL_TOP * pitch))), 0, -1)
    bgr = image[mask > 0]
    if len(bgr) < 50:
        return None
    hsv = cv2.cvtColor(bgr.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    warm = (hsv[:, 0] >= 6) & (hsv[:, 0] <= 50) & (hsv[:, 1] >= 35) & (hsv[:, 2] >= 50)
    if warm.sum() < max(20, 0.1 * len(hsv)):
        return None
    hist, he, se = np.histogram2d(hsv[warm, 0], hsv[warm, 1], bins=(np.arange(6, 53, 3), np.arange(35, 261, 15)))
    hist = cv2.GaussianBlur(hist.astype(np.float32), (3, 3), 0.7)
    i, j = np.unravel_index(int(np.argmax(hist)), hist.shape)
    hue0, sat0 = (he[i] + he[i + 1]) / 2, (se[j] + se[j + 1]) / 2
    near = warm & (np.abs(hsv[:, 0] - hue0) <= 4.5) & (np.abs(hsv[:, 1] - sat0) <= 30)
    if near.sum() < 20:
        return None
    px, col = hsv[near], bgr[near].astype(np.float64)
    lit = px[:, 2] >= np.median(px[:, 2])
    return Plastic(mean_hue(px[:, 0]), float(np.median(px[:, 1])), float(np.median(px[lit, 2])),
                   tuple(float(v) for v in col[lit].mean(axis=0)))


@dataclass(frozen=True)
class Placed:
    """The calibration crate found in a photo: its plastic, the cans' tops (px, BGR), crate
    units -> px, the tops' points and their fields' middles (crate units) in the same order,
    the focal length (px), how far the fit misses the farthest top (pitches) and which guess of
    the plastic's colour found it (0: the most saturated warm colour; -1: none, the tops marked by
    the network found it, :func:`learned_place`)."""

    plastic: Plastic
    tops: list
    H: np.ndarray
    points: np.ndarray
    fields: np.ndarray
    focal: float
    miss: float
    guess: int


def place_crate(image: np.ndarray, guesses: bool | None = None, learned: bool | None = None) -> Placed:
    """The calibration crate in ``image`` from its cans' tops. The plastic's colour is guessed:
    first the most saturated warm colour (refused as :data:`MIN_TOPS` and :data:`MAX_MISS` say),
    then, until one finds the crate, the commonest warm ones (:func:`plastic_guesses`). A wrong
    guess finds a coin, a can or the table, whose "tops" seldom stand in a crate's 2 x 3 slots;
    but five tops, or six fitting loosely, stand in some slots of a crate by chance (a can
    missed, a shadow taken for one: a column slid by a pitch, which a camera's slant can show),
    so a later guess counts only with all six tops fitting within :data:`SURE_MISS`. The first
    guess's refusal, in words, when none counts (or, ``learned``, default :data:`LEARNED_TOPS`,
    the crate the network's marks place: :func:`learned_place`; they also replace a loose fit
    of the first guess, :data:`LOOSE_BY_NETWORK`). ``guesses``: whether to go past the first
    (default :data:`GUESS_PLASTIC`)."""
    h, w = image.shape[:2]
    best, refusal = None, None

    more = GUESS_PLASTIC if guesses is None else guesses

    def colours():
        yield None
        if more:
            yield from plastic_guesses(image)

    for n, guess in enumerate(colours()):
        try:
            blob, plastic = find_crate(image, guess)
            # the first guess's tops as before; a guess's own plastic is what the tops are not
            tops = can_tops(image, blob, plastic if guess is not None else None)
            if len(tops) < MIN_TOPS:
                raise CrateCalibrationError(f"found {len(tops)} of the six cans in the crate: {what_to_do()}")
            # six points on one crate tell the lens's focal length (and so the plane's perspective)
            # only roughly: the crate's pose is fitted for a few focal lengths a camera may have
            H, points, fields, f, miss = crate_from_tops(tops, (w, h))
        except CrateCalibrationError as exc:
            refusal = refusal or exc
            continue
        sure = len(tops) == 6 and miss <= SURE_MISS
        if guess is not None and not sure:
            continue
        if guess is not None and WALL_PLASTIC:
            # a later guess's colour is a peak of the whole photo's warm colours, which may be a
            # glossy crate's shine: once the cans have placed the crate, its colour is measured
            # again over the crate itself (wall_plastic)
            plastic = wall_plastic(image, H, tops) or plastic
        placed = Placed(plastic, tops, H, points, fields, f, miss, n)
        if best is None or (len(tops), -miss) > (len(best.tops), -best.miss):
            best = placed
        if sure:
            break
    loose = best is not None and not (len(best.tops) == 6 and best.miss <= SURE_MISS)
    if (LEARNED_TOPS if learned is None else learned) and (best is None or (LOOSE_BY_NETWORK and loose)):
        best = learned_place(image, None if best is None else best.plastic) or best
    if best is None:
        raise refusal
    return best


# Where every guess of the plastic is refused, the cans' tops marked by a network
# (crate_tops.py) place the crate: ON (docs/performance.md, "The cans' tops marked by a
# network"). The crates those refused photos hold are found by their cans alone, so that a
# pale, glossy or tinted crate, or cans that touch, still calibrate.
LEARNED_TOPS = True
# Where the first guess's tops fit only loosely (five tops, or a miss over SURE_MISS), the
# network's marks, when they fit within SURE_MISS, are taken instead (the first guess's plastic
# kept): ON. On varied 700000-039 the loose fits put two crates' cans in wrong slots, the marks
# none; fresh eval 910440-459 read 244 fields right against 220, the same 16 sure and wrong
# (main's own, in a look it calibrates alike); fresh dev and varied looks alike
# (docs/performance.md, "The cans' tops marked by a network"). False: the hand's loose fit kept.
LOOSE_BY_NETWORK = True
TOP_DISC = 0.2           # pitches: the disc round a marked top whose median is its colour


def learned_place(image: np.ndarray, plastic: Plastic | None = None) -> Placed | None:
    """The calibration crate placed by the cans' tops the network marks (:func:`.crate_tops.tops_by_scale`):
    at each scale the six strongest marks, placed as :func:`crate_from_tops` places the
    hand-found ones, counted only when they fit within :data:`SURE_MISS`; of the scales, the
    best fit. The plastic's colour is ``plastic`` when given, else measured over the placed
    crate's walls (:func:`wall_plastic`), or where they show too little warm colour, the photo's
    most saturated warm colour (:func:`find_crate`). None when nothing fits."""
    h, w = image.shape[:2]
    best = None
    for marks in tops_by_scale(image):
        if len(marks) < 6:
            continue
        pts = np.array([p for p, _ in marks])
        gaps = np.linalg.norm(pts[:, None] - pts[None], axis=2) + np.eye(6) * 1e9
        radius = max(1, int(round(TOP_DISC * float(np.median(gaps.min(axis=1))))))
        tops = [(p, _disc_median(image, p, radius)) for p in pts]
        try:
            H, points, fields, f, miss = crate_from_tops(tops, (w, h))
        except CrateCalibrationError:
            continue
        if miss <= SURE_MISS and (best is None or miss < best[-1]):
            best = (tops, H, points, fields, f, miss)
    if best is None:
        return None
    tops, H, points, fields, f, miss = best
    if plastic is None:
        plastic = wall_plastic(image, H, tops)
    if plastic is None:
        try:
            plastic = find_crate(image)[1]
        except CrateCalibrationError:
            return None
    return Placed(plastic, tops, H, points, fields, f, miss, -1)


def _disc_median(image: np.ndarray, centre: np.ndarray, radius: int) -> np.ndarray:
    """The median BGR of a disc of ``radius`` px round ``centre`` (px). (crate_calibrate.disc_colour
    takes a disc on the crate's plane through a homography, and that module imports this one.)"""
    x, y = (int(round(float(v))) for v in centre)
    h, w = image.shape[:2]
    x0, x1, y0, y1 = max(0, x - radius), min(w, x + radius + 1), max(0, y - radius), min(h, y + radius + 1)
    if x0 >= x1 or y0 >= y1:
        return np.zeros(3)
    gy, gx = np.mgrid[y0:y1, x0:x1]
    inside = (gx - x) ** 2 + (gy - y) ** 2 <= radius * radius
    return np.median(image[y0:y1, x0:x1][inside], axis=0).astype(np.float64)
