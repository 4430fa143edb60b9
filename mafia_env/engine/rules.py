"""Rule sets: the knobs every variant sets, typed and validated.

A variant is a `Rules` value: its name, the table sizes it supports, a role table for each
size, and one value for every knob in `KNOBS`. Variant files (``mafia_env/variants/*.yaml``)
say for each knob whether the value comes from the source document or is our default.
"""

from __future__ import annotations

import difflib
import warnings
from dataclasses import dataclass, field, fields, replace
from typing import Any

# the rules of earlier eras (`earlier_rules`: records of formats 1 to 3, tasks of versions 2
# to 4); still imported from here, where they were defined before
from mafia_env.engine.eras import ERAS, earlier_rules
from mafia_env.engine.errors import ConfigError, KnobWarning
from mafia_env.engine.events import Outcome
from mafia_env.engine.roles import ROLE_NAMES, Role, Team, role_from_name


@dataclass(frozen=True)
class Knob:
    """A rule knob: its type, the values it allows, the rule it implements."""

    kind: type
    rule: str
    doc: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    nullable: bool = False
    sequence: bool = False  # a space-separated list of distinct `choices`

    def check(self, name: str, value: Any) -> Any:
        """Return `value` if this knob allows it, else raise a ConfigError saying what is."""
        if value is None and self.nullable:
            return None
        if self.sequence:
            words = value.split() if isinstance(value, str) else None
            if not words or len(set(words)) != len(words) or not set(words) <= set(self.choices):
                raise ConfigError(
                    f"knob {name!r} must be distinct words from {', '.join(self.choices)}, "
                    f"separated by spaces; got {value!r}"
                )
            return value
        if self.choices:
            if value not in self.choices:
                raise ConfigError(
                    f"knob {name!r} must be one of {', '.join(map(repr, self.choices))}; "
                    f"got {value!r}"
                )
            return value
        if self.kind is bool:
            if not isinstance(value, bool):
                raise ConfigError(f"knob {name!r} must be true or false; got {value!r}")
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(f"knob {name!r} must be an integer; got {value!r}")
            if self.minimum is not None and value < self.minimum:
                raise ConfigError(f"knob {name!r} must be >= {self.minimum}; got {value}")
            return value
        raise AssertionError(f"knob {name!r} has no checker")  # pragma: no cover


