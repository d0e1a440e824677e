"""The landing camera (the upside-down tower, LEMON SQUASH): what it makes of where a game's thrown
drinks landed, its proposals and their answers, its picture, and the simulated players laying
drinks out on the simulated table (the hands at the table in tests and demos)."""
from __future__ import annotations

from typing import Literal

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, Field, StrictBool

from ...drinks import DRINK_IDS
from ...landing import MAX_DISTANCE_MM, SPOTS
from ...observation import whole_number
from ...table.landing_device import HAND_FRAMES, MAX_HAND_FRAMES, SimLandingsError
from ..context import KEYED, Api
from .watch import add_picture_route, add_watch_routes, simulated


class LandingWant(BaseModel):
    drink: Literal[DRINK_IDS] = Field(description="the drink id")
    spot: Literal[SPOTS] | None = Field(None, description="where it lies: slot, crate or outside (null: anywhere)")
    distance_mm: whole_number(ge=20, le=MAX_DISTANCE_MM) | None = Field(
        None, description="how far from the tower's foot (mm; null: any), for a drink outside the crates")

    model_config = {"extra": "forbid"}


class SimLandingsIn(BaseModel):
    drinks: list[LandingWant] = Field(default_factory=list, max_length=len(DRINK_IDS),
                                      description="the drinks on the table in front of the tower (none: cleared)")
    hand: StrictBool = Field(False, description="a hand stays over the table until the next call without one")
    hand_frames: whole_number(ge=0, le=MAX_HAND_FRAMES) = Field(
        HAND_FRAMES, description="the frames a hand passing over the table is seen in while the drinks are laid")

    model_config = {"extra": "forbid"}


def add_landing_routes(app: FastAPI, ctx: Api) -> None:
    add_watch_routes(app, ctx, "landings", "landing_watch", camera="landing camera", thing="landings",
                     absent="scores no drink by where it lands: the landing camera reads the upside-down tower "
                            "and LEMON SQUASH", view_key="landing_camera", of_what="where a game's drinks landed")

    add_picture_route(app, ctx, "landing-camera", lambda: ctx.landing_device, "landing camera", "--landing-camera",
                      " (the table in front of the tower)")

    @app.post("/api/sim/landings", dependencies=KEYED,
              responses={409: {"description": "no simulated landing camera runs here"}},
              summary="Simulated landing camera: the simulated players lay drinks out in front of the tower (host)",
              description="`drinks`: each drink with the spot it lands in (`slot`, `crate`, `outside`; null: any) "
                          "and, outside the crates, how far from the tower's foot; the scene replaces the one "
                          "shown (a hand passes first); `hand` leaves a hand over the table. The answer: what a "
                          "perfect camera reads of the new scene. 409 unless the landing camera is simulated; "
                          "422 for drinks that cannot be laid out so.")
    def sim_landings(body: SimLandingsIn, request: Request) -> dict:
        ctx.host_of(request, "lay out the simulated landings")
        device = simulated(ctx.landing_device, "landing camera", "--landing-camera", "landings")
        for drink, spot, distance in ((w.drink, w.spot, w.distance_mm) for w in body.drinks):
            if distance is not None and spot in ("slot", "crate"):
                raise HTTPException(422, f"{drink}: a distance is for a drink outside the crates; leave it out "
                                         f"for one in a {spot}")
        wants = [(w.drink, w.spot, w.distance_mm) for w in body.drinks]
        try:
            return device.sim_landings(wants, hand=body.hand, hand_frames=body.hand_frames)
        except SimLandingsError as exc:
            raise HTTPException(409 if exc.busy else 422, str(exc)) from None
