"""Seat policies at a table and play games: the one loop every caller shares.

The terminal (`mafia_env.seating.terminal`), the single-agent view (`mafia_env.single`), evaluation,
the benchmark, RLlib's match and PPO's evaluation seat their policies here.

- `Seating`: who plays each seat: a policy by seat number, by team (the deal changes every
  game), else a default. ``None`` marks a seat the caller plays itself (a person, a learner).
- `observation`: a seat's observation of the kind its policy takes (`Policy.observes`:
  ``"vector"``, ``"text"`` or ``"infoset"``), so that a language model, vector bots and
  search bots share a table.
- `InfoSet` (`mafia_env.infoset`): what a search bot gets: the seat's vector observation and
  `sample(rng)`, games the seat cannot tell from the real one, never the real game.
- `default_action`: what the rules do for the acting seat when it does nothing (a timeout,
  a crashed bot, a person who left).
- `ask`, `choose`: the acting seat's move from its policy (a policy may hand the move to its
  backup: `mafia_env.text.Defer`), optionally with the default move when the policy fails
  or picks an illegal action; `speak`: the table talk a policy added to a speech act.
- `play_until`, `play_game`: move by move through the AEC env.
- `play_games`: many games in lockstep through `mafia_env.vector.VectorMafia`, each policy
  asked once per step for all its rows (``act_batch``): evaluation at training speed.

A server with its own event loop (the table) reads a seat's policy from
`Seating.players`, asks it through `choose` in a worker thread, and falls back on
`default_action` when the turn's time runs out.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from mafia_env.engine.events import OUTCOME_NAMES, TALK_LIMIT
from mafia_env.engine.roles import TEAM_NAMES
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.infoset import InfoSet
from mafia_env.seating.policies import Policy, load_policy, observes
from mafia_env.text import Defer

log = logging.getLogger(__name__)


class Seating:
    """Who plays each seat of a table.

    ``seats`` maps seat numbers (1..n) to policies, ``teams`` team names ("town", "mafia",
    "maniac") to policies, and `default` plays every other seat. A seat takes its seat's
    policy, else its team's in this game's deal, else the default; ``None`` in ``seats`` (or
    as the default) leaves a seat to the caller.
    """

    def __init__(
        self,
        default: Policy | None = None,
        seats: Mapping[int, Policy | None] | None = None,
        teams: Mapping[str, Policy] | None = None,
    ):
        self.default = default
        self.seats = dict(seats or {})
        self.teams = dict(teams or {})
        bad = sorted(set(self.teams) - set(TEAM_NAMES))
        if bad:
            raise ConfigError(f"unknown teams {bad}; teams are: {', '.join(TEAM_NAMES)}")
        for policy in self.policies():  # a wrong policy is an error now, not mid-game
            if not callable(getattr(policy, "act", None)):
                raise ConfigError(
                    f"a seat's policy must have act(obs, mask) (the Policy protocol); "
                    f"got {policy!r}"
                )
            observes(policy)

    @classmethod
    def load(
        cls,
        default: str | Policy | None = "random",
        seats: Mapping[int, str | Policy | None] | None = None,
        *,
        variant: str | GameSpec = "sport",
        num_players: int | None = None,
        seed: int = 0,
        **options: Any,
    ) -> Seating:
        """Seat a policy on every seat: `seats` where given, else `default`.

        A name is loaded (`mafia_env.seating.policies.load_policy`) once per seat it plays, seat k
        seeded ``seed + k - 1``, so that two bots of one kind do not share a random stream;
        a policy object is seated as it is.
        """
        table = GameSpec.make(variant, num_players)  # a name, `Rules` or the table's spec
        n = table.n
        seats = dict(seats or {})
        bad = sorted(k for k in seats if not (type(k) is int and 1 <= k <= n))
        if bad:
            raise ConfigError(f"seats are numbers 1..{n}; got {bad}")
        chosen = {k: seats.get(k, default) for k in range(1, n + 1)}
        return cls(
            seats={
                k: load_policy(p, table, seed=seed + k - 1, **options)
                if isinstance(p, str | os.PathLike)
                else p
                for k, p in chosen.items()
            }
        )

    def policy(self, seat: int, team: str) -> Policy | None:
        """Return the policy of seat number `seat`, whose team in this game is `team`."""
        if seat in self.seats:
            return self.seats[seat]
        return self.teams.get(team, self.default)

    def players(self, game: Any) -> list[Policy | None]:
        """Return every seat's policy for `game`'s deal, by seat index (seat number - 1)."""
        return [self.policy(s + 1, TEAM_NAMES[t]) for s, t in enumerate(game.teams)]

    def policies(self) -> list[Policy]:
        """Return the policies seated: the default, then by seat, then by team."""
        every = [self.default, *self.seats.values(), *self.teams.values()]
        return [p for p in every if p is not None]


# ------------------------------------------------------------------ one move


def observation(env: Any, seat: int, kind: str = "vector") -> tuple[Any, np.ndarray]:
    """Return seat index `seat`'s observation of `kind` ("vector", "text", "infoset") and its
    mask."""
    u = env.unwrapped
    agent = u.possible_agents[seat]
    o = env.observe(agent)
    if u.obs_mode == "flat":  # the vector alone; the mask is in infos
        o = {"observation": o, "action_mask": u.infos[agent]["action_mask"]}
    mask = o["action_mask"]
    if kind == u.obs_mode or (kind == "vector" and u.obs_mode == "flat"):
        return o["observation"], mask
    if kind == "text":
        return u.text_observer.observe(u.game, seat, mask), mask
    vector = u.observer.observe(u.game, seat)
    if kind == "infoset":
        return InfoSet(u.game, seat, vector), mask
    return vector, mask


def default_action(env: Any) -> int:
    """Return the acting seat's default move (a pass where it may pass) as an action index."""
    u = env.unwrapped
    return u.layout.encode(*u.game.default_action())


