"""A review or an advice on the web runs as a job (web/jobs.py): the request answers what is known so far, each report
true as it stands, and the page's later looks end with the whole answer, the same as the command line's."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web page needs the 'web' extra: pip install -e '.[web]'")
try:
    from starlette.testclient import TestClient
except RuntimeError as missing:  # Starlette's test client needs httpx2 (also in the 'web' extra)
    pytest.skip(str(missing).splitlines()[0], allow_module_level=True)

from agents.answer_model import load_model  # noqa: E402
from agents.review import review_game, steps_from_answer  # noqa: E402
from plumbing.errors import UserError  # noqa: E402
from web import jobs as web_jobs  # noqa: E402
from web.app import create_app  # noqa: E402
from web.jobs import JobNotFound, Jobs  # noqa: E402
from web.service import job_over_budget, partial_review  # noqa: E402
from web.workers import Busy  # noqa: E402

GAME = ["salet", "crony", "cigar"]
#: Two guesses, the first from the opening book: the shortest whole review.
SHORT_GAME = ["salet", "cigar"]
#: How long a test waits for a job to finish on a shared machine before it fails.
PATIENCE = 300


@pytest.fixture(scope="module")
def client(official_game):
    """A test client over the official game."""
    with TestClient(create_app(official_game), base_url="http://localhost", raise_server_exceptions=False) as test_client:
        yield test_client


def finish(client, reply) -> tuple[list[dict], dict]:
    """Every report (HTTP 202) a job gave, asked about once a second, then its whole answer."""
    reports = []
    deadline = time.monotonic() + PATIENCE
    while reply.status_code == 202 and time.monotonic() < deadline:
        reports.append(reply.json())
        reply = client.get(f"/api/jobs/{reports[-1]['job']}?wait=1")
    assert reply.status_code == 200, reply.text
    return reports, reply.json()


# -- the job table alone ------------------------------------------------------------------
def test_a_job_keeps_its_latest_report_then_its_result():
    jobs = Jobs(most=2)
    release = threading.Event()

    def work(report, keep_going):
        report({"steps": [1]})
        release.wait(10)
        return {"steps": [1, 2]}

    job = jobs.start(work)
    for _ in range(100):
        if job.report is not None:
            break
        time.sleep(0.01)
    assert job.report == {"steps": [1]} and not job.done.is_set()
    release.set()
    assert job.done.wait(10) and job.result == {"steps": [1, 2]} and job.error is None
    assert jobs.get(job.key) is job


def test_a_jobs_error_is_kept_for_whoever_asks():
    jobs = Jobs(most=1)

    def work(report, keep_going):
        raise UserError("no answer fits")

    job = jobs.start(work)
    assert job.done.wait(10) and isinstance(job.error, UserError) and str(job.error) == "no answer fits"


def test_one_job_past_the_most_is_refused_at_once():
    jobs = Jobs(most=1)
    release = threading.Event()
    jobs.start(lambda report, keep_going: release.wait(10))
    with pytest.raises(Busy, match="busy"):
        jobs.start(lambda report, keep_going: None)
    release.set()


def test_a_job_nobody_asks_about_or_stopped_is_no_longer_wanted(monkeypatch):
    monkeypatch.setattr(web_jobs, "ABANDON_SECONDS", 0.2)
    jobs = Jobs(most=2)
    seen = []

    def work(report, keep_going):
        while keep_going():
            time.sleep(0.02)
        seen.append("stopped")

    job = jobs.start(work)
    assert job.done.wait(10) and seen == ["stopped"]  # abandoned after 0.2 s without a look
    monkeypatch.setattr(web_jobs, "ABANDON_SECONDS", 60)
    job = jobs.start(work)
    assert not job.done.wait(0.2)
    jobs.stop(job.key)
    assert job.done.wait(10) and seen == ["stopped", "stopped"]


def test_an_unknown_job_is_not_found():
    with pytest.raises(JobNotFound, match="no job 'nope'"):
        Jobs(most=1).get("nope")


def test_a_job_stopped_at_its_cap_names_no_command_line_flag():
    line = job_over_budget("this review")
    assert "--" not in line and "\n" not in line and "busy" in line


# -- the review's reports ---------------------------------------------------------------
@pytest.mark.slow
def test_each_report_of_a_review_is_a_prefix_of_the_whole(official_game):
    """The review reports before each guess is valued: the steps so far are the final review's first steps, value
    for value, and the rest are pending with their replies and answers left."""
    model = load_model("original")
    steps = steps_from_answer(model.game.words, "cigar", GAME)
    reports = []
    review = review_game(model, steps, answer="cigar", partial=lambda so_far, turns: reports.append(
        partial_review(so_far, turns)))
    whole = partial_review(review, [])
    assert [len(report["steps"]) for report in reports] == [0, 1, 2]
    for report in reports:
        assert report["done"] is False and report["answer"] == "cigar"
        assert report["steps"] == whole["steps"][:len(report["steps"])]
        assert [p["number"] for p in report["pending"]] == list(range(len(report["steps"]) + 1, len(GAME) + 1))
        assert [p["guess"] for p in report["pending"]] == GAME[len(report["steps"]):]
    assert reports[0]["pending"][0] == {"number": 1, "guess": "salet", "pattern": "-y---",
                                        "colours": ["absent", "present", "absent", "absent", "absent"],
                                        "before": 2315, "after": 102}


# -- over HTTP ------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_review_asked_not_to_wait_answers_202_then_the_whole_review(client):
    body = {"answer": "cigar", "words": GAME, "answers": "original"}
    reply = client.post("/api/review", json={**body, "wait": 0})
    assert reply.status_code == 202, reply.text
    first = reply.json()
    assert first["done"] is False and isinstance(first["job"], str)
    reports, whole = finish(client, reply)
    assert "done" not in whole and "pending" not in whole and whole["answer"] == "cigar"
    for report in reports:
        if "steps" in report:  # a report the worker sent (before it, nothing is known but the job)
            assert report["steps"] == whole["steps"][:len(report["steps"])]
    waited = client.post("/api/review", json=body)  # no 'wait': the request waits for the whole review
    assert waited.status_code == 200
    assert dict(waited.json(), seconds=None) == dict(whole, seconds=None)


@pytest.mark.slow
def test_an_advice_not_waited_for_shows_the_answers_left_first(client):
    reply = client.post("/api/advise", json={"steps": ["salet:-y---"], "answers": "original", "wait": 0})
    assert reply.status_code in (200, 202), reply.text
    reports, whole = finish(client, reply)
    for report in reports:
        if "steps" in report:
            assert report["suggestions"] == [] and report["remaining"] == whole["remaining"] == 102
            assert report["answers"] == whole["answers"]
    assert whole["suggestions"] and whole["steps"][0]["pattern"] == "-y---"


@pytest.mark.parametrize("query, status, message", [
    ("/api/jobs/nope", 404, "no job 'nope' on this server"),
    ("/api/jobs/nope?wait=-1", 400, "'wait' must be a number of seconds from 0 to 600, got \"-1\""),
    ("/api/jobs/nope?wait=nan", 400, "'wait' must be a number of seconds"),
    ("/api/jobs/nope?steps=x", 400, "a job is asked about with 'wait' alone, got \"steps\""),
])
def test_bad_job_requests_are_one_line_4xx(client, query, status, message):
    reply = client.get(query)
    assert reply.status_code == status and reply.json()["error"].startswith(message), reply.text


def test_a_bad_wait_on_a_review_is_a_400(client):
    reply = client.post("/api/review", json={"answer": "cigar", "words": GAME, "wait": "soon"})
    assert reply.status_code == 400 and reply.json()["error"] == ("'wait' must be a number of seconds from 0 to 600, "
                                                                  "got \"soon\"")


@pytest.mark.slow
def test_a_job_the_page_stops_is_gone(client):
    reply = client.post("/api/review", json={"answer": "cigar", "words": GAME, "answers": "original", "wait": 0})
    key = reply.json()["job"]
    stopped = client.delete(f"/api/jobs/{key}")
    assert stopped.status_code == 200 and stopped.json()["stopped"] is True
    answer = client.get(f"/api/jobs/{key}?wait=30")
    assert answer.status_code in (200, 503), answer.text  # finished first, or stopped: one line saying so
    if answer.status_code == 503:
        assert answer.json()["error"] == "this review was stopped: nobody was waiting for it any more"


@pytest.mark.slow
def test_a_web_review_finishes_with_two_busy_processes_beside_the_server(official_game):
    """Two processes spinning on the machine's cores: the review still answers (first what it knows, then the whole),
    never a 'budget' failure."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(2)]
    try:
        with TestClient(create_app(official_game, workers=1), base_url="http://localhost") as client:  # one to start
            reply = client.post("/api/review", json={"answer": "cigar", "words": SHORT_GAME, "answers": "original",
                                                     "wait": 0.5})
            reports, whole = finish(client, reply)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    assert [step["guess"] for step in whole["steps"]] == SHORT_GAME and whole["answer"] == "cigar"
    for step in whole["steps"]:  # each value proved, or marked as the bound it is (the time cap may cut a search)
        for value in (step["played"], step["best"]):
            assert value["proved"] or value["text"][0] in "≤≥", value
    assert json.dumps(whole).count("budget") == 0
