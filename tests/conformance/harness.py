"""Harness of the conformance tests: spawns the real goban-bridge binary, talks REST and MQTT to it, bounds every wait."""
import json
import os
import pathlib
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

import pytest

from paths import CONFORMANCE, REPO

BIN = pathlib.Path(os.environ.get("GOBAN_BRIDGE_BIN", REPO / "target" / "debug" / "goban-bridge"))
BROKER_HOST = "127.0.0.1"
BROKER_PORT = int(os.environ.get("GOBAN_MQTT_PORT", "1883"))
TOKEN = "conformance-arbiter-token"
COLUMNS = "ABCDEFGHJKLMNOPQRST"  # api.md: letters with I skipped

if not (CONFORMANCE / "devices.py").is_file():
    raise RuntimeError(f"independent devices not found at {CONFORMANCE}: set GOBAN_CONFORMANCE")
sys.path.insert(0, str(CONFORMANCE))
from devices import Board, Clock  # noqa: E402  (path set just above)


def point_name(index, size):
    """wire-protocol.md index -> api.md point: row 0 is line `size`, col 0 is column A."""
    row, col = divmod(index, size)
    return f"{COLUMNS[col]}{size - row}"


def idx(row, col, size=9):
    """Row-major index of wire-protocol.md."""
    return row * size + col


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def unique(name):
    return f"{name}-{uuid.uuid4().hex[:10]}"


def wait_for(what, probe, timeout=10.0, interval=0.05):
    """Poll `probe` until it returns a truthy value; fail with `what` and the last value after `timeout` s."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = probe()
        except (OSError, ValueError) as err:  # connection refused, bad JSON: keep polling
            last = f"error: {err!r}"
        else:
            if last:
                return last
        time.sleep(interval)
    pytest.fail(f"timed out after {timeout}s waiting for {what}; last seen: {str(last)[:1500]}")


class Http:
    """Minimal JSON client over urllib with bounded timeouts."""

    def __init__(self, base):
        self.base = base

    def request(self, method, path, body=None, token=None, raw=False):
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=5) as resp:
                status, headers, payload = resp.status, resp.headers, resp.read()
        except urllib.error.HTTPError as err:
            status, headers, payload = err.code, err.headers, err.read()
        if raw:
            return status, headers, payload
        try:
            return status, json.loads(payload) if payload else None
        except ValueError:
            return status, payload.decode(errors="replace")

    def get(self, path):
        status, body = self.request("GET", path)
        assert status == 200, f"GET {path}: {status} {body}"
        return body


class Daemon:
    """One `goban-bridge run --config` process with its own port, journal, MQTT prefix and client id."""

    def __init__(self, tmp, boards, **opts):
        self.tmp = pathlib.Path(tmp)
        self.port = free_port()
        self.prefix = unique("gbconf")
        self.client_id = unique("gbconf")
        self.journal = self.tmp / "journal.sqlite"
        self.config = self.tmp / "goban-bridge.toml"
        self.log_path = self.tmp / "daemon.log"
        self.http = Http(f"http://127.0.0.1:{self.port}/api/v1")
        self.config.write_text(self._toml(boards, opts))
        self.proc = None

    def _toml(self, boards, opts):
        lines = [
            "[server]",
            f'listen = "127.0.0.1:{self.port}"',
            f'arbiter_tokens = ["{TOKEN}"]',
            "[journal]",
            f'path = "{self.journal}"',
            "[mqtt]",
            f'url = "mqtt://{BROKER_HOST}:{BROKER_PORT}"',
            f'prefix = "{self.prefix}"',
            f'client_id = "{self.client_id}"',
            "max_backoff = \"1s\"",
            "[referee]",
            f'settle_time = "{opts.get("settle", "100ms")}"',
        ]
        for b in boards:
            lines += [
                "[[board]]",
                f'id = "{b["id"]}"',
                f'board_port = "{b.get("board_port", b["board"].path)}"',
                f'clock_port = "{b["clock"].path}"',
                f'size = {b.get("size", 9)}',
                'ruleset = "cn2002"',
                f'time_control = "{b.get("time_control", "absolute:main=90m")}"',
                f'autostart = {"true" if b.get("autostart", True) else "false"}',
                'black = "Conformance Black"',
                'white = "Conformance White"',
            ]
        return "\n".join(lines) + "\n"

    def start(self):
        if not BIN.is_file():
            pytest.fail(f"goban-bridge binary not found at {BIN}: run `cargo build -p goban-bridge` or set GOBAN_BRIDGE_BIN")
        self.log = open(self.log_path, "wb")
        env = dict(os.environ, RUST_LOG=os.environ.get("RUST_LOG", "info"), NO_COLOR="1")
        self.proc = subprocess.Popen(
            [str(BIN), "run", "--config", str(self.config)],
            cwd=self.tmp, stdout=self.log, stderr=subprocess.STDOUT, env=env,
        )

        def ready():
            if self.proc.poll() is not None:
                pytest.fail(f"goban-bridge exited with {self.proc.returncode} at start:\n{self.log_tail()}")
            status, _ = self.http.request("GET", "/health")
            return status == 200

        wait_for(f"GET /api/v1/health on port {self.port}\n{self.log_tail()}", ready, timeout=15)
        return self

    def log_tail(self, n=4000):
        try:
            return self.log_path.read_bytes()[-n:].decode(errors="replace")
        except OSError:
            return "(no log)"

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def state(self, board):
        return self.http.get(f"/boards/{board}")

    def stop(self):
        """SIGTERM, then SIGKILL after 5 s; never leaves the process behind."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


