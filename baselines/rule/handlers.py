"""The rule bots' decisions: what they do at each kind of turn, over a whole batch at once.

A decision takes a `SeenBatch` and the rows that take it ([R] bool) and returns a `Draws`
(`baselines.rule.draws`): the picks among equals it makes and, once they are drawn, each
row's choice (NONE: none, the fallback then: pass, else a random legal action). `TURNS` maps
each kind of turn to its decision (the bot's `turns`). Speech is a plan (`Plan`: choices in
order, the first legal one is said), by role (`SPEAKERS`), else by team (`TEAM_SPEAKERS`).

Where the bot's `Style` names a habit, the decision reads it from a table of habits
(`CHECKS`, `HEALS`, ...: one function each, over the batch); numbers (`counterclaim_p`,
`fake_claim_p`) are read where they are used.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from baselines.rule.draws import Draws, Places, Tie, combine, fixed
from baselines.rule.plan import coin, mafia_day_scores, mafia_ranking, public_noise
from baselines.rule.posterior import binary_entropy
from baselines.rule.reading import NONE, SeenBatch, any_of, max_of, min_of, row_dots
from baselines.rule.suspicion import STRONG, W_SHERIFF_RED
from mafia_env.engine.kinds import Act
from mafia_env.engine.roles import Role, Team

Decision = Callable[[SeenBatch, np.ndarray], Draws]

SURE = 0.85  # hunt ``sure``: P(black) worth a hunt (a wrong one kills the hunter)
CLEARED = 0.03  # abstain ``posterior``: below this P(black) a candidate counts as town
INFO = 0.05  # check ``information``: suspicion + INFO * the answer's entropy in bits

# ------------------------------------------------------------------ helpers


def habit(b: SeenBatch, knob: str, table: dict[str, Callable[..., Any]], *args: Any) -> Any:
    """``table[h](b, *args)`` for the habit h the `Style` knob `knob` names: each row's own
    where the batch mixes styles (`SeenBatch.mix`): every habit its rows play decided over
    the whole batch, each row's kept (arrays row by row, `Draws` by `combine`)."""
    if b.mix is None:
        return table[getattr(b.style, knob)](b, *args)
    groups = b.mix.groups(knob)
    if len(groups) == 1:
        return table[groups[0][0]](b, *args)
    parts = [(table[h](b, *args), rows) for h, rows in groups]
    if isinstance(parts[0][0], Draws):
        return combine(parts, b.R)
    xs = [np.asarray(x) for x, _ in parts]
    xs = [np.full(b.R, x) if x.ndim == 0 else x for x in xs]  # (a number: alike for each row)
    out = xs[0].copy()
    for x, (_, rows) in zip(xs[1:], parts[1:], strict=True):
        np.copyto(out, x, where=rows.reshape(-1, *[1] * (out.ndim - 1)))
    return out


def chance(b: SeenBatch, knob: str, i: int) -> float:
    """Row `i`'s probability `knob` (a `Style` chance: its own style's in a mixed batch)."""
    return getattr(b.style, knob) if b.mix is None else b.mix.chance(knob, i)


def habits(b: SeenBatch, knob: str) -> list[Any]:
    """The habits of the `Style` knob `knob` that the batch's rows play (each once)."""
    return [getattr(b.style, knob)] if b.mix is None else [h for h, _ in b.mix.groups(knob)]


def first(x: np.ndarray) -> np.ndarray:
    """The first set entry of each row of a bool [R, W] (NONE where none is)."""
    k = x.argmax(axis=1)
    return np.where(x[np.arange(len(x)), k], k, NONE)


