"""Line noise, bad CRCs and an unplugged device never disturb the game nor crash the daemon (wire-protocol.md Framing)."""
from game import OPENING, expected_position, play_all
from devices import Board
from harness import Daemon, idx, retained, wait_for
from wire import frame


def test_garbage_and_bad_crc_do_not_disturb_the_game(daemon, table):
    play_all(daemon, table, OPENING[:4])
    before = daemon.state(table.id)
    board = table.board
    board.send(b"\x00\xff garbage \x07 boot banner v0.0\r\n")
    good = frame("DIFF", board.seq, board.ms(), f"{idx(8, 8)}B")
    bad = good[:-6] + (b"0000" if not good[-6:-1].startswith(b"0000") else b"FFFF") + b"\n"
    board.send(bad)  # a stone on J1 that must not count: bad CRC
    board.send(b"$DIFF,99,1,40")  # a partial frame cut by the next `$`
    board.send(frame("NOPE", 1, 2))  # an unknown KIND: ignored
    table.clock.send(b"$PRESS,77,1,L*0000\n")  # a press with a bad CRC: no move
    play_all(daemon, table, OPENING[4:])
    state = daemon.state(table.id)
    assert state["position"] == expected_position(OPENING), "the bad-CRC stone on J1 must not appear"
    assert state["move_number"] == before["move_number"] + len(OPENING) - 4
    assert state["infractions"] == [], state["infractions"]
    assert daemon.alive()
    # The state counts the rejected frames as /health's link report does (issue 15).
    def counts():
        health = daemon.http.get("/health")
        board = next(b for b in health["boards"] if b["board"] == table.id)
        ports = (board.get("report") or {}).get("ports") or []
        linked = sum(sum((p.get("stats") or {}).get("decoder", {}).get("rejections", {}).values()) for p in ports)
        return linked, board["device"]["rejected_frames"], daemon.state(table.id)["device"]["rejected_frames"]
    linked, healthy, live = wait_for(
        "state.device.rejected_frames == the links' rejections on /health",
        lambda: (lambda c: c if c[0] >= 2 and c[0] == c[1] == c[2] else None)(counts()),
        timeout=15,
    )
    assert linked >= 2, "the bad-CRC DIFF and PRESS were rejected by the links"


def test_unplugged_board_is_reported_and_the_daemon_lives_on(daemon, table):
    play_all(daemon, table, OPENING[:3])
    table.board.close()  # the board's pty vanishes mid-game
    state = wait_for(
        "device.board != connected after unplug",
        lambda: (lambda s: s if s["device"]["board"] != "connected" else None)(daemon.state(table.id)),
        timeout=10,
    )
    assert daemon.alive(), f"daemon died after unplug:\n{daemon.log_tail()}"
    assert state["move_number"] == 3 and state["position"] == expected_position(OPENING[:3]), "no move lost"
    health = daemon.http.request("GET", "/health")
    assert health[0] == 200
    device = wait_for(
        "retained MQTT device message showing the board not connected",
        lambda: (lambda d: d if isinstance(d, dict) and d["device"]["board"] != "connected" else None)(
            retained(f"{daemon.prefix}/boards/{table.id}/device")),
        timeout=10,
    )
    assert device["v"] == 1 and device["device"]["clock"] == "connected", device
    # The game goes on from the clock's side: the daemon still answers and keeps the record.
    assert daemon.state(table.id)["moves"][-1]["point"] == "C6"


class ReplugBoard(Board):
    """A board plugged in again mid-game: its first SNAP already shows the stones on the table."""

    def __init__(self, size, points):
        self._initial = list(points)
        super().__init__(size, serial="HB-0001")

    def hello(self):
        if self._initial is not None:
            self.points, self._initial = self._initial, None
        super().hello()


def test_board_replugged_at_its_by_id_link_recovers(table, workdir):
    """Real boards sit behind /dev/serial/by-id links: the link vanishes on unplug and comes back to a new tty."""
    link = workdir / "board-by-id"
    link.symlink_to(table.board.path)
    daemon = Daemon(workdir, [table.spec(board_port=str(link))]).start()
    try:
        play_all(daemon, table, OPENING[:3])
        points = list(table.board.points)
        table.board.close()
        link.unlink()
        wait_for("board reported not connected", lambda: daemon.state(table.id)["device"]["board"] != "connected", timeout=10)
        table.board = ReplugBoard(table.size, points)
        link.symlink_to(table.board.path)
        wait_for("board connected again through the link",
                 lambda: daemon.state(table.id)["device"]["board"] == "connected", timeout=15)
        play_all(daemon, table, OPENING[3:])
        state = daemon.state(table.id)
        assert state["position"] == expected_position(OPENING)
        assert [m["point"] for m in state["moves"]] == ["D7", "E7", "C6", "F6", "D5", "E5", "H2", "D6"]
        assert state["infractions"] == [], f"a replug is not an infraction: {state['infractions']}"
        assert daemon.alive()
    except BaseException:
        print(f"--- daemon log (tail) ---\n{daemon.log_tail()}")
        raise
    finally:
        daemon.stop()
