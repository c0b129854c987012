"""A cold server (an empty cache) prepares its caches before it takes requests, so its first advice answers even
while two busy processes load the machine."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web page needs the 'web' extra: pip install -e '.[web]'")

ROOT = Path(__file__).resolve().parent.parent
BUSY = "while True: pass"


@pytest.mark.slow
def test_a_cold_server_answers_its_first_advice_under_load(tmp_path):
    env = {**os.environ, "WORDLE_ARENA_CACHE": str(tmp_path / "cache")}
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(2)]
    server = subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "serve", "--port", "0"], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()  # said once the caches are prepared
        assert line.startswith("wordle-arena: serving on http://127.0.0.1:"), line
        url = line.split("serving on ", 1)[1].split()[0]
        request = urllib.request.Request(url + "api/advise", data=json.dumps({"steps": ["crane:--gg-"]}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=120) as reply:
            advice = json.loads(reply.read())
        assert advice["model"] == "likely" and advice["suggestions"] and advice["remaining"] > 1
    finally:
        for process in busy:
            process.kill()
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=120)
    assert "preparing the likely answer model" in err and "ready in" in err and "Traceback" not in err
