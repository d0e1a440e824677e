"""One module per JIDOHANBAIKI game; ``GAMES`` maps a game id to its declaration (rules/declared.py;
TOKYO METRO, which lives in its own package, is registered here too). docs/adding-a-game.md says
how a new game joins them."""
from __future__ import annotations

from . import (bottle_bonus, bottle_giving, bottle_square, chocolate_milk, colour_sort, crate_draft, crate_duel,
               exploding_cans, genmaicha, golden_runner, grape_soda, hidden_cards, izakaya, jasmine_tea, lemon_squash,
               melon_soda, mr_sudsy, pocari_bet, pura, shopping_mall, toriatama, upside_down_tower, vend_machine,
               vending_poker, yuzu)

from ..metro import game as metro

GAMES = {g.name: g
         for g in (*(m.GAME for m in (
              pocari_bet, jasmine_tea, melon_soda, vending_poker, upside_down_tower, chocolate_milk, pura,
              lemon_squash, izakaya, exploding_cans, bottle_square, colour_sort, crate_duel, grape_soda, yuzu,
              genmaicha, hidden_cards, bottle_giving, toriatama, crate_draft, golden_runner,
              bottle_bonus, mr_sudsy, vend_machine, shopping_mall)),
                   metro.GAME, metro.OSAKA, metro.DRINKS)}


def get(name: str):
    """The declared game ``name``; a KeyError that lists the known games."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}") from None
