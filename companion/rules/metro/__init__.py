"""TOKYO METRO (rule book 000, first part) as pure rules.

- ``game.py``         the declaration (``GAME``, NAME = "tokyo_metro"): phases and every kind of move
- ``files.py``        the data files (board, action cards, share cards, revenue track) as pydantic models
- ``board.py``        the board as data: lines, stations, stop circles, the grid (with validation)
- ``cards.py``        action cards, share cards and the revenue track as data (with validation)
- ``options.py``      the options (a GameOptions model) and the static rules built from them
- ``state.py``        the immutable state, a new game, helpers every phase uses
- ``rounds.py``       the card columns, bids, ties, turns, the next round and the end
- ``movement.py``     the movement phase
- ``actions.py``      the frame every card action shares (offering, taking, discounts)
- ``card_actions.py`` and ``bank_actions.py``: each kind of card action in one place
- ``action_phase.py`` the action phase: every card action listed, passing, tempo tokens
- ``trains.py``       the train phase, boarding and getting off (at any time)
- ``preview.py``      what the rest of a train phase will do, for the dashboard
- ``view.py``         what the table and each phone see, and the payouts
- ``scoring.py``      the end scoring
- ``stock_column.py`` METRO DRINKS as data: the stock-card column, crates, drinks, the drink bonus
- ``vending.py``      METRO DRINKS' moves: colour and shape cards, vending machines, the tower's drops
- ``vending_view.py`` METRO DRINKS in the view
- ``playout.py``      the quick random policy the hints assume
- ``estimate.py``     the hints' redraw of what a viewer cannot see (rules/estimate.py does the rest)
- ``data/``           the default board, decks and track, and build_board.py
"""