KNOBS: dict[str, Knob] = {
    "zero_night": Knob(bool, "COMMON-3", "open with a zero night on which the mafia meet"),
    "zero_night_don": Knob(
        bool,
        "ONLINE-N1",
        "on the zero night the don, not yet known to the mafia, takes a turn: he may introduce "
        "himself (nobody is shot)",
    ),
    "speech_acts": Knob(int, "COMMON-5", "speech acts allowed in one speech (K)", minimum=1),
    "claims": Knob(bool, "COMMON-5", "speeches may claim roles and checks, accuse and vouch"),
    "nominations": Knob(
        str, "SPORT-D3", "when players are nominated", choices=("speech", "round", "none")
    ),
    "self_nomination": Knob(bool, "SPORT-D1", "a speaker may nominate himself"),
    "self_vote": Knob(bool, "SPORT-D1", "a voter may vote for himself"),
    "nominees_vote": Knob(bool, "CLUB-E3", "nominees take part in the vote"),
    "nominee_ban": Knob(
        str,
        "CLUB-E3",
        "where nominees may not vote: every ballot of the day they were nominated, or only the "
        "ballots they stand in",
        choices=("day", "ballot"),
    ),
    "silent_vote": Knob(
        str,
        "SPORT-D3",
        "where the vote of a player who does not vote goes",
        choices=("last_nominee", "abstain"),
    ),
    "single_nominee": Knob(
        str,
        "SPORT-D4",
        "what a lone nominee faces: an ordinary vote, no vote on day 1, or a strict majority "
        "of the other players' votes",
        choices=("vote", "skip_day1", "strict_majority"),
    ),
    "tie": Knob(
        str,
        "SPORT-D3",
        "what a tied vote leads to",
        choices=(
            "revote_then_crash",
            "revote_then_all_leave",
            "revote_then_none",
            "none",
            "random",
        ),
    ),
    "tie_speeches": Knob(bool, "SPORT-D3", "tied players speak again before the re-vote"),
    "zero_votes": Knob(
        str,
        "ONLINE-V4",
        "a vote in which nobody got a vote: a tie of all the candidates (the tie rule applies), "
        "or nobody leaves",
        choices=("tie", "spare"),
    ),
    "last_word_vote": Knob(bool, "SPORT-D3", "a player voted out gets a last word"),
    "last_word_night": Knob(bool, "SPORT-M1", "a player killed at night gets a last word"),
    "reveal_on_death": Knob(
        str,
        "COMMON-2",
        "whose role the moderator reveals when they leave",
        choices=("none", "all", "maniac"),
    ),
    "mafia_target_team": Knob(bool, "SPORT-N1", "the mafia may shoot one of their own"),
    "don_check": Knob(bool, "SPORT-N2", "the don checks one player a night: sheriff or not"),
    "sheriff_check": Knob(bool, "SPORT-N2", "the sheriff checks one player a night: black or not"),
    "check_skip": Knob(bool, "SPORT-N2", "a check may be skipped"),
    "fouls_mute": Knob(
        int, "SPORT-F1", "fouls that take away the next day speech (0: never)", minimum=0
    ),
    "fouls_remove": Knob(int, "SPORT-F1", "fouls that remove a player (0: never)", minimum=0),
    "illegal_action": Knob(
        str,
        "COMMON-7",
        "what an action outside the mask does (null: each view's default, mafia_env/illegal.py)",
        choices=("raise", "foul", "terminate"),
        nullable=True,
    ),
    "max_days": Knob(
        int,
        "COMMON-4",
        "day limit; the game is truncated as a draw after it (null: 3n)",
        minimum=1,
        nullable=True,
    ),
    "mafia_count": Knob(
        int,
        "MINIMAL",
        "number of mafia-team players (null: the role table's)",
        minimum=1,
        nullable=True,
    ),
    "night_order": Knob(
        str,
        "CITY-N1",
        "who wakes at night, in order (a role without a player or a check knob is skipped)",
        choices=("putana", "mafia", "don", "sheriff", "doctor", "maniac", "hunt"),
        sequence=True,
    ),
    "mafia_kill": Knob(
        str,
        "CITY-N3",
        "whose shot decides: all alike, the don (while alive), or all alike with an executor",
        choices=("unanimous", "don", "executor"),
    ),
    "mafia_split": Knob(
        str,
        "CITY-N4",
        "what mafia shots that differ lead to: a miss, or the whole team leaves at morning",
        choices=("miss", "forfeit"),
    ),
    "mafia_pass": Knob(bool, "ONLINE-N4", "a mafia member may hold fire"),
    "self_shot": Knob(
        str,
        "ONLINE-N4",
        "whether a mafia member may shoot himself: always, only when alone, never",
        choices=("always", "lone", "never"),
    ),
    "mafia_see_shots": Knob(
        bool,
        "CITY-N3",
        "the mafia see each other's shots as they are made, awake together (false: they "
        "shoot blind, as with closed eyes)",
    ),
    "don_known": Knob(
        bool, "ONLINE-N2", "the mafia know who the don is (false: until he introduces himself)"
    ),
    "heal_repeat": Knob(bool, "CITY-N7", "the doctor may heal the same player two nights running"),
    "heal_self": Knob(
        int,
        "CITY-N7",
        "times the doctor may heal himself (null: no limit)",
        minimum=0,
        nullable=True,
    ),
    "heal_skip": Knob(bool, "CITY-N7", "the doctor may skip his heal"),
    "heal_against": Knob(str, "FORUM-N2", "which shots a heal stops", choices=("mafia", "all")),
    "heal_spent": Knob(
        str,
        "ONLINE-N4",
        "when a heal counts for the doctor's limits: always, or only on a night the mafia shot",
        choices=("always", "on_shot"),
    ),
    "night_announce": Knob(
        str,
        "CITY-M1",
        "how the morning names the dead: plainly; by killer when the mafia and the maniac "
        "both killed; always by killer",
        choices=("plain", "two_by_killer", "by_killer"),
    ),
    "putana_self": Knob(bool, "CITY-N2", "the putana may visit herself (blocking nobody else)"),
    "companion_heal": Knob(
        bool, "CITY-N9", "a heal saves the putana's companion from dying with her"
    ),
    "questions": Knob(
        int,
        "ONLINE-D4",
        "yes/no questions a speaker may ask in one speech, each a speech act (0: none)",
        minimum=0,
    ),
    "naming_threshold": Knob(
        int, "CLUB-E1", "a player named more than this many times is nominated", minimum=1
    ),
    "nominee_speeches": Knob(bool, "CLUB-E2", "each nominee speaks before the vote"),
    "hunt": Knob(bool, "FORUM-N3", "town players may request a free hunt at night"),
    "hunt_status": Knob(
        bool,
        "FORUM-N4",
        "a hunt request names the status guessed, mafia or maniac; a right target with the "
        "wrong status kills the hunter",
    ),
    "mafia_win": Knob(
        str,
        "FORUM-W1",
        "when the mafia win: at parity, mafia >= the others alive, or at a clear majority, "
        "mafia > the others",
        choices=("parity", "majority"),
    ),
    "hunt_ratio": Knob(
        int,
        "FORUM-N7",
        "the town loses the hunt at this many town players per mafia member, or fewer",
        minimum=0,
    ),
    "mafia_win_maniac": Knob(
        str,
        "FORUM-W1",
        "the maniac and the mafia's win: the mafia win only once he is dead, or he is counted "
        "among the others they must outnumber",
        choices=("dead", "counted"),
    ),
    "vote_count": Knob(
        str,
        "CLUB-E7",
        "how the votes are counted: one hidden ballot whose votes go public together, or in "
        "the open, nominee by nominee in nomination order, each count public before the next "
        "(a voter who has not voted raises his hand for the nominee counted, or waits)",
        choices=("hidden", "open"),
    ),
    "fouls_take_last_word": Knob(
        bool,
        "SPORT-F3",
        "a player who reaches the removal limit while he waits for his last word (voted out, "
        "killed) loses it",
    ),
    "hunted_reveal": Knob(
        str,
        "FORUM-M1",
        "whose role the morning tells when the hunt kills him: nobody's, a mafia member's, or "
        "the maniac's too",
        choices=("none", "mafia", "all"),
    ),
    "companion_reason": Knob(
        bool,
        "CITY-M2",
        "the morning says that the putana's companion leaves with her (false: he is one more "
        "victim of the night, no reason given)",
    ),
    "heal_told": Knob(
        bool,
        "ONLINE-N9",
        "each morning the doctor is told which heal of his counts for his limits (false: he "
        "learns it only from whom he may heal next)",
    ),
    "mafia_no_number": Knob(
        str,
        "CITY-N10",
        "what a mafia choice of no number (held fire, a timeout) does where the team must "
        "show one: a miss, or the team's forfeit (the don's none while he lives, any member's "
        "without him)",
        choices=("miss", "forfeit"),
    ),
    "zero_night_meeting": Knob(
        bool,
        "SPORT-N3",
        "on the zero night the black players meet in silence: each may show the team a "
        "proposed target, the don last (his word); seen by the team only",
    ),
    "shots_judged": Knob(
        str,
        "SPORT-N4",
        "whose shots decide the mafia's kill: every shot fired (a shooter removed later that "
        "night still counts), or only those of the shooters alive at morning",
        choices=("fired", "morning"),
    ),
    "discussion": Knob(
        int,
        "ONLINE-D5",
        "rounds of the general discussion after the speech round, each living player one "
        "speech act or nothing a round, a round of silence ending it (0: none)",
        minimum=0,
    ),
    "gestures": Knob(
        str,
        "ONLINE-D6",
        "who may show a gesture (yes / no / don't know; again: taken back) during another's "
        "speech: nobody, the listener a speech act names (right after it), or every living "
        "listener after each speech act",
        choices=("none", "named", "all"),
    ),
    "nominee_votes": Knob(
        str,
        "CLUB-E8",
        "where the vote of a player barred from voting as a nominee goes: to the last nominee "
        "(his own too), or nowhere",
        choices=("last_nominee", "none"),
    ),
}


