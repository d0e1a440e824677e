"""TOKYO METRO (rule book 000, first part) as pure rules.

- ``board.py``   the board as data: lines, stations, stop circles, the grid (with validation)
- ``cards.py``   action cards, share cards and the revenue track as data (with validation)
- ``state.py``   options, the immutable state, setup, deal/refill, bids, movement
- ``actions.py`` the action phase
- ``trains.py``  the train phase and its preview
- ``scoring.py`` the end scoring
- ``game.py``    the Game surface (NAME = "tokyo_metro") the table session drives
- ``playout.py`` a quick random policy and a game played to its end with it
- ``estimate.py`` the final-yen hints: hidden information drawn again, then random playouts
- ``data/``      the default board, decks and track, their JSON schemas, and build_board.py
"""
