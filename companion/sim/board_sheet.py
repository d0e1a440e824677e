"""The printed TOKYO METRO sheet drawn from the board's layout, seen straight from above: paper,
the grey field grid, the start area, the twelve lines through their stops, station outlines
and names, the revenue track with its lanes, ticks and rider places, and the four ArUco
markers on their white stickers beside the corners. One picture per look, drawn once
(``board_render.py`` then lays it on the table and photographs it).

>>> from companion.board_layout import BoardLayout
>>> sheet = draw_sheet(BoardLayout.default(), (245, 242, 232))
>>> sheet.image.shape[2], sheet.image.dtype.name
(4, 'uint8')
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import cv2
import numpy as np

from ..board_layout import BoardLayout

PX_PER_MM = 2.0          # the sheet's picture: two pixels per millimetre
STICKER_MM = 5.0         # the white quiet zone round each marker
SHIFT = 4                # cv2's fixed-point drawing: coordinates in 1/16 px
STOP_R = 5.0             # a stop's circle, mm
LINE_W = 3.6             # a line's stroke, mm


@dataclass(frozen=True)
class SheetPicture:
    """The sheet (and its marker stickers) as BGRA: alpha 255 where paper lies on the table;
    ``gloss`` 255 where the sheet itself is (the stickers are matte paper). ``origin``: the
    board mm at pixel (0, 0); ``ppm``: pixels per mm."""

    image: np.ndarray
    gloss: np.ndarray
    origin: tuple[float, float]
    ppm: float

    def board_to_px(self) -> np.ndarray:
        """The 3x3 matrix from board mm to this picture's pixels."""
        o, s = self.origin, self.ppm
        return np.array([[s, 0, -o[0] * s], [0, s, -o[1] * s], [0, 0, 1]], np.float64)


def hex_bgr(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return int(c[4:6], 16), int(c[2:4], 16), int(c[0:2], 16)


def ascii_name(name: str) -> str:
    """cv2's fonts draw ASCII only: Tōzai -> Tozai."""
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()


def draw_sheet(layout: BoardLayout, paper_srgb: tuple[int, int, int], ink: float = 1.0,
               seed: int = 0, ppm: float = PX_PER_MM) -> SheetPicture:
    """The sheet of ``layout`` on paper of ``paper_srgb`` (r, g, b), print strength ``ink``."""
    corners = np.concatenate(list(layout.marker_corners().values()))
    lo = np.minimum(corners.min(0) - STICKER_MM - 5, (-5, -5))
    hi = np.maximum(corners.max(0) + STICKER_MM + 5, np.array(layout.sheet) + 5)
    origin = (float(np.floor(lo[0])), float(np.floor(lo[1])))
    w, h = int(np.ceil((hi[0] - lo[0]) * ppm)), int(np.ceil((hi[1] - lo[1]) * ppm))
    img = np.zeros((h, w, 3), np.uint8)
    alpha = np.zeros((h, w), np.uint8)
    gloss = np.zeros((h, w), np.uint8)
    paper = np.array(paper_srgb[::-1], np.float64)

    def p(x, y):
        return (int(round((x - origin[0]) * ppm * 16)), int(round((y - origin[1]) * ppm * 16)))

    def mm(v):
        return max(1, int(round(v * ppm)))

    def inked(bgr):
        """A printed colour on this paper at this print strength."""
        c = np.array(bgr, np.float64)
        return tuple(float(v) for v in np.clip(paper - (paper - c) * ink, 0, 255))

    sw, sh = layout.sheet
    cv2.rectangle(img, p(0, 0), p(sw, sh), paper.tolist(), -1, cv2.LINE_AA, SHIFT)
    cv2.rectangle(alpha, p(0, 0), p(sw, sh), 255, -1, cv2.LINE_AA, SHIFT)
    gloss[:] = alpha
    # the start area: a pale tint under the grid
    col, row, cols, rows = layout.start_area
    gx, gy, f = layout.grid_origin[0], layout.grid_origin[1], layout.field_mm
    tint = inked(paper * 0.9 + np.array([150, 200, 235]) * 0.1)
    cv2.rectangle(img, p(gx + col * f, gy + row * f), p(gx + (col + cols) * f, gy + (row + rows) * f), tint, -1,
                  cv2.LINE_AA, SHIFT)
    # the field grid
    grey = inked((196, 196, 196))
    for i in range(layout.cols + 1):
        cv2.line(img, p(gx + i * f, gy), p(gx + i * f, gy + layout.rows * f), grey, 1, cv2.LINE_AA, SHIFT)
    for j in range(layout.rows + 1):
        cv2.line(img, p(gx, gy + j * f), p(gx + layout.cols * f, gy + j * f), grey, 1, cv2.LINE_AA, SHIFT)
    # the lines through their stops
    for line in layout.lines:
        pts = np.array([p(*c) for c in line.circles], np.int32)
        cv2.polylines(img, [pts], False, inked(hex_bgr(line.colour)), mm(LINE_W), cv2.LINE_AA, SHIFT)
    # stations: a grey outline joining a station's circles, then each circle
    dark = inked((60, 60, 60))
    outline = inked((150, 150, 150))
    for st in layout.stations:
        if len(st.circles) > 1:
            pts = np.array([p(*c) for c in st.circles], np.int32)
            cv2.polylines(img, [pts], False, outline, mm(2 * STOP_R + 2.4), cv2.LINE_AA, SHIFT)
            cv2.polylines(img, [pts], False, paper.tolist(), mm(2 * STOP_R + 0.4), cv2.LINE_AA, SHIFT)
    for st in layout.stations:
        for c in st.circles:
            cv2.circle(img, p(*c), int(STOP_R * ppm * 16), paper.tolist(), -1, cv2.LINE_AA, SHIFT)
            cv2.circle(img, p(*c), int(STOP_R * ppm * 16), dark, mm(0.7), cv2.LINE_AA, SHIFT)
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = 2.2 * ppm / 22.0              # letters ~2.2 mm high
    for st in layout.stations:
        x, y = st.circles[0]
        org = (int(round((x + STOP_R + 1 - origin[0]) * ppm)), int(round((y - STOP_R - 0.5 - origin[1]) * ppm)))
        cv2.putText(img, ascii_name(st.name), org, font, scale, dark, 1, cv2.LINE_AA)
    _draw_track(layout, img, p, mm, inked, paper, font, ppm, origin)
    _draw_markers(layout, img, alpha, p, ppm, origin)
    # the paper's own fibre: a faint, fine unevenness
    rng = np.random.default_rng([seed, 8301])
    fibre = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2) * 2.2
    img = np.clip(img.astype(np.float32) + fibre[..., None], 0, 255).astype(np.uint8)
    return SheetPicture(np.dstack([img, alpha]), gloss, origin, ppm)


