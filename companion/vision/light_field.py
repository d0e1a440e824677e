"""The light of the moment (step 1 of reading a frame, READING.md): the frame over the empty tray
on a coarse grid, per channel, as a plane of light plus a smooth residual, which follows a
person's shadow band of any one colour; the grid's noise widens the tolerances on a dark tray.
segment.py divides the frame by the gain field it gives.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from .profile import Profile
from .selection import column_medians

TINY = (80, 45)               # grid of the lighting estimate


def lighting_field(small: np.ndarray, profile: Profile, c: dict) -> tuple[np.ndarray, float, float]:
    """Per-channel gain of this frame over the empty tray, smooth, at working scale; the
    frame's mean gain; the share of the grid that still looks like the tray (below TRAY_SHARE
    the frame does not show it). ``c``: segment.reference(profile) (the empty tray on the grid,
    the grid's design)."""
    tiny = cv2.resize(small, TINY, interpolation=cv2.INTER_AREA)
    lr = np.log(tiny + 1.0) - c["bg_tiny_log"]
    noise = _grid_noise(lr, tiny)
    flat = lr.reshape(-1, 3)
    med = column_medians(flat)

    def shade_beside(coef, inl):
        resid = lr - (c["design"] @ coef).reshape(lr.shape)
        return _broad_shade(resid, inl.reshape(TINY[1], TINY[0]), profile, noise)

    coef, inl = _tray_plane(flat, med, c, noise)
    shade = None
    if inl.mean() < TRAY_SHARE:
        # Little of the frame fits one plane of light from the median's level: a shadow band
        # across about half the tray puts the median between the lit and the shaded tray.
        # Start again from the level most cells share; taken only with a shade beside it
        # (_broad_shade): a frame of something else than the tray (the camera moved) may also
        # have a level many cells share, but no smooth step beside it.
        coef2, inl2 = _tray_plane(flat, _densest_level(flat), c, noise)
        if coef2 is not None:
            found = shade_beside(coef2, inl2)
            if found.any():
                coef, inl, shade = coef2, inl2, found
    elif coef is not None:
        # A narrower band (a person leaning over part of the table) leaves most of the tray on
        # the plane; its shade is followed all the same, or the drinks in it are lost in one
        # blob of "drink" the size of the band.
        shade = shade_beside(coef, inl)
    w = inl.reshape(TINY[1], TINY[0]).astype(np.float32)
    if shade is not None:
        w = np.maximum(w, shade.astype(np.float32))
    if w.sum() < 30 or coef is None:
        field_ = np.broadcast_to(med, lr.shape).astype(np.float32)
    else:
        plane = (c["design"] @ coef).reshape(lr.shape).astype(np.float32)
        # what the plane misses (a person's shade), filled in smoothly from the tray around it
        res = (lr - plane) * w[..., None]
        num = cv2.GaussianBlur(res, (0, 0), 3.0)
        den = cv2.GaussianBlur(w, (0, 0), 3.0)[..., None] + 1e-3
        field_ = plane + num / den * np.minimum(1.0, den / 0.3)
    wsz = (small.shape[1], small.shape[0])
    gain = cv2.resize(np.exp(field_).astype(np.float32), wsz, interpolation=cv2.INTER_LINEAR)
    return gain, float(np.exp(med.mean())), float(w.mean())


TRAY_SHARE = 0.25   # less of the frame than this looks like the calibrated tray: it is not shown


def _tray_plane(flat: np.ndarray, start: np.ndarray, c: dict, noise: np.ndarray):
    """The plane of light over the cells near the level ``start`` (per channel), refitted over
    those it then explains; (coefficients or None, the cells it explains). ``noise``: the
    grid's noise per channel (_grid_noise); a channel's tolerances are never below three times it
    (a dark tray's weak channel under JPEG is that noisy)."""
    near, explained = np.maximum(0.15, 3 * noise), np.maximum(0.06, 3 * noise)
    inl = _channel_max(np.abs(flat - start) / near) < 1.0
    coef = None
    for _ in range(2):
        if inl.sum() < 30:
            break
        coef = _plane_fit(c["design64"], flat, inl)
        inl = _channel_max(np.abs(flat - c["design"] @ coef) / explained) < 1.0
    return coef, inl


# A cell's noise is at most this many of 255 levels (a cell averages 256 pixels): three times it
# is then within the fixed tolerances on a tray brighter than 100.
GRID_NOISE_LEVELS = 0.67


def _grid_noise(lr: np.ndarray, tiny: np.ndarray) -> np.ndarray:
    """The noise of the lighting grid's cells per channel (log units), from how far each cell
    lies from the mean of the 3x3 cells around it: the median over the grid, most of which is
    tray (a cell of pure noise lies sqrt(8/9) of its sd from that mean, and the median of a
    normal's absolute value is 0.674 of its sd). ``tiny``: the frame's grid. At most
    GRID_NOISE_LEVELS levels at the frame's median level: on a dark tray a few levels of JPEG's
    noise are a large ratio, but a frame of something else than the tray, which differs from
    it cell by cell, must not pass for a noisy one."""
    noise = column_medians(_off_neighbours(lr).astype(np.float32)) / np.float32(0.674 * math.sqrt(8 / 9))
    level = column_medians(tiny.reshape(-1, 3).astype(np.float32))
    return np.minimum(noise, GRID_NOISE_LEVELS / (level + 1.0)).astype(np.float32)


def _densest_level(flat: np.ndarray) -> np.ndarray:
    """The per-channel level (log ratio to the empty tray) of the most cells: the median of
    the cells in the fullest window of 0.3 of the cells' mean level."""
    level = flat.mean(axis=1)
    edges = np.arange(-3.0, 1.5, 0.05)
    counts = np.histogram(level, edges)[0]
    window = np.convolve(counts, np.ones(6), "valid")
    lo = edges[int(np.argmax(window))]
    near = (level >= lo) & (level < lo + 0.3)
    return column_medians(flat[near])


SHADE_DRINKS = 3    # a shade is broader than this many of the largest drink (a drink's smooth
#                     cells are fewer than one drink's: its rim, and the silhouette between two
#                     touching drinks, are not smooth; with six, the lit corner beyond a band
#                     was taken for drinks: docs/performance.md) ..
SHADE_SAME_COLOUR = 0.06  # .. of one colour: each cell within this of the region's shade colour ..
SHADE_SMOOTH = 0.02  # .. and smooth: each channel within this of its mean over the 3x3 cells around
SHADE_COLOUR = (0.25, 1.75)  # a shade's change per channel over its mean change lies within these:
#                              it takes light away from every channel, as a lamp of some colour
#                              gives it (the training family's bands: 0.32-1.58); a hand does not


def _broad_shade(resid: np.ndarray, inl: np.ndarray, profile: Profile, noise: np.ndarray) -> np.ndarray:
    """Cells of the lighting grid (bool, rows x columns) that the plane of light misses by a
    broad, smooth step of one colour: a shadow band, or the lit tray beside one, soft edges
    included. ``resid``: the grid's log ratio to the empty tray less the plane; ``inl``: the
    cells the plane explains. A shade blocks part of one lamp, so it takes the colour of the
    rest of the room's light: not grey, but one colour over the whole band (the log change of
    each channel in a fixed proportion to the mean's). A drink is narrower, has an edge and
    a colour of its own against the tray; another scene than the tray (the camera moved)
    differs from it cell by cell. ``noise``: the grid's noise per channel (_grid_noise); the
    tolerances are never below three times it.
    """
    cell = (profile.work_size[0] / TINY[0]) * (profile.work_size[1] / TINY[1])
    least = SHADE_DRINKS * profile.stats.get("max_area", 0.012 * profile.work_size[0] * profile.work_size[1]) / cell
    level = resid.mean(axis=2)
    rough = _off_neighbours(resid) / np.maximum(SHADE_SMOOTH, 3 * noise)
    smooth = _channel_max(rough).reshape(level.shape) < 1.0
    tolerance = np.maximum(SHADE_SAME_COLOUR, 3 * noise)
    n, lab, stats, _ = cv2.connectedComponentsWithStats((smooth & ~inl).astype(np.uint8), connectivity=8)
    out = np.zeros(level.shape, bool)
    for k in np.flatnonzero(stats[:, cv2.CC_STAT_AREA] >= least):
        if k == 0:
            continue
        part = lab == k
        # the shade's colour: each channel's change per unit of the mean change, over the cells
        # that differ clearly (the proportions are those of the light the shade takes away)
        deep = part & (np.abs(level) > 0.05)
        if deep.sum() < least / 2:
            continue
        colour = column_medians((resid[deep] / level[deep][:, None]).astype(np.float32))
        if colour.min() < SHADE_COLOUR[0] or colour.max() > SHADE_COLOUR[1]:
            continue
        off = _channel_max(np.abs(resid[part] - level[part][:, None] * colour[None, :]) / tolerance)
        same = np.zeros(level.shape, bool)
        same[part] = off < 1.0
        if same.sum() >= least:
            out |= same
    return out


def _plane_fit(design: np.ndarray, values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Least squares of ``values`` (n, k) on the float64 ``design`` (n, 3) over the selected
    ``rows``, as float32: by the normal equations, weighting the rows 0 or 1 rather than
    selecting them (np.linalg.lstsq's SVD and the copies took a millisecond a frame; the
    design is a constant and two positions scaled to the grid, so its normal matrix is well
    conditioned unless the selected positions lie on one line, which is left to lstsq).

    >>> d = np.column_stack([np.ones(6), np.arange(6.0), np.arange(6.0) % 2])
    >>> v = (d @ np.array([[1.0], [0.5], [-2.0]])).astype(np.float32)
    >>> _plane_fit(d, v, np.array([True, True, False, True, True, True])).ravel().round(4).tolist()
    [1.0, 0.5, -2.0]
    >>> on_a_line = np.array([True, False, True, False, True, False])     # all at y = 0
    >>> by_svd = np.linalg.lstsq(d[on_a_line], v[on_a_line], rcond=None)[0]
    >>> bool(np.allclose(_plane_fit(d, v, on_a_line), by_svd))
    True
    """
    weighted = design.T * rows
    normal = weighted @ design
    n = float(normal[0, 0])
    # the spread of the selected positions: nil when they lie on one line
    vx, vy, cxy = (float(normal[i, j]) / n - float(normal[0, i]) * float(normal[0, j]) / (n * n)
                   for i, j in ((1, 1), (2, 2), (1, 2)))
    if vx * vy - cxy * cxy < 1e-12:
        return np.linalg.lstsq(design[rows], values[rows], rcond=None)[0].astype(np.float32)
    return np.linalg.solve(normal, weighted @ values).astype(np.float32)


def _off_neighbours(grid: np.ndarray) -> np.ndarray:
    """How far each cell of the grid (rows x columns x 3) lies from the mean of the 3x3 cells
    around it, per channel, as (cells, 3): the grid's noise where it is plain, a step's edge
    where it is not."""
    return np.abs(grid - cv2.blur(grid, (3, 3))).reshape(-1, 3)


def _channel_max(d: np.ndarray) -> np.ndarray:
    """The largest of each row's three values: ``d.max(axis=1)``, in a fifth of its time."""
    return np.maximum(np.maximum(d[:, 0], d[:, 1]), d[:, 2])