def best_of(scores: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """The allowed seats within 1e-9 of the best allowed score: the ties of a pick."""
    top = max_of(np.where(allowed, scores, -np.inf), 1, keepdims=True)
    return allowed & (scores >= top - 1e-9)


def arg_first_max(
    scores: np.ndarray, allowed: np.ndarray, order: np.ndarray | None = None
) -> np.ndarray:
    """The first allowed seat of highest score (NONE: none is allowed), first in seat order
    or, given `order` [R, n], of lowest order."""
    x = np.where(allowed, scores, -np.inf)
    if order is None:
        k = x.argmax(axis=1)
    else:
        top = allowed & (x == max_of(x, 1)[:, None])
        k = np.where(top, order, np.iinfo(np.int64).max).argmin(axis=1)
    return np.where(allowed[np.arange(len(k)), k], k, NONE)


def one(b: SeenBatch, act: Act, seat: np.ndarray, value: int = 0) -> np.ndarray:
    """[R] action indices of `act` on `seat` (NONE where the seat is NONE)."""
    off = b.off(act)
    if off < 0:
        return np.full(seat.shape, NONE, dtype=np.int64)
    return np.where(seat >= 0, off + value * b.n + seat, NONE)


def block(b: SeenBatch, act: Act, on: np.ndarray, value: int = 0) -> np.ndarray:
    """[R, n] action indices of `act` on each seat where `on` (NONE elsewhere), seat order."""
    off = b.off(act)
    if off < 0:
        return np.full(on.shape, NONE, dtype=np.int64)
    return np.where(on, off + value * b.n + b.seats, NONE)


def can(b: SeenBatch, act: Act, seat: np.ndarray) -> np.ndarray:
    """[R]: `act` on `seat` where it is legal, else NONE."""
    idx = one(b, act, seat)
    return np.where(b.legal(idx), idx, NONE)


def first_legal(b: SeenBatch, plan: np.ndarray) -> np.ndarray:
    """The first legal choice of each row of a plan [R, k] (NONE where none is)."""
    ok = b.legal(plan)
    k = ok.argmax(axis=1)
    return np.where(ok[b.rows, k], plan[b.rows, k], NONE)


def pick(b: SeenBatch, act: Act, scores: np.ndarray, options: np.ndarray) -> Draws:
    """`act` on the option of best score, drawn among equals (the choice is legal: the
    options are `act`'s legal targets, or fewer)."""
    tie = Tie(best_of(scores, options))
    return Draws([tie.count], lambda places: one(b, act, tie.seat(places[0])), sure=True)


def others_or_all(b: SeenBatch, options: np.ndarray) -> np.ndarray:
    """The options other than the reader, or all of them where he is the only one."""
    others = options & b.not_me
    return np.where(any_of(others, 1, keepdims=True), others, options)


def fresh_or_all(b: SeenBatch, options: np.ndarray) -> np.ndarray:
    """The options not checked yet, or all of them where every one is."""
    fresh = options & ~(b.checked_yes | b.checked_no)
    return np.where(any_of(fresh, 1, keepdims=True), fresh, options)


def rounded(x: np.ndarray, places: int = 4) -> np.ndarray:
    """`x` rounded, so that seats the evidence holds alike tie exactly, whatever the BLAS
    kernel's float32 sums in the posterior (OpenBLAS's Haswell and SkylakeX ones differ)."""
    return np.round(x, places)


def no_choice(b: SeenBatch, rows: np.ndarray) -> Draws:
    """A turn with no decision: the fallback (pass, else a random legal action)."""
    return fixed(np.full(b.R, NONE, dtype=np.int64))


# ------------------------------------------------------------------ speech


class Plan:
    """A speech plan for the rows `on`: choices in order, the first legal one is said (a
    choice is NONE where it is done already). `pick` draws a seat among equals; its choice
    is made once the places are drawn."""

    def __init__(self, b: SeenBatch, on: np.ndarray, every: bool = False):
        self.b, self.on, self.every = b, on, every  # every: `on` holds every row
        self.cols: list[np.ndarray | Callable[[Places], np.ndarray]] = []
        self.ties: list[Tie] = []

    def say(self, *choices: np.ndarray) -> None:
        """Add choices ([R] or [R, k] action indices, NONE: none) to the plan."""
        self.cols += choices

    def pick(self, tied: np.ndarray, act: Act, ok: np.ndarray | None = None) -> None:
        """Draw a seat among `tied` [R, n] (legal targets of `act`), then add `act` on it to
        the plan, where `ok` [R, n] allows it."""
        b, j = self.b, len(self.ties)
        tie = Tie(tied if self.every else tied & self.on[:, None])
        self.ties.append(tie)

        def choice(places: Places) -> np.ndarray:
            seat = tie.seat(places[j])
            x = one(b, act, seat)
            return x if ok is None else np.where(b.at(ok, seat), x, NONE)

        self.cols.append(choice)

    def draws(self) -> Draws:
        b = self.b
        # the plan in runs: each run of fixed choices reduced to its first legal one at once
        runs: list[np.ndarray | Callable[[Places], np.ndarray]] = []
        fixed_run: list[np.ndarray] = []
        for c in [*self.cols, None]:
            if (c is None or callable(c)) and fixed_run:
                runs.append(first_legal(b, np.column_stack(fixed_run)))
                fixed_run = []
            if callable(c):
                runs.append(c)
            elif c is not None:
                fixed_run.append(c)

        def choose(places: Places) -> np.ndarray:
            out = None
            for run in reversed(runs):  # the first choice wins: fill from the back
                x = run(places) if callable(run) else run
                out = x if out is None else np.where(x >= 0, x, out)
            return np.full(b.R, NONE, dtype=np.int64) if out is None else out

        return Draws([t.count for t in self.ties], choose)


def speech(b: SeenBatch, rows: np.ndarray) -> Draws:
    """Each row's speech: the plan of its role's planner (the bot's `speakers`, else its
    team's, `team_speakers`); a role with neither ends its speech."""
    bot = b.bot
    parts = []
    roles = set(b.role[rows].tolist())
    planners: dict[Callable[[Plan], None] | None, np.ndarray] = {}
    for r in roles:
        role = bot.roles[r]
        planner = bot.speakers.get(role) or bot.team_speakers.get(role.team)
        on = rows & (b.role == r) if len(roles) > 1 else rows
        planners[planner] = planners[planner] | on if planner in planners else on
    for planner, on in planners.items():
        if planner is None:
            parts.append((no_choice(b, on), on))
            continue
        plan = Plan(b, on, len(planners) == 1 and bool(on.all()))
        planner(plan)
        parts.append((plan.draws(), on))
    draws = combine(parts, b.R)
    noise = b.style.noise_p > 0 if b.mix is None else any(s.noise_p > 0 for s in b.mix.styles)
    return noisy(b, rows, draws) if noise else draws


NOISE_GRAIN = 20  # `noisy`: the noise coin has this many sides (noise_p in steps of 1/20)


def noisy(b: SeenBatch, rows: np.ndarray, draws: Draws) -> Draws:
    """`draws` with noisy talk (`Style.noise_p`, `Style.noisy`): each row whose speech is
    noisy draws a coin of `NOISE_GRAIN` sides and a legal speech act other than the end of
    the speech; where the coin falls below ``noise_p``, the act is said instead of the plan's."""
    on = rows & habit(b, "noisy", NOISES)
    if b.mix is not None:  # each row's own chance
        cut = np.rint(np.array([s.noise_p for s in b.mix.styles]) * NOISE_GRAIN)[b.mix.index]
        on &= cut > 0
    else:
        cut = round(b.style.noise_p * NOISE_GRAIN)
    acts = b.masks & on[:, None]
    acts[:, b.pass_idx] = False
    on &= any_of(acts, 1)
    if not np.count_nonzero(on):
        return draws
    k = len(draws.counts)
    tie = Tie(acts)
    inner = draws.choose

    def choose(places: Places) -> np.ndarray:
        base = inner(places[:k])
        sides = places[k]
        if sides is None:
            return base
        return np.where(on & (sides < cut), tie.seat(places[k + 1]), base)

    counts = [*draws.counts, np.where(on, NOISE_GRAIN, 0), tie.count]
    return Draws(counts, choose, draws.sure)


def noisy_all(b: SeenBatch) -> np.ndarray:
    """Noise ``all``: every speaker."""
    return np.ones(b.R, dtype=bool)


def noisy_mafia(b: SeenBatch) -> np.ndarray:
    """Noise ``mafia``: the mafia's speeches only."""
    return b.black


def noisy_town(b: SeenBatch) -> np.ndarray:
    """Noise ``town``: the town's speeches only."""
    return b.bot.town_role[b.role]


NOISES = {"all": noisy_all, "mafia": noisy_mafia, "town": noisy_town}


def claim_sheriff(b: SeenBatch, on: np.ndarray) -> np.ndarray:
    """[R]: claim sheriff where `on`, unless the reader's latest claim is sheriff."""
    off = b.off(Act.CLAIM_ROLE)
    index = b.layout._role_index.get(Role.SHERIFF)
    if off < 0 or index is None:
        return np.full(b.R, NONE, dtype=np.int64)
    return np.where(on & ~b.me_claimant, off + index, NONE)


def nominate_ties(b: SeenBatch, scores: np.ndarray, floor: np.ndarray | float) -> np.ndarray:
    """The seats tied for the best score above `floor` (a number, or [R, 1]) that the reader
    may nominate; none where a seat of that score is up for the vote already."""
    allowed = b.nominable & (scores > floor)
    x = np.where(allowed, scores, -np.inf)
    top = max_of(x, 1, keepdims=True)
    up = any_of(b.nominee & (scores >= top), 1, keepdims=True)  # the top suspect is up
    return allowed & (x >= top - 1e-9) & ~up


def town_speech(p: Plan) -> None:
    """Civilian: as `Style.talk` says (``normal``: `talk_normal`)."""
    TALKS[p.b.style.talk](p)


def talk_normal(p: Plan) -> None:
    """Talk ``normal``: accuse a strong suspect, nominate the top suspect (with nobody
    nominated yet, the top-scored seat: someone must be put up for the vote)."""
    b = p.b
    sus = b.sus
    strong = (sus >= STRONG) & ~b.my_accused & b.seg(Act.ACCUSE)
    p.pick(best_of(sus, b.alive & b.not_me), Act.ACCUSE, strong)
    floor = np.where(any_of(b.nominee, 1, keepdims=True), 0.0, -1e8)
    p.pick(habit(b, "nominate", NOMINATES, floor), Act.NOMINATE)


def talk_quiet(p: Plan) -> None:
    """Talk ``quiet``: no accusation; a nomination only while nobody is up for the vote."""
    b = p.b
    none_up = ~any_of(b.nominee, 1, keepdims=True)
    p.pick(habit(b, "nominate", NOMINATES, -1e8) & none_up, Act.NOMINATE)


def talk_talkative(p: Plan) -> None:
    """Talk ``talkative``: accuse the two top suspects (scored above zero), vouch for the
    seat the reading clears most (scored below zero), then nominate as ``normal``."""
    b = p.b
    sus = b.sus
    others = b.alive & b.not_me
    ranked = np.argsort(np.where(others, -sus, np.inf), axis=1, kind="stable")[:, :2]
    top2 = np.zeros_like(others)
    top2[b.rows[:, None], ranked] = True
    accuse = top2 & others & (sus > 0) & ~b.my_accused
    p.say(block(b, Act.ACCUSE, accuse))
    my_vouched = b.vouched[b.rows, b.me]
    cleared = others & (sus < 0) & ~my_vouched & b.seg(Act.VOUCH)
    p.say(one(b, Act.VOUCH, arg_first_max(-sus, cleared)))
    floor = np.where(any_of(b.nominee, 1, keepdims=True), 0.0, -1e8)
    p.pick(habit(b, "nominate", NOMINATES, floor), Act.NOMINATE)


TALKS = {"normal": talk_normal, "quiet": talk_quiet, "talkative": talk_talkative}


def nominate_top(b: SeenBatch, floor: np.ndarray | float) -> np.ndarray:
    """Nominate ``top``: the top suspect above `floor` (`nominate_ties`)."""
    return nominate_ties(b, b.sus, floor)


def nominate_random(b: SeenBatch, floor: np.ndarray | float) -> np.ndarray:
    """Nominate ``random``: while nobody is up, any seat the reader may nominate (drawn);
    else the top suspect."""
    none_up = ~any_of(b.nominee, 1, keepdims=True)
    anyone = b.nominable
    return np.where(none_up, anyone, nominate_ties(b, b.sus, floor))


def nominate_neighbour(b: SeenBatch, floor: np.ndarray | float) -> np.ndarray:
    """Nominate ``neighbour``: while nobody is up, the next seat after the reader (round
    the table) that he may nominate; else the top suspect."""
    none_up = ~any_of(b.nominee, 1, keepdims=True)
    allowed = b.nominable
    after = (b.seats[None, :] - b.me[:, None]) % b.n  # 1: the next seat
    nxt = arg_first_max(-after.astype(float), allowed)
    mine = b.seats[None, :] == nxt[:, None]
    return np.where(none_up, mine & allowed, nominate_ties(b, b.sus, floor))


NOMINATES = {"top": nominate_top, "random": nominate_random, "neighbour": nominate_neighbour}


def sheriff_speech(p: Plan) -> None:
    """Sheriff: once a check is black, or in danger, claim and announce the checks (black
    ones first) and nominate a black one; accuse every other sheriff claimant (he knows they
    lie); nominate the top suspect."""
    b, on = p.b, p.on
    blacks, alive = b.checked_yes, b.alive
    live_black = blacks & alive
    danger = (
        b.turn_is("last_word")
        | b.turn_is("tie_speech")
        | (b.nominee | b.candidates)[b.rows, b.me]
        | b.me_claimant
        | any_of(b.called_me_black, 1)  # a false sheriff calls me black
        | habit(b, "sheriff_claim", SHERIFF_CLAIMS)
    )
    go = on & (any_of(live_black, 1) | danger)
    if np.count_nonzero(go):
        gon = go[:, None]
        p.say(
            claim_sheriff(b, go),
            block(b, Act.CLAIM_CHECK, gon & live_black & ~b.my_black, 1),
            block(b, Act.CLAIM_CHECK, gon & blacks & ~alive & ~b.my_black, 1),
            np.where(go, one(b, Act.NOMINATE, first(live_black)), NONE),
            block(b, Act.CLAIM_CHECK, gon & b.checked_no & ~b.my_red, 0),
        )
    liars = on[:, None] & b.claimant & b.not_me & alive & ~b.my_accused
    if np.count_nonzero(liars):
        p.say(block(b, Act.ACCUSE, liars))
    p.pick(habit(b, "nominate", NOMINATES, 0.0), Act.NOMINATE)


def sheriff_claims_black(b: SeenBatch) -> np.ndarray:
    """Sheriff's claim ``black``: only on a black check or in danger (no other reason)."""
    return np.zeros(b.R, dtype=bool)


def sheriff_claims_counter(b: SeenBatch) -> np.ndarray:
    """Sheriff's claim ``counter``: also as soon as another live player claims sheriff."""
    return any_of(b.claimant & b.not_me & b.alive, 1)


def sheriff_claims_open(b: SeenBatch) -> np.ndarray:
    """Sheriff's claim ``open``: from his first speech, every check as it comes."""
    return np.ones(b.R, dtype=bool)


SHERIFF_CLAIMS = {
    "black": sheriff_claims_black,
    "counter": sheriff_claims_counter,
    "open": sheriff_claims_open,
}


def mafia_speech(p: Plan) -> None:
    """Mafia: the don accuses the sheriff he found (the mafia's signal); now and then a
    member counter-claims sheriff (`counterclaim`); in a day speech they nominate as the town
    would, with a public reason: the town's own suspicion, or a player who acted against
    them."""
    b, on = p.b, p.on
    don = on & b.bot.don_role[b.role]
    if np.count_nonzero(don):
        found = don[:, None] & b.checked_yes & b.alive & ~b.public_credible & ~b.my_accused
        if np.count_nonzero(found):
            p.say(block(b, Act.ACCUSE, found))
    if b.bot.has_sheriff and b.bot.rules.claims:
        p.say(*counterclaim(b, on))
    said = on & b.turn_is("speech")
    framed = habit(b, "push", PUSHES, on)
    if np.count_nonzero(framed >= 0):
        p.say(
            np.where(~b.at(b.my_accused, framed), one(b, Act.ACCUSE, framed), NONE),
            np.where(said, one(b, Act.NOMINATE, framed), NONE),
        )
    if np.count_nonzero(said):
        scores = mafia_day_scores(b, said) + (b.against_me > 0)  # provoked: a public reason
        p.pick(nominate_ties(b, scores, 0.1) & said[:, None], Act.NOMINATE)


def push_town(b: SeenBatch, rows: np.ndarray) -> np.ndarray:
    """Push ``town``: no one framed (NONE): the mafia go with the town's own suspicion."""
    return np.full(b.R, NONE, dtype=np.int64)


def push_frame(b: SeenBatch, rows: np.ndarray) -> np.ndarray:
    """Push ``frame``: [R] the live town player the mafia frame, alike for every member: the
    one they accused most so far, else one drawn from the public table (a sheriff claimant
    last: the plan's targets are shot, not framed)."""
    need = rows & b.black
    if not np.count_nonzero(need):
        return np.full(b.R, NONE, dtype=np.int64)
    team = b.team.astype(np.float32)
    accused = (team[:, None, :] @ b.accused.astype(np.float32))[:, 0]  # by the team, per seat
    score = 10.0 * accused + public_noise(b, need, 5) - 5.0 * b.claimant
    town = b.alive & ~b.team
    got = arg_first_max(score, town)
    return np.where(need, got, NONE)


PUSHES = {"town": push_town, "frame": push_frame}


def counterclaim(b: SeenBatch, on: np.ndarray) -> list[np.ndarray]:
    """A mafia member claims sheriff with a false black check: on the credible sheriff who
    exposed a teammate (chance `counterclaim_p`, by the lowest live member not exposed), or
    on the mafia's top target where nobody claimed sheriff yet (`fake_claim_p`, by the
    lowest live member), from day 2, alive; once claimed he calls each sheriff claimant
    black, a check a night. The chances are coins every member flips alike (`coin`)."""
    me, day = b.me, b.day
    team, claimant, alive = b.team, b.claimant, b.alive
    cols = []
    # the story goes on: call each sheriff claimant black, a check a night
    keep = on & b.me_claimant
    if np.count_nonzero(keep):
        keep &= b.my_black.sum(axis=1) < day - 1
        cols.append(block(b, Act.CLAIM_CHECK, keep[:, None] & claimant & ~team & ~b.my_black, 1))
    if b.mix is None:
        cols += FAKE_STORIES[b.style.fake_story](b, on)
    else:  # each story told by its rows
        for story, rows in b.mix.groups("fake_story"):
            cols += FAKE_STORIES[story](b, on if rows is None else on & rows)
    # a new story, by the member to speak, today
    style = b.style
    base = on & ~b.me_claimant & b.me_alive
    start = base & ~any_of(b.mate & claimant, 1) & (day >= 2)
    live = team & alive
    lowest = first(live)
    claimer = habit(b, "fake_claimer", FAKE_CLAIMERS, lowest)
    own = FAKE_ROLES[style.fake_role](b)  # the role of the fake claim
    if own is Role.SHERIFF:  # one story a team, where one claims
        if b.mix is None:
            if style.fake_claimer != "all":
                claimer &= ~any_of(b.mate & claimant, 1)
        else:
            claimer &= ~(any_of(b.mate & claimant, 1) & ~b.mix.rows("fake_claimer", "all"))
    faking = base & (day >= habit(b, "fake_from", FAKE_FROM)) & claimer
    if not (np.count_nonzero(start) or np.count_nonzero(faking)):
        return cols
    target = np.full(b.R, NONE, dtype=np.int64)
    rivals = claimant & ~team & alive & b.public_credible
    if np.count_nonzero(start & any_of(rivals, 1)):
        calls_team = row_dots([b.claimed_black], [team])[0, 0] > 0  # [R, claimer]
        exposer = first(rivals & calls_team)
        exposed = team & b.claimed_black[b.rows, np.maximum(exposer, 0)]
        unexposed = live & ~exposed
        speaker = np.where(any_of(unexposed, 1), first(unexposed), lowest)
        counter = start & (exposer >= 0) & (speaker == me)
    else:
        exposer = target
        counter = np.zeros(b.R, dtype=bool)
    if own is not Role.SHERIFF:  # another role's fake claim: its own story (`fake_claim`)
        return [*cols, *claim_role(b, counter, exposer), *fake_claim(b, faking, own)]
    fake = faking & (exposer < 0) & ~any_of(claimant & ~team, 1)
    for i in np.flatnonzero(counter | fake).tolist():
        if counter[i]:
            if coin(b, i, 1) < chance(b, "counterclaim_p", i):
                target[i] = exposer[i]
        elif coin(b, i, 2) < chance(b, "fake_claim_p", i):
            target[i] = -2  # the mafia's top-ranked target, below
    ranked = target == -2
    if np.count_nonzero(ranked):
        target = np.where(ranked, mafia_ranking(b, ranked).argmax(axis=1), target)
    told = target >= 0
    if not np.count_nonzero(told):
        return cols
    check = np.where(told & ~b.at(b.my_black, target), one(b, Act.CLAIM_CHECK, target, 1), NONE)
    return [*cols, claim_sheriff(b, told), check, one(b, Act.NOMINATE, target)]


def story_claim(b: SeenBatch, on: np.ndarray) -> list[np.ndarray]:
    """Fake story ``claim``: nothing more than v1's story (`counterclaim`)."""
    return []


def story_check(b: SeenBatch, on: np.ndarray) -> list[np.ndarray]:
    """Fake story ``check``: a mafia sheriff claimant who has called nobody black yet calls
    the mafia's top target black (alike for every member), then nominates whom he called."""
    story = on & b.me_claimant & b.me_alive
    if not np.count_nonzero(story):
        return []
    called = b.my_black & ~b.team & b.alive
    fresh = story & ~any_of(b.my_black & ~b.team, 1)
    target = np.full(b.R, NONE, dtype=np.int64)
    if np.count_nonzero(fresh):
        target = np.where(fresh, mafia_ranking(b, fresh).argmax(axis=1), NONE)
    check = np.where(fresh, one(b, Act.CLAIM_CHECK, target, 1), NONE)
    nominee = np.where(story & b.turn_is("speech"), one(b, Act.NOMINATE, first(called)), NONE)
    return [check, nominee]


def claim_role(b: SeenBatch, counter: np.ndarray, exposer: np.ndarray) -> list[np.ndarray]:
    """The counter-claim alone (`counterclaim`, chance `counterclaim_p`): claim sheriff with
    a false black check on the exposer, where the mafia's fake claim is another role's."""
    target = np.full(b.R, NONE, dtype=np.int64)
    for i in np.flatnonzero(counter).tolist():
        if coin(b, i, 1) < chance(b, "counterclaim_p", i):
            target[i] = exposer[i]
    told = target >= 0
    if not np.count_nonzero(told):
        return []
    check = np.where(told & ~b.at(b.my_black, target), one(b, Act.CLAIM_CHECK, target, 1), NONE)
    return [claim_sheriff(b, told), check, one(b, Act.NOMINATE, target)]


def fake_claim(b: SeenBatch, faking: np.ndarray, role: Role) -> list[np.ndarray]:
    """A fake claim of `role` (not sheriff) by the rows `faking` where no other live player
    claims it yet (chance `fake_claim_p`, a coin every member flips alike)."""
    index = b.layout._role_index.get(role)
    off = b.off(Act.CLAIM_ROLE)
    if off < 0 or index is None:
        return []
    kind = b.bot.roles.index(role)
    claimed = (b.claim_kind == kind) & b.alive
    go = faking & ~claimed[b.rows, b.me] & ~any_of(claimed & ~b.team, 1)
    for i in np.flatnonzero(go).tolist():
        go[i] = coin(b, i, 2) < chance(b, "fake_claim_p", i)
    return [np.where(go, off + index, NONE)]


def claimer_lowest(b: SeenBatch, lowest: np.ndarray) -> np.ndarray:
    """Fake claimer ``lowest``: the lowest live member of the team."""
    return lowest == b.me


def claimer_don(b: SeenBatch, lowest: np.ndarray) -> np.ndarray:
    """Fake claimer ``don``: the don, faking his checks (where no don is dealt or he is out:
    the lowest live member)."""
    if not np.count_nonzero(b.bot.don_role):
        return lowest == b.me
    live_don = first(b.dons & b.alive)
    return np.where(live_don >= 0, live_don == b.me, lowest == b.me)


def claimer_all(b: SeenBatch, lowest: np.ndarray) -> np.ndarray:
    """Fake claimer ``all``: every live member, each his own claim."""
    return np.ones(b.R, dtype=bool)


FAKE_CLAIMERS = {"lowest": claimer_lowest, "don": claimer_don, "all": claimer_all}


def fake_sheriff(b: SeenBatch) -> Role:
    """Fake role ``sheriff``: the sheriff, with a false black check."""
    return Role.SHERIFF


def fake_doctor(b: SeenBatch) -> Role:
    """Fake role ``doctor``: the doctor where the rules deal one, else the sheriff."""
    return Role.DOCTOR if Role.DOCTOR in b.bot.roles else Role.SHERIFF


FAKE_ROLES = {"sheriff": fake_sheriff, "doctor": fake_doctor}


def from_day2(b: SeenBatch) -> int:
    """Fake from ``day2``: from the second day (after a night of checks)."""
    return 2


def from_day1(b: SeenBatch) -> int:
    """Fake from ``day1``: from the first day."""
    return 1


FAKE_FROM = {"day2": from_day2, "day1": from_day1}
FAKE_STORIES = {"claim": story_claim, "check": story_check}


# -------------------------------------------------------------------- votes


def vote(b: SeenBatch, rows: np.ndarray) -> Draws:
    """Vote for the `ballot`'s candidate, else pass (abstain); a town that votes at random
    (`Style.ballot` ``random``) draws among the candidates it would vote for."""
    options = b.seg(Act.VOTE)
    target = ballot(b, rows, options)
    choice = np.where(target >= 0, one(b, Act.VOTE, target), b.pass_choice)
    if b.mix is None:
        if b.style.ballot != "random":
            return fixed(choice)
        drawn = rows & ~b.black & (target >= 0)
    else:
        at_random = b.mix.rows("ballot", "random")
        if not at_random.any():
            return fixed(choice)
        drawn = rows & ~b.black & (target >= 0) & at_random
    tie = Tie(others_or_all(b, options) & drawn[:, None])

    def choose(places: Places) -> np.ndarray:
        return np.where(drawn, one(b, Act.VOTE, tie.seat(places[0])), choice)

    return Draws([tie.count], choose)


def open_vote(b: SeenBatch, rows: np.ndarray) -> Draws:
    """An open count (CLUB-E7, ONLINE-V7): raise the hand at the count of the candidate
    `ballot` would choose among those not counted yet, keep it down at the others."""
    now = b.seg(Act.VOTE)  # the nominee being counted
    counted = first(now)
    order = b.nominee & b.candidates  # counted in the order of nomination
    at_order = (counted >= 0) & b.at(order, counted)
    left = order & (b.nominee_pos >= b.at(b.nominee_pos, counted)[:, None])
    options = np.where(at_order[:, None], left, now)
    ranks = np.where(at_order[:, None], b.nominee_pos, b.seats)  # the order of `options`
    target = ballot(b, rows & (counted >= 0), options, ranks, in_turn=True)
    choice = np.where((counted >= 0) & (target == counted), one(b, Act.VOTE, counted), b.pass_idx)
    return fixed(np.where(b.legal(choice), choice, NONE))


def ballot(
    b: SeenBatch,
    rows: np.ndarray,
    options: np.ndarray,
    order: np.ndarray | None = None,
    in_turn: bool = False,
) -> np.ndarray:
    """[R]: the candidate of `options` to vote for (NONE: abstain). Town: the most suspected
    (the earliest nominee among equals, so that the town's votes meet), abstaining where
    the rules allow it and `Style.abstain` clears every candidate; mafia: the town player
    the town suspects most, or with the town a teammate it has exposed (the first among
    equals in seat order, or in `order` [R, n]). The town's habit is `Style.ballot`'s (in an
    open count, `in_turn`, ``random`` votes ``top``); a mafia that frames (`Style.push`)
    votes the framed player where he is a candidate."""
    sus, n = b.sus, b.n
    has = any_of(options, 1)
    out = np.full(b.R, NONE, dtype=np.int64)
    black = b.black & has & rows
    if np.count_nonzero(black):
        mafia = b.mafia_of
        town = options & ~mafia
        doomed = arg_first_max(sus, options, order)
        with_town = ~any_of(town, 1) | (b.at(mafia, doomed) & (b.at(sus, doomed) >= STRONG))
        push = black & ~with_town
        # the public noise orders the town candidates: a row with one needs none (its pick
        # is that candidate whatever the scores)
        tied = push & (town.sum(axis=1) > 1)
        rank = mafia_day_scores(b, tied) if np.count_nonzero(tied) else sus
        pushed = arg_first_max(rank, town, order)
        if habits(b, "push") != ["town"]:
            framed = habit(b, "push", PUSHES, push)
            pushed = np.where((framed >= 0) & b.at(town, framed), framed, pushed)
        out = np.where(black, np.where(with_town, doomed, pushed), out)
    town_rows = ~b.black & has & rows
    if np.count_nonzero(town_rows):
        opt = others_or_all(b, options)
        best = max_of(np.where(opt, sus, -np.inf), 1)
        top = habit(b, "ballot", IN_TURN_BALLOTS if in_turn else BALLOTS, opt, best)
        got = np.where(top, b.nominee_pos, n + 1).argmin(axis=1)
        if b.bot.rules.silent_vote == "abstain":
            got = np.where(habit(b, "abstain", ABSTAIN, opt, best), NONE, got)
        out = np.where(town_rows, got, out)
    return out


def ballot_top(b: SeenBatch, options: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Ballot ``top``: the most suspected candidates (`best`: their score)."""
    return options & (b.sus >= (best - 1e-9)[:, None])


def ballot_first(b: SeenBatch, options: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Ballot ``first``: the earliest nominee (whoever was put up first)."""
    return options


def crowd(b: SeenBatch, options: np.ndarray) -> np.ndarray:
    """[R, n]: how hard the table pushes each candidate: its votes this round where ballots
    are seen as they are cast, else the table's accusations and black calls against it."""
    votes = b.votes_today.sum(axis=1)  # [R, candidate]
    seen = any_of(np.where(options, votes, 0) > 0, 1, keepdims=True)
    return np.where(seen, votes, b.attacks.sum(axis=1))


def ballot_bandwagon(b: SeenBatch, options: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Ballot ``bandwagon``: the candidates the table pushes hardest (`crowd`); with no push
    at all, the most suspected."""
    got = crowd(b, options)
    most = max_of(np.where(options, got, -1), 1)
    leaders = options & (got >= most[:, None])
    return np.where((most > 0)[:, None], leaders, ballot_top(b, options, best))


def ballot_second(b: SeenBatch, options: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Ballot ``second``: the town's second suspect (the top one where he stands alone)."""
    top = ballot_top(b, options, best)
    lead = np.where(top, b.nominee_pos, b.n + 1).argmin(axis=1)
    rest = options & (b.seats[None, :] != lead[:, None])
    best2 = max_of(np.where(rest, b.sus, -np.inf), 1)
    second = rest & (b.sus >= (best2 - 1e-9)[:, None])
    return np.where(any_of(rest, 1, keepdims=True), second, top)


def ballot_contrarian(b: SeenBatch, options: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Ballot ``contrarian``: against the table: the candidates it pushes least (`crowd`),
    the least suspected of them."""
    got = crowd(b, options)
    fewest = options & (got <= min_of(np.where(options, got, np.inf), 1)[:, None])
    low = min_of(np.where(fewest, b.sus, np.inf), 1)
    return fewest & (b.sus <= (low + 1e-9)[:, None])


def ballot_random(b: SeenBatch, options: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Ballot ``random``: any candidate (`vote` draws among them; this, the earliest)."""
    return options


BALLOTS = {
    "top": ballot_top,
    "first": ballot_first,
    "bandwagon": ballot_bandwagon,
    "second": ballot_second,
    "contrarian": ballot_contrarian,
    "random": ballot_random,
}
IN_TURN_BALLOTS = {**BALLOTS, "random": ballot_top}  # an open count: ``random`` votes ``top``


def abstain_below_zero(b: SeenBatch, options: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Abstain ``suspicion``: every candidate scores below zero (cleared by the reading)."""
    return best < 0


def abstain_cleared(b: SeenBatch, options: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Abstain ``posterior``: the posterior clears every candidate (a score below the prior
    is no alibi)."""
    return max_of(np.where(options, rounded(b.own_p), -np.inf), 1) < CLEARED


ABSTAIN = {"suspicion": abstain_below_zero, "posterior": abstain_cleared}


def crash_vote(b: SeenBatch, rows: np.ndarray) -> Draws:
    """Remove every tied player? Town: yes if one is suspected and none is cleared (and the
    reader is not among them); mafia: yes when no teammate is among them."""
    tied, sus = b.candidates, b.sus
    in_tie = b.at(tied, b.me)
    hi = max_of(np.where(tied, sus, -np.inf), 1)
    lo = min_of(np.where(tied, sus, np.inf), 1)
    town_yes = ~in_tie & (hi > 0) & (lo > W_SHERIFF_RED)
    yes = np.where(b.black, ~any_of(tied & b.mafia_of, 1), town_yes)
    y, no = b.off(Act.VOTE_YES), b.off(Act.VOTE_NO)
    idx = np.where(yes, y if y >= 0 else NONE, no if no >= 0 else NONE)
    return fixed(np.where(b.legal(idx), idx, NONE))


def naming(b: SeenBatch, rows: np.ndarray) -> Draws:
    """Nomination round: name the top suspect (mafia: their top-ranked town player)."""
    need = rows & b.black
    scores = b.sus
    if np.count_nonzero(need):
        scores = np.where(b.black[:, None], mafia_ranking(b, need), scores)
    return pick(b, Act.NOMINATE, scores, b.nominable)


def answer(b: SeenBatch, rows: np.ndarray) -> Draws:
    """Answer "do you claim role R?": yes iff R is the role the reader shows the table (his
    public claim, else civilian: the mafia and the hidden town roles pass for civilians)."""
    questions = b.v.get("questions")
    off = b.off(Act.ANSWER)
    if questions is None or off < 0:
        return no_choice(b, rows)
    mine = questions[b.rows, b.me]  # [R, roles]
    roles = b.bot.roles
    shown = b.at(b.claim_kind, b.me)
    civilian = roles.index(Role.CIVILIAN) if Role.CIVILIAN in roles else NONE - 1
    shown = np.where(shown < len(roles), shown, civilian)
    value = np.where(mine.argmax(axis=1) == shown, 0, 1)  # Answer: 0 yes, 1 no
    choice = np.where(any_of(mine != 0, 1), off + value, NONE)
    return fixed(np.where(b.legal(choice), choice, NONE))


# -------------------------------------------------------------------- night


def mafia_kill(b: SeenBatch, rows: np.ndarray) -> Draws:
    """Shoot the mafia's top-ranked town player (the same for every member); on the first
    night the don's word at the zero-night meeting (SPORT-N3), where he gave one; awake
    together where all must agree (CLUB-N4, ONLINE-N8), where a teammate already points.
    At the meeting itself, show the team that same top-ranked player."""
    targets = b.seg(Act.NIGHT)
    town = targets & ~b.mafia_of
    choice = can(b, Act.NIGHT, first(targets))  # no town player to shoot: the first target
    left = rows & any_of(town, 1)
    plan = b.v.get("team_plan")  # SPORT-N3: the first night, the don's word at the meeting
    if plan is not None and np.count_nonzero(left):
        word = (b.dons.astype(np.float32)[:, None, :] @ plan)[:, 0] > 0  # (einsum: slower)
        seat = word.argmax(axis=1)
        said = left & (b.day == 1) & any_of(word, 1) & town[b.rows, seat]
        choice = np.where(said, can(b, Act.NIGHT, seat), choice)
        left &= ~said
    shots = b.v.get("team_shots")
    if shots is not None and b.bot.rules.mafia_kill == "unanimous" and np.count_nonzero(left):
        aim = shots.argmax(axis=2)  # [R, mate]
        ok = b.mate & shots.any(axis=2) & np.take_along_axis(town, aim, axis=1)
        mate = first(ok)
        seat = np.take_along_axis(aim, np.maximum(mate, 0)[:, None], axis=1)[:, 0]
        aimed = left & (mate >= 0)
        choice = np.where(aimed, can(b, Act.NIGHT, seat), choice)
        left &= ~aimed
    if np.count_nonzero(left):
        rank = mafia_ranking(b, left, night=True)
        choice = np.where(left, can(b, Act.NIGHT, arg_first_max(rank, town)), choice)
    return fixed(choice)


def sheriff_check(b: SeenBatch, rows: np.ndarray) -> Draws:
    """Check a seat not checked yet (any, once all are), by `Style.check`."""
    return pick(b, Act.NIGHT, habit(b, "check", CHECKS), fresh_or_all(b, b.seg(Act.NIGHT)))


def check_suspected(b: SeenBatch) -> np.ndarray:
    """Check ``suspicion``: the most suspected."""
    return b.sus


def check_informative(b: SeenBatch) -> np.ndarray:
    """Check ``information``: by what the answer is worth, the reading's suspicion (a black
    answer is a vote the town wins) plus `INFO` times the answer's expected information
    (its entropy in bits), which decides between seats the reading holds alike."""
    return rounded(b.sus + INFO * binary_entropy(b.own_p) / math.log(2))


CHECKS = {"suspicion": check_suspected, "information": check_informative}


def don_check(b: SeenBatch, rows: np.ndarray) -> Draws:
    """Look for the sheriff among the town players not checked yet, by `Style.don_check`;
    once he is found (and alive), hold (pass, else the fallback)."""
    found = any_of(b.checked_yes & b.alive, 1)
    options = fresh_or_all(b, b.seg(Act.NIGHT) & ~b.mafia_of) & ~found[:, None]
    return pick(b, Act.NIGHT, habit(b, "don_check", DON_CHECKS, options), options)


def don_check_attackers(b: SeenBatch, options: np.ndarray) -> np.ndarray:
    """Don's check ``attackers``: those who attacked the mafia first, credible sheriff
    claimants last (already targets: the sheriff may be hiding elsewhere)."""
    score = b.team_attacks.astype(float)
    return score - 10.0 * (b.claimant & b.public_credible)


def don_check_informative(b: SeenBatch, options: np.ndarray) -> np.ndarray:
    """Don's check ``information``: the entropy of "sheriff?" under the don's P(sheriff)
    (the claims as the town reads them, and who attacks the mafia)."""
    weight = np.where(b.post.truthful > 0, 0.2, 1.0) * (1.0 + b.team_attacks.astype(float))
    weight = np.where(options, weight, 0.0)
    total = weight.sum(axis=1)[:, None]
    ps = np.where(total > 0, weight / np.where(total > 0, total, 1.0), weight)
    return rounded(binary_entropy(ps) + 1e-3 * ps)


DON_CHECKS = {"attackers": don_check_attackers, "information": don_check_informative}


def doctor(b: SeenBatch, rows: np.ndarray) -> Draws:
    """The doctor's heal, by `Style.heal`."""
    return habit(b, "heal", HEALS, b.seg(Act.NIGHT))


def heal_trusted(b: SeenBatch, targets: np.ndarray) -> Draws:
    """Heal ``trusted``: the trusted sheriff, else the seat the town trusts most (never
    himself while someone else may be healed)."""
    trusted = b.trusted
    heal = (trusted >= 0) & (trusted != b.me) & b.at(targets, trusted)
    draws = pick(b, Act.NIGHT, -b.sus, others_or_all(b, targets) & ~heal[:, None])
    healed, choose = can(b, Act.NIGHT, trusted), draws.choose
    draws.choose = lambda places: np.where(heal, healed, choose(places))
    return draws


def heal_likeliest(b: SeenBatch, targets: np.ndarray) -> Draws:
    """Heal ``likeliest``: the likeliest sheriff (the mafia's first target), else the
    likeliest town player (never himself while someone else may be healed)."""
    score = 2.0 * b.post.trusted_p + (1.0 - b.own_p)
    return pick(b, Act.NIGHT, rounded(score), others_or_all(b, targets))


HEALS = {"trusted": heal_trusted, "likeliest": heal_likeliest}


def putana(b: SeenBatch, rows: np.ndarray) -> Draws:
    """The putana's block, by `Style.block`."""
    return habit(b, "block", BLOCKS, b.seg(Act.NIGHT))


def block_suspected(b: SeenBatch, targets: np.ndarray) -> Draws:
    """Block ``suspicion``: the most suspected seat."""
    return pick(b, Act.NIGHT, b.sus, targets)


def block_likeliest(b: SeenBatch, targets: np.ndarray) -> Draws:
    """Block ``posterior``: the likeliest black (never herself while she may visit another)."""
    return pick(b, Act.NIGHT, rounded(b.own_p), others_or_all(b, targets))


def block_random(b: SeenBatch, targets: np.ndarray) -> Draws:
    """Block ``random``: any seat (never herself while she may visit another)."""
    return pick(b, Act.NIGHT, np.zeros((b.R, b.n)), others_or_all(b, targets))


def block_trusted(b: SeenBatch, targets: np.ndarray) -> Draws:
    """Block ``trusted``: the seat the town trusts most (never herself while she may visit
    another)."""
    return pick(b, Act.NIGHT, -b.sus, others_or_all(b, targets))


BLOCKS = {
    "suspicion": block_suspected,
    "posterior": block_likeliest,
    "random": block_random,
    "trusted": block_trusted,
}


def maniac(b: SeenBatch, rows: np.ndarray) -> Draws:
    """Maniac: his shot, by `Style.maniac` (drawn among equals)."""
    return pick(b, Act.NIGHT, habit(b, "maniac", MANIACS), b.seg(Act.NIGHT))


def maniac_claimers(b: SeenBatch) -> np.ndarray:
    """Maniac ``claimers``: pick off players who claimed a role (sheriff, doctor, ...),
    else anyone."""
    shows = np.array([r is not Role.CIVILIAN for r in b.bot.roles] + [False])
    return np.where(shows[b.claim_kind], 10.0, 0.0)


def maniac_random(b: SeenBatch) -> np.ndarray:
    """Maniac ``random``: anyone."""
    return np.zeros((b.R, b.n))


def maniac_suspect(b: SeenBatch) -> np.ndarray:
    """Maniac ``suspect``: the town's top suspect (he hunts the mafia first)."""
    return b.sus


def maniac_trusted(b: SeenBatch) -> np.ndarray:
    """Maniac ``trusted``: the seat the town trusts most (its sheriff, its cleared)."""
    return -b.sus


MANIACS = {
    "claimers": maniac_claimers,
    "random": maniac_random,
    "suspect": maniac_suspect,
    "trusted": maniac_trusted,
}


def executor(b: SeenBatch, rows: np.ndarray) -> Draws:
    """Mafia: the member the town suspects least carries out the shot (`Style.executor`;
    the lowest seat among equals)."""
    team = b.seg(Act.EXECUTOR)
    least = arg_first_max(-habit(b, "executor", EXECUTORS, rows), team)
    return fixed(can(b, Act.EXECUTOR, least))


def executor_suspected(b: SeenBatch, rows: np.ndarray) -> np.ndarray:
    """Executor ``suspicion``: by the town's reading."""
    return b.sus


def executor_posterior(b: SeenBatch, rows: np.ndarray) -> np.ndarray:
    """Executor ``posterior``: by the town's P(black), rounded to 4 places as Python's
    `round` rounds (correctly: a row of n numbers at a time, for the rows that need it)."""
    p = b.post.town_p
    out = np.zeros_like(p)
    for i in np.flatnonzero(rows).tolist():
        out[i] = [round(x, 4) for x in p[i].tolist()]
    return out


EXECUTORS = {"suspicion": executor_suspected, "posterior": executor_posterior}


def hunt(b: SeenBatch, rows: np.ndarray) -> Draws:
    """The free hunt, by `Style.hunt`: requested on the top suspect, or held (pass)."""
    return habit(b, "hunt", HUNTS, b.seg(Act.HUNT))


def hunt_on(b: SeenBatch, scores: np.ndarray, targets: np.ndarray, at: float) -> Draws:
    """Request the hunt on the top-scored target (drawn among equals) if it scores `at` or
    more, else pass."""
    tie = Tie(best_of(scores, targets))

    def choose(places: list[np.ndarray]) -> np.ndarray:
        top = tie.seat(places[0])
        go = (top >= 0) & (b.at(scores, top) >= at)
        return np.where(go, one(b, Act.HUNT, top), b.pass_choice)

    return Draws([tie.count], choose)


def hunt_strong(b: SeenBatch, targets: np.ndarray) -> Draws:
    """Hunt ``strong``: on a strong suspect (`STRONG`): a wrong hunt kills the hunter."""
    return hunt_on(b, b.sus, targets, STRONG)


def hunt_sure(b: SeenBatch, targets: np.ndarray) -> Draws:
    """Hunt ``sure``: by the town only, on a seat the posterior holds black with P `SURE`."""
    return hunt_on(b, rounded(b.own_p), targets & ~b.black[:, None], SURE)


def hunt_eager(b: SeenBatch, targets: np.ndarray) -> Draws:
    """Hunt ``eager``: on the top suspect whenever one scores above zero."""
    return hunt_on(b, b.sus, targets, 1e-6)


def hunt_never(b: SeenBatch, targets: np.ndarray) -> Draws:
    """Hunt ``never``: always pass (the fallback where passing is not allowed)."""
    return fixed(b.pass_choice)


HUNTS = {"strong": hunt_strong, "sure": hunt_sure, "eager": hunt_eager, "never": hunt_never}


# the decision of each kind of turn (the bot's `turns`); a kind missing here falls back
TURNS: dict[str, Decision] = {
    "speech": speech,
    "last_word": speech,
    "tie_speech": speech,
    "vote": vote,
    "open_vote": open_vote,
    "crash_vote": crash_vote,
    "mafia_kill": mafia_kill,
    "don_check": don_check,
    "sheriff_check": sheriff_check,
    # turns of the CITY, CLUB, ONLINE and FORUM rules (idle where a variant lacks them)
    "monologue": speech,
    "naming": naming,
    "putana": putana,
    "doctor": doctor,
    "maniac": maniac,
    "executor": executor,
    "hunt": hunt,
    "answer": answer,
    # SPORT-N3: at the zero-night meeting a member shows the target he would shoot
    # (ONLINE-D5's discussion and D6's gestures: the fallback, pass)
    "meeting": mafia_kill,
}
# the speech planner of a role; a role missing here speaks as its team does
SPEAKERS: dict[Role, Callable[[Plan], None]] = {
    Role.SHERIFF: sheriff_speech,
}
TEAM_SPEAKERS: dict[Team, Callable[[Plan], None]] = {
    Team.TOWN: town_speech,
    Team.MAFIA: mafia_speech,
}
# each habit knob of `Style`, with the table of its habits
HABIT_TABLES = {
    "abstain": ABSTAIN,
    "check": CHECKS,
    "don_check": DON_CHECKS,
    "heal": HEALS,
    "block": BLOCKS,
    "hunt": HUNTS,
    "executor": EXECUTORS,
    "fake_role": FAKE_ROLES,
    "fake_claimer": FAKE_CLAIMERS,
    "fake_from": FAKE_FROM,
    "fake_story": FAKE_STORIES,
    "sheriff_claim": SHERIFF_CLAIMS,
    "push": PUSHES,
    "talk": TALKS,
    "nominate": NOMINATES,
    "ballot": BALLOTS,
    "maniac": MANIACS,
    "noisy": NOISES,
}

__all__ = ["HABIT_TABLES", "SPEAKERS", "TEAM_SPEAKERS", "TURNS", "Plan", "ballot", "speech"]
