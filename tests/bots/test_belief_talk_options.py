"""`BeliefTalk`'s options for a table of mixed players (``sheriff_first``, ``meet``,
``sparing``, ``agree``, ``lead``): each checked against a scripted network that does the
opposite, in whole games (the events) and on single decisions with the reading held flat."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

import mafia_env
from baselines.belief_talk import BeliefTalk
from baselines.robust import table_of
from baselines.rule import RulePolicy
from mafia_env.engine.events import Cause, Ev
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role, Team
from mafia_env.errors import ConfigError
from mafia_env.match import Seating, play_game
from mafia_env.policy import load_policy
from mafia_env.tasks import LATEST, get_task

TASK = get_task("sport-10", LATEST)
SPEECH_ACTS = {int(e) for e in (Ev.CLAIM_ROLE, Ev.CLAIM_CHECK, Ev.ACCUSE, Ev.VOUCH, Ev.NOMINATE)}


class Scripted:
    """A stand-in network that talks its own way at a mixed table: in a speech it nominates
    the last seat it may, then ends; it votes for the last candidate; at night it shoots (or
    checks) the last seat it may, each member his own."""

    observes = "vector"

    def __init__(self, spec):
        self.decoded = RulePolicy(spec=spec, seed=0).layout.decoded

    def act_batch(self, obs, masks):
        out = []
        for mask in np.asarray(masks):
            legal = np.flatnonzero(mask)
            kinds = [self.decoded[i][0] for i in legal]
            if Act.NOMINATE in kinds:
                out.append(
                    int(max(i for i, k in zip(legal, kinds, strict=True) if k is Act.NOMINATE))
                )
            elif Act.PASS in kinds and Act.VOTE not in kinds:
                out.append(int(legal[kinds.index(Act.PASS)]))
            else:
                out.append(int(legal[-1]))
        return np.array(out)

    def act(self, obs, mask):
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None])[0])


def layered(seed=1, **options):
    spec = table_of(TASK)
    opts = {"mafia": False, "fallback": "vouch", **options}
    return BeliefTalk(spec, Scripted(spec), seed, **opts)


def games(seating, count=12):
    env = mafia_env.raw_env(TASK.variant, TASK.num_players, **TASK.play_knobs())
    for g in range(count):
        play_game(env, seating, seed=TASK.seed + g)
        yield env.unwrapped.game


def sheriff_openings(game):
    """Each speech the sheriff began while nominated today before claiming sheriff: the kind
    and value of his first act in it (None: he said nothing)."""
    sheriff = [int(r) for r in game.roles].index(int(Role.SHERIFF))
    nominated = claimed = False
    out, opening = [], False
    for kind, actor, target, value, _seen in game.events:
        if kind == Ev.DAY:
            nominated = False
        elif kind == Ev.NOMINATE and target == sheriff:
            nominated = True
        elif kind == Ev.SPEAK and actor == sheriff and nominated and not claimed:
            opening = True
        elif opening and actor == sheriff and kind in SPEECH_ACTS | {int(Ev.END_SPEECH)}:
            out.append(None if kind == Ev.END_SPEECH else (kind, value))
            opening = False
        if kind == Ev.CLAIM_ROLE and actor == sheriff and value == int(Role.SHERIFF):
            claimed = True
    return out


@pytest.mark.slow
def test_sheriff_first_claims_before_the_networks_talk_when_nominated():
    rule = load_policy("rule", table_of(TASK), seed=2)
    first = {}
    for on in (True, False):
        town = layered(sheriff_first=on)
        seating = Seating(default=rule, teams={"town": town})
        first[on] = [o for g in games(seating, 30) for o in sheriff_openings(g)]
    claim = (int(Ev.CLAIM_ROLE), int(Role.SHERIFF))
    assert first[True], "no sheriff was nominated before his speech in 30 games"
    assert all(o == claim for o in first[True])
    # off, the network's nomination comes first where it may nominate (the layer speaks
    # only where the network passes)
    assert sum(o[0] == int(Ev.NOMINATE) for o in first[False]) > len(first[False]) / 2


def flat(talk):
    """Hold `talk`'s reading flat: every seat as likely black as any other."""

    def readings(b):
        p = np.full(b.alive.shape, 0.3)
        return p, p.copy()

    talk._readings = readings
    return talk


def decisions(seeds, mafia=None, seated=None):
    """(obs, mask, game, seat) at every turn of the seeded games `seeds`, the rule bots
    playing (the mafia's seats by `mafia` where given, and the seats `seated(seed, game)` maps
    to a bot by that bot), each turn played once looked at."""
    spec = table_of(TASK)
    rule = RulePolicy(spec=spec, seed=5)
    env = mafia_env.raw_env(TASK.variant, TASK.num_players, **TASK.play_knobs())
    for seed in seeds:
        env.reset(seed=TASK.seed + seed)
        game = env.unwrapped.game
        bots = dict(seated(seed, game)) if seated is not None else {}
        if mafia is not None:
            bots.update({s: mafia for s in range(game.n) if game.teams[s] == Team.MAFIA})
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            vec, mask = obs["observation"], obs["action_mask"]
            game = env.unwrapped.game
            seat = int(agent.split("_")[-1]) - 1
            yield vec, mask, game, seat
            env.step(int(bots.get(seat, rule).act(vec, mask)))


def first_turn(kind_name, team, extra=lambda game, mask: True, seed_from=0):
    """(obs, mask, game) at the first turn of `kind_name` for a seat of `team` (rule bots
    play), where the mask allows more than one action and `extra(game, mask)` holds."""
    rule = RulePolicy(spec=table_of(TASK), seed=5)
    names = rule.turn_names
    lo, hi = rule._pieces["my_turn"][:2]
    for vec, mask, game, seat in decisions(range(seed_from, seed_from + 20)):
        turn = vec[lo:hi]
        if (
            turn.max() > 0
            and names[int(turn.argmax())] == kind_name
            and mask.sum() > 1
            and game.teams[seat] == team
            and extra(game, mask)
        ):
            return vec, mask, game
    raise AssertionError(f"no {kind_name} turn found")


