"""Drives the independent reference devices (../shared/conformance/devices.py) for an e2e test.

Prints one JSON line with the pty paths, then obeys stdin lines:
  set <index> <B|W|.|?>   a board change (DIFF)
  press <L|R>             a clock press
  frames                  prints the kinds of frames the daemon sent, as a JSON list
  quit
"""
import json, os, sys

sys.path.insert(0, os.environ["GOBAN_CONFORMANCE"])
from devices import Board, Clock  # noqa: E402

board = Board(19, serial="PY-BOARD-1")
clock = Clock(serial="PY-CLOCK-1")
print(json.dumps({"board": board.path, "clock": clock.path}), flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "set":
        board.set([(int(words[1]), words[2])])
    elif words[0] == "press":
        clock.press(words[1])
    elif words[0] == "frames":
        kinds = [f[0] for _, f in board.host_frames] + [f[0] for _, f in clock.host_frames]
        print(json.dumps(kinds), flush=True)
    elif words[0] == "quit":
        break
board.close()
clock.close()
