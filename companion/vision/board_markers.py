"""The printable corner markers of the TOKYO METRO board: one A4 page, four squares to cut out.

Print the PDF on A4 at 100 % ("actual size", no "fit to page") and check the 50 mm scale bar
with a ruler. Cut out the four squares along the dashed lines. Each square carries one 40 mm
ArUco marker (the board file's ``layout.markers``: DICT_4X4_50, ids 20 21 22 23) and is labelled
with the board corner it belongs to, as the board is read: TL the corner at the left end of the
board's top edge, then TR, BR, BL clockwise. On the two sides that face the board the white
margin is exactly as wide as the gap the board file leaves between marker and sheet (5 mm), so
a square laid with its inner corner on the board's corner and its edges along the board's edges
puts its marker where ``BoardLayout.marker_corners()`` says it is. Labels stay upright when the
board is read upright: that is the marker's orientation too.

``companion calibrate print-board-markers --out DIR`` writes ``board-markers.png`` and
``board-markers.pdf``; the shipped copies are in ``calibration/``.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..board_layout import BoardLayout
from .mat import DPI, write_pdf

PAGE_MM = (210.0, 297.0)          # A4 portrait
OUTER_MM = 12.0                   # white margin on the two sides away from the board (the label's strip)
SCALE_BAR_MM = 50.0
TIP_MM = 3.0                      # the black triangle in the corner that touches the board's
CORNERS = ("TL", "TR", "BR", "BL")
CORNER_WORDS = {"TL": "top-left", "TR": "top-right", "BR": "bottom-right", "BL": "bottom-left"}
FILE_STEM = "board-markers"


def inner_margin(layout: BoardLayout) -> float:
    """The gap between the sheet's corner and the TL marker (the same at every corner)."""
    return -(layout.marker_at[0][0] + layout.marker_size)


def piece_rects(layout: BoardLayout) -> dict[str, tuple[float, float, float]]:
    """Each corner's square on the page: x, y of its top-left and its side (mm)."""
    side = inner_margin(layout) + layout.marker_size + OUTER_MM
    left, right = 22.0, PAGE_MM[0] - 22.0 - side
    top, bottom = 48.0, PAGE_MM[1] - 40.0 - side
    return {"TL": (left, top, side), "TR": (right, top, side), "BR": (right, bottom, side), "BL": (left, bottom, side)}


def marker_place(layout: BoardLayout, corner: str) -> tuple[float, float]:
    """Top-left of the marker of ``corner`` on the page (mm): the inner margin toward the board."""
    x, y, side = piece_rects(layout)[corner]
    m, s = inner_margin(layout), layout.marker_size
    mx = x + side - m - s if corner in ("TL", "BL") else x + m      # the board lies right of TL/BL
    my = y + side - m - s if corner in ("TL", "TR") else y + m      # ...and below TL/TR
    return mx, my


def scale_bar(layout: BoardLayout) -> tuple[float, float, float]:
    """x, y of the 50 mm bar's left end and its length (mm), centred on the page."""
    return (PAGE_MM[0] - SCALE_BAR_MM) / 2, PAGE_MM[1] / 2 + 4.0, SCALE_BAR_MM


