"""The HTTP face of the companion: REST for games, moves and observations, a
WebSocket per dashboard that pushes that viewer's view after every change, and
the static dashboard. Every route says who may use it (server/trust.py): the host
holds the table's keys, a phone acts for its seat, a spectator only looks; secrets
leave only to their owner's key."""
from __future__ import annotations

from contextlib import asynccontextmanager
from urllib.parse import urlsplit

from fastapi import FastAPI

from ..table.access import Access
from ..table.automation import Automation
from ..table.board_device import READ_FPS, BoardDevice
from ..table.crate_device import CrateDevice
from ..table.landing_device import LandingDevice
from ..table.looks import LookBook
from ..table.store import EventStore
from ..table.tables import Tables
from .body_limit import RESPONSE_413, BodyLimit
from .context import Api
from .guard import Guard, own_names
from .heavy import ESTIMATE_WAITING, ESTIMATE_WORKERS, BoundedWork
from .json_body import StrictJSONRoute
from .messages.middleware import TranslateErrors
from .openapi_errors import document_errors
from .routes.board_calibration import MAX_PHOTO_BYTES, PHOTO_PATH, add_board_calibration_routes
from .routes.board import add_board_routes
from .routes.crates import add_crate_routes
from .routes.landings import add_landing_routes
from .routes.devices import add_device_routes
from .routes.history import add_history_routes
from .routes.feed import add_feed_routes
from .routes.links import add_link_routes
from .routes.live import MAX_SOCKETS, MAX_SOCKETS_PER_DEVICE, add_live_routes  # noqa: F401 (the limits, read here by tests)
from .routes.pages import add_page_routes
from .routes.play import add_play_routes
from .routes.table import add_table_routes
from .routes.table_cards import add_table_cards_routes
from .trust import Trust


