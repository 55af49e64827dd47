"""The short real game every conformance test plays on a 9x9 board: a ko shape, a capture, then the ko retaken."""
from harness import idx, play

# (colour, index, captured indices lifted before the press). Rows from the top, as wire-protocol.md.
OPENING = [
    ("B", idx(2, 3), ()),  # D7
    ("W", idx(2, 4), ()),  # E7
    ("B", idx(3, 2), ()),  # C6
    ("W", idx(3, 5), ()),  # F6
    ("B", idx(4, 3), ()),  # D5
    ("W", idx(4, 4), ()),  # E5
    ("B", idx(7, 7), ()),  # H2
    ("W", idx(3, 3), ()),  # D6, one liberty left at E6
]
CAPTURE = ("B", idx(3, 4), (idx(3, 3),))  # E6 takes D6: a ko (CN2002 18.3 forbids the immediate retake)
KO_RETAKE = ("W", idx(3, 3), (idx(3, 4),))  # D6 retakes at once: ko_violation, CN2002 18.3


def expected_position(moves, size=9):
    """The position string after `moves`, computed here from the moves (not asked of the daemon)."""
    points = ["."] * (size * size)
    for colour, index, removes in moves:
        points[index] = colour
        for r in removes:
            points[r] = "."
    return "".join(points)


def play_all(daemon, table, moves):
    state = None
    for colour, index, removes in moves:
        state = play(daemon, table, colour, index, removes)
    return state
