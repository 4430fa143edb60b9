"""``python -m baselines.evaluate``: see `baselines.evaluate.cli`."""

from baselines.evaluate.cli import main

raise SystemExit(main())
