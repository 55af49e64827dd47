#!/usr/bin/env python3
"""Restart of a hall, end to end: time from exec to every board served (issue 9, Recovery).

Usage: restart_hall.py <goban-bridge binary> <journal file> [boards] [poll seconds]

The journal is one the journal_growth bench kept (GOBAN_BENCH_JOURNAL, boards
b0..b{N-1}, 19x19, absolute:main=90m); it is used in place, so give it a copy.
The daemon runs `run` on a generated config (embedded broker, serial ports that
do not exist) and is polled on GET /health until no board is `recovering` and
every board is `ready`. Prints the first answer, the time every board was
served and the daemon's CPU time by then, then its resident memory (VmRSS)
with every game held at its move in the journal (late in a game, the
heaviest a board gets), again after 10 s; the daemon is killed afterwards.
"""
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def config_text(journal, boards, http, mqtt, ports):
    head = f"""[server]
listen = "127.0.0.1:{http}"
arbiter_tokens = []
broadcast_delay = "0s"

[journal]
path = "{journal}"
synchronous = "normal"

[mqtt]
embedded_host = "127.0.0.1"
embedded_port = {mqtt}

[log]
format = "text"
filter = "warn"
"""
    tables = [
        f'[[board]]\nid = "b{n}"\nboard_port = "{ports}/absent-{n}"\nsize = 19\n'
        'time_control = "absolute:main=90m"\n'
        for n in range(boards)
    ]
    return head + "\n" + "\n".join(tables)


def rss_mb(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    binary, journal = sys.argv[1], os.path.abspath(sys.argv[2])
    boards = int(sys.argv[3]) if len(sys.argv) > 3 else 500
    poll = float(sys.argv[4]) if len(sys.argv) > 4 else 0.2
    work = tempfile.mkdtemp(prefix="restart-hall-")
    http = free_port()
    config = os.path.join(work, "hall.toml")
    with open(config, "w") as f:
        f.write(config_text(journal, boards, http, free_port(), work))
    started = time.monotonic()
    daemon = subprocess.Popen(
        [binary, "run", "--config", config],
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(work, "daemon.log"), "w"),
    )
    first = None
    try:
        while daemon.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{http}/api/v1/health", timeout=5) as r:
                    health = json.load(r)
            except OSError:
                time.sleep(0.01)
                continue
            now = time.monotonic() - started
            first = now if first is None else first
            ready = [b for b in health["boards"] if b.get("ready", True)]
            if not health.get("recovering") and len(ready) == boards:
                print(f"{boards} boards: first /health answer {first:.3f} s; "
                      f"every board served {now:.3f} s; daemon CPU by then {cpu_seconds(daemon.pid):.2f} s; "
                      f"RSS {rss_mb(daemon.pid):.1f} MB")
                time.sleep(10)
                print(f"10 s later: RSS {rss_mb(daemon.pid):.1f} MB")
                return
            time.sleep(poll)
        print(f"the daemon exited ({daemon.returncode}); see {work}/daemon.log")
    finally:
        if daemon.poll() is None:
            daemon.send_signal(signal.SIGKILL)
        daemon.wait()


if __name__ == "__main__":
    main()
