"""`BeliefTalk`: a policy that speaks, nominates and votes from its reading of the claims,
over another policy (a network) that plays the rest: the layer ``belief_talk`` of a PPO run
(`Config.learner_layer`, recorded in its checkpoint: `baselines.ppo.layer`) and of the
loaders ``filler_talk``, ``filler_vote`` and ``rule_talk`` (`baselines.filler_talk`).

`BeliefTalk` wraps a policy (the shipped `filler` network) and takes over three of its day
decisions, from the reading of the sheriff claims with liars in the model
(`mafia_env.belief.claims.read_claims`: who is likely black, who is likely the real sheriff):

- **Speech** (``speech``). Where the network ends a speech in which it said at most one act
  (a nomination), the filler first says what it believes: the real sheriff claims (when a
  check is black, another seat claims sheriff, or he is in danger) and reports his checks,
  black first, then accuses the other claimants; a town seat accuses its top suspect (more
  than `ACCUSE_OVER` above the prior), else vouches for the seat it trusts most (`VOUCH_UNDER`
  below), else (``guess``) accuses the likeliest black seat drawn among those within `TIE`
  (``fallback="vouch"``: vouches for the most trusted seat drawn so instead); a
  mafia seat (``mafia``) does the same from the table's reading (what a town player in its
  seat would believe). The network then goes on with the speech.
- **Nomination** (``nominate``). The first nomination of day 1 is drawn among the seats
  within `TIE` of the reading's top suspect (a flat reading on day 1: the first nominee
  spreads over the seats); a town seat's later nomination goes to its top suspect where the
  network's nominee is less likely black by more than `VOTE_MARGIN`.
- **Vote** (``vote``). A town seat's ballot goes to the candidate it believes likeliest black
  where the network's candidate is less likely by more than `VOTE_MARGIN`; with
  ``blind_only``, only where the network's candidate was called black by a sheriff claimant
  (the network follows a claimant the reading does not believe).

Options for a table of mixed players (each off by default; a network trained among its own
copies keeps conventions that other players do not share, measured at the robustness
benchmark's ``half-rule`` and ``half-style`` tables):

- ``sheriff_first``: the real sheriff's claim (when he goes public, as above), his reports
  and his accusations come before anything the network says in a speech, and he puts a live
  black check up for the vote; otherwise a nominated sheriff whose network talks first is
  voted out unclaimed.
- ``meet``: among the candidates the claims reading holds within `VOTE_MARGIN` of its top
  suspect, a town ballot goes where the rule town's would: the rule bots' top suspect, the
  earliest nominee among equals (so the town's votes meet, and a bloc of three mafia
  ballots no longer decides between split town votes; the rule bots' reading, not the
  nomination order alone, so that a framed player nominated first is not the meeting
  point).
- ``sparing``: once someone is up for the vote, a town seat nominates only a suspect (more
  than `ACCUSE_OVER` above the prior) not up yet, else ends its speech: a needless
  nomination makes its nominee suspect the nominator.
- ``agree``: a mafia seat shoots the team's agreed target (SPORT-N3: the don's word at the
  zero-night meeting on the first night, then the team's top-ranked town player, as the rule
  bots shoot), so that a team of mixed players does not split its shots (SPORT-N4).
- ``lead`` (with ``agree``): where a living don's shot is the team's (CITY-N3: the rules'
  ``mafia_kill: don``), the mafia seats shoot the wrapped policy's own choice (the don's
  decides, whoever plays him); the agreed target only where every member must shoot alike
  (CITY-N4: without a don a split is the team's forfeit).
- ``mates``: a mafia seat plays as the rule bots once day 1's speeches are over and a living
  teammate it knows has not vouched for anyone. The networks trained under this layer vouch
  in their day-1 speech, their mafia too (the layer's ``fallback="vouch"``, which their mafia
  learned to speak like: every seat of sport-10's and club-10's filler in 100 games, forum-10's
  in 98%), and the rule bots' mafia say nothing on day 1: a teammate who did not vouch is not
  a copy, and the team's conventions are the rule bots' (the table's), not the network's. A
  team of copies is never handed over.
- ``mates_nominate`` (with ``mates``): a teammate who has nominated someone counts as a copy
  too. Forum-10's copies that did not vouch on day 1 nominated (every one of its 200 seats in
  100 games vouched or nominated; the rule bots' mafia said nothing in 91%): without it a few
  teams of copies are handed over.
- ``defer``: at a table unlike the one the network learned at, a town seat's decisions are
  the rule bots' (the reading of the claims with liars in the model, `RulePolicy`), the
  layer's parts left out: ``team``, where three or more seats claim the sheriff (more than
  one lies: a team of fake sheriffs); ``liars``, where two or more do (at most one tells the
  truth); ``claims``, where another seat has claimed the sheriff or a check;
  ``talk``, where another seat has claimed a role or a check or accused anyone; ``silent``,
  once day 1's speeches are over, where more of the other seats (living or not) have said
  nothing (no claim, check, accusation or vouch) than there are seats outside the town. The
  networks trained under this layer speak in their day-1 speech (every town seat of
  forum-10's filler and 89% of club-10's vouch: the layer's ``fallback="vouch"``; club-10's
  others accuse or claim), and the rule bots' town
  says nothing there: at a table of copies only the other sides' seats are silent, beside
  rule-bot or style teammates (the benchmark's ``half-rule``, ``half-style``) four of the six
  other town seats are too (`results/robust/experiments/town_talk.py`), and the team's
  conventions are the table's. A town of copies is never handed over. ``unvouched``: as
  ``silent``, or where at most half as many other seats have vouched for someone as there
  are other town seats (the copies vouch; a style's talkers, beside them, need not).
  ``few_vouches``: once day 1's speeches are over, where at most a third as many other seats
  have vouched as there are other town seats, alone (not ``silent``): for copies that vouch
  in most day-1 speeches but not in all (sport-10's, whose ``sparing`` ends some speeches
  first), so that a table of copies seldom looks silent.
  ``framed``: on day 1, where three or more other seats have accused one seat that no
  claimant called black: a team framing a townsperson (the zoo's ``framer``, whose mafia all
  accuse one town player on day 1 in every game), which no benchmark opponent's seats do on
  day 1; online-10's network votes with such a bloc. Only day 1's decisions: by day 2 three
  accusers of one seat are common talk (the PPO bots' town in 60% of online-10's games).
  ``framed_out``: after day 1, once a vote has put out such a seat (accused by three or more
  other seats, called black by no claimant): the framers' townsperson voted out, the framers
  still at the table, where the network goes on reading their talk as a town's. Not where a
  claimant's black call led the accusations (the networks' towns accuse and vote out the
  seats their sheriff calls black).
  ``impossible``: where another seat has claimed more checks than nights have passed (as
  the rule bots count them, `SeenBatch.public_credible`: a check claimed on day 1, before any
  night with checks in every variant): a liar, whom the rule bots' town votes out (the zoo's
  ``fake_sheriff_solo`` and ``don_fake_check`` on online-10: the rule bots' town voted the
  day-1 claimant out in 99% of 200 games, the network's in 31%; a noisy table's random check
  claims too). ``day1_check``: the same on day 1 alone (a check claimed on day 1), where a
  later claim of more checks than nights (a mafia counter-claimant's, as the rule bots' mafia
  make) is left to the network.

- ``mark``: a town seat whose network ends its day-1 speech with nothing said (no claim,
  check, accusation or vouch) vouches for the next seat clockwise before it ends (its
  network is not asked again in that speech: once it has vouched on day 1, the rest of the
  speech is a pass): a mark that tells its copies from other players, for a network that
  learned its play among copies who vouch for nobody on day 1 (online-10's), so that
  ``defer="silent"`` or ``"unvouched"`` can hand its town to the rule bots beside teammates
  who are not copies. The network does not see the marks: every seat's vouch for its next
  seat is left out of its input (anyone's, a mark or not; where that seat was out before
  day 1's speeches the mark goes further on and is seen). ``hide_vouches`` leaves out every
  vouch.
- ``mark_mafia`` (with ``mark``): the mafia seats bear the mark too, and ``mates`` takes a
  teammate who has said anything on day 1 (a claim, check, accusation or vouch: the mark, or
  the network's own talk) for a copy: for a network whose mafia copies say nothing on day 1
  as the rule bots' do (online-10's).
- ``mark_civilian`` (with ``mark``): the mark is a claim of the civilian's role instead (not
  the sheriff's: he says nothing of the kind), and the network's input leaves out every seat's
  civilian claim; ``defer="unmarked"`` hands a town seat to the rule bots once day 1's
  speeches are over where at most half as many other seats bear the mark (a civilian claim,
  or with the vouch a vouch for the next seat) as there are other town seats. A vouch reads
  as a judgement of a seat, a civilian claim as nothing a town player would not say.

- ``mafia_quiet``: a mafia seat's vouch in a speech after day 1 ends its speech instead (a
  pass). The networks trained under this layer vouch in every speech, their mafia too (every
  mafia seat of sport-10's filler in 200 games, on day 1 and on day 2); a town that reads a
  vouch by a player it suspects learns who the mafia vouch for, and a trained attacker's town
  beat sport-10's mafia copies 0.78 (0.53 under this option). Their day-1 vouches stay: the
  copies' mark that ``mates`` reads.
- ``mafia_silent``: every vouch of a mafia seat ends its speech, day 1's too; ``mates`` then
  tells a copy by its day-1 nomination alone (``mates_nominate``, which it requires with
  ``mates``).
- ``mafia_push``: a mafia seat whose speech after day 1 would end (a pass) nominates the town
  player the table's reading (a town player's in its seat) suspects most, where he is a suspect
  (more than `ACCUSE_OVER` above the prior) it may nominate: a town that votes its second
  suspect (the zoo's held-out ``second_suspect``) or at random among the nominees then has a
  townsperson more to vote, where a network that learned among towns voting their top suspect
  seldom nominated after day 1 (sport-10's mafia in 12% of day 2s, the rule bots' in 52-70%)
  and one of its own was the one voted out.
- ``mafia_answer``: a mafia seat's pass in a speech, while a living member of its team (itself
  included) is up for the vote, nominates the town player the table's reading suspects most,
  as the rule bots' mafia put a townsperson up beside their own; not once a seat outside its
  team has vouched for anyone (a town of the network's copies, which vouch in their day-1
  speech: there the network plays as it learned). Forum-10's network, put up on day 1 by a
  town player, answered so in 28 of 48 such games (the rule bots' mafia in 53 of 64), and a
  town that votes its second suspect (the zoo's held-out ``second_suspect``, whose second
  suspect on day 1 is the later nominee) voted its mafia out on day 1 in 30% of games, the
  rule bots' in 4%. Judged over forum-10's file (500 deals a cell; not shipped): full tables
  2 -> 1 cells below (the second suspect -0.154 -> -0.056, the club table -0.098 -> -0.078),
  but tables of mixed players 0 -> 1 (the club table beside the styles -0.016 -> -0.064: the
  rule bots beside it answer too) and their means over the zoo +0.045 -> +0.025; v4 headline
  0.730 -> 0.729, exploitability 0.372 -> 0.363.

Options for measuring the parts: ``others_talk`` off keeps only the real sheriff's talk;
``hide_talk`` hides the table's accusations and vouches from the network (``hide_vouches``
its vouches alone). ``filler_talk`` is
every part on; ``filler_vote`` is the ballots alone, ``blind_only``. Night turns, and
everything else, are the network's. Seeded: the draws among equals come from the policy's own
generator.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from baselines.filler_talk_options import FALLBACKS, PARTS, defer_triggers
from baselines.rule.bot import RulePolicy
from baselines.rule.posterior import L_AGAINST_ME, L_AGAINST_ME_CAP, L_NIGHT_DEAD, hard_facts
from baselines.rule.reading import SeenBatch
from mafia_env.belief.claims import read_claims
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.spec import GameSpec
from mafia_env.errors import ConfigError
from mafia_env.policy import Policy, reseed

SPEECH_TURNS = ("speech", "last_word", "tie_speech", "monologue")
VOTE_TURNS = ("vote", "open_vote")
NOMINATE_TURNS = ("naming",)  # a nomination round of its own (CLUB)
TIE = 0.03  # seats within this P(black) of the top suspect are drawn among
ACCUSE_OVER = 0.1  # accuse the top suspect when his P(black) is this far above the prior
VOUCH_UNDER = 0.1  # vouch for the most trusted seat when this far below the prior
VOTE_MARGIN = 0.15  # overrule the network's ballot when a candidate is this much likelier


def _within(layout: Any, moves: np.ndarray, act: Act) -> np.ndarray:
    """Which of the action indices `moves` are `act`'s (its segment of the layout)."""
    if act not in layout.offset:
        return np.zeros(len(moves), dtype=bool)
    off = layout.offset[act]
    return (moves >= off) & (moves < off + layout.width[act])


