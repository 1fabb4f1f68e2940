#!/bin/sh
# ctest bench_runs: runs the benchmark on Lab 04 for three rounds, then checks that the CSV exists, starts with
# the documented header (docs/pages/bench.md) and holds the roofline and Lab 04's three contenders, and that
# the chart was drawn. Exit 77 (skipped) where bench finds no GPU.
#   sh bench_runs.sh BENCH CSV SVG
bench=$1
csv=$2
svg=$3
expected='lab,case,contender,implementation,verified,median_ms,min_ms,max_ms,rounds,throughput,unit,ratio_to_peer,fraction_of_copy_roofline,gpu'

rm -f "$csv" "$svg"
"$bench" --rounds 3 --lab 04 --csv "$csv" --svg "$svg"
rc=$?
if [ "$rc" -eq 77 ]; then
  echo "bench_runs: no GPU, skipped"
  exit 77
fi
if [ "$rc" -ne 0 ]; then
  echo "bench_runs: bench exited with status $rc"
  exit 1
fi
if [ ! -f "$csv" ]; then
  echo "bench_runs: no CSV at $csv"
  exit 1
fi
header=$(head -n 1 "$csv")
if [ "$header" != "$expected" ]; then
  echo "bench_runs: the CSV header is"
  echo "  $header"
  echo "expected"
  echo "  $expected"
  exit 1
fi
for role in reference naive peer; do
  if ! grep -q "^04,[^,]*,$role,[^,]*,yes," "$csv"; then
    echo "bench_runs: no verified Lab 04 $role row in $csv"
    exit 1
  fi
done
if ! grep -q '^--,copy roofline,roofline,[^,]*,yes,' "$csv"; then
  echo "bench_runs: no verified copy roofline row in $csv"
  exit 1
fi
if ! grep -q '</svg>' "$svg" 2>/dev/null; then
  echo "bench_runs: no SVG chart at $svg"
  exit 1
fi
echo "bench_runs: $csv has the expected header and rows; $svg drawn"
