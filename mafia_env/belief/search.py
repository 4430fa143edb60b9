"""Ask the engine: which hidden choices reproduce what one seat saw in one segment of a game.

A *segment* is one public move (or a moderator's call, or the deal itself) and everything
the engine does after it until the next public turn: the eliminations it causes, the win
check, and, when a night follows, every hidden night turn and the morning. `Search` starts
from a copy of the game before the segment under a hypothetical deal (`swap_deal`) and plays
the segment with the engine, branching over every choice the seat cannot see (the hidden
turns' actions and the engine's chance draws), keeping the branches in which the seat sees
exactly the events it saw (and, at its own turns, the options it had). Nothing here restates
a rule: what a choice does is what `Game.apply` does.

What keeps the search small (each is argued in a comment where it is used, and checked
against a search without it by tests/belief/test_belief.py on small tables of every variant):

- Symmetry: targets that the segment cannot tell apart (the same role under the deal, named
  in no event the seat saw, in the same places of tonight's choices) lead to the same view;
  one of each kind is tried, standing for all of them (``members``).
- Duplicates: branches that reach the same state with the same view so far are merged.
- The mafia's shots (SPORT-N1, CITY-N3/N4, CLUB-N1, ONLINE-N4, FORUM-N1) matter only through
  whether the members agree (and on whom and on which executor): the unseen members are tried
  all on one target, or split; or, while a don lives (CITY-N3), through his shot alone: his
  is tried per kind of target, the others' each once (`Search._dons_word`).
- The free hunt (FORUM-N3..N6) matters only through the request drawn by lot and whether the
  doctor asked: the unseen town players are tried with nobody, one, or the doctor and one
  more asking.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable
from typing import Any

from mafia_env.engine.events import PUBLIC, Cause, Ev
from mafia_env.engine.game import Game
from mafia_env.engine.kinds import PUBLIC_TURNS, Act, Turn
from mafia_env.engine.roles import Role, Team
from mafia_env.engine.state import Night, Speech, Today, Vote

_TALK = int(Ev.TALK)
_MODERATOR = {int(Ev.FOUL), int(Ev.TERMINATED)}


class Chance:
    """The engine's `rng` in a search: draws follow a script; draws past it take 0.

    ``calls`` lists the range of every draw made, so that the search can try the others.
    """

    __slots__ = ("bad", "calls", "i", "script")

    def __init__(self, script: tuple[int, ...] = ()):
        self.script = script
        self.i = 0
        self.calls: list[int] = []
        self.bad = False  # a scripted draw outside the range asked: no such branch

    def randrange(self, k: int) -> int:
        self.calls.append(k)
        v = self.script[self.i] if self.i < len(self.script) else 0
        self.i += 1
        if v >= k:
            self.bad = True
            return 0
        return v

    def choice(self, seq: Any) -> Any:
        return seq[self.randrange(len(seq))]

    def shuffle(self, x: Any) -> None:  # the deal is given in a search
        pass

    def getrandbits(self, k: int) -> int:
        return 0

    def random(self) -> float:
        return 0.0


def fork(g: Game, chance: Chance | None = None) -> Game:
    """Return a copy of `g` with no events or inputs yet (a search's node)."""
    h = g.clone(rng=chance if chance is not None else Chance())
    h.events = []
    h.inputs = []
    return h


def swap_deal(g: Game, deal: tuple[Role, ...]) -> None:
    """Give `g` the deal `deal`, as if it had been dealt from the start.

    The fields of the game that follow from the deal (tests/belief/test_belief.py compares them with
    a game dealt `deal`, so that a field added to the engine cannot be missed here).
    """
    g.roles = tuple(deal)
    g.teams = teams = tuple(r.team for r in deal)
    g.mafia_mask = sum(1 << s for s, t in enumerate(teams) if t is Team.MAFIA)
    alive = [0, 0, 0]
    for s in g.alive_seats:
        alive[teams[s]] += 1
    g.team_alive = alive


def relax_hidden(g: Game, role: Role | None) -> None:
    """Forget the hidden state a seat of `role` cannot know: let it be whatever allows most.

    A seat that is not the doctor does not know the doctor's last heal or his self-heals: the
    search lets the doctor heal anyone (a deal is then ruled out only if no heal at all could
    explain what the seat saw; the doctor's limits across nights are not followed for the
    other seats). A seat that is not of the mafia does not see whether the don introduced
    himself (ONLINE-N2), which changes nothing it sees.
    """
    if role is not Role.DOCTOR:
        g.heal_prev = -1
        g.self_heals = 0
    if role is None or role.team is not Team.MAFIA:  # (None: the table's view)
        g.don_introduced = True


_SKIP = frozenset({"events", "inputs", "talk", "rng", "rules", "claim_options", "n", "seed"})


_DATA = (Today, Speech, Vote, Night)
_DATA_FIELDS = {t: t.__slots__ for t in _DATA}


def _flat(v: Any) -> Any:
    """Return a field's value as a hashable one (its lists hold ints or tuples of ints)."""
    t = type(v)
    if t is list or t is deque:
        return tuple(v)
    if t is dict:
        return tuple(sorted(v.items()))
    return v


_CONVERTERS: list[tuple[str, Any]] = []  # (field, how to make it hashable), made on first use


def _converter(v: Any) -> Any:
    t = type(v)
    fields = _DATA_FIELDS.get(t)
    if fields is not None:
        return lambda x: tuple([_flat(getattr(x, f)) for f in fields])
    if t is list or t is deque:
        return tuple
    if t is dict:
        return lambda x: tuple(sorted(x.items()))
    return None


def state_key(g: Game) -> tuple:
    """Return the game's whole state (not its events, inputs or chance) as a hashable value."""
    d = g.__dict__
    if len(_CONVERTERS) != len(d) - len(_SKIP & d.keys()):
        _CONVERTERS[:] = [(k, _converter(v)) for k, v in d.items() if k not in _SKIP]
    return tuple([d[k] if f is None else f(d[k]) for k, f in _CONVERTERS])


_NIGHT_FIELDS = tuple(f.name for f in dataclasses.fields(Night))


def night_refs(g: Game) -> dict[int, tuple[str, ...]]:
    """Return, for every seat that tonight's choices name, where they name it."""
    refs: dict[int, list[str]] = {}

    def add(v: Any, tag: str) -> None:
        if type(v) is int:
            if v >= 0:
                refs.setdefault(v, []).append(tag)
        elif type(v) is dict:
            for a, b in v.items():
                add(a, tag + ">")
                add(b, tag + "<")
        elif type(v) in (list, tuple):
            for i, x in enumerate(v):
                add(x, f"{tag}{i}" if type(v) is tuple else tag)

    night = g.night
    for name in _NIGHT_FIELDS:
        add(getattr(night, name), name)
    if g.heal_prev >= 0:
        add(g.heal_prev, "heal_prev")
    return {s: tuple(sorted(t)) for s, t in refs.items()}


def seat_list(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


class Node:
    """A branch of a search: a game, how much of the seat's view it has reproduced, how."""

    __slots__ = ("depth", "firm", "forced", "g", "k", "mass", "path", "script")

    def __init__(self, g, k, mass, path, script, forced, depth, firm=frozenset()):
        self.g, self.k, self.mass, self.path = g, k, mass, path
        self.script, self.forced, self.depth = script, forced, depth
        self.firm = firm  # seats a player who could not pass chose tonight

    def steps(self) -> list[tuple]:
        """Return the branch's steps, first to last (see `Search`)."""
        out = []
        p = self.path
        while p is not None:
            p, step = p
            out.append(step)
        out.reverse()
        return out


class Search:
    """Branch over what `seat` cannot see in one segment; keep what reproduces its view.

    ``want`` is the events the seat saw in the segment, in order (no table talk);
    ``complete``: the segment ended (the last event of ``want`` begins a public turn, or
    ends the game), else it is under way and a branch only has to agree so far.
    ``involved``: the seats the segment's view names, whose identity matters; ``roles``: the
    hypothetical deal, as role indices. ``masks``: index in ``want`` of one of the seat's
    own turns -> its options then. ``acting`` (a segment under way): whether the seat acts
    at its end (a move of its own may log nothing it sees: a branch goes on past it); None:
    either.

    A step of a branch is ``(kind, actor, act, target, value, chance, members, turn)``: kind
    "act" (an action), "foul", "remove" or "terminate" (the moderator's calls); ``chance`` the
    engine's draws in it; ``members`` the seats the tried target stands for (None: itself);
    ``turn`` the turn it was taken in.
    A branch's ``mass`` is its probability when every hidden choice is uniform among the
    legal actions (the random policy) and every draw uniform.
    """

    def __init__(
        self,
        seat: int,
        want: list[tuple],
        complete: bool,
        involved: frozenset[int],
        roles: tuple[int, ...],
        masks: dict[int, tuple] | None = None,
        layout: Any = None,
        budget: int = 200_000,
        acting: bool | None = None,
    ):
        self.seat = seat
        self.bit = 1 << seat if seat >= 0 else 0  # (-1: the table, which sees the public events)
        self.want = want
        self.complete = complete
        self.involved = involved
        self.roles = roles
        self.masks = masks or {}
        self.layout = layout
        self.budget = budget
        self.acting = acting
        self.nodes = 0
        rules = None
        self.rules = rules

    # ------------------------------------------------------------------ running

    def run(
        self,
        start: Game,
        first: tuple | None = None,
        every: bool = False,
        rng: Any = None,
        quiet: bool = True,
    ) -> list[Node]:
        """Return the branches that reproduce the view: one (depth first), or `every` one
        (breadth first, merging duplicates and adding up their masses).

        `start` is the game before the segment (a search node: `fork`), `first` the segment's
        opening step (None: `start` itself opens it, its events are compared first). `rng`
        shuffles the order in which one branch is looked for; `quiet` lets that search skip
        the quiet choices (`_quiet_ok`).
        """
        self.rules = start.rules
        self.quiet = quiet and not every
        root = Node(start, 0, 1.0, None, None, (), 0)
        if first is None:
            kid = self._check(root, start, 1.0, None)
            kids = [kid] if kid is not None else []
        else:
            kids = self._step(root, first)
        if every:
            return self._breadth(kids)
        stack = kids[::-1]
        seen: set[tuple] = set()
        while stack:
            node = stack.pop()
            verdict = self._verdict(node)
            if verdict is True:
                return [node]
            if verdict is False:
                continue
            children = self._expand(node)
            if rng is not None:
                rng.shuffle(children)
            for child in reversed(children):
                key = (state_key(child.g), child.k, child.forced, _script_key(child.script))
                if key not in seen:
                    seen.add(key)
                    stack.append(child)
            self.nodes += 1
            if self.nodes > self.budget:
                raise SearchTooLarge(f"the search passed {self.budget} nodes")
        return []

    def replay(self, start: Game, first: tuple | None, steps: list[tuple]) -> Node | None:
        """Play the night of `steps` (a branch found for another deal of the segment) from
        `start`: each hidden turn taken as the branch took that turn (the k-th turn of a kind
        as its k-th, or as its last; a kind it lacks by the first option), the seat's own turns
        as they were; return the branch if the seat sees what it saw, else None. A branch so
        found is one the search accepts (the engine played it and the view matched): a
        shortcut to an answer, never an answer of its own. A branch with a moderator's call is
        not played again.
        """
        return self._guided(start, first, steps, self._checked)

    def replays(self, start: Game, first: tuple | None, steps: list[tuple]) -> bool:
        """Whether `replay` accepts `steps` from `start`, played in `start` itself (which it
        changes: pass a copy nobody else holds), one game stepped on instead of a copy per
        step: the same turns taken alike, the same events compared, the same verdicts."""
        return self._guided(start, first, steps, self._in_place) is not None

    def _guided(
        self,
        start: Game,
        first: tuple | None,
        steps: list[tuple],
        step: Callable[[Node, tuple], Node | None],
    ) -> Node | None:
        """`replay`'s walk, each step applied by `step` (`_checked` on a copy, `_in_place`)."""
        if first is None or not steps or steps[0][:-3] != first:
            return None
        guide: dict[Any, list[tuple]] = {}
        own = []
        for full in steps[1:]:
            if full[0] != "act":
                return None
            (own if full[1] == self.seat else guide.setdefault(full[-1], [])).append(full)
        self.rules = start.rules
        self.quiet = True
        node = step(Node(start, 0, 1.0, None, None, (), 0), steps[0])
        taken: dict[Any, int] = {}
        mine = 0
        while node is not None:
            verdict = self._verdict(node)
            if verdict is not None:
                return node if verdict else None
            g = node.g
            turn = g.turn
            if g.actor == self.seat:
                if mine >= len(own) or own[mine][-1] != turn:
                    return None
                full = own[mine]
                mine += 1
            else:
                kind = guide.get(turn)
                i = taken.get(turn, 0)
                taken[turn] = i + 1
                if kind:
                    full = kind[min(i, len(kind) - 1)]
                else:  # a turn the branch had not: its first option, a guess
                    options = expand_options(g)
                    if not options:
                        return None
                    full = ("act", g.actor, *options[0], (), None, turn)
            if not _is_option(g, *full[2:5]):
                return None
            node = step(node, ("act", g.actor, *full[2:5], *full[5:]))
        return None

    def _in_place(self, node: Node, full: tuple) -> Node | None:
        """`_checked` without the copy: the step applied to the node's game itself."""
        k = self._stepped(node.g, node.k, full)
        return None if k < 0 else Node(node.g, k, 1.0, None, None, (), 0)

    def _stepped(self, g: Game, k: int, full: tuple) -> int:
        """`_checked` in place: apply one step to `g` itself (its draws as `full` has them, 0
        past them); return how much of the view it has then reproduced, or -1 if the step
        fails or the view disagrees."""
        chance = Chance(full[-3])
        g.rng = chance
        at = len(g.events)
        try:
            _do(g, full)
        except (ValueError, RuntimeError):
            return -1
        if chance.bad:
            return -1
        want, bit = self.want, self.bit
        for e in g.events[at:]:
            vis = e[4]
            if (vis == PUBLIC or vis & bit) and e[0] != _TALK:
                if k >= len(want) or e != want[k]:
                    return -1
                k += 1
        return k

    def _checked(self, node: Node, full: tuple) -> Node | None:
        """Apply one step (its draws as `full` has them, 0 past them) to a copy of the node's
        game; return the child if the seat's view agrees, else None (`replay`)."""
        script = full[-3]
        chance = Chance(script)
        h = fork(node.g, chance)
        try:
            _do(h, full)
        except (ValueError, RuntimeError):
            return None
        if chance.bad:
            return None
        taken = (script + (0,) * len(chance.calls))[: len(chance.calls)]
        return self._check(node, h, 1.0, (*full[:-3], taken, full[-2], node.g.turn))

    def _breadth(self, frontier: list[Node]) -> list[Node]:
        found: list[Node] = []
        while frontier:
            nxt: dict[tuple, Node] = {}
            for node in frontier:
                verdict = self._verdict(node)
                if verdict is True:
                    found.append(node)
                    continue
                if verdict is False:
                    continue
                for child in self._expand(node):
                    key = (state_key(child.g), child.k, child.forced, _script_key(child.script))
                    old = nxt.get(key)
                    if old is None:
                        nxt[key] = child
                    else:  # merged: the masses add up, one path stands for both
                        old.mass += child.mass
                self.nodes += 1
                if self.nodes > self.budget:
                    raise SearchTooLarge(f"the search passed {self.budget} nodes")
            frontier = list(nxt.values())
        return found

    def _verdict(self, node: Node) -> bool | None:
        """True: the branch reproduces the view; False: it cannot; None: go on."""
        g, k, n = node.g, node.k, len(self.want)
        if not self.complete and k == n:
            if self.acting is not None and not g.over and (g.actor == self.seat) != self.acting:
                return False if g.turn in PUBLIC_TURNS else None  # (its own move, unseen)
            return self._mask_ok(node)
        if g.over:
            return k == n
        if g.turn in PUBLIC_TURNS:
            return k == n and self.complete
        return None if self._mask_ok(node) else False

    def _mask_ok(self, node: Node) -> bool:
        g = node.g
        if g.over or g.actor != self.seat:
            return True
        options = self.masks.get(node.k - 1)
        return options is None or tuple(g.legal()) == options

    # ---------------------------------------------------------------- branching

    def _expand(self, node: Node) -> list[Node]:
        g = node.g
        out: list[Node] = []
        if node.k < len(self.want):  # a moderator's call the seat saw: it may come now
            out += self._moderator(node)
        actor, turn = g.actor, g.turn
        script = node.script or {}
        if actor == self.seat:
            out += self._free(node)
        elif (actor, turn) in script:
            choice = script[(actor, turn)]
            if choice is None:
                out += self._free(node)
            else:
                act, target, value, members = choice
                if _legal(g, act, target, value):
                    out += self._step(node, ("act", actor, act, target, value), members)
                if _legal(g, Act.REVEAL_DON, -1, -1):  # ONLINE-N2: he may introduce himself
                    out += self._step(node, ("act", actor, Act.REVEAL_DON, -1, -1))
        elif turn is Turn.MAFIA_KILL and g.day > 0:
            out += self._mafia(node)
        elif turn is Turn.HUNT:
            out += self._hunts(node)
        else:
            out += self._single(node)
        return out

    def _moderator(self, node: Node) -> list[Node]:
        kind, actor, target, value, _ = self.want[node.k]
        if kind == Ev.FOUL:
            return self._step(node, ("foul", target))
        if kind == Ev.ELIMINATED and value == Cause.REMOVED:
            return self._step(node, ("remove", target))
        if kind == Ev.TERMINATED:
            return self._step(node, ("terminate", actor))
        return []

    def _free(self, node: Node) -> list[Node]:
        """Every legal action, each tried (the seat's own: its view keeps the true one)."""
        g = node.g
        out = []
        for act, target, value in expand_options(g):
            out += self._step(node, ("act", g.actor, act, target, value))
        return out

    def _groups(
        self, g: Game, bits: int, members: frozenset[int] = frozenset(), actor: bool = True
    ) -> dict:
        """Split the seats of `bits` into kinds the segment cannot tell apart.

        Two targets are alike if neither is named in the seat's view of the segment (nor a
        member of the round under way), they hold the same role under the deal, neither is
        the actor, and tonight's choices name them in the same places: the engine's rules
        treat seats alike but for these, so what one leads to, the other does too.
        """
        refs = night_refs(g)
        groups: dict[tuple, list[int]] = {}
        inv, roles, me = self.involved, self.roles, g.actor if actor else -1
        for t in seat_list(bits):
            sig = (
                t if (t in inv or t in members or t == me) else -1,
                roles[t],
                refs.get(t, ()),
            )
            groups.setdefault(sig, []).append(t)
        return groups

    @staticmethod
    def _fresh(sig: tuple, group: list[int], node: Node) -> bool:
        """Whether a kind of target is seats the view never names, that no player who could
        not pass chose tonight."""
        return sig[0] == -1 and not any(t in node.firm for t in group)

    def _quiet_ok(self, opts: list) -> bool:
        """Whether a search for one branch may skip this player's choices of fresh targets.

        A night choice on a seat the view never names has effects on that seat only (a
        death, a heal, a block, a check), none of which the seat saw (else its view would
        name it): in a branch that reproduces the view, the choice was undone or unseen.
        Holding fire instead, with every other choice on that seat by players who may also
        hold fire, reproduces the view too. So where the player may pass, a search for one
        branch skips the targets no player who could not pass chose (a search for every
        branch, which weighs them, still tries them all). The free hunt, whose wrong request
        kills the hunter, is left to `_hunts`.
        """
        return self.quiet and any(a is Act.PASS for a, _ in opts)

    def _single(self, node: Node) -> list[Node]:
        """A hidden turn of one player: one try per kind of target."""
        g = node.g
        opts = g.legal()
        total = _flat_count(g, opts)
        quiet = self._quiet_ok(opts)
        out = []
        for act, bits in opts:
            if bits is None:
                mass = 1.0 / total
                out += self._step(node, ("act", g.actor, act, -1, -1), None, mass)
                continue
            values = _values(g, act)
            for sig, group in self._groups(g, bits).items():
                if quiet and self._fresh(sig, group, node):
                    continue
                for value in values:
                    mass = len(group) / total
                    step = ("act", g.actor, act, group[0], value)
                    out += self._step(node, step, tuple(group), mass)
        return out

    # ------------------------------------------------------------------ rounds

    def _round(self, g: Game, turn: Turn) -> list[int]:
        seats = [g.actor]
        for s, t in g.queue:
            if t is not turn:
                break
            if g.alive[s]:
                seats.append(s)
        return seats

    def _seen_by_seat(self, g: Game, member: int, turn: Turn) -> bool:
        """Whether the seat sees `member`'s choice in this turn (its own; a teammate's shot
        where the mafia see each other's shots)."""
        if member == self.seat:
            return True
        return (
            turn is Turn.MAFIA_KILL
            and g.rules.mafia_see_shots
            and self.seat >= 0
            and g.teams[self.seat] is Team.MAFIA
            and g.teams[member] is Team.MAFIA
        )

    def _mafia(self, node: Node) -> list[Node]:
        """The mafia's shots tonight: the unseen members all on one target, or split.

        The engine reads the shots only through `Game._mafia_target` (every live shooter's
        target alike, or else a miss or CITY-N4's forfeit; the don's target while he lives;
        FORUM-N1's executor named alike): so every outcome of the shots is reached by a
        profile in which the unseen members agree with each other, or by one split. Members
        whose shots the seat sees are left free (its view keeps their true shots).
        """
        g = node.g
        members = self._round(g, Turn.MAFIA_KILL)
        free = [m for m in members if self._seen_by_seat(g, m, Turn.MAFIA_KILL)]
        hidden = [m for m in members if m not in free]
        if not hidden:
            return self._scripted(node, {(m, Turn.MAFIA_KILL): None for m in members}, 1.0)
        opts = {m: g.legal_for(m, Turn.MAFIA_KILL) for m in hidden}
        counts = {m: _flat_count(g, opts[m]) for m in hidden}
        bits = {m: _targets(opts[m], Act.NIGHT) for m in hidden}
        can_pass = all(any(a is Act.PASS for a, _ in opts[m]) for m in hidden)
        common = -1
        for m in hidden:
            common &= bits[m]
        mset = frozenset(members)
        base = {(m, Turn.MAFIA_KILL): None for m in free}
        if g.rules.mafia_kill == "don" and not self._called():
            don = next((m for m in members if g.roles[m] is Role.DON), -1)
            if don >= 0:
                return self._dons_word(node, don, hidden, opts, counts, bits, mset, base)
        executor = g.rules.mafia_kill == "executor"
        out = []
        agree = 0.0
        # CITY-N10: where no number forfeits, holding fire is no stand-in for a fresh target
        quiet = self.quiet and can_pass and g.rules.mafia_no_number != "forfeit"
        # all unseen members on one target (each kind of target once)
        for sig, group in self._groups(g, common if common > 0 else 0, mset).items():
            if quiet and self._fresh(sig, group, node):
                continue
            p = len(group)
            for m in hidden:
                p /= counts[m]
            script = dict(base)
            for m in hidden:
                script[(m, Turn.MAFIA_KILL)] = (Act.NIGHT, group[0], -1, tuple(group))
            if executor:
                for e_script, e_mass in self._executors(g, members, free, hidden):
                    out += self._scripted(node, {**script, **e_script}, p * e_mass)
            else:
                out += self._scripted(node, script, p)
            agree += p
        if can_pass:  # all unseen members hold fire
            p = 1.0
            for m in hidden:
                p /= counts[m]
            script = dict(base)
            for m in hidden:
                script[(m, Turn.MAFIA_KILL)] = (Act.PASS, -1, -1, None)
            out += self._scripted(node, script, p)
            agree += p
        split = self._split(g, hidden, opts, bits)
        if quiet and g.rules.mafia_split != "forfeit":
            split = None  # a split is a miss, as holding fire is
        if split is not None:
            script = dict(base)
            script.update(split)
            out += self._scripted(node, script, max(0.0, 1.0 - agree))
        return out

    def _called(self) -> bool:
        """Whether the moderator calls a foul or removes a player in the seat's view (a don
        removed before the morning leaves the shot to the others: `_dons_word` does not hold)."""
        return any(
            e[0] in _MODERATOR or (e[0] == Ev.ELIMINATED and e[3] == Cause.REMOVED)
            for e in self.want
        )

    def _dons_word(self, node, don, hidden, opts, counts, bits, mset, base) -> list[Node]:
        """CITY-N3: while the don lives his shot is the mafia's, whatever the others chose.

        The other unseen members' shots change nothing the seat sees (the engine reads only
        the don's), so each is played as one fixed choice carrying all its mass; the don's
        own, where unseen, is tried once per kind of target (as `_single` does), each with
        the share of his options it stands for. Agreement and splits do not weigh here: a
        split with a living don is his shot, not a miss (it was weighed as one before).
        """
        g = node.g
        others = [m for m in hidden if m != don]

        def fixed(m: int, target: int, group: tuple | None) -> tuple:
            if target >= 0 and bits[m] >> target & 1:
                return (Act.NIGHT, target, -1, group)
            if any(a is Act.PASS for a, _ in opts[m]):
                return (Act.PASS, -1, -1, None)
            return (Act.NIGHT, seat_list(bits[m])[0], -1, None)

        def script(shot: tuple | None, target: int, group: tuple | None) -> dict:
            plan = {**base, **{(m, Turn.MAFIA_KILL): fixed(m, target, group) for m in others}}
            if shot is not None:
                plan[(don, Turn.MAFIA_KILL)] = shot
            return plan

        if don not in opts:  # the seat sees the don's shot: the view keeps it
            return self._scripted(node, script(None, -1, None), 1.0)
        out = []
        can_pass = any(a is Act.PASS for a, _ in opts[don])
        quiet = self.quiet and can_pass and g.rules.mafia_no_number != "forfeit"  # CITY-N10
        for sig, group in self._groups(g, bits[don], mset).items():
            if quiet and self._fresh(sig, group, node):
                continue
            members = tuple(group)
            shot = (Act.NIGHT, group[0], -1, members)
            out += self._scripted(node, script(shot, group[0], members), len(group) / counts[don])
        if can_pass:
            shot = (Act.PASS, -1, -1, None)
            out += self._scripted(node, script(shot, -1, None), 1.0 / counts[don])
        return out

    def _split(self, g: Game, hidden: list[int], opts: dict, bits: dict) -> dict | None:
        """Return one profile in which the unseen members do not all agree (None: none can)."""
        if len(hidden) < 2:
            # a single unseen member: a split with the seen ones comes from his free choices
            # of every kind, tried as agreement with each target kind above (the seen shot
            # is named in the view, so it has a kind of its own)
            return None
        choices = []
        for m in hidden:
            c = [(Act.NIGHT, t) for t in seat_list(bits[m])]
            if any(a is Act.PASS for a, _ in opts[m]):
                c.insert(0, (Act.PASS, -1))
            choices.append(c)
        first = choices[0][0]
        for j in range(1, len(hidden)):
            other = next((c for c in choices[j] if c != first), None)
            if other is None:
                continue
            script = {}
            for i, m in enumerate(hidden):
                act, t = other if i == j else (first if first in choices[i] else choices[i][0])
                script[(m, Turn.MAFIA_KILL)] = (act, t, -1, None)
            return script
        return None

    def _executors(self, g: Game, members: list[int], free: list[int], hidden: list[int]):
        """FORUM-N1: the executors the unseen shooters name, all alike (or split)."""
        mafia = g.alive_bits & g.mafia_mask
        kinds = list(self._groups(g, mafia, frozenset(members)).values())
        total = len(seat_list(mafia))
        base = {(m, Turn.EXECUTOR): None for m in free}
        out = []
        agree = 0.0
        for group in kinds:
            p = len(group) / total ** len(hidden)
            script = dict(base)
            for m in hidden:
                script[(m, Turn.EXECUTOR)] = (Act.EXECUTOR, group[0], -1, tuple(group))
            out.append((script, p))
            agree += p
        if len(hidden) >= 2 and total >= 2:
            seats = seat_list(mafia)
            script = dict(base)
            for i, m in enumerate(hidden):
                script[(m, Turn.EXECUTOR)] = (Act.EXECUTOR, seats[1 if i == 1 else 0], -1, None)
            out.append((script, max(0.0, 1.0 - agree)))
        return out

    def _hunts(self, node: Node) -> list[Node]:
        """FORUM-N3: the town's hunt requests: tried by the request drawn by lot.

        The morning draws one request by lot and reads the others only for FORUM-N6 (a
        doctor who asked cannot heal): every outcome is reached by a profile in which only
        the drawn request, the doctor's (if he asked) and the seat's own are made. Each such
        profile stands for every profile with the same drawn request and the same doctor; its
        mass sums them (the other players' requests only make the lot longer), and the lot
        is forced to the drawn one.
        """
        g = node.g
        members = self._round(g, Turn.HUNT)
        hidden = [m for m in members if m != self.seat]
        # the requests made tonight before this player's turn: the seat's own, when it took
        # its turn first (the lot draws among them too: FORUM-N3)
        prior = [r[0] for r in g.night.hunts]
        mine = self.seat in prior
        own = self.seat in members and any(
            e[0] == Ev.HUNT and e[1] == self.seat for e in self.want[node.k :]
        )
        base = {(m, Turn.HUNT): None for m in members if m == self.seat}
        opts = {m: g.legal_for(m, Turn.HUNT) for m in hidden}
        counts = {m: _flat_count(g, opts[m]) for m in hidden}
        ask = {m: 1.0 - 1.0 / counts[m] for m in hidden}  # a uniform player asks
        doctor = self._role_index(Role.DOCTOR)
        doctors = [m for m in hidden if self.roles[m] == doctor]
        d = doctors[0] if doctors else -1
        passing = {(m, Turn.HUNT): (Act.PASS, -1, -1, None) for m in hidden}
        values = _values(g, Act.HUNT)
        out: list[Node] = []

        def lot(drawn: int, asking: set[int], free: list[int]) -> tuple[int, float]:
            """Return the forced index of `drawn`'s request and E[1/requests] (the requests
            made before this round's first hidden turn come first in the lot)."""
            fixed = prior + [m for m in members if m in asking]
            index = fixed.index(drawn)
            return index, _mean_inverse(len(fixed), [ask[m] for m in free])

        # FORUM-N6: the doctor's request matters only if he could not skip his heal otherwise
        pair = not self.quiet or not (
            d >= 0 and any(a is Act.PASS for a, _ in g.legal_for(d, Turn.DOCTOR))
        )
        # nobody asks at all, or only the seat (whose request is then drawn)
        for flag in [False, True] if d >= 0 and pair else [False]:
            asking = ({self.seat} if own else set()) | ({d} if flag else set())
            script = {**base, **passing}
            if flag:
                dt = seat_list(_targets(opts[d], Act.HUNT))[0]
                script[(d, Turn.HUNT)] = (Act.HUNT, dt, values[0], None)
            free = [m for m in hidden if m != d]
            if not asking and not mine:  # nobody asked: every hidden player passed
                p = 1.0
                for m in hidden:
                    p /= counts[m]
                out += self._scripted(node, script, p)
                continue
            if not own and not mine:
                continue  # the doctor's request drawn: tried below as a drawn request
            p = (ask[d] if flag else (1.0 / counts[d] if d >= 0 else 1.0)) if d >= 0 else 1.0
            index, inv = lot(self.seat, asking, free)
            out += self._scripted(node, script, p * inv, (index,))
        kinds = self._groups(g, sum(1 << m for m in hidden), frozenset(), actor=False)
        for hunters in kinds.values():
            h = hunters[0]
            bits = _targets(opts[h], Act.HUNT)
            for group in self._groups(g, bits, frozenset(), actor=False).values():
                for value in values:
                    # FORUM-N4: the drawn request kills its target or its hunter, whom the
                    # view then names (unless another death hides it: the seat's own)
                    dies = group[0] if g._hunt_hits(group[0], value) else h
                    if self.quiet and dies not in self.involved and dies != self.seat:
                        continue
                    req = (Act.HUNT, group[0], value, tuple(group))
                    p_req = len(group) / counts[h] * len(hunters)
                    flags = [False, True] if d >= 0 and d != h and pair else [False]
                    for flag in flags:
                        script = {**base, **passing, (h, Turn.HUNT): req}
                        asking = {h} | ({self.seat} if own else set())
                        p = p_req
                        if d >= 0 and d != h:
                            if flag:
                                dt = seat_list(_targets(opts[d], Act.HUNT))[0]
                                script[(d, Turn.HUNT)] = (Act.HUNT, dt, values[0], None)
                                asking.add(d)
                                p *= ask[d]
                            else:
                                p /= counts[d]
                        free = [m for m in hidden if m != h and m != d]
                        index, inv = lot(h, asking, free)
                        out += self._scripted(node, script, p * inv, (index,))
        return out

    def _role_index(self, role: Role) -> int:
        from mafia_env.engine.spec import GameSpec

        roles = GameSpec.of(self.rules, len(self.roles)).roles
        return roles.index(role) if role in roles else -1

    def _scripted(
        self, node: Node, script: dict, mass: float, forced: tuple[int, ...] | None = None
    ) -> list[Node]:
        """A child that plays the round's turns as `script` says (and the draws `forced`)."""
        forced = node.forced if forced is None else forced
        child = Node(
            node.g, node.k, node.mass * mass, node.path, script, forced, node.depth, node.firm
        )
        return self._expand(child)

    # ------------------------------------------------------------------ stepping

    def _step(self, node: Node, step: tuple, members=None, mass: float = 1.0) -> list[Node]:
        """Apply one step to copies of the node's game, once per outcome of its draws."""
        out = []
        pending: list[tuple[int, ...]] = [()]
        forced = node.forced
        firm = node.firm
        targeted = step[0] == "act" and step[3] >= 0 and node.g.actor >= 0
        if targeted and not any(a is Act.PASS for a, _ in node.g.legal()):
            firm = firm | {step[3]}
        while pending:
            extra = pending.pop()
            chance = Chance(forced + extra)
            h = fork(node.g, chance)
            try:
                _do(h, step)
            except (ValueError, RuntimeError):
                continue
            if chance.bad:
                continue
            used = len(forced) + len(extra)
            calls = chance.calls
            p = mass
            for j in range(len(forced), len(calls)):  # every draw not forced weighs 1/range
                if j >= used:  # (a draw tried here first: its other outcomes are tried too)
                    for v in range(1, calls[j]):
                        pending.append(extra + (0,) * (j - used) + (v,))
                p /= calls[j]
            taken = (forced + extra + (0,) * len(calls))[: len(calls)]
            rest = forced[len(calls) :] if len(calls) < len(forced) else ()
            full = (*step, taken, members, node.g.turn)
            child = self._check(node, h, p, full, rest)
            if child is not None:
                child.firm = firm
                out.append(child)
        return out

    def _check(self, node: Node, h: Game, mass: float, step: tuple | None, forced=()):
        """Return the child if the events `h` logged agree with the seat's view, else None."""
        want, k, bit = self.want, node.k, self.bit
        for e in h.events:
            vis = e[4]
            if (vis == PUBLIC or vis & bit) and e[0] != _TALK:
                if k >= len(want) or e != want[k]:
                    return None
                k += 1
        h.events = []
        path = node.path if step is None else (node.path, step)
        return Node(h, k, node.mass * mass, path, node.script, forced, node.depth + 1, node.firm)


class SearchTooLarge(RuntimeError):
    """A search grew past its budget of nodes."""


def _mean_inverse(fixed: int, p: list[float]) -> float:
    """Return E[1 / (fixed + B)], B the number of successes of independent trials `p`."""
    dist = [1.0]
    for q in p:
        nxt = [0.0] * (len(dist) + 1)
        for b, w in enumerate(dist):
            nxt[b] += w * (1.0 - q)
            nxt[b + 1] += w * q
        dist = nxt
    return sum(w / (fixed + b) for b, w in enumerate(dist))


def _script_key(script: dict | None) -> tuple:
    if not script:
        return ()
    return tuple(sorted((k[0], int(k[1]), v[:3] if v else None) for k, v in script.items()))


def _do(g: Game, step: tuple) -> None:
    kind = step[0]
    if kind == "act":
        g.apply(step[2], step[3], step[4])
    elif kind == "foul":
        g.foul(step[1])
    elif kind == "remove":
        g.remove(step[1])
    else:
        g.terminate(step[1])


def _targets(opts: list, act: Act) -> int:
    bits = 0
    for a, b in opts:
        if a is act and b is not None:
            bits |= b
    return bits


def _values(g: Game, act: Act) -> tuple[int, ...]:
    if act is Act.HUNT:
        return (0, 1) if g.rules.hunt_status else (-1,)
    return (-1,)


def _flat_count(g: Game, opts: list) -> int:
    """Return how many flat actions the options are (what a uniform policy chooses among)."""
    total = 0
    for act, bits in opts:
        if bits is None:
            total += 1
        else:
            total += bin(bits).count("1") * len(_values(g, act))
    return total


def _legal(g: Game, act: Act, target: int, value: int) -> bool:
    for a, bits in g.legal():
        if a is act and (bits is None or (target >= 0 and bits >> target & 1)):
            return True
    return False


def _is_option(g: Game, act: Act, target: int, value: int) -> bool:
    """Whether (act, target, value) is among `expand_options(g)` (without listing them)."""
    for a, bits in g.legal():
        if a is not act:
            continue
        if bits is not None:
            ok = target >= 0 and bits >> target & 1 and value in _values(g, act)
        elif act is Act.CLAIM_ROLE or act is Act.ASK:
            ok = target == -1 and value in [int(r) for r in g.rules.roles_in_play()]
        elif act is Act.ANSWER:
            ok = target == -1 and value in (0, 1, 2)
        else:
            ok = target == -1 and value == -1
        if ok:
            return True
    return False


def expand_options(g: Game) -> list[tuple[Act, int, int]]:
    """Return every legal (act, target, value) of the acting player (night acts, votes ...)."""
    out = []
    roles = None
    for act, bits in g.legal():
        if bits is None:
            if act is Act.CLAIM_ROLE or act is Act.ASK:
                roles = roles or g.rules.roles_in_play()
                out += [(act, -1, int(r)) for r in roles]
            elif act is Act.ANSWER:
                out += [(act, -1, v) for v in range(3)]
            else:
                out.append((act, -1, -1))
            continue
        for t in seat_list(bits):
            for v in _values(g, act):
                out.append((act, t, v))
    return out


__all__ = [
    "Chance",
    "Node",
    "Search",
    "SearchTooLarge",
    "expand_options",
    "fork",
    "night_refs",
    "relax_hidden",
    "state_key",
    "swap_deal",
]
