"""A player's records and ratings on their archive page (``/archive?player=NAME``).

>>> from blockref.bridge.ratings import Identity, Standing
>>> row = PlayerStanding("nodes", Identity("alex"), Standing(won=2, lost=1, rated=3), 1)
>>> "<td>2</td><td>0</td><td>1</td>" in ratings_table("alex", [row], {"nodes": "Nodes"})
True
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from blockref.bridge.ratings import Identity, Standing
from blockref.bridge.ratings_store import Table


@dataclass(frozen=True)
class PlayerStanding:
    """One game's figures of a player: their identity, standing and place on that game's ladder (None:
    not rated yet)."""

    game: str
    who: Identity
    standing: Standing
    place: int | None
    label: str = ""
    """How the page names the identity (numbered where several machines went by the name; never the
    address: see :meth:`bridge.ratings_store.Table.label`); "" for the name alone."""


def standings_of(ratings: Table, name: str) -> list[PlayerStanding]:
    """Every game's figures of ``name`` (whatever its case), by game."""
    folded = name.lower()
    found = []
    for game, who, standing in ratings.rows():
        if who.name.lower() != folded:
            continue
        ladder = [w for w, _ in ratings.ladder.ladder(game)]
        found.append(PlayerStanding(game, who, standing, ladder.index(who) + 1 if who in ladder else None,
                                    ratings.label(who)))
    return found


def ratings_table(name: str, standings: list[PlayerStanding], titles: dict[str, str]) -> str:
    """The section: a row per game, or a line saying there is nothing yet."""
    if not standings:
        return f'<p id="no-ratings">{escape(name)} has no finished game on record yet.</p>'
    rows = "".join(
        f'<tr data-game="{escape(s.game)}"><td>{escape(titles.get(s.game, s.game))}</td>'
        f'<td>{escape(s.label or s.who.name)}</td>'
        f'<td>{_rating(s)}</td><td>{s.standing.games}</td><td>{s.standing.won}</td><td>{s.standing.drawn}</td>'
        f'<td>{s.standing.lost}</td><td>{s.standing.rated}</td><td>{s.place or "-"}</td></tr>'
        for s in standings)
    return (f'<h2>{escape(name)}: records and ratings</h2><table id="ratings"><thead><tr><th>game</th><th>as</th>'
            "<th>rating</th><th>games</th><th>won</th><th>drawn</th><th>lost</th><th>rated</th><th>place</th>"
            f"</tr></thead><tbody>{rows}</tbody></table>")


def _rating(row: PlayerStanding) -> str:
    s = row.standing
    return f"{s.rating:.1f} (μ {s.mu:.1f}, σ {s.sigma:.1f})" if s.rated else "not rated yet"
