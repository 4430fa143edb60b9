"""The C core (mafia_env/ccore/src/) against the Python engine: the same game, bit for bit.

The differential check (`mafia_env.ccore.diff.play_both`) plays seeded random games on both
engines and compares every move: who acts, the mask, the observations, every event, the
result and the rewards. The default run plays a few games of every variant at every table
size; the slow tests play 1,000 a variant (scripts/diff_backends.py plays millions). Then the
views: `VectorMafia`, `env()` and `parallel_env()` on the core against the same views on the
Python engine, the fallbacks (records, narration, text, clone, pickle, resample), and the
path where the core is not built.
"""

from __future__ import annotations

import copy
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mafia_env
from mafia_env import ccore
from mafia_env.ccore.diff import EngineError, play_both, random_knobs
from mafia_env.engine.eras import ERAS, earlier_rules
from mafia_env.engine.rules import KNOBS
from mafia_env.errors import ConfigError, IllegalActionError
from mafia_env.vector import VectorMafia

pytestmark = pytest.mark.skipif(not ccore.available(), reason="the C core is not built")
ROOT = Path(__file__).resolve().parents[2]
VARIANTS = sorted(mafia_env.VARIANTS)


def sizes(variant: str) -> list[int]:
    r = mafia_env.VARIANTS[variant]
    return list(range(r.min_players, r.max_players + 1))


def check_games(variant: str, games: int, seed0: int = 0, moderator: float = 0.02) -> None:
    rules = mafia_env.VARIANTS[variant]
    tables = sizes(variant)
    for i in range(games):
        seed = seed0 + i
        n = tables[i % len(tables)]
        mod = moderator if i % 2 else 0.0  # half the games have moderators' calls, talk ...
        bad = play_both(rules, n, seed, random.Random(seed), moderator=mod, all_seats=i % 7 == 0)
        assert bad is None, str(bad)


# ------------------------------------------------------------------- the random stream


@pytest.mark.parametrize("seed", [0, 1, 7, 2**32 - 1, 2**32, 2**63 - 1, 2**64 + 5, -12, 10**40])
def test_mersenne_twister_is_cpythons(seed):
    """The core seeds MT19937 from an int as `random.Random(seed)` does and draws the same."""
    mod = ccore._load()
    rng = random.Random(seed)
    want = [rng.getrandbits(32) for _ in range(1300)]  # past one regeneration of the state
    assert mod.mt_check(ccore.seed_words(seed), 1300) == want


def test_game_seeds_deals_and_ties_draw_as_the_python_engine():
    """getrandbits(63) for the slots' game seeds, shuffle for the deal, choice for a tie."""
    rules = mafia_env.VARIANTS["minimal"]  # tie: random (rng.choice)
    core = ccore.new_core(rules, 10, 1)
    core.seed_slot(0, ccore.seed_words(123))
    slot = random.Random(123)
    for _ in range(50):
        seed = core.start_from_slot(0)
        assert seed == slot.getrandbits(63)
        game = mafia_env.engine.game.Game(rules, 10, seed)
        assert core.facts(0)["roles"] == [int(r) for r in game.roles]
    state = core.random_state(0, 1)
    assert (*state[1], state[0]) == slot.getstate()[1]


# -------------------------------------------------------------- the differential check


@pytest.mark.parametrize("variant", VARIANTS)
def test_core_plays_the_python_engines_game_at_every_table_size(variant):
    """A few seeded random games a table size, moderators' calls and talk included."""
    check_games(variant, 2 * len(sizes(variant)))


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_core_plays_the_python_engines_game_1000_games(variant, games):
    """200 games a variant in `make test`, the issue's 1,000 in `make test-long`."""
    check_games(variant, games(200, 1000), seed0=10_000)


def knob_sweep(games: int, seed0: int) -> int:
    compared = 0
    for seed in range(seed0, seed0 + games):
        rng = random.Random(seed)
        base = mafia_env.VARIANTS[rng.choice(VARIANTS)]
        try:
            rules = base.with_knobs(**random_knobs(rng))
            n = rng.randrange(base.min_players, base.max_players + 1)
            rules.role_counts(n)
            bad = play_both(rules, n, seed, rng, moderator=0.02)
        except (ConfigError, EngineError):  # rules that make no game, or that the engine fails
            continue
        assert bad is None, str(bad)
        compared += 1
    return compared


