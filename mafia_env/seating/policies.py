"""The `Policy` protocol every agent implements, and the registry `load_policy` reads.

A policy chooses one action index from what an agent sees: an observation and the action
mask. It may also have

- ``seed(s)``: restart its randomness (seeded resets call it);
- ``observes``: ``"vector"`` (the default: the float vector, read through the variant's
  named views, `mafia_env.observe.ObsLayout`) or ``"text"`` (what the moderator told the
  seat, and the legal actions as a numbered list: `mafia_env.text`), so that one table can
  seat a language model beside vector bots (`mafia_env.seating.games` gives each seat its kind),
  or ``"infoset"`` (`mafia_env.seating.games.InfoSet`: the seat's vector observation and a way to
  draw games it cannot tell from the real one, for search bots);
- ``probs(obs, mask)`` / ``probs_batch(obs, masks)``: the probability of every action (a
  row per observation, summing to 1 over the legal ones), for the Bayesian belief
  (`mafia_env.belief`), which weighs deals by how likely the model makes what was played.
  A policy with only ``act`` is read by `action_probs` as certain of its choice (a point
  mass on what ``act`` returns; the belief mixes every model with a little uniform play).
  ``uniform = True`` tells the belief that the probabilities are uniform over the legal
  actions whatever the observation (the random policy), which it can use exactly.

Names are registered: ``random`` is built in; other packages add theirs, either by calling
`register_policy` or through the ``mafia_env.policies`` entry point group, read the first time
an unknown name is asked for::

    [project.entry-points."mafia_env.policies"]
    rule = "baselines.rule:RulePolicy"

A factory is called as ``factory(variant=..., num_players=..., seed=..., **options)``, with
`variant` the variant's name. A factory that takes a ``spec`` keyword is given the table's
spec too (``spec=``, a `mafia_env.engine.spec.GameSpec`: the rules in force with every knob,
the size, the observation options), so that it plays the table it sits at: `load_policy`
takes the table's spec, its rules or a variant name as `variant` (``load_policy("rule",
env.unwrapped.spec)``). A path to a file or directory is loaded by the policy registered as
``checkpoint`` (``path=...``). `mafia_env` itself never imports a package of agents.
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np

from mafia_env.engine.rules import Rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError, missing_extra

ENTRY_POINTS = "mafia_env.policies"
Observes = Literal["vector", "text", "infoset"]
OBSERVES: tuple[str, ...] = ("vector", "text", "infoset")


@runtime_checkable
class Policy(Protocol):
    """Chooses actions from observations and masks."""

    def act(self, obs: Any, mask: np.ndarray) -> int:
        """Return one legal action index for one observation."""
        ...

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Return one legal action index per row of `obs` / `masks`."""
        ...


def observes(policy: Any) -> str:
    """Return which observation `policy` takes: "vector" (the default), "text" or "infoset"."""
    kind = getattr(policy, "observes", "vector")  # optional in the protocol
    if kind not in OBSERVES:
        raise ConfigError(
            f"{type(policy).__name__}.observes is {kind!r}; a policy observes "
            + " or ".join(map(repr, OBSERVES))
        )
    return kind


def reseed(policy: Any, seed: int) -> None:
    """Restart `policy`'s randomness with `seed`, if it has any (`seed` is optional)."""
    restart = getattr(policy, "seed", None)
    if callable(restart):
        restart(seed)


