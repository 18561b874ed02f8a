"""A bounded load on ``tysiac serve`` over 127.0.0.1: TABLES tables of three human seats
(one websocket each), moves sent at RATE per second in all for SECONDS, then the figures:
server-side time per move (p50, p99, max: check, engine, database write and the broadcast,
from the server's ``/api/metrics``), client round trips, errors, acknowledged moves missing
from the database after the run, the server's resident memory and CPU.

It starts its own server on a free port with a temporary database, talks to 127.0.0.1
only, stops by itself (the move count and the time are both bounded) and stops the server.
With ``--pin`` (Linux) the server runs on CPU 0 and this generator on CPU 1.

    python benchmarks/web_load.py --tables 500 --rate 150 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]


def _start_server(db: Path, pin: bool) -> tuple[subprocess.Popen[bytes], str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "tysiac_spec", "serve", "--port", "0", "--db", str(db)]
    log = db.with_suffix(".log")
    with log.open("wb") as out:  # (a file, not a pipe nobody reads: the server must never block on its log)
        proc = subprocess.Popen(cmd, stderr=out, stdout=subprocess.DEVNULL, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        found = re.search(r"tysiac serve: (http://\S+/)", log.read_text(errors="replace"))
        if found:
            if pin and hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) >= 2:
                os.sched_setaffinity(proc.pid, {0})
                os.sched_setaffinity(0, {1})
            return proc, found.group(1)
        if proc.poll() is not None:
            raise SystemExit("the server did not start:\n" + log.read_text(errors="replace"))
        time.sleep(0.2)
    raise SystemExit("the server did not start in time")


def _post(url: str, body: Any) -> Any:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _hwm_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


class _Table:
    def __init__(self, tid: str) -> None:
        self.id = tid
        self.socks: list[ClientConnection] = []
        self.state: dict[int, dict[str, Any]] = {}
        self.pending: tuple[int, int, str, float] | None = None  # (seat, version, action, sent at)


async def _reader(table: _Table, seat: int, sock: ClientConnection, stats: dict[str, Any]) -> None:
    async for text in sock:
        frame = json.loads(text)
        kind = frame["type"]
        if kind == "state":
            table.state[seat] = frame
            p = table.pending
            if p is not None and p[0] == seat and frame["version"] > p[1]:
                stats["rtt"].append(time.perf_counter() - p[3])
                stats["acked"].append((table.id, p[1] + 1, p[2]))
                table.pending = None
        elif kind == "error":
            stats["errors"].append(frame["code"])
            if table.pending is not None and table.pending[0] == seat:
                table.pending = None


async def _run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="tysiac-web-load-"))
    db = workdir / "web.sqlite3"
    proc, url = _start_server(db, args.pin)
    ws_url = "ws" + url[4:]
    stats: dict[str, Any] = {"rtt": [], "acked": [], "errors": []}
    tables: list[_Table] = []
    try:
        started = time.monotonic()
        for _ in range(args.tables):
            t = await asyncio.to_thread(
                _post, url + "api/tables", {"ruleset": args.ruleset, "players": 3, "seats": ["human"] * 3})
            table = _Table(t["table"])
            for seat in range(3):
                sock = await connect(f"{ws_url}t/{t['table']}/ws", max_size=2**20, ping_interval=None,
                                     open_timeout=120)
                await sock.send(json.dumps({"type": "hello", "proto": 1, "token": t["seats"][seat]["token"]}))
                table.socks.append(sock)
                asyncio.get_running_loop().create_task(_reader(table, seat, sock, stats))
            tables.append(table)
            if len(tables) % 100 == 0:
                print(f"{len(tables)} tables, {3 * len(tables)} sockets open", file=sys.stderr, flush=True)
        setup = time.monotonic() - started
        await asyncio.sleep(1.0)
        rss_idle = _hwm_mb(proc.pid)
        cpu0 = _cpu_seconds(proc.pid)
        rng = random.Random(1)
        interval = 1.0 / args.rate
        sent = 0
        t0 = time.monotonic()
        most = int(args.rate * args.seconds * 1.1) + 1
        while time.monotonic() - t0 < args.seconds and sent < most:
            due = t0 + sent * interval
            delay = due - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            for _ in range(20):  # a table that waits for nobody's answer
                table = tables[rng.randrange(len(tables))]
                if table.pending is not None:
                    continue
                turn = next((s for s, st in table.state.items() if st["legal"]), None)
                if turn is None:
                    continue
                st = table.state[turn]
                action = rng.choice(st["legal"])
                table.pending = (turn, st["version"], action, time.perf_counter())
                await table.socks[turn].send(json.dumps({"type": "act", "v": st["version"], "a": action}))
                break
            sent += 1
        elapsed = time.monotonic() - t0
        await asyncio.sleep(2.0)  # the last answers
        cpu = _cpu_seconds(proc.pid) - cpu0
        with urllib.request.urlopen(url + "api/metrics", timeout=60) as answer:
            metrics = json.load(answer)
        rss_peak = _hwm_mb(proc.pid)
        for table in tables:
            for sock in table.socks:
                await sock.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
    con = sqlite3.connect(db)
    rows = con.execute("SELECT table_id, n, action FROM actions WHERE match_no = 1")
    stored = {(t, n): a for t, n, a in rows}
    con.close()
    lost = sum(1 for t, n, a in stats["acked"] if stored.get((t, n)) != a)
    rtt = sorted(stats["rtt"])
    return {
        "tables": args.tables, "sockets": 3 * args.tables, "seconds": round(elapsed, 1),
        "setup_s": round(setup, 1),
        "moves_acknowledged": len(stats["acked"]),
        "moves_per_s": round(len(stats["acked"]) / elapsed, 1),
        "server_p50_ms": metrics["p50_ms"], "server_p99_ms": metrics["p99_ms"],
        "server_max_ms": metrics["max_ms"],
        "client_p50_ms": round(statistics.median(rtt) * 1000, 1) if rtt else None,
        "client_p99_ms": round(rtt[int(0.99 * (len(rtt) - 1))] * 1000, 1) if rtt else None,
        "errors": len(stats["errors"]), "error_codes": sorted(set(stats["errors"])),
        "lost_acknowledged": lost,
        "server_rss_mb_idle": round(rss_idle, 1), "server_rss_mb_peak": round(rss_peak, 1),
        "server_cpu_percent_of_one_core": round(100 * cpu / elapsed, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--rate", type=float, default=150.0, help="moves per second in all")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--ruleset", default="pl-standard")
    parser.add_argument("--pin", action="store_true", help="pin the server to CPU 0 and the load to CPU 1")
    args = parser.parse_args()
    if not (1 <= args.tables <= 5000 and 0 < args.rate <= 2000 and 0 < args.seconds <= 600):
        parser.error("bounded: 1-5000 tables, rate up to 2000/s, up to 600 s")
    print(json.dumps(asyncio.run(_run(args)), indent=1))


if __name__ == "__main__":
    main()
