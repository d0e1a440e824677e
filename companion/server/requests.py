"""What a request may carry: the bodies the API takes and the bounds of every field, checked
before anything is stored (a game's settings and log are kept for ever and sent to every
device). The body as a whole has its own limit (server/body_limit.py)."""
from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StringConstraints, field_validator, model_validator

from ..observation import whole_number

MAX_NAME = 40                 # characters of a player's name
MAX_SEATS = 12                # seats at one table (LEMON SQUASH seats the most: 12)
MAX_GAME_KIND = 40            # characters of a game's id ("upside_down_tower")
MAX_SEED = 2**53 - 1          # a seed is a whole number from 0 to this (exact as a JSON number)
MAX_OPTIONS = 40              # options named in one game (TOKYO METRO has the most: 27)
MAX_OPTIONS_BYTES = 131_072   # the options as JSON: a whole board file of one's own takes ~55 KB
MAX_SET_ID = 16              # a saved set of the table's own METRO cards (table/table_cards.py): 8 hex digits
MAX_SET_NAME = 40             # its name (the game's options keep it: rules/engine.py OPTION_TEXT)
MAX_MOVE_BYTES = 4_096        # a move as JSON: the largest a game takes (drinks, amounts, coins) ~400 B

Name = Annotated[str, StringConstraints(min_length=1, max_length=MAX_NAME)]
Seat = whole_number(ge=0, lt=MAX_SEATS)


def _json_bytes(value: Any) -> int:
    """The size of a value as the store would write it (a lone surrogate counted, not refused here)."""
    return len(json.dumps(value, ensure_ascii=False, default=str).encode("utf-8", "surrogatepass"))


class NewGame(BaseModel):
    game: str = Field("pocari_bet", max_length=MAX_GAME_KIND, description="game id, e.g. pocari_bet")
    names: list[Name] = Field(default_factory=lambda: ["Aki", "Ben", "Chie"], min_length=1, max_length=MAX_SEATS,
                              description=f"one per seat, 1 to {MAX_NAME} characters each")
    bots: list[Seat] = Field(default_factory=list, max_length=MAX_SEATS, description="seats played by the computer")
    simulated: StrictBool = Field(True, description="True: the simulated tower supplies drops")
    seed: whole_number(ge=0, le=MAX_SEED) | None = None
    table_cards: str | None = Field(None, max_length=MAX_SET_ID, description="a METRO game: the id of the table's "
                                    "own board and cards, saved on the page /table-cards (GET /api/table-cards/sets); its "
                                    "files become the game's options")
    options: dict[Annotated[str, StringConstraints(max_length=MAX_GAME_KIND)], Any] = Field(
        default_factory=dict, max_length=MAX_OPTIONS,
        description=f"the game's options (each game checks its own names and bounds); at most "
                    f"{MAX_OPTIONS} of them, {MAX_OPTIONS_BYTES} bytes as JSON")

    @field_validator("options")
    @classmethod
    def _small_options(cls, value: dict) -> dict:
        size = _json_bytes(value)
        if size > MAX_OPTIONS_BYTES:
            raise ValueError(f"the options take {size} bytes as JSON; at most {MAX_OPTIONS_BYTES}")
        return value


class MoveIn(BaseModel):
    move: dict[str, Any] = Field(description='{"kind": ..., "player": seat or "chance", "args": {...}}; '
                                             f"at most {MAX_MOVE_BYTES} bytes as JSON")
    override_beams: StrictBool = Field(
        False, description="the host's override of the exit beam: a drop whose number of drinks out differs "
                           "from what the exit beam counted for it is refused (409) unless this is true, which "
                           "says that a person looked and the beam is wrong; logged with the move. Only the "
                           "host may send it (403 for a player's or a spectator's key)")

    @field_validator("move")
    @classmethod
    def _small_move(cls, value: dict) -> dict:
        size = _json_bytes(value)
        if size > MAX_MOVE_BYTES:
            raise ValueError(f"the move takes {size} bytes as JSON; no move of any game takes more than "
                             f"{MAX_MOVE_BYTES}")
        return value


DataFile = dict[Annotated[str, StringConstraints(max_length=MAX_GAME_KIND)], Any] | None


class TableCardsIn(BaseModel):
    """A set of the table's own METRO files (docs/metro-files.md); each file is its JSON object."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field("", max_length=MAX_SET_NAME, description=f"the set's name, 1 to {MAX_SET_NAME} characters "
                                                               "(needed to save; a check may leave it empty)")
    system: Literal["tokyo", "osaka"] = Field("tokyo", description="the system whose defaults the set changes")
    board: DataFile = Field(None, description="a whole board file")
    board_corrections: DataFile = Field(None, description="corrections to the system's default board")
    action_cards: DataFile = None
    stock_cards: DataFile = None
    revenue_track: DataFile = None

    @model_validator(mode="after")
    def _small_set(self) -> "TableCardsIn":
        files = self.model_dump(exclude={"name", "system"}, exclude_none=True)
        size = _json_bytes(files)
        if size > MAX_OPTIONS_BYTES:
            raise ValueError(f"the files take {size} bytes as JSON; at most {MAX_OPTIONS_BYTES}")
        return self


class FeedIn(BaseModel):
    game_id: str = Field(max_length=MAX_GAME_KIND, description="the game the tower's camera and sensors report to")




MAX_REPLAY_CHARS = 200_000    # a log replayed on the history page: a long night's METRO game takes ~60 KB
MAX_HISTORY_PAGE = 100        # games in one page of the history


class ReplayIn(BaseModel):
    log: str = Field(max_length=MAX_REPLAY_CHARS,
                     description='a game log as `GET /api/games/ID/log.jsonl` gives it: the header line '
                                 '`{"type": "game", "game": ..., "config": ...}`, then one record a line; at most '
                                 f'{MAX_REPLAY_CHARS} characters (a longer one: `companion replay FILE`)')
