"""The API reference's pages: one per package, listing every public module found on disk.

mkdocstrings renders each ``::: module`` from its docstrings (read statically by griffe: no
module is imported, so optional extras need not be installed to build the reference).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("mafia_env", "baselines")
# data tables and entry scripts, whose docstrings say nothing an API reader needs
SKIP = {
    "mafia_env.lang.en",
    "mafia_env.lang.ru",
    "mafia_env.lang.uk",
    "mafia_env.table.__main__",
}
INTRO = {
    "mafia_env": "The environment: `mafia_env.env`, the views, observations, actions, records, "
    "text, policies and tasks. It imports only numpy, gymnasium, pettingzoo and pyyaml.",
    "mafia_env.ccore": "The compiled core: the rules in C (their constants generated from the "
    "engine's definitions), the Python side of its binding, the differential check.",
    "mafia_env.engine": "The rules as a pure state machine (no PettingZoo, no numpy).",
    "mafia_env.lang": "The moderator's words: one table per language (en, ru, uk).",
    "mafia_env.records": "Game records: their format, earlier formats, playing one back, and "
    "its story (`mafia replay`).",
    "mafia_env.seating": "The policies that fill a table's seats: the `Policy` protocol, the "
    "registry (`load_policy`), `Seating` and the games it plays, `mafia play` in a terminal.",
    "mafia_env.table": "The web table where people sit with bots (extra `table`).",
    "mafia_env.text": "Text observations for language models, their replies read back as "
    "actions, and `TextPolicy` (a model as a policy).",
    "mafia_env.variants": "The variant files' loader.",
    "baselines": "Agents and runs: the rule bots, evaluation, ratings, the benchmark protocol, "
    "exploitability, the search bot, language models and the arena.",
    "baselines.evaluate": "Evaluation by team: the config, the per-game measures, the seeded "
    "runs over the cores, and the reports.",
    "baselines.ppo": "Masked PPO (CleanRL-style), behaviour cloning and the league.",
    "baselines.rllib": "Ray RLlib: the env wrapper, the training entry point, checkpoints as a "
    "Policy (extra `rllib`).",
}


def packages() -> dict[str, list[str]]:
    """Return package -> its modules (the package itself first), found on disk."""
    out: dict[str, list[str]] = {}
    for top in PACKAGES:
        folders = sorted({p.parent for p in (ROOT / top).rglob("*.py")})
        for folder in folders:
            name = ".".join(folder.relative_to(ROOT).parts)
            mods = [name] if (folder / "__init__.py").exists() else []  # else a namespace
            mods += [
                f"{name}.{p.stem}"
                for p in sorted(folder.glob("*.py"))
                if p.stem != "__init__" and not p.stem.startswith("_")
            ]
            out[name] = [m for m in mods if m not in SKIP]
    return out


def page_name(package: str) -> str:
    return f"{package}.md"


def pages() -> dict[str, str]:
    """Return page file name -> Markdown, for every package and the index."""
    found = packages()
    out = {}
    index = [
        "# API reference",
        "",
        "Generated from the docstrings at build time. One page per package:",
        "",
    ]
    for package, modules in found.items():
        index.append(f"- [`{package}`]({page_name(package)}): {INTRO.get(package, '')}")
        lines = [f"# `{package}`", "", INTRO.get(package, ""), ""]
        for mod in modules:
            lines += [f"::: {mod}", ""]
        out[page_name(package)] = "\n".join(lines)
    out["index.md"] = "\n".join([*index, ""])
    return out
