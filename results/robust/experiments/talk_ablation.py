"""Parts of ``filler_talk`` one at a time, against a few styles on sport-10's full tables,
paired with the rule bots on the same deals (the rule bots' arm read from the shipped
filler's run):

    python results/robust/experiments/talk_ablation.py speech,nominate vote_first 100 town

Each name is a set of `baselines.belief_talk.BeliefTalk` options (`VARIANTS`), registered as
a policy for the run; a line per cell: name, side, style, its win rate, the rule bots'.
"""

from __future__ import annotations

import sys

from baselines import robust
from baselines.filler_talk import load_filler_talk
from mafia_env.policy import register_policy
from mafia_env.tasks import LATEST, get_task

OFF = dict(speech=False, nominate=False, vote=False, mafia=False)
VARIANTS = {
    "none": OFF,  # the wrapper doing nothing: the shipped filler's games
    "speech": {**OFF, "speech": True},  # a town seat's talk from the reading
    "strong": {**OFF, "speech": True, "guess": False},  # ... without guesses on a flat reading
    "sheriff": {**OFF, "speech": True, "others_talk": False},  # the real sheriff's talk only
    "hidden": {**OFF, "speech": True, "hide_talk": True},  # talk; the network blind to talk
    "hide": {**OFF, "hide_talk": True},  # the network blind to the table's talk, nothing said
    "nominate": {**OFF, "nominate": True},  # nominations from the reading (day 1 spread)
    "vote": {**OFF, "vote": True},  # every ballot the reading overrules by the margin
    "blind_vote": {**OFF, "vote": True, "blind_only": True},  # filler_vote
    "all": {},  # filler_talk
}
SHIPPED = "results/robust/filler-full-sport-10.json"


def main(argv: list[str]) -> int:
    names, styles, deals = argv[0].split(","), argv[1], int(argv[2])
    sides = argv[3].split(",") if len(argv) > 3 else ["town", "mafia"]
    known = robust.read_known([SHIPPED], deals, "rule", LATEST)
    task = get_task("sport-10", LATEST)
    for name in names:
        opts = VARIANTS[name]

        def factory(variant="sport", num_players=None, seed=0, spec=None, _o=opts, **kw):
            return load_filler_talk(variant, num_players, seed, spec=spec, **_o, **kw)

        register_policy(f"talk:{name}", factory)
        cells = robust.cells_of(
            [task], robust.resolve_styles(styles), [robust.MIXES["full"]], sides
        )
        result = robust.run_robust(f"talk:{name}", cells, deals, known=known)
        for c in result["cells"]:
            print(name, c["side"], c["style"], c["policy"]["win_rate"], c["baseline"]["win_rate"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
