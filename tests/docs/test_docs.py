"""The documentation says what the code does: sample games, generated pages, guides, versions.

`make docs` builds the site strictly (a warning or a broken link fails it); these tests check
what a build cannot: the recorded sample games still play to their narration, the generated
pages agree with the environment's own spaces, every Python block of the guides runs, every
command a guide shows names a module, script and config that exist, the charts were drawn from
the result files shipped, and the version table names the versions the code carries.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import sys
from pathlib import Path

import pytest
import yaml

import mafia_env
from mafia_env.lang import LANGS
from mafia_env.narrate import ALL, narrate

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
sys.path.insert(0, str(ROOT / "scripts" / "docs"))

import apipages  # noqa: E402
import envpage  # noqa: E402

SAMPLES = ROOT / "tests" / "data" / "golden" / "samples"
SHARED = next(
    (p / "shared" for p in (ROOT.parent, ROOT.parent.parent) if (p / "shared").is_dir()),
    ROOT.parent / "shared",
)
REGENERATE = "python scripts/docs/sample_games.py"
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.M | re.S)


def written_pages() -> list[Path]:
    """Return the site's written pages (the generated ones are not on disk) and the README."""
    return [*sorted(DOCS.rglob("*.md")), ROOT / "README.md"]


def blocks(path: Path, *langs: str) -> list[str]:
    return [body for lang, body in FENCE.findall(path.read_text(encoding="utf-8")) if lang in langs]


# ------------------------------------------------------------------ sample games


@pytest.mark.parametrize("variant", sorted(mafia_env.VARIANTS))
def test_sample_game_replays_to_its_narration_in_every_language(variant):
    """The sample game on each rule set's page (a record) plays back, move by move, to the
    moderator's narration stored beside it, in en, ru and uk."""
    path = SAMPLES / f"{variant}.json"
    assert path.exists(), f"no sample game for {variant}: run {REGENERATE} {variant}"
    data = json.loads(path.read_text(encoding="utf-8"))
    try:
        env = mafia_env.replay(data["record"])
    except mafia_env.RecordError as e:
        pytest.fail(f"{path.name} no longer replays ({e}): the rules changed; run {REGENERATE}")
    game = env.unwrapped.game
    for lang in LANGS:
        text = "\n".join(narrate(game.events, ALL, lang, game.talk)) + "\n"
        stored = (SAMPLES / f"{variant}_{lang}.txt").read_text(encoding="utf-8")
        assert text == stored, f"{variant}_{lang}.txt differs from the replay: run {REGENERATE}"
    assert env.winner == data["record"]["winner"]


# ------------------------------------------------------------------ generated pages


@pytest.mark.parametrize("variant", sorted(mafia_env.VARIANTS))
def test_rule_set_page_sizes_are_the_environments_spaces(variant):
    """The page's action and observation sizes, for every table size, are those of the
    AEC and parallel envs built at that size."""
    rules = mafia_env.VARIANTS[variant]
    for n, _, actions, obs in envpage.sizes(rules):
        env = mafia_env.env(variant, num_players=n)
        agent = env.possible_agents[0]
        assert env.action_space(agent).n == actions
        assert env.observation_space(agent)["observation"].shape == (obs,)
        par = mafia_env.parallel_env(variant, num_players=n)
        assert par.action_space(agent).n == actions + 1


@pytest.mark.parametrize("variant", sorted(mafia_env.VARIANTS))
def test_rule_set_page_explains_every_piece_turn_and_knob(variant):
    """Every observation piece and turn has a comment in the code for the page to show (add
    one beside it in observe.py or engine/kinds.py), and every knob is in the table."""
    page = envpage.variant_page(mafia_env.VARIANTS[variant])
    assert envpage.MISSING not in page
    for knob in mafia_env.engine.rules.KNOBS:
        assert f"| `{knob}` |" in page
    assert "## Sample game" in page and '=== "Русский"' in page


def test_every_rule_id_of_rules_md_is_on_a_page():
    """Each rule ID of RULES.md is listed on the page of its variant (COMMON on all)."""
    sections = envpage.rule_sections()
    pages = {v: envpage.variant_page(r) for v, r in mafia_env.VARIANTS.items()}
    for key, (_, rules, _) in sections.items():
        for r in rules:
            where = pages.values() if key == "COMMON" else [pages[key.lower()]]
            assert all(f"**{r.rid}**" in p for p in where), r.rid


