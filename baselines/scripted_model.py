"""A scripted "model" behind a chat-completions HTTP server on the loopback.

    python -m baselines.scripted_model --port 8099 [--script messy] [--seconds 600]

`ChatServer(script)` serves ``POST /v1/chat/completions`` on 127.0.0.1 (a free port unless
given) from a thread; `script(messages, rng) -> (reply, delay_s)` answers each request. The
scripts answer as chat models do: a number in prose, markdown or JSON, with table talk,
sometimes nonsense, sometimes too slowly. It is the stand-in model of the tests and of the
arena's smoke run (configs/arena/sport-scripted.yaml); it plays uniformly among the legal
actions, so it rates like ``random``. Use it as a context manager: the server stops on exit.
Standard library only.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Script = Callable[[list[dict], random.Random], tuple[str, float]]


def menu(messages: list[dict]) -> list[str]:
    """Return the numbered legal actions of the last observation in `messages`."""
    for m in reversed(messages):
        if m["role"] == "user" and re.search(r"^1\. ", m["content"], re.M):
            return re.findall(r"^\d+\. (.*)$", m["content"], re.M)
    return []


def well_formed(messages: list[dict], rng: random.Random) -> tuple[str, float]:
    """Always a legal choice, written in one of the ways models write it."""
    choices = menu(messages)
    k = rng.randrange(len(choices)) + 1
    forms = [
        f"{k}",
        f"**{k}**",
        f"I choose {k}.",
        f"Answer: {k}",
        f"My choice: {k}. Say: I have watched player {rng.randrange(1, 10)} closely.",
        json.dumps({"action": k, "say": "Trust me."}),
        f"({k})",
        choices[k - 1].upper(),
    ]
    return rng.choice(forms), 0.0


def messy(slow: float = 0.0, p_slow: float = 0.0) -> Script:
    """Well-formed replies, with nonsense a quarter of the time and, at `p_slow`, a delay."""

    def script(messages: list[dict], rng: random.Random) -> tuple[str, float]:
        roll = rng.random()
        if roll < p_slow:
            return "1", slow
        if roll < 0.25 + p_slow:
            return rng.choice(["Hmm, let me think about it.", "0", "1 or 2", "**"]), 0.0
        return well_formed(messages, rng)

    return script


class ChatServer:
    """A chat-completions server on the loopback that answers from a script."""

    def __init__(self, script: Script = well_formed, seed: int = 0, port: int = 0):
        self.script = script
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(size) or b"{}")
                if not self.path.endswith("/chat/completions"):
                    self.send_error(404)
                    return
                with server.lock:
                    server.requests.append(body)
                    reply, delay = server.script(body["messages"], server.rng)
                if delay:
                    time.sleep(delay)
                prompt = sum(len(m["content"].split()) for m in body["messages"])
                data = json.dumps(
                    {
                        "id": f"chatcmpl-{len(server.requests)}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body.get("model", "scripted"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {
                            "prompt_tokens": prompt,
                            "completion_tokens": len(reply.split()),
                            "total_tokens": prompt + len(reply.split()),
                        },
                    }
                ).encode()
                try:
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout)

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


SCRIPTS: dict[str, Script] = {"well_formed": well_formed, "messy": messy()}


def main(argv: list[str] | None = None, prog: str = "python -m baselines.scripted_model") -> int:
    """Serve a scripted model on the loopback for `--seconds` (then stop)."""
    from mafia_env.commands import parse, parser

    p = parser(prog, "Serve a scripted stand-in chat model on 127.0.0.1 (the arena's smoke run).")
    p.add_argument("--port", type=int, default=8099, help="the port (0: a free one)")
    p.add_argument("--script", choices=sorted(SCRIPTS), default="well_formed", help="its replies")
    p.add_argument("--seed", type=int, default=0, help="seed of its choices")
    p.add_argument("--seconds", type=float, default=600.0, help="stop after this long")
    args = parse(p, argv)
    if isinstance(args, int):
        return args
    with ChatServer(SCRIPTS[args.script], args.seed, args.port) as server:
        print(f"serving a scripted model at {server.url}", flush=True)
        time.sleep(args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
