"""A committed network on disk: its weights as a compressed npz, its settings (temperature, the
bars of a sure reading) as JSON beside it. The crate and landing networks keep theirs this way
(``crate_net.py``, ``landing_net.py``); the training tools write them, the readers load them.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> save_net({"sure": 0.9}, {"w": np.ones(2)}, folder / "m.json", folder / "m.npz")
>>> weights, settings = load_net(folder / "m.json", folder / "m.npz")
>>> settings, weights["w"].dtype.name
({'sure': 0.9}, 'float32')
>>> load_net(folder / "none.json", folder / "none.npz") is None
True
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np


def save_net(settings: dict, weights: dict[str, np.ndarray], settings_path: Path, net_path: Path) -> None:
    """Write the settings (JSON) and the weights (npz, float32)."""
    settings_path.parent.mkdir(parents=True, exist_ok=True)
    settings_path.write_text(json.dumps(settings, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    np.savez_compressed(net_path, **{k: np.asarray(v, np.float32) for k, v in weights.items()})


def load_net(settings_path: str | Path, net_path: str | Path) -> tuple[dict[str, np.ndarray], dict] | None:
    """The weights and the settings (empty when there is no settings file), or None when there
    are no weights (no model committed yet)."""
    if not Path(net_path).exists():
        return None
    with np.load(net_path) as data:
        weights = {k: data[k] for k in data.files}
    settings = json.loads(Path(settings_path).read_text(encoding="utf-8")) if Path(settings_path).exists() else {}
    return weights, settings