def test_the_site_lists_every_generated_page():
    """mkdocs.yml's nav names every rule set's page and every package's API page."""
    nav = json.dumps(yaml.safe_load((ROOT / "mkdocs.yml").read_text())["nav"])
    for variant in mafia_env.VARIANTS:
        assert f"environments/{variant}.md" in nav, f"add environments/{variant}.md to the nav"
    for package in apipages.packages():
        page = f"api/{apipages.page_name(package)}"
        assert page in nav, f"add {page} to mkdocs.yml's nav"


def test_rules_copy_is_the_shared_one():
    """docs/rules/ holds copies of shared/RULES.md and the seeds (a clone has no shared/)."""
    if not (SHARED / "RULES.md").exists():
        pytest.skip("no shared/ beside the checkout")
    fix = "cp ../shared/RULES.md docs/rules/ && cp ../shared/seeds/*.txt docs/rules/seeds/"
    assert (DOCS / "rules" / "RULES.md").read_bytes() == (SHARED / "RULES.md").read_bytes(), fix
    for seed in (SHARED / "seeds").glob("*.txt"):
        assert (DOCS / "rules" / "seeds" / seed.name).read_bytes() == seed.read_bytes(), fix


def test_charts_were_drawn_from_the_result_files_shipped():
    pytest.importorskip("PIL")
    import charts

    assert charts.stale() == [], "run python scripts/docs/charts.py"


# ------------------------------------------------------------------ guides


def needs(path: Path) -> list[str]:
    """Return the modules a page says its Python blocks need (``<!-- needs: a b -->``)."""
    m = re.search(r"<!-- needs: ([\w. ]+) -->", path.read_text(encoding="utf-8"))
    return m.group(1).split() if m else []


PYTHON_PAGES = [p for p in written_pages() if blocks(p, "python")]


@pytest.mark.parametrize("path", PYTHON_PAGES, ids=[str(p.relative_to(ROOT)) for p in PYTHON_PAGES])
def test_python_blocks_of_a_page_run(path, monkeypatch, tmp_path):
    """Every ```python block of a page runs, in order, in one namespace (as a reader would
    paste them), from the repository's root."""
    for module in needs(path):
        pytest.importorskip(module)
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MAFIA_DOCS_TMP", str(tmp_path))
    namespace: dict = {"__name__": "__docs__"}
    for i, body in enumerate(blocks(path, "python")):
        try:
            exec(compile(body, f"{path.name}[block {i}]", "exec"), namespace)
        except Exception as e:
            pytest.fail(f"{path.relative_to(ROOT)}, python block {i}: {type(e).__name__}: {e}")


def commands(text: str) -> list[list[str]]:
    """Return the command lines of shell blocks, split into words (comments dropped)."""
    out = []
    for line in text.replace("\\\n", " ").splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith("#"):
            try:
                out.append(shlex.split(line))
            except ValueError:
                continue
    return out


SHELL = [(p, c) for p in written_pages() for b in blocks(p, "bash") for c in commands(b)]


def test_commands_in_the_guides_name_real_modules_scripts_and_files():
    """Each `python -m M` names a module that exists, each `mafia C` a command, each script
    and `--config` file too (a config by path, or by a shipped config's name)."""
    from baselines.cli import COMMANDS
    from baselines.resources import config_path

    assert SHELL
    for path, words in SHELL:
        where = f"{path.relative_to(ROOT)}: {' '.join(words)}"
        for i, w in enumerate(words):
            if w == "-m" and i > 0 and words[i - 1].endswith(("python", "python3")):
                assert importlib.util.find_spec(words[i + 1]) is not None, where
            if w == "mafia" and i + 1 < len(words) and not words[i + 1].startswith("-"):
                assert words[i + 1] in COMMANDS, where
            if re.fullmatch(r"scripts/[\w/]+\.py", w):
                assert (ROOT / w).exists(), where
            if w in ("--config", "--readme") and i + 1 < len(words):
                name = words[i + 1]
                assert (ROOT / name).exists() or config_path(name).is_file(), where


# ------------------------------------------------------------------ README and versions


