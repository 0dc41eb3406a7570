"""Monte Carlo tree search on the game-agnostic state API (:mod:`engines.core`).

The search only touches a state through ``clone``, ``legal_actions``, ``apply``,
``current_player``, ``is_terminal``, ``returns`` (and ``history``/``action_to_text`` to reuse
its tree between calls), so every engine gets it for free. Game knowledge is optional and
passed in as a :class:`Knowledge`: a cut-off evaluation, a playout policy and move priors.

The tree asks ``current_player()`` at every node instead of assuming alternation, so games in
which one player acts several times in a row (a Nodes turn is up to three wires) are searched
correctly: each edge's statistics are kept from the point of view of the player who chose it.

Selection is UCT with progressive bias (``bias * prior / (visits + 1)``); unexpanded actions
are tried in the order of their priors, and with ``widening`` a node only opens its next action
once it has enough visits (progressive widening: ``1 + widening * sqrt(visits)`` children), so
the search goes deep along the moves its priors like instead of trying every move once first.
Playouts are capped at ``max_playout_plies`` and then scored by the evaluation (a draw without
one); a cap of 0 scores every new leaf by the evaluation alone. A playout that reaches the game's end
scores its ``returns()``, or what the knowledge's ``final_returns`` makes of that end. A knowledge's
``known_move`` (such as an endgame table's) is asked first: an action it knows is played unsearched.

With ``solve`` the search is an MCTS-Solver (Winands et al., 2008): a terminal leaf's returns are its
proven outcome, a node whose player has a child proven to win (return 1), or whose children are all
there and proven, takes that child's outcome, the final choice prefers a proven win and avoids a
proven loss, and the search stops once the root is proven. It reads returns of 1 as a win.

A state that is :class:`~engines.core.Undoable` (``make(action)`` plays an action known to be legal,
``unmake(count)`` takes back the last ``count``) is searched on one working copy with make/unmake
instead of a fresh clone per iteration.

A round in which every player acts at once (``current_player()`` is ``SIMULTANEOUS``, as in
Implosion) is searched by :meth:`MCTS.search_round`: the root's children are candidate plans from
the game's knowledge, and each iteration plays one of them mixed with the other players' expected
actions, closes the round (the state is a :class:`~engines.core.SimultaneousRounds`) and scores it.

Honesty: the search sees exactly the state it is given. The engines keep no hidden
information today. A game with chance keeps its random source inside the state, and the
search must not profit from knowing it: such a game's state is :class:`~engines.core.Reseedable`, and
``search_round`` reseeds every clone it simulates from its own generator (determinisation), with
no tree kept between calls. A game with hidden information would need determinisation over the
information set (sampling the hidden part per iteration) instead.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from blockref.engines.core import GameState, Reseedable, SimultaneousRounds, Undoable

A = TypeVar("A")
A_co = TypeVar("A_co", covariant=True)

Evaluation = Callable[[GameState[A]], Sequence[float]]
"""Per player (index ``player - 1``) a value in [-1, 1], like ``returns()`` of a running game."""
PlayoutPolicy = Callable[[GameState[A], Sequence[A], random.Random], A]
"""Picks one of the given legal actions for a playout."""
Priors = Callable[[GameState[A], Sequence[A]], Sequence[float]]
"""A prior in [0, 1] for each given legal action, in the same order."""
Plans = Callable[[GameState[A], int, random.Random], Sequence[Sequence[A]]]
"""For a round in which everybody acts at once: candidate plans for the given player (its own actions)."""
Answers = Callable[[GameState[A], int, random.Random], Sequence[A]]
"""For such a round: the other players' actions as the given player should expect them (one sample)."""
KnownMove = Callable[[GameState[A]], A | None]
"""The action known to be best in a position (an endgame table's), played without searching; None: search."""
Vet = Callable[[GameState[A], Sequence[A]], A]
"""Of the given legal actions (the search's, most preferred first), the one to play."""


