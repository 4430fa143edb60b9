"""The bots a table server offers: named policies, and checkpoints from one folder if allowed.

A client names a bot; it never gives a path. The names are the policies of the registry
(`mafia_env.policy`: "random", and "rule", "ppo", ... from the baselines' plugin) and,
where the operator allows a folder of checkpoints (``--bot-dir``), the ``*.pt`` files
directly in it, by file name. A checkpoint is
read with ``torch.load(weights_only=True)``. Trained bots (the "ppo" checkpoints and the
folder's files) are loaded once per (bot, variant, table size) and shared by every seat and
table that plays them; loading and every bot's thinking run in worker threads, so the
server's event loop never waits on a model. A bot that cannot be loaded is reported to the
client by its name only: what went wrong on disk goes to the server's log.

The seats a host leaves to the default bot get ``league`` (the league-trained seat-filler);
where no league file is shipped for the variant and table size, or torch is not installed,
they get ``rule``, else ``random`` (`BotShelf.settle`, with a line in the log). The shelf
asks the policy registry, never the baselines package itself.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import itertools
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from mafia_env.errors import ConfigError, MafiaError
from mafia_env.policy import load_policy, policy_names
from mafia_env.table.config import DEFAULT_BOTS, TableConfig

log = logging.getLogger(__name__)
SHARED = ("ppo", "league")  # named bots that load a checkpoint: load once, share the network
NOT_BY_NAME = {"checkpoint", "llm"}  # a path's loader; a model needs its server's settings
_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="mafia-bot")


async def think(policy: Any, obs: Any, mask: Any) -> int:
    """Return a bot's action, chosen in a worker thread."""
    loop = asyncio.get_running_loop()
    return int(await loop.run_in_executor(_POOL, policy.act, obs, mask))


class BotShelf:
    """The bots one server offers, and the trained ones already loaded."""

    def __init__(self, bot_dir: str | Path | None = None):
        self.bot_dir = None if bot_dir is None else Path(bot_dir).resolve()
        if self.bot_dir is not None and not self.bot_dir.is_dir():
            raise ConfigError(f"--bot-dir {bot_dir} is not a folder")
        self._loaded: dict[tuple[str, str, int], Any] = {}
        self._lock = threading.Lock()

    def named(self) -> list[str]:
        """Return the registered policy names ("random" first) a host may seat by name."""
        names = set(policy_names()) - NOT_BY_NAME
        return sorted(names, key=lambda x: (x != "random", x))

    def files(self) -> list[str]:
        """Return the checkpoint files the operator's folder offers, by file name."""
        if self.bot_dir is None:
            return []
        return sorted(p.name for p in self.bot_dir.glob("*.pt") if p.is_file())

    def names(self) -> list[str]:
        """Return every bot a host may seat here."""
        return self.named() + self.files()

    def check(self, config: TableConfig) -> None:
        """Raise a ConfigError naming the bots offered unless every bot of `config` is one."""
        offered = self.names()
        wanted = [config.default_bot, *config.bots.values()]
        unknown = sorted({b for b in wanted if b not in offered})
        if unknown:
            where = "" if self.bot_dir else " (this server loads no checkpoint files)"
            raise ConfigError(
                f"unknown policy {', '.join(map(repr, unknown))}: this server seats only the "
                f"bots {', '.join(offered)}{where}"
            )

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
        """Return one seat's policy: trained ones share the loaded network."""
        if name not in SHARED and name not in self.files():
            try:
                return load_policy(name, variant=variant, num_players=n, seed=seed)
            except MafiaError:
                raise
            except Exception as e:
                log.exception("bot %r failed to load", name)
                raise ConfigError(f"bot {name!r} failed to load; the server's log says why") from e
        template = self._template(name, variant, n)
        seat = copy.copy(template)  # the network is shared; the random stream is the seat's
        seat.seed(seed)
        return seat

    def _template(self, name: str, variant: str, n: int) -> Any:
        key = (name, variant, n)
        with self._lock:
            if key not in self._loaded:
                source = name if name in SHARED else self.bot_dir / name
                try:
                    self._loaded[key] = load_policy(source, variant=variant, num_players=n)
                except Exception as e:
                    log.warning("bot %r cannot play %s with %d players: %s", name, variant, n, e)
                    raise ConfigError(
                        f"bot {name!r} cannot play {variant} with {n} players (a trained bot "
                        "plays the variant and table size it was trained for; the server's "
                        "log says more)"
                    ) from None
            return self._loaded[key]


__all__ = ["BotShelf", "think"]
