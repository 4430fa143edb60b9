"""Rule bots of many styles deciding one batch (`RulePolicy.act_styles`): each row as its own
style's bot would, so that a league of the zoo's styles costs one call a step."""

from __future__ import annotations

import numpy as np
import pytest

from baselines.rule import RULE, RulePolicy, Style
from baselines.rule.style import SHAPE
from baselines.zoo import STYLES
from mafia_env.errors import ConfigError
from mafia_env.vector import VectorMafia

TABLES = [("sport", 10), ("city", 13), ("forum", 10), ("club", 10), ("online", 10), ("minimal", 10)]


def by_shape() -> list[list[Style]]:
    """The zoo's styles (and the rule bots'), grouped by `Style.shape`."""
    groups: dict[tuple, list[Style]] = {}
    for style in [RULE, *(z.style for z in STYLES.values())]:
        groups.setdefault(style.shape, []).append(style)
    return list(groups.values())


@pytest.mark.parametrize(("variant", "n"), TABLES)
def test_a_batch_of_styles_decides_each_row_as_its_styles_bot(variant, n):
    groups = by_shape()
    main = groups[0]
    assert len(main) >= 20  # the rule bots' shape holds most of the zoo
    vec = VectorMafia(variant, 16, n, seed=7)
    bots = [[RulePolicy(variant, vec.n, seed=1, style=s) for s in g] for g in groups]
    rng = np.random.default_rng(3)
    per_game = rng.integers(len(main), size=16)  # the games are played by the main group
    obs, masks, _ = vec.reset()
    checked = 0
    for step in range(60):
        if step % 6 == 0:
            for group, own in zip(groups, bots, strict=True):
                index = rng.integers(len(group), size=len(obs))
                mixed = own[0].probs_styles(obs, masks, group, index)
                for k, bot in enumerate(own):
                    rows = index == k
                    if rows.any():
                        assert np.array_equal(mixed[rows], bot.probs_batch(obs[rows], masks[rows]))
                        checked += int(rows.sum())
        actions = bots[0][0].act_styles(obs, masks, main, per_game)
        assert masks[np.arange(len(obs)), actions].all()
        obs, masks, *_ = vec.step(actions)
    assert checked == 10 * 16 * len(groups)


@pytest.mark.parametrize(("variant", "n"), [("sport", 10), ("city", 13)])
def test_rows_of_one_style_play_as_that_styles_bot_with_the_same_seed(variant, n):
    framer = STYLES["framer"].style  # (another style than the calling bot's, of its shape)
    vec = VectorMafia(variant, 16, n, seed=2)
    caller = RulePolicy(variant, vec.n, seed=9)
    own = RulePolicy(variant, vec.n, seed=9, style=framer)
    obs, masks, _ = vec.reset()
    for _ in range(50):
        actions = own.act_batch(obs, masks)
        styled = caller.act_styles(obs, masks, [RULE, framer], np.ones(len(obs), dtype=int))
        assert styled.tolist() == actions.tolist()
        obs, masks, *_ = vec.step(actions)


def test_styles_of_another_shape_or_a_bad_index_are_clear_errors():
    vec = VectorMafia("sport", 4, seed=1)
    obs, masks, _ = vec.reset()
    bot = RulePolicy("sport", 10)
    quiet = STYLES["quiet_town"].style
    assert quiet.shape != RULE.shape and "talk" in SHAPE
    with pytest.raises(ConfigError, match="the styles must share the bot's reading, talk"):
        bot.act_styles(obs, masks, [RULE, quiet], np.zeros(4, dtype=int))
    with pytest.raises(ConfigError, match=r"index must be 4 integers"):
        bot.act_styles(obs, masks, [RULE], np.zeros(3, dtype=int))
    with pytest.raises(ConfigError, match=r"index must be in 0\.\.0; got 0\.\.1"):
        bot.act_styles(obs, masks, [RULE], np.array([0, 1, 0, 0]))
    with pytest.raises(ConfigError, match="styles must be a non-empty sequence of Style"):
        bot.act_styles(obs, masks, [{"ballot": "first"}], np.zeros(4, dtype=int))
    # one style a call, the bot's own: the plain path
    assert bot.act_styles(obs, masks, [RULE], np.zeros(4, dtype=int)).shape == (4,)


def test_the_mix_key_groups_the_bots_that_decide_together():
    sport = [RulePolicy("sport", 10, style=STYLES[s].style) for s in ("framer", "vote_first")]
    assert sport[0].mix_key() == sport[1].mix_key() == RulePolicy("sport", 10).mix_key()
    assert RulePolicy("club", 10).mix_key() != sport[0].mix_key()  # another table
    quiet = RulePolicy("sport", 10, style=STYLES["quiet_town"].style)
    assert quiet.mix_key() != sport[0].mix_key()  # another shape
    quiet.style = RULE  # (the key follows the style)
    assert quiet.mix_key() == sport[0].mix_key()


@pytest.mark.parametrize(("variant", "n"), [("city", 13), ("online", 10)])
def test_a_row_of_many_ways_is_spread_on_its_copies_as_in_the_batch(variant, n, monkeypatch):
    """`spread` works out a row whose draws fall many ways (a noisy style's speech: the noise,
    any legal act, tied seats: some 200,000) on copies of the row: the same probabilities,
    bit for bit, as the whole batch choosing each way in turn. Here every row of more than 2
    ways goes to its copies, 8 ways a call (the styles' full speeches: too slow the old way)."""
    from baselines.rule import draws

    bots = [RulePolicy(variant, n, seed=1, style=STYLES[s].style) for s in ("talkative", "framer")]
    bots.append(RulePolicy(variant, n, seed=1))
    vec = VectorMafia(variant, 16, n, seed=5)
    obs, masks, _ = vec.reset()
    on_copies = []
    real = draws._on_copies
    monkeypatch.setattr(draws, "_on_copies", lambda *a: on_copies.append(len(a[2])) or real(*a))
    for _ in range(30):
        for bot in bots:
            with monkeypatch.context() as m:
                m.setattr(draws, "MANY_WAYS", 2)
                m.setattr(draws, "COPIES", 8)
                fast = bot.probs_batch(obs, masks)
            with monkeypatch.context() as m:
                m.setattr(draws, "MANY_WAYS", 10**12)  # every way on the whole batch
                plain = bot.probs_batch(obs, masks)
            assert np.array_equal(fast, plain)
        obs, masks, *_ = vec.step(bots[-1].act_batch(obs, masks))
    assert len(on_copies) >= 20 and max(on_copies) > 8  # rows of several calls among them
