"""The Starlette app: pages, the JSON API, the live event streams, and web games' actions.

``create_app(data)`` serves the journal of the data folder ``data`` (the bridge's ``--data``); it never
writes an in-world game. Every refused request gets a 4xx with one line saying why.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from blockref.bridge.commands.games import ExportError, export_record
from blockref.bridge.journal import GameSummary, SavedGame
from blockref.bridge.web import clicks, pages
from blockref.bridge.web.game_options import option_forms
from blockref.bridge.web.headers import SecurityHeaders
from blockref.bridge.web.hub import LOBBY, Hub
from blockref.bridge.web.limits import RateLimit
from blockref.bridge.web.live import Boards, Snapshot, seat_colours
from blockref.bridge.web.play import PLAYABLE, WebGames, unfinished
from blockref.bridge.web.positions import GameReplay
from blockref.bridge.web.ratings import standings_of
from blockref.bridge.web.refused import Refused
from blockref.engines.catalogue import GAMES, game_module

STATIC = Path(__file__).with_name("static")
MAX_BODY = 4096
BODY_SECONDS = 10.0
"""Seconds a client has to send a request's body (one sent a byte at a time would hold its request)."""
MAX_DIGITS = 18
"""The longest number a path takes (SQLite's integers have 19 digits)."""
SEATS = "web-seats.sqlite3"
"""The web games' seat tokens in the data folder: without it no web game exists (and watching opens nothing)."""


def _titles(names: tuple[str, ...] | list[str]) -> dict[str, str]:
    return {name: str(game_module(name).TITLE) for name in names}


