"""Compare the answer model before and after issue 50's taste list and lexicon, on the same held-out days.

Run: python benchmarks/compare_answer_fit.py
Reads results/answer-model-fit-before.json (benchmarks/fit_likely.py at the commit it names, before the taste
list), results/answer-model-fit.json (the same command now), the word kinds of the before commit (git show) and
results/answer-model-plausibility.tsv (a person's judgement of each word of the two models' top 100 words outside
the original answers: would a player call it a plausible Wordle answer). Writes
results/answer-model-before-after.json: the held-out summaries of `likely` and `fresh` before and after, each
held-out day's answer with its rank and log chance under both, and the two top-100 lists with the share judged
plausible.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agents.answer_fit import FEATURES, feature_vector, sigmoid  # noqa: E402
from agents.answer_model import likely_words  # noqa: E402
from plumbing.storage import results_record, write_atomically  # noqa: E402
from wordle import load_words  # noqa: E402
from wordle.words import WordKind  # noqa: E402

BEFORE = ROOT / "results" / "answer-model-fit-before.json"
AFTER = ROOT / "results" / "answer-model-fit.json"
JUDGED = ROOT / "results" / "answer-model-plausibility.tsv"
OUTPUT = ROOT / "results" / "answer-model-before-after.json"
TOP = 100


def kinds_at(commit: str) -> dict[str, WordKind]:
    """The word kinds as shipped at a commit (its five columns: no taste then)."""
    text = subprocess.run(["git", "show", f"{commit}:wordle/data/word-kinds.tsv"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    kinds = {}
    for line in text.splitlines()[1:]:
        word, zipf, kind, plural, past = line.split("\t")[:5]
        kinds[word] = WordKind(zipf=float(zipf), kind=kind, plural=plural == "1", past=past == "1")
    return kinds


def top_before(words, kinds: dict[str, WordKind], coefficients: dict[str, float]) -> list[str]:
    """The before model's TOP heaviest words outside the original answers (its plural rule, its coefficients)."""
    theta = np.array([coefficients[name] for name in FEATURES])
    answers = set(words.answers)
    rest = [w for w in words.guesses if w not in answers and not kinds[w].plural]
    weights = sigmoid(np.array([feature_vector(kinds[w]) for w in rest]) @ theta)
    return [rest[i] for i in np.argsort(-weights, kind="stable")[:TOP]]


def top_after(words) -> list[str]:
    """The shipped model's TOP heaviest words outside the original answers."""
    model_answers, weights = likely_words(words)
    tier = len(words.answers)
    return [model_answers[tier + i] for i in np.argsort(-weights[tier:], kind="stable")[:TOP]]


def judged() -> dict[str, tuple[bool, str]]:
    """The plausibility judgements: word to (plausible, why)."""
    rows = [line.split("\t") for line in JUDGED.read_text(encoding="utf-8").splitlines()[1:]]
    return {word: (verdict == "yes", why) for word, verdict, why in rows}


def share(top: list[str], judgement: dict[str, tuple[bool, str]]) -> dict:
    """A top list with each word's judgement and the share judged plausible."""
    missing = [w for w in top if w not in judgement]
    if missing:
        raise SystemExit(f"{JUDGED.name}: no judgement for {', '.join(missing)}")
    return {"words": top, "plausible_share": sum(judgement[w][0] for w in top) / len(top),
            "implausible": {w: judgement[w][1] for w in top if not judgement[w][0]}}


def main() -> None:
    """Compare and write."""
    before, after = json.loads(BEFORE.read_text()), json.loads(AFTER.read_text())
    held = after["held_out"]
    if held["answers"] != before["held_out"]["answers"]:
        raise SystemExit("the two fits were measured on different days")
    words = load_words()
    judgement = judged()
    originals = set(words.answers)
    result = results_record("python benchmarks/compare_answer_fit.py", None, words.checksum)
    result.update({
        "before": {"file": BEFORE.name, "commit": before["commit"], "coefficients": before["coefficients"]},
        "after": {"file": AFTER.name, "commit": after["commit"], "coefficients": after["coefficients"]},
        "held_out": {key: held[key] for key in ("from", "to", "days")},
        "summaries": {}, "days": [], "top": {},
    })
    for name in ("likely fitted", "fresh"):
        result["summaries"][name] = {
            "before": before["models"][name]["summary"] | {
                "median_rank_outside_original": before["models"][name]["median_rank_outside_original"]},
            "after": after["models"][name]["summary"] | {
                "median_rank_outside_original": after["models"][name]["median_rank_outside_original"]}}
    for i, (date, word) in enumerate(zip(held["dates"], held["answers"])):
        day = {"date": date, "answer": word, "original": word in originals}
        for name, short in (("likely fitted", "likely"), ("fresh", "fresh")):
            day[short] = {"rank_before": before["models"][name]["ranks"][i],
                          "rank_after": after["models"][name]["ranks"][i],
                          "log_chance_before": before["models"][name]["log_chances"][i],
                          "log_chance_after": after["models"][name]["log_chances"][i]}
        result["days"].append(day)
    result["top"]["before"] = share(top_before(words, kinds_at(before["commit"]), before["coefficients"]), judgement)
    result["top"]["after"] = share(top_after(words), judgement)
    outside = [d for d in result["days"] if not d["original"]]
    result["outside_original_days"] = [{"date": d["date"], "answer": d["answer"], **d["likely"]} for d in outside]
    for name in result["summaries"]:
        print(name, {k: (v["before"]["mean_log_chance"], v["after"]["mean_log_chance"])
                     for k, v in [(name, result["summaries"][name])]})
    print("top-100 plausible: before", result["top"]["before"]["plausible_share"],
          "after", result["top"]["after"]["plausible_share"])
    write_atomically(OUTPUT, (json.dumps(result, indent=1) + "\n").encode())


if __name__ == "__main__":
    main()
