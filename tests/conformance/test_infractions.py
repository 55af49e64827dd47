"""Infractions witnessed by the independent devices reach REST and MQTT with their kind and article (rules-digest.md table)."""
import time

from game import CAPTURE, KO_RETAKE, OPENING, play_all
from harness import MqttSub, wait_for


def open_infraction(daemon, table, kind):
    def probe():
        found = [i for i in daemon.state(table.id)["infractions"] if i["kind"] == kind]
        return found[0] if found else None
    return wait_for(f"a {kind} infraction on REST", probe, timeout=8)


def mqtt_infraction(sub, kind):
    def probe():
        found = [p for _, _, p in sub.messages() if isinstance(p, dict) and kind in (p.get("kind"), (p.get("infraction") or {}).get("kind"))]
        return found[0] if found else None
    return wait_for(f"a {kind} infraction on MQTT", probe, timeout=5)


def test_ko_retake_is_a_ko_violation_on_rest_and_mqtt(daemon, table):
    sub = MqttSub(f"{daemon.prefix}/boards/{table.id}/infractions", timeout=40)
    try:
        play_all(daemon, table, OPENING + [CAPTURE])
        assert daemon.state(table.id)["infractions"] == []
        colour, index, removes = KO_RETAKE
        table.place(index, colour, removes)
        table.press(colour)
        alert = open_infraction(daemon, table, "ko_violation")
        assert "CN2002 18.3" in alert["article"], alert
        assert alert["player"] == "white", alert
        assert alert["status"] == "open", "advised, not sanctioned: auto_sanction is empty by default"
        assert alert["id"], alert
        published = mqtt_infraction(sub, "ko_violation")
        body = published.get("infraction", published)
        assert "CN2002 18.3" in body["article"] and body["id"] == alert["id"], published
        assert published["v"] == 1 and isinstance(published["seq"], int)
    finally:
        sub.close()


def test_press_with_captured_stone_left_is_one_missed_capture(daemon, table):
    play_all(daemon, table, OPENING)
    colour, index, _ = CAPTURE
    table.place(index, colour)  # the captured D6 stays on the board
    table.press(colour)
    alert = open_infraction(daemon, table, "missed_capture")
    assert "18.2" in alert["article"], alert
    assert alert["player"] == "black", alert
    kinds = [i["kind"] for i in daemon.state(table.id)["infractions"]]
    assert "premature_press" not in kinds, f"one act, one alert (rules-digest.md): {kinds}"


def test_press_before_the_stone_is_a_premature_press(daemon, table):
    """CN2002 17.4: the press comes first, then the same player's stone (rules-digest.md: decided at the next event)."""
    play_all(daemon, table, OPENING[:2])
    table.press("B")  # Black presses with no new stone on the board...
    time.sleep(0.4)
    colour, index, _ = OPENING[2]
    table.place(index, colour)  # ...then places C6: not a pass, a premature press
    alert = open_infraction(daemon, table, "premature_press")
    assert "CN2002 17.4" in alert["article"], alert
    assert alert["player"] == "black", alert
    moves = daemon.state(table.id)["moves"]
    assert all(m["point"] != "pass" for m in moves), f"the early press is not a pass: {moves}"