def ask(env: Any, seat: int, policy: Policy) -> int:
    """Return `policy`'s move for seat index `seat`, from the observation it takes.

    A policy that hands its move on (`mafia_env.text.Defer`: a language model's fallback to
    the rule bot) has the other policy asked, with that policy's own observation.
    """
    obs, mask = observation(env, seat, observes(policy))
    u = env.unwrapped
    if observes(policy) == "vector" and (getattr(policy, "obs_options", None) or u.spec.obs):
        from mafia_env.seat_obs import extend  # the layout the policy reads (the belief piece)

        obs = extend(policy, obs, u.game, seat, u.spec)
    try:
        return policy.act(obs, mask)
    except Defer as d:
        other, _ = observation(env, seat, observes(d.policy))
        return d.policy.act(other, mask)


def speak(env: Any, seat: int, policy: Policy) -> None:
    """Say the table talk `policy` added to its last move (``policy.talk``), in a speech.

    Talk outside a speech (a model that says something with its vote) is dropped.
    """
    text = getattr(policy, "talk", None)
    if not text:
        return
    u = env.unwrapped
    agent = u.possible_agents[seat]
    if u.may_talk(agent):
        u.say(agent, text[:TALK_LIMIT])


def choose(env: Any, seat: int, policy: Policy, fallback: bool = False) -> int:
    """Return the move of `policy` for the acting seat index `seat`.

    With `fallback`, a policy that raises or picks an action outside the mask gets the
    rule's default move instead (logged), as a table does for a broken bot; without it, the
    error is the caller's.
    """
    if not fallback:
        return ask(env, seat, policy)
    mask = env.unwrapped._legal_mask()
    try:
        index = int(ask(env, seat, policy))
    except Exception:
        log.exception("the policy of seat %d failed: the default move instead", seat + 1)
        return default_action(env)
    if not (0 <= index < mask.size and mask[index]):
        log.warning("the policy of seat %d chose illegal action %r", seat + 1, index)
        return default_action(env)
    return index


# ------------------------------------------------------------- one game, in turn