def test_meet_votes_the_rule_bots_choice_among_the_readings_equals():
    """With the claims reading flat, `meet` votes as the rule town would among the
    candidates: its top suspect by the rule bots' reading, the earliest nominee among
    equals, whatever the network picked."""
    vec, mask, game = first_turn("vote", 0)  # a town ballot
    talk = flat(layered(meet=True))
    decoded = talk.reader.layout.decoded
    votes = [i for i in np.flatnonzero(mask) if decoded[i][0] is Act.VOTE]
    assert len(votes) >= 2
    last_day = max(i for i, e in enumerate(game.events) if e[0] == Ev.DAY)
    today = [e[2] for e in game.events[last_day:] if e[0] == Ev.NOMINATE]
    b = talk.reader.read(vec[None], mask[None] != 0, np.array([0]))
    candidates = [decoded[i][1] for i in votes]
    top = max(b.sus[0, c] for c in candidates)
    expected = next(s for s in today if s in candidates and b.sus[0, s] >= top - 1e-9)
    assert decoded[talk.act(vec, mask)] == (Act.VOTE, expected, -1)
    plain = flat(layered(meet=False)).act(vec, mask)
    assert decoded[plain][0] is Act.VOTE and plain == votes[-1]  # the network's own pick
    rule = RulePolicy(spec=table_of(TASK), seed=0)
    assert decoded[int(rule.act(vec, mask))] == (Act.VOTE, expected, -1)  # the rule town's


def test_sparing_passes_where_it_has_no_suspect_and_someone_is_up():
    decoded = RulePolicy(spec=table_of(TASK), seed=0).layout.decoded

    def someone_up(game, mask):
        may = any(decoded[i][0] is Act.NOMINATE for i in np.flatnonzero(mask))
        day = max(i for i, e in enumerate(game.events) if e[0] == Ev.DAY)
        return may and any(e[0] == Ev.NOMINATE for e in game.events[day:])  # up today

    vec, mask, _game = first_turn("speech", 0, someone_up)
    inner = Scripted(table_of(TASK))
    noms = [i for i in np.flatnonzero(mask) if decoded[i][0] is Act.NOMINATE]
    assert noms
    talk = flat(layered(sparing=True, speech=False))
    talk.inner = _Nominate(inner, noms[0])
    assert decoded[talk.act(vec, mask)][0] is Act.PASS
    talk = flat(layered(sparing=False, speech=False))
    talk.inner = _Nominate(inner, noms[0])
    assert talk.act(vec, mask) == noms[0]


class _Nominate:
    observes = "vector"

    def __init__(self, inner, index):
        self.inner, self.index = inner, index

    def act_batch(self, obs, masks):
        return np.full(len(masks), self.index)