def create_app(data: Path, spectators: int = 500, rate: float = 20, burst: float = 60,
               per_address: int = 20) -> Starlette:
    """The app for data folder ``data``: at most ``spectators`` live streams (``per_address`` from one
    address), ``rate`` requests a second per address (bursts of ``burst``)."""
    boards = Boards(data / "journal.sqlite3")
    hub = Hub(boards, cap=spectators, per_address=per_address)
    state: dict[str, WebGames] = {}

    def games() -> WebGames:
        if "games" not in state:
            state["games"] = WebGames.open(data, boards)
        return state["games"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.check()
        waiting = unfinished(boards)
        if waiting:
            games().resume(waiting)
        poller = asyncio.create_task(hub.run())
        yield
        poller.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await poller
        if "games" in state:
            await state["games"].close()

    def snapshot(request: Request) -> Snapshot:
        name = request.path_params["name"]
        hub.check()
        found = boards.fresh(name)
        if found is None:
            archive = boards.archive
            old = None if archive is None else archive.newest_game(name)
            raise Refused(404, f"there is no board {name!r}" if old is None else
                          f"the game of {name} is over: it is in the archive at /game/{old.id}")
        return found

    async def lobby_page(request: Request) -> Response:
        hub.check()
        return HTMLResponse(pages.lobby(boards.lobby(hub.spectators())))

    async def board_page(request: Request) -> Response:
        found = snapshot(request)
        replay = boards.replay(found["game_id"])
        hints = ("games" in state or (data / SEATS).exists()) and games().hint_refusal(found["board"]) is None
        return HTMLResponse(pages.board(found, [] if replay is None else clicks.targets(replay.state), hints))

    async def legal_api(request: Request) -> Response:
        found = snapshot(request)
        replay = boards.replay(found["game_id"])
        legal = [] if replay is None or replay.broken else clicks.legal_picks(replay.state)
        return JSONResponse({"seen": len(replay.moves) if replay else 0, "legal": legal})

    async def archive_page(request: Request) -> Response:
        game, player = request.query_params.get("game", ""), request.query_params.get("player", "").strip()
        archive = boards.archive
        found = [] if archive is None else archive.games(game or None, player or None)
        known = [] if archive is None else archive.players()
        who = {} if archive is None else archive.players_of([g.id for g in found])
        standings = standings_of(archive.ratings(), player) if archive is not None and player else []
        return HTMLResponse(pages.archive(found, who, _titles(list(GAMES)), game, player, known, standings))

    def _game(request: Request) -> tuple[GameSummary, GameReplay]:
        text = request.path_params["game_id"]
        if not (text.isdecimal() and len(text) <= MAX_DIGITS):
            raise Refused(404, "a game is named by its number")
        game_id = int(text)
        archive = boards.archive
        summary = None if archive is None else archive.game(game_id)
        replay = boards.replay(game_id)
        if summary is None or replay is None:
            raise Refused(404, f"there is no game {game_id} in the journal")
        return summary, replay

    def _at(request: Request, total: int) -> int:
        text = request.path_params.get("n", request.query_params.get("at", str(total)))
        if not (text.isdecimal() and len(text) <= MAX_DIGITS and int(text) <= total):
            said = text if len(text) <= MAX_DIGITS else text[:MAX_DIGITS] + "..."
            raise Refused(400, f"a position is a number of entries 0..{total}, not {said!r}")
        return int(text)

    async def viewer_page(request: Request) -> Response:
        summary, replay = _game(request)
        at = _at(request, len(replay.moves))
        position = replay.position(at)
        return HTMLResponse(pages.viewer(summary, str(replay.module.TITLE), at, replay.svg(position),
                                         replay.status(position), replay.moves,
                                         seat_colours(summary.game, replay.game.num_players)))

    async def position_api(request: Request) -> Response:
        _, replay = _game(request)
        at = _at(request, len(replay.moves))
        position = replay.position(at)
        return JSONResponse({"at": at, "total": len(replay.moves), "svg": replay.svg(position),
                             "status": replay.status(position)})

    async def record(request: Request) -> Response:
        summary, replay = _game(request)
        saved = SavedGame(summary.id, summary.game, summary.options, [m["entry"] for m in replay.moves])
        try:
            text = export_record(saved, summary)
        except ExportError as error:
            raise Refused(409, str(error)) from None
        disposition = f'attachment; filename="game-{summary.id}.record"'
        return PlainTextResponse(text, headers={"Content-Disposition": disposition})

    async def play_page(request: Request) -> Response:
        return HTMLResponse(pages.play(_titles(list(PLAYABLE))))

    async def options_api(request: Request) -> Response:
        game = request.path_params["game"]
        if game not in PLAYABLE:
            said = game if len(game) <= MAX_DIGITS else game[:MAX_DIGITS] + "..."
            raise Refused(404, f"the web plays {', '.join(PLAYABLE)}; {said!r} is not one of them")
        return JSONResponse({"game": game, "options": option_forms(game)})

    async def lobby_api(request: Request) -> Response:
        hub.check()
        return JSONResponse(boards.lobby(hub.spectators()))

    async def board_api(request: Request) -> Response:
        return JSONResponse(snapshot(request))

    async def events(request: Request) -> Response:
        topic = request.path_params.get("name", LOBBY)
        if topic != LOBBY:
            snapshot(request)
        subscription = hub.subscribe(topic, request.client.host if request.client else "")
        if isinstance(subscription, str):
            raise Refused(503, subscription)
        return StreamingResponse(hub.stream(subscription), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def new_game(request: Request) -> Response:
        body = await _json(request)
        options = body.get("options", {})
        names = body.get("names", ["guest"])
        if not isinstance(options, dict) or not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise Refused(400, "options must be an object and names a list of names")
        created = games().create(_text(body, "game"), options, _text(body, "opponent"), names)
        hub.check()
        return JSONResponse({"board": created.board,
                             "links": {str(seat): f"/board/{created.board}#seat={token}"
                                       for seat, token in created.tokens.items()}}, status_code=201)

    async def act(request: Request) -> Response:
        name = request.path_params["name"]
        body = await _json(request)
        seen = body.get("seen")
        if not isinstance(seen, int) or isinstance(seen, bool):
            raise Refused(400, "seen (the number of entries you saw) must be a whole number")
        entry = await games().act(name, _text(body, "token"), _text(body, "action"), seen)
        hub.check()
        shown = boards.snapshots.get(name)
        now = seen + 1 if shown is None else shown["seen"]  # the same where the action was queued
        return JSONResponse({"played": entry, "seen": now})

    async def seat(request: Request) -> Response:
        body = await _json(request)
        return JSONResponse({"seat": games().seat_of(request.path_params["name"], _text(body, "token"))})

    async def hint(request: Request) -> Response:
        body = await _json(request)
        return JSONResponse({"hint": await games().hint(request.path_params["name"], _text(body, "token"))})

    async def refused(request: Request, error: Exception) -> Response:
        assert isinstance(error, Refused)
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": error.reason}, status_code=error.status)
        return PlainTextResponse(error.reason + "\n", status_code=error.status)

    routes = [
        Route("/", lobby_page), Route("/board/{name}", board_page), Route("/archive", archive_page),
        Route("/game/{game_id}", viewer_page), Route("/game/{game_id}/record.txt", record),
        Route("/play", play_page),
        Route("/api/lobby", lobby_api), Route("/api/board/{name}", board_api),
        Route("/api/board/{name}/legal", legal_api),
        Route("/api/game/{game_id}/position/{n}", position_api),
        Route("/api/games", new_game, methods=["POST"]), Route("/api/games/{game}/options", options_api),
        Route("/api/board/{name}/act", act, methods=["POST"]),
        Route("/api/board/{name}/hint", hint, methods=["POST"]),
        Route("/api/board/{name}/seat", seat, methods=["POST"]),
        Route("/events/lobby", events), Route("/events/board/{name}", events),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={Refused: refused},
                     middleware=[Middleware(SecurityHeaders), Middleware(RateLimit, rate=rate, burst=burst)])


async def _json(request: Request) -> dict[str, object]:
    """The request's JSON object (at most :data:`MAX_BODY` bytes)."""
    body = b""
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise Refused(413, f"a request body has at most {MAX_BODY} bytes")
    except TimeoutError:
        raise Refused(408, f"a request body comes within {BODY_SECONDS:g} s") from None
    try:
        value = json.loads(body or b"null")
    except (ValueError, RecursionError):  # RecursionError: nested too deep for the parser
        raise Refused(400, "the body must be a JSON object") from None
    if not isinstance(value, dict):
        raise Refused(400, "the body must be a JSON object")
    return value


def _text(body: Mapping[str, object], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise Refused(400, f"{key} is missing (a text)")
    return value
