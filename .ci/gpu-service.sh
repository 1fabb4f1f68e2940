#!/usr/bin/env bash
# The grading service on a GPU machine, against grade --roster on the same submissions and GPU(s):
# N generated submissions (.ci/make-roster.py) are graded once by grade --roster, then sent to
# course-server (one worker a visible GPU) by C clients at once through the remote client
# (autograder/remote/grade_remote.py), each client its share of the students one after another.
# Prints the wall time per submission of both, what the service adds, and whether every check of every
# submission ended the same way in both.
#
#   N=30 C=6 bash .ci/gpu-service.sh     (after a build in $BUILD that has course-server; the work in
#                                         /tmp/service-run, the server's log copied to $OUT when set)
#   SKIP_ROSTER=1 ...                    (the service only)
#   GPUS="0 0,1" N=10 C=5 bash .ci/gpu-service.sh
#                                        (the roster on GPU 0, then the service once on GPU 0 and once
#                                         on GPUs 0 and 1, each against that roster: one GPU's figures
#                                         and two GPUs' throughput against one, in one call)
set -uo pipefail
cd "$(dirname "$0")/.."
trap 'kill $(jobs -p) 2> /dev/null' EXIT
BUILD=${BUILD:-build-gpu}
N=${N:-30} C=${C:-6} SEED=${SEED:-20261122} PORT=${PORT:-18080}
W=/tmp/service-run
# bubblewrap unpacked from .debs by the build (.ci/debs-prefix.sh), where the machine has none of its own.
[[ -x $BUILD-deps/usr/bin/bwrap ]] && export PATH=$PATH:$PWD/$BUILD-deps/usr/bin
[[ -x $BUILD/course-server ]] || { echo "no $BUILD/course-server: build it first (it needs cpp-httplib and SQLite)"; exit 1; }
rm -rf "$W" && mkdir -p "$W/tok"
python3 .ci/make-roster.py . "$W/roster" "$N" > /dev/null
mv "$W/roster/expected.json" "$W/expected.json"
mapfile -t students < <(ls "$W/roster")
echo "== $N submissions of all six labs, $C clients, $(nproc) cores, GPUs: $(nvidia-smi -L | wc -l)"

