"""The crate camera (GRAPE SODA, YUZU, the exploding cans): what it makes of a game's crates, its
proposals and their answers, its picture, and the simulated players' hands on the simulated
crates (the hands at the table in tests and demos)."""
from __future__ import annotations

from typing import Annotated, Literal, Union

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, Field, StrictBool, StringConstraints

from ...crate_fields import MAX_CRATES, MAX_FIELDS, CrateLayout, parse_key
from ...drinks import DRINK_IDS
from ...observation import whole_number
from ...table.crate_device import HAND_FRAMES, MAX_COORD, MAX_HAND_FRAMES, SimCratesError
from ..context import KEYED, Api
from .watch import add_picture_route, add_watch_routes, simulated

MAX_CHANGES = 40    # changes made by one simulated hand
FIELD = r"^\d{1,2},\d{1,2}$"


DrinkId = Literal[DRINK_IDS]
FieldKey = Annotated[str, StringConstraints(pattern=FIELD, max_length=5)]


class PutChange(BaseModel):
    kind: Literal["put"] = Field(description="a drink put into an empty field")
    field: FieldKey = Field(description="the field 'x,y'")
    drink: DrinkId = Field(description="the drink id")

    model_config = {"extra": "forbid"}


class TakeChange(BaseModel):
    kind: Literal["take"] = Field(description="the drink taken out of a field")
    field: FieldKey = Field(description="the field 'x,y'")

    model_config = {"extra": "forbid"}


class MoveChange(BaseModel):
    kind: Literal["move"] = Field(description="a crate (with its drinks) set down elsewhere")
    crate: whole_number(ge=0, lt=MAX_CRATES) = Field(description="which crate (its index in the layout)")
    x: whole_number(ge=-MAX_COORD, le=MAX_COORD) = Field(description="the crate's new top-left field, x")
    y: whole_number(ge=-MAX_COORD, le=MAX_COORD) = Field(description="the crate's new top-left field, y")
    turn: whole_number(ge=0, le=3) = Field(0, description="the crate's quarter turns clockwise")

    model_config = {"extra": "forbid"}


CrateChange = Annotated[Union[PutChange, TakeChange, MoveChange], Field(discriminator="kind")]


class FieldDrink(BaseModel):
    field: FieldKey = Field(description="the field 'x,y'")
    drink: DrinkId = Field(description="the drink standing there")

    model_config = {"extra": "forbid"}


class CratesLayoutIn(BaseModel):
    crates: list[tuple[whole_number(ge=0, le=MAX_COORD), whole_number(ge=0, le=MAX_COORD), whole_number(ge=0, le=3)]] \
        = Field(min_length=1, max_length=MAX_CRATES, description="each crate's top-left field x, y and quarter turns")
    drinks: list[FieldDrink] = Field(default_factory=list, max_length=MAX_FIELDS,
                                     description="the drinks and their fields (a field not named is empty)")

    model_config = {"extra": "forbid"}

    def layout(self) -> CrateLayout:
        return CrateLayout(tuple(tuple(p) for p in self.crates), {parse_key(d.field): d.drink for d in self.drinks})


class SimCratesIn(BaseModel):
    changes: list[CrateChange] = Field(default_factory=list, max_length=MAX_CHANGES,
                                       description="what the simulated players change, in order")
    layout: CratesLayoutIn | None = Field(None, description="the whole layout, before the changes")
    follow_game: StrictBool = Field(False, description="make the crates match the crate game in play first")
    hand: StrictBool = Field(False, description="a hand stays over the crates until the next call without one")
    hand_frames: whole_number(ge=0, le=MAX_HAND_FRAMES) = Field(
        HAND_FRAMES, description="the frames a hand passing over the crates is seen in while they change")

    model_config = {"extra": "forbid"}


def add_crate_routes(app: FastAPI, ctx: Api) -> None:
    add_watch_routes(app, ctx, "crates", "crate_watch", camera="crate camera", thing="crates",
                     absent="is not played on a grid of crates: the crate camera reads GRAPE SODA, YUZU and the "
                            "exploding cans", view_key="crate_camera", of_what="a crate game's crates")

    add_picture_route(app, ctx, "crate-camera", lambda: ctx.crate_device, "crate camera", "--crate-camera", "")

    @app.post("/api/sim/crates", dependencies=KEYED,
              responses={409: {"description": "no simulated crate camera runs here, or no crate game is in play "
                                              "to follow"}},
              summary="Simulated crate camera: the simulated players change the crates (host)",
              description="`changes` in order: `put` a drink into a field, `take` one out, `move` a crate with its "
                          "drinks (fields in the simulated crates' coordinates: a game's own once it was followed); "
                          "`layout` sets them all first, `follow_game` copies the crate game in play first; `hand` "
                          "leaves a hand over them. The answer: the crates and their fields. 409 unless the crate "
                          "camera is simulated; 422 for a change that cannot be made.")
    def sim_crates(body: SimCratesIn, request: Request) -> dict:
        ctx.host_of(request, "change the simulated crates")
        device = simulated(ctx.crate_device, "crate camera", "--crate-camera", "crates")
        changes = [c.model_dump() for c in body.changes]
        try:
            return device.sim_hands(changes, layout=body.layout.layout() if body.layout else None,
                                    follow_game=body.follow_game, hand=body.hand, hand_frames=body.hand_frames)
        except SimCratesError as exc:
            raise HTTPException(409 if exc.busy else 422, str(exc)) from None
