"""``filler_talk``, ``filler_vote`` and ``rule_talk``: the shipped seat-filler's network (or
the rule bots) under `baselines.belief_talk.BeliefTalk`, speaking, nominating and voting from
its reading of the claims. Experiments: over a network not trained under the layer the talk
costs it most of its wins (``results/robust/README.md``); sport-10's ``filler`` from task
version 5, club-10's from version 6 and forum-10's from version 7 were trained under it,
minimal-10's from version 8 and city-13's from version 9 under its agreed shot alone, and
online-10's of version 9 plays under that shot untrained; their files record the layer they
play under.
"""

from __future__ import annotations

from typing import Any

from baselines.belief_talk import VOTE_MARGIN, BeliefTalk
from baselines.filler_talk_options import PARTS
from baselines.rule.bot import RulePolicy
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.policy import Policy


def _parts(options: dict[str, Any]) -> dict[str, Any]:
    """Take `BeliefTalk`'s options (`PARTS`, ``fallback``, ``defer``) out of a loader's
    `options`."""
    parts: dict[str, Any] = {k: bool(options.pop(k)) for k in PARTS if k in options}
    for word in ("fallback", "defer"):
        if word in options:
            parts[word] = str(options.pop(word))
    return parts


def load_filler_talk(
    variant: str = "sport",
    num_players: int | None = None,
    seed: int = 0,
    spec: GameSpec | None = None,
    **options: Any,
) -> Policy:
    """``filler_talk``: the network of the table's shipped `filler` (bare: without the layer its
    file may record), wrapped in `BeliefTalk` with these options. Options ``speech``,
    ``nominate``, ``vote``, ``mafia`` (booleans) turn each part off; ``file`` wraps an earlier
    version's filler (`baselines.pins.RETIRED`)."""
    from baselines.filler import load_filler

    parts = _parts(options)
    table = spec if spec is not None else GameSpec.make(variant, num_players)
    inner = load_filler(variant, num_players, seed, spec=spec, bare=True, **options)
    return BeliefTalk(table, inner, seed, **parts)


def load_filler_vote(
    variant: str = "sport",
    num_players: int | None = None,
    seed: int = 0,
    spec: GameSpec | None = None,
    **options: Any,
) -> Policy:
    """``filler_vote``: `filler_talk` with its votes only: a town seat's ballot for a candidate
    a sheriff claimant called black goes instead to the candidate the claims reading finds
    likeliest black, where that one is likelier by more than `VOTE_MARGIN` (the claimant is
    not believed); speech and nominations are the network's."""
    parts = dict(speech=False, nominate=False, vote=True, mafia=False, blind_only=True)
    return load_filler_talk(variant, num_players, seed, spec, **{**parts, **options})


def load_rule_talk(
    variant: str = "sport",
    num_players: int | None = None,
    seed: int = 0,
    spec: GameSpec | None = None,
    **options: Any,
) -> Policy:
    """``rule_talk``: the rule bots wrapped in `BeliefTalk`: they say what the claims reading
    believes, spread day 1's first nomination and overrule ballots as `filler_talk` does (the
    same options), and where the reading has nothing clear they vouch for the seat they trust
    most (``fallback="vouch"``: a guessed accusation makes its target, a rule bot, suspect the
    accuser); every other decision is the rule bots'. A teacher for a seat-filler that
    talks: its own team's talk is at the table in every game it plays."""
    parts = {"fallback": "vouch", **_parts(options)}
    if options:
        raise ConfigError(
            f"rule_talk takes no options {sorted(options)}; it takes: "
            f"{', '.join(PARTS)}, fallback, defer"
        )
    table = spec if spec is not None else GameSpec.make(variant, num_players)
    return BeliefTalk(table, RulePolicy(spec=table, seed=seed), seed, **parts)


__all__ = [
    "PARTS",
    "VOTE_MARGIN",
    "BeliefTalk",
    "load_filler_talk",
    "load_filler_vote",
    "load_rule_talk",
]