class MqttSub:
    """A `mosquitto_sub` process collecting `topic<TAB>retain<TAB>payload` lines, bounded by -W."""

    def __init__(self, topic, timeout=40, port=BROKER_PORT):
        self.lines = []
        self.proc = subprocess.Popen(
            ["mosquitto_sub", "-h", BROKER_HOST, "-p", str(port), "-q", "1", "-t", topic,
             "-W", str(timeout), "-F", "%t\t%r\t%p"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )
        threading.Thread(target=self._read, daemon=True).start()
        time.sleep(0.3)  # let the subscription reach the broker before anything is published

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.decode(errors="replace").rstrip("\n"))

    def messages(self, suffix=None):
        """(topic, retained, payload) with JSON payloads decoded where possible."""
        out = []
        for line in list(self.lines):
            parts = line.split("\t", 2)
            if len(parts) != 3:
                continue
            topic, retain, payload = parts
            if suffix and not topic.endswith(suffix):
                continue
            try:
                payload = json.loads(payload)
            except ValueError:
                pass
            out.append((topic, retain == "1", payload))
        return out

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)


def retained(topic, port=BROKER_PORT, timeout=5):
    """The retained message on `topic` (decoded JSON or text), or None."""
    out = subprocess.run(
        ["mosquitto_sub", "-h", BROKER_HOST, "-p", str(port), "-t", topic, "--retained-only",
         "-C", "1", "-W", str(timeout)],
        capture_output=True, timeout=timeout + 5,
    )
    text = out.stdout.decode(errors="replace").strip()
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


class Table:
    """The independent Board and Clock of one table, with the moves of physical play."""

    def __init__(self, board_id="table-1", size=9, settle=0.1):
        self.id = board_id
        self.size = size
        self.settle = settle
        self.board = Board(size)
        self.clock = Clock()

    def spec(self, **extra):
        return dict(id=self.id, board=self.board, clock=self.clock, size=self.size, **extra)

    def place(self, index, colour, removes=()):
        """A stone placed, then captured stones lifted one by one, each reading left to settle."""
        self.board.set([(index, colour)])
        time.sleep(self.settle * 3)
        for r in removes:
            self.board.set([(r, ".")])
            time.sleep(self.settle * 3)

    def press(self, colour):
        """L is Black's button, R is White's (wire-protocol.md, default config)."""
        self.clock.press("L" if colour == "B" else "R")

    def close(self):
        self.board.close()
        self.clock.close()


def play(daemon, table, colour, index, removes=()):
    """One complete move: stone, captures lifted, clock pressed; waits until REST shows it."""
    before = daemon.state(table.id)["move_number"]
    table.place(index, colour, removes)
    table.press(colour)
    want = before + 1
    return wait_for(
        f"move {want} ({colour} {point_name(index, table.size)}) on REST",
        lambda: (lambda s: s if s["move_number"] >= want else None)(daemon.state(table.id)),
        timeout=8,
    )