def play_until(
    env: Any,
    players: Sequence[Policy | None],
    fallback: bool = False,
    watch: Callable[[Any], None] | None = None,
) -> int | None:
    """Let the seated policies move until a seat without one acts or the game ends.

    `players` holds a policy per seat index (`Seating.players`). Return the seat index
    whose turn it is, or None once the game is over. `watch(env)` is called before each
    move (a terminal prints the narration so far).
    """
    u = env.unwrapped
    game, agents = u.game, u.possible_agents
    plain = [  # the env's own vector observation is the one the policy reads
        p is not None
        and not fallback
        and observes(p) == u.obs_mode == "vector"
        and not (getattr(p, "obs_options", None) or u.spec.obs)
        for p in players
    ]
    while not game.over:
        if watch is not None:
            watch(env)
        seat = game.actor
        policy = players[seat]
        if policy is None:
            return seat
        if plain[seat]:  # the common case, inline: the env's own observation, no fallback
            o = env.observe(agents[seat])
            env.step(policy.act(o["observation"], o["action_mask"]))
        else:
            index = choose(env, seat, policy, fallback)
            speak(env, seat, policy)
            env.step(index)
    return None


def play_game(
    env: Any,
    seating: Seating,
    seed: int | None = None,
    fallback: bool = False,
    watch: Callable[[Any], None] | None = None,
) -> Any:
    """Reset `env` with `seed`, play one game with `seating`; return the finished game."""
    env.reset(seed=seed)
    game = env.unwrapped.game
    players = seating.players(game)
    if None in players:
        seat = players.index(None) + 1
        raise ConfigError(f"seat {seat} has no policy: seat one there or give a default")
    play_until(env, players, fallback, watch)
    return game


# ---------------------------------------------------------- many games, together


def play_games(
    variant: str,
    num_players: int | None,
    seating: Seating,
    games: int,
    seed: int = 0,
    num_envs: int = 64,
    knobs: Mapping[str, Any] | None = None,
) -> dict[str, int]:
    """Play `games` games in lockstep; return how many each outcome ("town", "draw") took.

    Slot i of ``min(num_envs, games)`` plays the games of an AEC env reset with ``seed + i``
    (`mafia_env.vector`). The games counted are the first `games` dealt, each played to its
    end, so short games are not favoured. Each step asks every policy once for all the rows
    it plays: seat policies, then team policies in their order, then the default.
    """
    from mafia_env.vector import VectorMafia

    for p in seating.policies():
        if observes(p) != "vector":
            raise ConfigError(
                f"play_games steps vector observations; {type(p).__name__} observes "
                f"{observes(p)!r}: play it with play_game"
            )
    from mafia_env.seat_obs import rows as seat_rows
    from mafia_env.seat_obs import union

    # one value per observation option; the belief piece comes from the Python engine's games
    backend = "python" if union(seating.policies()) else "auto"
    vec = VectorMafia(
        variant, min(num_envs, games), num_players, seed=seed, backend=backend, **dict(knobs or {})
    )
    obs, masks, info = vec.reset()
    groups: list[tuple[str, int, Policy | None]] = [
        *(("seat", k - 1, p) for k, p in seating.seats.items()),
        *(("team", TEAM_NAMES.index(t), p) for t, p in seating.teams.items()),
    ]
    counts = dict.fromkeys(OUTCOME_NAMES, 0)
    started = vec.num_envs
    active = np.ones(vec.num_envs, dtype=bool)  # slots whose current game counts
    actions = np.zeros(vec.num_envs, dtype=np.int64)
    finished = 0
    while finished < games:
        rest = np.ones(vec.num_envs, dtype=bool)
        for by, key, policy in groups:
            rows = rest & ((info["seat"] if by == "seat" else info["team"]) == key)
            rest &= ~rows
            if rows.any():
                x = (
                    obs[rows]
                    if policy is None
                    else seat_rows(policy, vec, obs, np.flatnonzero(rows))
                )
                actions[rows] = _batch(policy, x, masks[rows])
        if rest.any():
            p = seating.default
            x = obs[rest] if p is None else seat_rows(p, vec, obs, np.flatnonzero(rest))
            actions[rest] = _batch(p, x, masks[rest])
        obs, masks, _, dones, info = vec.step(actions)
        for b in np.flatnonzero(dones):
            if active[b]:
                counts[OUTCOME_NAMES[info["winner"][b]]] += 1
                finished += 1
            if started < games:
                started += 1
            else:
                active[b] = False
    return counts


def _batch(policy: Policy | None, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    if policy is None:
        raise ConfigError("play_games needs a policy on every seat: give a default")
    return policy.act_batch(obs, masks)


__all__ = [
    "InfoSet",
    "Seating",
    "ask",
    "choose",
    "default_action",
    "observation",
    "play_game",
    "play_games",
    "play_until",
    "speak",
]
