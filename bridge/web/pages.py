"""The HTML pages: server-rendered, a small script (``static/app.js``) keeps them live and sends moves."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping
from html import escape
from urllib.parse import urlencode

from blockref.bridge.journal import GameSummary
from blockref.bridge.web.clicks import Spot, reach
from blockref.bridge.web.live import Clock, LobbyRow, Pending, Snapshot, TurnShown
from blockref.bridge.web.positions import Move
from blockref.bridge.web.ratings import PlayerStanding, ratings_table


def layout(title: str, body: str, page: str, data: Mapping[str, object] | None = None) -> str:
    attributes = f' data-page="{page}"' + "".join(
        f' data-{key}="{escape(value if isinstance(value, str) else json.dumps(value))}"'
        for key, value in (data or {}).items())
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)} · blockref</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css"></head>
<body{attributes}>
<nav><a href="/">Lobby</a> <a href="/archive">Archive</a> <a href="/play">Play</a></nav>
<main>{body}</main>
<script src="/static/app.js"></script>
</body></html>
"""


def who(seats: dict[str, str], colours: dict[str, str] | None = None) -> str:
    """``player 1 (red): ann, player 2 (blue): open``: the seats as the world names them (the script writes the
    same from the live events)."""
    if colours:
        return ", ".join(f"player {seat} ({colour}): {seats.get(seat, 'open')}" for seat, colour in colours.items())
    return ", ".join(f"player {seat}: {name}" for seat, name in seats.items()) or "no one seated"


def clock_text(clock: Clock | None, seats: dict[str, str]) -> str:
    """``ann 0:42 + 4:30 ⏱ · ben 1:30 + 5:00``: each player's time for the move + reserve, whose runs (the
    script counts it down from the same data)."""
    if not clock:
        return ""

    def mmss(seconds: float) -> str:
        whole = math.ceil(max(0.0, seconds))
        return f"{whole // 60}:{whole % 60:02d}"

    return " · ".join(f"{seats.get(str(p['player']), 'player ' + str(p['player']))} {mmss(p['move_left'])} + "
                      f"{mmss(p['reserve_left'])}" + (" ⏱" if p["player"] == clock["running"] else "")
                      for p in clock["players"])


def _clock_attributes(clock: Clock | None, seats: dict[str, str]) -> str:
    """What the script counts the clock down from."""
    return f'data-clock="{escape(json.dumps(clock))}" data-seats="{escape(json.dumps(seats))}"'


def turn_text(row: TurnShown, now: float | None = None) -> str:
    """``the turn ends in 12 s``: a turn clock's (a game whose orders are queued until it ends the turn)."""
    ends = None if row["terminal"] else row["turn_ends"]
    if ends is None:
        return ""
    return f"the turn ends in {max(0, math.ceil(ends - (time.time() if now is None else now)))} s"


def _turn_attribute(row: TurnShown) -> str:
    ends = None if row["terminal"] else row["turn_ends"]
    return "" if ends is None else f' data-turn-ends="{ends}"'


def lobby(rows: list[LobbyRow]) -> str:
    body = ("<h1>Boards</h1><table id=\"lobby\"><thead><tr><th>board</th><th>game</th><th>players</th>"
            "<th>status</th><th>clock</th><th>last move</th><th>watching</th></tr></thead><tbody>"
            + "".join(lobby_row(row) for row in rows) + "</tbody></table>"
            + ("" if rows else "<p id=\"empty\">No game yet: start one in the world or on the Play page.</p>"))
    return layout("Lobby", body, "lobby")


def lobby_row(row: LobbyRow) -> str:
    """One board of the lobby (the script renders the same row from the live events)."""
    name = escape(row["board"])
    return (f'<tr data-board="{name}"><td><a href="/board/{name}">{name}</a></td><td>{escape(row["title"])}</td>'
            f'<td>{escape(who(row["seats"], row.get("colours")))}</td><td>{escape(row["status"])}</td>'
            f'<td class="clock" {_clock_attributes(row.get("clock"), row["seats"])}{_turn_attribute(row)}>'
            f'{escape(clock_text(row.get("clock"), row["seats"]) or turn_text(row))}</td>'
            f'<td>{escape(row["last"] or "-")}</td><td>{row["spectators"]}</td></tr>')


def moves_list(moves: list[Move], colours: dict[str, str] | None = None) -> str:
    return "".join(f'<li value="{m["n"]}">{escape(move_text(m, colours))}</li>' for m in moves)


def pending_list(pending: list[Pending], colours: dict[str, str] | None = None) -> str:
    return "".join(f"<li>{escape(pending_text(p, colours))}</li>" for p in pending)


def pending_text(pending: Pending, colours: dict[str, str] | None = None) -> str:
    """``order 1 12.0 11.0 12 — player 1 (red), alex``: a queued action and who gave it."""
    colour = (colours or {}).get(str(pending["seat"]))
    return (f"{pending['entry']} — player {pending['seat']}" + (f" ({colour})" if colour else "")
            + (f", {pending['by']}" if pending["by"] else ""))


def move_text(move: Move, colours: dict[str, str] | None = None) -> str:
    """``c3-c4 (cut) — player 1 (red), alex``: an entry, its consequences, who played it."""
    words = f" ({'; '.join(move['consequences'])})" if move["consequences"] else ""
    colour = (colours or {}).get(str(move["player"]))
    player = f"player {move['player']}" + (f" ({colour})" if colour else "") if move["player"] else None
    by = ", ".join(str(w) for w in (player, move["by"]) if w)
    return f"{move['entry']}{words}" + (f" — {by}" if by else "")


