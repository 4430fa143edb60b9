"""Masked PPO for Mafia: the training loop, top to bottom, in the manner of CleanRL's ``ppo.py``.

One network plays every seat; the seat's role is in its observation (``per_team`` gives each
team its own output heads). Many games run in lockstep (`mafia_env.vector.VectorMafia`). In
each game the learner controls some seats: all of them in self-play, else one team (chosen
per game) while an opponent plays the rest: an earlier snapshot of the learner from the pool,
or any policy `load_policy` knows (the rule-based bots, random play, the shipped PPO bot, a
checkpoint), mixed as `Config.opponents` says, or, with a ``league`` section, as the league
draws them (`baselines.ppo.league`: prioritised fictitious self-play and exploiters).

Advantages are per-seat GAE over each seat's own decisions (`baselines.ppo.rollout`, which
also holds the rollout and the clipped-PPO update that exploiters and `baselines.exploit`
reuse), then the usual clipped-PPO update with advantage normalisation, a normalised value
target, an entropy bonus and gradient clipping.

The config is `baselines.ppo.ppo_config`, the network `baselines.ppo.agent`, checkpoints and the
policy they load `baselines.ppo.checkpoint`, evaluation `baselines.ppo.evaluate` and the
imitation warm start `baselines.ppo.imitate`.
"""

from __future__ import annotations

import copy
import random
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import torch

from baselines.ppo.agent import Agent, make_agent
from baselines.ppo.checkpoint import PPOPolicy, load_weights, read_checkpoint, save_checkpoint
from baselines.ppo.curve import draw_curve
from baselines.ppo.evaluate import evaluate, opponent_policy
from baselines.ppo.imitate import imitate
from baselines.ppo.layer import config_record
from baselines.ppo.overlap import Learner
from baselines.ppo.ppo_config import Config
from baselines.ppo.rollout import Opponents, Rollout, layered, learner_layer, ppo_update
from baselines.runs import claim_dir, fresh_dir
from mafia_env.commands import progress
from mafia_env.errors import ConfigError
from mafia_env.seat_obs import vector_env


class Mixture:
    """The fixed mixture of `Config.opponents`: self, a pool of snapshots, named policies.

    The pool is one member whose weights are a snapshot drawn anew before each rollout.
    """

    def __init__(self, cfg: Config, n: int, B: int, rng: np.random.Generator, agent: Agent):
        self.cfg, self.rng = cfg, rng
        self.opp = Opponents.of_config(cfg, n, B, rng)
        self.pool: list[dict[str, torch.Tensor]] = []  # earlier snapshots of the agent's weights
        self.pool_agent = copy.deepcopy(agent)
        for name, w in cfg.opponents.items():
            if w <= 0:
                continue
            if name == "self":
                self.opp.add("self", None, w)
            elif name == "pool":
                pool = PPOPolicy.from_agent(self.pool_agent, cfg.seed)
                self.opp.add("pool", layered(cfg, pool, cfg.seed), w)
            else:  # "rule" is logged as "random" where no rule bot is installed
                policy, label = opponent_policy(name, cfg.variant, n, cfg.seed)
                self.opp.add(label if label not in self.opp.players else name, policy, w)

    def start(self, agent: Agent) -> None:
        """The pool starts with the agent as it begins PPO."""
        if not self.pool:
            self.pool.append(copy.deepcopy(agent.state_dict()))

    def before_rollout(self) -> None:
        self.pool_agent.load_state_dict(self.pool[int(self.rng.integers(len(self.pool)))])

    def after_update(self, update: int, agent: Agent, writer: Any, step: int, log: Any) -> None:
        if update % self.cfg.snapshot_every == 0:
            self.pool.append(copy.deepcopy(agent.state_dict()))
            del self.pool[: -self.cfg.pool_size]

    def state(self) -> dict[str, Any]:
        return {"pool": self.pool}

    def load_state(self, ckpt: dict[str, Any]) -> None:
        self.pool = ckpt.get("pool", [])


def make_opponents(cfg: Config, n: int, B: int, rng: np.random.Generator, agent: Agent) -> Any:
    """The league where the config has one, else the fixed mixture."""
    if cfg.league is None:
        return Mixture(cfg, n, B, rng, agent)
    from baselines.ppo.league import League

    return League(cfg, n, B, rng, agent)


