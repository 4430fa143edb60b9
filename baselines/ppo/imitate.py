"""Behaviour cloning: a warm start that copies the rule bots before PPO begins."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
import torch.nn as nn

from baselines.ppo.agent import Agent, CategoricalMasked
from baselines.ppo.config import Config
from mafia_env.vector import VectorMafia


def imitate(agent: Agent, cfg: Config, teacher: Any, log: Any = print, writer: Any = None) -> float:
    """Behaviour cloning: fit the actor to `teacher`'s moves and the critic to their results.

    The teacher plays every seat of ``cfg.imitate_steps`` decisions' worth of games; the actor
    learns the teacher's move (cross-entropy over the legal actions) and the critic each
    decision's discounted team result, so that PPO starts from a player as good as the
    teacher with a critic that already knows what a position is worth. Returns the actor's
    accuracy on the cloned decisions in the last epoch.
    """
    vec = VectorMafia(cfg.variant, cfg.num_envs, cfg.num_players, seed=cfg.seed + 7, **cfg.knobs)
    N, B = cfg.imitate_steps, vec.num_envs
    X = np.zeros((N, vec.obs_size), dtype=np.float32)
    M = np.zeros((N, vec.action_size), dtype=bool)
    Y = np.zeros(N, dtype=np.int64)
    G = np.zeros(N, dtype=np.float32)  # discounted result of the mover's team
    rows: list[list[list[int]]] = [[[] for _ in range(vec.n)] for _ in range(B)]
    obs, masks, info = vec.reset()
    i = pending = 0
    while i < N or pending:  # then play on until every recorded game has its result
        actions = teacher.act_batch(obs, masks)
        k = min(B, N - i)
        if k > 0:
            X[i : i + k], M[i : i + k], Y[i : i + k] = obs[:k], masks[:k] > 0, actions[:k]
            for b in range(k):
                rows[b][int(info["seat"][b])].append(i + b)
            i += k
            pending += k
        obs, masks, rewards, dones, info = vec.step(actions)
        for b in np.flatnonzero(dones):
            for s, seat_rows in enumerate(rows[b]):
                back = np.arange(len(seat_rows))[::-1]  # own decisions still to come
                G[seat_rows] = rewards[b, s] * cfg.gamma**back
                pending -= len(seat_rows)
                seat_rows.clear()
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.imitate_lr, eps=1e-5)
    tx, tm, ty, tg = map(torch.from_numpy, (X, M, Y, G))
    acc = 0.0
    for epoch in range(cfg.imitate_epochs):
        order = torch.randperm(N)
        loss_sum = hits = 0.0
        for mb in order.split(1024):
            h, head = agent.trunk(tx[mb]), agent._head(tx[mb])
            dist = CategoricalMasked(agent._logits(h, head), tm[mb])
            pi_loss = -dist.log_prob(ty[mb]).mean()
            v_loss = 0.5 * ((agent._value(h, head) - tg[mb]) ** 2).mean()
            optimizer.zero_grad()
            (pi_loss + cfg.vf_coef * v_loss).backward()
            nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm)
            optimizer.step()
            loss_sum += pi_loss.item() * len(mb)
            hits += (dist.logits.argmax(1) == ty[mb]).sum().item()
        acc = hits / N
        log(
            f"imitation epoch {epoch + 1}/{cfg.imitate_epochs}: loss {loss_sum / N:.4f}, "
            f"accuracy {acc:.3f} on {N} decisions"
        )
        if writer is not None:
            writer.add_scalar("imitation/loss", loss_sum / N, epoch + 1)
            writer.add_scalar("imitation/accuracy", acc, epoch + 1)
    return acc


__all__ = ["imitate"]
