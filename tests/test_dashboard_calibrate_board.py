"""The board calibration page in Chromium against the real `companion serve`: the host uploads
a photo of the empty board, taps the stations the page names (at their printed places), fits,
and sees the calibration saved with its residual; a photo without markers is refused in words."""
from __future__ import annotations

import cv2
import numpy as np
import pytest
from browser_support import call, tap, wait_until
from playwright.sync_api import expect

from board_photo_support import board_photo, printed_warp, to_photo
from companion.board_layout import BoardLayout
from companion.vision.board_calibrate import station_point

pytestmark = pytest.mark.browser

READY = "() => document.getElementById('app').dataset.ready === '1'"


def test_the_host_calibrates_the_board_by_tapping_stations(browser, base_url):
    layout = BoardLayout.default()
    move = printed_warp()
    image, H = board_photo(layout, move, size=(1280, 800), seed=5)
    jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    blank = cv2.imencode(".png", np.full((300, 400, 3), 90, np.uint8))[1].tobytes()

    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(base_url + "/calibrate-board")
    wait_until(page, READY, "the calibration page")
    expect(page.get_by_test_id("calib-saved")).to_have_attribute("data-calibrated", "0")
    page.get_by_test_id("calib-file").set_input_files({"name": "blank.png", "mimeType": "image/png", "buffer": blank})
    # wait for the refusal itself: "Looking for the corner markers…" would match the words too
    expect(page.get_by_test_id("calib-message")).to_have_attribute("data-kind", "bad")
    expect(page.get_by_test_id("calib-message")).to_contain_text("corner markers")

    page.get_by_test_id("calib-file").set_input_files({"name": "board.jpg", "mimeType": "image/jpeg", "buffer": jpeg})
    expect(page.get_by_test_id("calib-message")).to_contain_text("Found 4 corner markers")
    photo = page.get_by_test_id("calib-photo")
    for k in range(3):
        station = page.get_by_test_id("calib-prompt").get_attribute("data-station")
        printed = move(np.array([station_point(layout, station)]))[0]
        x, y = to_photo(H, [printed])[0]
        box = photo.bounding_box()
        # the photo is sent as it is (under 2400 px): its pixels are the ones drawn here
        photo.click(position={"x": x * box["width"] / image.shape[1], "y": y * box["height"] / image.shape[0]})
        expect(page.locator("[data-testid=calib-tap]")).to_have_count(k + 1)
    tap(page, "calib-fit")
    expect(page.get_by_test_id("calib-message")).to_have_attribute("data-kind", "good")
    expect(page.get_by_test_id("calib-saved")).to_have_attribute("data-calibrated", "1")
    saved = call(base_url, "GET", "/api/board/calibration")["saved"]
    assert saved["calibrated"] and saved["taps"] == 3 and saved["snapped"] > 100 and saved["residual_mm"] < 1.5
