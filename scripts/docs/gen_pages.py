"""Write the site's generated pages while MkDocs builds it (the mkdocs-gen-files plugin).

- ``environments/*.md``: one page per rule set, and their index (`envpage`);
- ``rules/seeds.md``: the seed documents, as written;
- ``api/*.md``: the API reference, one page per package, every public module in it, rendered
  by mkdocstrings from the docstrings;
- ``results.md`` is written by hand; its tables come from ``results/`` here (`resultpage`).

Run by ``mkdocs build`` (``make docs``); nothing it writes is committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import mkdocs_gen_files

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import apipages  # noqa: E402
import envpage  # noqa: E402
import resultpage  # noqa: E402

import mafia_env  # noqa: E402

tested = envpage.rule_tests()
for name, rules in sorted(mafia_env.VARIANTS.items()):
    with mkdocs_gen_files.open(f"environments/{name}.md", "w") as f:
        f.write(envpage.variant_page(rules, tested))
    mkdocs_gen_files.set_edit_path(f"environments/{name}.md", f"mafia_env/variants/{name}.yaml")
with mkdocs_gen_files.open("environments/index.md", "w") as f:
    f.write(envpage.index_page())
with mkdocs_gen_files.open("rules/seeds.md", "w") as f:
    f.write(envpage.seeds_page())
for page, text in apipages.pages().items():
    with mkdocs_gen_files.open(f"api/{page}", "w") as f:
        f.write(text)
for page, text in resultpage.pages().items():
    with mkdocs_gen_files.open(page, "w") as f:
        f.write(text)
