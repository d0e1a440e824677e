"""The training loop the board camera's networks share (tools/learn_board.py, learn_board_values.py,
learn_board_drinks.py): AdamW under a one-cycle learning rate, shuffled batches, one line a
pass. PyTorch is imported here only when a loop runs (the training venv's; never the service's).
"""
from __future__ import annotations

import sys
import time


def run_epochs(net, samples: int, epochs: int, loss_of, seed: int, batch: int = 256, max_lr: float = 3e-3):
    """Train ``net`` for ``epochs`` passes over ``samples`` samples: ``loss_of(idx, gen)`` gives
    the loss (a tensor) of the batch of sample indices ``idx``, augmenting with the generator
    ``gen`` (seeded with ``seed``, so that a run repeats)."""
    import torch
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = epochs * ((samples + batch - 1) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=steps)
    gen = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        t0 = time.perf_counter()
        order = torch.randperm(samples, generator=gen)
        total = 0.0
        for s in range(0, samples, batch):
            idx = order[s:s + batch]
            loss = loss_of(idx, gen)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        print(f"  epoch {epoch + 1}/{epochs}: loss {total / samples:.5f} ({time.perf_counter() - t0:.0f} s)",
              file=sys.stderr, flush=True)