def test_core_plays_every_knob_as_the_python_engine():
    """Random knob settings (six knobs at a time, any allowed value) on random variants."""
    assert knob_sweep(60, 0) >= 50


@pytest.mark.slow
def test_core_plays_every_knob_as_the_python_engine_1000_games(games):
    count = games(200, 1000)
    assert knob_sweep(count, 5000) >= 0.9 * count


@pytest.mark.parametrize(
    ("variant", "order"),
    [
        ("forum", "hunt mafia"),
        ("city", "mafia hunt maniac don sheriff"),
        ("online", "mafia sheriff"),
    ],
)
def test_a_night_order_without_the_doctor_plays_on_both(variant, order):
    """A doctor dealt but no doctor's turn (night_order): the morning's HEAL_STATE has no rows
    to write (the Python observer failed on it with a KeyError; the knob sweep found it)."""
    rules = mafia_env.VARIANTS[variant].with_knobs(night_order=order)
    for seed in range(4):
        n = rules.default_players + seed % 3
        assert play_both(rules, n, seed, random.Random(seed)) is None


def test_every_knob_reaches_the_core():
    """A knob the core does not read must be one the env plays itself: a new knob fails here."""
    cfg = ccore.config(mafia_env.VARIANTS["sport"], 10)
    assert set(KNOBS) - set(cfg) == ccore.PYTHON_KNOBS
    assert set(KNOBS) - ccore.PYTHON_KNOBS <= set(ccore.CORE_KNOBS)
    assert len(ccore.PIECES) == ccore._load().N_PIECES


# ------------------------------------------------------ every knob value, every reading


def knob_values(name: str) -> list:
    """Every value knob `name` takes (a few for a count, a few orders for night_order)."""
    knob = KNOBS[name]
    if knob.sequence:
        words = list(knob.choices)
        orders = {" ".join(mafia_env.VARIANTS[v].night_order.split()[::-1]) for v in VARIANTS}
        return sorted(orders | {" ".join(words), " ".join(words[::-1]), "mafia doctor"})
    if knob.choices:
        values: list = list(knob.choices)
    elif knob.kind is bool:
        values = [False, True]
    else:
        lo = knob.minimum or 0
        values = [lo, lo + 1, lo + 2, lo + 4]
    return values + [None] * knob.nullable


def knob_readings() -> list[tuple[str, object, list[str]]]:
    """(knob, value, the variants where it is not the default): each non-default value once.

    The variant that the knob's rule ID names comes first (heal_told is ONLINE's, the hunt
    FORUM's): there the knob has its roles and turns to act on.
    """
    out = []
    for name in sorted(set(KNOBS) - ccore.PYTHON_KNOBS):
        home = KNOBS[name].rule.split("-")[0].lower()
        order = sorted(VARIANTS, key=lambda v: (v != home, v))
        for value in knob_values(name):
            where = [v for v in order if getattr(mafia_env.VARIANTS[v], name) != value]
            if where:
                out.append((name, value, where))
    return out


def check_knob(name: str, value: object, variants: list[str], games: int) -> int:
    """Play `games` games a variant with knob `name` at `value`; return the games compared."""
    compared = 0
    for variant in variants:
        try:
            rules = mafia_env.VARIANTS[variant].with_knobs(**{name: value})
        except ConfigError:
            continue
        tables = sizes(variant)
        for i in range(games):
            seed = 1000 * i + len(name)
            n = tables[(i * 5 + len(variant)) % len(tables)] if i else rules.default_players
            try:
                rules.role_counts(n)
                bad = play_both(rules, n, seed, random.Random(seed), moderator=0.02 * (i % 2))
            except (ConfigError, EngineError):
                continue
            assert bad is None, f"{name}={value!r}: {bad}"
            compared += 1
    return compared


READINGS = knob_readings()


