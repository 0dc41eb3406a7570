"""Players' records and ratings, computed from the journal alone (so they can always be rebuilt exactly).

Which games count, for whom:

- A game counts once it is over by its engine's outcome (an abandoned or running game counts for nobody),
  in the order the games finished.
- A seat counts for the one person who held it from the game's start to its end (a name and, where the
  server told it, the address it was taken from). A seat a computer held at any time, one that changed
  hands after the start (a person taking over a computer, a seat freed and taken by another), or one
  not known from the start (a journal older than the per-game seats) counts for nobody.
- The record (games, won, drawn, lost) counts every such seat, against people or computers.
- A rating moves only in games where at least two sides have such people, and nobody holds seats on two
  sides: the sides are ranked by the engine's returns (the winner first, everyone else after; a draw
  ties all), each side a team of its counted people (New Rule's four players are two teams of two),
  computers left out. Ratings are openskill's Plackett-Luce model with its default figures (mu 25, sigma
  25/3); the rating shown is its ordinal, mu - 3 sigma (0 to begin with).

>>> ladder = Ladder()
>>> alice, bob = Identity("alice"), Identity("bob")
>>> changes = ladder.play(Judged(1, "nodes", ((alice, 1, 1, "won"), (bob, 2, 2, "lost")), rated=True))
>>> [(str(c.who), c.result, round(c.before, 1), round(c.after, 1)) for c in changes]
[('alice', 'won', 0.0, 3.4), ('bob', 'lost', 0.0, -1.8)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from openskill.models import PlackettLuce

from blockref.bridge.journal import SeatChange
from blockref.engines.catalogue import make_game

MODEL = PlackettLuce()
RESULTS = ("won", "drawn", "lost")


@dataclass(frozen=True, order=True)
class Identity:
    """Whom a rating follows: a name, and the address the seat was taken from where the server told one
    (``""``: none told). A rename is a new identity."""

    name: str
    address: str = ""

    def __str__(self) -> str:
        return f"{self.name} ({self.address})" if self.address else self.name


@dataclass(frozen=True)
class Judged:
    """A finished game as the ladder takes it: each counted person with their side (a number), its rank
    (1 best) and their result; ``rated`` when the ratings move (see the module's rules)."""

    game_id: int
    game: str
    seats: tuple[tuple[Identity, int, int, str], ...]
    rated: bool


@dataclass
class Standing:
    """One identity's figures in one game."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    won: int = 0
    drawn: int = 0
    lost: int = 0
    rated: int = 0

    @property
    def games(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def rating(self) -> float:
        """The rating shown: openskill's ordinal, mu - 3 sigma."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Change:
    """What one finished game did to one identity's standing."""

    game_id: int
    game: str
    who: Identity
    result: str
    rated: bool
    before: float
    after: float
    mu: float
    sigma: float


@dataclass
class Ladder:
    """Every identity's standing in every game, played game by game."""

    standings: dict[tuple[str, Identity], Standing] = field(default_factory=dict)

    def standing(self, game: str, who: Identity) -> Standing:
        return self.standings.get((game, who), Standing())

    def play(self, judged: Judged) -> list[Change]:
        """Take one finished game; returns what it changed, seat by seat."""
        before = {who: self.standing(judged.game, who) for who, _, _, _ in judged.seats}
        after = {who: replace(standing) for who, standing in before.items()}
        if judged.rated:
            sides = sorted({(side, rank) for _, side, rank, _ in judged.seats})
            teams = [[who for who, s, _, _ in judged.seats if s == side] for side, _ in sides]
            rated = MODEL.rate([[MODEL.rating(before[w].mu, before[w].sigma) for w in team] for team in teams],
                               ranks=[float(rank) for _, rank in sides])
            for team, ratings in zip(teams, rated, strict=True):
                for who, rating in zip(team, ratings, strict=True):
                    after[who].mu, after[who].sigma = rating.mu, rating.sigma
                    after[who].rated += 1
        changes = []
        for who, _, _, result in judged.seats:
            standing = after[who]
            setattr(standing, result, getattr(standing, result) + 1)
            self.standings[(judged.game, who)] = standing
            changes.append(Change(judged.game_id, judged.game, who, result, judged.rated, before[who].rating,
                                  standing.rating, standing.mu, standing.sigma))
        return changes

    def ladder(self, game: str) -> list[tuple[Identity, Standing]]:
        """The identities rated in ``game``, best rating first (ties by name)."""
        rows = [(who, s) for (g, who), s in self.standings.items() if g == game and s.rated]
        return sorted(rows, key=lambda row: (-row[1].rating, row[0]))


def steady_holders(changes: Sequence[SeatChange], players: Iterable[int]) -> dict[int, Identity]:
    """The person who held each seat from the game's start (its changes at 0 entries, the last one
    standing) to its end without anyone else holding it in between; seats without one are left out."""
    holders: dict[int, Identity] = {}
    for player in players:
        own = [c for c in changes if c.player == player]
        start = [c for c in own if c.entries == 0][-1:]
        if not start or start[0].name is None:
            continue
        held = start + [c for c in own if c.entries > 0 and c.name is not None]
        people = {(c.name, c.address or "", c.computer) for c in held}
        if len(people) == 1 and not start[0].computer:
            holders[player] = Identity(start[0].name, start[0].address or "")
    return holders


def judge(game_id: int, game: str, options: dict[str, object], entries: Sequence[str],
          seats: Sequence[SeatChange]) -> Judged | None:
    """Game ``game_id`` replayed by its engine and judged by the module's rules; None while the engine
    does not call it over (abandoned), or when it cannot be replayed here."""
    try:
        rules = make_game(game, options)
        state = rules.new_initial_state()
        for entry in entries:
            rules.replay_history_entry(state, entry)
    except (ImportError, ValueError):
        return None
    if not state.is_terminal():
        return None
    returns = state.returns()
    best = max(returns)
    holders = steady_holders(seats, range(1, rules.num_players + 1))
    side_of = {p: index for index, side in enumerate(rules.sides()) for p in side}
    counted: dict[Identity, tuple[int, int, str]] = {}
    sides_of: dict[Identity, set[int]] = {}
    for player, who in sorted(holders.items()):
        value = returns[player - 1]
        rank = 1 + len({r for r in returns if r > value})
        result = "drawn" if min(returns) == best else "won" if value == best else "lost"
        counted.setdefault(who, (side_of[player], rank, result))
        sides_of.setdefault(who, set()).add(side_of[player])
    if any(len(sides) > 1 for sides in sides_of.values()):
        return Judged(game_id, game, (), rated=False)  # one person on both sides counts for nobody
    rated = len({next(iter(sides)) for sides in sides_of.values()}) >= 2
    return Judged(game_id, game, tuple((who, *figures) for who, figures in counted.items()), rated)
