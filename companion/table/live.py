"""The session's listeners and the views it shares: every change tells the listeners (the live
views of the dashboards); a view is computed once per (viewer, step) and handed to every device
of that viewer (20 devices at a table ask for five or six distinct views after a move). Mixed
into TableSession (uses its lock, records and ``compute_view``)."""
from __future__ import annotations

from typing import Callable


class Live:
    def _init_live(self) -> None:
        self.listeners: list[Callable[[], None]] = []
        self._views: dict[tuple, dict] = {}   # (viewer, acting, step, rev) -> the view, this step's only
        self.rev = 0   # changes of what a view shows that add no record (the board camera's news)

    @property
    def step(self) -> int:
        """How many records the game's log holds: every change of what anyone sees is one more."""
        return len(self.records)

    def view(self, viewer, acting: bool = True) -> dict:
        """What ``viewer`` sees now (see ``compute_view``), shared: the same dict for every
        caller until the next record (do not change it; copy it to add to it)."""
        with self.lock:
            key = (viewer, acting, len(self.records), self.rev)
            view = self._views.get(key)
            if view is None:
                view = self.compute_view(viewer, acting)
                if any(k[2:] != key[2:] for k in self._views):
                    self._views = {}
                self._views[key] = view
            return view

    def touched(self) -> None:
        """Something a view shows changed without a record (the board camera's proposal, its
        differences): views are computed anew; the caller tells the listeners."""
        self.rev += 1

    def notify(self) -> None:
        """Tell the listeners (the live views) that what they show may have changed."""
        for listener in list(self.listeners):
            listener()