@dataclass(frozen=True)
class Knowledge(Generic[A]):
    """Game-specific help for the search, for a game whose actions are ``A``. Every field is optional;
    none means uniform play."""

    evaluate: Evaluation[A] | None = None
    playout_policy: PlayoutPolicy[A] | None = None
    priors: Priors[A] | None = None
    max_playout_plies: int | None = None
    plans: Plans[A] | None = None
    answers: Answers[A] | None = None
    final_returns: Evaluation[A] | None = None
    """Scores a playout that reached the game's end, such as its result weighed with the margin
    (``None``: ``returns()``). A leaf that is itself terminal keeps ``returns()``: its proven outcome."""
    known_move: KnownMove[A] | None = None
    """Asked first at every search's root: a legal action it gives is played without searching."""
    vet: Vet[A] | None = None
    """Asked last, with the root's actions most preferred first (the most visited): the one to play, such as
    the first a check the search cannot make (a deeper tactical look) lets through. Not asked with a
    temperature above 0."""


AnyKnowledge = Knowledge[Any]
"""The knowledge of some game, whose action type the game-agnostic search and registry do not know: each
game's own is a ``Knowledge`` of its actions, and the search only ever gives it that game's states."""


@dataclass(frozen=True)
class SearchSettings:
    """How hard to search. At least one of ``iterations`` and ``time_budget`` (seconds) is needed;
    the search stops at whichever comes first. Only an iteration budget is reproducible."""

    iterations: int | None = None
    time_budget: float | None = None
    exploration: float = 1.0
    prior_bias: float = 1.0
    reuse_tree: bool = True
    widening: float | None = None
    root_evaluation: int = 0
    """Visits each root action starts with at its one-ply evaluation (0: none; see ``MCTS._seed_root``)."""
    temperature: float = 0.0
    """0 plays the most visited action; above 0 draws one with odds ``visits ** (1 / temperature)``."""
    solve: bool = False
    """Back up proven outcomes from terminal leaves (MCTS-Solver; see the module text)."""

    def __post_init__(self) -> None:
        if self.iterations is None and self.time_budget is None:
            raise ValueError("give an iteration budget, a time budget or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        if self.time_budget is not None and self.time_budget <= 0:
            raise ValueError("time_budget must be positive")
        if (self.widening is not None and self.widening <= 0) or self.temperature < 0:
            raise ValueError("widening must be positive and temperature not negative")


class _Node(Generic[A]):
    """One position of the tree; its statistics are for the player who chose the edge into it. Its
    ``action`` leads into it from its parent (``None`` at the root)."""

    __slots__ = ("action", "children", "outcome", "player", "prior", "untried", "value_sum", "visits")

    def __init__(self, action: A | None, prior: float) -> None:
        self.action = action
        self.prior = prior
        self.player: int | None = None
        self.children: list[_Node[A]] = []
        self.untried: list[tuple[A, float]] | None = None  # None until the node is first reached
        self.visits = 0
        self.value_sum = 0.0
        self.outcome: Sequence[float] | None = None  # proven returns, with ``solve``

    def move(self) -> A:
        """The action into this node from its parent (a root has none)."""
        assert self.action is not None, "a root has no action"
        return self.action


@dataclass(frozen=True)
class SearchResult(Generic[A_co]):
    """The chosen action and what the search saw, for tests, benchmarks and curious people."""

    action: A_co
    iterations: int
    seconds: float
    visits: dict[str, int]


class MCTS:
    """A reusable searcher; ``search(state)`` returns the most visited root action. It is given the
    states of the game whose ``knowledge`` it has (any game without knowledge)."""

    def __init__(self, settings: SearchSettings, knowledge: AnyKnowledge | None = None, seed: int | None = None):
        self.settings = settings
        self.knowledge: AnyKnowledge = knowledge or Knowledge()
        self.rng = random.Random(seed)
        self._root: _Node[Any] | None = None  # of the game last searched
        self._root_history: list[str] = []

    def search(self, state: GameState[A]) -> SearchResult[A]:
        """Search from ``state`` (left unchanged) and return the best action found."""
        start = time.perf_counter()
        if state.is_terminal():
            raise ValueError("the game is over: there is nothing to choose")
        known = None if self.knowledge.known_move is None else self.knowledge.known_move(state)
        if known is not None:
            return SearchResult(known, 0, time.perf_counter() - start, {})
        root = self._take_root(state)
        self._prepare(root, state)
        assert root.untried is not None
        if len(root.untried) + len(root.children) == 1:
            only = root.children[0].move() if root.children else root.untried[0][0]
            return SearchResult(only, 0, time.perf_counter() - start, {})
        self._seed_root(root, state)
        work = state.clone() if isinstance(state, Undoable) else None
        undo: tuple[Undoable[A], list[_Node[A]]] | None = None if work is None else (work, [])
        done = 0
        while self._more(done, start) and root.outcome is None:
            self._iterate(root, state.clone() if work is None else work, undo)
            done += 1
        vet = self.knowledge.vet
        if vet is not None and self.settings.temperature <= 0:
            chosen = vet(state, [child.move() for child in self._ranked(root)])
        else:
            chosen = self._choose(root).move()
        visits = {state.action_to_text(child.move()): child.visits for child in root.children}
        self._root, self._root_history = root, state.history()
        return SearchResult(chosen, done, time.perf_counter() - start, visits)

    def _more(self, done: int, start: float) -> bool:
        """Whether a search begun at ``start`` that has run ``done`` iterations runs another: always a first
        one (so that even a tiny budget yields a searched action), then until either budget is spent."""
        settings = self.settings
        if done == 0:
            return True
        if settings.iterations is not None and done >= settings.iterations:
            return False
        return settings.time_budget is None or time.perf_counter() < start + settings.time_budget

    def _seed_root(self, root: _Node[A], state: GameState[A]) -> None:
        """With ``root_evaluation`` k: every root action not yet visited starts with k visits at the
        value the evaluation gives the position after it, so the search starts from the one-ply
        ranking and spends its iterations on proving it wrong."""
        k = self.settings.root_evaluation
        evaluate = self.knowledge.evaluate
        if not k or evaluate is None or root.player is None or root.untried is None:
            return
        root.children.extend(_Node(action, prior) for action, prior in reversed(root.untried))
        root.untried = []
        for child in root.children:
            if child.visits:
                continue
            after = state.clone()
            after.apply(child.move())
            values = after.returns() if after.is_terminal() else evaluate(after)
            child.visits = k
            child.value_sum = k * values[root.player - 1]
            root.visits += k

    def _ranked(self, root: _Node[A]) -> list[_Node[A]]:
        """The root's children, best first: proven wins, then the most visited, then the best valued."""
        mover = (root.player or 1) - 1

        def rank(child: _Node[A]) -> tuple[float, int, float]:
            proven = 0.0 if child.outcome is None else child.outcome[mover]
            return proven, child.visits, child.value_sum

        return sorted(root.children, key=rank, reverse=True)

    def _choose(self, root: _Node[A]) -> _Node[A]:
        temperature = self.settings.temperature
        if temperature <= 0:
            return self._ranked(root)[0]
        weights = [child.visits ** (1.0 / temperature) for child in root.children]
        return self.rng.choices(root.children, weights)[0]

    # --- one iteration -------------------------------------------------------------------
    def _iterate(
        self, root: _Node[A], state: GameState[A], undo: tuple[Undoable[A], list[_Node[A]]] | None
    ) -> None:
        """One descent. With ``undo`` (``state`` itself as an :class:`~engines.core.Undoable`, and the nodes
        whose actions are made on it, in order) the state is moved along the tree with make/unmake: only
        from where the new path leaves the last one, so consecutive descents share their common start."""
        path = [root]
        node = root
        widening = self.settings.widening
        # Selection: walk down fully expanded nodes (with widening: nodes with all the children
        # their visits allow). It needs the tree only; the state follows below.
        while node.untried is not None and node.children:
            if node.untried and (widening is None or len(node.children) < 1 + widening * math.sqrt(node.visits)):
                break
            node = self._select(node)
            path.append(node)
        if undo is None:
            play = state.apply
            made = None
            for step in path[1:]:
                assert step.action is not None
                play(step.action)
        else:
            undoable, made = undo
            play = undoable.make
            shared = 0
            for old, new in zip(made, path[1:], strict=False):
                if old is not new:
                    break
                shared += 1
            undoable.unmake(undoable.made() - shared)
            for step in path[1 + shared :]:
                assert step.action is not None
                play(step.action)
            made[:] = path[1:]
        # Expansion: add one child. A node's own actions are only listed when it is reached a
        # second time (most leaves never are), so a new leaf costs one action and one evaluation.
        if node.untried is None:
            self._prepare(node, state)
        if node.untried:
            action, prior = node.untried.pop()
            child = _Node(action, prior)
            node.children.append(child)
            play(action)
            path.append(child)
            if made is not None:
                made.append(child)
        proven = self.settings.solve and state.is_terminal()
        values = self._playout(state, play)
        if undo is not None:
            undoable, made = undo
            undoable.unmake(undoable.made() - len(made))
        # Backpropagation: each edge scores for the player who chose it.
        for parent, child in itertools.pairwise(path):
            child.visits += 1
            if parent.player is not None:
                child.value_sum += values[parent.player - 1]
        root.visits += 1
        if proven:
            path[-1].outcome = values
            self._prove(path)

    @staticmethod
    def _prove(path: list[_Node[A]]) -> None:
        """Back up a proven leaf: each node up the path whose outcome is now known (see the module text)."""
        for node in reversed(path[:-1]):
            if node.player is None:
                return
            mover = node.player - 1
            known = [child.outcome for child in node.children if child.outcome is not None]
            if not known:
                return
            best = max(known, key=lambda outcome: outcome[mover])
            if best[mover] < 1.0 and (node.untried or len(known) < len(node.children)):
                return
            node.outcome = best

    def _prepare(self, node: _Node[A], state: GameState[A]) -> None:
        """Record who acts at ``node`` and its actions, to be tried best prior first."""
        if node.untried is not None:
            return
        node.player = state.current_player()
        if state.is_terminal():
            node.untried = []
            return
        actions = state.legal_actions()
        priors = self.knowledge.priors
        weights = list(priors(state, actions)) if priors is not None else [0.0] * len(actions)
        draw = self.rng.random
        order = sorted((weight, draw(), i) for i, weight in enumerate(weights))  # equal priors in a random order
        node.untried = [(actions[i], weight) for weight, _, i in order]  # popped from the end: highest prior first

    def _select(self, node: _Node[A]) -> _Node[A]:
        spread = self.settings.exploration * math.sqrt(math.log(node.visits + 1))
        bias = self.settings.prior_bias
        sqrt = math.sqrt
        best, best_score = node.children[0], -math.inf
        for child in node.children:
            n = child.visits
            if n == 0:
                return child
            score = child.value_sum / n + spread / sqrt(n) + bias * child.prior / (n + 1)
            if score > best_score:
                best, best_score = child, score
        return best

    def _playout(self, state: GameState[A], play: Callable[[A], None]) -> Sequence[float]:
        knowledge = self.knowledge
        cap = knowledge.max_playout_plies
        policy = knowledge.playout_policy
        rng = self.rng
        plies = 0
        while not state.is_terminal():
            if cap is not None and plies >= cap:
                return knowledge.evaluate(state) if knowledge.evaluate else state.returns()
            actions = state.legal_actions()
            if policy is not None:
                play(policy(state, actions, rng))
            else:
                play(actions[rng.randrange(len(actions))])
            plies += 1
        if plies and knowledge.final_returns is not None:
            return knowledge.final_returns(state)
        return state.returns()

    # --- a round in which everybody acts at once -----------------------------------------
    def search_round(self, state: GameState[A], player: int) -> SearchResult[list[A]]:
        """``player``'s best plan for a round in which every player acts at once (``current_player()`` is
        ``SIMULTANEOUS``), among the knowledge's candidate ``plans``; ``state`` is left unchanged.

        The root's children are the plans. Each iteration picks one by UCT and plays it on a clone whose
        chance is reseeded from the searcher's own generator (determinisation: the real dice stay
        unseen), its actions mixed in a random arrival order with the other players' expected
        ``answers``; an action the board no longer allows by then is skipped, as the referee would. The
        round is closed with the state's ``round_end()`` (a :class:`~engines.core.SimultaneousRounds`) and
        the position scored with the evaluation."""
        knowledge = self.knowledge
        if knowledge.plans is None or knowledge.answers is None or knowledge.evaluate is None:
            raise ValueError("searching a round needs the game's plans, answers and evaluation")
        if state.is_terminal():
            raise ValueError("the game is over: there is nothing to choose")
        start = time.perf_counter()
        plans: dict[tuple[str, ...], list[A]] = {}
        for plan in knowledge.plans(state, player, self.rng):
            plans.setdefault(tuple(state.action_to_text(action) for action in plan), list(plan))
        if len(plans) <= 1:
            return SearchResult(next(iter(plans.values()), []), 0, time.perf_counter() - start, {})
        answers: list[A] = list(knowledge.answers(state, player, self.rng))
        round_end: A | None = state.round_end() if isinstance(state, SimultaneousRounds) else None
        copy = self._round_copies(state)
        root: _Node[list[A]] = _Node(None, 0.0)
        root.children = [_Node(plan, 0.0) for plan in plans.values()]
        done = 0
        while self._more(done, start):
            child = self._select(root)
            child.visits += 1
            child.value_sum += self._play_round(copy(), child.move(), answers, round_end)[player - 1]
            root.visits += 1
            done += 1
        best = self._choose(root)
        visits = {" ".join(text) or "(none)": child.visits for text, child in zip(plans, root.children, strict=True)}
        return SearchResult(best.move(), done, time.perf_counter() - start, visits)

    def _round_copies(self, state: GameState[A]) -> Callable[[], GameState[A]]:
        """What makes the copies of ``state`` that rounds are played on: clones, their chance reseeded from
        the searcher's own generator where the state has chance (asked once, not per copy)."""
        if not isinstance(state, Reseedable):
            return state.clone
        rng = self.rng

        def reseeded() -> GameState[A]:
            work = state.clone()
            work.reseed(rng.getrandbits(64))
            return work

        return reseeded

    def _play_round(
        self, work: GameState[A], plan: Sequence[A], answers: Sequence[A], round_end: A | None
    ) -> Sequence[float]:
        """Play ``plan`` among ``answers`` on ``work`` (a copy of the round's state), close it, score it."""
        arrivals = [True] * len(plan) + [False] * len(answers)
        self.rng.shuffle(arrivals)
        mine, theirs = iter(plan), iter(answers)
        for is_mine in arrivals:
            if work.is_terminal():
                break
            action = next(mine) if is_mine else next(theirs)
            if work.why_illegal(action) is None:
                work.push(action)
        if not work.is_terminal() and round_end is not None:
            work.apply(round_end)
        if work.is_terminal():
            return work.returns()
        assert self.knowledge.evaluate is not None
        return self.knowledge.evaluate(work)

    # --- tree reuse ----------------------------------------------------------------------
    def _take_root(self, state: GameState[A]) -> _Node[A]:
        """The subtree for ``state`` kept from the previous search, or a fresh root."""
        old = self._root
        self._root = None
        if old is None or not self.settings.reuse_tree:
            return _Node(None, 0.0)
        history = state.history()
        known = self._root_history
        if history[: len(known)] != known:
            return _Node(None, 0.0)
        node: _Node[A] | None = old
        for entry in history[len(known) :]:
            children = node.children if node is not None else []
            node = next((c for c in children if state.action_to_text(c.move()) == entry), None)
        if node is None or node.player != state.current_player():
            return _Node(None, 0.0)
        node.action, node.prior = None, 0.0
        return node
