"""The independent reference devices (../shared/conformance/devices.py) with a board that answers late, as on a busy machine.

Like drive_devices.py, but the board sends nothing when it is created and answers the
daemon's HELLO? and SNAP? only REPLY_DELAY_MS (argv[1]) later: a game can start, and its
first stone and press come, before the board was ever read (issue 39.2). Stdin lines:
  set <index> <B|W|.|?>   a board change (a DIFF; sent only once the board has answered)
  press <L|R>             a clock press
  quit
"""
import json, os, sys, threading

sys.path.insert(0, os.environ["GOBAN_CONFORMANCE"])
from devices import Board, Clock  # noqa: E402

delay_s = int(sys.argv[1]) / 1000.0


class LateBoard(Board):
    """A board whose first words come late: its stones are set meanwhile, unseen."""

    answered = False

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

        threading.Timer(delay_s, answer).start()


board = LateBoard(19, serial="PY-LATE-BOARD")
clock = Clock(serial="PY-LATE-CLOCK")
print(json.dumps({"board": board.path, "clock": clock.path}), flush=True)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "set":
        board.set([(int(words[1]), words[2])])
    elif words[0] == "press":
        clock.press(words[1])
    elif words[0] == "quit":
        break
board.close()
clock.close()
