"""The fixed policy layer a network plays under, recorded in its checkpoint.

A run with ``learner_layer`` (`Config.learner_layer`: ``belief_talk``) trains its network
under a layer that decides some of the moves played (`baselines.belief_talk.BeliefTalk`).
The trainer records that layer in the files it writes (``agent.pt``, ``checkpoint.pt``) under
the key ``"layer"``: ``{"name": "belief_talk", "options": {"fallback": "vouch", ...}}``.
Loaded as a policy (``load_policy("runs/x/agent.pt", ...)``, the shipped kinds, the
benchmark), a network with a record plays under its layer with those options; one without
plays alone, as before the record.

A file written before the record, or one to play under another layer, is stamped with
`baselines.ppo.stamp.stamp_layer`, or from the shell with ``python -m baselines.ppo.stamp``.
"""

from __future__ import annotations

from typing import Any

from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError

LAYER_KEY = "layer"  # a checkpoint's record of the layer its network plays under


def layer_record(name: str, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of a layer (checked: `check_layer`): ``{"name": ..., "options": {...}}``."""
    record = {"name": name, "options": dict(options or {})}
    check_layer(record)
    return record


def config_record(cfg: Any) -> dict[str, Any]:
    """The checkpoint keys that record a run's layer (`Config.learner_layer`; none: {})."""
    if cfg.learner_layer == "none":
        return {}
    return {LAYER_KEY: layer_record(cfg.learner_layer, cfg.learner_layer_options)}


def check_layer(record: Any, where: str = "the layer record") -> tuple[str, dict[str, Any]]:
    """Return a record's (name, options); a ConfigError says what is wrong with a bad one.

    The name is one of `LEARNER_LAYERS`, the options those a run's ``learner_layer_options``
    may hold (`Config.check_layer`)."""
    from baselines.ppo.ppo_config import LEARNER_LAYERS, Config

    shape = "a record is {'name': NAME, 'options': {OPTION: VALUE, ...}}, NAME one of " + ", ".join(
        LEARNER_LAYERS
    )
    if not isinstance(record, dict) or set(record) != {"name", "options"}:
        raise ConfigError(f"{where} is {record!r}; {shape}")
    name, options = record["name"], record["options"]
    if name not in LEARNER_LAYERS:
        raise ConfigError(
            f"{where} names the layer {name!r}; the layers are: {', '.join(LEARNER_LAYERS)}"
        )
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise ConfigError(f"{where}: options {options!r} are not a mapping of names; {shape}")
    try:
        Config(learner_layer=name, learner_layer_options=dict(options)).check_layer()
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None
    return name, dict(options)


def checkpoint_layer(ckpt: dict[str, Any], path: Any = "") -> tuple[str, dict[str, Any]] | None:
    """The layer a checkpoint's network plays under: (name, options), or None (no record, or
    the layer ``none``); a ConfigError for a record that is not one."""
    if LAYER_KEY not in ckpt:
        return None
    name, options = check_layer(ckpt[LAYER_KEY], f"checkpoint {path or '?'}: its layer record")
    return None if name == "none" else (name, options)


def with_layer(name: str, options: dict[str, Any], spec: GameSpec, inner: Any, seed: int) -> Any:
    """`inner` (a policy) under the layer `name` with `options` at the table `spec`, seeded
    (the layer's draws and `inner`'s stream from `seed`); `inner` itself for ``none``."""
    if name == "none":
        return inner
    if name == "belief_talk":
        from baselines.belief_talk import BeliefTalk

        return BeliefTalk(spec, inner, seed, **options)
    raise ConfigError(f"no layer {name!r}")  # check_layer refuses it first


__all__ = [
    "LAYER_KEY",
    "check_layer",
    "checkpoint_layer",
    "config_record",
    "layer_record",
    "with_layer",
]