# GPUS: the GPU sets the service is run on in turn (course-server --gpus: /dev/nvidiaN numbers); the roster
# runs on the first (as CUDA_VISIBLE_DEVICES: the same cards where CUDA numbers them as the driver does).
read -r -a sets <<< "${GPUS:-}"
roster_env=()
[[ ${#sets[@]} -gt 0 ]] && roster_env=(env "CUDA_VISIBLE_DEVICES=${sets[0]}")
[[ ${#sets[@]} -gt 0 ]] || sets=("")
roster_s=
if [[ -z ${SKIP_ROSTER:-} ]]; then
  SECONDS=0
  "${roster_env[@]}" timeout "${ROSTER_LIMIT:-900}" "$BUILD/grade" --roster "$W/roster" --gradebook "$W/book" \
    --seed "$SEED" > "$W/roster.log" 2>&1
  echo "roster${sets[0]:+ on GPU(s) ${sets[0]}}: rc $?, ${SECONDS}s wall, $(python3 -c "print(f'{$SECONDS/$N:.1f}')") s a submission"
  roster_s=$SECONDS
fi

printf 'student\n' > "$W/roster.csv"; printf '%s\n' "${students[@]}" >> "$W/roster.csv"
"$BUILD/course-server" tokens --roster "$W/roster.csv" --out "$W/tokens.csv" 2> /dev/null > "$W/handout.csv"
while IFS=, read -r id role token; do
  [[ $role == student ]] && printf '%s\n' "$token" > "$W/tok/$id"
done < "$W/handout.csv"

# One pass of the service over every submission, on GPU set $1 ("" for all): a database, scratch folder
# and results of its own under $W/svc-<n>.
pass=0
serve() {
  local gpus=$1 S=$W/svc-$((++pass)) server
  mkdir -p "$S/results"
  local only=()
  [[ -n $gpus ]] && only=(--gpus "$gpus")
  "$BUILD/course-server" "${only[@]}" --db "$S/class.sqlite" --tokens "$W/tokens.csv" \
    --listen "127.0.0.1:$((PORT + pass))" --scratch "$S/scratch" --sandbox "${SANDBOX:-auto}" > "$S/server.log" 2>&1 &
  server=$!
  for _ in $(seq 1 600); do
    grep -q "^listening on" "$S/server.log" && break
    kill -0 $server 2> /dev/null || { echo "course-server did not start:"; tail -20 "$S/server.log"; return 1; }
    sleep 0.5
  done
  echo "== the service${gpus:+ on GPU(s) $gpus}:"
  grep -E "worker|sandbox|listening" "$S/server.log" | head -5
  SECONDS=0
  local clients=()
  for c in $(seq 0 $((C - 1))); do
    (
      for ((i = c; i < N; i += C)); do
        s=${students[$i]}
        start=$(date +%s.%N)
        python3 autograder/remote/grade_remote.py --remote "http://127.0.0.1:$((PORT + pass))" --token-file "$W/tok/$s" \
          --labs-dir "$W/roster/$s" --results "$S/results/$s.json" --poll 0.5 > "$S/results/$s.log" 2>&1
        echo "$s $? $(python3 -c "import time; print(f'{time.time() - $start:.1f}')")" >> "$S/clients.txt"
      done
    ) &
    clients+=($!)
  done
  wait "${clients[@]}"
  local service_s=$SECONDS
  kill $server 2> /dev/null
  wait $server 2> /dev/null
  echo "service: ${service_s}s wall, $(python3 -c "print(f'{$service_s/$N:.1f}')") s a submission;" \
    "client exit codes: $(awk '{print $2}' "$S/clients.txt" | sort | uniq -c | tr '\n' ' ')"
  [[ -n $roster_s ]] && echo "the service adds $(python3 -c "print(f'{($service_s - $roster_s)/$N:+.1f}')") s a" \
    "submission against the roster"
  python3 - "$W" "$S" <<'PY'
import json, os, statistics, sys
w, svc = sys.argv[1], sys.argv[2]
lat = [float(l.split()[2]) for l in open(f"{svc}/clients.txt")]
print(f"upload to result: p50 {statistics.median(lat):.1f} s, p95 {sorted(lat)[int(0.95 * (len(lat) - 1))]:.1f} s")
same = differ = missing = 0
for s in sorted(os.listdir(f"{w}/roster")):
    try:
        a = json.load(open(f"{w}/book/students/{s}/results.json"))
    except OSError:
        a = None
    try:
        b = json.load(open(f"{svc}/results/{s}.json"))
    except (OSError, ValueError):
        missing += 1
        print(f"  {s}: no results from the service")
        continue
    if a is None:
        continue
    ka = {t["name"]: t["status"] for t in a["tests"]}
    kb = {t["name"]: t["status"] for t in b["tests"]}
    d = sorted(n for n in ka.keys() | kb.keys() if ka.get(n) != kb.get(n))
    if d:
        differ += 1
        print(f"  {s}: {len(d)} check(s) differ, e.g. {d[0]}: roster {ka.get(d[0])}, service {kb.get(d[0])}")
    else:
        same += 1
print(f"service against roster: {same} submissions the same in every check, {differ} differ, {missing} missing")
PY
  echo "$service_s" > "$S/wall"
  [[ -n ${OUT:-} ]] && cp "$S/server.log" "$OUT/server-$pass.log" 2> /dev/null && cp "$S/clients.txt" "$OUT/clients-$pass.txt"
}
for set in "${sets[@]}"; do serve "$set"; done
if [[ ${#sets[@]} -gt 1 ]]; then
  first=$(cat "$W/svc-1/wall") last=$(cat "$W/svc-${#sets[@]}/wall")
  echo "throughput on GPU(s) ${sets[-1]} against ${sets[0]}: $(python3 -c "print(f'{$first/max($last,1):.2f}x')")"
fi
true
