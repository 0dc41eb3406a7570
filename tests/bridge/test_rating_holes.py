"""Records and ratings in chat against a curious player: ``top``, ``stats`` and the end-of-game lines
named every rated player with the network address they play from (``bob (10.0.0.2)``), to anyone who
asked. A name seated from several machines is now numbered instead, in order of first game."""

from __future__ import annotations

from blockref.bridge.journal import Journal
from blockref.bridge.ratings_chat import result_lines, stats_lines, top_lines
from blockref.bridge.ratings_store import refresh
from blockref.bridge.web.ratings import ratings_table, standings_of


def play(journal: Journal, alice_from: str) -> int:
    """alice (from ``alice_from``) beats bob (from 10.0.0.2) by his concession."""
    journal.set_seat("main", 1, "alice", alice_from)
    journal.set_seat("main", 2, "bob", "10.0.0.2")
    game_id = journal.start_game("main", "nodes", {})
    journal.append(game_id, "concede 2", by="bob", ending=("player 1 won", "player 2 conceded"))
    return game_id


def test_chat_and_the_web_page_never_say_an_address_and_number_a_name_of_several_machines() -> None:
    journal = Journal(":memory:")
    first = play(journal, "10.0.0.1")
    assert result_lines(journal, first) == ["how it ended: player 2 conceded. Ratings: alice 0.0 -> 3.4 (+3.4), "
                                            "bob 0.0 -> -1.8 (-1.8)."]
    second = play(journal, "6.6.6.6")  # someone else as alice, from another machine: another entry
    said = [*result_lines(journal, second), *top_lines(journal, "nodes"), *stats_lines(journal, "nodes", "alice")]
    assert "Ratings: alice #2 0.0 -> " in said[0] and "alice #1" in said[1] and "alice #2" in said[1]
    assert said[2].startswith("alice #1 in Nodes: rating ") and said[4].startswith("alice #2 in Nodes")
    page = ratings_table("alice", standings_of(refresh(journal.connection), "alice"), {"nodes": "Nodes"})
    assert "alice #1" in page and "alice #2" in page
    assert not any(address in " ".join(said) + page for address in ("10.0.0", "6.6.6.6"))