def _roles(reader: RulePolicy, obs: np.ndarray) -> np.ndarray:
    """[rows]: each row's own role, an index into `reader`'s roles (its ``town_role``,
    ``mafia_role``), read without a whole `SeenBatch`."""
    lo, hi = reader._pieces["role"][:2]
    return obs[:, lo:hi].argmax(axis=1)


def _talked(reader: RulePolicy, b: SeenBatch) -> np.ndarray:
    """[R, n]: the seats that have said a claim, a check, an accusation or a vouch."""
    said = (b.claimed_red | b.claimed_black | b.accused | b.vouched).any(axis=2)
    return said | (b.claim_kind < len(reader.roles))


class BeliefTalk:
    """A policy whose day talk, nominations and votes come from the claims reading where the
    wrapped policy's are empty or blind (module docstring); the rest is the wrapped policy's."""

    observes = "vector"

    def __init__(
        self,
        spec: GameSpec,
        inner: Policy,
        seed: int = 0,
        *,
        speech: bool = True,
        nominate: bool = True,
        vote: bool = True,
        mafia: bool = True,
        guess: bool = True,
        fallback: str = "accuse",
        hide_talk: bool = False,
        hide_vouches: bool = False,
        others_talk: bool = True,
        blind_only: bool = False,
        sheriff_first: bool = False,
        meet: bool = False,
        sparing: bool = False,
        agree: bool = False,
        lead: bool = False,
        defer: str | None = None,
        mates: bool = False,
        mates_nominate: bool = False,
        mark: bool = False,
        mark_civilian: bool = False,
        mark_mafia: bool = False,
        mafia_quiet: bool = False,
        mafia_silent: bool = False,
        mafia_push: bool = False,
        mafia_answer: bool = False,
    ):
        self.spec = spec
        self.inner = inner
        self.reader = RulePolicy(spec=spec, seed=seed)
        self.obs_options = getattr(inner, "obs_options", None)
        self.speech, self.nominate, self.vote, self.mafia = speech, nominate, vote, mafia
        self.guess = guess  # with nothing clear, say something anyway (`fallback`)
        if fallback not in FALLBACKS:
            raise ConfigError(
                f"BeliefTalk fallback {fallback!r} is not one of: {', '.join(FALLBACKS)}"
            )
        self.fallback = fallback
        # the wrapped policy does not see the table's accusations and vouches (its own
        # conventions were learned where nobody said them)
        self.hide_talk, self.hide_vouches = hide_talk, hide_vouches
        self.others_talk = others_talk  # off: only the real sheriff's claim and reports
        # on: overrule a ballot only where its candidate was called black by a claimant
        self.blind_only = blind_only
        # on: the real sheriff's claim, reports and accusations come before anything the
        # wrapped policy says in a speech (not only where it passes)
        self.sheriff_first = sheriff_first
        # on: a town ballot goes, among the candidates the reading holds within
        # `VOTE_MARGIN` of its top suspect, where the rule town's would (its top suspect,
        # the earliest nominee among equals: the town's votes meet), not to the wrapped
        # policy's pick among them
        self.meet = meet
        # on: once someone is up for the vote, a town seat nominates only a suspect (more
        # than `ACCUSE_OVER` above the prior) who is not up yet, else ends its speech (the
        # rule bots' habit: a nomination tells its nominee that the nominator is likely black)
        self.sparing = sparing
        # on: a mafia seat shoots the team's agreed target (SPORT-N3: on the first night the
        # don's word at the meeting, then the team's top-ranked town player, as the rule bots
        # do), so that a team of mixed players fires at one seat
        self.agree = agree
        # on (with `agree`): while a living don decides the shot (`mafia_kill: don`), the
        # wrapped policy's own choice; the agreed target only where all must agree
        self.lead = lead
        # on: a mafia seat whose known teammate did not vouch on day 1 plays as the rule bots
        self.mates = mates
        # on (with `mates`): a teammate who nominated someone is taken for a copy too
        if mates_nominate and not mates:
            raise ConfigError("BeliefTalk mates_nominate refines mates: turn mates on too")
        self.mates_nominate = mates_nominate
        # where a town seat plays as the rule bots (None: nowhere)
        self.defer = defer  # (several joined by "+": where any of them fires)
        self._triggers = defer_triggers(defer)
        # on: a town seat's empty day-1 speech vouches for its next seat clockwise (a mark),
        # or (``mark_civilian``) claims the civilian's role
        if mark_civilian and not mark:
            raise ConfigError("BeliefTalk mark_civilian refines mark: turn mark on too")
        if "unmarked" in self._triggers and not mark:
            raise ConfigError("BeliefTalk defer 'unmarked' reads the layer's mark: turn mark on")
        if mark_mafia and not mark:
            raise ConfigError("BeliefTalk mark_mafia refines mark: turn mark on too")
        # on (with `mark`): the mafia seats bear the mark too, and `mates` takes a teammate who
        # has said anything on day 1 (a mark or its own talk) for a copy
        self.mark, self.mark_civilian, self.mark_mafia = mark, mark_civilian, mark_mafia
        # on: a mafia seat's vouch after day 1 ends its speech instead (a pass)
        self.mafia_quiet = mafia_quiet
        # on: every vouch of a mafia seat ends its speech, day 1's too (`mates` then tells
        # the copies by their day-1 nominations alone: turn ``mates_nominate`` on with it)
        if mafia_silent and mates and not mates_nominate:
            raise ConfigError(
                "BeliefTalk mafia_silent leaves mates no vouch to read: turn mates_nominate on "
                "with it (a copy is told by its day-1 nomination)"
            )
        self.mafia_silent = mafia_silent
        # on: a mafia seat's speech after day 1 that would end nominates the town player the
        # table suspects most, where he is a suspect
        self.mafia_push = mafia_push
        # on: a mafia seat's pass while its team is up nominates the table's top town suspect
        self.mafia_answer = mafia_answer
        self._hidden_cols: dict[int, np.ndarray] = {}  # a table's reader -> `_hidden`
        self.seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the random streams (the wrapped policy's and the draws among equals)."""
        self.rng = np.random.default_rng(seed + 104729)
        reseed(self.inner, seed)

    def __copy__(self) -> BeliefTalk:
        other = object.__new__(BeliefTalk)
        other.__dict__.update(self.__dict__)
        other.inner = copy.copy(self.inner)
        other.rng = np.random.default_rng(self.rng.integers(1 << 62))
        return other

    def act(self, obs: Any, mask: np.ndarray) -> int:
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        out = np.array(self.inner.act_batch(self._seen(obs, masks), masks), dtype=np.int64)
        obs, masks = np.asarray(obs), np.asarray(masks)
        reader = self.reader
        plain = reader.obs_layout.size
        if obs.shape[1] > plain and self.obs_options:  # the belief piece, last: not read here
            obs = obs[:, :plain]
        try:
            table, pair = reader._table(obs, masks)
        except ConfigError:
            return out  # a table this reader cannot read: the wrapped policy plays
        if isinstance(table, RulePolicy):
            reader, (obs, masks) = table, pair
        legal = masks != 0
        names = reader.turn_names
        turn = obs[:, reader._pieces["my_turn"][0] : reader._pieces["my_turn"][1]]
        has = turn.max(axis=1) > 0
        kind = np.where(has, turn.argmax(axis=1), -1)
        if self.agree and "mafia_kill" in names:
            night = np.flatnonzero((kind == names.index("mafia_kill")) & (legal.sum(axis=1) > 1))
            if night.size and self.lead and reader.rules.mafia_kill == "don":
                b = reader.read(obs, legal, night)  # (a living don's shot is the team's)
                night = night[~(b.dons & b.alive).any(axis=1)]
            if night.size:
                out[night] = reader.act_batch(obs[night], masks[night])
        speech_kind = self._kinds(names)[1]
        free = legal.sum(axis=1) > 1
        if self.defer is not None or self.mates:
            rule = self._deferred(reader, obs, legal, free)
            if rule.any():
                out[rule] = reader.act_batch(obs[rule], masks[rule])
                free &= ~rule  # (the layer's parts leave these rows alone)
        self._parts(reader, obs, legal, out, kind, free, names)
        if self.mark:  # (last: where a day-1 speech still ends with nothing said)
            self._mark(reader, obs, legal, out, speech_kind[kind] & free)
        if self.mafia_quiet or self.mafia_silent:
            self._quiet(reader, obs, legal, out, speech_kind[kind] & free)
        if self.mafia_push or self.mafia_answer:
            self._push(reader, obs, legal, out, speech_kind[kind] & free)
        return out

    def _parts(
        self,
        reader: RulePolicy,
        obs: np.ndarray,
        legal: np.ndarray,
        out: np.ndarray,
        kind: np.ndarray,
        free: np.ndarray,
        names: list[str],
    ) -> None:
        """The layer's parts (``speech``, ``nominate``, ``vote``) over `out`, in place: the
        rows where `_decide` may overrule the wrapped policy's move."""
        wanted, speech_kind, vote_kind = self._kinds(names)
        rows = np.flatnonzero(wanted[kind] & free)
        # only the rows where `_decide` may overrule the wrapped policy's move: a pass in a
        # speech, a nomination, a ballot (the reading is the layer's cost: the rest skip it)
        moves = out[rows]
        keep = np.zeros(rows.size, dtype=bool)
        if self.speech:
            speech = speech_kind[kind[rows]]
            keep |= speech & _within(reader.layout, moves, Act.PASS)
            if self.sheriff_first and reader.has_sheriff:
                keep |= speech & (_roles(reader, obs[rows]) == reader.sheriff_kind)
        if self.nominate:
            keep |= _within(reader.layout, moves, Act.NOMINATE)
        if self.vote:
            keep |= vote_kind[kind[rows]] & _within(reader.layout, moves, Act.VOTE)
        rows = rows[keep]
        if not rows.size:
            return
        b = reader.read(obs, legal, rows)
        black, public = self._readings(b)
        if black is None:
            return
        chosen = out[rows]
        new = self._decide(b, black, public, chosen, [names[k] for k in kind[rows]])
        out[rows] = new

    def _seen(self, obs: Any, masks: Any) -> Any:
        """The wrapped policy's input: `obs` with the pieces it does not see zeroed
        (``hide_talk``, ``hide_vouches``, ``mark``), at the columns of the table the rows are
        of (a game of an earlier era has its own layout: `RulePolicy._table`)."""
        if not (self.hide_talk or self.hide_vouches or self.mark):
            return obs
        obs = np.asarray(obs)
        plain = self.reader.obs_layout.size
        rows = obs[:, :plain] if obs.shape[1] > plain and self.obs_options else obs
        try:
            table, _ = self.reader._table(rows, masks)
        except ConfigError:
            return obs  # a table this reader cannot read: nothing to hide
        reader = table if isinstance(table, RulePolicy) else self.reader
        seen = np.array(obs, copy=True)
        seen[:, self._hidden(reader)] = 0
        return seen

    def _hidden(self, reader: RulePolicy) -> np.ndarray:
        """The columns of `reader`'s layout the wrapped policy does not see: the table's
        accusations and vouches (``hide_talk``), its vouches (``hide_vouches``), the marks
        (``mark``: every seat's civilian claim with ``mark_civilian``, else every seat's vouch
        for its next seat); made once a table."""
        got = self._hidden_cols.get(id(reader))
        if got is None:
            lay, n, roles = reader._pieces, reader.n, len(reader.roles)
            hide = ("accused", "vouched") if self.hide_talk else ()
            hide += ("vouched",) if self.hide_vouches else ()
            cols = [np.arange(lay[k][0], lay[k][1]) for k in hide if k in lay]
            if self.mark and self.mark_civilian and "claimed_role" in lay:
                civilian = reader.roles.index(Role.CIVILIAN)
                cols.append(lay["claimed_role"][0] + np.arange(n) * roles + civilian)
            elif self.mark and "vouched" in lay:
                cols.append(lay["vouched"][0] + np.arange(n) * n + (np.arange(n) + 1) % n)
            got = np.unique(np.concatenate(cols)) if cols else np.zeros(0, dtype=np.int64)
            self._hidden_cols[id(reader)] = got
        return got

    def _deferred(
        self, reader: RulePolicy, obs: np.ndarray, legal: np.ndarray, free: Any = None
    ) -> np.ndarray:
        """Which rows (of those `free`: all by default) play as the rule bots: a town seat's
        where the table shows talk the network did not meet (``defer``), a mafia seat's whose
        teammates are not its copies (``mates``). Only those rows are read."""
        town = reader.town_role[_roles(reader, obs)]
        maybe = town if self.defer is not None else np.zeros(len(obs), dtype=bool)
        if self.mates:
            maybe = maybe | ~town
        rows = np.flatnonzero(maybe if free is None else maybe & free)
        out = np.zeros(len(obs), dtype=bool)
        if not rows.size:
            return out
        b = reader.read(obs, legal, rows)
        town = town[rows]
        hit = np.zeros(b.R, dtype=bool)
        triggers = self._triggers
        waits = triggers & {"silent", "unvouched", "few_vouches", "unmarked"}
        if self.mates or waits:  # (they wait for day 1's talk)
            speeches = b.v["phase"].argmax(axis=1) == reader.obs_layout.phases.index("speech")
            spoken = (b.day >= 2) | ((b.day == 1) & ~speeches)  # day 1's speeches are over
        if self.mates:
            # [R, teammate] (with `mark_mafia` the copies bear the mark or talk; the rule bots'
            # say nothing)
            said = _talked(reader, b) if self.mark_mafia else b.vouched.any(axis=2)
            silent = b.mate & b.alive & ~said
            if self.mates_nominate:
                silent &= ~(b.nominations > 0).any(axis=2)
            hit |= ~town & spoken & silent.any(axis=1)
        if waits:
            # once day 1's speeches are over, the other seats (living or not) that have said
            # no claim, check, accusation or vouch: at a table of copies only the other
            # sides' seats are silent
            talked = _talked(reader, b)
            silent = b.not_me & ~talked
            counts = reader.rules.role_counts(b.n)
            outside = sum(c for r, c in counts.items() if r.team is not Team.TOWN)
            mates = b.n - outside - 1  # the other town seats
            vouchers = (b.not_me & b.vouched.any(axis=2)).sum(axis=1)
            fire = np.zeros(b.R, dtype=bool)
            if triggers & {"silent", "unvouched"}:
                fire |= silent.sum(axis=1) > outside
            if "unvouched" in triggers:  # or half the other town seats vouched, at most
                fire |= 2 * vouchers <= mates
            if "few_vouches" in triggers:  # a third of them, at most
                fire |= 3 * vouchers <= mates
            if "unmarked" in triggers:  # half the other town seats bear the mark, at most
                fire |= 2 * (b.not_me & self._marked(reader, b)).sum(axis=1) <= mates
            hit |= town & spoken & fire
        if triggers & {"team", "liars"}:
            hit |= town & (b.claimant.sum(axis=1) >= (2 if "liars" in triggers else 3))
        if triggers & {"framed", "framed_out"}:
            # [R, target]: accused by three or more other seats, called black by no claimant
            accusers = (b.accused & b.not_me[:, :, None]).sum(axis=1)
            framed = (accusers >= 3) & ~b.claimed_black.any(axis=1)
            if "framed" in triggers:  # on day 1
                hit |= town & (b.day == 1) & framed.any(axis=1)
            if "framed_out" in triggers:  # later, once such a seat is voted out
                voted_out = b.v["eliminated"][..., 0] > 0
                hit |= town & (b.day >= 2) & (framed & voted_out).any(axis=1)
        if triggers & {"impossible", "day1_check"}:  # more checks claimed than nights passed
            early = b.checks_said > np.maximum(0, b.day - 1)[:, None]
            if "impossible" not in triggers:  # (``day1_check``: on day 1 alone)
                early &= (b.day == 1)[:, None]
            hit |= town & (early & b.not_me).any(axis=1)
        if triggers & {"claims", "talk"}:
            others = b.not_me
            by = others[:, :, None]  # [R, speaker, target]: said by another seat
            checks = ((b.claimed_red | b.claimed_black) & by).any(axis=(1, 2))
            table = (b.claimant & others).any(axis=1) | checks
            if "talk" in triggers:
                said = (b.claim_kind < len(reader.roles)) & others
                table |= said.any(axis=1) | (b.accused & by).any(axis=(1, 2))
            hit |= town & table
        out[rows] = hit
        return out

    def _mark(
        self, reader: RulePolicy, obs: np.ndarray, legal: np.ndarray, out: np.ndarray, speech
    ) -> None:
        """``mark``: in `out`, a town seat's (with ``mark_mafia`` any seat's) pass in a day-1
        speech in which it has said nothing today (no claim, check, accusation or vouch)
        becomes the mark (a vouch for the
        next seat clockwise it may vouch for; with ``mark_civilian`` a claim of the civilian's
        role, not by the sheriff), and its speech ends there: once it bears the mark on day 1,
        whatever its network would say next in that speech is a pass."""
        marking = reader.town_role[_roles(reader, obs)] | self.mark_mafia
        rows = np.flatnonzero(speech & marking)
        if not rows.size:
            return
        b = reader.read(obs, legal, rows)
        me, day1 = b.me, b.day == 1
        marked = self._marked(reader, b)[b.rows, me]
        said = _talked(reader, b)[b.rows, me]
        passing = _within(reader.layout, out[rows], Act.PASS)
        pass_ = b.off(Act.PASS)
        for j in np.flatnonzero(day1 & marked & ~passing):  # (the mark was its last word)
            if self._ok(b, j, pass_):
                out[rows[j]] = pass_
        if self.mark_civilian:
            claim = self._index(b, Act.CLAIM_ROLE, b.layout._role_index.get(Role.CIVILIAN, -1))
            for j in np.flatnonzero(day1 & passing & ~said & (b.role != reader.sheriff_kind)):
                if self._ok(b, j, claim):
                    out[rows[j]] = claim
            return
        for j in np.flatnonzero(day1 & passing & ~said):
            allowed = b.alive[j] & b.seg(Act.VOUCH)[j]
            allowed[me[j]] = False
            if allowed.any():  # the next seat clockwise that it may vouch for
                order = (me[j] + 1 + np.arange(b.n)) % b.n
                seat = order[allowed[order]][0]
                out[rows[j]] = self._index(b, Act.VOUCH, int(seat))

    def _quiet(
        self, reader: RulePolicy, obs: np.ndarray, legal: np.ndarray, out: np.ndarray, speech
    ) -> None:
        """``mafia_quiet``: in `out`, a mafia seat's vouch in a speech after day 1 becomes a
        pass (the speech ends there); its day-1 vouches (what ``mates`` reads) stay.
        ``mafia_silent``: its day-1 vouches too."""
        mafia = reader.mafia_role[_roles(reader, obs)]
        rows = np.flatnonzero(speech & mafia & _within(reader.layout, out, Act.VOUCH))
        if not rows.size:
            return
        b = reader.read(obs, legal, rows)
        pass_ = b.off(Act.PASS)
        for j in np.flatnonzero(b.day >= (1 if self.mafia_silent else 2)):
            if self._ok(b, j, pass_):
                out[rows[j]] = pass_

    def _push(
        self, reader: RulePolicy, obs: np.ndarray, legal: np.ndarray, out: np.ndarray, speech
    ) -> None:
        """``mafia_push``: in `out`, a mafia seat's pass in a speech after day 1 becomes a
        nomination of the town player the table's reading (what a town player in its seat
        would believe) suspects most, where he is a suspect (more than `ACCUSE_OVER` above
        the prior) it may nominate. ``mafia_answer``: on any day, while a living member of its
        team is up for the vote, whoever that town player is, unless a seat outside its team has
        vouched."""
        mafia = reader.mafia_role[_roles(reader, obs)]
        rows = np.flatnonzero(speech & mafia & _within(reader.layout, out, Act.PASS))
        if not rows.size:
            return
        b = reader.read(obs, legal, rows)
        public = self._readings(b, mafia=True)[1]
        prior = reader.mafia_size / max(b.n - 1, 1)
        allowed = b.alive & b.seg(Act.NOMINATE) & ~b.mate
        allowed[b.rows, b.me] = False
        p = np.where(allowed, public, -np.inf)  # (NaN in a row whose facts clash: skipped)
        best = p.argmax(axis=1)
        push = np.zeros(b.R, dtype=bool)
        if self.mafia_push:
            push |= (b.day >= 2) & (p[b.rows, best] >= prior + ACCUSE_OVER)
        if self.mafia_answer:  # a member of its team up: any town player beside him
            up = (b.nominee & b.team & b.alive).any(axis=1)
            # not beside the network's copies: no seat outside its team has vouched
            vouched = (~b.team & b.vouched.any(axis=2)).any(axis=1)
            push |= up & ~vouched & np.isfinite(p[b.rows, best])
        for j in np.flatnonzero(push):
            index = self._index(b, Act.NOMINATE, int(best[j]))
            if self._ok(b, j, index):
                out[rows[j]] = index

    def _marked(self, reader: RulePolicy, b: SeenBatch) -> np.ndarray:
        """[R, n]: the seats that bear the mark: a civilian claim (``mark_civilian``), else a
        vouch for the next seat clockwise."""
        if self.mark_civilian:
            return b.claim_kind == reader.roles.index(Role.CIVILIAN)
        nxt = (np.arange(b.n) + 1) % b.n
        return b.vouched[:, np.arange(b.n), nxt]

    def _kinds(self, names: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """By turn kind (an index into `names`; the last entry, -1: no turn): whether the
        layer may take the turn over, whether it is a speech, whether a vote. Kept by names."""
        cache = self.__dict__.setdefault("_kind_cache", {})
        got = cache.get(tuple(names))
        if got is None:
            wanted = set()
            if self.speech or self.nominate:
                wanted |= set(SPEECH_TURNS) | set(NOMINATE_TURNS)
            if self.vote:
                wanted |= set(VOTE_TURNS)
            got = cache[tuple(names)] = tuple(
                np.array([nm in of for nm in names] + [False])
                for of in (wanted, SPEECH_TURNS, VOTE_TURNS)
            )
        return got

    # ------------------------------------------------------------ reading

    def _readings(
        self, b: SeenBatch, mafia: bool | None = None
    ) -> tuple[np.ndarray | None, np.ndarray | None]:
        """P(black) [R, n] by each reader's own facts, and by the table's (public facts, the
        reader taken for town: what a town player in his seat would believe); each only for
        the rows `_decide` reads it in (NaN elsewhere). `mafia`: whether a mafia seat's rows
        are read (the table's reading), the ``mafia`` part's by default."""
        bot = b.bot
        pub_facts, own_facts, _ = hard_facts(b)
        R, n = b.alive.shape
        rows = b.rows
        me = b.me
        sheriff_known = np.zeros((R, n), dtype=np.int64)
        sheriff_reader = b.role == bot.sheriff_kind
        sheriff_known[rows, me] = np.where(sheriff_reader, 1, -1)
        revealed = b.v["revealed"]
        shown = revealed.any(axis=2)
        shown_kind = revealed.argmax(axis=2)
        if bot.has_sheriff:
            sheriff_known[shown & (shown_kind == bot.sheriff_kind)] = 1
            sheriff_known[shown & (shown_kind != bot.sheriff_kind)] = -1
            sheriff_known[rows, me] = np.where(sheriff_reader, 1, -1)
        llr = L_NIGHT_DEAD * b.night_dead.astype(np.float64)
        town = bot.town_role[b.role]
        against = b.votes[rows, :, me] + b.nominations[rows, :, me] + 2.0 * b.accused[rows, :, me]
        llr_own = llr + (town[:, None] * L_AGAINST_ME) * np.minimum(against, L_AGAINST_ME_CAP)
        out_ends = ~b.alive if bot.over_if_out else None
        pub_fix = pub_facts.astype(np.int64)
        pub_fix[rows, me] = -1
        pub_sheriff = np.where(sheriff_known == 1, 0, sheriff_known)  # a claim, not a fact
        pub_sheriff[rows, me] = np.where(sheriff_reader, 0, -1)
        args = dict(has_sheriff=bot.has_sheriff, out_ends=out_ends)
        # `_decide` reads the table's reading for a mafia seat (not of a town role), its own
        # for the rest, and nothing for a mafia seat when ``mafia`` is off
        town, mafia_team = bot.town_role[b.role].astype(bool), b.black.astype(bool)
        uses_pub = ~town & mafia_team
        skip = ~town & ~np.bool_(self.mafia if mafia is None else mafia)
        # (two readings, each of its own rows: a row's reading is a product over the rows read
        # with it, whose last bits depend on them, and the moves are pinned)
        own_rows = np.flatnonzero(~uses_pub & ~skip)
        pub_rows = np.flatnonzero(uses_pub & ~skip)
        own = self._read(b, own_facts.astype(np.int64), sheriff_known, llr_own, args, own_rows)
        pub = self._read(b, pub_fix, pub_sheriff, llr, args, pub_rows)
        return own, pub

    def _read(
        self,
        b: SeenBatch,
        fix: np.ndarray,
        sfix: np.ndarray,
        llr: np.ndarray,
        args: dict,
        sel: np.ndarray,
    ) -> np.ndarray:
        """P(black) [R, n] of the rows `sel` (NaN in the others, and in a row whose facts
        clash)."""
        k = b.bot.mafia_size
        out = np.full(b.alive.shape, np.nan)
        if not sel.size:
            return out
        cl, bl, rd = b.claimant[sel], b.claimed_black[sel], b.claimed_red[sel]
        fix, sfix, llr = fix[sel], sfix[sel], llr[sel]
        args = {**args}
        if args.get("out_ends") is not None:
            args["out_ends"] = args["out_ends"][sel]
        try:
            out[sel] = read_claims(
                cl, bl, rd, k, fixed=fix, sheriff_fixed=sfix, llr=llr, **args
            ).black
            return out
        except ConfigError:
            pass
        for j, i in enumerate(sel):  # row by row: a row whose facts clash is skipped
            one = slice(j, j + 1)
            extra = {**args}
            if extra.get("out_ends") is not None:
                extra["out_ends"] = extra["out_ends"][one]
            try:
                out[i] = read_claims(
                    cl[one],
                    bl[one],
                    rd[one],
                    k,
                    fixed=fix[one],
                    sheriff_fixed=sfix[one],
                    llr=llr[one],
                    **extra,
                ).black[0]
            except ConfigError:
                continue
        return out

    # ------------------------------------------------------------ deciding

    def _index(self, b: SeenBatch, act: Act, seat: int, value: int = 0) -> int:
        off = b.off(act)
        return -1 if off < 0 else off + value * b.n + seat

    def _ok(self, b: SeenBatch, i: int, index: int) -> bool:
        return index >= 0 and bool(b.masks[i, index])

    def _draw_top(self, p: np.ndarray, allowed: np.ndarray) -> int:
        if not allowed.any():
            return -1
        x = np.where(allowed, p, -np.inf)
        near = np.flatnonzero(allowed & (x >= x.max() - TIE))
        return int(near[self.rng.integers(len(near))])

    def _decide(
        self,
        b: SeenBatch,
        black: np.ndarray,
        public: np.ndarray,
        chosen: np.ndarray,
        turns: list[str],
    ) -> np.ndarray:
        bot = b.bot
        out = chosen.copy()
        decoded = bot.layout.decoded
        prior = bot.mafia_size / max(b.n - 1, 1)
        acts_left = b.v["acts_left"][:, 0]
        k_acts = bot.rules.speech_acts
        for i in range(b.R):
            town = bool(bot.town_role[b.role[i]])
            if not town and not self.mafia:
                continue
            mafia_team = bool(b.black[i])
            own = black[i] if (black is not None and not np.isnan(black[i]).any()) else None
            pub = public[i] if (public is not None and not np.isnan(public[i]).any()) else None
            p = own if town or not mafia_team else pub
            if p is None:
                continue
            act = decoded[chosen[i]][0] if chosen[i] >= 0 else None
            me, alive = int(b.me[i]), b.alive[i]
            others = alive.copy()
            others[me] = False
            if mafia_team:
                others &= ~b.mate[i]
            turn = turns[i]
            said = round((1.0 - acts_left[i]) * k_acts)  # speech acts said in this speech
            if self.speech and self.sheriff_first and turn in SPEECH_TURNS and town:
                say = self._sheriff_content(b, i)
                if say >= 0:
                    out[i] = say
                    continue
            if self.speech and turn in SPEECH_TURNS and act is Act.PASS and said <= 1:
                say = self._content(b, i, p, others, prior, town)
                if say >= 0 and not (said == 1 and self._has_content_today(b, i)):
                    out[i] = say
                    continue
            if self.nominate and act is Act.NOMINATE:
                allowed = others & b.seg(Act.NOMINATE)[i]
                first_day1 = b.day[i] <= 1 and not b.nominee[i].any()
                mine = decoded[chosen[i]][1]
                if first_day1:
                    seat = self._draw_top(p, allowed)
                elif town and self.sparing and b.nominee[i].any():
                    best = int(np.argmax(np.where(allowed, p, -np.inf)))
                    suspect = allowed.any() and p[best] >= prior + ACCUSE_OVER
                    seat = best if suspect and not b.nominee[i, best] else -1
                    if seat < 0 and self._ok(b, i, b.off(Act.PASS)):
                        out[i] = b.off(Act.PASS)
                elif town and allowed.any():
                    best = int(np.argmax(np.where(allowed, p, -np.inf)))
                    seat = best if p[best] - p[mine] > VOTE_MARGIN else -1
                else:
                    seat = -1
                if seat >= 0:
                    out[i] = self._index(b, Act.NOMINATE, seat)
                continue
            if self.vote and town and turn in VOTE_TURNS and act is Act.VOTE:
                allowed = b.seg(Act.VOTE)[i]
                if not allowed.any():
                    continue
                mine = decoded[chosen[i]][1]
                best = int(np.argmax(np.where(allowed, p, -np.inf)))
                if self.meet:
                    near = allowed & (p >= p[best] - VOTE_MARGIN)
                    sus = np.where(near, b.sus[i], -np.inf)  # the rule bots' reading
                    near &= sus >= sus.max() - 1e-9
                    seat = int(np.argmin(np.where(near, b.nominee_pos[i], b.n + 1)))
                    out[i] = self._index(b, Act.VOTE, seat)
                    continue
                called = bool((b.claimant[i] & b.claimed_black[i][:, mine]).any())
                if (called or not self.blind_only) and p[best] - p[mine] > VOTE_MARGIN:
                    out[i] = self._index(b, Act.VOTE, best)
        return out

    def _has_content_today(self, b: SeenBatch, i: int) -> bool:
        """Whether the one act said in this speech may have been content (not a nomination
        by the reader today: the observation counts acts, not which)."""
        mine = b.nominations[i, int(b.me[i])] > 0
        return not (b.nominee[i] & mine).any()

    def _sheriff_content(self, b: SeenBatch, i: int) -> int:
        """Row `i`'s next sheriff act, where its reader is the real sheriff of a town role
        (checked by the caller) and goes public (a live black check, another claimant, or
        in danger): the claim, then the black checks (with ``sheriff_first``, the live ones
        first, then a live black check put up for the vote), the red ones, an accusation of
        each other claimant, each once; an action index, or -1."""
        bot = b.bot
        if not (bot.has_sheriff and b.role[i] == bot.sheriff_kind):
            return -1
        me = int(b.me[i])
        blacks = b.checked_yes[i]
        reds = b.checked_no[i]
        other_claims = b.claimant[i] & b.alive[i]
        other_claims[me] = False
        danger = bool(b.nominee[i, me] or b.candidates[i, me] or b.called_me_black[i].any())
        go = bool((blacks & b.alive[i]).any() or other_claims.any() or danger)
        if not (go or b.me_claimant[i]):
            return -1
        idx = self._index(b, Act.CLAIM_ROLE, b.layout._role_index.get(Role.SHERIFF, -1))
        if not b.me_claimant[i] and self._ok(b, i, idx):
            return idx
        live = blacks & b.alive[i]
        if self.sheriff_first:  # the live black checks first (the vote's business)
            for seat in np.flatnonzero(live & ~b.my_black[i]):
                idx = self._index(b, Act.CLAIM_CHECK, int(seat), 1)
                if self._ok(b, i, idx):
                    return idx
        for seat in np.flatnonzero(blacks & ~b.my_black[i]):
            idx = self._index(b, Act.CLAIM_CHECK, int(seat), 1)
            if self._ok(b, i, idx):
                return idx
        if self.sheriff_first and live.any() and not (live & b.nominee[i]).any():
            idx = self._index(b, Act.NOMINATE, int(np.flatnonzero(live)[0]))
            if self._ok(b, i, idx):  # put a live black check up for the vote
                return idx
        for seat in np.flatnonzero(reds & ~b.my_red[i]):
            idx = self._index(b, Act.CLAIM_CHECK, int(seat), 0)
            if self._ok(b, i, idx):
                return idx
        for seat in np.flatnonzero(other_claims & ~b.my_accused[i]):
            idx = self._index(b, Act.ACCUSE, int(seat))
            if self._ok(b, i, idx):
                return idx
        return -1

    def _content(
        self, b: SeenBatch, i: int, p: np.ndarray, others: np.ndarray, prior: float, town: bool
    ) -> int:
        """The first thing the reader of row `i` believes and has not said: an action index,
        or -1."""
        me = int(b.me[i])
        if town:
            say = self._sheriff_content(b, i)
            if say >= 0:
                return say
        if not self.others_talk:
            return -1
        accusable = others & ~b.my_accused[i]
        vouched = b.vouched[i, me] > 0
        vouchable = others & ~vouched
        order = np.argsort(-np.where(accusable, p, -np.inf), kind="stable")
        for seat in order[: max(1, int(accusable.sum()))]:
            if not accusable[seat] or p[seat] < prior + ACCUSE_OVER:
                break
            idx = self._index(b, Act.ACCUSE, int(seat))
            if self._ok(b, i, idx):
                return idx
        if town:
            trust = np.argsort(np.where(vouchable, p, np.inf), kind="stable")
            for seat in trust[: max(1, int(vouchable.sum()))]:
                if not vouchable[seat] or p[seat] > prior - VOUCH_UNDER:
                    break
                idx = self._index(b, Act.VOUCH, int(seat))
                if self._ok(b, i, idx):
                    return idx
        # nothing clear: the likeliest black seat not yet accused, drawn among near equals
        if not self.guess:
            return -1
        if self.fallback == "vouch":  # or the most trusted seat not yet vouched for
            if b.off(Act.VOUCH) < 0:
                return -1
            seat = self._draw_top(-p, vouchable & b.seg(Act.VOUCH)[i])
            return self._index(b, Act.VOUCH, seat) if seat >= 0 else -1
        seat = self._draw_top(p, accusable & b.seg(Act.ACCUSE)[i]) if b.off(Act.ACCUSE) >= 0 else -1
        if seat >= 0 and p[seat] >= prior - 1e-6:
            return self._index(b, Act.ACCUSE, seat)
        return -1


__all__ = [
    "ACCUSE_OVER",
    "NOMINATE_TURNS",
    "PARTS",
    "SPEECH_TURNS",
    "TIE",
    "VOTE_MARGIN",
    "VOTE_TURNS",
    "VOUCH_UNDER",
    "BeliefTalk",
]
