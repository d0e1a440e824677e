"""The search for hands over the board (companion/vision/board_hands.py) on drawn sheets: a hand
comes in over the sheet's edge; a row of pieces as long as a hand is wide, in the board's middle,
is pieces."""
import numpy as np
import pytest

from companion.vision.board_hands import HAND_MM2, HAND_SPAN, HandSearch

PAPER = np.array([200.0, 205.0, 210.0], np.float32)
W, H = 967, 540          # the default sheet, 1 px a mm
NO_DRINKS = np.zeros((0, 2))


def empty():
    """The paper with printed lines of several inks every 30 mm each way (the board's grid)."""
    sheet = np.tile(PAPER, (H, W, 1))
    ink = np.random.default_rng(3).uniform(60.0, 150.0, (max(H, W), 3)).astype(np.float32)
    sheet[::30] = ink[:W]
    sheet[:, ::30] = ink[:H, None, :]
    return sheet


@pytest.fixture(scope="module")
def search():
    return HandSearch(empty(), PAPER)


def sheet_with(*boxes):
    """The empty board with dark boxes (x0, y0, x1, y1 mm) drawn on it."""
    sheet = empty()
    for x0, y0, x1, y1 in boxes:
        sheet[y0:y1, x0:x1] = (60.0, 70.0, 90.0)
    return sheet


def test_a_row_of_pieces_in_the_middle_longer_than_a_hand_is_wide_is_not_a_hand(search):
    hands, mask = search.find(sheet_with((400, 260, 400 + int(HAND_SPAN) + 20, 272)), NO_DRINKS, NO_DRINKS)
    assert mask.any() and not hands


def test_the_same_row_reaching_the_sheets_rim_is_an_arm(search):
    hands, _ = search.find(sheet_with((0, 260, int(HAND_SPAN) + 20, 272)), NO_DRINKS, NO_DRINKS)
    assert hands


def test_a_hand_over_the_middle_with_its_arm_unseen_is_still_a_hand(search):
    side = int(np.sqrt(HAND_MM2)) + 12          # larger than any group of pieces
    hands, _ = search.find(sheet_with((400, 150, 400 + side, 150 + side)), NO_DRINKS, NO_DRINKS)
    assert hands


def test_small_regions_of_change_are_pieces_in_the_middle_and_at_the_rim(search):
    hands, _ = search.find(sheet_with((400, 150, 440, 190), (0, 300, 40, 340)), NO_DRINKS, NO_DRINKS)
    assert not hands
