"""Arbiter routes need the bearer token: 401 with a JSON body without it; bad bodies get a 4xx JSON error (api.md REST)."""
from harness import TOKEN, wait_for


def test_start_game_needs_the_token(daemon, table):
    path = f"/boards/{table.id}/game"
    # autostart: wait for the game, so that only a refused request could change it.
    before = wait_for("the autostarted game", lambda: (lambda s: s if s["game"] else None)(daemon.state(table.id)))
    for token in (None, "wrong-token"):
        status, body = daemon.http.request("POST", path, {"black": "X", "white": "Y"}, token=token)
        assert status == 401, (token, status, body)
        assert isinstance(body, dict) and body.get("error"), body
    assert daemon.state(table.id)["game"] == before["game"], "a refused request changes nothing"
    status, body = daemon.http.request("POST", path, {"black": "X", "white": "Y", "komi": 7.5, "force": True}, token=TOKEN)
    assert status == 200, body
    assert body["board"] == table.id and body["phase"] in ("setup", "playing"), body


def test_ruling_needs_the_token_and_bad_input_is_4xx_json(daemon, table):
    path = f"/boards/{table.id}/infractions/nope/ruling"
    status, body = daemon.http.request("POST", path, {"action": "dismiss"})
    assert status == 401 and isinstance(body, dict) and body.get("error"), body
    status, body = daemon.http.request("POST", f"/boards/{table.id}/clock", b"{not json", token=TOKEN)
    assert 400 <= status < 500 and isinstance(body, dict) and body.get("error"), (status, body)
    status, body = daemon.http.request("POST", f"/boards/{table.id}/game", {"komi": "seven"}, token=TOKEN)
    assert 400 <= status < 500 and isinstance(body, dict) and body.get("error"), (status, body)
