"""Stamp a PPO checkpoint with the layer its network plays under (`baselines.ppo.layer`).

    python -m baselines.ppo.stamp runs/x/agent.pt                 # the layer its run trained with
    python -m baselines.ppo.stamp runs/x/agent.pt --layer belief_talk --option fallback=vouch
    python -m baselines.ppo.stamp runs/x/agent.pt --layer none    # remove the record
    python -m baselines.ppo.stamp runs/x/agent.pt --show          # print the record

A run trained with ``learner_layer`` records its layer in its files; one written before the
record was kept loads as the bare network until stamped. Loaded as a policy, a stamped file
plays under its layer with the recorded options.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import torch

from baselines.ppo.checkpoint import read_checkpoint
from baselines.ppo.layer import LAYER_KEY, checkpoint_layer, layer_record
from mafia_env.commands import parse, parser, run
from mafia_env.errors import ConfigError, MafiaError


def stamp_layer(
    path: str | Path,
    name: str | None = None,
    options: dict[str, Any] | None = None,
    out: str | Path | None = None,
) -> dict[str, Any] | None:
    """Record in the checkpoint at `path` (written to `out`, else in place) the layer its
    network plays under; return the record (None: removed).

    `name` None: the layer its run trained with (its config's ``learner_layer`` and
    ``learner_layer_options``; `options` then must be None); ``none`` removes the record.
    """
    ckpt = read_checkpoint(path)
    if name is None:
        cfg = ckpt["config"]
        name = cfg.get("learner_layer", "none")
        if options is not None:
            raise ConfigError("options given without a layer name: give the name too")
        options = cfg.get("learner_layer_options", {})
        if name == "none":
            raise ConfigError(
                f"{path} was trained with no layer (its config's learner_layer is none): "
                "name the layer to record"
            )
    record = layer_record(name, options)
    if name == "none":
        ckpt.pop(LAYER_KEY, None)
    else:
        ckpt[LAYER_KEY] = record
    target = Path(out if out is not None else path)
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_name(target.name + ".part")
    torch.save(ckpt, part)
    os.replace(part, target)  # a reader never sees half a file
    return None if name == "none" else record


def _option(pair: str) -> tuple[str, Any]:
    """``KEY=VALUE``: a boolean option (true/false, 1/0) or a word (``fallback=vouch``)."""
    key, eq, value = pair.partition("=")
    if not eq or not key:
        raise ConfigError(f"--option {pair!r}: give KEY=VALUE")
    words = {"true": True, "1": True, "false": False, "0": False}
    return key, words.get(value.lower(), value)


def main(argv: list[str] | None = None, prog: str = "python -m baselines.ppo.stamp") -> int:
    p = parser(prog, __doc__)
    p.add_argument("checkpoint", help="a PPO checkpoint (a run's agent.pt or checkpoint.pt)")
    p.add_argument(
        "--layer",
        help="the layer: belief_talk, or none to remove the record (default: the one its run "
        "trained with, its config's learner_layer and learner_layer_options)",
    )
    p.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="an option of the layer (fallback=vouch, mafia=false, ...); with --layer",
    )
    p.add_argument("--out", help="write the stamped file here (default: in place)")
    p.add_argument("--show", action="store_true", help="print the record and change nothing")
    args = parse(p, argv)
    if isinstance(args, int):
        return args
    try:
        if args.show:
            ckpt = read_checkpoint(args.checkpoint)
            layer = checkpoint_layer(ckpt, args.checkpoint)
            print(f"{args.checkpoint}: " + ("no layer" if layer is None else _text(*layer)))
            return 0
        if args.option and args.layer is None:
            raise ConfigError("--option needs --layer")
        options = dict(map(_option, args.option)) if args.option else None
        if args.layer is not None and options is None:
            options = {}
        record = stamp_layer(args.checkpoint, args.layer, options, args.out)
    except MafiaError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    target = args.out or args.checkpoint
    print(f"{target}: " + ("no layer" if record is None else _text(**record)))
    return 0


def _text(name: str, options: dict[str, Any]) -> str:
    opts = ", ".join(f"{k}={v!r}" for k, v in sorted(options.items()))
    return f"layer {name}" + (f" ({opts})" if opts else "")


__all__ = ["main", "stamp_layer"]

if __name__ == "__main__":
    sys.exit(run(main, what="python -m baselines.ppo.stamp"))