@pytest.mark.parametrize(
    ("name", "value", "variants"), READINGS, ids=[f"{n}={v}" for n, v, _ in READINGS]
)
def test_core_plays_each_knob_value_as_the_python_engine(name, value, variants):
    """Every non-default value of every knob the core reads: two games on its home variant."""
    assert check_knob(name, value, variants[:1], 2) >= 1


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(set(KNOBS) - ccore.PYTHON_KNOBS))
def test_core_plays_each_knob_value_on_every_variant(name, games):
    """Every non-default value of knob `name` on every variant where it is not the default
    (two games a variant in `make test`, six in `make test-long`)."""
    for knob, value, variants in READINGS:
        if knob == name:
            assert check_knob(name, value, variants, games(2, 6)) >= 1, f"{name}={value!r}"


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_core_plays_the_earlier_rules(variant, era):
    """The variants' rules before the seeds' first and second reading (`earlier_rules`)."""
    rules = mafia_env.VARIANTS[variant].with_knobs(**earlier_rules(variant, era))
    tables = sizes(variant)
    for i in range(4):
        n = tables[(3 * i + era) % len(tables)]
        bad = play_both(rules, n, 77 + i, random.Random(i), moderator=0.02 * (i % 2))
        assert bad is None, str(bad)


@pytest.mark.slow
@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_core_plays_the_earlier_rules_200_games(variant, era, games):
    rules = mafia_env.VARIANTS[variant].with_knobs(**earlier_rules(variant, era))
    tables = sizes(variant)
    for i in range(games(40, 200)):
        seed = 50_000 + i
        n = tables[i % len(tables)]
        bad = play_both(rules, n, seed, random.Random(seed), moderator=0.02 * (i % 2))
        assert bad is None, str(bad)


