"""Rule bots v2: the v1 strategies (`baselines.rule`), deciding from a posterior over the deal.

Registered as ``rule_v2`` (``rule`` and ``rule_v1`` stay the v1 bots that the benchmark
tasks v2 and v3 pin). A `RulePolicyV2` is a `RulePolicy` playing the style `RULE_V2`: the
same decisions over the batch, with the habits that read the posterior over the deal
(`baselines.rule.posterior`; where the table's observation carries the belief piece, the
observation option ``belief="deduction"``, it takes the environment's exact deduction from
it as hard facts).

**Decisions** from the posterior (`Style`'s knobs): the town's reading of the table adds the
posterior's log-odds to v1's scores (``reading``), so it nominates, votes and accuses by
P(black) (the earliest nominee among the near-top, so the town's votes meet), and abstains
only where the posterior clears every candidate (``abstain``); the sheriff and the don pick
checks by expected information (``check``, ``don_check``: the entropy of the answer, the
likelier answer first among equals: "black?" for the sheriff, "sheriff?" for the don, whose
P(sheriff) comes from the claims and the town's posterior); the doctor heals the likeliest
sheriff, else the likeliest town player (``heal``); the putana blocks and the free hunt goes
to the likeliest black (``block``, ``hunt``: only when it is near sure, a wrong hunt kills
the hunter); the mafia push the town player the town's posterior suspects most, vote out
with the town a teammate it has all but proven, and send out as executor the member it
suspects least (``executor``). Speech plans and the mafia's agreed night shot are v1's,
reading the blended scores.
"""

from __future__ import annotations

from baselines.rule.bot import RulePolicy
from baselines.rule.posterior import EPS, Posterior, binary_entropy, team_sets
from baselines.rule.style import RULE_V2, Style


class RulePolicyV2(RulePolicy):
    """Rule bots v2: v1's play deciding from a posterior over the deal (`RULE_V2`)."""

    default_style: Style = RULE_V2


__all__ = ["EPS", "RULE_V2", "Posterior", "RulePolicyV2", "binary_entropy", "team_sets"]
