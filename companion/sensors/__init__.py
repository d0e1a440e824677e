"""The serial sensor board: frame codec, the link that loses nothing, simulated boards.

``codec`` is the wire format (shared with the firmware's C code through test
vectors), ``link`` reads a board and turns its events into Observations,
``ports`` finds a board, ``board`` is the firmware's logic in Python (used by
``simboard`` for the demo and ``fakeboard`` for the fault tests).
"""