@dataclass(frozen=True)
class Rules:
    """A variant: table sizes, role tables, and every knob's value."""

    name: str
    title: str
    min_players: int
    max_players: int
    default_players: int
    role_tables: dict[int, dict[Role, int]]
    zero_night: bool
    zero_night_don: bool
    speech_acts: int
    claims: bool
    nominations: str
    self_nomination: bool
    self_vote: bool
    nominees_vote: bool
    nominee_ban: str
    silent_vote: str
    single_nominee: str
    tie: str
    tie_speeches: bool
    zero_votes: str
    last_word_vote: bool
    last_word_night: bool
    reveal_on_death: str
    mafia_target_team: bool
    don_check: bool
    sheriff_check: bool
    check_skip: bool
    fouls_mute: int
    fouls_remove: int
    illegal_action: str | None
    max_days: int | None
    mafia_count: int | None
    night_order: str
    mafia_kill: str
    mafia_split: str
    mafia_pass: bool
    self_shot: str
    mafia_see_shots: bool
    don_known: bool
    heal_repeat: bool
    heal_self: int | None
    heal_skip: bool
    heal_against: str
    heal_spent: str
    night_announce: str
    putana_self: bool
    companion_heal: bool
    questions: int
    naming_threshold: int
    nominee_speeches: bool
    hunt: bool
    hunt_status: bool
    mafia_win: str
    hunt_ratio: int
    mafia_win_maniac: str
    vote_count: str
    fouls_take_last_word: bool
    hunted_reveal: str
    companion_reason: bool
    heal_told: bool
    mafia_no_number: str
    zero_night_meeting: bool
    shots_judged: str
    discussion: int
    gestures: str
    nominee_votes: str
    defaults: frozenset[str] = field(default=frozenset(), compare=False)
    role_table: str = field(default="default", compare=False)  # "source" or "default"

    def with_knobs(self, **knobs: Any) -> Rules:
        """Return these rules with some knobs overridden; an unknown knob is an error, and a
        knob that sets the rule of a role this variant never deals (`ROLE_KNOBS`) a warning."""
        for name, value in knobs.items():
            if name not in KNOBS:
                raise ConfigError(unknown_knob(name, self.name))
            KNOBS[name].check(name, value)
            self._check_dealt(name, value)
        return replace(self, **knobs) if knobs else self

    def _check_dealt(self, name: str, value: Any) -> None:
        """Warn of a knob of a role no table of this variant deals: it changes nothing.

        A warning (`KnobWarning`), not an error: a sweep may set one knob on every variant,
        and the tests play every knob value on every variant. The knob values an earlier
        era's rules set everywhere are not warned of: the records and benchmark tasks of
        those eras carry them (`mafia_env.engine.eras`)."""
        needs = ROLE_KNOBS.get(name)
        dealt = self.roles_in_play()
        if needs is None or all(r in dealt for r in needs):
            return
        if any(earlier_rules(self.name, era).get(name, _UNSET) == value for era in ERAS):
            return
        missing = " and ".join(r.label for r in needs if r not in dealt)
        warnings.warn(
            f"knob {name!r} sets a rule of the {' and '.join(r.label for r in needs)}, but "
            f"variant {self.name!r} deals no {missing} (its roles: "
            f"{', '.join(r.label for r in dealt)}): it changes nothing",
            KnobWarning,
            stacklevel=3,
        )

    def knob_values(self) -> dict[str, Any]:
        """Return every knob's value, by name."""
        return {name: getattr(self, name) for name in KNOBS}

    def check_players(self, n: int) -> None:
        """Raise a ConfigError unless this variant supports a table of `n` players."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise ConfigError(
                f"num_players must be an integer: variant {self.name!r} supports "
                f"{self.min_players} to {self.max_players} players; got {n!r}, a "
                f"{type(n).__name__}, not a number"
            )
        if not (self.min_players <= n <= self.max_players):
            raise ConfigError(
                f"variant {self.name!r} supports {self.min_players} to {self.max_players} "
                f"players; got num_players={n!r}"
            )

    def role_counts(self, n: int) -> dict[Role, int]:
        """Return the role table for `n` players, with `mafia_count` applied."""
        self.check_players(n)
        counts = dict(self.role_tables[n])
        if self.mafia_count is not None:
            black = sum(c for r, c in counts.items() if r.team is Team.MAFIA)
            if self.mafia_count * 2 >= n:
                raise ConfigError(
                    f"mafia_count={self.mafia_count} is too many for {n} players: the mafia "
                    f"would win before the game starts (at most {(n - 1) // 2})"
                )
            dons = counts.get(Role.DON, 0)
            counts[Role.MAFIA] = self.mafia_count - dons
            counts[Role.CIVILIAN] = counts.get(Role.CIVILIAN, 0) + black - self.mafia_count
            if counts[Role.MAFIA] < 0 or counts[Role.CIVILIAN] < 0:
                raise ConfigError(
                    f"mafia_count={self.mafia_count} does not fit the {n}-player table "
                    f"of {self.name!r}"
                )
        return {r: c for r, c in counts.items() if c}

    def roles_in_play(self) -> tuple[Role, ...]:
        """Return every role some table of this variant deals, in Role order."""
        present = {r for table in self.role_tables.values() for r in table if table[r]}
        return tuple(r for r in Role if r in present)

    def winner(self, town: int, black: int, maniac: int) -> Outcome | None:
        """Return who has won with these many players alive per team, or None (COMMON-4).

        The town wins when no mafia and no maniac is left. The mafia win at parity (mafia >=
        the others, SPORT-W1) or at a clear majority (mafia > the others, FORUM-W1, knob
        mafia_win), once the maniac is dead (COMMON-4) or with the maniac counted among the
        others (FORUM-W1, knob mafia_win_maniac). The maniac wins alive with at most one other
        player, the mafia gone; one mafia member and the maniac alone never resolve: a draw.
        """
        if black == 0 and maniac == 0:
            return Outcome.TOWN
        if self.mafia_win_maniac == "dead":
            others = town if maniac == 0 else -1  # (never: the maniac must be dead first)
        else:
            others = town + maniac
        if others >= 0 and (black > others or (black == others and self.mafia_win == "parity")):
            return Outcome.MAFIA
        if black == 0 and town <= 1:
            return Outcome.MANIAC
        if town == 0 and black + maniac <= 2:  # one mafia and the maniac: stalemate
            return Outcome.DRAW
        return None

    def day_limit(self, n: int) -> int:
        """Return the last day a game of `n` players may reach before it is truncated."""
        return self.max_days if self.max_days is not None else 3 * n


RULE_FIELDS = {f.name for f in fields(Rules)}
_UNSET = object()

# the knobs that set a rule of particular roles: a variant that never deals them all warns of
# such a knob (`Rules.with_knobs`), since it changes nothing
ROLE_KNOBS: dict[str, tuple[Role, ...]] = {
    "heal_repeat": (Role.DOCTOR,),
    "heal_self": (Role.DOCTOR,),
    "heal_skip": (Role.DOCTOR,),
    "heal_against": (Role.DOCTOR,),
    "heal_spent": (Role.DOCTOR,),
    "heal_told": (Role.DOCTOR,),
    "companion_heal": (Role.DOCTOR, Role.PUTANA),
    "putana_self": (Role.PUTANA,),
    "companion_reason": (Role.PUTANA,),
    "don_check": (Role.DON,),
    "don_known": (Role.DON,),
    "zero_night_don": (Role.DON,),
    "sheriff_check": (Role.SHERIFF,),
    "mafia_win_maniac": (Role.MANIAC,),
}
# the names a keyword of mafia_env.env() may be confused with, beside the knobs
ENV_KEYWORDS = ("num_players", "render_mode", "obs_mode", "lang", "backend", "roles", "belief")


def unknown_knob(name: str, variant: str) -> str:
    """Say that `name` is no knob: the nearest names (difflib), else every knob."""
    near = difflib.get_close_matches(name, [*KNOBS, *ENV_KEYWORDS], n=3, cutoff=0.6)
    if near:
        return (
            f"unknown knob {name!r} for variant {variant!r}; did you mean "
            + " or ".join(map(repr, near))
            + f"? (every knob: mafia_env.engine.rules.KNOBS, {len(KNOBS)} of them)"
        )
    return f"unknown knob {name!r} for variant {variant!r}; knobs are: {', '.join(sorted(KNOBS))}"


assert set(KNOBS) <= RULE_FIELDS, set(KNOBS) - RULE_FIELDS


def parse_roles(spec: Any, rules: Rules, n: int) -> list[Role]:
    """Check a `roles=[...]` deal against the variant's table for `n`; return it as Roles."""
    expected = rules.role_counts(n)
    allowed = ", ".join(f"{c} {r.label}" for r, c in sorted(expected.items()))
    if isinstance(spec, str):
        raise ConfigError(
            f"roles must be a list of {n} role names, one per seat (the {n}-player table of "
            f"{rules.name!r} is {allowed}); got the string {spec!r}: give a list, "
            f"roles=[{spec!r}, ...]"
        )
    if not isinstance(spec, list | tuple) or len(spec) != n:
        raise ConfigError(
            f"roles must be a list of {n} role names, one per seat (the {n}-player table of "
            f"{rules.name!r} is {allowed}); got {spec!r}"
        )
    try:
        deal = [r if isinstance(r, Role) else role_from_name(r) for r in spec]
    except ValueError as e:
        raise ConfigError(f"bad roles list: {e}") from None
    counts: dict[Role, int] = {}
    for r in deal:
        counts[r] = counts.get(r, 0) + 1
    if counts != expected:
        got = ", ".join(f"{c} {r.label}" for r, c in sorted(counts.items()))
        raise ConfigError(
            f"roles list deals {got}, but the {n}-player table of {rules.name!r} is {allowed}"
        )
    return deal


__all__ = [
    "KNOBS",
    "ROLE_KNOBS",
    "ROLE_NAMES",
    "Knob",
    "Rules",
    "earlier_rules",
    "parse_roles",
    "unknown_knob",
]
