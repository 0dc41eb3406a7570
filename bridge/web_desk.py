"""The referee's side of seat links (see :mod:`bridge.world_links`): the ``<prefix> link`` chat command,
and the actions of the web inbox judged by the board's referee at each cycle of the service, as a chat
command of the seat's player would be; the world is then drawn by the referee.

A link is delivered privately only: where the server cannot whisper, none is given (and that is said).
"""

from __future__ import annotations

import contextlib
import sqlite3
from typing import TYPE_CHECKING

from blockref.bridge.journal import JournalError
from blockref.bridge.protocol import InvalidArgument, ProtocolError
from blockref.bridge.seat_binding import seat_of
from blockref.bridge.web.orders import parse_action
from blockref.bridge.world_links import WebAction
from blockref.engines.core import SIMULTANEOUS, IllegalAction

if TYPE_CHECKING:
    from blockref.bridge.referee import BoardReferee
    from blockref.bridge.service import Service

LINK_VERB = "link"


def link_reply(service: Service, referee: BoardReferee, speaker: str) -> list[str]:
    """``<prefix> link``, within the speaker's chat budget as every command is: the lines to answer with."""
    budget, now = service.desk.budget, service.desk.clock()
    refused = budget.refusal(referee.name, speaker, now)
    if refused is not None:
        return [refused] if refused else []
    line = seat_link(service, referee, speaker)
    budget.spend(referee.name, speaker, 3, now)  # the two whispers and this line
    return [line]


def seat_link(service: Service, referee: BoardReferee, speaker: str) -> str:
    """Whisper ``speaker`` a link to their seat of ``referee``'s board; the line to answer them with (it
    names no token, so it may be said to everyone where the server cannot whisper)."""
    links = service.links
    seat = seat_of(referee, speaker)
    if links is None:
        return f"{speaker}, this referee gives no web links"
    if seat is None:
        return f"{speaker}, take a seat first ('{referee.prefix} join'): a link acts for your seat"
    try:
        if not service.client.supports_whispers():
            return (f"{speaker}, this server cannot send a line to you alone, so no link is given (a link holds "
                    "your seat: it is never said in public)")
        token = links.issue(referee.name, seat, speaker, referee.seat_addresses.get(seat))
        where = f"/board/{referee.name}#seat={token}"
        url = f"{links.base_url}{where}" if links.base_url else f"{where} on this referee's web page"
        service.client.whisper(speaker, f"[{referee.prefix}] your seat {seat} in a browser (the link holds your "
                                        "seat: keep it to yourself):")
        service.client.whisper(speaker, url)  # a line of its own, so that a split never cuts it
    except (InvalidArgument, ProtocolError) as error:
        with contextlib.suppress(sqlite3.Error):
            links.revoke(referee.name, seat)
        return f"{speaker}, the link could not be sent to you alone ({error}), so none is given"
    except sqlite3.Error as error:
        return f"{speaker}, no link could be made now (the journal's file: {error})"
    return f"{speaker}, a link to your seat {seat} was sent to you alone; a new one replaces it"


def serve_inbox(service: Service) -> None:
    """Judge every action waiting in the web inbox and write each one's answer."""
    links = service.links
    if links is None:
        return
    try:
        if not links.waiting():
            return
        for ask in links.take():
            status, text = _judge(service, ask)
            links.answer(ask.id, status, text)
    except sqlite3.Error as error:  # the inbox cannot be read or answered now: the web withdraws what waits
        if service.links_fault != str(error):
            service.say(f"the web inbox cannot be read now ({error}); actions from seat links wait")
        service.links_fault = str(error)
    else:
        service.links_fault = None


def _judge(service: Service, ask: WebAction) -> tuple[int, str]:
    """The HTTP status and the entry played (200), or why not."""
    referee = service.referees.get(ask.board)
    if referee is None:
        return 404, f"this referee has no board {ask.board!r}"
    if service.paused is not None:
        return 503, f"the journal cannot be written now ({service.paused}); try again later"
    assert service.links is not None
    machine, held_from = service.links.machine(ask.board, ask.seat), referee.seat_addresses.get(ask.seat)
    if referee.seats.get(ask.seat) != ask.name or (machine is not None and held_from != machine):
        service.links.revoke(ask.board, ask.seat)  # held by another name, or by the same from another machine
        return 403, f"seat {ask.seat} of {ask.board} is not {ask.name}'s now: this link is dead"
    state = referee.state
    if ask.seen != len(state.history()):
        return 409, f"the position changed: you saw {ask.seen} entries, the game has {len(state.history())}; look again"
    if state.is_terminal():
        return 409, f"the game is over: {referee.status()}"
    mover = state.current_player()
    concede = ask.action.strip().lower() == "concede"
    if not concede and mover not in (SIMULTANEOUS, ask.seat):
        return 409, f"it is {referee.who(mover)}'s turn, you hold seat {ask.seat}"
    try:
        action = None if concede else parse_action(referee.world, state, ask.seat, ask.action)
    except ValueError as error:
        return 400, f"{ask.action.strip()!r} is no move: {error}"
    service.unsettled.add(referee.name)
    try:
        text = f"concede {ask.seat}" if action is None else state.action_to_text(action)
        lines = referee.concede(ask.seat, by=ask.name) if action is None else referee.act(ask.seat, action, ask.name)
    except IllegalAction as error:
        return 422, f"{ask.action.strip()} is not allowed: {error}"
    except JournalError as error:
        return 503, f"the journal cannot be written now ({error}); try again later"
    for line in lines:
        service.post(referee, line)
    return 200, text
