#!/usr/bin/env python
"""Retrain the PPO checkpoints shipped in baselines/checkpoints, exactly as they were made.

    python scripts/reproduce_checkpoints.py sport.pt          # one file (about 25 minutes)
    python scripts/reproduce_checkpoints.py league/sport.pt   # a league seat-filler
    python scripts/reproduce_checkpoints.py league_v2/club.pt   # a belief seat-filler
    python scripts/reproduce_checkpoints.py filler/city-13.pt  # six runs (about 30 minutes)
    python scripts/reproduce_checkpoints.py filler/v5/club.pt  # two stages: clone, then league
    python scripts/reproduce_checkpoints.py filler/v5/sport.pt  # eight runs (about 90 minutes)
    python scripts/reproduce_checkpoints.py filler/sport.pt   # ten runs (about 2 hours)
    python scripts/reproduce_checkpoints.py filler/club.pt    # twelve runs (about 2.5 hours)
    python scripts/reproduce_checkpoints.py filler/forum.pt   # five runs (about 70 minutes)
    python scripts/reproduce_checkpoints.py filler/minimal.pt  # four runs (about 30 minutes)
    python scripts/reproduce_checkpoints.py --all             # every file (a few hours)
    python scripts/reproduce_checkpoints.py --list            # the commands, without running

Each run is `python -m baselines.train` with the variant's config and the overrides below; its
weights-only `agent.pt` is then copied over the shipped file (stamped first with the layer its
network plays under, where `STAMPS` names one: `python -m baselines.ppo.stamp`). A file made
in several runs (`FIRST`: a clone, then league play from it, or a chain of them) runs the
earlier ones into `<run dir>/first`, `<run dir>/first2`, ... and starts each run from the one
before it's `agent.pt` (`init_weights`). Runs are CPU-only and seeded:
at the commit baselines/checkpoints/README.md names for a file, a rerun retraces it (up to
floating-point differences between machines).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "baselines" / "checkpoints"
sys.path.insert(0, str(ROOT))

from baselines.ppo.ppo_config import load_config, with_overrides  # noqa: E402
from mafia_env.tasks import get_task  # noqa: E402


def task_table(name: str) -> list[str]:
    """The --set arguments that play sport-10's talk configs on the task `name`'s table and
    rules (those of results/robust/experiments/chain_task.sh for that task)."""
    task = get_task(name)
    return [
        f"variant={task.variant}",
        f"num_players={task.num_players}",
        f"knobs={json.dumps(task.play_knobs())}",
    ]


CLUB = task_table("club-10")
FORUM = task_table("forum-10")
# the talk layer's options over the mafia as well (the two links before club-10's last)
MAFIA_LAYER = (
    "learner_layer_options={fallback: vouch, mafia: true, sheriff_first: true, meet: true, "
    "sparing: true, agree: true}"
)
TALK_CHAIN = [
    "talk",
    *(f"talk-layer-{k}" for k in ("clone", "town", "town-long", "town-longer", "town-6")),
]
TABLE = "configs/filler/sport-talk-layer-table.yaml"

# shipped file -> (config, --set overrides)
RUNS: dict[str, tuple[str, list[str]]] = {
    "sport.pt": (
        "configs/ppo/sport.yaml",
        [
            # the config's shape when the file was made (before staggered rollouts)
            "num_envs=64",
            "rollout_groups=1",
            "pipeline=sync",
            "total_timesteps=6000000",
            "imitate_steps=1000000",
            "imitate_epochs=8",
            "final_eval_games=2000",
        ],
    ),
    "minimal.pt": ("configs/ppo/minimal.yaml", []),
    "city.pt": ("configs/ppo/city.yaml", []),
    "city-13.pt": ("configs/ppo/city.yaml", ["num_players=13"]),
    "club.pt": ("configs/ppo/club.yaml", []),
    "online.pt": ("configs/ppo/online.yaml", []),
    "forum.pt": ("configs/ppo/forum.yaml", []),
    # the league seat-fillers (issue 20): begun from the PPO files above (forum: the clone)
    "league/sport.pt": ("configs/league/sport.yaml", []),
    "league/city-13.pt": ("configs/league/city.yaml", []),
    "league/club.pt": ("configs/league/club.yaml", []),
    "league/online.pt": ("configs/league/online.yaml", []),
    "league/forum.pt": ("configs/league/forum.yaml", []),
    "league/minimal.pt": ("configs/league/minimal.yaml", []),
    # the belief seat-fillers (issue 28): begun from the league files above, widened
    "league_v2/club.pt": ("configs/league_v2/club.yaml", []),
    # the seat-fillers (issue 28): cloned from the best answer to each opponent, per task
    "filler/v4/sport.pt": ("configs/filler/sport.yaml", []),  # tasks version 4's
    "filler/v8/city-13.pt": ("configs/filler/city.yaml", []),  # tasks versions 4-8's
    "filler/v5/club.pt": ("configs/filler/club.yaml", []),  # tasks versions 4 and 5's
    "filler/v8/online.pt": ("configs/filler/online.yaml", []),  # tasks versions 4-8's
    # online-10's of tasks versions 9-11, 12, 13-14, 15, 16 and 17 (issue 45): the same run, its
    # file then stamped (`STAMPS`); version 18's: two links on from it (below)
    "filler/v11/online.pt": ("configs/filler/online.yaml", []),
    "filler/v12/online.pt": ("configs/filler/online.yaml", []),
    "filler/v14/online.pt": ("configs/filler/online.yaml", []),
    "filler/v15/online.pt": ("configs/filler/online.yaml", []),
    "filler/v16/online.pt": ("configs/filler/online.yaml", []),
    "filler/v17/online.pt": ("configs/filler/online.yaml", []),
    # online-10's of tasks versions 18-19: the second link under version 17's layer (the first
    # in `FIRST`), half its games at mixed tables; its file records the layer it trained under;
    # version 20's is the same run, its file then stamped (`STAMPS`)
    **{
        f"filler/{v}online.pt": (
            "configs/filler/online-layer.yaml",
            ["exp_name=online_layer1m", "mixed_tables=0.5", "mixed_mates=rule"],
        )
        for v in ("v19/", "")
    },
    "filler/v6/forum.pt": ("configs/filler/forum.yaml", []),  # tasks versions 4-6's
    "filler/v7/minimal.pt": ("configs/filler/minimal.yaml", []),  # tasks versions 4-7's
    # sport-10's seat-filler of tasks version 5 (issue 45): the second link under the talk
    # layer's options for tables of mixed players
    "filler/v5/sport.pt": (TABLE, ["exp_name=filler_talk_layer_table2"]),
    # and of versions 6-11: two links more, with 0.75 of the league's games at mixed tables;
    # versions 12-13's, 14's, 15-16's, 17-18's and 19's are the same run, its file then
    # stamped (`STAMPS`)
    **{
        f"filler/{v}sport.pt": (
            TABLE,
            ["exp_name=filler_talk_layer_table4", "mixed_tables=0.75"],
        )
        for v in ("v11/", "v13/", "v14/", "v16/", "v18/", "")
    },
    # club-10's seat-filler of tasks versions 6-9 (issue 45): sport-10's recipe on club-10's
    # table and rules, then three more links at tables of mixed players (the last of them
    # here); versions 10's and 11's are the same run, its file then stamped (`STAMPS`)
    **{
        f"filler/{v}club.pt": (
            TABLE,
            [*CLUB, "exp_name=filler_talk_layer_table5", "mixed_tables=0.75"],
        )
        for v in ("v9/", "v10/", "v11/")
    },
    # and of versions 12-13 (and 14-16, 17: the same run, stamped otherwise): one link more from it,
    # 150 updates at full tables (the league of the zoo's training styles, the rule, league and
    # PPO bots and its own snapshots), stamped
    **{
        f"filler/{v}club.pt": (
            TABLE,
            [
                *CLUB,
                "exp_name=club_any1",
                "mixed_tables=0.0",
                "learner_team=any",
                "total_timesteps=1228800",
            ],
        )
        for v in ("v13/", "v16/", "")
    },
    # forum-10's of tasks versions 7-10 (issue 45): sport-10's talk chain on forum-10's table
    # and rules, its fourth link under the talk layer (the links after it judged weaker);
    # versions 11's, 12-13's and 14's are the same run, its file then stamped (`STAMPS`)
    **{
        f"filler/{v}forum.pt": ("configs/filler/sport-talk-layer-town-longer.yaml", FORUM)
        for v in ("v10/", "v11/", "v13/", "")
    },
    # minimal-10's of tasks version 8 (issue 45): two links against the zoo from the clone,
    # then one under the talk layer's agreed shot
    "filler/minimal.pt": ("configs/filler/minimal-agree.yaml", []),
    # city-13's of tasks version 9 (issue 45): five links from the clone under the agreed
    # shot, the last three of 300 updates (the last of them here)
    "filler/city-13.pt": (
        "configs/filler/city-agree.yaml",
        ["exp_name=city_agree5", "total_timesteps=2457600"],
    ),
}

# the layer `TABLE`'s runs train under (its ``learner_layer_options``): sport-10's file's
TABLE_LAYER = (
    "fallback=vouch",
    "mafia=false",
    "sheriff_first=true",
    "meet=true",
    "sparing=true",
    "agree=true",
)
# club-10's run's layer (`TABLE`'s) and ``mates`` (tasks version 10)
CLUB_LAYER = (*TABLE_LAYER, "mates=true")

# online-10's layer of tasks version 9: the agreed shot alone
ONLINE_LAYER = ("speech=false", "nominate=false", "vote=false", "agree=true")

# and of versions 13-14: the mark (a civilian claim) and the town handed over beside seats
# that do not bear it
ONLINE_MARK = (*ONLINE_LAYER, "mark=true", "mark_civilian=true", "defer=team+unmarked")

# and of versions 15-17: the town's mark joined by the mafia's push (`defer` apart)
ONLINE_V16 = (*ONLINE_LAYER, "mark=true", "mark_civilian=true", "mafia_push=true")

# forum-10's run's layer (its training config's options) and ``defer`` (tasks version 11)
FORUM_LAYER = ("fallback=vouch", "mafia=false", "defer=unvouched")

# a mafia seat beside teammates who are not its copies plays as the rule bots (a teammate that
# vouched or nominated on day 1 is a copy)
MATES = ("mates=true", "mates_nominate=true")

# sport-10's of versions 15 on: its mafia vouch on no day and nominate the table's top suspect
# after day 1
SPORT_V15 = (*TABLE_LAYER, "mafia_silent=true", "mafia_push=true")


def layer(*options: str) -> list[str]:
    """`baselines.ppo.stamp`'s arguments: the talk layer with these ``key=value`` options."""
    return ["--layer=belief_talk", *(f"--option={o}" for o in options)]