def init_path(name: str, variant: str, num_players: int | None) -> Path:
    """Return the checkpoint `Config.init_weights` names: a shipped kind (``ppo``,
    ``league``, ``league_v2``: that bot's file for the variant and table size) or a path."""
    from baselines.shipped import SHIPPED_FOLDERS, shipped_checkpoint

    path = shipped_checkpoint(variant, num_players, name) if name in SHIPPED_FOLDERS else Path(name)
    if not path.exists():
        raise ConfigError(
            f"init_weights: no checkpoint at {path} (give {', '.join(SHIPPED_FOLDERS)} or a file)"
        )
    return path


def run_folder(cfg: Config, resume: str | Path | None = None, force: bool = False) -> Path:
    """Return the folder the run writes: a resumed run's own (the checkpoint's folder, where
    a run wrote its TensorBoard events beside it); else ``run_dir/<run_name>``, or ``-2``,
    ``-3``, ... after it where an earlier run is there (`baselines.runs.fresh_dir`; `force`:
    that folder, emptied when the run starts writing). A checkpoint outside a run's folder
    (a shipped file, a copy) is read, never written beside."""
    if resume is not None and any(Path(resume).parent.glob("events.out.tfevents.*")):
        return Path(resume).parent
    return fresh_dir(Path(cfg.run_dir) / cfg.run_name(), force)


def open_writer(run_dir: Path, cfg: Config, force: bool = False) -> Any:
    """Make the run's folder (`force`: emptied first) and its TensorBoard writer, the
    hyperparameters logged."""
    from torch.utils.tensorboard import SummaryWriter

    claim_dir(run_dir, force)
    writer = SummaryWriter(str(run_dir))
    writer.add_text(
        "hyperparameters",
        "|param|value|\n|-|-|\n" + "\n".join(f"|{k}|{v}|" for k, v in asdict(cfg).items()),
    )
    return writer


