#!/usr/bin/env bash
# The all-opener job's scaling on a lent 16-core machine, in one timed script (issue 32).
#
# Run from the repository root: OUT=folder bash benchmarks/scaling_on_16_cores.sh SECONDS
#   1. the machine: lscpu (threads per core, cores, caches), the Python, numpy and numba versions;
#   2. one slice of the normal-mode ranking (ranks 300 to 460) through the job's own Dask path on local clusters of
#      4, 8 and 16 workers (bench_opener_slices.py --compare-clusters): CPU seconds per opener at each size;
#   3. the whole normal-mode job from scratch on --cluster 16, against the proved 7920;
#   4. the whole hard-mode job from scratch on --cluster 16, against 8122, stopped (Ctrl-C, so it saves its summary)
#      when SECONDS of the script have passed; the same command resumes it anywhere.
# Every file it writes goes to $OUT. Dask's wheels travel in .whl when the machine lacks them.
set -u
budget=${1:-540}
start=$(date +%s)
export PYTHONUNBUFFERED=1 WORDLE_ARENA_CACHE=/tmp/wordle-arena-cache
if ! python3 -c "import distributed" 2>/dev/null && ls .whl/*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
fi
{ lscpu; nproc; free -g; python3 -c "import sys, numpy, numba, distributed; print(sys.version, numpy.__version__,
numba.__version__, distributed.__version__)"; } > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt" | grep -E "Model name|Thread|Core|Socket|^CPU\(s\)|L3|3\."
elapsed() { echo $(( $(date +%s) - start )); }
python3 benchmarks/bench_opener_slices.py --compare-clusters 4,8,16 --ranks 300:460 --rounds 1 > "$OUT/slices.log" 2>&1
cp results/bench_opener_slices-clusters-normal.json "$OUT/slices-clusters-normal.json"
tail -3 "$OUT/slices.log"; echo "slices done at $(elapsed) s"
TIMEFORMAT="wall %R s, user %U s, system %S s"
{ time python3 cli.py openers --exact --all --against 7920 --cluster 16 --out "$OUT/normal16.jsonl" \
  > "$OUT/normal16.log" 2>&1; } 2> "$OUT/normal16.time"
tail -2 "$OUT/normal16.log"; cat "$OUT/normal16.time"; echo "normal done at $(elapsed) s"
left=$(( budget - $(elapsed) ))
{ time timeout -s INT -k 30 "$left" python3 cli.py openers --exact --all --hard --against 8122 --cluster 16 \
  --out "$OUT/hard16.jsonl" > "$OUT/hard16.log" 2>&1; } 2> "$OUT/hard16.time"
cat "$OUT/hard16.time"; tail -2 "$OUT/hard16.log"; wc -l "$OUT/hard16.jsonl"; echo "hard stopped or done at $(elapsed) s"
