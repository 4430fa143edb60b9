"""The bots a table server offers: named policies, the operator's language models, and
checkpoints from one folder if allowed.

A client names a bot; it never gives a path, a URL or a key. The names are the policies of
the registry (`mafia_env.seating.policies`: "random", and "rule", "ppo", "ismcts", ... from the
baselines' plugin), the language models the operator set up when he started the server
(``--llm NAME=BASE_URL,MODEL[,KEY_ENV]``: `parse_llm`; each seat gets its own ``llm``
policy, which reads its text observation and falls back on the rule bot, its stats logged
at the end of the game), and, where the operator allows a folder of checkpoints
(``--bot-dir``), the ``*.pt`` files directly in it that load, by file name (a symlink out
of the folder is no file of it). A checkpoint is read with ``torch.load(weights_only=True)``.
Trained bots (the "ppo" checkpoints and the folder's files) are loaded once per (bot,
variant, table size) and shared by every seat and table that plays them; loading and every
bot's thinking run in worker threads (`think`, which seats the bot through
`mafia_env.seating.games.ask` with the observation it takes), so the server's event loop never waits
on a model. A bot that cannot be loaded is reported to the client by its name only: what
went wrong on disk goes to the server's log.

The seats a host leaves to the default bot get ``filler`` (the seat-filler of the variant's
benchmark task); where no filler file is shipped for the variant and table size they get
``league`` (the league-trained bot), then ``rule`` (also where torch is not installed), else
``random`` (`BotShelf.settle`, with a line in the log). The shelf asks the policy registry,
never the baselines package itself.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import itertools
import logging
import os
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from mafia_env.errors import ConfigError, MafiaError
from mafia_env.seating.games import ask
from mafia_env.seating.policies import load_policy, policy_names
from mafia_env.table.settings import DEFAULT_BOTS, HostError, TableConfig

log = logging.getLogger(__name__)
# named bots that load a checkpoint: load once, share the network
SHARED = ("ppo", "league", "filler")
NOT_BY_NAME = {"checkpoint", "llm"}  # a path's loader; a model needs its server's settings
_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="mafia-bot")


async def think(env: Any, seat: int, policy: Any) -> Any:
    """Return the move of the bot at seat index `seat`, chosen in a worker thread from the
    observation it takes (`mafia_env.seating.games.ask`: a vector, a text, an information set)."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(_POOL, ask, env, seat, policy)


LLM_FORM = "NAME=BASE_URL,MODEL[,KEY_ENV]"
_MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


@dataclasses.dataclass(frozen=True)
class LLMEndpoint:
    """A language model the operator offers: hosts seat it by `name` only."""

    name: str
    base_url: str
    model: str
    key_env: str | None = None  # the environment variable holding its API key; None: none


def parse_llm(text: str) -> LLMEndpoint:
    """Read one ``--llm NAME=BASE_URL,MODEL[,KEY_ENV]``; a bad one is a ConfigError."""
    name, eq, rest = str(text).partition("=")
    parts = [p.strip() for p in rest.split(",")]
    if not eq or len(parts) not in (2, 3) or not all(parts):
        raise ConfigError(f"--llm takes {LLM_FORM}; got {text!r}")
    if not _MODEL_NAME.fullmatch(name):
        raise ConfigError(
            f"--llm {name!r}: a model's name is 1..40 letters, digits, '-' or '_' (the name "
            "hosts choose it by)"
        )
    if not parts[0].startswith(("http://", "https://")):
        raise ConfigError(
            f"--llm {name}: BASE_URL begins with http:// or https://; got {parts[0]!r}"
        )
    return LLMEndpoint(name, parts[0], parts[1], parts[2] if len(parts) == 3 else None)


