"""Draw offers: ``<prefix> draw`` offers a draw, and the game ends drawn (the engines' ``agreed draw``) once
every other player still in the game typed ``draw`` within :data:`WINDOW` seconds; the game goes on
meanwhile, and a lapse is told. Offers live in memory only: a restart forgets them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from blockref.engines.core import IllegalAction

if TYPE_CHECKING:
    from blockref.bridge.referee import BoardReferee

WINDOW = 60.0  # seconds a challenge or a draw offer stays open


class Desk(Protocol):
    """What matches and draw offers need of the chat desk (:class:`bridge.chat_commands.CommandDesk`)."""

    def clock(self) -> float: ...
    def is_computer(self, referee: BoardReferee, player: int) -> bool: ...
    def unseat_computer(self, referee: BoardReferee, player: int) -> object: ...


@dataclass
class DrawOffer:
    referee: BoardReferee
    game_id: int
    by: int
    at: float
    agreed: set[int] = field(default_factory=set)
    holders: dict[int, str] = field(default_factory=dict)
    """Who held each seat still in the game when the draw was offered: an agreement is its person's, so a
    seat changing hands voids the offer."""


@dataclass
class DrawOffers:
    """The open draw offer of each board."""

    offers: dict[str, DrawOffer] = field(default_factory=dict)
    """By board name."""

    def offer(self, desk: Desk, speaker: str, seat: int | None, referee: BoardReferee) -> list[str]:
        """``speaker`` (in ``seat``) types ``draw``: an offer, an agreement to the open one, or the draw
        itself once every other player still in the game agreed; the lines to post."""
        state, prefix = referee.state, referee.prefix
        if state.is_terminal():
            return [f"{speaker}, the game is over: there is nothing to draw"]
        in_game = referee.world.players_in_game(state)
        if seat is None or seat not in in_game:
            return [f"{speaker}, only a player still in the game may offer a draw"]
        others = [p for p in in_game if p != seat]
        people = [p for p in others if p in referee.seats and not desk.is_computer(referee, p)]
        if not any(p in referee.seats for p in others):
            return [f"{speaker}, nobody else is seated: a draw needs an opponent to agree"]
        absent = [p for p in others if p not in people]
        if absent:
            return [f"{speaker}, a draw needs every player still in the game to agree, and "
                    f"{', '.join(referee.who(p) for p in absent)} cannot (open or the computer)"]
        offer = self.offers.get(referee.name)
        holders = {p: referee.seats[p] for p in in_game if p in referee.seats}
        if offer is None or offer.game_id != referee.game_id or offer.holders != holders:
            offer = DrawOffer(referee, referee.game_id, seat, desk.clock(), {seat}, holders)
            self.offers[referee.name] = offer
        elif seat in offer.agreed:
            missing = [referee.seats[p] for p in people if p not in offer.agreed]
            return [f"{speaker}, your draw is offered; waiting for {' and '.join(missing)}"]
        offer.agreed.add(seat)
        missing = [referee.seats[p] for p in people if p not in offer.agreed]
        if missing:
            what = "offers a draw" if seat == offer.by else "agrees to a draw"
            return [f"{speaker} {what}; {' and '.join(missing)}, type '{prefix} draw' within {int(WINDOW)} s "
                    "to agree (the game goes on meanwhile)"]
        del self.offers[referee.name]
        try:
            return referee.agree_draw(by=speaker)
        except IllegalAction as error:
            return [f"{speaker}: {error}"]

    def expire(self, now: float, lines: list[tuple[BoardReferee, str]]) -> None:
        """Drop the offers older than :data:`WINDOW` seconds at ``now``, adding the lines telling their lapse
        (with the board each is said on) to ``lines``; an offer whose game ended is dropped unsaid."""
        for name, offer in list(self.offers.items()):
            board = offer.referee
            if offer.game_id != board.game_id or board.state.is_terminal():
                del self.offers[name]
            elif now - offer.at > WINDOW:
                del self.offers[name]
                lines.append((board, f"{board.who(offer.by)}'s draw offer lapsed; the game goes on"))