def board(snapshot: Snapshot, targets: list[tuple[str, Spot]], hints: bool = False) -> str:
    """A board live; ``targets`` are what a click on its picture picks (see :mod:`bridge.web.clicks`); a Hint
    button where ``hints`` are given."""
    name = escape(snapshot["board"])
    body = f"""<h1>{name}: {escape(snapshot["title"])}</h1>
<p id="players">{escape(who(snapshot["seats"], snapshot.get("colours")))}</p>
<div class="live"><div id="svg">{snapshot["svg"]}</div>
<div class="side"><p id="status">{escape(snapshot["status"])}</p>
<p id="clock" class="clock" {_clock_attributes(snapshot.get("clock"), snapshot["seats"])}>{escape(clock_text(
    snapshot.get("clock"), snapshot["seats"]))}</p>
<form id="move" hidden><p id="seat"></p><p id="picked"></p><p id="choices"></p>
<input name="action" autocomplete="off" placeholder="a move in record notation" aria-label="move">
<button type="submit">Play</button> <button type="button" id="concede">Concede</button>
{'<button type="button" id="hint">Hint</button>' if hints else ""}
<p id="reason" role="alert"></p><p id="hint-text"></p></form>
<p id="turn"></p><div id="queue"{"" if snapshot.get("pending") else " hidden"}><h2>Orders queued</h2>
<ol id="pending">{pending_list(snapshot.get("pending", []), snapshot.get("colours"))}</ol></div>
<h2>Moves</h2><ol id="moves">{moves_list(snapshot["moves"], snapshot.get("colours"))}</ol>
<h2>Chat</h2><ol id="chat">{"".join(f"<li>{escape(line)}</li>" for line in snapshot.get("chat", []))}</ol>
<p><a href="/game/{snapshot["game_id"]}">this game in the archive</a></p></div></div>"""
    data: dict[str, object] = {"board": snapshot["board"], "game": snapshot["game"], "seen": str(snapshot["seen"])}
    if targets:
        data["targets"] = [[key, x, y] for key, (x, y) in targets]
        data["reach"] = str(reach(targets))
    return layout(snapshot["board"], body, "board", data)


def archive(games: list[GameSummary], who: dict[int, list[str]], titles: dict[str, str], chosen_game: str,
            chosen_player: str, players: list[str], standings: list[PlayerStanding] | None = None) -> str:
    """The games found (``who`` played each), the filter, and each player's name as a link to their games;
    with a player chosen, their record and rating in each game (``standings``)."""
    options = "".join(f'<option value="{g}"{" selected" if g == chosen_game else ""}>{escape(t)}</option>'
                      for g, t in titles.items())
    known = "".join(f'<option value="{escape(p)}">' for p in players)
    rows = "".join(
        f'<tr><td><a href="/game/{g.id}">{g.id}</a></td><td>{escape(g.board)}</td>'
        f'<td>{escape(titles.get(g.game, g.game))}</td><td>{_when(g.started)}</td>'
        f'<td>{escape(g.outcome)}</td><td>{g.entries}</td><td>{_player_links(who.get(g.id, []))}</td></tr>'
        for g in games)
    section = ratings_table(chosen_player, standings or [], titles) if chosen_player else ""
    body = f"""<h1>Archive</h1>
<form id="filter" method="get"><label>game <select name="game"><option value="">any</option>{options}</select></label>
<label>player <input name="player" list="players" value="{escape(chosen_player)}"></label><datalist id="players">{known}
</datalist> <button>Filter</button></form>{section}
<table id="games"><thead><tr><th>id</th><th>board</th><th>game</th><th>started</th><th>result</th><th>entries</th>
<th>players</th></tr></thead><tbody>{rows}</tbody></table>{"" if games else '<p id="empty">No game matches.</p>'}"""
    return layout("Archive", body, "archive")


def _player_links(names: list[str]) -> str:
    return ", ".join(f'<a class="player" href="/archive?{urlencode({"player": name})}">{escape(name)}</a>'
                     for name in names)


def viewer(summary: GameSummary, title: str, at: int, svg: str, status: str, moves: list[Move],
           colours: dict[str, str] | None = None) -> str:
    body = f"""<h1>Game {summary.id}: {escape(title)} on {escape(summary.board)}</h1>
<p>{_when(summary.started)}, {escape(summary.outcome)}.
<a id="record" href="/game/{summary.id}/record.txt" download="game-{summary.id}.record">download the record</a></p>
<div class="live"><div id="svg">{svg}</div><div class="side">
<p id="controls"><button id="first">|◀ first</button> <button id="back">◀ back</button>
<button id="forward">forward ▶</button> <button id="last">last ▶|</button></p>
<p>position <span id="at">{at}</span> of <span id="total">{len(moves)}</span>
(<a id="here" href="/game/{summary.id}?at={at}">link to this position</a>)</p>
<p id="status">{escape(status)}</p><ol id="moves">{moves_list(moves, colours)}</ol></div></div>"""
    return layout(f"Game {summary.id}", body, "viewer", {"game-id": str(summary.id), "at": str(at),
                                                          "total": str(len(moves))})


def play(titles: dict[str, str]) -> str:
    games = "".join(f'<option value="{g}">{escape(t)}</option>' for g, t in titles.items())
    body = f"""<h1>Play in the browser</h1>
<form id="new" novalidate><label>game <select name="game">{games}</select></label>
<label>against <select name="opponent"><option value="easy">the computer, easy</option>
<option value="normal">the computer, normal</option><option value="hard">the computer, hard</option>
<option value="person">a person at another browser</option></select></label>
<label>your name <input name="name" value="guest" maxlength="24"></label>
<fieldset id="options"><legend>options</legend></fieldset>
<button>Start</button></form><p id="reason" role="alert"></p>
<div id="links" hidden><p>Each link holds a seat and is shown only this once: give the others theirs.</p>
<ul></ul></div>"""
    return layout("Play", body, "play")


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(seconds))