def test_readme_fits_two_screens_and_links_to_the_site():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text) < 10_000
    links = [x for x in re.findall(r"\]\(([^)#]+)", text) if not x.startswith("http")]
    assert any(x.startswith("docs/guides/") for x in links)
    for link in links:  # GitHub shows the README: a link must be to a file in the repository
        assert (ROOT / link).exists(), f"README links to {link}, which is not committed"


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_a_headline_table_is_the_shipped_results(page):
    """Every headline the README and the site's home page show is the latest version's
    (results/vN, N = `mafia_env.tasks.LATEST`), as the benchmark wrote it, for every policy
    there and every task."""
    latest = ROOT / "results" / f"v{mafia_env.tasks.LATEST}"
    text = (ROOT / page).read_text(encoding="utf-8")
    lines = text.split("## Headline results", 1)[1].split("\n## ", 1)[0].splitlines()
    (head,) = [ln for ln in lines if ln.startswith("| policy |")]
    tasks = [c.strip() for c in head.strip("|").split("|")][1:]
    rows = [ln for ln in lines if ln.startswith("| `")]
    assert len(rows) == len(list(latest.glob("*.json")))
    for line in rows:
        cells = [c.strip() for c in line.strip("|").split("|")]
        policy = cells[0].strip("`")
        shipped = json.loads((latest / f"{policy}.json").read_text())
        by_task = {r["task"]: r["headline"] for r in shipped}
        assert set(tasks) == set(by_task) == set(mafia_env.TASKS)
        for task, cell in zip(tasks, cells[1:], strict=True):
            assert cell == f"{by_task[task]:.3f}", (policy, task)


def release_table() -> dict[str, dict[str, str]]:
    """Return the CHANGELOG's table of releases: release -> column -> cell (no backticks)."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if ln.startswith("|")]
    head = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = {}
    for line in lines[2:]:  # after the head and its rule
        cells = [c.strip().strip("`") for c in line.strip("|").split("|")]
        rows[cells[0]] = dict(zip(head, cells, strict=True))
    return rows


def test_the_release_table_names_the_formats_the_code_writes_and_reads():
    """The CHANGELOG's row of this package version says what the code carries: the env's
    name and, per saved file, the format written and (in brackets) the formats read."""
    from mafia_env.records import FORMAT, FORMATS
    from mafia_env.tasks import LATEST, TASKS_BY_VERSION

    row = release_table().get(mafia_env.__version__)
    assert row, f"CHANGELOG.md's table has no row for {mafia_env.__version__}"
    name = mafia_env.MafiaEnv.metadata["name"]
    assert mafia_env.MafiaParallelEnv.metadata["name"] == name.replace("mafia_", "mafia_parallel_")
    source = (ROOT / "baselines" / "ppo" / "checkpoint.py").read_text()
    sidecar = (ROOT / "baselines" / "rllib" / "restore.py").read_text()
    got = {
        "environment": name,
        "game records": f"{FORMAT} ({', '.join(map(str, FORMATS))})",
        "benchmark tasks": f"{LATEST} ({', '.join(map(str, sorted(TASKS_BY_VERSION)))})",
        "observation layout": re.search(r"OBS_FORMAT_VERSION = (\d+)", source).group(1),
        "PPO checkpoints": re.search(r'CHECKPOINT_FORMAT = "([^"]+)"', source).group(1),
        "RLlib sidecar": re.search(r"SIDECAR_VERSION = (\d+)", sidecar).group(1),
    }
    for column, value in got.items():
        assert row.get(column) == value, (column, row.get(column), value)


def test_the_package_version_is_written_once_and_heads_the_changelog():
    """pyproject.toml reads the version from `mafia_env.__version__` (written nowhere else),
    the newest release of the CHANGELOG is that version, and every release in its table has
    its section of notes."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = pyproject.split("[project]", 1)[1].split("\n[", 1)[0]
    assert not re.search(r"^version\s*=", project, re.M), "pyproject.toml sets a version"
    assert re.search(r'^dynamic = \[[^]]*"version"', project, re.M)
    assert re.search(r'^version = \{attr = "mafia_env.__version__"\}', pyproject, re.M)
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    sections = re.findall(r"^## \[([\d.]+)\]", text, re.M)
    assert sections and sections[0] == mafia_env.__version__, sections
    assert list(release_table()) == sections
    assert re.fullmatch(r"\d+\.\d+\.\d+", mafia_env.__version__)


def test_the_recipes_table_names_every_recipe_and_the_versions_pinned():
    """docs/guides/libraries.md lists every recipe of scripts/recipes, and each version the
    recipes' extras pin in pyproject.toml."""
    page = (DOCS / "guides" / "libraries.md").read_text(encoding="utf-8")
    for path in (ROOT / "scripts" / "recipes").glob("*.py"):
        if path.stem != "common":
            assert f"scripts/recipes/{path.name}" in page, path.name
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    extras = ("recipes", "tianshou", "agilerl", "rllib")
    for extra in extras:
        block = re.search(rf"^{extra} = \[(.*?)\]", pyproject, re.M | re.S).group(1)
        for name, version in re.findall(r'"([\w-]+)(?:\[\w+\])?==([\d.]+)"', block):
            if name not in ("torch", "peft"):
                assert version in page, f"{name}=={version} (extra {extra}) is not in the table"
