"""The benchmark's pins: which shipped file each task's shipped opponents are, by SHA-256.

A benchmark task (`mafia_env.tasks`) names its opponents; three of them load a file shipped
in ``baselines/checkpoints`` (`SHIPPED_OPPONENTS`: ``ppo``, ``league`` from version 3,
``filler`` from version 4). Each such file is pinned here by the first 16 hex digits of its
SHA-256 (``sha256sum FILE | cut -c1-16``), per task version, task and opponent, and
`baselines.benchmark` refuses to run against another file, or against one not pinned yet.

`digest(task)` is the pinned digest of a task: its definition and its pins, hashed as
`Task.digest()` hashed them when the pins lived in the task (so every digest pinned by the
tests and stored in ``results/`` keeps its value). A file retrained means a new task version,
its pins here, its digests in the tests and new reference results; the file an earlier
version pinned stays shipped, in its kind's folder under ``v<version>/`` (`RETIRED`), and the
earlier version keeps playing it (`shipped_file`, `load_options`). So does a side of a shipped
bot handed to another bot (`SEATED_V6`: the rule bots on city-13's maniac seat): the file is
the same, the games are not.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from baselines.shipped import SHIPPED, shipped_checkpoint
from mafia_env.tasks import Task, fields_digest

# opponents that load a file shipped with baselines (baselines.shipped.SHIPPED_FOLDERS)
SHIPPED_OPPONENTS = ("ppo", "league", "filler")

# THE PIN TABLE of version 2: task -> its "ppo" opponent's file, baselines/checkpoints/V[-N].pt
PINS_V2: dict[str, dict[str, str]] = {
    "sport-10": {"ppo": "cae6e47576ce8f4f"},  # sport.pt
    "city-13": {"ppo": "5a1f2312c6c3c751"},  # city-13.pt
    "club-10": {"ppo": "9c196aada9ee5697"},  # club.pt
    "online-10": {"ppo": "08198687f9a7a2cb"},  # online.pt
    "forum-10": {"ppo": "f34d94601de232b9"},  # forum.pt
    "minimal-10": {"ppo": "20c8514abff50a4d"},  # minimal.pt
}

# THE PIN TABLE of version 3: task -> shipped opponent -> its file's pin. "ppo" loads
# baselines/checkpoints/V[-N].pt, "league" loads baselines/checkpoints/league/V[-N].pt. An empty
# pin means "not shipped yet": `baselines.benchmark` refuses the task, saying so, until the file
# is shipped and pinned here (and the task's digest in tests/benchmark/test_benchmark.py is
# updated with it).
PINS_V3: dict[str, dict[str, str]] = {
    "sport-10": {"ppo": "cae6e47576ce8f4f", "league": "80e385f93653c89e"},
    "city-13": {"ppo": "5a1f2312c6c3c751", "league": "b579b678fcb561e1"},
    "club-10": {"ppo": "9c196aada9ee5697", "league": "3b4826ea3f5a8153"},
    "online-10": {"ppo": "08198687f9a7a2cb", "league": "dd5729cb95bfd742"},
    "forum-10": {"ppo": "f34d94601de232b9", "league": "2e26897637b3a47c"},
    "minimal-10": {"ppo": "20c8514abff50a4d", "league": "a71ea2b3bdd323bd"},
}

# THE PIN TABLE of version 4: version 3's pins and the seat-filler's file,
# baselines/checkpoints/filler/V[-N].pt. A filler file that is retrained means a new pin here,
# the task's digest in tests/benchmark/test_tasks_v4.py and its results in results/v4/ made
# again (scripts/reference_table.py --run ... --tasks TASK --save ...).
PINS_V4: dict[str, dict[str, str]] = {
    task: {**pins, "filler": filler}
    for (task, pins), filler in zip(
        PINS_V3.items(),
        (
            "c4bd1a814f92d049",  # sport-10: filler/sport.pt
            "3b77607b5b98aff0",  # city-13: filler/city-13.pt
            "a505a6cfdddc368e",  # club-10: filler/club.pt
            "279298a51ff51be2",  # online-10: filler/online.pt
            "76a3a8f10ca79e36",  # forum-10: filler/forum.pt
            "8012e8297cf62503",  # minimal-10: filler/minimal.pt
        ),
        strict=True,
    )
}

# THE PIN TABLE of version 5: version 4's, with sport-10's seat-filler retrained (issue 45:
# configs/filler/sport-talk-layer-table.yaml, two links from sport-talk-layer-town-6; it plays
# under the talk layer its file records). Version 4 keeps its file: `RETIRED`.
PINS_V5: dict[str, dict[str, str]] = {
    **PINS_V4,
    "sport-10": {**PINS_V4["sport-10"], "filler": "8a47446b63da531b"},  # filler/sport.pt
}

# THE PIN TABLE of version 6: version 5's, with club-10's seat-filler retrained (issue 45: the
# talk recipe of sport-10's, three more links at tables of mixed players; it plays under the
# talk layer its file records), sport-10's trained two links further at tables of mixed
# players, and city-13's filler seated otherwise (`SEATED_V6`).
PINS_V6: dict[str, dict[str, str]] = {
    **PINS_V5,
    "sport-10": {**PINS_V5["sport-10"], "filler": "e28ee3492a535372"},  # filler/v11/sport.pt
    "club-10": {**PINS_V5["club-10"], "filler": "355cddf430b9e6d3"},  # filler/v9/club.pt
}

# THE PIN TABLE of version 7: version 6's, with forum-10's seat-filler retrained (issue 45:
# sport-10's talk recipe on forum-10's table and rules; it plays under the talk layer its file
# records), and its maniac's seat held by the rule bots (`SEATED_V7`).
PINS_V7: dict[str, dict[str, str]] = {
    **PINS_V6,
    "forum-10": {**PINS_V6["forum-10"], "filler": "23b13a657c147ed7"},  # filler/forum.pt
}

# THE PIN TABLE of version 8: version 7's, with minimal-10's seat-filler trained against the
# zoo (issue 45: two links of PFSP against the rule bots, the networks and the zoo's training
# styles, then one under the talk layer's agreed shot, which its file records).
PINS_V8: dict[str, dict[str, str]] = {
    **PINS_V7,
    "minimal-10": {**PINS_V7["minimal-10"], "filler": "d0aade3a9f7b29e7"},  # filler/minimal.pt
}

# THE PIN TABLE of version 9: version 8's, with city-13's seat-filler (its network on the
# mafia's seats) trained five links against the zoo under the talk layer's agreed shot, and
# online-10's network of versions 4-8 playing under that shot untrained (issue 45: a team of
# mixed players whose shots split misses, CITY-N4 forfeits); each file records its layer.
PINS_V9: dict[str, dict[str, str]] = {
    **PINS_V8,
    "city-13": {**PINS_V8["city-13"], "filler": "e1931f8475b95ab1"},  # filler/city-13.pt
    "online-10": {**PINS_V8["online-10"], "filler": "02dead87a7250fc1"},  # filler/v11/online.pt
}

# THE PIN TABLE of version 10: version 9's, with club-10's seat-filler network of versions 6-9
# stamped with the talk layer's ``mates`` (issue 45: a mafia seat beside teammates who are not
# its copies, who did not vouch on day 1, plays as the rule bots: the team's conventions are
# the table's); the same weights, its file records the layer.
PINS_V10: dict[str, dict[str, str]] = {
    **PINS_V9,
    "club-10": {**PINS_V9["club-10"], "filler": "e7886588811b603e"},  # filler/v10/club.pt
}

# THE PIN TABLE of version 11: version 10's, with club-10's seat-filler network of versions
# 6-10 stamped with the talk layer's ``defer="silent"`` and forum-10's of versions 7-10 with
# ``defer="unvouched"`` (issue 45: a town seat beside teammates who are not its copies, who
# said nothing or did not vouch on day 1, plays as the rule bots: the team's conventions are
# the table's); the same weights, each file records its layer.
PINS_V11: dict[str, dict[str, str]] = {
    **PINS_V10,
    "club-10": {**PINS_V10["club-10"], "filler": "e0f6351bd346da71"},  # filler/v11/club.pt
    "forum-10": {**PINS_V10["forum-10"], "filler": "b10a86c824f5ea7c"},  # filler/v11/forum.pt
}

# THE PIN TABLE of version 12: version 11's, with forum-10's seat-filler network of versions
# 7-11 and sport-10's of versions 6-11 stamped with the talk layer's ``mates`` and
# ``mates_nominate`` as well (issue 45: a mafia seat beside teammates who are not its copies,
# who neither vouched nor nominated on day 1, plays as the rule bots: the team's conventions
# are the table's), and online-10's of versions 9-11 with ``defer="team"`` (a town seat plays
# as the rule bots where three or more seats claim the sheriff: a team of fake sheriffs, which
# the network never met), the same weights, each file records its layer; and club-10's
# trained one link further (150 updates against the zoo, the league and itself at full tables)
# under the same layer and options.
PINS_V12: dict[str, dict[str, str]] = {
    **PINS_V11,
    "sport-10": {**PINS_V11["sport-10"], "filler": "ad5c1a4bfb929569"},  # filler/v13/sport.pt
    "club-10": {**PINS_V11["club-10"], "filler": "18db6bcdcbee97c9"},  # filler/v13/club.pt
    "online-10": {**PINS_V11["online-10"], "filler": "c60fe3a78a3b7ec6"},  # filler/v12/online.pt
    "forum-10": {**PINS_V11["forum-10"], "filler": "513f99b96c15b20e"},  # filler/v13/forum.pt
}

# THE PIN TABLE of version 13: version 12's, with online-10's seat-filler network of versions
# 9-12 stamped with the talk layer's ``mark`` and ``mark_civilian`` and ``defer="team+
# unmarked"`` (issue 45: a town seat whose day-1 speech says nothing claims the civilian's role
# before it ends, a mark its copies read and its network does not see; a town seat beside
# fewer marked seats than half the other town seats, teammates who are not its copies, plays
# as the rule bots once day 1's speeches are over), the same weights, its file records the
# layer.
PINS_V13: dict[str, dict[str, str]] = {
    **PINS_V12,
    "online-10": {**PINS_V12["online-10"], "filler": "f60cf7a2796e4974"},  # filler/v14/online.pt
}

# THE PIN TABLE of version 14: version 13's, with sport-10's, club-10's and forum-10's
# seat-filler networks of versions 12-13 stamped with the talk layer's ``mafia_quiet`` as well
# (issue 45: a mafia seat's vouch after day 1 ends its speech instead; a trained attacker's
# town had learned the copies' daily vouches), the same weights, their files record the layer.
PINS_V14: dict[str, dict[str, str]] = {
    **PINS_V13,
    "sport-10": {**PINS_V13["sport-10"], "filler": "5bd236113ce5d1f2"},  # filler/v14/sport.pt
    "club-10": {**PINS_V13["club-10"], "filler": "5983442cc48d30c2"},  # filler/v16/club.pt
    "forum-10": {**PINS_V13["forum-10"], "filler": "046009d727dafcc4"},  # filler/forum.pt
}

# THE PIN TABLE of version 15: version 14's, with sport-10's and online-10's seat-filler
# networks of version 14 stamped with the talk layer's ``mafia_push`` (issue 45: a mafia seat's
# speech after day 1 that would end nominates the town player the table suspects most, where
# he is a suspect), sport-10's with ``mafia_silent`` for ``mafia_quiet`` and without ``mates``
# (its mafia vouch on no day), the same weights, their files record the layer.
PINS_V15: dict[str, dict[str, str]] = {
    **PINS_V14,
    "sport-10": {**PINS_V14["sport-10"], "filler": "232a5dde3052fed3"},  # filler/v16/sport.pt
    "online-10": {**PINS_V14["online-10"], "filler": "5d355b6795bb00d9"},  # filler/v15/online.pt
}

# THE PIN TABLE of version 16: version 15's, with online-10's seat-filler network of version 15
# stamped with the talk layer's ``defer="team+unmarked+framed"`` (issue 45: on day 1 a town
# seat plays as the rule bots where three or more other seats have accused one seat that no
# claimant called black), the same weights, its file records the layer.
PINS_V16: dict[str, dict[str, str]] = {
    **PINS_V15,
    "online-10": {**PINS_V15["online-10"], "filler": "b94f3b1f0e890f87"},  # filler/v16/online.pt
}

# THE PIN TABLE of version 17: version 16's, with sport-10's, club-10's and online-10's
# seat-filler networks of version 16 stamped with the talk layer's ``impossible`` joined to
# their ``defer`` (issue 45: a town seat plays as the rule bots where another seat has claimed
# more checks than nights have passed, as a sheriff's check claimed on day 1: a liar), the same
# weights, their files record the layer.
PINS_V17: dict[str, dict[str, str]] = {
    **PINS_V16,
    "sport-10": {**PINS_V16["sport-10"], "filler": "a7f3b5d8f8965326"},  # filler/v18/sport.pt
    "club-10": {**PINS_V16["club-10"], "filler": "0bf2bc70de746e28"},  # filler/club.pt
    "online-10": {**PINS_V16["online-10"], "filler": "baa57a99382b8307"},  # filler/v17/online.pt
}

# THE PIN TABLE of version 18: version 17's, with online-10's seat-filler network trained two
# links on from version 17's (issue 45: under the layer version 17's file records, in a league of
# the zoo's training styles, the second link with half its games at mixed tables), its file
# records the layer.
PINS_V18: dict[str, dict[str, str]] = {
    **PINS_V17,
    "online-10": {**PINS_V17["online-10"], "filler": "27ec9c9c3ac63b96"},  # filler/v19/online.pt
}

# THE PIN TABLE of version 19: version 18's, with sport-10's seat-filler network of versions
# 17-18 stamped with ``defer="day1_check"`` for ``"impossible"`` (issue 45: its town plays as
# the rule bots where another seat has claimed a check on day 1, not on later days), the same
# weights, its file records the layer.
PINS_V19: dict[str, dict[str, str]] = {
    **PINS_V18,
    "sport-10": {**PINS_V18["sport-10"], "filler": "059e4982430e730e"},  # filler/sport.pt
}

# THE PIN TABLE of version 20: version 19's, with online-10's seat-filler network of versions
# 18-19 stamped with ``framed_out`` joined to its ``defer`` (issue 45: its town plays as the rule
# bots after day 1 once a vote has put out a seat that three or more other seats accused and no
# claimant called black), the same weights, its file records the layer.
PINS_V20: dict[str, dict[str, str]] = {
    **PINS_V19,
    "online-10": {**PINS_V19["online-10"], "filler": "f01edcbc5d72956f"},  # filler/online.pt
}

PINS_BY_VERSION: dict[int, dict[str, dict[str, str]]] = {
    2: PINS_V2,
    3: PINS_V3,
    4: PINS_V4,
    5: PINS_V5,
    6: PINS_V6,
    7: PINS_V7,
    8: PINS_V8,
    9: PINS_V9,
    10: PINS_V10,
    11: PINS_V11,
    12: PINS_V12,
    13: PINS_V13,
    14: PINS_V14,
    15: PINS_V15,
    16: PINS_V16,
    17: PINS_V17,
    18: PINS_V18,
    19: PINS_V19,
    20: PINS_V20,
}

# The sides of a shipped bot that its file's network does not play, per version: task ->
# shipped opponent -> {side: the bot that plays that side} (`baselines.filler.BySide`: each
# seat's row goes to its own team's policy). A file pins the network; this table pins who
# sits where, so a side handed to another bot is a new version too. Version 4 seated the rule
# bots on city-13's town (the clone's teacher there in every cell); version 6 on its maniac's
# seat as well (issue 45: the network's maniac was below the rule bots' against 12 of the
# zoo's 28 styles, and never above beyond noise); version 7 on forum-10's maniac's seat (the
# retrained network's maniac was below the rule bots' against two styles, and level over the
# zoo).
SEATED_V4: dict[str, dict[str, dict[str, str]]] = {"city-13": {"filler": {"town": "rule"}}}
SEATED_V6: dict[str, dict[str, dict[str, str]]] = {
    "city-13": {"filler": {"town": "rule", "maniac": "rule"}}
}
SEATED_V7: dict[str, dict[str, dict[str, str]]] = {
    **SEATED_V6,
    "forum-10": {"filler": {"maniac": "rule"}},
}
SEATED_BY_VERSION: dict[int, dict[str, dict[str, dict[str, str]]]] = {
    4: SEATED_V4,
    5: SEATED_V4,
    6: SEATED_V6,
    7: SEATED_V7,
    8: SEATED_V7,
    9: SEATED_V7,
    10: SEATED_V7,
    11: SEATED_V7,
    12: SEATED_V7,
    13: SEATED_V7,
    14: SEATED_V7,
    15: SEATED_V7,
    16: SEATED_V7,
    17: SEATED_V7,
    18: SEATED_V7,
    19: SEATED_V7,
    20: SEATED_V7,
}

# The files of earlier versions that a later one retrained: version -> task -> opponent -> the
# file (under baselines/checkpoints) that the version pinned and keeps playing.
_FORUM_V6 = {"forum-10": {"filler": "filler/v6/forum.pt"}}
_MINIMAL_V7 = {"minimal-10": {"filler": "filler/v7/minimal.pt"}}
_V8 = {
    "city-13": {"filler": "filler/v8/city-13.pt"},
    "online-10": {"filler": "filler/v8/online.pt"},
}
_V9 = {"club-10": {"filler": "filler/v9/club.pt"}}
_SPORT_V11 = {"sport-10": {"filler": "filler/v11/sport.pt"}}  # versions 6-11's
_ONLINE_V11 = {"online-10": {"filler": "filler/v11/online.pt"}}  # versions 9-11's
_ONLINE_V12 = {"online-10": {"filler": "filler/v12/online.pt"}}  # version 12's
_V13 = {  # versions 12-13's
    "sport-10": {"filler": "filler/v13/sport.pt"},
    "club-10": {"filler": "filler/v13/club.pt"},
    "forum-10": {"filler": "filler/v13/forum.pt"},
}
_ONLINE_V14 = {"online-10": {"filler": "filler/v14/online.pt"}}  # versions 13-14's
_FORUM_V10 = {"forum-10": {"filler": "filler/v10/forum.pt"}}
_CLUB_V16 = {"club-10": {"filler": "filler/v16/club.pt"}}  # versions 14-16's
_SPORT_V16 = {"sport-10": {"filler": "filler/v16/sport.pt"}}  # versions 15-16's
_SPORT_V18 = {"sport-10": {"filler": "filler/v18/sport.pt"}}  # versions 17-18's
_ONLINE_V19 = {"online-10": {"filler": "filler/v19/online.pt"}}  # versions 18-19's
_V10 = {"club-10": {"filler": "filler/v10/club.pt"}, **_FORUM_V10}
RETIRED: dict[int, dict[str, dict[str, str]]] = {
    4: {
        "sport-10": {"filler": "filler/v4/sport.pt"},
        "club-10": {"filler": "filler/v5/club.pt"},
        **_FORUM_V6,
        **_MINIMAL_V7,
        **_V8,
    },
    5: {
        "sport-10": {"filler": "filler/v5/sport.pt"},
        "club-10": {"filler": "filler/v5/club.pt"},
        **_FORUM_V6,
        **_MINIMAL_V7,
        **_V8,
    },
    6: {**_FORUM_V6, **_MINIMAL_V7, **_V8, **_V9, **_SPORT_V11},
    7: {**_MINIMAL_V7, **_V8, **_V9, **_FORUM_V10, **_SPORT_V11},
    8: {**_V8, **_V9, **_FORUM_V10, **_SPORT_V11},
    9: {**_V9, **_FORUM_V10, **_SPORT_V11, **_ONLINE_V11},
    10: {**_V10, **_SPORT_V11, **_ONLINE_V11},
    11: {
        "club-10": {"filler": "filler/v11/club.pt"},
        "forum-10": {"filler": "filler/v11/forum.pt"},
        **_SPORT_V11,
        **_ONLINE_V11,
    },
    12: {**_ONLINE_V12, **_V13},
    13: {**_V13, **_ONLINE_V14},
    14: {"sport-10": {"filler": "filler/v14/sport.pt"}, **_ONLINE_V14, **_CLUB_V16},
    15: {"online-10": {"filler": "filler/v15/online.pt"}, **_SPORT_V16, **_CLUB_V16},
    16: {"online-10": {"filler": "filler/v16/online.pt"}, **_SPORT_V16, **_CLUB_V16},
    17: {"online-10": {"filler": "filler/v17/online.pt"}, **_SPORT_V18},
    18: {**_SPORT_V18, **_ONLINE_V19},
    19: _ONLINE_V19,
}


def table_name(task: Task) -> str:
    """Return the name of the pin table of `task`'s version (for error messages)."""
    return f"PINS_V{task.version}"


