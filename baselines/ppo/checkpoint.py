"""Checkpoints and the policy they load.

A checkpoint holds the weights, the run's config, the variant, the table size and the
observation format it was trained on; `read_checkpoint` refuses one made for another variant,
table size or observation format. `PPOPolicy` is a trained agent behind the `Policy`
protocol; `load_checkpoint_policy` plays it under the layer its file records, if any
(`baselines.ppo.layer`).
"""

from __future__ import annotations

import hashlib
import pickle
import re
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch

from baselines.ppo.agent import Agent, CategoricalMasked, make_agent
from baselines.ppo.layer import checkpoint_layer, with_layer
from baselines.ppo.ppo_config import Config, make_config
from baselines.shipped import shipped_checkpoint, shipped_files
from mafia_env.actions import ActionLayout
from mafia_env.engine.eras import ERAS, earlier_rules
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.observe import ObsLayout
from mafia_env.variants import get_variant
from mafia_env.vector import VectorMafia

CHECKPOINT_FORMAT = "mafia_env.ppo/1"
OBS_FORMAT_VERSION = 1  # bump when the vector observation changes meaning


def obs_signature(layout: ObsLayout) -> str:
    """Return a short hash of the observation's pieces (names and shapes)."""
    text = ";".join(f"{name}{shape}" for name, shape in layout.private + layout.public)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def save_checkpoint(
    path: str | Path,
    agent: Agent,
    cfg: Config,
    vec: VectorMafia,
    extra: dict[str, Any] | None = None,
) -> None:
    """Write weights, config, variant, table size, sizes and observation format."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(
        {
            "format": CHECKPOINT_FORMAT,
            "obs_format_version": OBS_FORMAT_VERSION,
            "obs_signature": obs_signature(vec.obs_layout),
            "obs_options": dict(vec.spec.obs),  # the layout's options: the belief piece
            "variant": vec.variant,
            "num_players": vec.n,
            "obs_size": vec.obs_size,
            "action_size": vec.action_size,
            "config": asdict(cfg),
            "model": agent.state_dict(),
            **(extra or {}),
        },
        path,
    )


# what every checkpoint holds (`save_checkpoint`)
CHECKPOINT_KEYS = ("variant", "num_players", "obs_size", "action_size", "config", "model")


def _is_zip(path: Path) -> bool:
    """Whether the file starts as a zip archive does (torch.save's format)."""
    with path.open("rb") as f:
        return f.read(4) == b"PK\x03\x04"


def _damage(path: Path, error: Exception) -> str:
    """Say what is wrong with a file torch.load could not read."""
    size = path.stat().st_size
    if size == 0:
        return "the file is empty (0 bytes)"
    if _is_zip(path):
        return (
            f"the file is truncated or damaged ({size:,} bytes of a torch zip archive whose end "
            f"cannot be read: {str(error).split('. ')[0]})"
        )
    return "it is not a torch file"


def _unreadable(path: Path, what: str) -> str:
    return (
        f"cannot read checkpoint {path}: {what}; expected a PPO checkpoint written by "
        "baselines.ppo.save_checkpoint (a training run's checkpoint.pt or agent.pt)"
    )


def checkpoint_obs_options(ckpt: dict[str, Any]) -> dict[str, Any]:
    """The observation options a checkpoint's network reads ({} before the belief piece)."""
    opts = ckpt.get("obs_options")
    if opts is None:  # files before the option was recorded: the config says
        belief = ckpt["config"].get("belief")
        opts = {} if belief is None else {"belief": belief}
    return {k: v for k, v in opts.items() if v is not None}


def _options_text(opts: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in sorted(opts.items())) or "no belief piece"


def read_checkpoint(
    path: str | Path,
    variant: str | None = None,
    num_players: int | None = None,
    obs_options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Load a checkpoint, refusing one made for another variant, table size or obs format.

    `obs_options` (None: any) is the observation layout the caller's network reads (the
    belief piece, `Config.belief`); a checkpoint made for another one is refused.
    """
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"no checkpoint at {path}" + (" (a folder)" if path.is_dir() else ""))
    try:  # weights only: unpickling anything else could run code from the file
        ckpt = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as e:
        found = re.search(r"Unsupported global: GLOBAL (\S+)", str(e))
        if not found and not _is_zip(path):  # text, an image, random bytes: not torch's
            raise ConfigError(_unreadable(path, "it is not a torch file")) from None
        raise ConfigError(
            f"cannot read checkpoint {path}: it is not a weights-only file"
            + (
                f" (it holds {found.group(1)}, which is neither a tensor nor plain data)"
                if found
                else ""
            )
            + "; checkpoints are loaded with torch.load(weights_only=True), which reads "
            "tensors and plain data only: save one with baselines.ppo.save_checkpoint"
        ) from None
    except Exception as e:  # an empty or truncated file, not a torch file
        raise ConfigError(_unreadable(path, _damage(path, e))) from None
    if not isinstance(ckpt, dict) or ckpt.get("format") != CHECKPOINT_FORMAT:
        raise ConfigError(
            f"{path} is not a mafia_env PPO checkpoint: a torch file, but not a dict with "
            f"format {CHECKPOINT_FORMAT!r} (a file of baselines.ppo.save_checkpoint: a "
            "training run's checkpoint.pt or agent.pt)"
        )
    missing = [k for k in CHECKPOINT_KEYS if k not in ckpt]
    if missing:
        raise ConfigError(
            f"checkpoint {path} lacks {', '.join(missing)}: it is damaged or was not written "
            "by baselines.ppo.save_checkpoint"
        )
    trained = f"variant {ckpt['variant']!r} with {ckpt['num_players']} players"
    if variant is not None and variant != ckpt["variant"]:
        raise ConfigError(
            f"checkpoint {path} was trained on {trained}; it cannot play variant {variant!r}"
        )
    n = ckpt["num_players"] if num_players is None else num_players
    if n != ckpt["num_players"]:
        raise ConfigError(
            f"checkpoint {path} was trained on {trained}; it cannot play a table of {n}"
        )
    opts = checkpoint_obs_options(ckpt)
    if obs_options is not None:
        want = {k: v for k, v in obs_options.items() if v is not None}
        if want != opts:
            raise ConfigError(
                f"checkpoint {path} was trained on observations with "
                f"{_options_text(opts)}; this run's network reads {_options_text(want)}: "
                "set `belief` in the config as the checkpoint was trained, or retrain"
            )
    rules, layout = _rules_of(ckpt)
    actions = ActionLayout(rules, n).size
    if ckpt["action_size"] > actions:
        raise ConfigError(
            f"checkpoint {path} chooses among {ckpt['action_size']} actions, but {trained} "
            f"has {actions} now: retrain it"
        )
    if (
        ckpt["obs_format_version"] != OBS_FORMAT_VERSION
        or ckpt["obs_signature"] != obs_signature(layout)
        or ckpt["obs_size"] != layout.size
    ):
        raise ConfigError(
            f"checkpoint {path} was made for observation format "
            f"v{ckpt['obs_format_version']} ({ckpt['obs_signature']}, {ckpt['obs_size']} "
            f"floats); this mafia_env encodes v{OBS_FORMAT_VERSION} "
            f"({obs_signature(layout)}, {layout.size} floats): retrain it"
        )
    return ckpt


def _rules_of(ckpt: dict[str, Any]) -> tuple[Any, ObsLayout]:
    """Return the rules a checkpoint was trained under, and their observation layout: today's
    (with the run's knobs), else those of the earliest era before a reading of the seeds
    changed the variant's layout (`earlier_rules`) whose layout the checkpoint has."""
    base = get_variant(ckpt["variant"])
    knobs, n = ckpt["config"]["knobs"], ckpt["num_players"]
    opts = checkpoint_obs_options(ckpt)  # the belief piece, where the network reads it
    today = base.with_knobs(**knobs)
    eras = sorted(ERAS, reverse=True)  # the latest first
    earlier = (base.with_knobs(**{**earlier_rules(base.name, e), **knobs}) for e in eras)
    for rules in [today, *earlier]:
        layout = ObsLayout(rules, n, **opts)
        if obs_signature(layout) == ckpt["obs_signature"]:
            return rules, layout
    return today, ObsLayout(today, n, **opts)  # none: read_checkpoint says so


def column_map(old: ObsLayout, new: ObsLayout) -> np.ndarray | None:
    """Return the columns of a `new` observation that make up an `old` one (None: some old
    piece is missing): pieces by name, the turn one-hots by turn (a layout that gained a turn
    or a piece since a checkpoint was trained, as CLUB's and ONLINE's did when the rules were
    read again)."""
    cols: list[int] = []
    for name, shape in old.private + old.public:
        if name not in new.offsets:
            return None
        off, now = new.offsets[name]
        if name == "my_turn":
            idx = [new.turns.index(t) for t in old.turns if t in new.turns]
        elif name == "phase":
            idx = [new.phases.index(p) for p in old.phases if p in new.phases]
        elif now == shape:
            idx = list(range(int(np.prod(shape))))
        else:
            return None
        if len(idx) != int(np.prod(shape)):
            return None
        cols.extend(off + i for i in idx)
    return np.array(cols, dtype=np.intp)


def load_weights(
    agent: Agent,
    ckpt: dict[str, Any],
    path: Any,
    widen: bool = False,
    layout: ObsLayout | None = None,
) -> bool:
    """Load `ckpt`'s weights into `agent`; return whether its input layer was widened.

    The checkpoint must read the agent's observation layout (`Agent.obs_options`), else a
    ConfigError says which each reads. With `widen`, a network trained without the belief
    piece starts a network that reads it: the piece's input columns (the last ones of the
    vector) get zero weights, so the widened network plays exactly as the checkpoint did
    until training teaches it to read the belief. With `layout` (the agent's observation
    layout), a checkpoint of an earlier era's layout (`column_map`) is widened too: each of
    its input columns goes to where today's layout writes that number.
    """
    have, want = checkpoint_obs_options(ckpt), dict(agent.obs_options)
    state = dict(ckpt["model"])
    widened = False
    if have != want:
        if not (widen and not have and set(want) == {"belief"}):
            raise ConfigError(
                f"checkpoint {path} was trained on observations with {_options_text(have)}; "
                f"this network reads {_options_text(want)}: set `belief` as the checkpoint "
                "was trained, or retrain"
            )
        widened = True
    w = state["trunk.0.weight"]
    size = agent.trunk[0].in_features
    _, old = _rules_of(ckpt)
    cols = None if layout is None else column_map(old, layout)
    if w.shape[1] != size and cols is not None and widen:
        new = w.new_zeros((w.shape[0], size))  # today's columns of the old ones, zero elsewhere
        new[:, torch.from_numpy(cols)] = w
        state["trunk.0.weight"], widened = new, True
    elif widened:
        if size <= w.shape[1]:
            raise ConfigError(f"checkpoint {path}: cannot widen {w.shape[1]} inputs")
        state["trunk.0.weight"] = torch.cat((w, w.new_zeros((w.shape[0], size - w.shape[1]))), 1)
    try:
        agent.load_state_dict(state)
    except RuntimeError as e:  # another shape: hidden_size, per_team
        raise ConfigError(
            f"{path} does not fit this config's network: {str(e).splitlines()[0]}"
        ) from None
    return widened


class PPOPolicy:
    """A trained PPO agent behind the `Policy` protocol (samples from the masked policy)."""

    observes = "vector"

    def __init__(
        self,
        ckpt: dict[str, Any],
        seed: int = 0,
        deterministic: bool | None = None,
        spec: GameSpec | None = None,
    ):
        cfg = make_config(ckpt["config"])
        if deterministic is None:  # as the run was evaluated
            deterministic = cfg.greedy
        self.variant = ckpt["variant"]
        self.num_players = ckpt["num_players"]
        self.agent = make_agent(cfg, ckpt["obs_size"], ckpt["action_size"])
        self.agent.load_state_dict(ckpt["model"])
        self.agent.eval()
        self.obs_options = checkpoint_obs_options(ckpt)  # the harness builds its table with them
        self.obs_size = ckpt["obs_size"]
        # a checkpoint of an earlier era's layout plays today's rules seeing what it knew
        self.columns: np.ndarray | None = None
        self.columns_from = -1
        then, old = _rules_of(ckpt)
        today = get_variant(ckpt["variant"]).with_knobs(**ckpt["config"]["knobs"])
        if spec is not None:  # the table it sits at (with the pieces its network reads)
            seen = spec.with_obs(**self.obs_options) if self.obs_options else spec
            self.columns, self.columns_from = table_columns(ckpt, seen)
        elif then != today:
            new = ObsLayout(today, ckpt["num_players"], **self.obs_options)
            self.columns, self.columns_from = column_map(old, new), new.size
        self.deterministic = deterministic
        self.seed(seed)

    @classmethod
    def from_agent(cls, agent: Agent, seed: int = 0, deterministic: bool = False) -> PPOPolicy:
        self = cls.__new__(cls)
        self.agent, self.deterministic = agent, deterministic
        self.variant, self.num_players = None, None
        self.obs_options = dict(getattr(agent, "obs_options", {}))
        self.obs_size, self.columns, self.columns_from = -1, None, -1
        self.seed(seed)
        return self

    def seed(self, seed: int) -> None:
        """Restart the policy's sampling stream."""
        self.generator = torch.Generator().manual_seed(seed)

    @torch.no_grad()
    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        obs = self._read(obs)
        x = torch.as_tensor(obs)
        m = torch.from_numpy(np.asarray(masks) > 0)  # a new array: masks may be read-only
        if not bool(m.any(dim=1).all()):
            raise ValueError("a mask allows no action")
        logits = self.agent.logits(x)
        extra = m.shape[1] - logits.shape[1]
        if extra > 0:  # a layout that grew at its end since training: the new actions stay unused
            logits = torch.cat((logits, torch.full((len(logits), extra), -1e8)), dim=1)
            m = m & torch.cat((torch.ones_like(m[:, :-extra]), torch.zeros_like(m[:, -extra:])), 1)
        if self.deterministic:
            logits = torch.where(m, logits, torch.tensor(-1e8))
            return logits.argmax(dim=1).numpy()
        probs = CategoricalMasked(logits, m).probs
        return torch.multinomial(probs, 1, generator=self.generator).squeeze(1).numpy()

    def _read(self, obs: np.ndarray) -> np.ndarray:
        """Return the rows as the checkpoint reads them (an earlier layout: its columns)."""
        obs = np.asarray(obs, dtype=np.float32)
        if obs.shape[1] != self.obs_size and self.obs_size >= 0:
            if self.columns is None or obs.shape[1] != self.columns_from:
                raise ConfigError(
                    f"this checkpoint reads observations of {self.obs_size} floats "
                    f"({_options_text(self.obs_options)}); got {obs.shape[1]} (another "
                    "variant, table size, rules or belief piece? seat it through "
                    "mafia_env.seating.games, which gives it the layout it reads)"
                )
            obs = obs[:, self.columns]  # today's layout, read as the layout it was trained on
        return obs

    def act(self, obs: np.ndarray, mask: np.ndarray) -> int:
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])

    @torch.no_grad()
    def probs_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Return the probability of every action per row (one-hot where deterministic)."""
        x = torch.as_tensor(self._read(obs))
        m = torch.from_numpy(np.asarray(masks) > 0)
        logits = self.agent.logits(x)
        extra = m.shape[1] - logits.shape[1]
        if extra > 0:  # as act_batch: actions added since training stay unused
            logits = torch.cat((logits, torch.full((len(logits), extra), -1e8)), dim=1)
            m = m & torch.cat((torch.ones_like(m[:, :-extra]), torch.zeros_like(m[:, -extra:])), 1)
        logits = torch.where(m, logits, torch.tensor(-1e8))
        if self.deterministic:
            out = torch.zeros_like(logits)
            out[torch.arange(len(out)), logits.argmax(dim=1)] = 1.0
            return out.double().numpy()
        return torch.softmax(logits.double(), dim=1).numpy()


def describe_layout(rules: Any, n: int, obs: ObsLayout, actions: ActionLayout) -> str:
    """Name a table's layout: variant, size, the rules that differ from the variant file's,
    the observation (signature, floats) and the actions."""
    base = get_variant(rules.name)
    diff = {
        f.name: getattr(rules, f.name)
        for f in fields(rules)
        if getattr(rules, f.name) != getattr(base, f.name)
    }
    knobs = ", ".join(f"{k}={v!r}" for k, v in diff.items()) or "the variant file's rules"
    return (
        f"variant {rules.name!r} with {n} players ({knobs}; observation {obs_signature(obs)}, "
        f"{obs.size} floats; {actions.size} actions)"
    )


def table_columns(ckpt: dict[str, Any], spec: GameSpec, path: Any = "") -> tuple[Any, int]:
    """Return (columns, width): how a checkpoint reads the observations of the table `spec`
    (None, -1: as they are); a ConfigError naming both layouts if it cannot."""
    then, old = _rules_of(ckpt)
    n = ckpt["num_players"]
    new = ObsLayout.of(spec)
    acts_then, acts_now = ActionLayout(then, n), ActionLayout.of(spec)
    columns = None if obs_signature(new) == obs_signature(old) else column_map(old, new)
    # the trained actions keep their places: the table may only add acts after them
    same_actions = ckpt["action_size"] <= acts_now.size and all(
        acts_now.offset.get(a) == off and acts_now.width[a] == acts_then.width[a]
        for a, off in acts_then.offset.items()
    )
    if (
        spec.rules.name != ckpt["variant"]
        or spec.n != n
        or not same_actions
        or (columns is None and obs_signature(new) != obs_signature(old))
    ):
        raise ConfigError(
            f"checkpoint {path or ckpt['variant']} was trained for "
            f"{describe_layout(then, n, old, acts_then)}; the table is "
            f"{describe_layout(spec.rules, spec.n, new, acts_now)}: it cannot read this "
            "table's observations or actions (load it at a table of its layout, or retrain)"
        )
    return (None, -1) if columns is None else (columns, new.size)


def load_checkpoint_policy(
    path: str | Path,
    variant: str = "sport",
    num_players: int | None = None,
    seed: int = 0,
    deterministic: bool | None = None,
    spec: GameSpec | None = None,
    bare: bool = False,
) -> Any:
    """`load_policy("path/to/file.pt", variant=...)`: refuse another variant or table size,
    and (given the table's `spec`) a layout it cannot read, naming both layouts.

    `deterministic` (None: as the run was evaluated, its config's ``greedy``) plays the most
    probable legal action instead of a sample. A checkpoint that records a layer
    (`baselines.ppo.layer`: a run trained with ``learner_layer``) plays under it, with its
    recorded options, at the table `spec` (else the variant's default rules), seeded from
    `seed`: a `PPOPolicy` inside; `bare` plays the network alone.
    """
    if spec is not None:
        if spec.rules.name != variant:
            raise ConfigError(f"variant={variant!r} but the table's spec is {spec.rules.name!r}")
        if num_players is not None and num_players != spec.n:
            raise ConfigError(f"num_players={num_players} but the table's spec seats {spec.n}")
        num_players = spec.n
    if num_players is None:
        num_players = get_variant(variant).default_players
    ckpt = read_checkpoint(path, variant, num_players)
    layer = None if bare else checkpoint_layer(ckpt, path)  # a bad record: a ConfigError, now
    if spec is not None:  # a layout it cannot read: a ConfigError, now (the pieces its
        opts = checkpoint_obs_options(ckpt)  # network reads and the table lacks: seat_obs adds)
        table_columns(ckpt, spec.with_obs(**opts) if opts else spec, path)
    net = PPOPolicy(ckpt, seed, deterministic, spec=spec)
    if layer is None:
        return net
    table = spec if spec is not None else GameSpec.make(variant, num_players)
    return with_layer(*layer, table, net, seed)


def load_shipped_policy(
    variant: str = "sport",
    num_players: int | None = None,
    seed: int = 0,
    deterministic: bool | None = None,
    kind: str = "ppo",
    spec: GameSpec | None = None,
    bare: bool = False,
    file: str | Path | None = None,
) -> Any:
    """`load_policy("ppo" | "league", variant=...)`: the checkpoint shipped for the variant.

    A table size of its own (``city-13.pt``) is preferred to the variant's default one. As
    `load_checkpoint_policy`, a file that records a layer plays under it (`bare`: alone).
    `file` plays another file of the kind in its place: one an earlier benchmark version
    pinned, where a later one ships a retrained file (`baselines.pins.RETIRED`).
    """
    if file is not None:
        return load_checkpoint_policy(file, variant, num_players, seed, deterministic, spec, bare)
    path = shipped_checkpoint(variant, num_players, kind)
    if not path.exists():
        shipped = shipped_files(kind)
        raise ConfigError(
            f"no {kind} checkpoint is shipped for variant {variant!r}"
            + (f" at {num_players} players" if num_players is not None else "")
            + f" (looked for {path.name} in {path.parent}); shipped: "
            + (", ".join(shipped) or "none")
        )
    return load_checkpoint_policy(path, variant, num_players, seed, deterministic, spec, bare)


__all__ = [
    "CHECKPOINT_FORMAT",
    "OBS_FORMAT_VERSION",
    "PPOPolicy",
    "checkpoint_obs_options",
    "describe_layout",
    "load_checkpoint_policy",
    "load_shipped_policy",
    "load_weights",
    "obs_signature",
    "read_checkpoint",
    "save_checkpoint",
    "table_columns",
]
