"""A batch normalisation folded into the convolution before it (training tools only).

The networks the service runs (numpy or OpenCV, no PyTorch) have plain convolutions. A network
trained with a batch normalisation after each convolution runs there unchanged in speed: in eval
mode the normalisation is a fixed gain and shift per channel, which the export multiplies into
the convolution's weights and bias.
"""
from __future__ import annotations

import numpy as np


def folded(conv, norm) -> tuple[np.ndarray, np.ndarray]:
    """A convolution's weights and bias with the batch normalisation after it (its running
    statistics, as in eval mode) folded in: one convolution that computes both. ``norm`` None:
    the convolution's own."""
    w, b = conv.weight.detach().numpy().astype(np.float64), conv.bias.detach().numpy().astype(np.float64)
    if norm is None:
        return w.astype(np.float32), b.astype(np.float32)
    gain = norm.weight.detach().numpy() / np.sqrt(norm.running_var.detach().numpy() + norm.eps)
    shift = norm.bias.detach().numpy() - norm.running_mean.detach().numpy() * gain
    return (w * gain[:, None, None, None]).astype(np.float32), (b * gain + shift).astype(np.float32)