def pins(task: Task) -> dict[str, str]:
    """Return `task`'s pins: shipped opponent -> its file's pin ({} for a task not pinned)."""
    return dict(PINS_BY_VERSION.get(task.version, {}).get(task.name, {}))


def pin(task: Task, opponent: str) -> str:
    """Return the pinned SHA-256 prefix of a shipped opponent's file ("" if none)."""
    return pins(task).get(opponent, "")


def _retired(task: Task, kind: str) -> Path | None:
    """The retired file of the shipped bot `kind` that `task`'s version plays (`RETIRED`)."""
    rel = RETIRED.get(task.version, {}).get(task.name, {}).get(str(kind))
    return SHIPPED / rel if rel else None


def shipped_file(task: Task, kind: str) -> Path:
    """Return the file of the shipped bot `kind` that `task` plays: its version's retired file
    where a later version retrained it (`RETIRED`), else the one shipped now."""
    return _retired(task, kind) or shipped_checkpoint(task.variant, task.num_players, kind)


def seated(task: Task, kind: str) -> dict[str, str]:
    """Return the sides of `task`'s shipped bot `kind` that another bot plays (`SEATED_V6`):
    {side: bot}, {} where the file's network plays every side."""
    return dict(SEATED_BY_VERSION.get(task.version, {}).get(task.name, {}).get(str(kind), {}))


