"""The SSE stream (api.md): every event with `id:` = seq, and `Last-Event-ID` resumes with what was missed."""
import json
import threading
import urllib.request

from game import OPENING, play_all
from harness import point_name, wait_for


class SseReader:
    """Reads `GET .../events` in a thread; every read is bounded by a 5 s socket timeout."""

    def __init__(self, url, last_event_id=None):
        req = urllib.request.Request(url, headers={"Accept": "text/event-stream"})
        if last_event_id is not None:
            req.add_header("Last-Event-ID", str(last_event_id))
        self.resp = urllib.request.urlopen(req, timeout=5)
        assert self.resp.status == 200
        assert self.resp.headers.get("Content-Type", "").startswith("text/event-stream")
        self.events = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        block = {}
        try:
            for raw in self.resp:
                line = raw.decode(errors="replace").rstrip("\r\n")
                if not line:
                    if "data" in block:
                        self.events.append(block)
                    block = {}
                    continue
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "data":
                    block["data"] = block.get("data", "") + value
                elif field in ("id", "event"):
                    block[field] = value
        except (OSError, ValueError, AttributeError):
            pass  # the test closed the stream

    def moves(self):
        out = []
        for e in list(self.events):
            try:
                data = json.loads(e["data"])
            except ValueError:
                continue
            if e.get("event") == "moves" and isinstance(data, dict) and data.get("point"):
                out.append((int(e["id"]), data))
        return out

    def close(self):
        self.resp.close()


def test_sse_streams_moves_and_resumes_after_last_event_id(daemon, table):
    url = f"{daemon.http.base}/boards/{table.id}/events"
    first = SseReader(url)
    try:
        play_all(daemon, table, OPENING[:3])
        moves = wait_for("3 move events on SSE", lambda: (lambda m: m if len(m) >= 3 else None)(first.moves()), timeout=5)
    finally:
        first.close()
    assert [d["point"] for _, d in moves] == [point_name(i, 9) for _, i, _ in OPENING[:3]]
    for event_id, data in moves:
        assert event_id == data["seq"], f"`id:` must be the seq: {event_id} vs {data['seq']}"
        assert data["v"] == 1
    after = moves[0][0]
    resumed = SseReader(url, last_event_id=after)
    try:
        again = wait_for("the missed moves after Last-Event-ID", lambda: (lambda m: m if len(m) >= 2 else None)(resumed.moves()), timeout=5)
        ids = [int(e["id"]) for e in list(resumed.events) if e.get("id")]
    finally:
        resumed.close()
    assert [d["point"] for _, d in again[:2]] == [point_name(i, 9) for _, i, _ in OPENING[1:3]]
    assert all(i > after for i in ids), f"resumed after {after} but got older ids {ids}"
