"""Frames -> observations: camera sources, calibration, drink identification, the tray watcher.

Knows drinks and trays, never the rules (``companion.rules`` is not imported here).
"""