def split_nights(game):
    """How many nights the mafia's shots went to more than one seat (the robustness
    probe's count: results/robust/experiments/mixed_probe.py)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "results/robust/experiments/mixed_probe.py"
    spec = importlib.util.spec_from_file_location("mixed_probe", path)
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    return sum(len(s) > 1 for s in probe.night_shots(game.events).values())


def test_agree_has_a_mixed_mafia_fire_at_one_seat():
    rule = load_policy("rule", table_of(TASK), seed=2)
    splits = {}
    for on in (True, False):
        mafia = layered(agree=on)

        class Mixed(Seating):  # the scripted members on two seats of three, rule bots the rest
            def players(self, game, _m=mafia):
                out = super().players(game)
                black = [s for s, t in enumerate(game.teams) if int(t) == 1]
                for s in black[:2]:
                    out[s] = _m
                return out

        splits[on] = sum(split_nights(g) for g in games(Mixed(default=rule), 12))
    assert splits[True] == 0
    assert splits[False] > 0


def test_the_options_are_checked_by_name():
    spec = table_of(TASK)
    for name in ("sheriff_first", "meet", "sparing", "agree", "lead"):
        p = load_policy("rule_talk", spec, seed=1, **{name: True})
        assert getattr(p, name) is True
    with pytest.raises(ConfigError, match="rule_talk takes no options"):
        load_policy("rule_talk", spec, meeting=True)


def test_lead_keeps_a_living_dons_shot_and_agrees_without_him():
    """CITY-N3, CITY-N4: under ``mafia_kill: don`` a living don's shot is the team's, so with
    ``lead`` the network's own shot stands there (the scripted don splits from his rule-bot
    teammates, harmlessly); once the don is dead every member must shoot alike (a split is
    the team's forfeit), and the agreed shot holds with or without ``lead``."""
    task = get_task("city-13", LATEST)
    spec = table_of(task)
    rule = load_policy("rule", spec, seed=2)
    env = mafia_env.raw_env(task.variant, task.num_players, **task.play_knobs())
    counts = {}
    for lead in (True, False):
        opts = {"speech": False, "nominate": False, "vote": False, "mafia": False}
        mafia = BeliefTalk(spec, Scripted(spec), 1, agree=True, lead=lead, **opts)

        class Mixed(Seating):  # the scripted don and one member, a rule bot the rest
            def players(self, game, _m=mafia):
                out = super().players(game)
                don = [int(r) for r in game.roles].index(int(Role.DON))
                plain = [s for s, r in enumerate(game.roles) if r is Role.MAFIA]
                for s in (don, plain[0]):
                    out[s] = _m
                return out

        led = split_led = unled = split_unled = 0
        for g in range(20):
            play_game(env, Mixed(default=rule), seed=task.seed + g)
            game = env.unwrapped.game
            don = [int(r) for r in game.roles].index(int(Role.DON))
            shots: dict[int, dict[int, int]] = {}
            night = 0
            for kind, actor, target, value, _seen in game.events:
                if kind == Ev.NIGHT:
                    night = value
                elif kind == Ev.SHOT and game.roles[actor].team is Team.MAFIA:  # (not the maniac)
                    shots.setdefault(night, {})[actor] = target
            for by in shots.values():
                if len(by) < 2:
                    continue
                split = len(set(by.values())) > 1
                if don in by:
                    led, split_led = led + 1, split_led + split
                else:
                    unled, split_unled = unled + 1, split_unled + split
        counts[lead] = (led, split_led, unled, split_unled)
    for lead, (led, _, unled, split_unled) in counts.items():
        assert led > 0 and unled > 0, (lead, counts)  # both kinds of night came up
        assert split_unled == 0, (lead, counts)  # without the don: one seat, always
    assert counts[True][1] > 0  # the scripted don's own shot, apart from his teammates'
    assert counts[False][1] == 0  # `agree` alone: the rule bots' shot, the don's too


def claimants(game):
    """The seats whose latest role claim is the sheriff's, from the game's events."""
    latest = {}
    for kind, actor, _target, value, _seen in game.events:
        if kind == Ev.CLAIM_ROLE:
            latest[actor] = value
    return {s for s, v in latest.items() if v == int(Role.SHERIFF)}


def deferred_turns(count, want):
    """(obs, mask, seat's team, sheriff claimants) at the town's and the mafia's turns of
    seeded games of the team of fake sheriffs against the rule town, where `want(claimants)`
    holds."""
    liars = load_policy("style:fake_sheriff", table_of(TASK), seed=6)
    out = []
    for vec, mask, game, seat in decisions(range(20), mafia=liars):
        said = claimants(game)
        if mask.sum() > 1 and want(said):
            out.append((vec, mask, game.teams[seat], len(said)))
            if len(out) >= count:
                return out
    raise AssertionError("too few turns found")


def test_defer_hands_a_town_seat_to_the_rule_bots_where_the_table_shows_a_lie():
    """``defer``: where two or more seats claim the sheriff (``liars``), three or more
    (``team``), or another seat has claimed the sheriff or a check (``claims``), a town
    seat's move is the rule bots' (the layer's reader, seeded alike), the network's nowhere
    else; a mafia seat is never handed over. An unknown trigger is refused by name."""
    spec = table_of(TASK)
    lied = deferred_turns(40, lambda c: len(c) >= 2)
    town = [t for t in lied if t[2] == Team.TOWN]
    assert town and len(town) < len(lied)  # (both teams' turns)
    teams = layered(defer="team")
    hit = [teams._deferred(teams.reader, v[None], m[None] != 0)[0] for v, m, _, _ in town]
    assert hit == [c >= 3 for *_, c in town] and any(hit)
    for vec, mask, team, _ in lied:
        talk, twin = layered(defer="liars"), layered(defer="liars")
        rule = twin.reader.act_batch(vec[None], mask[None])[0]
        got = talk.act(vec, mask)
        mine = layered().act(vec, mask)  # without the option: the network and the layer
        if team == Team.TOWN:
            assert got == rule
        else:
            assert got == mine
    moved = sum(layered(defer="liars").act(v, m) != layered().act(v, m) for v, m, *_ in town)
    assert moved > 0  # (the scripted network plays otherwise than the rule bots)
    quiet = deferred_turns(20, lambda c: len(c) == 1)
    for vec, mask, *_ in quiet:
        for trigger in ("liars", "team"):
            talk = layered(defer=trigger)
            assert not talk._deferred(talk.reader, vec[None], mask[None] != 0)[0]
    said = [t for t in quiet if t[2] == Team.TOWN]
    talk = layered(defer="claims")
    hits = [talk._deferred(talk.reader, v[None], m[None] != 0)[0] for v, m, *_ in said]
    assert any(hits)
    with pytest.raises(ConfigError, match="defer 'always' is not one of"):
        BeliefTalk(spec, Scripted(spec), 1, defer="always")


def test_mates_hands_a_mafia_seat_to_the_rule_bots_beside_teammates_who_did_not_vouch():
    """``mates``: once day 1's speeches are over, a mafia seat whose living known teammate has
    vouched for nobody plays as the rule bots (the layer's reader, seeded alike); a town seat,
    a seat still in day 1's speeches, and a seat whose teammates have all vouched are not
    handed over. Rule bots play every seat here (their mafia do not vouch on day 1), the
    expectation worked out from the game's own events."""
    from mafia_env.engine.kinds import Turn

    seen = {True: 0, False: 0}
    for vec, mask, game, seat in decisions(range(6)):
        if mask.sum() <= 1:
            continue
        talk = layered(mates=True)
        got = bool(talk._deferred(talk.reader, vec[None], mask[None] != 0)[0])
        over = game.day >= 2 or (game.day == 1 and game.turn is not Turn.SPEECH)
        vouched = {e[1] for e in game.events if e[0] == Ev.VOUCH}
        mates = [
            s for s in range(game.n) if s != seat and game.teams[s] == Team.MAFIA and game.alive[s]
        ]
        want = game.teams[seat] == Team.MAFIA and over and any(s not in vouched for s in mates)
        assert got == want, (game.day, game.turn, seat)
        if game.teams[seat] == Team.MAFIA:
            seen[got] += 1
            if got:
                twin = layered(mates=True)
                rule = twin.reader.act_batch(vec[None], mask[None])[0]
                assert layered(mates=True).act(vec, mask) == rule
    assert seen[True] and seen[False]


def handed_over(layer: BeliefTalk) -> list[np.ndarray]:
    """Keep, call by call, which rows `layer` hands to the rule bots (its `_deferred`); return
    the list it fills as games are played."""
    calls: list[np.ndarray] = []
    deferred = layer._deferred

    def counted(*args):
        out = deferred(*args)
        calls.append(out.copy())
        return out

    layer._deferred = counted
    return calls


class Saying(Scripted):
    """The stand-in network, but a speech says `SAYS` first where it may."""

    SAYS = Act.VOUCH

    def act_batch(self, obs, masks):
        out = super().act_batch(obs, masks)
        for i, mask in enumerate(np.asarray(masks)):
            said = [a for a in np.flatnonzero(mask) if self.decoded[a][0] is self.SAYS]
            if said:
                out[i] = said[0]
        return out


class Vouching(Saying):
    """The stand-in network, but a speech vouches for someone first: the mark of the copies."""

    SAYS = Act.VOUCH


def test_mates_keeps_a_team_of_copies_that_vouch():
    """``mates`` over a network whose speeches vouch, on every mafia seat: no mafia decision
    of whole games is handed to the rule bots (its teammates all vouched on day 1)."""
    spec = table_of(TASK)
    team = BeliefTalk(spec, Vouching(spec), 1, mafia=False, fallback="vouch", mates=True)
    calls = handed_over(team)
    rule = load_policy("rule", spec, seed=2)
    for _ in games(Seating(default=rule, teams={"mafia": team}), 6):
        pass
    assert calls and not np.concatenate(calls).any()


def test_mates_nominate_takes_a_teammate_who_nominated_for_a_copy():
    """``mates_nominate`` (with ``mates``): a mafia seat is handed to the rule bots only where a
    living known teammate has neither vouched for nor nominated anyone (once day 1's speeches
    are over), worked out from the game's own events (the rule bots' mafia nominate now and
    then: both ways are met); without ``mates`` it is refused."""
    from mafia_env.engine.kinds import Turn

    seen = {True: 0, False: 0}
    nominated_only = 0
    for vec, mask, game, seat in decisions(range(10)):
        if mask.sum() <= 1 or game.teams[seat] != Team.MAFIA:
            continue
        talk = layered(mates=True, mates_nominate=True)
        got = bool(talk._deferred(talk.reader, vec[None], mask[None] != 0)[0])
        over = game.day >= 2 or (game.day == 1 and game.turn is not Turn.SPEECH)
        vouched = {e[1] for e in game.events if e[0] == Ev.VOUCH}
        named = {e[1] for e in game.events if e[0] in (Ev.NOMINATE, Ev.NAME) and e[1] >= 0}
        mates = [s for s in range(game.n) if s != seat and game.teams[s] == Team.MAFIA]
        mates = [s for s in mates if game.alive[s]]
        want = over and any(s not in vouched and s not in named for s in mates)
        assert got == want, (game.day, game.turn, seat)
        seen[got] += 1
        plain = layered(mates=True)
        nominated_only += (
            over and bool(plain._deferred(plain.reader, vec[None], mask[None] != 0)[0]) and not got
        )
    assert seen[True] and seen[False] and nominated_only
    with pytest.raises(ConfigError, match="mates_nominate refines mates"):
        layered(mates_nominate=True)


class Nominating(Scripted):
    """The stand-in network (its speech nominates, it never vouches)."""


def test_mates_nominate_keeps_a_team_of_copies_that_nominate():
    """``mates`` with ``mates_nominate`` over a network whose speeches nominate and never vouch,
    on every mafia seat: once its teammates have nominated, none of its decisions goes to the
    rule bots; ``mates`` alone hands such a team over."""
    spec = table_of(TASK)
    rule = load_policy("rule", spec, seed=2)
    handed = {}
    for nominate in (True, False):
        team = BeliefTalk(
            spec,
            Nominating(spec),
            1,
            mafia=False,
            fallback="vouch",
            guess=False,
            mates=True,
            mates_nominate=nominate,
        )
        calls = handed_over(team)
        for _ in games(Seating(default=rule, teams={"mafia": team}), 6):
            pass
        handed[nominate] = int(np.concatenate(calls).sum())
    assert handed[True] == 0 < handed[False]


TALK = {int(e) for e in (Ev.CLAIM_ROLE, Ev.CLAIM_CHECK, Ev.ACCUSE, Ev.VOUCH)}


class Accusing(Saying):
    """The stand-in network, but a speech accuses someone first: talk that is not a vouch."""

    SAYS = Act.ACCUSE


def town_decisions(seeds, vouchers, accusers=lambda seed: 0):
    """`decisions` where the first `vouchers(seed)` town seats are played by the vouching
    stand-in (the mark of the copies), the next `accusers(seed)` by the accusing one, and
    every other seat by the rule bots."""
    spec = table_of(TASK)
    copy_, loud = Vouching(spec), Accusing(spec)

    def seated(seed, game):
        town = [s for s in range(game.n) if game.teams[s] == Team.TOWN]
        v, a = vouchers(seed), accusers(seed)
        return {**{s: copy_ for s in town[:v]}, **{s: loud for s in town[v : v + a]}}

    return decisions(seeds, seated=seated)


@pytest.mark.parametrize("defer", ["silent", "unvouched", "few_vouches"])
def test_defer_silent_hands_a_town_seat_to_the_rule_bots_beside_seats_that_said_nothing(defer):
    """``defer="silent"``: once day 1's speeches are over, a town seat plays as the rule bots
    (the layer's reader, seeded alike) where more of the other seats have said nothing (no
    claim, check, accusation or vouch) than there are seats outside the town; not in day 1's
    speeches, not a mafia seat, not where enough have spoken. ``"unvouched"``: there, or where
    at most half the other town seats' number of other seats have vouched; ``"few_vouches"``:
    where at most a third have, alone (a silent table alone hands nothing over). From 0 to all 7
    town seats vouch (the stand-in), the rest are rule bots; the expectation comes from the
    game's own events."""
    from mafia_env.engine.kinds import Turn

    seen = {True: 0, False: 0}
    spoken_false = by_vouches = 0
    for vec, mask, game, seat in town_decisions(range(8), lambda seed: seed, lambda seed: 3):
        if mask.sum() <= 1:
            continue
        talk = layered(defer=defer)
        got = bool(talk._deferred(talk.reader, vec[None], mask[None] != 0)[0])
        over = game.day >= 2 or (game.day == 1 and game.turn is not Turn.SPEECH)
        talked = {e[1] for e in game.events if e[0] in TALK}
        silent = {s for s in range(game.n) if s != seat and s not in talked}
        outside = sum(game.teams[s] != Team.TOWN for s in range(game.n))
        vouchers = {e[1] for e in game.events if e[0] == Ev.VOUCH and e[1] != seat}
        mates = game.n - outside - 1
        few = defer == "unvouched" and 2 * len(vouchers) <= mates
        if defer == "few_vouches":  # (a third, and not the silent seats)
            few, silent = 3 * len(vouchers) <= mates, set()
        town = game.teams[seat] == Team.TOWN
        want = town and over and (len(silent) > outside or few)
        assert got == want, (game.day, game.turn, seat, sorted(silent))
        if town:
            seen[got] += 1
            spoken_false += over and not got
            by_vouches += want and len(silent) <= outside
            if got:
                twin = layered(defer=defer)
                rule = twin.reader.act_batch(vec[None], mask[None])[0]
                assert layered(defer=defer).act(vec, mask) == rule
    assert seen[True] and seen[False] and spoken_false  # (each way after day 1's speeches)
    assert bool(by_vouches) == (defer != "silent")  # (its own branch met)
    spec = table_of(TASK)
    assert BeliefTalk(spec, Scripted(spec), 1, defer=defer).defer == defer
    with pytest.raises(ConfigError, match=r"defer 'quiet' is not one of: .*silent, unvouched"):
        BeliefTalk(spec, Scripted(spec), 1, defer="quiet")


def copy_seats(game, half: bool, team: Team = Team.TOWN) -> list[int]:
    """The seats of `team`, or the first half of them."""
    seats = [s for s in range(game.n) if game.teams[s] == team]
    return seats[: len(seats) // 2] if half else seats


def town_copies(copy, default, half: bool, team: Team = Team.TOWN) -> Seating:
    """`default` on every seat but `copy_seats(game, half, team)`, which `copy` plays."""

    class Half(Seating):
        def players(self, game):
            out = super().players(game)
            for s in copy_seats(game, half, team):
                out[s] = copy
            return out

    return Half(default=default)


def test_defer_silent_keeps_a_town_of_copies_that_speak():
    """``defer="silent"`` over a network whose speeches vouch, on every town seat: no town
    decision of whole games against the rule mafia is handed to the rule bots (every other
    town seat spoke on day 1), and with the rule bots on half the town's seats some are."""
    spec = table_of(TASK)
    rule = load_policy("rule", spec, seed=2)
    for half in (False, True):
        town = BeliefTalk(spec, Vouching(spec), 1, mafia=False, fallback="vouch", defer="silent")
        calls = handed_over(town)

        for _ in games(town_copies(town, rule, half), 6):
            pass
        assert calls
        assert np.concatenate(calls).any() == half


def test_mark_vouches_in_a_town_seats_empty_day_1_speech():
    """``mark``: over a network that only nominates, each town seat's day-1 speech carries one
    vouch of its own, for the next seat clockwise; a mafia seat's never, and no speech after
    day 1. With ``defer="unvouched"`` a town of such copies is never handed to the rule bots,
    and beside rule-bot teammates it is. The network never sees a seat's vouch for its next
    seat (the marks), and sees the other vouches."""
    spec = table_of(TASK)
    rule = load_policy("rule", spec, seed=2)
    lo = RulePolicy(spec=spec, seed=0)._pieces["vouched"][0]
    n = spec.n

    class Seeing(Scripted):
        def act_batch(self, obs, masks):
            marks = np.asarray(obs)[:, lo : lo + n * n].reshape(-1, n, n)
            self.marks_seen += int(marks[:, np.arange(n), (np.arange(n) + 1) % n].sum())
            self.vouches_seen += int(marks.sum())
            return super().act_batch(obs, masks)

    for half in (False, True):
        net = Seeing(spec)
        net.marks_seen = net.vouches_seen = 0
        town = BeliefTalk(
            spec, net, 1, speech=False, nominate=False, vote=False, mark=True, defer="unvouched"
        )
        calls = handed_over(town)

        for game in games(town_copies(town, rule, half), 6):
            copies = set(copy_seats(game, half))
            day, spoke, vouched = 0, set(), {}
            for kind, actor, target, value, _seen in game.events:
                if kind == Ev.DAY:
                    day = value
                elif kind == Ev.SPEAK and day == 1:
                    spoke.add(actor)
                elif kind == Ev.VOUCH and actor in copies:
                    assert day == 1 and target == (actor + 1) % game.n, (actor, target)
                    assert actor not in vouched
                    vouched[actor] = target
            assert set(vouched) == copies & spoke
        assert np.concatenate(calls).any() == half
        assert net.marks_seen == 0
    # on a single row: seat 2's vouch for seat 3 (its next) is left out, for seat 5 kept
    vec, mask = next((v, m) for v, m, _g, _s in decisions(range(1)) if m.sum() > 1)
    vec = np.array(vec, copy=True)
    vec[lo + 2 * n + 3] = vec[lo + 2 * n + 5] = 1
    net.marks_seen = net.vouches_seen = 0
    BeliefTalk(spec, net, 1, speech=False, nominate=False, vote=False, mark=True).act(vec, mask)
    assert (net.marks_seen, net.vouches_seen) == (0, 1)


def _hands_over(talk: BeliefTalk, vec, mask) -> bool:
    return bool(talk._deferred(talk.reader, vec[None], mask[None] != 0)[0])


def test_defer_joins_triggers_with_a_plus():
    """``defer="team+unvouched"``: a town seat is handed to the rule bots wherever either
    trigger alone would hand it (three sheriff claimants, or few vouchers after day 1's
    speeches); a name that is not a trigger is refused with the allowed ones."""
    fired = {"team": 0, "unvouched": 0}
    for vec, mask, _game, _seat in town_decisions(range(6), lambda seed: seed % 4):
        if mask.sum() <= 1:
            continue
        alone = {t: _hands_over(layered(defer=t), vec, mask) for t in fired}
        assert _hands_over(layered(defer="team+unvouched"), vec, mask) == any(alone.values())
        for t, hit in alone.items():
            fired[t] += hit
    assert fired["unvouched"]
    with pytest.raises(ConfigError, match=r"defer 'team\+never' is not one of: .*joined by \+"):
        layered(defer="team+never")


def test_hide_vouches_hides_the_vouches_alone_from_the_network():
    """``hide_vouches``: the wrapped network's input has the table's vouches zeroed and its
    accusations kept (``hide_talk``: both zeroed); the layer reads the whole row."""
    spec = table_of(TASK)
    lay = RulePolicy(spec=spec, seed=0)._pieces
    vouched, accused = (slice(*lay[k][:2]) for k in ("vouched", "accused"))

    class Seeing(Scripted):
        def act_batch(self, obs, masks):
            self.seen = np.array(obs, copy=True)
            return super().act_batch(obs, masks)

    checked = 0
    for vec, mask, _game, _seat in town_decisions(range(4), lambda seed: 3, lambda seed: 3):
        if not (vec[vouched].any() and vec[accused].any()):
            continue
        for flag, hides_accusations in (("hide_vouches", False), ("hide_talk", True)):
            net = Seeing(spec)
            BeliefTalk(spec, net, 1, **{flag: True}).act(vec, mask)
            assert not net.seen[0, vouched].any()
            assert net.seen[0, accused].any() != hides_accusations
        checked += 1
        if checked > 5:
            break
    assert checked


def test_mark_civilian_claims_the_civilians_role_and_unmarked_reads_it():
    """``mark_civilian``: the mark is a claim of the civilian's role, on day 1 (the sheriff's
    claims are the rule bots', once handed over), by every town copy that spoke on day 1 but
    the sheriff, and the network sees no civilian claim; ``defer=
    "unmarked"`` never hands a town of such copies to the rule bots, and beside rule-bot
    teammates it does. Each refinement refused without what it refines."""
    spec = table_of(TASK)
    rule = load_policy("rule", spec, seed=2)
    reader = RulePolicy(spec=spec, seed=0)
    roles = len(reader.roles)
    civilian = reader.roles.index(Role.CIVILIAN)
    lo = reader._pieces["claimed_role"][0]
    n = spec.n

    class Seeing(Scripted):
        def act_batch(self, obs, masks):
            claims = np.asarray(obs)[:, lo : lo + n * roles].reshape(-1, n, roles)
            self.civilian_seen += int(claims[:, :, civilian].sum())
            return super().act_batch(obs, masks)

    for half in (False, True):
        net = Seeing(spec)
        net.civilian_seen = 0
        options = dict(speech=False, nominate=False, vote=False, defer="unmarked")
        town = BeliefTalk(spec, net, 1, mark=True, mark_civilian=True, **options)
        calls = handed_over(town)
        for game in games(town_copies(town, rule, half), 6):
            copies = set(copy_seats(game, half))
            day, spoke, claimed = 0, set(), set()
            for kind, actor, _target, value, _seen in game.events:
                if kind == Ev.DAY:
                    day = value
                elif kind == Ev.SPEAK and day == 1:
                    spoke.add(actor)
                elif kind == Ev.CLAIM_ROLE and actor in copies and value == Role.CIVILIAN:
                    assert day == 1 and actor not in claimed
                    claimed.add(actor)
            speakers = {s for s in copies & spoke if game.roles[s] is not Role.SHERIFF}
            assert claimed == speakers
        assert np.concatenate(calls).any() == half
        assert net.civilian_seen == 0
    with pytest.raises(ConfigError, match="mark_civilian refines mark"):
        BeliefTalk(spec, Scripted(spec), 1, mark_civilian=True)
    with pytest.raises(ConfigError, match="'unmarked' reads the layer's mark"):
        BeliefTalk(spec, Scripted(spec), 1, defer="unmarked")


@pytest.mark.parametrize("options", [{"mark": True, "mark_civilian": True}, {"hide_talk": True}])
def test_the_hidden_columns_are_the_tables_own_era(options):
    """A layer loaded for today's rules (the variant's table, as `mafia exploit` loads a
    policy) playing rows of an earlier era's game (the benchmark task's rules, another layout)
    hides that layout's columns: the wrapped network sees no civilian claim (or accusation and
    vouch) of the rows it is given, and the rest of each row as it was."""
    from mafia_env.engine.spec import GameSpec

    task = get_task("online-10", LATEST)
    today = GameSpec.make(task.variant, task.num_players)
    era = RulePolicy(spec=table_of(task), seed=0)
    assert era.obs_layout.size != RulePolicy(spec=today, seed=0).obs_layout.size
    lay = era._pieces
    n, roles = era.n, len(era.roles)
    if options.get("mark"):
        want = lay["claimed_role"][0] + np.arange(n) * roles + era.roles.index(Role.CIVILIAN)
    else:
        want = np.r_[np.arange(*lay["accused"][:2]), np.arange(*lay["vouched"][:2])]

    class Seeing(Scripted):
        def act_batch(self, obs, masks):
            self.seen = np.array(obs, copy=True)
            return super().act_batch(obs, masks)

    env = mafia_env.raw_env(task.variant, task.num_players, **task.play_knobs())
    env.reset(seed=3)
    obs, _, _, _, _ = env.last()
    vec, mask = np.array(obs["observation"], copy=True), obs["action_mask"]
    vec[want] = 1  # (as if every seat had said it)
    net = Seeing(today)
    BeliefTalk(today, net, 1, speech=False, nominate=False, vote=False, **options).act(vec, mask)
    assert not net.seen[0, want].any()
    rest = np.ones(len(vec), dtype=bool)
    rest[want] = False
    assert np.array_equal(net.seen[0, rest], vec[rest])


def test_mark_mafia_marks_the_mafia_too_and_mates_reads_it():
    """``mark_mafia``: a mafia copy's empty day-1 speech bears the mark as well (a civilian
    claim), and ``mates`` takes a teammate who said anything on day 1 for a copy: a team of
    such copies is never handed to the rule bots, and a copy beside rule-bot teammates (who
    say nothing) is. Refused without ``mark``."""
    spec = table_of(TASK)
    rule = load_policy("rule", spec, seed=2)
    for half in (False, True):
        options = dict(speech=False, nominate=False, vote=False, mafia=False, mates=True)
        team = BeliefTalk(spec, Scripted(spec), 1, mark=True, mark_civilian=True,
                          mark_mafia=True, **options)  # fmt: skip
        calls = handed_over(team)

        marked = 0
        for game in games(town_copies(team, rule, half, Team.MAFIA), 6):
            mafia = {s for s in range(game.n) if game.teams[s] == Team.MAFIA}
            day = 0
            for kind, actor, _target, value, _seen in game.events:
                if kind == Ev.DAY:
                    day = value
                elif kind == Ev.CLAIM_ROLE and actor in mafia and value == Role.CIVILIAN:
                    marked += day == 1
        assert marked
        assert np.concatenate(calls).any() == half
    with pytest.raises(ConfigError, match="mark_mafia refines mark"):
        BeliefTalk(spec, Scripted(spec), 1, mark_mafia=True)


def _vouches_by_day(game) -> dict[tuple[bool, bool], int]:
    """A finished game's vouches, counted by (said by the mafia, said after day 1)."""
    day, out = 0, {(m, late): 0 for m in (False, True) for late in (False, True)}
    for kind, actor, _target, value, _seen in game.events:
        if kind == Ev.DAY:
            day = value
        elif kind == Ev.VOUCH:
            out[(game.teams[actor] == Team.MAFIA, day >= 2)] += 1
    return out


def test_mafia_quiet_keeps_the_mafias_vouches_to_day_1():
    """``mafia_quiet`` over a network that vouches in every speech, on every seat: after day 1
    the mafia seats vouch for nobody (the speech ends where the network would), on day 1 they
    still do (the copies' mark that ``mates`` reads), and the town's vouches go on; without
    the option the mafia vouch after day 1 too."""
    spec = table_of(TASK)
    for quiet in (False, True):
        talk = BeliefTalk(spec, Vouching(spec), 1, mafia=False, fallback="vouch", mafia_quiet=quiet)
        total = {(m, late): 0 for m in (False, True) for late in (False, True)}
        for game in games(Seating(default=talk), 6):
            for key, count in _vouches_by_day(game).items():
                total[key] += count
        assert total[(True, False)] > 0 and total[(False, True)] > 0, total
        assert (total[(True, True)] == 0) == quiet, total


def test_mafia_silent_ends_every_mafia_vouch():
    """``mafia_silent`` over a network that vouches in every speech, on every seat: the mafia
    seats vouch for nobody on any day, the town's vouches go on; refused with ``mates`` alone
    (no vouch left to tell a copy by), taken with ``mates_nominate``."""
    spec = table_of(TASK)
    talk = BeliefTalk(spec, Vouching(spec), 1, mafia=False, fallback="vouch", mafia_silent=True)
    total = {(m, late): 0 for m in (False, True) for late in (False, True)}
    for game in games(Seating(default=talk), 6):
        for key, count in _vouches_by_day(game).items():
            total[key] += count
    assert total[(True, False)] == total[(True, True)] == 0, total
    assert total[(False, False)] > 0 and total[(False, True)] > 0, total
    with pytest.raises(ConfigError, match="mafia_silent leaves mates no vouch"):
        BeliefTalk(spec, Vouching(spec), 1, mafia_silent=True, mates=True)
    BeliefTalk(spec, Vouching(spec), 1, mafia_silent=True, mates=True, mates_nominate=True)


class Passing(Scripted):
    """The stand-in network, but its speeches end at once: it nominates nobody."""

    def act_batch(self, obs, masks):
        out = super().act_batch(obs, masks)
        for i, mask in enumerate(np.asarray(masks)):
            legal = np.flatnonzero(mask)
            kinds = [self.decoded[a][0] for a in legal]
            if Act.NOMINATE in kinds and Act.PASS in kinds:
                out[i] = legal[kinds.index(Act.PASS)]
        return out


def test_mafia_push_nominates_the_tables_top_suspect_after_day_1():
    """``mafia_push`` over a network that nominates nobody, on the mafia's seats beside the
    rule bots' town: after day 1 a mafia seat whose speech would end nominates a town player
    (never a teammate, never on day 1), and on each of those nominations the table's reading
    (a town player's in that seat) holds him more than `ACCUSE_OVER` above the prior and
    above every other seat the mafia seat could have nominated; without the option the
    mafia nominate nobody."""
    from baselines.belief_talk import ACCUSE_OVER

    spec = table_of(TASK)
    rule = load_policy("rule", spec, seed=2)
    for push in (False, True):
        talk = BeliefTalk(spec, Passing(spec), 1, mafia=False, mafia_push=push)
        checked = []
        if push:
            pushed = talk._push

            def watched(reader, obs, legal, out, speech, pushed=pushed, talk=talk, checked=checked):
                before = out.copy()
                pushed(reader, obs, legal, out, speech)
                rows = np.flatnonzero(out != before)
                if rows.size:
                    b = reader.read(obs, legal, rows)
                    p = talk._readings(b, mafia=True)[1]
                    prior = reader.mafia_size / max(b.n - 1, 1)
                    for j, row in enumerate(rows):
                        act, seat = reader.layout.decoded[out[row]][:2]
                        allowed = b.alive[j] & b.seg(Act.NOMINATE)[j] & ~b.mate[j]
                        allowed[b.me[j]] = False
                        assert act is Act.NOMINATE and allowed[seat] and b.day[j] >= 2
                        assert p[j, seat] >= prior + ACCUSE_OVER
                        assert p[j, seat] >= p[j][allowed].max()
                        checked.append(seat)

            talk._push = watched
        nominations = {1: 0, 2: 0}
        for game in games(Seating(default=rule, teams={"mafia": talk}), 8):
            day = 0
            for kind, actor, target, value, _seen in game.events:
                if kind == Ev.DAY:
                    day = value
                elif kind == Ev.NOMINATE and game.teams[actor] == Team.MAFIA:
                    assert game.teams[target] != Team.MAFIA
                    nominations[min(day, 2)] += 1
        assert nominations[1] == 0
        assert (nominations[2] > 0) == push and len(checked) == nominations[2], nominations


def _framed_by_events(game, seat: int, later: bool = False) -> bool:
    """Whether, by the events so far, it is day 1 and three or more seats other than `seat`
    have accused one seat that no claimant has called black; with `later`, whether it is day
    2 or later and such a seat has been voted out."""
    day, accusers, called, voted_out = 0, {}, set(), set()
    for kind, actor, target, value, _seen in game.events:
        if kind == Ev.DAY:
            day = value
        elif kind == Ev.ACCUSE and actor != seat:
            accusers.setdefault(target, set()).add(actor)
        elif kind == Ev.CLAIM_CHECK and value == 1:
            called.add(target)
        elif kind == Ev.ELIMINATED and value == Cause.VOTE:
            voted_out.add(target)
    framed = {t for t, s in accusers.items() if len(s) >= 3 and t not in called}
    return day >= 2 and bool(framed & voted_out) if later else day == 1 and bool(framed)


def test_defer_framed_hands_the_town_over_on_day_1_where_a_team_accuses_one_seat():
    """``defer="framed"``: on day 1 a town seat's decisions are the rule bots' where three or
    more other seats have accused one seat that no claimant called black (a team framing a
    townsperson: the zoo's framer), at every town turn of seeded games against the framers
    and against the team of fake sheriffs (whose black call the town's accusations follow:
    not a frame); never a mafia seat's, never after day 1."""
    fired = {}
    for style in ("framer", "fake_sheriff"):
        mafia = load_policy(f"style:{style}", table_of(TASK), seed=6)
        talk = layered(defer="framed")
        fired[style] = 0
        for vec, mask, game, seat in decisions(range(6), mafia=mafia):
            if mask.sum() <= 1 or game.teams[seat] != Team.TOWN:
                continue
            hit = talk._deferred(talk.reader, vec[None], mask[None] != 0)[0]
            assert hit == _framed_by_events(game, seat), (style, seat)
            fired[style] += bool(hit)
        for vec, mask, game, seat in decisions(range(2), mafia=mafia):
            if game.teams[seat] == Team.MAFIA and mask.sum() > 1:
                assert not talk._deferred(talk.reader, vec[None], mask[None] != 0)[0]
    assert fired["framer"] > 0, fired


def _check_trigger(trigger: str, styles, seeds, want) -> dict[str, int]:
    """At every turn of the seeded games `seeds` against each style's mafia, ``defer=trigger``
    hands a town seat to the rule bots exactly where ``want(game, seat)`` says, and never a
    mafia seat; return, per style, how many town decisions it fired at."""
    fired = {}
    for style in styles:
        mafia = load_policy(f"style:{style}", table_of(TASK), seed=6)
        talk = layered(defer=trigger)
        fired[style] = 0
        for vec, mask, game, seat in decisions(seeds, mafia=mafia):
            if mask.sum() <= 1:
                continue
            hit = talk._deferred(talk.reader, vec[None], mask[None] != 0)[0]
            if game.teams[seat] != Team.TOWN:
                assert not hit
                continue
            assert hit == want(game, seat), (style, seat)
            fired[style] += bool(hit)
    return fired


def test_defer_framed_out_hands_the_town_over_once_a_framed_seat_is_voted_out():
    """``defer="framed_out"``: after day 1 a town seat's decisions are the rule bots' once a
    vote has put out a seat that three or more other seats accused and no claimant called
    black (the framers' townsperson), at every town turn of seeded games against the framers
    and the team of fake sheriffs; never a mafia seat's, never on day 1. Against the framers
    it fires (their day-1 frame puts a townsperson out)."""
    fired = _check_trigger(
        "framed_out", ("framer", "fake_sheriff"), range(6), partial(_framed_by_events, later=True)
    )
    assert fired["framer"] > 0, fired


def _impossible_by_events(game, seat: int, day_1_only: bool = False) -> bool:
    """Whether, by the events so far, a seat other than `seat` has claimed checks of more
    seats than nights with checks have passed (SPORT: none before day 1, one a night); with
    `day_1_only`, on day 1 alone."""
    day, called = 0, {}
    for kind, actor, target, _value, _seen in game.events:
        if kind == Ev.DAY:
            day = _value
        elif kind == Ev.CLAIM_CHECK and actor != seat:
            called.setdefault(actor, set()).add(target)
    if day_1_only and day != 1:
        return False
    return any(len(t) > max(0, day - 1) for t in called.values())


@pytest.mark.parametrize("trigger", ["impossible", "day1_check"])
def test_defer_impossible_hands_the_town_over_where_a_seat_claims_checks_no_night_gave(trigger):
    """``defer="impossible"``: a town seat's decisions are the rule bots' where another seat
    has claimed more checks than nights have passed (a day-1 check claim: a liar), at every
    town turn of seeded games against the lone fake sheriff, the don's fake check and noisy
    mafia (whose random talk claims checks); never a mafia seat's. ``day1_check``: the same
    on day 1 alone."""
    styles = ("fake_sheriff_solo", "don_fake_check", "noisy", "framer")
    want = partial(_impossible_by_events, day_1_only=trigger == "day1_check")
    fired = _check_trigger(trigger, styles, range(4), want)
    assert fired["fake_sheriff_solo"] > 0 and fired["don_fake_check"] > 0, fired
    assert fired["framer"] == 0, fired  # (its mafia claim no check)


def test_mafia_answer_puts_a_town_player_up_beside_its_team():
    """``mafia_answer`` over a network that nominates nobody, on the mafia's seats: while a
    living member of its team (itself included) is up for the vote, a mafia seat's pass in a
    speech becomes a nomination of the town player the table's reading (a town player's in
    that seat) suspects most among those it may nominate, unless a seat outside its team has
    vouched for someone (the network's copies vouch on day 1). Elsewhere the pass stays.
    Beside the rule bots' town (they vouch for nobody) and beside a town that vouches once;
    the expectation worked out from the game's own nominees and vouches."""
    from mafia_env.engine.kinds import Turn

    spec = table_of(TASK)
    answered = {"nominate": 0, "pass": 0, "copies": 0}

    def talk(answer):
        return BeliefTalk(spec, Passing(spec), 1, mafia=False, mafia_answer=answer)

    layer = talk(True)
    reader = layer.reader

    class VouchOnce(Scripted):  # vouches for someone once, then talks as the stand-in
        def act_batch(self, obs, masks):
            out = super().act_batch(obs, masks)
            for i, mask in enumerate(np.asarray(masks)):
                b = reader.read(np.asarray(obs)[i : i + 1], mask[None] != 0, np.arange(1))
                seats = np.flatnonzero(b.seg(Act.VOUCH)[0])
                if not b.vouched[0, b.me[0]].any() and seats.size:
                    out[i] = layer._index(b, Act.VOUCH, int(seats[0]))
            return out

    vouching = VouchOnce(spec)

    def town_of(seed, game):  # half the games: a town that vouches in every speech
        town = [s for s in range(game.n) if game.teams[s] != Team.MAFIA]
        return {s: vouching for s in town} if seed % 2 else {}

    for vec, mask, game, seat in decisions(range(16), mafia=layer, seated=town_of):
        if game.teams[seat] != Team.MAFIA or game.turn is not Turn.SPEECH or mask.sum() <= 1:
            continue
        plain, got = talk(False).act(vec, mask), talk(True).act(vec, mask)
        team_up = any(game.teams[s] == Team.MAFIA and game.alive[s] for s in game.today.nominees)
        b = reader.read(vec[None], mask[None] != 0, np.arange(1))
        may = b.alive[0] & b.seg(Act.NOMINATE)[0] & ~b.mate[0]
        may[b.me[0]] = False
        vouchers = {e[1] for e in game.events if e[0] == Ev.VOUCH}
        copies = any(game.teams[s] != Team.MAFIA for s in vouchers)
        passes = reader.layout.decoded[plain][0] is Act.PASS
        if not (team_up and passes and may.any()):
            assert got == plain
            answered["pass"] += 1
        elif copies:
            assert got == plain
            answered["copies"] += 1
        else:
            act, target = reader.layout.decoded[got][:2]
            public = layer._readings(b, mafia=True)[1][0]
            assert act is Act.NOMINATE and may[target] and game.teams[target] != Team.MAFIA
            assert public[target] == public[may].max()
            answered["nominate"] += 1
    assert min(answered.values()) >= 3, answered
