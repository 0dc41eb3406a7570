"""The board in a browser: a Starlette app that shows every journaled game live, replays any, and plays
web games (``blockref web``, ``blockref up --web``). It reads the same journal and engines as the bridge."""
