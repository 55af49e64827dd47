"""A real game between the independent devices flows to REST state, live SGF and MQTT (api.md; CN2002 5: captures)."""
import re
import time

from game import CAPTURE, OPENING, expected_position, play_all
from harness import MqttSub, point_name, retained, wait_for

GAME = OPENING + [CAPTURE]
COLOURS = {"B": "black", "W": "white"}


def sgf_point(index, size=9):
    row, col = divmod(index, size)
    return "abcdefghijklmnopqrs"[col] + "abcdefghijklmnopqrs"[row]


def move_point(payload):
    """The point of a move event: at top level or under `move` (api.md leaves the envelope open)."""
    if isinstance(payload, dict):
        if "point" in payload:
            return payload["point"], payload.get("color")
        if isinstance(payload.get("move"), dict):
            return payload["move"].get("point"), payload["move"].get("color")
    return None, None


def test_game_reaches_rest_with_capture(daemon, table):
    state = play_all(daemon, table, GAME)
    state = daemon.state(table.id)
    assert state["v"] == 1 and isinstance(state["seq"], int)
    assert state["board"] == table.id and state["size"] == 9 and state["ruleset"] == "cn2002"
    assert state["phase"] == "playing", state["phase"]
    assert state["move_number"] == len(GAME)
    assert state["to_move"] == "white"
    assert state["position"] == expected_position(GAME), "captured D6 must be gone (CN2002 5)"
    assert state["captures"] == {"black": 1, "white": 0}
    got = [(m["number"], m["color"], m["point"]) for m in state["moves"]]
    want = [(i + 1, COLOURS[c], point_name(p, 9)) for i, (c, p, _) in enumerate(GAME)]
    assert got == want
    assert state["infractions"] == [], "a clean game must raise no alert (never cry wolf)"
    assert state["device"]["board"] == "connected" and state["device"]["clock"] == "connected"


def test_live_sgf_has_every_move(daemon, table):
    play_all(daemon, table, GAME)
    status, headers, body = daemon.http.request("GET", f"/boards/{table.id}/sgf", raw=True)
    assert status == 200
    assert headers.get("Content-Type", "").startswith("application/x-go-sgf")
    sgf = body.decode()
    assert "SZ[9]" in sgf
    moves = re.findall(r";\s*([BW])\[([a-s]{2})\]", sgf)
    assert moves == [(c, sgf_point(p)) for c, p, _ in GAME], sgf


def test_mqtt_moves_and_retained_state(daemon, table):
    base = f"{daemon.prefix}/boards/{table.id}"
    sub = MqttSub(f"{base}/moves", timeout=40)
    try:
        play_all(daemon, table, GAME)
        want = [(point_name(p, 9), COLOURS[c]) for c, p, _ in GAME]
        # The topic may also carry other events (e.g. a `correction` filling in time_left_ms at the
        # press); the move events are those with a point, and each move must come exactly once.
        def moves():
            return [m for m in sub.messages() if move_point(m[2])[0] is not None]
        wait_for("all moves on MQTT", lambda: len(moves()) >= len(GAME), timeout=5)
        time.sleep(0.3)  # a duplicate would arrive right behind
        msgs = moves()
        assert all(not r for _, r, _ in msgs), "moves are not retained (api.md MQTT)"
        assert [move_point(p) for _, _, p in msgs] == want, msgs
        seqs = [p["seq"] for _, _, p in msgs]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs), f"seq must grow: {seqs}"
        assert all(p["v"] == 1 for _, _, p in msgs)
    finally:
        sub.close()
    state = retained(f"{base}/state")
    assert isinstance(state, dict), f"no retained state on {base}/state: {state!r}"
    assert state["move_number"] == len(GAME)
    assert state["position"] == expected_position(GAME)
    assert state["seq"] >= max(seqs)
    assert retained(f"{daemon.prefix}/status") == "online"
