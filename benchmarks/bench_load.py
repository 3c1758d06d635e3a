"""A mixed load on a real server: do PDFs slow down the rest of the site?

    uv run python benchmarks/bench_load.py [--seconds 180] [--clients 16] [--workers 3]
    uv run python benchmarks/bench_load.py --proxy none     # clients straight to gunicorn
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test uv run python benchmarks/bench_load.py

Loopback only, bounded in time. It builds a throwaway database (a SQLite file in a
temporary folder, or ``gangfight_load`` on the server named by DATABASE_URL, dropped at the
end), with one player per client (a 12-member bwg1 gang each) and a club league, then
serves the app with gunicorn (``--workers`` sync workers, DEBUG off, as in production) and
runs ``--clients`` clients at once, each from its own loopback address (127.0.0.x, so the
render gate's one-PDF-per-client sees them as different people). Each client loops over a
mix of what players do:

- **change**: a builder change (+1/-1 Str on a member, htmx POST, CSRF as the page does);
- **gang page**: the builder page; **share page**: the gang's public page (anonymous);
- **league page**: the league's standings;
- **pdf**: the gang's cards, right after a change (so a real render, not the cache), as an
  anonymous visitor of the share link would ask. A refusal of the render gate (503 busy,
  429 one-at-a-time) is counted apart, and the client waits its Retry-After.

By default (``--proxy python``) the clients reach gunicorn through a small reverse proxy
of this file's own (``serve_proxy``, in a process of its own), as in the README's
production recipe: it listens on 127.0.0.1, sets ``X-Forwarded-For`` to the address the
client connected from (nginx's ``$remote_addr``) and ``X-Forwarded-Proto``, and gunicorn
runs with ``TRUSTED_PROXIES=127.0.0.1`` and ``SITE_URL``. So every request reaches the app
from 127.0.0.1, and only the trusted hop tells the clients apart (issue 27).

Each refusal is sorted by what the gate said (every render place taken; the same PDF being
made; one at a time for this client), and for each the render places held just after it
are read from ``/proc/locks`` (a read: it takes no lock), to show whether the server was
really busy.

It runs twice: without PDFs in the mix, then with them, and prints requests per second,
p50, p95, p99 and errors for each kind, as Markdown for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

SETUP = r"""
import json, sys
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import SESSION_KEY, BACKEND_SESSION_KEY, HASH_SESSION_KEY
from builder.services import import_gang
from campaigns.leagues import services as ls
from benchmarks.bench_editors import grown

clients = int(sys.argv[1])
roster = json.load(open("docs/examples/bwg1-legal-dalton-boys.json"))
league_roster = json.load(open("docs/examples/bwg2-legal-tranquility-crew-700.json"))
boss = User.objects.create_user("boss", password="load-test-password-1")
club = ls.create_club(boss, name="Load club")
league = ls.create_league(club, name="Load league", system="bwg2", cap=700)
out = {"league": league.pk, "players": []}
for i in range(clients):
    user = User.objects.create_user(f"p{i}", password="load-test-password-1")
    gang = import_gang(user, grown(roster, 12))
    ls.join_club(club, user)
    ls.register(league, user, import_gang(user, league_roster))
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    member = gang.members.order_by("position")[1]
    out["players"].append(
        {"session": session.session_key, "gang": gang.pk, "member": member.pk,
         "share": gang.share_token}
    )
ls.next_round(league)
print("SETUP " + json.dumps(out))
"""


def serve_proxy(listen_port: int, upstream_port: int) -> None:
    """A small reverse proxy (the README's nginx, in a few lines): each request is passed
    to 127.0.0.1:``upstream_port`` with X-Forwarded-For set to the client's address (any
    the client sent is replaced, as nginx's ``$remote_addr`` does) and X-Forwarded-Proto."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    hop_by_hop = {"connection", "keep-alive", "transfer-encoding", "proxy-connection"}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:  # quiet
            pass

        def forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {
                k: v
                for k, v in self.headers.items()
                if k.lower() not in hop_by_hop and not k.lower().startswith("x-forwarded-")
            }
            headers["X-Forwarded-For"] = self.client_address[0]
            headers["X-Forwarded-Proto"] = "http"
            upstream = http.client.HTTPConnection(
                "127.0.0.1", upstream_port, timeout=90, source_address=("127.0.0.1", 0)
            )
            upstream.request(self.command, self.path, body=body, headers=headers)
            answer = upstream.getresponse()
            data = answer.read()
            upstream.close()
            self.send_response_only(answer.status, answer.reason)
            for name, value in answer.getheaders():
                if name.lower() not in hop_by_hop and name.lower() != "content-length":
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(data)
            self.close_connection = True

        do_GET = do_POST = do_HEAD = forward

    server = ThreadingHTTPServer(("127.0.0.1", listen_port), Handler)
    server.daemon_threads = True
    server.request_queue_size = 128
    server.serve_forever()


def places_held(lock_dir: Path) -> tuple[int, int]:
    """(render places held, render places) in the gate's lock folder, read from
    /proc/locks: a read, so it never takes a place itself."""
    inodes = {}
    for path in lock_dir.glob("render-*.lock"):
        with contextlib.suppress(OSError):
            inodes[path.stat().st_ino] = path.name
    held = set()
    with contextlib.suppress(OSError), open("/proc/locks") as locks:
        for line in locks:
            fields = line.split()
            if len(fields) > 5 and "FLOCK" in fields:
                inode = int(fields[5].rsplit(":", 1)[-1])
                if inode in inodes:
                    held.add(inode)
    return len(held), len(inodes)


REFUSALS = {
    "every place taken": "Many PDFs are being made right now",
    "same PDF being made": "This PDF is still being made",
    "one at a time (429)": "A PDF you asked for is still being made",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))]


