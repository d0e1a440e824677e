"""The landing network as PyTorch trains it (``tools/learn_landings.py``), and its export to the
weights the run time reads with numpy (``companion/vision/landing_net.py``): the same four
convolutions and two dense layers, a batch normalisation (``--norm batch``) folded into the
convolution before it.
"""
from __future__ import annotations

import numpy as np

from companion.vision.landing_crops import CHANNELS, FEATURES
from torch_fold import folded  # the export folds each normalisation in


def torch_net(widths: tuple[int, ...] | None = None, hidden: int | None = None, channels: int | None = None,
              features: int = len(FEATURES), norm: bool = False):
    """The network as PyTorch trains it. ``norm``: each convolution batch-normalised before its
    ReLU (``--norm batch``); the export folds the normalisation into the convolution's weights,
    so the run time (``landing_net.py``) reads the same four convolutions either way."""
    import torch
    from torch import nn
    from companion.vision.landing_net import HIDDEN, OUTPUTS, WIDTHS, flat_size
    widths, hidden = tuple(widths or WIDTHS), hidden or HIDDEN

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            c_in, convs = channels or len(CHANNELS), []
            for c in widths:
                convs.append(nn.Conv2d(c_in, c, 3))
                c_in = c
            self.convs = nn.ModuleList(convs)
            self.norms = nn.ModuleList(nn.BatchNorm2d(c) for c in widths) if norm else None
            self.f1 = nn.Linear(flat_size(widths) + features, hidden)
            self.f2 = nn.Linear(hidden, OUTPUTS)

        def forward(self, x, z):
            for i, conv in enumerate(self.convs):
                x = conv(x)
                if self.norms is not None:
                    x = self.norms[i](x)
                x = torch.relu(x)
                if i < 3:
                    x = nn.functional.max_pool2d(x, 2)
            return self.f2(torch.relu(self.f1(torch.cat([x.flatten(1), z], 1))))

    return Net()


def exported(net, mean, std) -> dict:
    w = {}
    for i, conv in enumerate(net.convs, 1):
        w[f"c{i}w"], w[f"c{i}b"] = folded(conv, net.norms[i - 1] if net.norms is not None else None)
    for name in ("f1", "f2"):
        layer = getattr(net, name)
        w[f"{name}w"], w[f"{name}b"] = layer.weight.detach().numpy(), layer.bias.detach().numpy()
    return {**w, "mean": mean, "std": std}


def load_into(net, w) -> None:
    import torch
    for i, conv in enumerate(net.convs, 1):
        conv.weight.data = torch.from_numpy(w[f"c{i}w"])
        conv.bias.data = torch.from_numpy(w[f"c{i}b"])
    for name in ("f1", "f2"):
        getattr(net, name).weight.data = torch.from_numpy(w[f"{name}w"])
        getattr(net, name).bias.data = torch.from_numpy(w[f"{name}b"])
