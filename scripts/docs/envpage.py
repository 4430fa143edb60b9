"""The documentation's generated pages: one per rule set, read from the code at build time.

Everything a rule set's page says comes from the code and the files the code reads: the spec
(`mafia_env.engine.spec.GameSpec`), the variant file (its knobs, which of them the seed set,
and the comment beside each), the observation layout (`mafia_env.observe.ObsLayout`: its
pieces, and the comment beside each in observe.py), the action layout
(`mafia_env.actions.ActionLayout`), the language tables (`mafia_env.lang`), the rule IDs of
docs/rules/RULES.md and the tests that name them, and the recorded sample game of
tests/data/golden/samples/. `scripts/docs/gen_pages.py` writes the pages while MkDocs builds the
site, so a page cannot say what the code no longer does.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

import mafia_env
from mafia_env.actions import COLORS, ActionLayout
from mafia_env.engine.events import ANSWER_NAMES, Cause
from mafia_env.engine.roles import Team
from mafia_env.engine.rules import KNOBS, ROLE_KNOBS, Rules
from mafia_env.engine.spec import GameSpec
from mafia_env.lang import LANGS, table
from mafia_env.observe import ObsLayout
from mafia_env.tasks import TASKS
from mafia_env.variants import HERE as VARIANT_DIR

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = ROOT / "docs" / "rules" / "RULES.md"
SEEDS = ROOT / "docs" / "rules" / "seeds"
SAMPLES = ROOT / "tests" / "data" / "golden" / "samples"
TESTS = ROOT / "tests"
RULE_ID = re.compile(r"\b(COMMON|CITY|SPORT|CLUB|ONLINE|FORUM)-([A-Z]?\d+)\b")
TEST_ID = re.compile(r"(common|city|sport|club|online|forum)_([a-z]?\d+)(?=_|$)")
MISSING = "(no comment beside it in the code)"
LANG_NAMES = {"en": "English", "ru": "Русский", "uk": "Українська"}


def cell(text: object) -> str:
    """Return `text` fit for one cell of a Markdown table."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def code(text: object) -> str:
    return f"`{text}`"


# ------------------------------------------------------------------ what the sources say


def source_comments(path: Path, pattern: str) -> dict[str, str]:
    """Return name -> the comment at the end of each line of `path` that `pattern` matches
    (its group 1 is the name)."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(pattern, line)
        if m and "#" in line:
            out[m.group(1)] = line.split("#", 1)[1].strip()
    return out


def piece_meanings() -> dict[str, str]:
    """Return the meaning of each observation piece: the comment beside it in observe.py."""
    path = Path(mafia_env.observe.__file__)
    return source_comments(path, r'\s*\("(\w+)", \(.*\)\),')


def turn_meanings() -> dict[str, str]:
    """Return the meaning of each `Turn`: the comment beside it in engine/kinds.py."""
    text = Path(mafia_env.engine.kinds.__file__).read_text(encoding="utf-8")
    body = text.split("class Turn(", 1)[1].split("\nclass ", 1)[0]
    out = {}
    for line in body.splitlines():
        m = re.match(r"\s+([A-Z_]+) = \d+\s*#\s*(.*)", line)
        if m:
            out[m.group(1)] = m.group(2).strip()
    return out


def variant_file(rules: Rules) -> Path:
    return VARIANT_DIR / f"{rules.name}.yaml"


def knob_notes(rules: Rules) -> dict[str, str]:
    """Return knob -> the comment beside it in the variant file."""
    return source_comments(variant_file(rules), r"\s+(\w+):\s*\S")


def roles_note(rules: Rules) -> str:
    """Return the comment lines just above the variant file's role tables."""
    lines = variant_file(rules).read_text(encoding="utf-8").splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("roles:"))
    note = []
    while i > 0 and lines[i - 1].startswith("#"):
        i -= 1
        note.insert(0, lines[i].lstrip("#").strip())
    return " ".join(note)