def latest_seated(file: str | Path, kind: str = "filler") -> dict[str, str]:
    """Return the sides that the latest tasks version seats other bots on where it plays the
    shipped `file` (`seated`), {} for a file no task of it plays: what ``load_policy(kind)``
    does with that file unless told otherwise (`load_options`)."""
    from mafia_env.tasks import TASKS

    path = Path(file).resolve()
    for task in TASKS.values():
        if str(kind) in task.opponents and shipped_file(task, kind).resolve() == path:
            return seated(task, kind)
    return {}


def load_options(task: Task, name: str) -> dict[str, Any]:
    """Return the options that make ``load_policy(name, ...)`` play `task`'s own shipped bot:
    ``{"file": ...}`` where `task`'s version plays a retired file, ``{"sides": ...}`` where it
    seats other bots on other sides than the latest version does with that file (`seated`),
    else {}."""
    retired = _retired(task, name)
    out: dict[str, Any] = {"file": retired} if retired else {}
    if name in SHIPPED_OPPONENTS:
        sides = seated(task, name)
        if sides != latest_seated(shipped_file(task, name), name):
            out["sides"] = sides
    return out


def digest(task: Task) -> str:
    """Return the pinned digest of `task`: its definition and its pins, hashed (pinned by the
    tests, stored with each benchmark result). Version 2 pinned its ``ppo`` file in a field of
    its own, later versions in ``pins`` (left out when empty), as the tasks once held them."""
    data = asdict(task)
    table = pins(task)
    if task.version == 2:
        data["ppo_sha256"] = table.get("ppo", "")
    else:
        data["ppo_sha256"] = ""
        if table:
            data["pins"] = sorted(table.items())
    if task.version >= 6:  # who sits where (`SEATED_V6`; earlier versions kept it in code)
        seats = SEATED_BY_VERSION[task.version].get(task.name, {})
        data["seated"] = sorted((kind, sorted(by.items())) for kind, by in seats.items())
    return fields_digest(data)


__all__ = [
    "PINS_BY_VERSION",
    "PINS_V2",
    "PINS_V3",
    "PINS_V4",
    "PINS_V5",
    "PINS_V6",
    "PINS_V7",
    "PINS_V8",
    "PINS_V9",
    "PINS_V10",
    "PINS_V11",
    "RETIRED",
    "SEATED_BY_VERSION",
    "SEATED_V4",
    "SEATED_V6",
    "SEATED_V7",
    "SHIPPED_OPPONENTS",
    "digest",
    "latest_seated",
    "load_options",
    "pin",
    "pins",
    "seated",
    "shipped_file",
    "table_name",
]
