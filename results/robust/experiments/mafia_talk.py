"""What each mafia seat says on day 1, the filler's mafia against the rule bots' town and the
rule bots' own, over 100 seeded games of TASK (the counts behind the option ``mates``).

    python results/robust/experiments/mafia_talk.py club-10
"""

import collections
import sys

import mafia_env
from baselines.robust import table_of
from mafia_env.engine.events import Ev
from mafia_env.engine.roles import Team
from mafia_env.match import Seating, play_game
from mafia_env.policy import load_policy
from mafia_env.tasks import get_task

KIND = {
    int(Ev.CLAIM_ROLE): "claim",
    int(Ev.CLAIM_CHECK): "check",
    int(Ev.ACCUSE): "accuse",
    int(Ev.VOUCH): "vouch",
    int(Ev.NOMINATE): "nominate",
}


def main(name: str, games: int = 100) -> None:
    task = get_task(name)
    spec = table_of(task)
    rule = load_policy("rule", spec, seed=2)
    filler = load_policy("filler", spec, seed=3)
    env = mafia_env.raw_env(task.variant, task.num_players, **task.play_knobs())
    for who, mafia in (("filler", filler), ("rule", rule)):
        said, seats = collections.Counter(), 0
        for g in range(games):
            play_game(env, Seating(default=rule, teams={"mafia": mafia}), seed=task.seed + g)
            game = env.unwrapped.game
            day, acts = 0, collections.defaultdict(set)
            for kind, actor, _target, value, _seen in game.events:
                if kind == Ev.DAY:
                    day = value
                if day == 1 and kind in KIND and game.teams[actor] == Team.MAFIA:
                    acts[actor].add(KIND[kind] + (f":{value}" if kind == Ev.CLAIM_ROLE else ""))
            for s in range(game.n):
                if game.teams[s] == Team.MAFIA:
                    seats += 1
                    said[tuple(sorted(acts[s]))] += 1
        print(who, seats, "mafia seats; their day-1 speech acts:")
        for acts_, count in said.most_common(8):
            print(f"  {count / seats:.2f}", acts_ or "(nothing)")


if __name__ == "__main__":
    main(sys.argv[1])
