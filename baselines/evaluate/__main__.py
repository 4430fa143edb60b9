"""``python -m baselines.evaluate``: see `baselines.evaluate.cli`."""

from baselines.evaluate.cli import main
from mafia_env.commands import run

raise SystemExit(run(main, what="mafia evaluate"))
