"""The /api page lists every status each route answers: its table against the app's routes, and against what the
server answers the hostile audit's web cases (benchmarks/audit_hostile.py: cross-site, Host, surrogates, bodies)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NEEDS_WEB = pytest.mark.skipif(not importlib.util.find_spec("starlette"), reason="the web page needs the web extra")
#: The address the test client plays the server at (the audit's cases name their own origin by its port).
PORT = 8000


def audit_module():
    """benchmarks/audit_hostile.py as a module (it is a script, not a package): its cases and the /api page's reader."""
    spec = importlib.util.spec_from_file_location("audit_hostile_statuses", ROOT / "benchmarks" / "audit_hostile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@NEEDS_WEB
def test_the_api_page_has_a_row_for_every_route_and_explains_every_status(official_game):
    """Every route the app serves has its row (its statuses listed), and every status listed is explained."""
    from web.app import PAGES, create_app

    audit = audit_module()
    routes, every, explained = audit.documented_statuses()
    app = create_app(official_game, workers=1)
    for route in app.routes:
        for path in PAGES if route.path in PAGES else [route.path.replace("{name}", "x.svg")]:
            assert audit.documented_route(path, routes) != "", path
    assert {403, 415, 421, 429} <= set().union(*routes.values()) | every
    assert set().union(*routes.values()) | every == explained


@NEEDS_WEB
@pytest.mark.slow
def test_the_documented_statuses_cover_the_audits_web_cases(official_game, monkeypatch):
    """The audit's cross-site, Host, surrogate and body cases, and a client past its games, sent to the app as `serve`
    makes it: every case holds, and every status answered is one /api lists for its route."""
    from starlette.testclient import TestClient

    import web.service as web_service
    from web.app import create_app

    audit = audit_module()
    monkeypatch.setattr(web_service, "CLIENT_GAMES", 2)
    with TestClient(create_app(official_game, workers=1), base_url=f"http://127.0.0.1:{PORT}",
                    raise_server_exceptions=False) as client:
        def send(method, path, body=None, headers=None, timeout=60):
            """The audit's raw request, through the test client: status, headers, text, seconds."""
            path = path[:60_000]  # the test client refuses a URL over 64 KB; the server's limit is 8 KB (414)
            response = client.request(method, path, content=body, follow_redirects=False,
                                      headers={"Host": f"127.0.0.1:{PORT}", **(headers or {})})
            audit.ANSWERS.append((method, path.split("?")[0], response.status_code))
            return response.status_code, {k.lower(): v for k, v in response.headers.items()}, response.text, 0.0

        cases = audit.Audit()
        audit.audit_cross_site(cases, send, PORT)
        audit.audit_hosts(cases, send, PORT)
        audit.audit_surrogates(cases, send)
        audit.audit_bodies(cases, send)
        for _ in range(3):
            send("POST", "/api/play/new", b"{}", audit.JSON_HEADERS)
        send("GET", "/static/common.js", headers={"If-None-Match": send("GET", "/static/common.js")[1]["etag"]})
        for method, path in (("PUT", "/api/feedback"), ("GET", "/api/play/guess"), ("GET", "/api/charts/none.svg"),
                             ("GET", "/api/nothing"), ("POST", "/"), ("DELETE", "/static/common.js")):
            send(method, path)
        answered = {status for _, _, status in audit.ANSWERS}
        assert {304, 307, 400, 403, 404, 405, 413, 414, 415, 421, 429} <= answered
        audit.audit_documented(cases)
    assert cases.failures == []


@NEEDS_WEB
def test_the_agents_list_is_read_once_before_any_request(official_game, monkeypatch):
    """/api/agents is the same for every request: read when the app is made (the agent registry's modules imported
    then), not on a request, where the first read took 2.1 s behind 60 expensive requests on a loaded machine."""
    from starlette.testclient import TestClient

    from web.app import create_app
    from web.service import Service

    reads = []
    original = Service.agents_info
    monkeypatch.setattr(Service, "agents_info", lambda self: reads.append(1) or original(self))
    app = create_app(official_game, workers=1)
    assert len(reads) == 1
    with TestClient(app, base_url="http://localhost") as client:
        answers = [client.get("/api/agents").json() for _ in range(3)]
    assert len(reads) == 1 and answers[0] == answers[2] and answers[0]["advisor"]