# shipped file -> the `baselines.ppo.stamp` arguments its last run's agent.pt is stamped with
# (the layer its network plays under, recorded in the file: the weights are the run's)
STAMPS: dict[str, list[str]] = {
    # online-10's of tasks versions 9-11 (issue 45): versions 4-8's network under the agreed shot
    "filler/v11/online.pt": layer(*ONLINE_LAYER),
    # and of version 12: a town seat played as the rule bots where three or more seats claim
    # the sheriff
    "filler/v12/online.pt": layer(*ONLINE_LAYER, "defer=team"),
    # and of versions 13-14: a town seat's empty day-1 speech claims the civilian's role (the
    # mark), and a town seat beside fewer marked seats than half the other town seats is
    # played as the rule bots too
    "filler/v14/online.pt": layer(*ONLINE_MARK),
    # and of version 15: a mafia seat's speech after day 1 that would end nominates the town
    # player the table suspects most, where he is a suspect
    "filler/v15/online.pt": layer(*ONLINE_MARK, "mafia_push=true"),
    # and of version 16: on day 1 a town seat plays as the rule bots where three or more other
    # seats have accused one seat that no claimant called black (`defer` joins ``framed``)
    "filler/v16/online.pt": layer(*ONLINE_V16, "defer=team+unmarked+framed"),
    # and of version 17: a town seat plays as the rule bots where another seat has claimed more
    # checks than nights have passed (`defer` joins ``impossible``)
    "filler/v17/online.pt": layer(*ONLINE_V16, "defer=team+unmarked+framed+impossible"),
    # and of version 20 (versions 18-19's network): after day 1, too, once a vote has put out a
    # seat that three or more other seats accused and no claimant called black (``framed_out``)
    "filler/online.pt": layer(*ONLINE_V16, "defer=team+unmarked+framed+impossible+framed_out"),
    # club-10's of tasks version 10 (issue 45): the layer its run trained under, and a mafia
    # seat beside teammates who are not its copies played as the rule bots
    "filler/v10/club.pt": layer(*CLUB_LAYER),
    # and of versions 11 and 12-13: a town seat beside teammates who are not its copies, too
    **{f"filler/{v}club.pt": layer(*CLUB_LAYER, "defer=silent") for v in ("v11/", "v13/")},
    # and of versions 14-16: a mafia seat's vouch after day 1 ends its speech instead
    "filler/v16/club.pt": layer(*CLUB_LAYER, "defer=silent", "mafia_quiet=true"),
    # and of version 17: a town seat plays as the rule bots where another seat has claimed more
    # checks than nights have passed, too
    "filler/club.pt": layer(*CLUB_LAYER, "defer=silent+impossible", "mafia_quiet=true"),
    # forum-10's of tasks version 11 (issue 45): the layer its run trained under, and a town
    # seat beside teammates who are not its copies played as the rule bots
    "filler/v11/forum.pt": layer(*FORUM_LAYER),
    # sport-10's of tasks versions 12-13 (issue 45): the layer its run trained under, and a
    # mafia seat beside teammates who are not its copies played as the rule bots
    "filler/v13/sport.pt": layer(*TABLE_LAYER, *MATES),
    # and forum-10's of versions 12-13: a mafia seat beside teammates who are not its copies, too
    "filler/v13/forum.pt": layer(*FORUM_LAYER, *MATES),
    # both of version 14: a mafia seat's vouch after day 1 ends its speech instead
    "filler/v14/sport.pt": layer(*TABLE_LAYER, *MATES, "mafia_quiet=true"),
    "filler/forum.pt": layer(*FORUM_LAYER, *MATES, "mafia_quiet=true"),
    # sport-10's of versions 15-16: its mafia vouch on no day (and so `mates` has no mark to
    # read), and a mafia seat's speech after day 1 that would end nominates the town player the
    # table suspects most, where he is a suspect
    "filler/v16/sport.pt": layer(*SPORT_V15),
    # and of versions 17-18: a town seat plays as the rule bots where another seat has claimed
    # more checks than nights have passed
    "filler/v18/sport.pt": layer(*SPORT_V15, "defer=impossible"),
    # and of version 19: so on day 1 alone (a check claimed on day 1)
    "filler/sport.pt": layer(*SPORT_V15, "defer=day1_check"),
}


