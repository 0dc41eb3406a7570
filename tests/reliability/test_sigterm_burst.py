"""A burst of SIGTERMs (a process supervisor and ``pkill`` both asking) stops the referee's loop cleanly:
the handler never waits for a lock the interrupted main thread holds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

LOOP = textwrap.dedent("""
    from blockref.bridge.runtime import stop_on_sigterm
    stop = stop_on_sigterm()
    print("ready", flush=True)
    while not stop.is_set():
        stop.wait(0.0005)  # the loop's own wait, as Service.run does between cycles
    print("stopped", flush=True)
""")


def test_a_burst_of_sigterms_stops_the_loop_every_time() -> None:
    for _ in range(12):
        process = subprocess.Popen([sys.executable, "-c", LOOP], stdout=subprocess.PIPE, text=True)
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        for _ in range(300):
            try:
                os.kill(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                break
        try:
            out, _ = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise AssertionError("the loop hung in its SIGTERM handler") from None
        assert process.returncode == 0 and out.strip() == "stopped"
