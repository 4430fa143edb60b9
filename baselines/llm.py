"""A language model at the table: a `Policy` that plays a seat through a chat-completions API.

    load_policy("llm", variant="sport", model="qwen2.5-7b-instruct",
                base_url="http://localhost:8000/v1", api_key_env="OPENAI_API_KEY")

Any OpenAI-compatible server works (OpenAI, vLLM, llama.cpp, Ollama, ...): the calls go
through the ``openai`` package (extra ``llm``). The system prompt states the variant's rules
in the seat's language, written from the table's `Rules` (`baselines.prompt`), then the
seat's role and its goal; each move sends the seat's text observation (what the moderator
told it, and the numbered legal actions). A reply is read as models write it
(`mafia_env.text.read_reply`); one that names no legal action is answered with the error
and asked again (`retries`); a call that times out or fails is not asked again. Then the
`fallback` plays: the rule bot (default), a random or the first legal move, or an error.
Every call's latency and tokens, every invalid reply, timeout, error and fallback are
counted in `stats` (the arena reports them per policy and marks the games they touched).
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

from baselines.prompt import system_prompt
from mafia_env.actions import ActionLayout
from mafia_env.engine.roles import Role
from mafia_env.errors import ConfigError, missing_extra
from mafia_env.lang import DEFAULT, check_lang, table
from mafia_env.seating.policies import load_policy
from mafia_env.text import TextPolicy
from mafia_env.variants import get_variant

# What an LLMPolicy counts beyond TextPolicy's `STATS`.
USAGE = ("prompt_tokens", "completion_tokens", "latency_s")


def _pattern(template: str, fields: dict[str, str]) -> re.Pattern:
    """Return a regex that reads `fields` back out of a lang template ("Player {a}, ...")."""
    out = re.escape(template)
    for name, group in fields.items():
        out = out.replace(re.escape("{" + name + "}"), group)
    return re.compile(out)


class LLMPolicy(TextPolicy):
    """A seat played by a chat model behind an OpenAI-compatible chat-completions server."""

    def __init__(
        self,
        variant: str = "sport",
        num_players: int | None = None,
        seed: int = 0,
        *,
        model: str,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        temperature: float = 0.0,
        max_tokens: int | None = 256,
        timeout: float = 60.0,
        retries: int = 2,
        max_retries: int = 1,
        fallback: str = "rule",
        lang: str = DEFAULT,
        client: Any = None,
        name: str | None = None,
    ):
        check_lang(lang)
        self.rules = get_variant(variant)
        self.n = self.rules.default_players if num_players is None else num_players
        layout = ActionLayout(self.rules, self.n)
        backup = load_policy("rule", variant, self.n, seed=seed) if fallback == "rule" else None
        super().__init__(None, retries, lang, fallback, backup, seed, describe=layout.describe)
        self.model = model
        self.name = name or model
        self.temperature = temperature
        self.max_tokens = max_tokens
        if client is None:
            client = make_client(base_url, api_key_env, timeout, max_retries)
        self.client = client
        words = table(lang)
        self._you = _pattern(words.UI["you_are"], {"a": r"(\d+)", "n": r"(\d+)"})
        self._role = _pattern(words.EVENTS["ROLE"], {"a": r"(\d+)", "role": r"(.+?)"})
        self._roles = {name: Role[label.upper()] for label, name in words.ROLES.items()}
        self._system: tuple[tuple[int, Role | None], str] | None = None
        for key in USAGE:
            self.stats[key] = 0

    def system(self, prompt: str) -> str:
        """Return the system prompt for the seat and role the observation names."""
        you = self._you.search(prompt)
        seat = int(you.group(1)) if you else 0
        role = None
        for m in self._role.finditer(prompt):
            if int(m.group(1)) == seat:
                role = self._roles.get(m.group(2))
                break
        key = (seat, role)
        if self._system is None or self._system[0] != key:
            if role is None:
                raise ConfigError("the observation names no seat and role: is it a text one?")
            self._system = (key, system_prompt(self.rules, self.n, seat, role, self.lang))
        return self._system[1]

    def reply(self, prompt: str, tries: list[tuple[str, str]]) -> str:
        """Ask the model: the system prompt, the observation, and this move's rejected tries."""
        messages = [
            {"role": "system", "content": self.system(prompt)},
            {"role": "user", "content": prompt},
        ]
        for bad, error in tries:
            messages.append({"role": "assistant", "content": bad})
            messages.append({"role": "user", "content": error})
        options: dict[str, Any] = {"temperature": self.temperature}
        if self.max_tokens is not None:
            options["max_tokens"] = self.max_tokens
        start = time.perf_counter()
        try:
            response = self.client.chat.completions.create(
                model=self.model, messages=messages, **options
            )
        finally:
            self.stats["latency_s"] += time.perf_counter() - start
        usage = getattr(response, "usage", None)
        if usage is not None:
            self.stats["prompt_tokens"] += usage.prompt_tokens or 0
            self.stats["completion_tokens"] += usage.completion_tokens or 0
        return response.choices[0].message.content or ""


_CLIENTS: dict[tuple, Any] = {}  # one client (one connection pool) per server and settings


def make_client(
    base_url: str | None,
    api_key_env: str = "OPENAI_API_KEY",
    timeout: float = 60.0,
    max_retries: int = 1,
) -> Any:
    """Return an ``openai.OpenAI`` client; the API key is read from `api_key_env`.

    A local server (any `base_url`) may need no key: then a placeholder is sent. Seats with
    the same server and settings share one client (it is thread-safe).
    """
    try:
        import openai
    except ImportError as e:
        raise missing_extra(e, "the llm policy") from None
    key = os.environ.get(api_key_env)
    if not key:
        if base_url is None:
            raise ConfigError(f"set {api_key_env} to the API key (or give base_url of a server)")
        key = "unused"
    args = (key, base_url, timeout, max_retries)
    client = _CLIENTS.get(args)
    if client is None:
        client = _CLIENTS[args] = openai.OpenAI(
            api_key=key, base_url=base_url, timeout=timeout, max_retries=max_retries
        )
    return client


__all__ = ["USAGE", "LLMPolicy", "make_client"]