def talk_chain(table: list[str]) -> list[tuple[str, list[str]]]:
    """The talk clone, five links under the talk layer, the first link of the table's options,
    with the `--set` arguments `table` (results/robust/experiments/table_chain.sh)."""
    return [*((f"configs/filler/sport-{k}.yaml", table) for k in TALK_CHAIN), (TABLE, table)]


# shipped file -> the runs before its run, in order, each from the one before it
# (config, --set overrides)
FIRST: dict[str, list[tuple[str, list[str]]]] = {
    "filler/v5/club.pt": [("configs/filler/club-clone.yaml", [])],
    # sport-10's chain on club-10 (results/robust/experiments/table_chain.sh 1 club), then two
    # links with the layer over the mafia too, all at 0.75 mixed tables (results/robust)
    "filler/v11/club.pt": [
        *talk_chain(CLUB),
        (TABLE, [*CLUB, "exp_name=filler_talk_layer_table2"]),
        *(
            (TABLE, [*CLUB, f"exp_name=filler_talk_layer_{k}", "mixed_tables=0.75", MAFIA_LAYER])
            for k in ("table3m", "table4m")
        ),
    ],
    "filler/v5/sport.pt": talk_chain([]),
    # sport-10's chain on forum-10 up to that link (results/robust/experiments/talk_chain.sh)
    "filler/forum.pt": [
        (f"configs/filler/sport-{k}.yaml", FORUM)
        for k in TALK_CHAIN[: TALK_CHAIN.index("talk-layer-town-longer")]
    ],
    # the clone of versions 4-8, then four links under the agreed shot (city-agree.yaml)
    "filler/city-13.pt": [
        RUNS["filler/v8/city-13.pt"],
        ("configs/filler/city-agree.yaml", ["exp_name=city_agree1"]),
        ("configs/filler/city-agree.yaml", ["exp_name=city_agree2"]),
        *(
            (
                "configs/filler/city-agree.yaml",
                [f"exp_name=city_agree{k}", "total_timesteps=2457600"],
            )
            for k in (3, 4)
        ),
    ],
    # the clone of versions 4-7, then two links against the zoo (configs/filler/minimal-open.yaml)
    "filler/minimal.pt": [
        RUNS["filler/v7/minimal.pt"],
        ("configs/filler/minimal-open.yaml", []),
        ("configs/filler/minimal-open.yaml", ["exp_name=minimal_open2"]),
    ],
    # version 5's chain and run, then one more link at 0.75 mixed tables (results/robust/README.md)
    "filler/sport.pt": [
        *talk_chain([]),
        RUNS["filler/v5/sport.pt"],
        (TABLE, ["exp_name=filler_talk_layer_table3", "mixed_tables=0.75"]),
    ],
}
# tasks versions 6-9's and 10's club-10 files (those of version 11's), versions 7-10's and 11's
# forum-10 files and versions 6-11's sport-10 file: the same runs as the latest version's
FIRST["filler/v9/club.pt"] = FIRST["filler/v11/club.pt"]
FIRST["filler/v10/club.pt"] = FIRST["filler/v11/club.pt"]
# version 12's club-10 file: one link more from versions 6-11's run
FIRST["filler/club.pt"] = [*FIRST["filler/v11/club.pt"], RUNS["filler/v11/club.pt"]]
FIRST["filler/v10/forum.pt"] = FIRST["filler/forum.pt"]
FIRST["filler/v11/forum.pt"] = FIRST["filler/forum.pt"]
FIRST["filler/v11/sport.pt"] = FIRST["filler/sport.pt"]
# versions 12-13's sport-10, club-10 and forum-10 files and version 14's sport-10 file: the same
# runs as the latest version's
for _task in ("sport", "club", "forum"):
    FIRST[f"filler/v13/{_task}.pt"] = FIRST[f"filler/{_task}.pt"]