# ---------------------------------------------------------------------------- the views


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(masks.shape) + (masks > 0)).argmax(axis=1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_vector_core_steps_the_same_arrays(variant):
    """`VectorMafia(backend="c")` writes what the Python engine's batch writes, step by step."""
    n = mafia_env.VARIANTS[variant].default_players
    a = VectorMafia(variant, 8, n, seed=5, backend="c")
    b = VectorMafia(variant, 8, n, seed=5, backend="python")
    assert a.backend == "c" and b.backend == "python"
    oa, ma, ia = a.reset()
    ob, mb, ib = b.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(800):  # (ONLINE's games are longer since ONLINE-D5, D6)
        np.testing.assert_array_equal(oa, ob)
        np.testing.assert_array_equal(ma, mb)
        for k in ia:
            np.testing.assert_array_equal(ia[k], ib[k], err_msg=k)
        act = random_actions(ma, rng)
        oa, ma, ra, da, ia = a.step(act)
        ob, mb, rb, db, ib = b.step(act.astype(np.int32))  # any integer dtype
        np.testing.assert_array_equal(ra, rb)
        np.testing.assert_array_equal(da, db)
        ended += int(da.sum())
        seat = int(rng.integers(n))
        np.testing.assert_array_equal(a.observe(3, seat), b.observe(3, seat))
    assert ended > 0
    assert a.game(2).events == b.games[2].events  # the fallback: the Python engine, replayed


def test_vector_core_given_deal_and_illegal_action():
    deal = ["sheriff", "civilian", "civilian", "mafia", "civilian", "don", "civilian",
            "mafia", "civilian", "civilian"]  # fmt: skip
    a = VectorMafia("sport", 4, seed=1, roles=deal, backend="c")
    b = VectorMafia("sport", 4, seed=1, roles=deal, backend="python")
    ma = a.reset()[1]
    b.reset()
    rng = np.random.default_rng(1)
    for _ in range(200):
        act = random_actions(ma, rng)
        ra, rb = a.step(act), b.step(act)
        ma = ra[1]
        for x, y in zip(ra[:4], rb[:4], strict=True):
            np.testing.assert_array_equal(x, y)
    bad = random_actions(ma, rng)
    bad[2] = int(np.flatnonzero(ma[2] == 0)[0])
    before = a.obs.copy()
    with pytest.raises(IllegalActionError) as ea:
        a.step(bad)
    with pytest.raises(IllegalActionError) as eb:
        b.step(bad)
    assert str(ea.value) == str(eb.value)
    np.testing.assert_array_equal(a.obs, before)  # nothing applied
    with pytest.raises(IllegalActionError):
        a.step(np.full(4, a.action_size))
    with pytest.raises(IllegalActionError):
        VectorMafia("sport", 2, backend="c").step(np.zeros(2, dtype=np.int64))


def play_pair(env_a, env_b, seed: int, moves: int = 10_000) -> None:
    """Step two AEC envs with the same random choices, comparing everything an agent sees."""
    env_a.reset(seed=seed)
    env_b.reset(seed=seed)
    rng = random.Random(seed)
    flat = env_a.obs_mode == "flat"
    for move in range(moves):
        assert env_a.agent_selection == env_b.agent_selection
        agent = env_a.agent_selection
        for who in (agent, rng.choice(env_a.possible_agents)):
            oa, ob = env_a.observe(who), env_b.observe(who)
            if flat and who in env_a.infos:
                oa, ob = {"observation": oa}, {"observation": ob}
                oa["action_mask"] = env_a.infos[who]["action_mask"]
                ob["action_mask"] = env_b.infos[who]["action_mask"]
                assert env_a.infos[who].keys() == env_b.infos[who].keys()
                assert env_a.infos[who]["acting"] == env_b.infos[who]["acting"]
            if flat and who not in env_a.infos:
                np.testing.assert_array_equal(oa, ob)
                continue
            np.testing.assert_array_equal(oa["observation"], ob["observation"])
            np.testing.assert_array_equal(oa["action_mask"], ob["action_mask"])
        if move % 10 == 0:
            np.testing.assert_array_equal(env_a.state(), env_b.state())
        assert env_a.rewards == env_b.rewards and env_a.terminations == env_b.terminations
        assert env_a.truncations == env_b.truncations
        if env_a.terminations[agent] or env_a.truncations[agent]:
            env_a.step(None)
            env_b.step(None)
            if not env_a.agents:
                break
            continue
        legal = np.flatnonzero(env_a.infos[agent]["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        env_a.step(action)
        env_b.step(action)
    assert env_a.game.events == env_b.game.events


@pytest.mark.parametrize("variant", VARIANTS)
def test_env_core_plays_the_same_game(variant):
    a = mafia_env.env(variant, backend="c")
    b = mafia_env.env(variant, backend="python")
    assert type(a).__name__ == "CoreMafiaEnv" and type(b) is mafia_env.MafiaEnv
    for seed in range(3):
        play_pair(a, b, seed)
        assert a.record() == b.record()
        assert a.render() is None and b.render() is None
    fa = mafia_env.env(variant, obs_mode="flat", backend="c")
    fb = mafia_env.env(variant, obs_mode="flat", backend="python")
    play_pair(fa, fb, 9)


def test_env_default_backend_is_the_core():
    assert type(mafia_env.env("sport")).__name__ == "CoreMafiaEnv"
    assert VectorMafia("sport", 2).backend == "c"
    with pytest.raises(ConfigError, match="backend"):
        mafia_env.env("sport", backend="fortran")
    with pytest.raises(ConfigError, match="backend"):
        VectorMafia("sport", 2, backend="fortran")
    with pytest.raises(ConfigError, match="unknown knob"):  # the env's own errors still
        mafia_env.env("sport", backend="c", no_such_knob=1)


def test_env_core_fallbacks_records_narration_text_clone_pickle_resample():
    """What the core does not keep comes from the Python engine, replayed: the same answers."""
    a = mafia_env.env("online", render_mode="ansi", backend="c")
    b = mafia_env.env("online", render_mode="ansi", backend="python")
    play_pair(a, b, 3, moves=120)
    assert a.render() == b.render()  # narration
    assert a.record() == b.record()
    assert a.text_observer.observe(a.game, 2, a.observe("player_3")["action_mask"]) == (
        b.text_observer.observe(b.game, 2, b.observe("player_3")["action_mask"])
    )
    assert a.game.today.nominees == b.game.today.nominees  # any field of the game
    assert a.roles == b.roles and a.alive == b.alive and a.phase == b.phase
    replayed = mafia_env.replay(a.record())
    assert replayed.game.events == a.game.events
    # clone and pickle: independent copies that play on as the original would
    c1, c2 = a.clone(), pickle.loads(pickle.dumps(a))
    np.testing.assert_array_equal(c1.observe("player_1")["observation"],
                                  a.observe("player_1")["observation"])  # fmt: skip
    for twin in (c1, c2):
        agent = twin.agent_selection
        legal = np.flatnonzero(twin.observe(agent)["action_mask"])
        twin.step(int(legal[0]))
        a_again = a.observe(agent)["observation"]
        b_again = b.observe(agent)["observation"]
        np.testing.assert_array_equal(a_again, b_again)  # the original did not move
        bt = b.clone()
        bt.step(int(legal[0]))
        np.testing.assert_array_equal(
            twin.observe(agent)["observation"], bt.observe(agent)["observation"]
        )
        assert twin.game.events == bt.game.events
    world = a.game.resample(0, random.Random(1))
    assert world.events == b.game.resample(0, random.Random(1)).events
    assert copy.deepcopy(a.game).events == b.game.events  # a Python Game
    with pytest.raises(AttributeError, match="read-only"):
        a.game.day = 3


@pytest.mark.filterwarnings("ignore::mafia_env.IllegalActionWarning")
def test_env_core_moderator_calls_talk_and_illegal_modes():
    """Fouls, removals and talk from the env, and illegal actions under every knob value."""
    for mode in ("foul", "terminate", "raise"):
        a = mafia_env.env("sport", illegal_action=mode, backend="c")
        b = mafia_env.env("sport", illegal_action=mode, backend="python")
        for env in (a, b):
            env.reset(seed=11)
            while env.unwrapped.game.day == 0:  # SPORT-N3: the mafia's meeting
                env.step(env.action_id("pass"))
            env.say(env.agent_selection, "I am  the sheriff.")
            env.foul("player_4")
            env.remove("player_9")
            if mode == "raise":
                with pytest.raises(IllegalActionError):
                    env.step(env.layout.size + 3)
            else:
                env.step(env.layout.size + 3)  # outside the action space: illegal
        assert a.game.events == b.game.events and a.rewards == b.rewards
        assert a.illegal_counts == b.illegal_counts
        assert a.record() == b.record() and a.game.talk == b.game.talk
        with pytest.raises(IllegalActionError):
            a.say("player_1" if a.agent_selection != "player_1" else "player_2", "hi")


@pytest.mark.parametrize("variant", ["sport", "online", "forum"])
def test_parallel_core_plays_the_same_game(variant):
    a = mafia_env.parallel_env(variant, backend="c")
    b = mafia_env.parallel_env(variant, backend="python")
    for seed in range(2):
        oa, ia = a.reset(seed=seed)
        ob, ib = b.reset(seed=seed)
        rng = random.Random(seed)
        while a.agents:
            for agent in a.possible_agents:
                np.testing.assert_array_equal(oa[agent]["observation"], ob[agent]["observation"])
                np.testing.assert_array_equal(ia[agent]["action_mask"], ib[agent]["action_mask"])
            actions = {}
            for agent in a.agents:
                legal = np.flatnonzero(ia[agent]["action_mask"])
                actions[agent] = int(legal[rng.randrange(len(legal))])
            oa, ra, ta, ua, ia = a.step(actions)
            ob, rb, tb, ub, ib = b.step(actions)
            assert (ra, ta, ua) == (rb, tb, ub)
        assert a.game.events == b.game.events
        np.testing.assert_array_equal(a.state(), b.state())


# ------------------------------------------------------------- where the core is not built


def test_without_the_core_the_python_engine_plays_with_one_notice():
    """MAFIA_ENV_NO_CCORE=1 acts as a machine with no compiler: one warning, the same game."""
    code = (
        "import warnings, mafia_env\n"
        "from mafia_env.vector import VectorMafia\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    e = mafia_env.env('sport'); e2 = mafia_env.env('club'); v = VectorMafia('sport', 2)\n"
        "    p = mafia_env.parallel_env('sport')\n"
        "print(type(e).__name__, v.backend, len([x for x in w if 'C core' in str(x.message)]))\n"
        "try:\n"
        "    mafia_env.env('sport', backend='c')\n"
        "except mafia_env.ConfigError as err:\n"
        "    print('ConfigError', 'not built' in str(err) or 'NO_CCORE' in str(err))\n"
    )
    env = {**os.environ, "MAFIA_ENV_NO_CCORE": "1", "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["MafiaEnv", "python", "1", "ConfigError", "True"]


def test_a_core_built_from_another_source_is_refused():
    """An editable install keeps its old build after its C sources change: it must not play."""
    built = ccore._load()
    if built is None:
        pytest.skip("the C core is not built here")
    assert ccore._stale(built) is None  # this checkout's build

    class Other:
        SOURCE = "0" * 16

    assert "rebuild it" in ccore._stale(Other())


def test_a_clone_of_a_core_env_counts_its_own_illegal_actions():
    """clone() copies what play changes, on the core as on the Python engine (COMMON-7's
    counts were shared with the original)."""
    env = mafia_env.raw_env("sport", backend="auto", illegal_action="foul")
    env.reset(seed=3)
    other = env.clone()
    agent = env.agent_selection
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0]))
    assert env.illegal_counts[agent] == 1
    assert other.illegal_counts[agent] == 0


@pytest.mark.parametrize("variant", ["sport", "club", "online"])
def test_last_marks_finds_the_last_public_move_and_the_seats_last_fact(variant):
    """`Core.last_marks` (the belief piece's marks, `mafia_env.seat_obs.LazyBelief`): for each
    (game, seat), one plus the index of the game's last public event of the kinds asked for,
    and of the last hidden event of the kinds asked for that the seat saw, as a scan of the
    core's own log finds them, at every step of random games; bad arguments are clear errors."""
    from mafia_env.belief.store import FACTS, MOVES_PIECE

    vec = VectorMafia(variant, 6, seed=7, backend="c", log_events=True)
    core = vec._core.core
    moves, facts = sum(1 << k for k in MOVES_PIECE), sum(1 << k for k in FACTS)
    _, masks, _ = vec.reset()
    rng = np.random.default_rng(7)
    games = np.repeat(np.arange(6), vec.n)
    seats = np.tile(np.arange(vec.n), 6)
    found = 0
    for _ in range(150):
        out = np.empty((len(games), 2), dtype=np.int64)
        core.last_marks(games, seats, moves, facts, out)
        for i, (b, s) in enumerate(zip(games.tolist(), seats.tolist(), strict=True)):
            events = core.events(b)
            pub = [k + 1 for k, e in enumerate(events) if e[4] == -1 and e[0] in MOVES_PIECE]
            own = [
                k + 1
                for k, e in enumerate(events)
                if e[4] != -1 and e[4] >> s & 1 and e[0] in FACTS
            ]
            assert out[i].tolist() == [max(pub, default=0), max(own, default=0)], (b, s)
            found += bool(pub)
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, masks, _, _, _ = vec.step(acts)
    assert found  # (deaths were marked)
    out = np.empty((2, 2), dtype=np.int64)
    with pytest.raises(TypeError, match="int64"):
        core.last_marks(np.arange(2), np.arange(3), moves, facts, out)
    with pytest.raises(ValueError, match="game index"):
        core.last_marks(np.array([0, 9]), np.arange(2), moves, facts, out)
    with pytest.raises(ValueError, match="seat out of range"):
        core.last_marks(np.arange(2), np.array([0, vec.n]), moves, facts, out)
    plain = VectorMafia(variant, 2, seed=7, backend="c")
    plain.reset()
    with pytest.raises(ValueError, match="keeps no events"):
        plain._core.core.last_marks(np.arange(2), np.arange(2), moves, facts, out)


def test_count_pieces_says_what_is_wrong_with_its_arrays():
    """`Core.count_pieces` (the belief piece of a counted table, ccore/src/count.c; its pieces
    are held to the Python engine's in tests/belief/test_belief_table.py): arrays of the wrong
    size or kind and a core that keeps no events are clear errors, not a crash."""
    from mafia_env.seat_obs import _CoreCount

    vec = VectorMafia("sport", 2, seed=3, backend="c", log_events=True)
    vec.reset()
    count = _CoreCount.of(vec)
    core, games, seats = vec._core.core, np.arange(2), np.zeros(2, dtype=np.int64)
    out = np.empty((2, count.width), dtype=np.float32)
    status = np.empty((2, 3), dtype=np.int64)
    core.count_pieces(count.table, count.state, games, seats, out, status)
    assert (status[:, 0] == 0).all() and np.allclose(out.reshape(2, vec.n, -1).sum(2), 1)
    with pytest.raises(TypeError, match="7 arrays"):
        core.count_pieces(count.table[:6], count.state, games, seats, out, status)
    with pytest.raises(ValueError, match="out must hold"):
        core.count_pieces(count.table, count.state, games, seats, out[:1], status)
    with pytest.raises(ValueError, match="live must hold"):
        state = (count.state[0][:1], *count.state[1:])
        core.count_pieces(count.table, state, games, seats, out, status)
    with pytest.raises(ValueError, match="out of range"):
        core.count_pieces(count.table, count.state, games, seats + vec.n, out, status)
    plain = VectorMafia("sport", 2, seed=3, backend="c")
    plain.reset()
    with pytest.raises(ValueError, match="keeps no events"):
        plain._core.core.count_pieces(count.table, count.state, games, seats, out, status)
