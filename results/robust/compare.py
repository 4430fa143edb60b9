"""Compare robust runs made on the same deals: cells below the rule bots, and each side's
mean over each set of styles, one line per run.

    python results/robust/compare.py results/robust/filler-full-sport-10.json \\
        results/robust/experiments/filler_vote-full-sport-10.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def rows(path: str) -> list[str]:
    data = json.loads(Path(path).read_text())
    cells = data["cells"]
    below = [c for c in cells if c["diff"]["hi"] < 0]
    out = [f"{data['policy']} ({path}): {len(below)} of {len(cells)} cells below"]
    for s in data["summary"]:
        d = s["diff"]
        out.append(
            f"  {s['task']:10} {s['side']:6} {s['mix']:5} {s['split']:8} "
            f"{d['mean']:+.3f} [{d['lo']:+.3f}, {d['hi']:+.3f}]"
        )
    return out


def main(paths: list[str]) -> int:
    for p in paths:
        print("\n".join(rows(p)))
    named = {}
    for p in paths:
        data = json.loads(Path(p).read_text())
        for c in data["cells"]:
            key = (c["task"], c["side"], c["mix"], c["style"])
            named.setdefault(key, []).append(c["diff"]["mean"])
    print("cells (difference from the rule bots, one column a run):")
    for key, vals in named.items():
        print("  " + " ".join(f"{k:14}" for k in key) + " " + " ".join(f"{v:+.2f}" for v in vals))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