def create_app(store: EventStore, public_url: str | None = None, camera: str | None = None,
               serial: str | None = None, profile: str | None = None, names: tuple[str, ...] = (),
               automation: Automation | None = None, open_camera=None, board_camera: str | None = None,
               open_board_camera=None, make_board_reader=None, board_fps: float = READ_FPS,
               board_settle_s: float | None = None, crate_camera: str | None = None, open_crate_camera=None,
               make_crate_reader=None, landing_camera: str | None = None, open_landing_camera=None,
               make_landing_reader=None) -> FastAPI:
    """The app; ``public_url``: the address the join links and QR codes use (`--public-url`, or the
    LAN address `companion serve` found; None: the address each request came to); ``camera`` and ``serial`` name the devices to run (None: none, "sim": simulated);
    ``names``: host names the service answers to besides its addresses and this machine's name;
    ``automation``: the hands that play computer seats and the simulated table's chance
    (table/automation.py; the composition root's: `companion serve` wires in the simulated
    table's); ``open_camera(spec)``: opens the camera (the composition root's, which knows ``sim``);
    ``board_camera``: the TOKYO METRO board's camera (`--board-camera`; None: none), opened by
    ``open_board_camera(spec)`` (the composition root's, which knows the simulated board camera) and
    read by ``make_board_reader(layout, reference, colours)`` (None: vision.board_read's), at most
    ``board_fps`` frames a second; a board showing the same pieces over ``board_settle_s`` (None:
    the table's SETTLE_S) is settled (`--board-fps`, `--board-settle-s`). ``crate_camera``: the
    camera over the crate games' crates (`--crate-camera`; None: none), opened by
    ``open_crate_camera(spec)`` and read by ``make_crate_reader(calibration)`` (None:
    vision.crates.CrateReader); it settles as the board camera does. ``landing_camera``: the camera
    that sees where thrown drinks land (`--landing-camera`; None: none), opened by
    ``open_landing_camera(spec)`` and read by ``make_landing_reader(calibration, source)`` (None:
    vision.landings.LandingReader, or a simulated camera's truth)."""
    looks = LookBook(store.path.parent)   # what the host's corrections taught the camera
    tables = Tables(store, teacher=looks, automation=automation, landing_camera_coming=bool(landing_camera))
    looks.settle(tables.moves_in_effect)
    access = Access(store)
    trust = Trust(access)
    estimates_work = BoundedWork("estimates", ESTIMATE_WORKERS, ESTIMATE_WAITING)
    devices = tables.devices(camera=camera, serial=serial, profile=profile, looks=looks, open_camera=open_camera)
    board_device = None
    if board_camera:
        # The simulated table's players copy a dashboard move onto the simulated board after a while.
        board_device = BoardDevice(tables, board_camera, open_camera=open_board_camera, data_dir=store.path.parent,
                                   make_reader=make_board_reader, follow_s=getattr(automation, "board_follow_s", None),
                                   fps=board_fps)
        tables.use_board_camera(board_device, settle_s=board_settle_s)
    crate_device = None
    if crate_camera:
        crate_device = CrateDevice(tables, crate_camera, open_camera=open_crate_camera, data_dir=store.path.parent,
                                   make_reader=make_crate_reader, follow_s=getattr(automation, "board_follow_s", None))
        tables.use_crate_camera(crate_device)
    landing_device = None
    if landing_camera:
        landing_device = LandingDevice(tables, landing_camera, open_camera=open_landing_camera,
                                       data_dir=store.path.parent, make_reader=make_landing_reader)
        tables.use_landing_camera(landing_device)

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        devices.start()
        cameras = [d for d in (board_device, crate_device, landing_device) if d is not None]
        for device in cameras:
            device.start()
        try:
            yield
        finally:
            for device in cameras:
                device.stop()
            devices.stop()
            estimates_work.close()

    app = FastAPI(title="Tokyo Table Companion", version="0.1.0", lifespan=lifespan, responses=RESPONSE_413,
                  description="Rules, tower and dashboard for TOKYO JIDOHANBAIKI game nights. Who may call what: "
                              "the host (the host key: a cookie set by the host link, or `Authorization: Bearer "
                              "KEY`), a player (a seat's key, from the join link), a spectator (a game's "
                              "spectator key); docs/security.md.")
    # 413 for a body over MAX_BODY_BYTES (a board photo: MAX_PHOTO_BYTES), before it is read whole
    app.add_middleware(BodyLimit, larger={PHOTO_PATH: MAX_PHOTO_BYTES})
    public_host = urlsplit(public_url).hostname if public_url else None  # phones ask by this name
    app.add_middleware(Guard, names=own_names([*names, *([public_host] if public_host else [])]))
    app.add_middleware(TranslateErrors)  # outermost: every 4xx detail in the request's language
    app.router.route_class = StrictJSONRoute  # NaN and Infinity in a body: a 422, not a 500 later
    app.state.tables, app.state.public_url, app.state.devices = tables, public_url, devices
    app.state.estimates_work, app.state.access = estimates_work, access
    ctx = Api(app.state, store, tables, access, trust, looks, devices, estimates_work, board_device, crate_device,
              landing_device)
    app.state.board_device, app.state.crate_device = board_device, crate_device
    app.state.landing_device = landing_device

    # In the order /openapi.json lists them.
    add_table_routes(app, ctx)     # the table as a whole
    add_link_routes(app, ctx)      # keys: join links, spectators
    add_play_routes(app, ctx)      # one game
    add_feed_routes(app, ctx)      # the feed of the night, paged
    add_device_routes(app, ctx)    # the camera and the sensor board
    add_board_routes(app, ctx)     # the board camera (TOKYO METRO)
    add_crate_routes(app, ctx)     # the crate camera (the crate games)
    add_landing_routes(app, ctx)   # the landing camera (games scored by where drinks land)
    add_live_routes(app, ctx)      # the live view
    add_board_calibration_routes(app, ctx)  # the board camera's calibration and its page
    add_history_routes(app, ctx)   # the history across nights, its statistics and its page
    add_table_cards_routes(app, ctx)  # the table's own METRO board, cards and track, and their page
    add_page_routes(app, ctx)      # the pages, the links that hand a device its key, static files
    document_errors(app)  # every status each route answers, in /openapi.json
    return app
