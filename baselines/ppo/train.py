"""Masked PPO for Mafia: the training loop, top to bottom, in the manner of CleanRL's ``ppo.py``.

One network plays every seat; the seat's role is in its observation (``per_team`` gives each
team its own output heads). Many games run in lockstep (`mafia_env.vector.VectorMafia`). In
each game the learner controls some seats: all of them in self-play, else one team (chosen
per game) while an opponent plays the rest: an earlier snapshot of the learner from the pool,
the rule-based bots or random play, mixed as `Config.opponents` says.

Advantages are computed per game and per seat over that seat's own decisions (GAE): a seat's
next decision is its next state, and the team's terminal reward (+1/-1/0) is credited to
each seat's last decision of the game, so an eliminated player learns from his team's result.
Decisions left pending at the end of a rollout bootstrap from the value of that seat's
current observation. Then the usual clipped-PPO update with advantage normalisation, a
normalised value target, an entropy bonus and gradient clipping.

The config is `baselines.ppo.config`, the network `baselines.ppo.agent`, checkpoints and the
policy they load `baselines.ppo.checkpoint`, evaluation `baselines.ppo.evaluate` and the
imitation warm start `baselines.ppo.imitate`.
"""

from __future__ import annotations

import copy
import random
import time
from collections import deque
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch
import torch.nn as nn

from baselines.ppo.agent import make_agent
from baselines.ppo.checkpoint import PPOPolicy, read_checkpoint, save_checkpoint
from baselines.ppo.config import OPPONENT_KINDS, Config
from baselines.ppo.evaluate import evaluate, opponent_policy
from baselines.ppo.imitate import imitate
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.policy import Policy
from mafia_env.vector import VectorMafia


class Opponents:
    """Who plays against the learner in each of the `B` games: drawn per game by weight.

    ``kind[b]`` indexes `kinds`; ``learner_seat[b]`` marks the seats the learner plays (all of
    them in self-play, else one team's) and ``learner_team[b]`` that team (-1: self-play).
    """

    def __init__(self, cfg: Config, n: int, B: int, rng: np.random.Generator):
        self.cfg, self.rng = cfg, rng
        self.kinds = [k for k in OPPONENT_KINDS if cfg.opponents.get(k, 0) > 0]
        weights = np.array([cfg.opponents[k] for k in self.kinds], dtype=np.float64)
        self.weights = weights / weights.sum()
        self.pool_kind = self.kinds.index("pool") if "pool" in self.kinds else -1
        self.bots: dict[str, tuple[Policy, str]] = {}
        for k in ("rule", "random"):
            if k in self.kinds or cfg.eval_opponent == k:
                self.bots[k] = opponent_policy(k, cfg.variant, n, cfg.seed)
        # the name each kind is logged by ("rule" falls back to random where none is installed)
        self.label = {k: self.bots[k][1] if k in self.bots else k for k in self.kinds}
        if "random" in self.kinds and self.label.get("rule") == "random":
            self.label["rule"] = "rule_fallback_random"
        self.kind = np.zeros(B, dtype=np.int64)
        self.learner_seat = np.zeros((B, n), dtype=bool)
        self.learner_team = np.zeros(B, dtype=np.int64)

    def assign(self, b: int, teams: np.ndarray) -> None:
        """Draw game `b`'s opponent, and the learner's seats for its deal `teams`."""
        k = int(self.rng.choice(len(self.kinds), p=self.weights))
        self.kind[b] = k
        if self.kinds[k] == "self":
            self.learner_seat[b] = True
            self.learner_team[b] = -1
            return
        team = self.cfg.learner_team
        t = int(self.rng.integers(2)) if team == "any" else TEAM_NAMES.index(team)
        self.learner_team[b] = t
        self.learner_seat[b] = teams == t


