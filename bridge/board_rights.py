"""Who may delete, clear, move or change a board made in the world: its maker and the config's admins.

Where the server tells players' addresses, the maker's right is bound to the machine they made the board
from, and an admin's to the first machine they acted from as admin (kept in the data folder), as a seat is
bound (:mod:`bridge.seat_binding`): a name typed from another machine is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from blockref.bridge.board_store import BoardStore, MadeBoard

PHRASES = {"options": "change the options of"}


def is_admin(admins: Sequence[str], store: BoardStore, speaker: str, address: str | None, addresses_told: bool) -> bool:
    """Whether ``speaker`` acts as an admin from ``address``: named in the config, and where the server tells
    addresses, from the machine they first acted from as admin (bound now if they never did; saved)."""
    if speaker not in admins:
        return False
    if address is None or not addresses_told:
        return True
    if speaker not in store.admin_addresses:
        store.admin_addresses[speaker] = address
        store.save()
    return store.admin_addresses[speaker] == address


def refusal(made: MadeBoard, admins: Sequence[str], store: BoardStore, speaker: str, address: str | None,
            addresses_told: bool, verb: str) -> str | None:
    """The line refusing ``verb`` on the board to ``speaker`` (from ``address``), or None when they may."""
    if speaker == made.creator and (not addresses_told or made.creator_address in (None, address)):
        return None
    if is_admin(admins, store, speaker, address, addresses_told):
        return None
    if speaker == made.creator or speaker in admins:
        return f"{speaker}: that name made board {made.name} (or is an admin) from another machine: not done"
    what = PHRASES.get(verb, verb)
    return f"{speaker}: only {made.creator}, who made board {made.name}, and the admins may {what} it"