FIRST["filler/v14/sport.pt"] = FIRST["filler/sport.pt"]
# versions 15-16's sport-10 file and versions 14-16's club-10 file: the same runs too
FIRST["filler/v16/sport.pt"] = FIRST["filler/sport.pt"]
FIRST["filler/v18/sport.pt"] = FIRST["filler/sport.pt"]
FIRST["filler/v16/club.pt"] = FIRST["filler/club.pt"]
# versions 18-19's online-10 file (and version 20's): versions 4-8's run, then the first link
# under version 17's layer
FIRST["filler/online.pt"] = [RUNS["filler/v8/online.pt"], ("configs/filler/online-layer.yaml", [])]
FIRST["filler/v19/online.pt"] = FIRST["filler/online.pt"]


def train_command(config: str, sets: list[str], run_dir: Path) -> list[str]:
    """The training run: `--force`, so that a rerun writes the same folder (over the last)."""
    cmd = [sys.executable, "-m", "baselines.train", "--config", config, "--force"]
    for s in [*sets, f"run_dir={run_dir}"]:
        cmd += ["--set", s]
    return cmd


def commands(name: str, run_dir: Path) -> list[list[str]]:
    """The runs that make `name`, in order; the last one's agent.pt is the file."""
    runs = [*FIRST.get(name, []), RUNS[name]]
    cmds: list[list[str]] = []
    start: Path | None = None
    for i, (config, sets) in enumerate(runs):
        last = i == len(runs) - 1
        folder = run_dir if last else run_dir / ("first" if i == 0 else f"first{i + 1}")
        if start is not None:
            sets = [*sets, f"init_weights={start}"]
        cmds.append(train_command(config, sets, folder))
        start = folder / with_overrides(load_config(ROOT / config), sets).run_name() / "agent.pt"
    if name in STAMPS:  # the file: the last run's weights under the layer it records
        stamp = [sys.executable, "-m", "baselines.ppo.stamp", str(start), *STAMPS[name]]
        cmds.append([*stamp, "--out", str(start)])
    return cmds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help=f"shipped files: {', '.join(RUNS)}")
    parser.add_argument("--all", action="store_true", help="every shipped file")
    parser.add_argument("--list", action="store_true", help="print the commands only")
    parser.add_argument("--run-dir", default="runs/reproduce", help="where the runs write")
    args = parser.parse_args()
    names = list(RUNS) if args.all or (args.list and not args.files) else args.files
    unknown = [n for n in names if n not in RUNS]
    if unknown or not names:
        parser.error(f"name shipped files ({', '.join(RUNS)}) or --all; got {unknown or 'none'}")
    for name in names:
        run_dir = Path(args.run_dir) / name.removesuffix(".pt")
        cmds = commands(name, run_dir)
        print(" && ".join(" ".join(cmd[1:]) for cmd in cmds), flush=True)
        if args.list:
            continue
        for cmd in cmds:
            subprocess.run(cmd, cwd=ROOT, check=True)
        (agent,) = run_dir.glob("*/agent.pt")
        shutil.copyfile(agent, SHIPPED / name)
        print(f"{agent} -> {SHIPPED / name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