def seat_gae(
    values: np.ndarray,
    learn: np.ndarray,
    seats: np.ndarray,
    dones: np.ndarray,
    rewards: np.ndarray,
    bootstrap: np.ndarray,
    gamma: float,
    lam: float,
) -> np.ndarray:
    """Return GAE advantages [T, B] over each (game, seat)'s own decisions.

    Step t of game b is a decision of seat ``seats[t, b]`` (counted where ``learn[t, b]``);
    its successor is the same seat's next decision in the same game. ``dones[t, b]`` says the
    move at t ended game b, and ``rewards[t, b]`` holds every seat's terminal reward: it is
    credited to each seat's last decision of that game, however long ago the seat was
    eliminated. Games still running at the end bootstrap from ``bootstrap[b, seat]``.
    """
    T, B = values.shape
    adv_buf = np.zeros((T, B), dtype=np.float32)
    next_value = bootstrap.astype(np.float32).copy()
    next_adv = np.zeros_like(next_value)
    next_term = np.zeros(next_value.shape, dtype=bool)
    next_rew = np.zeros_like(next_value)
    for t in reversed(range(T)):
        d = dones[t]
        if d.any():  # the move at t ended these games: each seat's last decision in them
            next_term[d] = True  # gets the team reward, and nothing follows it
            next_rew[d] = rewards[t, d]
            next_value[d] = 0
            next_adv[d] = 0
        b = np.flatnonzero(learn[t])
        s = seats[t, b]
        v = values[t, b]
        term = next_term[b, s]
        delta = np.where(term, next_rew[b, s], gamma * next_value[b, s]) - v
        adv = delta + np.where(term, 0.0, gamma * lam * next_adv[b, s])
        adv_buf[t, b] = adv
        next_value[b, s] = v
        next_adv[b, s] = adv
        next_term[b, s] = False
        next_rew[b, s] = 0
    return adv_buf


