"""A zoo of playing styles: rule bots with the habits of the people a seat-filler meets.

Each style is the rule bots (`baselines.rule`, v1) playing a `Style`: knobs that name a habit
at a decision point (who claims what and when, how the town votes and nominates, how much it
talks, the maniac's and the putana's picks, the free hunt). A style sits at every seat a
policy does not hold, so it plays both teams: ``fake_sheriff``'s mafia lie, its town plays as
the rule bots do. Every style plays every variant: a habit the rules give no meaning to (a
fake doctor where no doctor is dealt, a hunt where there is none) is the rule bots' default
decision there.

Load one from the policy registry as ``style:<name>``, seeded like any bot::

    from mafia_env.seating.policies import load_policy
    bot = load_policy("style:fake_sheriff", "sport", 10, seed=1)

`STYLES` maps each name to a `ZooStyle` (the name, a line on the habit it models, its `Style`
and its set). The styles are split in two sets (`TRAIN`, `HELD_OUT`): disjoint, together all
of `STYLES`. A family of habits (fake claims, ballots, nominations, noise, the maniac, the
putana, the hunt, talk) keeps its plainest forms in `TRAIN` and holds out one variation that
training never meets (the don faking his check where training has the team's fake sheriff;
the town's second suspect where training has its first, top-voted, contrarian and random
ballots; ...), and one table that combines several habits at once (``club_table``). So the
held-out figures measure how a policy trained on `TRAIN` holds up against a new twist on the
habits it knows, and against their mixture, not against the very bots it trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from baselines.rule import RulePolicy, Style
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.seating.policies import Policy

PREFIX = "style:"  # a style's name in the policy registry: style:<name>


@dataclass(frozen=True)
class ZooStyle:
    """A style of the zoo: its name, the habit it models (a line), its knobs, its set."""

    name: str
    description: str
    style: Style
    split: str  # "train" or "held_out"

    @property
    def policy(self) -> str:
        """Its name in the policy registry."""
        return PREFIX + self.name


# the mafia all claim sheriff on day 1, each calling the same town player black
ALL_FAKE = {"fake_claim_p": 1.0, "fake_from": "day1", "fake_claimer": "all", "fake_story": "check"}
CHECK = {"fake_story": "check"}  # a fake sheriff calls the mafia's top target black

_ZOO: list[tuple[str, str, dict[str, Any], str]] = [
    # ---- the mafia's fake claims
    ("fake_sheriff", "every mafia member claims sheriff on day 1 and calls the same town "
     "player black (the commonest human ploy)", ALL_FAKE, "train"),
    ("fake_sheriff_solo", "one mafia member claims sheriff on day 1 with a false black check",
     {"fake_claim_p": 1.0, "fake_from": "day1", **CHECK}, "train"),
    ("fake_sheriff_late", "one mafia member claims sheriff from day 2, half the days, with a "
     "false black check", {"fake_claim_p": 0.5, **CHECK}, "train"),
    ("fake_doctor", "one mafia member claims doctor on day 1 (where a doctor is dealt; "
     "elsewhere sheriff)", {"fake_claim_p": 1.0, "fake_from": "day1", "fake_role": "doctor"},
     "train"),
    ("don_fake_check", "the don claims sheriff on day 1 and calls a town player black",
     {"fake_claim_p": 1.0, "fake_from": "day1", "fake_claimer": "don", **CHECK}, "held_out"),
    # ---- the real sheriff
    ("counter_sheriff", "the real sheriff claims as soon as anyone else claims sheriff; the "
     "mafia always counter-claim an exposing sheriff",
     {"sheriff_claim": "counter", "counterclaim_p": 1.0}, "train"),
    ("open_sheriff", "the real sheriff claims in his first speech and reports every check",
     {"sheriff_claim": "open"}, "held_out"),
    # ---- the mafia by day
    ("framer", "the mafia frame one town player: all accuse, nominate and vote him, day after "
     "day", {"push": "frame"}, "train"),
    # ---- talk
    ("quiet_town", "the town's civilians say nothing but a nomination while nobody is up",
     {"talk": "quiet"}, "train"),
    ("talkative", "the town's civilians accuse their two top suspects and vouch for the one "
     "they clear most", {"talk": "talkative"}, "train"),
    ("noisy", "30% of every player's speech acts are random legal ones", {"noise_p": 0.3},
     "train"),
    ("noisy_town", "30% of the town's speech acts are random legal ones",
     {"noise_p": 0.3, "noisy": "town"}, "train"),
    ("noisy_mafia", "30% of the mafia's speech acts are random legal ones",
     {"noise_p": 0.3, "noisy": "mafia"}, "held_out"),
    # ---- the town's ballot
    ("vote_first", "the town votes the first nominee", {"ballot": "first"}, "train"),
    ("bandwagon", "the town votes whoever has the most votes so far this round",
     {"ballot": "bandwagon"}, "train"),
    ("contrarian", "the town votes the candidate with the fewest votes so far",
     {"ballot": "contrarian"}, "train"),
    ("vote_random", "the town votes any nominee, at random", {"ballot": "random"}, "train"),
    ("second_suspect", "the town votes its second suspect", {"ballot": "second"}, "held_out"),
    # ---- nominations
    ("nominate_random", "the town puts up anyone while nobody is up", {"nominate": "random"},
     "train"),
    ("nominate_neighbour", "the town puts up the next seat round the table while nobody is up",
     {"nominate": "neighbour"}, "held_out"),
    # ---- the maniac (CITY, FORUM)
    ("maniac_random", "the maniac shoots anyone", {"maniac": "random"}, "train"),
    ("maniac_suspect", "the maniac shoots the town's top suspect", {"maniac": "suspect"},
     "train"),
    ("maniac_trusted", "the maniac shoots the player the town trusts most",
     {"maniac": "trusted"}, "held_out"),
    # ---- the putana (CITY)
    ("putana_random", "the putana blocks anyone", {"block": "random"}, "train"),
    ("putana_trusted", "the putana blocks the player the town trusts most",
     {"block": "trusted"}, "held_out"),
    # ---- the free hunt (FORUM)
    ("hunt_eager", "the town requests the free hunt on its top suspect whenever it has one",
     {"hunt": "eager"}, "train"),
    ("hunt_never", "the town never requests the free hunt", {"hunt": "never"}, "held_out"),
    # ---- a table of several habits
    ("club_table", "a club table: one mafia member fakes sheriff on day 1 half the time, the "
     "sheriff counter-claims, the town talks a lot, jumps on the bandwagon, and 10% of all "
     "talk is noise",
     {"fake_claim_p": 0.5, "fake_from": "day1", **CHECK, "sheriff_claim": "counter",
      "talk": "talkative",
      "ballot": "bandwagon", "noise_p": 0.1}, "held_out"),
]  # fmt: skip

STYLES: dict[str, ZooStyle] = {
    name: ZooStyle(name, text, Style(**knobs), split) for name, text, knobs, split in _ZOO
}
TRAIN: tuple[str, ...] = tuple(n for n, s in STYLES.items() if s.split == "train")
HELD_OUT: tuple[str, ...] = tuple(n for n, s in STYLES.items() if s.split == "held_out")


def get_style(name: str) -> ZooStyle:
    """Return the zoo's style `name` (``style:`` before it allowed); a clear error if none."""
    bare = name.removeprefix(PREFIX)
    got = STYLES.get(bare)
    if got is None:
        raise ConfigError(f"unknown style {name!r}; the zoo's styles: {', '.join(STYLES)}")
    return got


