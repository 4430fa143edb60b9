"""A network with `baselines.belief_talk.BeliefTalk`'s speech layer over it, measured on
sport-10 (or ``task=NAME``): every style of the zoo on full tables (paired with the rule bots'
games of the shipped filler's run, results/robust/filler-full-NAME.json) and the table's
talk figures:

    python results/robust/experiments/talk_over.py runs/filler_talk_clone_sport_1/agent.pt \\
        results/robust/experiments/talk_over-sport-10.json [OPTION=VALUE ...]
    python results/robust/experiments/talk_over.py runs/filler_talk_layer_town_6_club_1/agent.pt \\
        results/robust/experiments/talk_layer_town_6-club-10.json task=club-10

A checkpoint that records its layer (a run trained with ``learner_layer``, or a file stamped
with ``python -m baselines.ppo.stamp``) plays under it as `load_policy` loads it, with the
recorded options. OPTION=VALUE are `BeliefTalk`'s options (``vote=0``, ``fallback=vouch``;
booleans as 0/1): given any, the bare network plays under `BeliefTalk` with those (the
defaults: every part on, ``fallback=vouch``), whatever the file records; so does a file
with no record. ``deals=N`` plays N deals a cell instead of 100 (the rule bots' arm is then
played too, not taken from the shipped filler's run).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from baselines import robust
from baselines.belief_talk import PARTS, BeliefTalk
from baselines.filler_table import measure
from baselines.ppo.checkpoint import read_checkpoint
from baselines.ppo.layer import checkpoint_layer
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.policy import load_policy, register_policy
from mafia_env.tasks import LATEST, get_task

SHIPPED = "results/robust/filler-full-{task}.json"  # the shipped filler's run, by task


def options(pairs: list[str]) -> dict:
    out: dict = {"fallback": "vouch"}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or (key not in PARTS and key != "fallback"):
            raise ConfigError(f"{pair!r}: give OPTION=VALUE, OPTION one of {(*PARTS, 'fallback')}")
        out[key] = value if key == "fallback" else bool(int(value))
    return out


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        raise SystemExit(__doc__)
    path, out = argv[0], Path(argv[1])
    deals = [int(a.partition("=")[2]) for a in argv[2:] if a.startswith("deals=")]
    tasks = [a.partition("=")[2] for a in argv[2:] if a.startswith("task=")]
    given = [a for a in argv[2:] if not a.startswith(("deals=", "task="))]
    name = tasks[-1] if tasks else "sport-10"
    shipped = Path(SHIPPED.format(task=name))
    # the task at the shipped filler's run's version: its deals, its rule bots' arm reused
    version = json.loads(shipped.read_text())["version"] if shipped.exists() else LATEST
    task = get_task(name, version)
    opts = options(given)
    deals = deals[-1] if deals else 100
    if not Path(path).exists():
        raise ConfigError(f"no checkpoint at {path}")
    recorded = None if given else checkpoint_layer(read_checkpoint(path), path)
    if recorded is not None:
        print(f"{path} plays under its recorded layer {recorded[0]} {recorded[1]}", flush=True)
        opts = recorded[1]

    def factory(variant="sport", num_players=None, seed=0, spec=None, **kw):
        table = spec if spec is not None else GameSpec.make(variant, num_players)
        if recorded is not None:  # the loader wraps it as recorded
            return load_policy(path, table, seed=seed, **kw)
        net = load_policy(path, table, seed=seed, bare=True, **kw)
        return BeliefTalk(table, net, seed, **opts)

    register_policy("talk_over", factory)
    table = measure("talk_over", task.name, 100)
    print({k: table[k] for k in ("content", "first_nominee_top", "day1_nominations")}, flush=True)
    known = robust.read_known([shipped], 100, "rule", version) if deals == 100 else None
    cells = robust.cells_of([task], robust.resolve_styles("all"), [robust.MIXES["full"]], None)
    result = robust.run_robust("talk_over", cells, deals, known=known)
    result["talk_over"] = {
        "checkpoint": path,
        "options": opts,
        "recorded": recorded is not None,  # the file's own layer (else the options given)
        "table": table,
    }
    out.write_text(json.dumps(result, indent=1))
    below = [c for c in result["cells"] if c["diff"]["hi"] < 0]
    print(f"{len(below)} of {len(result['cells'])} cells below; written {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