def _draw_track(layout, img, p, mm, inked, paper, font, ppm, origin) -> None:
    """The revenue track: one lane per line (a pale strip of its colour), a tick per value
    space, a number every 1000 yen, the rider places at the top and the line's letter below."""
    half = layout.lane_width / 2
    top = min(layout.riders) - 9
    bottom = max(layout.values) + 6
    grey = inked((120, 120, 120))
    for line in layout.lines:
        x = layout.lanes[line.letter]
        colour = np.array(hex_bgr(line.colour), np.float64)
        strip = inked(paper * 0.8 + colour * 0.2)
        cv2.rectangle(img, p(x - half, top), p(x + half, bottom), strip, -1, cv2.LINE_AA, SHIFT)
        cv2.rectangle(img, p(x - half, top), p(x + half, bottom), grey, 1, cv2.LINE_AA, SHIFT)
        for i, y in enumerate(layout.values):
            value = i * layout.value_step
            w = half * (0.9 if value % 1000 == 0 else 0.45)
            cv2.line(img, p(x - w, y), p(x + w, y), grey, mm(0.5) if value % 1000 == 0 else 1, cv2.LINE_AA, SHIFT)
        for y in layout.riders:
            cv2.circle(img, p(x, y), int(6.0 * ppm * 16), inked(colour), mm(0.8), cv2.LINE_AA, SHIFT)
        cv2.circle(img, p(x, bottom + 5.5), int(4.5 * ppm * 16), inked(colour), -1, cv2.LINE_AA, SHIFT)
        org = (int(round((x - 2.0 - origin[0]) * ppm)), int(round((bottom + 7.0 - origin[1]) * ppm)))
        cv2.putText(img, line.letter, org, font, 2.4 * ppm / 22.0, paper.tolist(), 1, cv2.LINE_AA)
    x0 = min(layout.lanes.values()) - half - 1.5
    for i, y in enumerate(layout.values):
        value = i * layout.value_step
        if value % 1000 == 0:
            text = str(value)
            (tw, _), _ = cv2.getTextSize(text, font, 2.0 * ppm / 22.0, 1)
            org = (int(round((x0 - origin[0]) * ppm)) - tw, int(round((y + 1.0 - origin[1]) * ppm)))
            cv2.putText(img, text, org, font, 2.0 * ppm / 22.0, grey, 1, cv2.LINE_AA)


def _draw_markers(layout, img, alpha, p, ppm, origin) -> None:
    """Each ArUco marker on a white sticker (its quiet zone), at the layout's corners."""
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.marker_dictionary))
    white = (246, 246, 246)
    for mid, c in layout.marker_corners().items():
        (x0, y0), (x1, y1) = c[0], c[2]
        q = STICKER_MM
        cv2.rectangle(img, p(x0 - q, y0 - q), p(x1 + q, y1 + q), white, -1, cv2.LINE_AA, SHIFT)
        cv2.rectangle(alpha, p(x0 - q, y0 - q), p(x1 + q, y1 + q), 255, -1, cv2.LINE_AA, SHIFT)
        side = int(round((x1 - x0) * ppm))
        big = cv2.aruco.generateImageMarker(dictionary, int(mid), 600)
        mark = cv2.resize(big, (side, side), interpolation=cv2.INTER_AREA)
        mark = np.where(mark > 127, white[0], 22).astype(np.uint8) if side >= 24 else mark
        px0, py0 = int(round((x0 - origin[0]) * ppm)), int(round((y0 - origin[1]) * ppm))
        img[py0:py0 + side, px0:px0 + side] = mark[..., None]