def source_file(rules: Rules) -> str:
    """Return the seed document the variant file names (its `source:` key)."""
    m = re.search(r"^source:\s*(\S+)", variant_file(rules).read_text(encoding="utf-8"), re.M)
    return m.group(1) if m else ""


@dataclass
class RuleText:
    rid: str
    text: str


def rule_sections(text: str | None = None) -> dict[str, tuple[str, list[RuleText], str]]:
    """Return RULES.md by section: key (COMMON, CITY, ...) -> (heading, rules, prose)."""
    text = RULES_MD.read_text(encoding="utf-8") if text is None else text
    out: dict[str, tuple[str, list[RuleText], str]] = {}
    for block in re.split(r"^## ", text, flags=re.M)[1:]:
        heading, _, body = block.partition("\n")
        key = "COMMON" if heading.startswith("Common") else heading.split(":")[0].strip()
        rules: list[RuleText] = []
        prose: list[str] = []
        for line in body.splitlines():
            m = re.match(r"- ((?:COMMON|CITY|SPORT|CLUB|ONLINE|FORUM)-[A-Z]?\d+) (.*)", line)
            if m:
                rules.append(RuleText(m.group(1), m.group(2)))
            elif line.startswith("  ") and rules:
                rules[-1].text += " " + line.strip()
            elif line.strip():
                prose.append(line.strip())
        out[key] = (heading.strip(), rules, " ".join(prose))
    return out


