"""The options of `baselines.belief_talk.BeliefTalk`, apart from it so that configs can check
them without importing the policy (and the networks it wraps)."""

from __future__ import annotations

# what a speech says where the reading has nothing clear (``guess``): an accusation of the
# likeliest black seat, or a vouch for the most trusted one (an accusation tells a townsperson
# that his accuser is likely black: the rule bots read it so)
FALLBACKS = ("accuse", "vouch")
# the parts of `BeliefTalk` a loader's options turn on or off
PARTS = (
    "speech",
    "nominate",
    "vote",
    "mafia",
    "guess",
    "hide_talk",
    "hide_vouches",
    "others_talk",
    "blind_only",
    "sheriff_first",
    "meet",
    "sparing",
    "agree",
    "lead",
    "mates",
    "mates_nominate",
    "mark",
    "mark_civilian",
    "mark_mafia",
    "mafia_quiet",
    "mafia_silent",
    "mafia_push",
    "mafia_answer",
)
# where a town seat plays as the rule bots (``defer``): three or more sheriff claimants (more
# than one liar), two or more (a lie told), any claim of the sheriff or of a check by another
# seat, or any claim, check or accusation by another seat; or, once day 1's speeches are over,
# fewer other seats that have said anything than there are other town seats (teammates who are
# not the network's copies, which speak on day 1), or (``unvouched``) that, or other seats that
# have vouched at most half as many as the other town seats; or (``few_vouches``) other seats
# that have vouched at most a third as many as the other town seats, alone (where the network's
# copies vouch in most day-1 speeches but not all: sport-10's); or (``unmarked``) other seats
# that bear the layer's mark (``mark``) at most half as many as the other town seats; or
# (``framed``) on day 1, where three or more other seats have accused one seat (a team framing
# a townsperson: the benchmark's opponents' seats never do so on day 1); or (``impossible``)
# where another seat has claimed more checks than nights have passed (a liar), or
# (``day1_check``) so on day 1 alone; or (``framed_out``) after day 1, where a vote has put out
# a seat that three or more other seats had accused and no claimant had called black (a framed
# townsperson voted out: the framers are still at the table)
DEFERS = (
    "team",
    "liars",
    "claims",
    "talk",
    "silent",
    "unvouched",
    "few_vouches",
    "unmarked",
    "framed",
    "impossible",
    "day1_check",
    "framed_out",
)


def defer_triggers(defer: str | None, where: str = "BeliefTalk defer") -> frozenset[str]:
    """The triggers named by a ``defer`` value (one of `DEFERS`, or several joined by "+":
    a town seat plays as the rule bots where any of them fires); a clear error otherwise."""
    if defer is None:
        return frozenset()
    triggers = str(defer).split("+")
    if not all(t in DEFERS for t in triggers):
        from mafia_env.errors import ConfigError

        raise ConfigError(
            f"{where} {defer!r} is not one of: {', '.join(DEFERS)} (or several joined by +, "
            "as 'team+unvouched')"
        )
    return frozenset(triggers)


__all__ = ["DEFERS", "FALLBACKS", "PARTS", "defer_triggers"]