def render_board_markers(layout: BoardLayout | None = None, dpi: int = DPI) -> np.ndarray:
    """The page as a greyscale image (white paper = 255)."""
    layout = layout or BoardLayout.default()
    if inner_margin(layout) <= 0:
        raise ValueError("the board file's markers overlap the sheet: they must lie outside its corners")
    ppm = dpi / 25.4
    w, h = int(round(PAGE_MM[0] * ppm)), int(round(PAGE_MM[1] * ppm))
    page = np.full((h, w), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.marker_dictionary))
    font = cv2.FONT_HERSHEY_SIMPLEX

    def px(v: float) -> int:
        return int(round(v * ppm))

    def text(s: str, x_mm: float, y_mm: float, size: float = 1.0, centre: bool = True, thick: float = 1.0):
        fs = ppm / 12.0 * size
        t = max(1, int(round(ppm * 0.25 * thick)))
        (tw, th), _ = cv2.getTextSize(s, font, fs, t)
        x = px(x_mm) - (tw // 2 if centre else 0)
        cv2.putText(page, s, (x, px(y_mm) + th // 2), font, fs, 0, t, cv2.LINE_AA)

    def dashed_square(x: float, y: float, side: float):
        step, dash = 3.0, 1.5
        k = 0.0
        while k < side:
            e = min(k + dash, side)
            for a, b in (((x + k, y), (x + e, y)), ((x + k, y + side), (x + e, y + side)),
                         ((x, y + k), (x, y + e)), ((x + side, y + k), (x + side, y + e))):
                cv2.line(page, (px(a[0]), px(a[1])), (px(b[0]), px(b[1])), 0, max(1, int(ppm * 0.2)))
            k += step

    text("Tokyo Table Companion - TOKYO METRO board markers", PAGE_MM[0] / 2, 12.0, 1.0, thick=1.3)
    text("Print on A4 at 100 % (no 'fit to page'); the bar below must measure 50 mm.", PAGE_MM[0] / 2, 20.0, 0.6)
    text("Cut out the four squares. Lay each at its corner of the board, outside it:", PAGE_MM[0] / 2, 26.0, 0.6)
    text("its black tip on the board's corner, its edges along the board's edges,", PAGE_MM[0] / 2, 31.0, 0.6)
    text("its words upright when the board is read upright. Do not move them after calibrating.",
         PAGE_MM[0] / 2, 36.0, 0.6)
    for corner, mid in zip(CORNERS, layout.marker_ids):
        x, y, side = piece_rects(layout)[corner]
        mx, my = marker_place(layout, corner)
        x0, y0 = px(mx), px(my)
        size = px(mx + layout.marker_size) - x0
        page[y0:y0 + size, x0:x0 + size] = cv2.aruco.generateImageMarker(dictionary, int(mid), size)
        dashed_square(x, y, side)
        # the label in the outer strip (above the marker at the top corners, below at the bottom ones)
        label_y = y + OUTER_MM / 2 if corner in ("TL", "TR") else y + side - OUTER_MM / 2
        label_x = mx + layout.marker_size / 2
        text(f"{corner}  {CORNER_WORDS[corner]}", label_x, label_y - 1.6, 0.55, thick=1.1)
        text(f"marker {mid}: the black tip goes on the board's corner", label_x, label_y + 2.6, 0.32)
        # the tip: a small black triangle in the square's corner that touches the board's corner
        cx = x + side if corner in ("TL", "BL") else x
        cy = y + side if corner in ("TL", "TR") else y
        sx, sy = (-1 if corner in ("TL", "BL") else 1), (-1 if corner in ("TL", "TR") else 1)
        tip = np.array([[px(cx), px(cy)], [px(cx + sx * TIP_MM), px(cy)], [px(cx), px(cy + sy * TIP_MM)]], np.int32)
        cv2.fillPoly(page, [tip], 0)
        # beside the square, outside the cut: which corner this is, for the one holding the page
        below = y + side + 5.0 if corner in ("TL", "TR") else y - 5.0
        text(f"{corner}: the board's {CORNER_WORDS[corner]} corner", x + side / 2, below, 0.5)
    bx, by, blen = scale_bar(layout)
    cv2.rectangle(page, (px(bx), px(by)), (px(bx + blen), px(by + 2.0)), 0, -1)
    for k in range(0, int(blen) + 1, 10):
        cv2.line(page, (px(bx + k), px(by - 2.0)), (px(bx + k), px(by + 2.0)), 0, max(1, int(ppm * 0.25)))
    text("50 mm", bx + blen / 2, by + 6.5, 0.6, thick=1.1)
    text(f"{layout.name}: markers {layout.marker_size:g} mm, {inner_margin(layout):g} mm outside the sheet",
         PAGE_MM[0] / 2, by - 7.0, 0.45)
    return page


def write_board_markers(out_dir: str | Path, layout: BoardLayout | None = None) -> list[Path]:
    """Write ``board-markers.png`` (150 dpi, to look at) and ``board-markers.pdf`` (300 dpi, to
    print) into ``out_dir``; returns [png, pdf]."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    page = render_board_markers(layout)
    png, pdf = out / f"{FILE_STEM}.png", out / f"{FILE_STEM}.pdf"
    small = cv2.resize(page, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(png), small, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    write_pdf(page, pdf, page_mm=PAGE_MM)
    return [png, pdf]
