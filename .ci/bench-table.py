#!/usr/bin/env python3
"""A Markdown table of a bench CSV (build/bench/bench --csv): one row per case, the reference, the naive
baseline and the peer with their ratios, and the copy roofline under it. For docs/pages/bench.md.

    python3 .ci/bench-table.py bench.csv
"""
import csv, sys

rows = list(csv.DictReader(open(sys.argv[1])))
gpu = rows[0]["gpu"] if rows else "?"
cases = {}
roofline = None
for r in rows:
    if r["contender"] == "roofline":
        roofline = r
        continue
    cases.setdefault((r["lab"], r["case"]), {})[r["contender"]] = r

def fig(r):
    return f'{float(r["throughput"]):.1f} {r["unit"]}' if r["unit"] == "TFLOP/s" else f'{float(r["throughput"]):.0f} {r["unit"]}'

print(f"{gpu}; medians of {rows[0]['rounds']} interleaved rounds.\n")
print("| Lab | Case | Reference | Naive baseline | Peer | Reference / peer | Reference / naive | Reference / copy roofline |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for (lab, case), c in cases.items():
    ref, naive, peer = c["reference"], c["naive"], c["peer"]
    over_naive = float(naive["median_ms"]) / float(ref["median_ms"])
    roof = ref["fraction_of_copy_roofline"]
    print(f'| {lab} | {case} | {fig(ref)} | {fig(naive)} | {peer["implementation"]} {fig(peer)} | '
          f'{float(ref["ratio_to_peer"]):.2f} | {over_naive:.1f} | {float(roof):.2f} |' if roof else
          f'| {lab} | {case} | {fig(ref)} | {fig(naive)} | {peer["implementation"]} {fig(peer)} | '
          f'{float(ref["ratio_to_peer"]):.2f} | {over_naive:.1f} | — |')
if roofline:
    print(f'\nCopy roofline: {roofline["implementation"]}, {float(roofline["throughput"]):.0f} GB/s (read + write counted).')