class RandomPolicy:
    """Uniform over the legal actions; seeded, so games replay."""

    observes = "vector"
    uniform = True  # its probabilities do not depend on the observation

    def __init__(self, variant: str = "sport", num_players: int | None = None, seed: int = 0):
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the policy's random stream."""
        self.rng = np.random.default_rng(seed)

    def act(self, obs: Any, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("the mask allows no action")
        return int(legal[self.rng.integers(legal.size)])

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        # uniform choice per row: random keys, the legal ones lifted above every illegal one
        keys = self.rng.random(masks.shape) + (masks > 0)
        return keys.argmax(axis=1)

    def probs(self, obs: Any, mask: np.ndarray) -> np.ndarray:
        return self.probs_batch(None, np.asarray(mask)[None])[0]

    def probs_batch(self, obs: Any, masks: np.ndarray) -> np.ndarray:
        legal = (np.asarray(masks) > 0).astype(np.float64)
        return legal / legal.sum(axis=1, keepdims=True)


def action_probs(policy: Any, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Return `policy`'s probability of every action for each row of `obs` / `masks`.

    Read from ``probs_batch`` or ``probs`` where the policy has them; a policy with only
    ``act`` / ``act_batch`` is taken as certain of the action it returns (one call a row).
    """
    masks = np.asarray(masks)
    batch = getattr(policy, "probs_batch", None)
    if callable(batch):
        return np.asarray(batch(obs, masks), dtype=np.float64)
    one = getattr(policy, "probs", None)
    if callable(one):
        rows = zip(obs, masks, strict=True)
        return np.stack([np.asarray(one(o, m), dtype=np.float64) for o, m in rows])
    act_batch = getattr(policy, "act_batch", None)
    if callable(act_batch):
        acts = np.asarray(act_batch(obs, masks))
    else:
        acts = np.array([policy.act(o, m) for o, m in zip(obs, masks, strict=True)])
    out = np.zeros(masks.shape, dtype=np.float64)
    out[np.arange(len(masks)), acts] = 1.0
    return out


PolicyFactory = Callable[..., Policy]
_REGISTRY: dict[str, PolicyFactory] = {"random": RandomPolicy}
_PLUGINS_READ: set[str] = set()


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make `load_policy(name, ...)` call `factory(variant=, num_players=, seed=, **options)`."""
    if not isinstance(name, str) or not name:
        raise ConfigError(f"a policy name is a non-empty string; got {name!r}")
    _REGISTRY[name] = factory


def _plugins() -> dict[str, Any]:
    """Return the entry points of the ``mafia_env.policies`` group, by name: read once for
    each `sys.path` (a read scans every installed distribution's metadata, some 15 ms with
    the extras installed, and a config's check asks for each opponent it names)."""
    return _plugins_on(tuple(sys.path))


@functools.lru_cache(maxsize=4)
def _plugins_on(path: tuple[str, ...]) -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINTS)}


def _factory(name: str) -> PolicyFactory | None:
    """Return the factory registered as `name`, reading its entry point the first time."""
    factory = _REGISTRY.get(name)
    if factory is None and name not in _PLUGINS_READ:
        _PLUGINS_READ.add(name)
        ep = _plugins().get(name)
        if ep is not None:
            try:
                loaded = ep.load()
            except Exception as e:  # the plugin's package is broken or half installed
                raise ConfigError(f"policy {name!r} ({ep.value}) cannot be loaded: {e}") from e
            factory = _REGISTRY.setdefault(name, loaded)
    return factory


def policy_names() -> list[str]:
    """Return every policy name `load_policy` knows: registered, and offered by entry points."""
    return sorted(set(_REGISTRY) | set(_plugins()))


def takes_spec(factory: Any) -> bool:
    """Whether `factory` takes the table's spec (a ``spec`` keyword parameter)."""
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin or a callable without a signature
        return False
    p = params.get("spec")
    return p is not None and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)


def load_policy(
    name: str | Path,
    variant: str | Rules | GameSpec = "sport",
    num_players: int | None = None,
    seed: int = 0,
    **options: Any,
) -> Policy:
    """Return a policy by name ("random", "rule", "ppo", ...) or by a checkpoint's path.

    `variant` is the table's spec (`GameSpec`, as ``env.unwrapped.spec``: the bot reads the
    rules in force, knobs and all), its `Rules`, or a variant's name (its default rules).
    """
    spec = GameSpec.make(variant, num_players)  # a bad variant or size is a ConfigError here
    # the size as the caller fixed it: a spec or rules fix it, a bare name leaves it open
    n = num_players if isinstance(variant, str) else spec.n
    key = str(name)
    factory = _factory(key)
    if factory is not None:
        return _call(factory, spec, n, seed, options, f"the policy {key!r}")
    path = Path(key)
    if path.exists():
        loader = _factory("checkpoint")
        if loader is None:
            raise ConfigError(
                f"cannot load checkpoint {path}: no checkpoint loader is installed "
                "(install the 'train' extra)"
            )
        return _call(loader, spec, n, seed, {"path": path, **options}, f"checkpoint {path}")
    family, colon, _ = key.partition(":")
    kin = [p for p in policy_names() if colon and p.startswith(family + ":")]
    if kin:  # a family of names (the zoo's style:<name>): name its members
        raise ConfigError(f"unknown policy {key!r}; the {family}: policies are: {', '.join(kin)}")
    raise ConfigError(
        f"unknown policy {key!r}: not a policy name ({', '.join(policy_names())}) "
        "and no file at that path"
    )


def _call(
    factory: PolicyFactory, spec: GameSpec, n: int | None, seed: int, options: dict, what: str
) -> Policy:
    """Build the policy; a module of an extra that is missing is a one-line error naming it."""
    if takes_spec(factory):
        options = {**options, "spec": spec}
    try:
        return factory(variant=spec.rules.name, num_players=n, seed=seed, **options)
    except ImportError as e:
        raise missing_extra(e, what) from None


__all__ = [
    "OBSERVES",
    "Policy",
    "PolicyFactory",
    "RandomPolicy",
    "action_probs",
    "load_policy",
    "observes",
    "policy_names",
    "register_policy",
    "reseed",
    "takes_spec",
]