def rule_tests(tests: Path = TESTS) -> dict[str, list[str]]:
    """Return rule ID -> the tests (file::name) whose name or docstring names it."""
    out: dict[str, list[str]] = {}
    for path in sorted(tests.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if not node.name.startswith("test"):
                continue
            ids = {f"{a.upper()}-{b.upper()}" for a, b in TEST_ID.findall(node.name)}
            ids |= {f"{a}-{b}" for a, b in RULE_ID.findall(ast.get_docstring(node) or "")}
            for rid in ids:
                out.setdefault(rid, []).append(f"{path.name}::{node.name}")
    return out


# ------------------------------------------------------------------ the page


def sizes(rules: Rules) -> list[tuple[int, str, int, int]]:
    """Return (seats, roles dealt, action size, observation size) for every table size."""
    out = []
    for n in range(rules.min_players, rules.max_players + 1):
        counts = rules.role_counts(n)
        dealt = ", ".join(f"{c} {r.label}" for r, c in sorted(counts.items()))
        out.append((n, dealt, GameSpec.of(rules, n).action_size, ObsLayout(rules, n).size))
    return out


def task_of(rules: Rules) -> str | None:
    names = [t.name for t in TASKS.values() if t.variant == rules.name]
    return names[0] if names else None


def info_table(rules: Rules) -> list[str]:
    n = rules.default_players
    spec = GameSpec.of(rules, n)
    a, d = spec.action_size, ObsLayout(rules, n).size
    task = task_of(rules)
    name = rules.name
    seed = source_file(rules)
    rows = [
        ("Import", f'`env = mafia_env.env("{name}")` (AEC; `num_players={n}` by default)'),
        (
            "Agents",
            f"`player_1` ... `player_n`, n = {rules.min_players}..{rules.max_players} "
            f"(default {n})",
        ),
        ("Action space", f"`Discrete({a})` at {n} seats (every size: [below](#table-sizes))"),
        (
            "Observation space",
            f"`Dict(observation=Box(0, 1, ({d},), float32), action_mask=Box(0, 1, ({a},), int8))`",
        ),
        (
            "Parallel",
            f'yes: `mafia_env.parallel_env("{name}")`, `Discrete({a + 1})` (index {a} is `wait`)',
        ),
        ("Flat", f'yes: `obs_mode="flat"`: `Box(0, 1, ({d},), float32)`, the mask in `infos`'),
        ("Text", 'yes (AEC): `obs_mode="text"`, in `lang="en"`, `"ru"` or `"uk"`'),
        (
            "Single agent",
            f'`mafia_env.single_agent("{task}", seat=3)`' if task else "through `single_agent`",
        ),
        ("OpenSpiel", f'`pyspiel.load_game("python_mafia", {{"variant": "{name}"}})`'),
        ("Benchmark task", f"`{task}`" if task else "none"),
        ("Source", source_link(seed)),
    ]
    lines = ["| | |", "|---|---|"]
    lines += [f"| {k} | {cell(v)} |" for k, v in rows]
    return lines


def source_link(source: str) -> str:
    """Return a link to the document a variant file names as its source."""
    if source.endswith(".txt"):
        return f"seed [{source}](../rules/seeds.md#{seed_anchor(source)}) (the original)"
    return f"[{source}](../rules/RULES.md) (the project's own)"


def seed_anchor(seed: str) -> str:
    return "seed-" + seed.split("_")[0]


def size_table(rules: Rules) -> list[str]:
    lines = [
        "| seats | roles dealt | action space (AEC) | observation size | parallel action space |",
        "|---|---|---|---|---|",
    ]
    for n, dealt, a, d in sizes(rules):
        mark = " (default)" if n == rules.default_players else ""
        lines.append(f"| {n}{mark} | {dealt} | `Discrete({a})` | {d} | `Discrete({a + 1})` |")
    return lines


def role_table(rules: Rules) -> list[str]:
    spec = GameSpec.of(rules, rules.default_players)
    counts = rules.role_counts(rules.default_players)
    head = " | ".join(LANG_NAMES[lang] for lang in LANGS)
    lines = [f"| role | team | at {rules.default_players} seats | {head} |", "|---|---|---|"]
    lines[-1] += "---|" * len(LANGS)
    for role in spec.roles:
        words = " | ".join(table(lang).ROLES[role.label] for lang in LANGS)
        lines.append(
            f"| `{role.label}` | {role.team.name.lower()} | {counts.get(role, 0)} | {words} |"
        )
    return lines


def turn_table(rules: Rules) -> list[str]:
    spec = GameSpec.of(rules, rules.default_players)
    meaning = turn_meanings()
    lines = ["| turn | seen by | acts it may offer | what it is |", "|---|---|---|---|"]
    for turn in spec.turns:
        seen = "the table" if turn in spec.public_turns else "its taker (night)"
        acts = ", ".join(code(a.name.lower()) for a in spec.offers(turn)) or "none here"
        lines.append(
            f"| `{turn.name.lower()}` | {seen} | {acts} | {cell(meaning.get(turn.name, MISSING))} |"
        )
    return lines


def observation_table(rules: Rules) -> list[str]:
    n = rules.default_players
    layout = ObsLayout(rules, n)
    meaning = piece_meanings()
    private = {name for name, _ in layout.private}
    lines = [
        f"| piece | where, shape at {n} seats: indices | meaning |",
        "|---|---|---|",
    ]
    labels = column_labels(rules)
    for name, (off, shape) in layout.offsets.items():
        size = 1
        for s in shape:
            size *= s
        seen = "private" if name in private else "public"
        said = meaning.get(name, MISSING)
        if name in labels:
            said += "; the last axis: " + ", ".join(labels[name][: shape[-1]])
        where = f"{seen}, `{shape}`: {off}..{off + size - 1}"
        lines.append(f"| `{name}` | {where} | {cell(said)} |")
    return lines


def column_labels(rules: Rules) -> dict[str, list[str]]:
    """Return piece -> the names of the entries along its last axis (where they have names)."""
    layout = ObsLayout(rules, rules.default_players)
    roles = [r.label for r in layout.spec.roles]
    causes = [c.name.lower() for c in Cause]
    if layout.offsets["eliminated"][1][-1] < len(causes):
        causes = causes[: layout.offsets["eliminated"][1][-1]]
    causes[int(Cause.FOUL)] = "foul (or removed)"
    out = {
        "role": roles,
        "known_roles": roles,
        "revealed": roles,
        "claimed_role": roles,
        "questions": roles,
        "eliminated": causes,
        "answers": list(ANSWER_NAMES),
        "claimed_check": list(COLORS),
        "my_turn": [t.name.lower() for t in layout.turns],
    }
    return {k: [code(x) for x in v] for k, v in out.items() if k in layout.offsets}


def phase_list(rules: Rules) -> str:
    layout = ObsLayout(rules, rules.default_players)
    return ", ".join(code(p) for p in layout.phases)


def action_table(rules: Rules) -> list[str]:
    n = rules.default_players
    layout = ActionLayout(rules, n)
    spec = layout.spec
    words = table("en").ACTIONS
    lines = [
        f"| segment | indices at {n} seats | entries | what it says, by the turn that offers it |",
        "|---|---|---|---|",
    ]
    for act in layout.acts:
        off, width = layout.offset[act], layout.width[act]
        by_phrase: dict[str, list[str]] = {}
        for turn in spec.turns:
            if act in spec.offers(turn):
                phrase = words[act.name].get(turn.name, words[act.name]["*"])
                by_phrase.setdefault(placeholders(phrase), []).append(code(turn.name.lower()))
        said = [f"{', '.join(turns)}: {phrase}" for phrase, turns in by_phrase.items()]
        last = off + width - 1
        first, end = layout.describe(off), layout.describe(last)
        entries = code(first) if width == 1 else f"`{first}` ... `{end}`"
        lines.append(
            f"| `{act.name.lower()}` | {off}..{last} | {entries} | {cell('; '.join(said))} |"
        )
    return lines


PLACEHOLDERS = {
    "{t}": "*N*",
    "{role}": "*role*",
    "{color}": "*red / black*",
    "{answer}": "*yes / no / I don't know*",
    "{hunt_as}": " *as mafia / as the maniac*",
}


def placeholders(phrase: str) -> str:
    """Return a language table's phrase with its fields in words."""
    for key, words in PLACEHOLDERS.items():
        phrase = phrase.replace(key, words)
    return phrase


def reward_lines(rules: Rules) -> list[str]:
    spec = GameSpec.of(rules, rules.default_players)
    teams = {}
    for role in spec.roles:
        teams.setdefault(role.team, []).append(role.label)
    parts = [f"**{t.name.lower()}** ({', '.join(teams[t])})" for t in Team if t in teams]
    mafia = (
        "the mafia win when they are at least as many as everyone else alive (parity)"
        if rules.mafia_win == "parity"
        else "the mafia win when they outnumber everyone else alive (`mafia_win: majority`)"
    )
    maniac = Team.MANIAC in teams
    lines = [
        f"Teams: {', '.join(parts)}. When the game ends every agent, eliminated or not, gets "
        "its team's reward: **+1** for a win, **-1** for a loss, **0** for a draw; every "
        "other step rewards 0.",
        "",
        f"- The town wins when no mafia{' and no maniac' if maniac else ''} is alive; "
        f"{mafia}{' and the maniac is dead' if maniac else ''}.",
    ]
    if maniac:
        lines.append("- The maniac wins when he is alive and at most one other player is.")
    limit = f"{rules.max_days} days" if rules.max_days is not None else "3 x n days"
    lines += [
        f"- A game that reaches the day limit, {limit} (knob `max_days`), is truncated as a draw.",
        "- `illegal_action: terminate` ends the game at an illegal action: -1 to the offender, "
        "0 to the others.",
    ]
    return lines


def allowed(name: str) -> str:
    k = KNOBS[name]
    if k.choices:
        words = " ".join(k.choices) if k.sequence else " / ".join(k.choices)
        text = f"words of: {words}" if k.sequence else words
    elif k.kind is bool:
        text = "true / false"
    else:
        text = f"int >= {k.minimum}" if k.minimum is not None else "int"
    return text + (" / null" if k.nullable else "")


def yaml_value(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def idle_knobs(rules: Rules) -> set[str]:
    """Return the knobs that change nothing under these rules: those of a role no table of
    the variant deals (`ROLE_KNOBS`), and those its file's comment says do nothing."""
    dealt = set(rules.roles_in_play())
    notes = knob_notes(rules)
    idle = {k for k, roles in ROLE_KNOBS.items() if not set(roles) <= dealt}
    return idle | {k for k, note in notes.items() if "does nothing" in note or "do nothing" in note}


def knob_rows(rules: Rules, names: list[str]) -> list[str]:
    """Return the table of `names`: the knob, its value, what it does."""
    notes = knob_notes(rules)
    values = rules.knob_values()
    lines = ["| knob | value | what it does |", "|---|---|---|"]
    for name in names:
        k = KNOBS[name]
        does = f"{k.doc} ({k.rule}; {allowed(name)})"
        note = notes.get(name, "").removeprefix(k.rule).lstrip(":; ").strip()
        if note:
            does += f". The file: {note}"
        lines.append(f"| `{name}` | `{yaml_value(values[name])}` | {cell(does)} |")
    return lines


def knob_table(rules: Rules) -> list[str]:
    """Return the knobs the seed sets; then, folded, the project's choices where it is silent,
    and the knobs that change nothing here."""
    idle = idle_knobs(rules)
    seed = [k for k in KNOBS if k not in idle and k not in rules.defaults]
    ours = [k for k in KNOBS if k not in idle and k in rules.defaults]
    rest = [k for k in KNOBS if k in idle]
    lines = ["Set by the source document (**seed**: the file's `rules:`):", ""]
    lines += knob_rows(rules, seed) if seed else ["None."]
    folds = (
        (ours, "the source document is silent: the project's choices (`defaults:`)", ""),
        (
            rest,
            "change nothing in this rule set",
            "Knobs of a role no table of this rule set deals, or that its file marks as doing "
            "nothing here (a rule of a turn it never has).",
        ),
    )
    for names, what, note in folds:
        if names:
            lines += ["", f'??? note "{len(names)} more knobs: {what}"', ""]
            lines += [f"    {note}", ""] if note else []
            lines += [f"    {line}" for line in knob_rows(rules, names)]
    return lines


def rule_lines(rules: Rules, tested: dict[str, list[str]]) -> list[str]:
    sections = rule_sections()
    key = rules.name.upper()
    lines: list[str] = []
    for part in (key, "COMMON"):
        if part not in sections:
            continue
        heading, items, prose = sections[part]
        body: list[str] = []
        if prose and not items:
            body += [prose, ""]
        for r in items:  # a list, not a table: the text takes the page's width
            tests = tested.get(r.rid, [])
            shown = ", ".join(code(t.split("::")[1]) for t in tests[:2])
            more = f" and {len(tests) - 2} more" if len(tests) > 2 else ""
            by = f" *Tested by* {shown}{more}." if tests else ""
            body.append(f"- **{r.rid}** {r.text}{by}")
        if items:
            body.append("")
        if part == "COMMON":  # the same on every page: folded
            lines += [
                f"??? note \"{heading}: every variant's, unless its own rules or knobs say "
                f'otherwise ({len(items)} rules)"',
                "",
                *(f"    {line}" if line else "" for line in body),
            ]
        else:  # folded too: the page's tables come first
            lines += [
                f"### {heading}",
                "",
                f'??? note "The {len(items)} rules of {key}, each with the tests that name it"',
                "",
                *(f"    {line}" if line else "" for line in body),
            ]
    return lines


def load_sample(name: str) -> dict | None:
    """Return the recorded sample game of variant `name` with its narrations, or None."""
    path = SAMPLES / f"{name}.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    data["narration"] = {
        lang: (SAMPLES / f"{name}_{lang}.txt").read_text(encoding="utf-8") for lang in LANGS
    }
    return data


def sample_lines(rules: Rules) -> list[str]:
    data = load_sample(rules.name)
    if data is None:
        return ["No sample game is recorded for this variant yet."]
    record = data["record"]
    deal = ", ".join(f"{i + 1} {r}" for i, r in enumerate(record["deal"]))
    lines = [
        f"A game at {record['num_players']} seats, `seed={record['seed']}`, every seat played by "
        f"`{data['policy']}`; {len(record['moves'])} moves; winner: **{record['winner']}**. The "
        f"deal: {deal}. This is the moderator's full narration: public lines and what each "
        "player was told alone. The game is `tests/data/golden/samples/"
        f"{rules.name}.json` (a record that `mafia_env.replay` plays back); "
        "`tests/docs/test_docs.py` replays it and compares the narration in every language, and "
        "`python scripts/docs/sample_games.py` records it again.",
        "",
    ]
    count = len(data["narration"]["en"].splitlines())
    lines += [f'??? example "The narration ({count} lines in English)"', ""]
    for lang in LANGS:
        lines.append(f'    === "{LANG_NAMES[lang]}"')
        lines.append("")
        lines.append("        ```text")
        lines += [f"        {line}" for line in data["narration"][lang].splitlines()]
        lines.append("        ```")
        lines.append("")
    return lines


def variant_page(rules: Rules, tested: dict[str, list[str]] | None = None) -> str:
    """Return the Markdown page of one rule set."""
    tested = rule_tests() if tested is None else tested
    n = rules.default_players
    spec = GameSpec.of(rules, n)
    out = [
        f"# {rules.name.upper()}: {rules.title}",
        "",
        "<!-- generated by scripts/docs/envpage.py from the code: edit the code, not this -->",
        "",
        *info_table(rules),
        "",
        "```python",
        "import mafia_env",
        "",
        f'env = mafia_env.env("{rules.name}", num_players={n})',
        "env.reset(seed=7)",
        "```",
        "",
        "## Table sizes",
        "",
        cell(roles_note(rules)) or "",
        "",
        *size_table(rules),
        "",
        "## Roles",
        "",
        *role_table(rules),
        "",
        "## Turns",
        "",
        "The kinds of turn a game of these rules can contain. The table sees who takes a day "
        "turn; a night turn is its taker's secret (the others' observation says only "
        "`night`).",
        "",
        *turn_table(rules),
        "",
        "## Observation",
        "",
        "`obs['observation']` is a float32 vector, every entry in [0, 1] (one-hots, flags, and "
        "counts scaled by their maximum). Read it through named views rather than by slicing: "
        "`env.obs_layout.views(obs['observation'])['alive']`. The private pieces come first "
        "(the seat's own row), then the public ones (the same for every seat). `phase` "
        f"is one-hot over {phase_list(rules)}. Indices at {n} seats:",
        "",
        *observation_table(rules),
        "",
        "## Action mask",
        "",
        "`obs['action_mask']` is int8, 1 = legal. An agent that is not acting gets all zeros; "
        "`infos[agent]['action_mask']` holds the same mask in every `obs_mode`. An action "
        "outside the mask does what knob `illegal_action` says: `terminate` (the default of "
        "`env`, `parallel_env` and `single_agent`: the game ends, -1 to the offender), "
        "`raise` (an `IllegalActionError` naming the agent, the phase and the legal actions) "
        "or `foul` (a foul, then the turn's default action).",
        "",
        "## Actions",
        "",
        f"One `Discrete({spec.action_size})` space at {n} seats, in segments; targets are seats "
        "(entry i of a seat segment is seat i + 1). `env.action_id(kind, target, value)` "
        "gives an index and `env.describe_action(i)` names one. The parallel view adds "
        f"`wait` at index {spec.action_size}.",
        "",
        *action_table(rules),
        "",
        "## Rewards",
        "",
        *reward_lines(rules),
        "",
        "## Knobs",
        "",
        f"Every knob of `mafia_env/variants/{rules.name}.yaml`: first those the source "
        "document sets, then, folded, those where it is silent and the value is the project's "
        "choice, and those that change nothing in this rule set. Any knob can be overridden: "
        f'`mafia_env.env("{rules.name}", speech_acts=2)`; an unknown knob or a bad value is '
        "a `ConfigError` that says what is allowed.",
        "",
        *knob_table(rules),
        "",
        "## Rules",
        "",
        "The rule IDs of [RULES.md](../rules/RULES.md), an English restatement of the seed "
        "documents (the seeds win where they differ), with the tests that name them.",
        "",
        *rule_lines(rules, tested),
        "## Sample game",
        "",
        *sample_lines(rules),
        "## Version history",
        "",
        f"The environment is `{mafia_env.MafiaEnv.metadata['name']}`; what changed, and when: "
        "[Versions](../versions.md).",
        "",
    ]
    return "\n".join(out)


def index_page() -> str:
    """Return the overview of every rule set."""
    lines = [
        "# Rule sets",
        "",
        "<!-- generated by scripts/docs/envpage.py from the code: edit the code, not this -->",
        "",
        "Five rule sets people play, each read from its source document ([the seed "
        "documents](../rules/seeds.md)), and MINIMAL, a small one for checks against theory: "
        "six variants, one YAML file each. `mafia_env.VARIANTS` maps their names to the loaded "
        "rules. Sizes at each variant's default table.",
        "",
        "| variant | rules | seats | roles | action space | observation | task |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, rules in sorted(mafia_env.VARIANTS.items()):
        n = rules.default_players
        spec = GameSpec.of(rules, n)
        roles = ", ".join(r.label for r in spec.roles)
        task = task_of(rules) or "-"
        lines.append(
            f"| [{name}]({name}.md) | {rules.title} | {rules.min_players}..{rules.max_players} "
            f"({n}) | {roles} | `Discrete({spec.action_size})` | "
            f"{ObsLayout(rules, n).size} | `{task}` |"
        )
    lines += [
        "",
        "Each page: the info table, every table size, the roles in three languages, the "
        "kinds of turn, the observation's pieces, the action segments, the rewards, every "
        "knob, the rule IDs with their tests, and a sample game narrated in English, Russian "
        "and Ukrainian.",
        "",
    ]
    return "\n".join(lines)


def seeds_page() -> str:
    """Return the page of the five seed documents, as written (Russian and Ukrainian)."""
    by_file = {source_file(r): name for name, r in mafia_env.VARIANTS.items()}
    lines = [
        "# The seed documents",
        "",
        "<!-- generated by scripts/docs/envpage.py from docs/rules/seeds/ -->",
        "",
        "The five source documents of the rule sets, as written (Russian and Ukrainian). "
        "[RULES.md](RULES.md) restates them in English with rule IDs; where the two differ, the "
        "seeds win.",
        "",
    ]
    for path in sorted(SEEDS.glob("*.txt")):
        variant = by_file.get(path.name)
        title = f"{path.name}: {variant.upper()}" if variant else path.name
        link = f" ([the {variant} page](../environments/{variant}.md))" if variant else ""
        lang = "uk" if "Правила гри" in path.read_text(encoding="utf-8") else "ru"
        lines += [f"## {title} {{#{seed_anchor(path.name)}}}", "", f"Rule set{link}.", ""]
        lines.append(f'<div lang="{lang}" markdown>')
        lines.append("")
        for para in re.split(r"\n\s*\n", path.read_text(encoding="utf-8").strip()):
            lines += [escape(" ".join(para.split())), ""]
        lines += ["</div>", ""]
    return "\n".join(lines)


def escape(text: str) -> str:
    """Return plain text that Markdown shows as written."""
    text = re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", text)
    return re.sub(r"^(\d+)\.", r"\1\\.", text)


__all__ = [
    "index_page",
    "load_sample",
    "piece_meanings",
    "rule_sections",
    "rule_tests",
    "seeds_page",
    "turn_meanings",
    "variant_page",
]
