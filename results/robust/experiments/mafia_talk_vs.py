"""What each mafia seat of MAFIA (default the filler) says on day 1 against the town of TOWN,
over GAMES seeded games of TASK: (whether it spoke, then its speech acts), the share of seats.

    python results/robust/experiments/mafia_talk_vs.py forum-10 random 300
    python results/robust/experiments/mafia_talk_vs.py online-10 rule 200 rule

(`mafia_talk.py` counts the filler's and the rule bots' mafia against the rule town.)
"""

import collections
import sys

from mafia_talk import KIND  # (this folder's: the speech acts counted)

import mafia_env
from baselines.robust import table_of
from mafia_env.engine.events import Ev
from mafia_env.engine.roles import Team
from mafia_env.match import Seating, play_game
from mafia_env.policy import load_policy
from mafia_env.tasks import get_task


def main(name: str, town_name: str, games: int, mafia_name: str = "filler") -> None:
    task = get_task(name)
    spec = table_of(task)
    town = load_policy(town_name, spec, seed=2)
    mafia = load_policy(mafia_name, spec, seed=3)
    env = mafia_env.raw_env(task.variant, task.num_players, **task.play_knobs())
    said, seats = collections.Counter(), 0
    for g in range(games):
        play_game(env, Seating(default=town, teams={"mafia": mafia}), seed=task.seed + g)
        game = env.unwrapped.game
        day, acts, spoke = 0, collections.defaultdict(set), set()
        for kind, actor, _target, value, _seen in game.events:
            if kind == Ev.DAY:
                day = value
            if day == 1 and kind == Ev.SPEAK:
                spoke.add(actor)
            if day == 1 and kind in KIND and game.teams[actor] == Team.MAFIA:
                acts[actor].add(KIND[kind])
        for s in range(game.n):
            if game.teams[s] == Team.MAFIA:
                seats += 1
                said[(s in spoke, *sorted(acts[s]))] += 1
    print(f"{mafia_name}'s {seats} mafia seats against {town_name}'s town; their day 1:")
    for key, count in said.most_common(10):
        print(f"  {count / seats:.3f} {count:4d}", key)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), *sys.argv[4:5])