class BotShelf:
    """The bots one server offers, and the trained ones already loaded."""

    def __init__(self, bot_dir: str | Path | None = None, llms: Any = ()):
        self.bot_dir = None if bot_dir is None else Path(bot_dir).resolve()
        if self.bot_dir is not None and not self.bot_dir.is_dir():
            raise ConfigError(f"--bot-dir {bot_dir} is not a folder")
        self._loaded: dict[tuple, Any] = {}
        self._lock = threading.Lock()
        # the folder's files: name -> ((mtime, size), (variant, n) it plays, or None)
        self._checked: dict[str, tuple[tuple[int, int], tuple[str, int] | None]] = {}
        self._loaded_once: set[str] = set()  # files offered once (to say when one goes bad)
        self.llms: dict[str, LLMEndpoint] = {}
        taken = set(self.named())
        for e in llms:
            if e.name in self.llms:
                raise ConfigError(f"--llm {e.name!r} is given twice")
            if e.name in taken:
                raise ConfigError(f"--llm {e.name!r}: {e.name!r} is a bot's name already")
            if e.key_env is not None and not os.environ.get(e.key_env):
                raise ConfigError(
                    f"--llm {e.name}: the environment variable {e.key_env} is not set (it "
                    "holds the model's API key)"
                )
            self.llms[e.name] = e
        self.files()  # read the folder now, before the server takes requests

    def named(self) -> list[str]:
        """Return the registered policy names ("random" first) a host may seat by name."""
        names = set(policy_names()) - NOT_BY_NAME
        return sorted(names, key=lambda x: (x != "random", x))

    def models(self) -> list[str]:
        """Return the names of the operator's language models."""
        return sorted(self.llms)

    def files(self) -> list[str]:
        """Return the checkpoint files of the operator's folder that load, by file name.

        A file is read once (and again when it changes); one that does not load, or a
        symlink that leads out of the folder, is not offered (the log says why).
        """
        if self.bot_dir is None:
            return []
        out = []
        for p in sorted(self.bot_dir.glob("*.pt")):
            if self._plays(p) is not None:
                out.append(p.name)
                self._loaded_once.add(p.name)
        return out

    def _plays(self, path: Path) -> tuple[str, int] | None:
        """Return the (variant, table size) the folder's file `path` plays, None if none."""
        try:
            real = path.resolve(strict=True)
            st = real.stat()
        except OSError:
            return None
        if real.parent != self.bot_dir or not real.is_file():
            return None  # a symlink out of the folder (or a folder named *.pt)
        key = (st.st_mtime_ns, st.st_size)
        known = self._checked.get(path.name)
        if known is not None and known[0] == key:
            return known[1]
        plays = self._read_table(path)
        self._checked[path.name] = (key, plays)
        return plays

    def _read_table(self, path: Path) -> tuple[str, int] | None:
        """Read which table a checkpoint was trained for, and load it through the registry."""
        try:
            import torch

            head = torch.load(path, map_location="cpu", weights_only=True)
            variant, n = head["variant"], int(head["num_players"])
            load_policy(path.resolve(), variant=variant, num_players=n)
        except Exception as e:
            log.warning("bot folder: %s does not load, not offered: %s", path.name, e)
            return None
        return variant, n

    def names(self) -> list[str]:
        """Return every bot a host may seat here."""
        return self.named() + self.models() + self.files()

    def check(self, config: TableConfig) -> None:
        """Raise a ConfigError naming the bots offered unless every bot of `config` is one."""
        offered = self.names()
        wanted = [config.default_bot, *config.bots.values()]
        unknown = sorted({b for b in wanted if b not in offered})
        gone = [b for b in unknown if b in self._loaded_once]
        if gone:
            raise HostError("bot_gone", name=repr(gone[0]))
        if unknown:
            key = "bot_unknown" if self.bot_dir else "bot_unknown_files"
            names = ", ".join(map(repr, unknown))
            raise HostError(key, names=names, offered=", ".join(offered))

    def default_name(self, name: str | None = None) -> str:
        """Return the default bot the page offers: `name`, else the first of DEFAULT_BOTS here.

        Seats left to it may still get the next of DEFAULT_BOTS at a table it cannot play.
        """
        if name is not None:
            return name
        offered = self.names()
        return next((b for b in DEFAULT_BOTS if b in offered), DEFAULT_BOTS[-1])

    def settle(self, config: TableConfig, n: int) -> TableConfig:
        """Return `config` with the default bot one that can play its table.

        A default bot of `DEFAULT_BOTS` that cannot play the table (not installed, no file
        for the variant and size, torch missing) gives way to the next of them, with a log line.
        """
        name = config.default_bot
        if name not in DEFAULT_BOTS:
            return config
        chain = DEFAULT_BOTS[DEFAULT_BOTS.index(name) :]
        for name, then in itertools.pairwise(chain):
            why = self._cannot_play(name, config.variant, n)
            if why is None:
                break
            log.info(
                "default bot %r cannot play %s with %d players (%s): %r sits instead",
                name,
                config.variant,
                n,
                why,
                then,
            )
        else:
            name = chain[-1]
        if name == config.default_bot:
            return config
        return dataclasses.replace(config, default_bot=name)

    async def settled(self, config: TableConfig, n: int) -> TableConfig:
        """`settle` in a worker thread: trying a trained bot loads it."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_POOL, self.settle, config, n)

    def _cannot_play(self, name: str, variant: str, n: int) -> str | None:
        """Return why bot `name` cannot sit at a (variant, n) table, or None if it can."""
        if name not in self.names():
            return "not installed"
        try:
            self.policy(name, variant, n, 0)
        except MafiaError as e:
            return str(e)
        return None

    def seat_bots(self, config: TableConfig, n: int, seed: int) -> dict[int, Any]:
        """Return a policy for every bot seat (0-based); seat s is seeded with seed + s."""
        self.check(config)
        humans = {h - 1 for h in config.humans}
        return {
            s: self.policy(config.bots.get(s + 1, config.default_bot), config.variant, n, seed + s)
            for s in range(n)
            if s not in humans
        }

    async def load(self, config: TableConfig, n: int, seed: int) -> dict[int, Any]:
        """`seat_bots` in a worker thread: a trained bot's first load takes a second or two."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_POOL, self.seat_bots, config, n, seed)

    def policy(self, name: str, variant: str, n: int, seed: int) -> Any:
        """Return one seat's policy: trained ones share the loaded network; each seat of a
        language model has its own (its own stats), over one client per server."""
        if name in self.llms:
            e = self.llms[name]
            model = load_policy(
                "llm",
                variant=variant,
                num_players=n,
                seed=seed,
                model=e.model,
                base_url=e.base_url,
                api_key_env=e.key_env or "",  # none: no key is sent (a local server)
            )
            model.name = e.name  # its stats in the log name it as hosts know it
            return model
        if name not in SHARED and name not in self.files():
            try:
                return load_policy(name, variant=variant, num_players=n, seed=seed)
            except MafiaError:
                raise
            except Exception as e:
                log.exception("bot %r failed to load", name)
                raise HostError("bot_failed", name=repr(name)) from e
        template = self._template(name, variant, n)
        seat = copy.copy(template)  # the network is shared; the random stream is the seat's
        seat.seed(seed)
        return seat

    def _template(self, name: str, variant: str, n: int) -> Any:
        key: tuple = (name, variant, n)
        if name not in SHARED:  # a file: what it plays, and its version on disk
            path = self.bot_dir / name
            plays = self._plays(path)
            if plays is None:
                raise HostError("bot_gone", name=repr(name))
            if plays != (variant, n):
                other, k = plays
                raise HostError(
                    "bot_plays_other", name=repr(name), other=other, k=k, variant=variant, n=n
                )
            key += self._checked[name][0]
        with self._lock:
            if key not in self._loaded:
                source = name if name in SHARED else (self.bot_dir / name).resolve()
                try:
                    self._loaded[key] = load_policy(source, variant=variant, num_players=n)
                except Exception as e:
                    log.warning("bot %r cannot play %s with %d players: %s", name, variant, n, e)
                    if name not in SHARED:
                        raise HostError("bot_gone", name=repr(name)) from None
                    raise HostError(
                        "bot_cannot_play", name=repr(name), variant=variant, n=n
                    ) from None
            return self._loaded[key]


__all__ = ["LLM_FORM", "BotShelf", "LLMEndpoint", "parse_llm", "think"]
