"""One table's session: reconcile observations with the rules engine, and keep the event log.

The table is the only place where the outside world (camera, sensors, taps on a tablet) meets the
rules; everything it decides is appended to the store so any state can be rebuilt by replay."""
