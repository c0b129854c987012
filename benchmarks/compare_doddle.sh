#!/usr/bin/env bash
# Our players and Doddle's on the same seeded answer sets, back to back in one run, so both are timed
# under the same load: our Dordle and Quordle tournaments of the first N sets (seed 0; game k deals the
# same answers as game k of any run of the variant with that seed), then Doddle's solvers on those sets
# (benchmarks/compare_doddle.py, in Doddle's own environment), which writes doddle.json in each folder.
# Usage: benchmarks/compare_doddle.sh N DODDLE_PYTHON [OUT]   (OUT: where the run folders go, default results)
set -euo pipefail
count=${1:?how many answer sets}
doddle_python=${2:?the python of the environment Doddle is installed in}
out=${3:-results}
dordle="$out/compare-doddle-dordle-sample-$count-seed-0"
quordle="$out/compare-doddle-quordle-sample-$count-seed-0"
python cli.py tournament --boards 2 --agents entropy,minimax --seed 0 --sample "$count" --out "$dordle"
python cli.py tournament --boards 4 --agents entropy --seed 0 --sample "$count" --out "$quordle"
DODDLE_COMMIT=${DODDLE_COMMIT:-847d89d} "$doddle_python" benchmarks/compare_doddle.py "$dordle" "$quordle" \
    --count "$count" --solvers entropy