class Client:
    """One player: their own loopback address, session and CSRF cookies."""

    def __init__(self, port: int, number: int, player: dict, league: int, pdfs: bool):
        self.port, self.player, self.league, self.pdfs = port, player, league, pdfs
        self.source = (f"127.0.0.{number + 2}", 0)
        self.cookies = {"sessionid": player["session"]}
        self.flip = False
        self.rng = random.Random(number)

    def request(self, method: str, path: str, body: str = "", headers=None, anonymous=False):
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=60, source_address=self.source
        )
        head = {"Host": "127.0.0.1", **(headers or {})}
        if not anonymous:
            head["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        started = time.perf_counter()
        conn.request(method, path, body=body, headers=head)
        response = conn.getresponse()
        data = response.read()
        took = time.perf_counter() - started
        for value in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = value.partition("=")
            if not anonymous:
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        conn.close()
        return response.status, response.headers, data, took

    def gang_page(self):
        return self.request("GET", f"/gangs/{self.player['gang']}/")

    def change(self):
        if "csrftoken" not in self.cookies:
            self.gang_page()
        self.flip = not self.flip
        member = self.player["member"]
        body = urlencode({f"m{member}-points-change": "str:+" if self.flip else "str:-"})
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "HX-Request": "true",
            "X-CSRFToken": self.cookies.get("csrftoken", ""),
            "Referer": f"http://127.0.0.1:{self.port}/",
        }
        path = f"/gangs/{self.player['gang']}/members/{member}/do/points/"
        return self.request("POST", path, body, headers)

    def share_page(self):
        return self.request("GET", f"/s/{self.player['share']}/", anonymous=True)

    def league_page(self):
        return self.request("GET", f"/leagues/{self.league}/")

    def pdf(self):
        # A new gang name: a PDF never made before, so a real render (not the cache).
        self.renamed = getattr(self, "renamed", 0) + 1
        if "csrftoken" not in self.cookies:
            self.gang_page()
        body = urlencode({"gang-name": f"Load gang {self.renamed}", "gang-limit": ""})
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-CSRFToken": self.cookies.get("csrftoken", ""),
            "Referer": f"http://127.0.0.1:{self.port}/",
        }
        self.request("POST", f"/gangs/{self.player['gang']}/settings/", body, headers)
        path = f"/s/{self.player['share']}/print/?kind=cards&paper=a4"
        return self.request("GET", path, anonymous=True)

    def pick(self) -> str:
        kinds = ["change"] * 35 + ["gang page"] * 20 + ["share page"] * 15 + ["league page"] * 15
        if self.pdfs:
            kinds += ["pdf"] * 15
        return self.rng.choice(kinds)