def train(
    cfg: Config,
    resume: str | Path | None = None,
    log: Any = print,
) -> dict[str, Any]:
    """Train as `cfg` says; return the run's paths, final evaluation and learning curve."""
    from torch.utils.tensorboard import SummaryWriter

    run_name = f"{cfg.exp_name}_{cfg.variant}_{cfg.seed}"
    run_dir = Path(cfg.run_dir) / run_name
    writer = SummaryWriter(str(run_dir))
    writer.add_text(
        "hyperparameters",
        "|param|value|\n|-|-|\n" + "\n".join(f"|{k}|{v}|" for k, v in asdict(cfg).items()),
    )

    # TRY NOT TO MODIFY: seeding
    random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.torch_threads)
    gen = torch.Generator().manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)

    # env setup
    vec = VectorMafia(cfg.variant, cfg.num_envs, cfg.num_players, seed=cfg.seed, **cfg.knobs)
    B, T, n = cfg.num_envs, cfg.num_steps, vec.n

    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.learning_rate, eps=1e-5)
    num_updates = max(1, cfg.total_timesteps // (B * T))
    start_update, global_step = 1, 0
    pool: list[dict[str, torch.Tensor]] = []  # earlier snapshots of the agent's weights
    curve: list[dict[str, Any]] = []  # the evaluations during training
    if resume is not None:
        ckpt = read_checkpoint(resume, cfg.variant, vec.n)
        agent.load_state_dict(ckpt["model"])
        if "optimizer" in ckpt:
            optimizer.load_state_dict(ckpt["optimizer"])
        start_update = ckpt.get("update", 0) + 1
        global_step = ckpt.get("global_step", 0)
        pool = ckpt.get("pool", [])
        curve = ckpt.get("curve", [])
        log(f"resumed from {resume} at update {start_update - 1}, step {global_step}")
    elif cfg.imitate_steps:
        teacher, name = opponent_policy("rule", cfg.variant, n, cfg.seed)
        log(f"imitating the {name} bots over {cfg.imitate_steps} decisions")
        imitate(agent, cfg, teacher, log, writer)
    if not pool:
        pool.append(copy.deepcopy(agent.state_dict()))
    pool_agent = copy.deepcopy(agent)
    opp = Opponents(cfg, n, B, rng)
    kinds, label = opp.kinds, opp.label
    eval_bot, eval_name = opponent_policy(cfg.eval_opponent, cfg.variant, n, cfg.seed + 1)
    if eval_name != cfg.eval_opponent or opp.bots.get("rule", (None, "rule"))[1] != "rule":
        log("no rule-based bots are installed: playing and evaluating against random instead")

    def run_eval(update: int) -> None:
        """Evaluate the agent against `eval_bot` as each team; log and keep the point."""
        agent.eval()
        res = evaluate(
            PPOPolicy.from_agent(agent, cfg.seed + update, cfg.greedy),
            eval_bot,
            cfg.variant,
            vec.n,
            cfg.eval_games,
            seed=10_000 + update,
            knobs=cfg.knobs,
        )
        agent.train()
        point = {"update": update, "step": global_step}
        for team, r in res.items():
            writer.add_scalar(f"eval/winrate_{team}_vs_{eval_name}", r["rate"], global_step)
            point[team] = r["rate"]
        curve.append(point)
        log(
            f"eval @ step {global_step}: town {res['town']['rate']:.3f}, "
            f"mafia {res['mafia']['rate']:.3f} vs {eval_name} ({cfg.eval_games} games each)"
        )

    def checkpoint(path: Path, update: int) -> None:
        """Save everything a resumed run needs: weights, optimizer, pool, step and curve."""
        state = {
            "optimizer": optimizer.state_dict(),
            "update": update,
            "global_step": global_step,
            "pool": pool,
            "curve": curve,
        }
        save_checkpoint(path, agent, cfg, vec, state)

    # ALGO Logic: Storage setup (every game's acting seat each step; learner rows are marked)
    obs_buf = np.zeros((T, B, vec.obs_size), dtype=np.float32)
    mask_buf = np.zeros((T, B, vec.action_size), dtype=bool)
    act_buf = np.zeros((T, B), dtype=np.int64)
    logp_buf = np.zeros((T, B), dtype=np.float32)
    val_buf = np.zeros((T, B), dtype=np.float32)
    learn_buf = np.zeros((T, B), dtype=bool)
    seat_buf = np.zeros((T, B), dtype=np.int64)
    done_buf = np.zeros((T, B), dtype=bool)
    rew_buf = np.zeros((T, B, n), dtype=np.float32)
    window = {(k, t): deque(maxlen=500) for k in kinds for t in ("town", "mafia")}
    returns_window: deque[float] = deque(maxlen=500)
    lengths_window: deque[int] = deque(maxlen=500)
    game_len = np.zeros(B, dtype=np.int64)

    # TRY NOT TO MODIFY: start the game
    obs, masks, info = vec.reset()
    for b in range(B):
        opp.assign(b, info["teams"][b])
    if start_update == 1 and cfg.eval_every:
        run_eval(0)
    start_time, start_step, start_cpu = time.time(), global_step, time.process_time()
    rows = np.arange(B)
    update = start_update - 1
    for update in range(start_update, num_updates + 1):
        # Annealing the rate if instructed to do so.
        if cfg.anneal_lr:
            frac = 1.0 - (update - 1.0) / num_updates
            optimizer.param_groups[0]["lr"] = frac * cfg.learning_rate
        pool_agent.load_state_dict(pool[int(rng.integers(len(pool)))])

        with torch.no_grad():
            for step in range(T):
                global_step += B
                seat = info["seat"]
                learn = opp.learner_seat[rows, seat]
                obs_buf[step] = obs
                mask_buf[step] = masks
                seat_buf[step] = seat
                learn_buf[step] = learn

                # ALGO LOGIC: action logic (learner seats through the agent, others their bots)
                actions = act_buf[step]
                li = np.flatnonzero(learn)
                if li.size:
                    x = torch.from_numpy(obs[li])
                    m = torch.from_numpy(mask_buf[step, li])
                    a, logp, _, v = agent.get_action_and_value(x, m, generator=gen)
                    actions[li] = a.numpy()
                    logp_buf[step, li] = logp.numpy()
                    val_buf[step, li] = agent.denorm(v).numpy()
                for k, kind in enumerate(kinds):
                    oi = np.flatnonzero(~learn & (opp.kind == k))
                    if not oi.size:
                        continue
                    if k == opp.pool_kind:
                        x = torch.from_numpy(obs[oi])
                        m = torch.from_numpy(mask_buf[step, oi])
                        a, _, _, _ = pool_agent.get_action_and_value(x, m, generator=gen)
                        actions[oi] = a.numpy()
                    else:
                        actions[oi] = opp.bots[kind][0].act_batch(obs[oi], masks[oi])

                # TRY NOT TO MODIFY: execute the game and log data.
                obs, masks, rewards, dones, info = vec.step(actions)
                done_buf[step] = dones
                rew_buf[step] = rewards
                game_len += 1
                for b in np.flatnonzero(dones):
                    kind = kinds[opp.kind[b]]
                    teams = info["done_teams"][b]
                    lengths_window.append(int(game_len[b]))
                    game_len[b] = 0
                    for t in (0, 1):  # win rate of the learner's team, per opponent kind
                        if kind == "self" or opp.learner_team[b] == t:
                            won = float(rewards[b][teams == t][0] > 0)
                            window[(kind, TEAM_NAMES[t])].append(won)
                    if kind != "self":
                        returns_window.append(float(rewards[b][teams == opp.learner_team[b]][0]))
                    opp.assign(b, info["teams"][b])

            # bootstrap value: each learner seat's current view, where its game goes on
            boot = np.zeros((B, n), dtype=np.float32)
            bs = np.argwhere(opp.learner_seat)
            if len(bs):
                views = np.stack([vec.observe(int(b), int(s)) for b, s in bs])
                boot[bs[:, 0], bs[:, 1]] = agent.denorm(
                    agent.get_value(torch.from_numpy(views))
                ).numpy()

        # ALGO LOGIC: GAE over each seat's own decisions, per game, scanned backwards
        adv_buf = seat_gae(
            val_buf, learn_buf, seat_buf, done_buf, rew_buf, boot, cfg.gamma, cfg.gae_lambda
        )
        ret_buf = adv_buf + val_buf

        # flatten the batch: the learner's decisions
        sel = learn_buf.reshape(-1)
        b_obs = torch.from_numpy(obs_buf.reshape(-1, vec.obs_size)[sel])
        b_masks = torch.from_numpy(mask_buf.reshape(-1, vec.action_size)[sel])
        b_actions = torch.from_numpy(act_buf.reshape(-1)[sel])
        b_logprobs = torch.from_numpy(logp_buf.reshape(-1)[sel])
        b_advantages = torch.from_numpy(adv_buf.reshape(-1)[sel])
        b_returns = torch.from_numpy(ret_buf.reshape(-1)[sel])
        b_values = torch.from_numpy(val_buf.reshape(-1)[sel])
        if cfg.norm_value:  # value normalisation: the critic learns standardised returns
            agent.ret_mean.mul_(0.99).add_(0.01 * b_returns.mean())
            var = agent.ret_std.pow(2).mul(0.99).add(0.01 * b_returns.var())
            agent.ret_std.copy_(var.sqrt().clamp(min=1e-2))
        mean, std = agent.ret_mean, agent.ret_std
        b_returns_n = (b_returns - mean) / std
        b_values_n = (b_values - mean) / std

        # Optimizing the policy and value network
        batch_size = int(sel.sum())
        b_inds = np.arange(batch_size)
        clipfracs = []
        pg_loss = v_loss = entropy_loss = old_approx_kl = approx_kl = torch.zeros(())
        for _epoch in range(cfg.update_epochs):
            rng.shuffle(b_inds)
            for mb_inds in np.array_split(b_inds, cfg.num_minibatches):
                if mb_inds.size < 2:
                    continue
                mb = torch.from_numpy(mb_inds)
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[mb], b_masks[mb], b_actions[mb]
                )
                logratio = newlogprob - b_logprobs[mb]
                ratio = logratio.exp()

                with torch.no_grad():
                    # calculate approx_kl http://joschu.net/blog/kl-approx.html
                    old_approx_kl = (-logratio).mean()
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs += [((ratio - 1.0).abs() > cfg.clip_coef).float().mean().item()]

                mb_adv = b_advantages[mb]
                if cfg.norm_adv:
                    mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)

                # Policy loss
                pg_loss1 = -mb_adv * ratio
                pg_loss2 = -mb_adv * torch.clamp(ratio, 1 - cfg.clip_coef, 1 + cfg.clip_coef)
                pg_loss = torch.max(pg_loss1, pg_loss2).mean()

                # Value loss
                if cfg.clip_vloss:
                    v_loss_unclipped = (newvalue - b_returns_n[mb]) ** 2
                    v_clipped = b_values_n[mb] + torch.clamp(
                        newvalue - b_values_n[mb], -cfg.clip_coef, cfg.clip_coef
                    )
                    v_loss_clipped = (v_clipped - b_returns_n[mb]) ** 2
                    v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
                else:
                    v_loss = 0.5 * ((newvalue - b_returns_n[mb]) ** 2).mean()

                entropy_loss = entropy.mean()
                loss = pg_loss - cfg.ent_coef * entropy_loss + v_loss * cfg.vf_coef

                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm)
                optimizer.step()

            if cfg.target_kl is not None and approx_kl > cfg.target_kl:
                break

        y_pred, y_true = b_values.numpy(), b_returns.numpy()
        var_y = np.var(y_true)
        explained_var = np.nan if var_y == 0 else 1 - np.var(y_true - y_pred) / var_y

        # TRY NOT TO MODIFY: record rewards for plotting purposes
        sps = int((global_step - start_step) / (time.time() - start_time))
        writer.add_scalar("charts/learning_rate", optimizer.param_groups[0]["lr"], global_step)
        writer.add_scalar("charts/SPS", sps, global_step)
        # steps per second of this process's own CPU time: the speed on an unshared core
        cpu_sps = int((global_step - start_step) / max(time.process_time() - start_cpu, 1e-9))
        writer.add_scalar("charts/SPS_cpu", cpu_sps, global_step)
        writer.add_scalar("charts/learner_decisions", batch_size, global_step)
        if returns_window:
            writer.add_scalar("charts/episodic_return", np.mean(returns_window), global_step)
        if lengths_window:
            writer.add_scalar("charts/episodic_length", np.mean(lengths_window), global_step)
        for (kind, team), w in window.items():
            if w:
                name = f"charts/winrate_{team}_vs_{label[kind]}"
                writer.add_scalar(name, np.mean(w), global_step)
        writer.add_scalar("losses/value_loss", v_loss.item(), global_step)
        writer.add_scalar("losses/policy_loss", pg_loss.item(), global_step)
        writer.add_scalar("losses/entropy", entropy_loss.item(), global_step)
        writer.add_scalar("losses/old_approx_kl", old_approx_kl.item(), global_step)
        writer.add_scalar("losses/approx_kl", approx_kl.item(), global_step)
        writer.add_scalar("losses/clipfrac", np.mean(clipfracs) if clipfracs else 0, global_step)
        writer.add_scalar("losses/explained_variance", explained_var, global_step)

        # snapshots for the pool, evaluation, progress and checkpoints
        if update % cfg.snapshot_every == 0:
            pool.append(copy.deepcopy(agent.state_dict()))
            del pool[: -cfg.pool_size]
        if cfg.eval_every and update % cfg.eval_every == 0:
            run_eval(update)
        if update % 10 == 0 or update == num_updates:
            wr = " ".join(
                f"{team}/{label[kind]} {np.mean(w):.2f}" for (kind, team), w in window.items() if w
            )
            log(f"update {update}/{num_updates} step {global_step} SPS {sps} win: {wr}")
        if update % cfg.checkpoint_every == 0:
            checkpoint(run_dir / "checkpoint.pt", update)

    checkpoint(run_dir / "checkpoint.pt", update)
    save_checkpoint(run_dir / "agent.pt", agent, cfg, vec)  # weights only: small, to ship
    train_sps = int((global_step - start_step) / max(time.time() - start_time, 1e-9))
    cpu_sps = int((global_step - start_step) / max(time.process_time() - start_cpu, 1e-9))

    # the final evaluation, beside the bots' own results against each other
    agent.eval()
    final = evaluate(
        PPOPolicy.from_agent(agent, cfg.seed, cfg.greedy),
        eval_bot,
        cfg.variant,
        vec.n,
        cfg.final_eval_games,
        seed=999,
        knobs=cfg.knobs,
        baseline=True,
    )
    for team, r in final.items():
        writer.add_scalar(f"eval/final_winrate_{team}_vs_{eval_name}", r["rate"], global_step)
    writer.close()
    return {
        "run_dir": str(run_dir),
        "checkpoint": str(run_dir / "checkpoint.pt"),
        "agent": str(run_dir / "agent.pt"),
        "eval_opponent": eval_name,
        "final": final,
        "curve": curve,
        "sps": train_sps,
        "cpu_sps": cpu_sps,
        "global_step": global_step,
    }


__all__ = ["Opponents", "seat_gae", "train"]
