"""Drives the independent reference devices (../shared/conformance/devices.py) for an e2e test.

Prints one JSON line with the pty paths, then obeys stdin lines:
  set <index> <B|W|.|?>   a board change (DIFF)
  press <L|R>             a clock press
  frames                  prints the kinds of frames the daemon sent, as a JSON list
  quit

With an argument REPLY_DELAY_MS, the board answers late, as on a busy machine: it sends
nothing when it is created and answers the daemon's HELLO? and SNAP? only that many ms later,
so a game can start, and its first stone and press come, before the board was ever read
(issue 39.2); stones set meanwhile are on the board, unseen, until it answers.
"""
import json, os, sys, threading

sys.path.insert(0, os.environ["GOBAN_CONFORMANCE"])
from devices import Board, Clock  # noqa: E402


class LateBoard(Board):
    """A board whose first words come `delay_s` late."""

    answered = False
    delay_s = 0.0

    def hello(self):
        if self.answered:
            Board.hello(self)

    def set(self, changes):
        if self.answered:
            Board.set(self, changes)
        else:
            for i, s in changes:
                self.points[i] = s

    def on_host(self, f):
        def answer():
            self.answered = True
            Board.on_host(self, f)

        threading.Timer(self.delay_s, answer).start()


if len(sys.argv) > 1:
    LateBoard.delay_s = int(sys.argv[1]) / 1000.0
    board = LateBoard(19, serial="PY-LATE-BOARD")
else:
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
