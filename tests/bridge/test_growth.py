"""What the referee keeps in memory or in the data folder must not grow with a flood of names: an
offline-mode server lets anyone log in again and again under ever new names. The chat budget, the names of
connections gone and the watchers stay bounded; the watchers no longer fill up for good."""

from __future__ import annotations

from blockref.bridge.chat_budget import PRUNE_AT, ChatBudget
from blockref.bridge.spectators import MAX_WATCHERS, Watchers
from tests.bridge.test_match_holes import Room


def test_the_chat_budget_forgets_speakers_quiet_for_a_window() -> None:
    budget = ChatBudget(limit=5, window=10.0)
    for n in range(20 * PRUNE_AT):
        now = n * 0.01  # 100 new names a second, each saying one line
        assert budget.refusal("main", f"name{n}", now) is None
        budget.spend("main", f"name{n}", 1, now)
    assert budget.kept() <= 2 * PRUNE_AT
    budget.spend("main", "eve", 5, 1000.0)  # a speaker over budget is still held after a prune
    for n in range(2 * PRUNE_AT):
        budget.spend("main", f"late{n}", 1, 1000.0 + n * 0.001)
    assert budget.refusal("main", "eve", 1003.0) is not None


def test_the_names_of_connections_gone_are_forgotten() -> None:
    room = Room()
    for entity in range(100, 600):
        room.world.log_in(entity, f"guest{entity}", "10.9.9.9")
        room.world.say(entity, f"guest{entity}", "hello")
        room.service.step()
        room.world.log_out(entity)
    assert len(room.service.names) < 300 and len(room.service.addresses) < 300
    assert "bob" in room.service.names.values()  # those online are kept


def test_watchers_gone_offline_make_room_for_one_online() -> None:
    watchers = Watchers()
    for n in range(MAX_WATCHERS):
        assert watchers.watch(f"guest{n}", "main")
    assert not watchers.watch("alice", "main")  # full, and nobody known to be offline
    assert not watchers.watch("alice", "main", online={"alice", *(f"guest{n}" for n in range(MAX_WATCHERS))})
    assert watchers.watch("alice", "main", online={"alice", "guest7"})
    assert watchers.watching == {"guest7": "main", "alice": "main"}
