"""Rule-based bots that play as a sensible club player would (v1; v2 reads the belief).

`RulePolicy` serves every seat of every role: each call reads a batch of observations through
their named views (`mafia_env.observe.ObsLayout.views`) and the action masks, and never the
environment's hidden state. It keeps no memory between calls: everything it needs (what it
said in this speech, its own checks, the claims on the table) is in the observation, so one
policy object can play any number of seats and games at once.

A decision is made in two steps. The kind of turn the agent is taking (the `my_turn` view:
"speech", "vote", "mafia_kill", ...) picks a decision from `RulePolicy.turns`; a turn kind with
no decision (a variant's new turn) falls back to ``pass`` where it is legal, else a uniformly
random legal action. Speech plans are chosen by role (`RulePolicy.speakers`, then by team).
Whatever a decision chooses is checked against the mask; an illegal or missing choice takes
the same fallback, so a bot never plays an illegal action.

Strategies (seats are 0-based inside, as in the engine):

- Town reading of the table (`town_suspicion`): a sheriff claimant is *credible* if his
  latest role claim is sheriff, he claims no more checks than nights have passed, never calls
  one seat both red and black, does not accuse a seat he called red (or vouch for one he
  called black), and did not call the reading player black (a town player knows he is red).
  A single credible claimant is trusted (if two are credible and exactly one was killed at
  night, the night victim is trusted: the mafia shoot the real sheriff). The trusted
  sheriff's black checks are strong evidence, his red checks and himself are cleared; a
  second sheriff claimant, players who defend his black checks or attack him or his red
  checks (accusing, voting, nominating) are suspected. Players who confess a black role,
  claim checks without claiming sheriff, vote or nominate against the reader or against
  players the mafia shot, or abstain, nominate or vote for themselves, are suspected a little.
- Civilian (and any town role without its own speaker): accuses a strong suspect, nominates
  a suspect (or, while nobody is nominated today, the top-scored player: someone must be put
  up), votes for the most suspected candidate (the earliest nominee on a tie, so the town's
  votes meet), abstains where abstaining is allowed and every candidate is cleared, and in a car
  crash votes yes when a tied player is suspected and none is cleared. In an open count
  (CLUB-E7, ONLINE-V7) every bot raises its hand at the count of the candidate it would vote
  for among those not counted yet.
- Sheriff: checks the most suspected unchecked player (seeded random among equals). When a
  check is black, or when in danger (nominated, in a tie speech or his last word), he claims
  sheriff, announces his black checks, then his red ones, and nominates a black check. Once
  claimed, he announces each new check. He knows every other sheriff claimant is black.
- Mafia (mafia and don): shoot by a ranking all mafia compute alike from public facts (the
  mafia's shots are not seen by each other, so agreement must come from shared knowledge): a
  credible sheriff claimant first, then a player the don accused (the don's signal that he
  found the sheriff), then players who accused or called a mafia member black, then players
  the town trusts, the rest in an order drawn from a hash of the public table; the sheriff a
  teammate counter-claims is not shot (it would prove the teammate a liar), and players the
  mafia nominated or voted against are shot last (no trail). Where they are awake together
  and all must agree (CLUB-N4, ONLINE-N8) a member shoots where a teammate already points.
  At SPORT's zero-night meeting (SPORT-N3) each shows the team that same top-ranked player,
  and on the first night they shoot the don's word. Listeners do not gesture (ONLINE-D6) and
  say nothing in the general discussion (ONLINE-D5): those turns take the fallback, pass.
  By day they blend in: they nominate only with a public reason (the town's own suspicion,
  or a player who acted against them), vote for the town player the town suspects most, vote
  out with the town a teammate it has exposed, and vote yes in a car crash only when no
  teammate is in it.
  Now and then (a coin flipped from the public table, so one designated member decides) a
  mafia player counter-claims sheriff with a false black check on the sheriff who exposed a
  teammate, or claims sheriff unprompted with a false black check on a town player.
- Don: as mafia, and checks for the sheriff among unchecked town players, preferring those
  who accused mafia members and leaving credible claimants (already targets) for last. When
  he finds the sheriff he accuses him in his next speech: that is the signal the other mafia
  members shoot by.
- Doctor: heals the trusted sheriff, else the player the town trusts most (never himself
  while someone else may be healed). Putana: blocks the most suspected player. Maniac: picks
  off players who claimed a role (sheriff, doctor, putana, ...), else a seeded random one.
  Free hunt (town): requested on the top suspect only when the suspicion is strong, since a
  wrong hunt kills the hunter. Executor (mafia): the member the town suspects least. The
  nomination round (naming a seat): the top suspect, or for the mafia their top target.
  Asked "do you claim role R?", a player answers yes iff R is the role he shows the table
  (his public claim, else civilian). These turns exist in the CITY, CLUB, ONLINE and FORUM
  rules; any other turn kind takes the fallback.

Randomness: the bot's own choices among equals come from a generator seeded by `seed`, so
games replay. Choices the mafia must share (kills, the designated counter-claimer) use a hash
of the public table instead, which every teammate computes alike.

Every call decides a batch (one game is a batch of one): each decision is computed once
over the batch's rows, and the bot's draws among equals are made afterwards in row order, so
a batch plays as its rows would one by one. How the bot plays is its `Style`: knobs that
name a habit at a decision point or set a number (the defaults are the rule bots v1 above;
`RULE_V2`, the bots v2, reads the belief over the deal).

The package's modules say what they are: `reading` (what a bot sees, decoded from the
observations), `suspicion` (the town's reading of the table), `posterior` (the posterior
over the deal), `plan` (the mafia's shared plan), `handlers` (each turn's decision and each
role's speech, over the batch), `draws` (the draws among equals: in row order, or every way
for `probs`), `style` (`Style`), `policy` (`RulePolicy`, the protocol), and `v2`
(`RulePolicyV2`, registered as ``rule_v2``).
"""

from __future__ import annotations

from baselines.rule.bot import BLACK_ROLES, RulePolicy
from baselines.rule.plan import mafia_day_scores, mafia_ranking, public_noise
from baselines.rule.reading import Seen, SeenBatch
from baselines.rule.style import RULE, RULE_V2, Style
from baselines.rule.suspicion import town_suspicion

for _public in (RulePolicy, Seen, SeenBatch, Style):  # their home is the package (pickles, reprs)
    _public.__module__ = __name__

__all__ = [
    "BLACK_ROLES",
    "RULE",
    "RULE_V2",
    "RulePolicy",
    "Seen",
    "SeenBatch",
    "Style",
    "mafia_day_scores",
    "mafia_ranking",
    "public_noise",
    "town_suspicion",
]
