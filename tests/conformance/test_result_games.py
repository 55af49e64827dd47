"""A result recorded by the arbiter finishes the game; it is kept under /games with its SGF (api.md REST)."""
from game import OPENING, play_all
from harness import TOKEN, MqttSub, wait_for


def test_recorded_result_finishes_the_game_and_archives_it(daemon, table):
    play_all(daemon, table, OPENING[:4])
    game = daemon.state(table.id)["game"]
    sub = MqttSub(f"{daemon.prefix}/boards/{table.id}/state", timeout=30)
    try:
        # Ending a game still in play takes an explicit force (issue 10): without it, 409 and no change.
        status, body = daemon.http.request("POST", f"/boards/{table.id}/result", {"result": "B+R"}, token=TOKEN)
        assert status == 409 and "force" in str(body), body
        assert daemon.state(table.id)["phase"] == "playing"
        status, body = daemon.http.request(
            "POST", f"/boards/{table.id}/result", {"result": "B+R", "force": True}, token=TOKEN)
        assert status == 200, body
        assert body["result"] == "B+R" and body["phase"] == "finished", body
        wait_for("a published state with result B+R", lambda: any(
            isinstance(p, dict) and p.get("result") == "B+R" for _, _, p in sub.messages()), timeout=5)
    finally:
        sub.close()
    games = daemon.http.get("/games")
    listed = games if isinstance(games, list) else games.get("games", [])
    assert any(g.get("game") == game or g.get("id") == game for g in listed), games
    status, headers, sgf = daemon.http.request("GET", f"/games/{game}/sgf", raw=True)
    assert status == 200, sgf
    text = sgf.decode()
    assert "RE[B+R]" in text and text.count(";B[") == 2 and text.count(";W[") == 2, text
