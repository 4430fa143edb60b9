#!/usr/bin/env python
"""Record the sample game of each rule set, shown on its page of the site.

    python scripts/docs/sample_games.py             # every variant
    python scripts/docs/sample_games.py sport club  # some

A sample game is one seeded game at the variant's default table, every seat played by the
rule bots: its record (``tests/data/golden/samples/<variant>.json``, which `mafia_env.replay`
plays back) and the moderator's full narration of it in every language
(``<variant>_<lang>.txt``). tests/docs/test_docs.py replays each record and compares the
narration, as OpenSpiel's recorded games do: a change of the rules or of the moderator's
words shows there, and this script records the games again (with the bots of the day).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import mafia_env
from mafia_env.lang import LANGS
from mafia_env.narrate import ALL, narrate
from mafia_env.seating.games import Seating, play_game

SAMPLES = Path(__file__).resolve().parents[2] / "tests" / "data" / "golden" / "samples"
SEED = 7
POLICY = "rule"


def narration(game, lang: str) -> str:
    """Return the moderator's full narration of a game (every line, public and private)."""
    return "\n".join(narrate(game.events, ALL, lang, game.talk)) + "\n"


def record_sample(variant: str, seed: int = SEED, folder: Path = SAMPLES) -> dict:
    """Play and save the sample game of `variant`; return what was saved."""
    import baselines  # noqa: F401  (registers the rule bots)

    env = mafia_env.env(variant)
    seating = Seating.load(POLICY, variant=variant, num_players=env.n, seed=0)
    game = play_game(env, seating, seed=seed)
    data = {"policy": POLICY, "record": env.record()}
    folder.mkdir(parents=True, exist_ok=True)
    text = re.sub(r"\[\s+(\d+),\s+(\S+?)\s+\]", r"[\1, \2]", json.dumps(data, indent=1))
    (folder / f"{variant}.json").write_text(text + "\n", encoding="utf-8")
    for lang in LANGS:
        (folder / f"{variant}_{lang}.txt").write_text(narration(game, lang), encoding="utf-8")
    return data


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Record the sample game of each rule set.")
    p.add_argument("variants", nargs="*", help="variants (default: every one)")
    p.add_argument("--seed", type=int, default=SEED)
    args = p.parse_args(argv)
    for variant in args.variants or sorted(mafia_env.VARIANTS):
        rec = record_sample(variant, args.seed)["record"]
        print(f"{variant}: {len(rec['moves'])} moves, winner {rec['winner']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
