"""Behaviour cloning: a warm start that copies the rule bots before PPO begins."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
import torch.nn as nn

from baselines.ppo.agent import Agent, CategoricalMasked
from baselines.ppo.checkpoint import PPOPolicy
from baselines.ppo.evaluate import opponent_policy
from baselines.ppo.ppo_config import Config
from baselines.ppo.rollout import Opponents
from mafia_env.actions import ActionLayout
from mafia_env.commands import progress
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.observe import ObsLayout
from mafia_env.seat_obs import fit, vector_env


def imitate(
    agent: Agent,
    cfg: Config,
    teacher: Any,
    log: Any = print,
    writer: Any = None,
    teachers: dict[str, Any] | None = None,
) -> float:
    """Behaviour cloning: fit the actor to `teacher`'s moves and the critic to their results.

    ``cfg.imitate_steps`` of the teacher's decisions are recorded from games in which it
    plays every seat (``cfg.imitate_opponents`` empty: bot against bot), or one team, drawn
    per game, against an opponent drawn per game by the weights of ``cfg.imitate_opponents``
    (``self``: the teacher on every seat; random play, the rule bots, the PPO or league bots
    ...), so that the clone has seen the teacher's answers to many kinds of play, not only
    to its own. `teachers` (by opponent name) replaces the teacher in that opponent's games:
    the clone learns the best known answer to each kind of play. The actor learns the
    teacher's move (cross-entropy over the legal actions)
    and the critic each decision's discounted team result, so that PPO starts from a player
    as good as the teacher with a critic that already knows what a position is worth.
    With ``cfg.imitate_dagger`` rounds, the clone then plays the teacher's seats itself while
    the teacher labels each of its decisions (DAgger), and is fitted again on all of them.
    Returns the actor's accuracy on the cloned decisions in the last epoch.
    """
    # every round's decisions in one buffer, each round writing its slice: fitting on the
    # rounds so far reads a view, never a copy (city-13's 400,000 rows are 6.4 GB)
    N, spec = cfg.imitate_steps, cfg.game_spec()
    rows = N * (1 + cfg.imitate_dagger)
    bufs = _buffers(ObsLayout.of(spec).size, ActionLayout.of(spec).size, rows)
    _record(cfg, teacher, teachers, None, 0, log, [a[:N] for a in bufs])
    acc = _fit(agent, cfg, *(a[:N] for a in bufs), log, writer)
    for r in range(1, cfg.imitate_dagger + 1):
        student = PPOPolicy.from_agent(agent, cfg.seed + 11 * r, deterministic=cfg.greedy)
        agent.eval()
        _record(cfg, teacher, teachers, student, r, log, [a[r * N : (r + 1) * N] for a in bufs])
        agent.train()
        log(f"DAgger round {r}/{cfg.imitate_dagger}: the clone played, the teachers labelled")
        acc = _fit(agent, cfg, *(a[: (r + 1) * N] for a in bufs), log, writer)
    return acc


def _record(
    cfg: Config,
    teacher: Any,
    teachers: dict[str, Any] | None,
    student: Any,
    r: int,
    log: Any,
    out: list[np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Record ``cfg.imitate_steps`` of the teachers' decisions: (observations, masks, the
    teacher's actions, discounted team results), written into `out` where given (zeroed
    arrays of ``imitate_steps`` rows). With `student`, the student plays the recorded seats
    (their labels are still the teacher's)."""
    vec = vector_env(
        cfg.variant, cfg.num_envs, cfg.num_players, seed=cfg.seed + 7 + 1000 * r, **cfg.vec_knobs()
    )
    N, B = cfg.imitate_steps, vec.num_envs
    X, M, Y, G = _buffers(vec.obs_size, vec.action_size, N) if out is None else out
    rows: list[list[list[int]]] = [[[] for _ in range(vec.n)] for _ in range(B)]
    opp = Opponents(vec.n, B, np.random.default_rng(cfg.seed + 8 + 1000 * r), team=cfg.learner_team)
    opp.spec = vec.spec
    for name, w in (cfg.imitate_opponents or {"self": 1.0}).items():
        if w > 0:
            policy = (
                None
                if name == "self"
                else opponent_policy(name, cfg.variant, vec.n, cfg.seed + 9)[0]
            )
            opp.add(name, policy, w)
    teacher_name = "\0teacher"
    by_name = {teacher_name: teacher, **(teachers or {})}
    # (opponent, the acting teacher's team) -> key of by_name: "opponent:side" wins over "opponent"
    keys = {
        (g, t): f"{g}:{side}" if f"{g}:{side}" in by_name else g if g in by_name else teacher_name
        for g in opp.players
        for t, side in enumerate(TEAM_NAMES)
    }
    obs, masks, info = vec.reset()
    for b in range(B):
        opp.assign(b, info["teams"][b])
    bar = progress(N, "imitation data" if student is None else f"DAgger round {r}", "decision")
    i = pending = 0
    actions = np.zeros(B, dtype=np.int64)
    while i < N or pending:  # then play on until every recorded game has its result
        seat = info["seat"]
        mine = opp.learner_seat[np.arange(B), seat]  # the teacher's rows
        t = np.flatnonzero(mine)
        if t.size:
            team = info["team"]  # the acting seat's team
            who = np.array([keys[opp.game[b], team[b]] for b in t.tolist()], dtype=object)
            for name in set(who):
                rows_of = t[who == name]
                tp = by_name[name]
                actions[rows_of] = tp.act_batch(fit(tp, obs[rows_of], vec.spec), masks[rows_of])
        moved = t  # the teacher's seats: the student moves on them all
        k = min(t.size, N - i)
        if hasattr(vec, "fill") and (k > 0 or student is not None):
            # the belief piece of the recorded rows only, and of every row the student moves
            # (it reads the piece in the games played on to their result, too)
            vec.fill(moved if student is not None else moved[:k])
        if k > 0:
            t = t[:k]
            X[i : i + k], M[i : i + k], Y[i : i + k] = obs[t], masks[t] > 0, actions[t]
        if student is not None and moved.size:  # DAgger: the clone moves, the labels stay
            actions[moved] = student.act_batch(obs[moved], masks[moved])
        opp.act(obs, masks, mine, actions)
        if k > 0:
            for j, b in enumerate(t.tolist()):
                rows[b][int(seat[b])].append(i + j)
            i += k
            pending += k
            bar.update(k)
        obs, masks, rewards, dones, info = vec.step(actions)
        for b in np.flatnonzero(dones):
            for s, seat_rows in enumerate(rows[b]):
                back = np.arange(len(seat_rows))[::-1]  # own decisions still to come
                G[seat_rows] = rewards[b, s] * cfg.gamma**back
                pending -= len(seat_rows)
                seat_rows.clear()
            opp.record(b, rewards[b], info["done_teams"][b])
            opp.assign(b, info["teams"][b])
    bar.close()
    player = "the clone" if student is not None else "the teacher"
    for (name, side), w in opp.windows.items():
        if w and opp.players.get(name) is not None:
            log(f"imitation games: {player} as {side} vs {name} won {np.mean(w):.3f} ({len(w)})")
    return X, M, Y, G