def load_style(
    name: str,
    variant: str = "sport",
    num_players: int | None = None,
    seed: int = 0,
    spec: GameSpec | None = None,
) -> Policy:
    """Return a rule bot playing the zoo's style `name` at the table (seeded)."""
    return RulePolicy(variant, num_players, seed, spec=spec, style=get_style(name).style)


def _loader(name: str) -> Any:
    def load(
        variant: str = "sport",
        num_players: int | None = None,
        seed: int = 0,
        spec: GameSpec | None = None,
    ) -> Policy:
        return load_style(name, variant, num_players, seed, spec)

    load.__name__ = load.__qualname__ = f"load_{name}"
    load.__doc__ = f"``{PREFIX}{name}``: {STYLES[name].description}."
    return load


# the registry's factories, one a style (the entry points name them: baselines.zoo:LOADERS.x)
LOADERS = SimpleNamespace(**{name: _loader(name) for name in STYLES})


def register() -> None:
    """Register every style as ``style:<name>`` in the policy registry."""
    from mafia_env.seating.policies import register_policy

    for name in STYLES:
        register_policy(PREFIX + name, getattr(LOADERS, name))


def describe() -> str:
    """Return the zoo as text: a line a style, its set and what it does."""
    width = max(map(len, STYLES))
    return "\n".join(f"{n:{width}}  {s.split:8}  {s.description}" for n, s in STYLES.items())


__all__ = [
    "HELD_OUT",
    "LOADERS",
    "PREFIX",
    "STYLES",
    "TRAIN",
    "ZooStyle",
    "describe",
    "get_style",
    "load_style",
    "register",
]
