#!/usr/bin/env python3
"""`unchaff serve` under the attacks of issue 41, on 127.0.0.1 only, in
bounded loops; prints one Markdown row per scenario.

    scripts/hostile_serve.py [BINARY] [--only NAME]

Each scenario starts a fresh server (2 workers, the default limits) on a
free loopback port, measures its idle RSS, runs the attack for a fixed
time while a prober sends a normal request (a small page to /extract) every
0.5 s, then stops the attack and watches the RSS for 30 s:

* slow-batch: 1,030 connections start a POST /batch and send one byte
  every 20 s (the connection cap is 1,024);
* slow-headers: 1,030 connections send a request's head one byte every 5 s;
* stalled-bodies: 150 POST /extract declaring 16 MiB, 15 MiB sent, then
  nothing;
* gone-clients: waves of 34 requests of a 4 MB page (the issue's were a
  gzip of the then-quadratic foreign-content page), each connection closed
  right after its request is sent.

Columns: the scenario, probes answered / sent during the attack, the
slowest answered probe, the server's peak RSS during the attack, its idle
RSS before, its RSS 30 s after (and whether it came back within 10% + 16 MB
of idle).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

BIN = "target/release/unchaff"
PROBE_EVERY = 0.5
ATTACK_SECONDS = 40
SETTLE_SECONDS = 30
# Seconds between two attacking connections while they open.
RAMP_EVERY = 0.005
# Seconds the attack runs before the probes start (the ramp is ~5 s).
WARMUP = 8


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


PAGE = (b"<html><head><title>Probe</title></head><body><article><p>"
        + b"The committee met on Tuesday to discuss the budget for the coming year. " * 20
        + b"</p></article></body></html>")


def probe(port: int, timeout: float = 5.0) -> float | None:
    """One normal request: seconds to a 200, or None."""
    t = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.settimeout(timeout)
            s.sendall(b"POST /extract HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n"
                      b"Connection: close\r\n\r\n" % len(PAGE) + PAGE)
            data = b""
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            if data.startswith(b"HTTP/1.1 200"):
                return time.monotonic() - t
    except OSError:
        pass
    return None


class Server:
    def __init__(self, binary: str):
        self.port = free_port()
        self.p = subprocess.Popen(
            [binary, "serve", "--listen", f"127.0.0.1:{self.port}", "--workers", "2"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            if probe(self.port, 1.0) is not None:
                return
            time.sleep(0.05)
        raise RuntimeError("server did not start")

    def rss(self) -> int:
        return rss_kb(self.p.pid)

    def stop(self):
        self.p.terminate()
        try:
            self.p.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.p.kill()


def slow_senders(port, n, head, trickle, every, stop):
    """n connections: `head` at once, then one byte of `trickle` every `every` s."""
    socks = []
    for _ in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.setblocking(False)
            if head:
                s.send(head)
            socks.append(s)
        except OSError:
            pass
        # A ramp, so that each is admitted (a burst is mostly 503s).
        time.sleep(RAMP_EVERY)
    i = 0
    while not stop.is_set():
        stop.wait(every)
        for s in list(socks):
            try:
                s.send(trickle[i % len(trickle):i % len(trickle) + 1])
            except OSError:
                socks.remove(s)
                try:
                    s.close()
                except OSError:
                    pass
                # Reconnect, as an attacker would.
                try:
                    s2 = socket.create_connection(("127.0.0.1", port), timeout=2)
                    s2.setblocking(False)
                    if head:
                        s2.send(head)
                    socks.append(s2)
                except OSError:
                    pass
        i += 1
    for s in socks:
        s.close()


def stalled_bodies(port, n, stop):
    socks = []
    chunk = b"x" * (1 << 20)
    for _ in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"POST /extract HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % (16 << 20))
            s.settimeout(5)
            for _ in range(15):
                s.sendall(chunk)
            socks.append(s)
        except OSError:
            pass
        if stop.is_set():
            break
    stop.wait()
    for s in socks:
        s.close()


def gone_clients(port, stop):
    """Waves of 34 requests of a 4 MB page, each connection closed as soon
    as its request is sent (the client is gone before its answer)."""
    para = b"<p>" + b"A plain paragraph of an ordinary page of text. " * 4 + b"</p>\n"
    page = b"<html><body>" + para * 20_000
    while not stop.is_set():
        for _ in range(34):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(b"POST /extract HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(page) + page)
                s.close()
            except OSError:
                pass
        stop.wait(5)


def run(binary: str, name: str):
    srv = Server(binary)
    try:
        time.sleep(1)
        idle = srv.rss()
        stop = threading.Event()
        if name == "slow-batch":
            head = b"POST /batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
            t = threading.Thread(target=slow_senders, args=(srv.port, 1030, head, b"1\r\n{\r\n", 20, stop))
        elif name == "slow-headers":
            t = threading.Thread(target=slow_senders,
                                 args=(srv.port, 1030, b"", b"GET /healthz HTTP/1.1\r\nHost: x\r\n", 5, stop))
        elif name == "stalled-bodies":
            t = threading.Thread(target=stalled_bodies, args=(srv.port, 150, stop))
        elif name == "gone-clients":
            t = threading.Thread(target=gone_clients, args=(srv.port, stop))
        else:
            raise SystemExit(f"unknown scenario {name}")
        t.start()
        time.sleep(WARMUP)
        sent = ok = 0
        worst = 0.0
        peak = srv.rss()
        end = time.monotonic() + ATTACK_SECONDS
        while time.monotonic() < end:
            sent += 1
            r = probe(srv.port)
            if r is not None:
                ok += 1
                worst = max(worst, r)
            peak = max(peak, srv.rss())
            time.sleep(PROBE_EVERY)
        stop.set()
        t.join()
        t_stop = time.monotonic()
        after = srv.rss()
        back_at = None
        while time.monotonic() - t_stop < SETTLE_SECONDS:
            time.sleep(1)
            after = srv.rss()
            if back_at is None and after <= idle * 1.1 + 16 * 1024:
                back_at = time.monotonic() - t_stop
        after_probe = probe(srv.port)
        back = f"back in {back_at:.0f} s" if back_at is not None else "not back"
        print(f"| {name} | {ok}/{sent} | {worst:.2f} s | {peak // 1024} MB | {idle // 1024} MB | "
              f"{after // 1024} MB ({back}); probe after: {'ok' if after_probe else 'failed'} |", flush=True)
    finally:
        srv.stop()


def main():
    args = sys.argv[1:]
    binary = BIN
    only = None
    while args:
        a = args.pop(0)
        if a == "--only":
            only = args.pop(0)
        else:
            binary = a
    names = ["slow-batch", "slow-headers", "stalled-bodies", "gone-clients"]
    print("| attack | probes answered | slowest probe | peak RSS | idle RSS | RSS 30 s after |")
    print("|---|---|---|---|---|---|")
    for n in names:
        if only is None or only == n:
            run(binary, n)


if __name__ == "__main__":
    main()
