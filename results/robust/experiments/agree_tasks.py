"""The shipped `filler` with `BeliefTalk`'s ``agree`` alone (a mafia seat shoots the team's
agreed target; every other decision the filler's own) against the filler itself, as the
mafia at mixed tables (``half-rule``: the policy on half the mafia's seats, the rule bots on
the rest), on the tasks whose mafia must agree on one target, paired with the rule bots on
the same deals:

    python results/robust/experiments/agree_tasks.py [DEALS] [TASK ...]

One line per task, style and policy: its win rate, the rule bots', the paired difference.
"""

from __future__ import annotations

import sys

import baselines  # noqa: F401  (one BLAS thread)
from baselines import robust
from baselines.filler_talk import load_filler_talk
from mafia_env.policy import register_policy
from mafia_env.tasks import LATEST, get_task

ONLY_AGREE = dict(speech=False, nominate=False, vote=False, mafia=False, agree=True)


def filler_agree(variant="sport", num_players=None, seed=0, spec=None, **kw):
    return load_filler_talk(variant, num_players, seed, spec=spec, **ONLY_AGREE, **kw)


def main(argv: list[str]) -> int:
    deals = int(argv[0]) if argv else 200
    names = argv[1:] or ["sport-10", "club-10", "online-10"]
    register_policy("filler_agree", filler_agree)
    tasks = [get_task(n, LATEST) for n in names]
    styles = robust.resolve_styles("fake_sheriff,counter_sheriff,vote_first")
    cells = robust.cells_of(tasks, styles, [robust.MIXES["half-rule"]], ["mafia"])
    for policy in ("filler", "filler_agree"):
        result = robust.run_robust(policy, cells, deals)
        for c in result["cells"]:
            d = c["diff"]
            print(
                f"{c['task']} {c['style']:16} {policy:13} {c['policy']['win_rate']:.3f} "
                f"rule {c['baseline']['win_rate']:.3f} {d['mean']:+.3f} "
                f"[{d['lo']:+.3f}, {d['hi']:+.3f}]",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
