"""The simulated table: a seeded tower and computer players, the default when no
camera or sensor board is attached. It emits the same Observations as hardware."""