def _buffers(obs_size: int, action_size: int, rows: int) -> list[np.ndarray]:
    """Zeroed rows of imitation data: observations, masks, the teacher's actions and the
    discounted result of the mover's team."""
    return [
        np.zeros((rows, obs_size), dtype=np.float32),
        np.zeros((rows, action_size), dtype=bool),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.float32),
    ]


def _fit(
    agent: Agent,
    cfg: Config,
    X: np.ndarray,
    M: np.ndarray,
    Y: np.ndarray,
    G: np.ndarray,
    log: Any,
    writer: Any,
) -> float:
    """Fit the actor to the actions `Y` and the critic to the results `G`; return the last
    epoch's accuracy."""
    N = len(Y)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.imitate_lr, eps=1e-5)
    tx, tm, ty, tg = map(torch.from_numpy, (X, M, Y, G))
    acc = 0.0
    bar = progress(cfg.imitate_epochs * -(-N // 1024), "imitation fit", "batch")
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
            bar.update(1)
        acc = hits / N
        log(
            f"imitation epoch {epoch + 1}/{cfg.imitate_epochs}: loss {loss_sum / N:.4f}, "
            f"accuracy {acc:.3f} on {N} decisions"
        )
        if writer is not None:
            writer.add_scalar("imitation/loss", loss_sum / N, epoch + 1)
            writer.add_scalar("imitation/accuracy", acc, epoch + 1)
    bar.close()
    return acc


__all__ = ["imitate"]
