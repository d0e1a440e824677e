"""Regions of drink pixels (vision/drinks.py, regions_of): fragments of one drink joined, the
joined region kept inside the frame."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from companion.vision.drinks import regions_of


def test_fragments_joined_at_the_frames_edge_stay_inside_the_frame():
    """Two fragments of a drink lying along the top edge are joined with a padded window; the
    padding reaching past the edge once gave a region at y0 < 0, whose crop was empty and
    crashed the splitting (a training-family table's drift photo). The region now keeps only
    what lies in the frame, both fragments whole."""
    mask = np.zeros((120, 200), np.uint8)
    mask[0:4, 50:71] = 255
    mask[0:4, 76:97] = 255
    profile = SimpleNamespace(stats={"min_area": 120, "max_area": 400, "speck": 10})
    regions = regions_of(SimpleNamespace(mask=mask), profile)
    assert len(regions) == 1
    r = regions[0]
    h, w = r.mask.shape
    assert r.x0 >= 0 and r.y0 >= 0 and r.y0 + h <= 120 and r.x0 + w <= 200
    inside = np.zeros_like(mask)
    inside[r.y0:r.y0 + h, r.x0:r.x0 + w] = r.mask
    assert np.all(inside[mask > 0] > 0)