def train(
    cfg: Config,
    resume: str | Path | None = None,
    log: Any = print,
    force: bool = False,
) -> dict[str, Any]:
    """Train as `cfg` says; return the run's paths, final evaluation and learning curve.

    The run writes a new folder (`run_folder`): an earlier run's is never overwritten unless
    `force`; nothing is written before the config, the checkpoint to resume and the starting
    weights have been read."""
    run_dir = run_folder(cfg, resume, force)

    # TRY NOT TO MODIFY: seeding
    random.seed(cfg.seed)
    np.random.seed(cfg.seed)
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.torch_threads)
    gen = torch.Generator().manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)

    # env setup
    vec = vector_env(cfg.variant, cfg.num_envs, cfg.num_players, seed=cfg.seed, **cfg.vec_knobs())
    B, T, n = cfg.num_envs, cfg.num_steps, vec.n

    agent = make_agent(cfg, vec.obs_size, vec.action_size)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.learning_rate, eps=1e-5, fused=True)
    # with ``pipeline: overlap`` the updates run in a second process while the next rollout
    # plays (`baselines.ppo.overlap`); it boots meanwhile, and stops when training does (on
    # errors and Ctrl-C too)
    per_update = B * T // cfg.rollout_groups  # one group's rollout an update
    learner = Learner(agent, cfg, per_update, cfg.seed + 1) if cfg.pipeline == "overlap" else None
    try:
        num_updates = max(1, cfg.total_timesteps // per_update)
        start_update, global_step = 1, 0
        curve: list[dict[str, Any]] = []  # the evaluations during training
        returns: list[tuple[int, float]] = []  # (step, the learner's mean episodic return)
        opponents = make_opponents(cfg, n, B, rng, agent)
        if resume is not None:
            ckpt = read_checkpoint(resume, cfg.variant, vec.n, cfg.obs_options())
            agent.load_state_dict(ckpt["model"])
            if "optimizer" in ckpt:
                optimizer.load_state_dict(ckpt["optimizer"])
            start_update = ckpt.get("update", 0) + 1
            global_step = ckpt.get("global_step", 0)
            opponents.load_state(ckpt)
            curve = ckpt.get("curve", [])
            log(f"resumed from {resume} at update {start_update - 1}, step {global_step}")
        elif cfg.init_weights is not None:
            path = init_path(cfg.init_weights, cfg.variant, cfg.num_players)
            try:
                ckpt = read_checkpoint(path, cfg.variant, vec.n)
                widened = load_weights(agent, ckpt, path, True, vec.obs_layout)
            except ConfigError as e:
                raise ConfigError(
                    f"init_weights: {e} (hidden_size {cfg.hidden_size}, per_team {cfg.per_team})"
                ) from None
            log(
                f"starting from the weights of {path}"
                + (" (input widened by the belief piece, zero weights)" if widened else "")
            )
        if run_dir.parent == Path(cfg.run_dir) and run_dir.name != cfg.run_name():
            log(f"{cfg.run_dir}/{cfg.run_name()} holds an earlier run: this one writes {run_dir}")
        resumed_here = resume is not None and run_dir == Path(resume).parent
        writer = open_writer(run_dir, cfg, force and not resumed_here)  # every check is behind us
        if (
            resume is None
            and cfg.imitate_steps
            and (cfg.init_weights is None or cfg.imitate_after_init)
        ):
            teacher, name = opponent_policy(cfg.imitate_teacher, cfg.variant, n, cfg.seed)
            teachers = {
                opp: opponent_policy(t, cfg.variant, n, cfg.seed + 3)[0]
                for opp, t in cfg.imitate_teachers.items()
            }
            against = ", ".join(f"{k} {w:g}" for k, w in cfg.imitate_opponents.items())
            log(
                f"imitating the {name} bots over {cfg.imitate_steps} decisions"
                + (f" against {against}" if against else "")
                + "".join(f"; vs {o}: {t}'s moves" for o, t in cfg.imitate_teachers.items())
            )
            imitate(agent, cfg, teacher, log, writer, teachers)
        opponents.start(agent)
        eval_bot, eval_name = opponent_policy(cfg.eval_opponent, cfg.variant, n, cfg.seed + 1)
        if eval_name != cfg.eval_opponent:
            log("no rule-based bots are installed: evaluating against random instead")

        def as_played(seed: int) -> Any:
            """The agent as it plays once saved: under the run's layer, if any (`layered`)."""
            return layered(cfg, PPOPolicy.from_agent(agent, seed, cfg.greedy), seed)

        def run_eval(update: int) -> None:
            """Evaluate the agent against `eval_bot` as each team; log and keep the point."""
            agent.eval()
            res = evaluate(
                as_played(cfg.seed + update),
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
            draw_curve(run_dir, curve, returns, eval_name, run_dir.name)
            log(
                f"eval @ step {global_step}: town {res['town']['rate']:.3f}, "
                f"mafia {res['mafia']['rate']:.3f} vs {eval_name} ({cfg.eval_games} games each)"
            )

        def checkpoint(path: Path, update: int) -> None:
            """Save everything a resumed run needs: weights, optimizer, opponents, step, curve."""
            if learner is not None:  # the optimizer's state is the learner process's
                optimizer.load_state_dict(learner.optimizer_state())
            state = {
                "optimizer": optimizer.state_dict(),
                "update": update,
                "global_step": global_step,
                "curve": curve,
                **opponents.state(),
            }
            save_checkpoint(path, agent, cfg, vec, {**state, **config_record(cfg)})

        # TRY NOT TO MODIFY: start the game (the rollout keeps every game's acting seat each step)
        rollout = Rollout(vec, T, opponents.opp, learner_layer(cfg), cfg.rollout_groups)
        if start_update == 1 and cfg.eval_every:
            run_eval(0)
        if learner is not None:  # the weights and the optimizer as PPO begins
            learner.begin(agent, optimizer)
        start_time, start_step, start_cpu = time.time(), global_step, time.process_time()

        def cpu_seconds() -> float:
            """This process's CPU time since the loop began, and the learner process's."""
            return time.process_time() - start_cpu + (0.0 if learner is None else learner.cpu)

        update = start_update - 1
        bar = progress(num_updates - start_update + 1, "PPO", "update")
        for update in range(start_update, num_updates + 1):
            # Annealing the rate if instructed to do so.
            if cfg.anneal_lr:
                frac = 1.0 - (update - 1.0) / num_updates
                optimizer.param_groups[0]["lr"] = frac * cfg.learning_rate
            opponents.before_rollout()

            # ALGO LOGIC: lockstep games, the learner's seats through the agent, the others
            # through their bots
            global_step += rollout.collect(agent, gen)

            # ALGO LOGIC: GAE over each seat's own decisions, then the clipped-PPO update
            data = rollout.batch(cfg.gamma, cfg.gae_lambda)
            if learner is None:  # (staggered groups: rows of earlier weights, as the overlap's)
                lagged = cfg.rollout_groups > 1
                done = [ppo_update(agent, optimizer, data, cfg, rng, proximal=lagged)]
            else:  # the agent takes the last update's weights; this batch's update starts
                done = [learner.result()]
                learner.submit(data, optimizer.param_groups[0]["lr"])
                # an evaluation, a checkpoint and the end read the weights after this update
                if (
                    update == num_updates
                    or update % cfg.checkpoint_every == 0
                    or (cfg.eval_every and update % cfg.eval_every == 0)
                ):
                    done.append(learner.result())

            # TRY NOT TO MODIFY: record rewards for plotting purposes
            sps = int((global_step - start_step) / (time.time() - start_time))
            lr = optimizer.param_groups[0]["lr"]
            writer.add_scalar("charts/learning_rate", lr, global_step)
            writer.add_scalar("charts/SPS", sps, global_step)
            # steps per CPU second (both processes' with the overlap): the speed on unshared
            # cores, one process's; wall clock is the fair figure for two processes
            cpu_sps = int((global_step - start_step) / max(cpu_seconds(), 1e-9))
            writer.add_scalar("charts/SPS_cpu", cpu_sps, global_step)
            if rollout.returns:
                writer.add_scalar("charts/episodic_return", np.mean(rollout.returns), global_step)
                returns.append((global_step, float(np.mean(rollout.returns))))
            if rollout.lengths:
                writer.add_scalar("charts/episodic_length", np.mean(rollout.lengths), global_step)
            for (member, team), w in opponents.opp.windows.items():
                if w:
                    writer.add_scalar(f"charts/winrate_{team}_vs_{member}", np.mean(w), global_step)
            for losses in filter(None, done):  # with the overlap, the updates finished since
                writer.add_scalar("charts/learner_decisions", losses.pop("batch_size"), global_step)
                for name, value in losses.items():
                    writer.add_scalar(f"losses/{name}", value, global_step)

            # snapshots (and, in a league, exploiters), evaluation, progress and checkpoints
            opponents.after_update(update, agent, writer, global_step, log)
            if cfg.eval_every and update % cfg.eval_every == 0:
                run_eval(update)
            if update % 10 == 0 or update == num_updates:
                wr = " ".join(
                    f"{team}/{member} {np.mean(w):.2f}"
                    for (member, team), w in opponents.opp.windows.items()
                    if w
                )
                log(f"update {update}/{num_updates} step {global_step} SPS {sps} win: {wr}")
            if update % cfg.checkpoint_every == 0:
                checkpoint(run_dir / "checkpoint.pt", update)
            bar.update(1)
            bar.set_postfix_str(f"step {global_step:,}, {sps:,} steps/s")
        bar.close()
        # the loop's speed (the final checkpoint and the learner's shutdown not counted)
        train_sps = int((global_step - start_step) / max(time.time() - start_time, 1e-9))
        cpu_sps = int((global_step - start_step) / max(cpu_seconds(), 1e-9))
        checkpoint(run_dir / "checkpoint.pt", update)
    finally:
        if learner is not None:
            learner.close()

    # weights only: small, to ship; with the layer it plays under (`baselines.ppo.layer`)
    save_checkpoint(run_dir / "agent.pt", agent, cfg, vec, config_record(cfg))

    # the final evaluation, beside the bots' own results against each other
    log(f"final evaluation: {cfg.final_eval_games} games a team vs {eval_name}, and theirs")
    agent.eval()
    final = evaluate(
        as_played(cfg.seed),
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
    picture = draw_curve(run_dir, curve, returns, eval_name, run_dir.name)
    if picture is None:
        log("no learning-curve picture: it needs matplotlib (pip install 'mafia-env[train]')")
    return {
        "run_dir": str(run_dir),
        "checkpoint": str(run_dir / "checkpoint.pt"),
        "agent": str(run_dir / "agent.pt"),
        "curve_png": None if picture is None else str(picture),
        "eval_opponent": eval_name,
        "final": final,
        "curve": curve,
        "sps": train_sps,
        "cpu_sps": cpu_sps,
        "global_step": global_step,
    }


__all__ = ["Mixture", "make_opponents", "open_writer", "run_folder", "train"]