def run(port: int, setup: dict, clients: int, seconds: float, pdfs: bool, lock_dir: Path) -> dict:
    times: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    refused: dict[str, int] = defaultdict(int)
    why: dict[str, list[tuple[int, int]]] = defaultdict(list)  # reason: [(held, places)]
    stop = time.monotonic() + seconds
    lock = threading.Lock()

    def loop(number: int) -> None:
        client = Client(port, number, setup["players"][number], setup["league"], pdfs)
        while time.monotonic() < stop:
            kind = client.pick()
            try:
                status, headers, data, took = getattr(client, kind.replace(" ", "_"))()
            except (OSError, http.client.HTTPException):
                with lock:
                    errors[kind] += 1
                continue
            with lock:
                if kind == "pdf" and status in (429, 503) and headers.get("Retry-After"):
                    refused[kind] += 1
                    text = data.decode("utf-8", "replace")
                    reason = next((r for r, t in REFUSALS.items() if t in text), "other")
                    why[reason].append(places_held(lock_dir))
                elif status >= 400:
                    errors[kind] += 1
                else:
                    times[kind].append(took)
            if kind == "pdf" and status in (429, 503):
                time.sleep(float(headers.get("Retry-After") or 1))

    started = time.monotonic()
    threads = [threading.Thread(target=loop, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {
        "times": times,
        "errors": errors,
        "refused": refused,
        "why": why,
        "took": time.monotonic() - started,
    }


def table(title: str, result: dict) -> str:
    rows = [
        f"**{title}** ({result['took']:.0f} s)",
        "",
        "| kind | requests | req/s | p50 ms | p95 ms | p99 ms | errors | refused (busy) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    every: list[float] = []
    for kind in ("change", "gang page", "share page", "league page", "pdf"):
        values = result["times"].get(kind, [])
        if not values and not result["errors"].get(kind) and not result["refused"].get(kind):
            continue
        every += values
        rows.append(
            f"| {kind} | {len(values)} | {len(values) / result['took']:.1f} | "
            f"{percentile(values, 0.5) * 1000:.0f} | {percentile(values, 0.95) * 1000:.0f} | "
            f"{percentile(values, 0.99) * 1000:.0f} | {result['errors'].get(kind, 0)} | "
            f"{result['refused'].get(kind, 0)} |"
        )
    rows.append(
        f"| all | {len(every)} | {len(every) / result['took']:.1f} | "
        f"{percentile(every, 0.5) * 1000:.0f} | {percentile(every, 0.95) * 1000:.0f} | "
        f"{percentile(every, 0.99) * 1000:.0f} | {sum(result['errors'].values())} | "
        f"{sum(result['refused'].values())} |"
    )
    for reason, held in sorted(result.get("why", {}).items()):
        busy = sum(1 for n, places in held if places and n >= places)
        rows.append(
            f"\n- refused, {reason}: {len(held)}; every render place held just after: "
            f"{busy} of {len(held)}"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=180)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--proxy", choices=["python", "none"], default="python")
    parser.add_argument("--serve-proxy", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_proxy:
        serve_proxy(*args.serve_proxy)
        return

    work = Path(tempfile.mkdtemp(prefix="gangfight-load-"))
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "load-test-only-" + "x" * 40,
        "SECURE_COOKIES": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "PDF_CACHE_DIR": str(work / "pdf-cache"),
        "PDF_LOCK_DIR": str(work / "locks"),
        "LOGIN_FAILURES_PER_ADDRESS": "0",
        "PYTHONPATH": str(ROOT),
        "SITE_URL": "http://127.0.0.1",
    }
    port = free_port()  # gunicorn's
    front = port  # where the clients connect: the proxy's, or gunicorn's
    if args.proxy == "python":
        front = free_port()
        env["TRUSTED_PROXIES"] = "127.0.0.1"
    server_db = os.environ.get("DATABASE_URL", "")
    if server_db.startswith("postgres"):
        base, _, _name = server_db.rpartition("/")
        env["DATABASE_URL"] = f"{base}/gangfight_load"
        subprocess.run(
            ["dropdb", "--if-exists", "-h", "127.0.0.1", "-U", "postgres", "gangfight_load"],
            check=False,
        )
        subprocess.run(
            ["createdb", "-h", "127.0.0.1", "-U", "postgres", "gangfight_load"], check=True
        )
    else:
        env["DATABASE_URL"] = f"sqlite:///{work / 'load.sqlite3'}"
    manage = [PYTHON, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v", "0"], env=env, check=True, cwd=ROOT)
    subprocess.run([*manage, "load_content", "-v", "0"], env=env, check=True, cwd=ROOT)
    subprocess.run(
        [*manage, "collectstatic", "--noinput", "-v", "0"], env=env, check=True, cwd=ROOT
    )
    made = subprocess.run(
        [*manage, "shell", "-c", SETUP.replace("sys.argv[1]", str(args.clients))],
        env=env,
        check=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    setup = json.loads(re.search(r"^SETUP (.*)$", made.stdout, re.M).group(1))
    proxy = None
    if front != port:
        proxy = subprocess.Popen(
            [PYTHON, str(Path(__file__).resolve()), "--serve-proxy", str(front), str(port)],
            cwd=ROOT,
        )
    server = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "gunicorn",
            "gangfight_site.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(args.workers),
            "--timeout",
            "60",
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 30
        for where in {port, front}:
            while time.monotonic() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", where), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.2)
        print(
            f"{args.clients} clients, {args.workers} gunicorn workers, {os.cpu_count()} CPUs, "
            f"{'PostgreSQL' if server_db.startswith('postgres') else 'SQLite'}, "
            f"{'through the reverse proxy' if proxy else 'straight to gunicorn'}\n"
        )
        locks = work / "locks"
        without = run(front, setup, args.clients, args.seconds, pdfs=False, lock_dir=locks)
        print(table("Without PDFs", without) + "\n")
        with_pdfs = run(front, setup, args.clients, args.seconds, pdfs=True, lock_dir=locks)
        print(table("With PDFs in the mix", with_pdfs) + "\n")
        base = percentile(without["times"]["change"], 0.95)
        loaded = percentile(with_pdfs["times"]["change"], 0.95)
        print(
            f"Builder changes' p95: {base * 1000:.0f} ms without PDFs, {loaded * 1000:.0f} ms with "
            f"them ({loaded / base:.2f}x; the goal is within 2x)."
        )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        if proxy is not None:
            proxy.terminate()
            proxy.wait(timeout=10)
        if server_db.startswith("postgres"):
            subprocess.run(
                ["dropdb", "--if-exists", "-h", "127.0.0.1", "-U", "postgres", "gangfight_load"],
                check=False,
            )
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
