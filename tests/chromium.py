"""A headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe):
no websocket, no driver, no Python package beyond the standard library. Used by
tests/test_viewer.py to load a viewer page from disk, run its JavaScript, collect
console errors and take screenshots.

    with Chromium() as browser:          # ChromiumMissing when no binary is found
        page = browser.open("file:///tmp/x.html", width=1280, height=900)
        page.evaluate("1 + 1")           # 2
        png = page.screenshot()          # bytes
        browser.errors                   # console errors, exceptions, error log entries

The binary: $GOTA_CHROMIUM, else chromium / chromium-browser / google-chrome on PATH
(Debian: ``apt-get install chromium``).
"""
from __future__ import annotations

import base64
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


class ChromiumMissing(RuntimeError):
    pass


class ChromiumError(RuntimeError):
    pass


def find_chromium() -> str | None:
    env = os.environ.get("GOTA_CHROMIUM")
    if env:
        return env if os.path.exists(env) else shutil.which(env)
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class Chromium:
    def __init__(self, binary: str | None = None, timeout: float = 30.0):
        self.binary = binary or find_chromium()
        if not self.binary:
            raise ChromiumMissing("no chromium binary (set GOTA_CHROMIUM or install Debian's chromium package)")
        self.timeout = timeout
        self.errors: list = []       # console errors, uncaught exceptions, error log entries
        self.console: list = []      # every console message (type, text)
        self._id = 0
        self._replies: dict = {}
        self._events: "queue.Queue" = queue.Queue()
        self._cond = threading.Condition()
        self._closed = False
        self._profile = tempfile.mkdtemp(prefix="gota-chromium-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        args = ["--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
                "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio",
                "--allow-file-access-from-files", f"--user-data-dir={self._profile}", "about:blank"]
        # the protocol pipe is fd 3 (to chrome) and fd 4 (from chrome) in the child
        moves = [f"3<&{to_chrome_r}" if to_chrome_r != 3 else "", f"4>&{from_chrome_w}" if from_chrome_w != 4 else ""]
        moves += [f"{fd}>&-" for fd in (to_chrome_r, from_chrome_w) if fd not in (3, 4)]
        script = 'exec "$0" "$@" ' + " ".join(m for m in moves if m)
        shell = shutil.which("bash") or "/bin/sh"   # dash takes one-digit descriptors only
        self.proc = subprocess.Popen([shell, "-c", script, self.binary, *args], pass_fds=(to_chrome_r, from_chrome_w),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.version = self.call("Browser.getVersion")

    # ---- plumbing ----
    def _drain_stderr(self):
        for line in self.proc.stderr:
            self._stderr.append(line.decode(errors="replace").rstrip())

    def _read(self):
        buf = b""
        while True:
            try:
                chunk = os.read(self._from_chrome, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._closed = True
                    self._cond.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "id" in msg:
                    with self._cond:
                        self._replies[msg["id"]] = msg
                        self._cond.notify_all()
                else:
                    self._on_event(msg)

    def _on_event(self, msg):
        method, params = msg.get("method"), msg.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.console.append((params.get("type"), text))
            if params.get("type") in ("error", "assert"):
                self.errors.append(f"console.{params.get('type')}: {text}")
        elif method == "Runtime.exceptionThrown":
            d = params.get("exceptionDetails", {})
            self.errors.append(f"exception: {d.get('text')} {d.get('exception', {}).get('description', '')}")
        elif method == "Log.entryAdded":
            e = params.get("entry", {})
            if e.get("level") == "error":
                self.errors.append(f"log: {e.get('source')}: {e.get('text')} {e.get('url', '')}")
        self._events.put(msg)

    def call(self, method: str, params: dict | None = None, session: str | None = None, timeout: float | None = None):
        with self._cond:
            self._id += 1
            mid = self._id
        msg = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        with self._cond:
            while mid not in self._replies:
                if self._closed:
                    raise ChromiumError(f"chromium exited during {method}: " + " | ".join(self._stderr[-5:]))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ChromiumError(f"no answer to {method} within {timeout or self.timeout} s")
                self._cond.wait(left)
            reply = self._replies.pop(mid)
        if "error" in reply:
            raise ChromiumError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def wait_event(self, method: str, session: str | None = None, timeout: float | None = None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChromiumError(f"no {method} event within {timeout or self.timeout} s")
            try:
                msg = self._events.get(timeout=left)
            except queue.Empty:
                continue
            if msg.get("method") == method and (session is None or msg.get("sessionId") == session):
                return msg.get("params", {})

    # ---- pages ----
    def open(self, url: str, width: int = 1280, height: int = 900) -> "Page":
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=session)
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                         "mobile": False}, session=session)
        self.call("Page.navigate", {"url": url}, session=session)
        self.wait_event("Page.loadEventFired", session)
        return page

    def close(self):
        if self.proc.poll() is None:
            try:
                self.call("Browser.close", timeout=5)
            except ChromiumError:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._to_chrome, self._from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Page:
    def __init__(self, browser: Chromium, session: str):
        self.browser, self.session = browser, session

    def evaluate(self, expression: str, await_promise: bool = False, timeout: float | None = None):
        result = self.browser.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                        "awaitPromise": await_promise}, self.session, timeout)
        if "exceptionDetails" in result:
            d = result["exceptionDetails"]
            raise ChromiumError(f"{expression!r} threw: {d.get('exception', {}).get('description', d.get('text'))}")
        return result.get("result", {}).get("value")

    def screenshot(self) -> bytes:
        data = self.browser.call("Page.captureScreenshot", {"format": "png"}, self.session)["data"]
        return base64.b64decode(data)
