"""Run a module with a candidate seat-filler file registered as a policy name, seated as the
shipped filler is (the CLIs take names, and a path alone plays every side with the network):

    python results/robust/experiments/run_cand.py cand FILE '{"town":"rule","maniac":"rule"}' \\
        baselines.benchmark --policy cand --task city-13 --version 4
"""

import json
import runpy
import sys

sys.path.insert(0, ".")

import baselines  # noqa: F401  (registers the shipped policies)
from mafia_env.seating.policies import _factory, register_policy

name, path, sides = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
filler = _factory("filler")


def make(variant=None, num_players=None, seed=0, spec=None, **kw):
    """The filler loaded from `path`, its `sides` seated as given."""
    return filler(
        variant=variant, num_players=num_players, seed=seed, spec=spec, file=path, sides=sides, **kw
    )


register_policy(name, make)
module = sys.argv[4]
sys.argv = [module, *sys.argv[5:]]
runpy.run_module(module, run_name="__main__", alter_sys=True)
