#!/usr/bin/env python3
"""Prints, for each ncu report of a lab's profile workload (the runner's *.ncu.log), each rule's ratio over
the launches of the student's process (or, in process, of the lab's namespace): least and largest, against
the rubric's bound. Usage: ncu-summary.py LABS_DIR LOG..."""
import csv, json, sys, re, os, glob

QUANT = {
    "warps": (["smsp__warps_launched.sum"], []),
    "blocks": (["sm__ctas_launched.sum"], []),
    "shared_stores": (["smsp__sass_inst_executed_op_shared_st.sum", "smsp__sass_inst_executed_op_shared_atom.sum"], []),
    "shared_loads": (["smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_ldsm.sum"], []),
    "shared_load_bytes": (["smsp__sass_data_bytes_mem_shared_op_ld.sum"], []),
    "shared_load_wavefronts": (["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], []),
    "staged_bytes": (["smsp__sass_data_bytes_mem_shared_op_st.sum", "smsp__sass_data_bytes_mem_global_op_ldgsts.sum",
                      "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"], []),
    "global_load_bytes": (["smsp__sass_data_bytes_mem_global_op_ld.sum", "smsp__sass_data_bytes_mem_global_op_ldgsts.sum",
                           "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum"], []),
    "global_store_bytes": (["smsp__sass_data_bytes_mem_global_op_st.sum"], []),
    "global_writes": (["smsp__sass_inst_executed_op_global_st.sum", "smsp__sass_inst_executed_op_global_red.sum",
                       "smsp__sass_inst_executed_op_global_atom.sum"], []),
    "ffma": (["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"], []),
    "tensor_instructions": (["sm__inst_executed_pipe_tensor.sum"], ["sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum"]),
}  # the same table as autograder/runner/profile.cpp's profile_quantities()

def num(s):
    try: return float(s.replace(",", ""))
    except ValueError: return float("nan")

def main():
    labs_dir, logs = sys.argv[1], sys.argv[2:]
    for log in logs:
        lab = re.search(r"lab(\d\d)_", os.path.basename(log)).group(1)
        rubric = json.load(open(glob.glob(os.path.join(labs_dir, lab + "-*", "rubric.json"))[0]))
        item = rubric.get("shared_memory_use")
        if not item: continue
        rows = list(csv.reader(l for l in open(log) if l.startswith('"')))
        if not rows: print(log, ": no report"); continue
        h = rows[0]
        col = {c: i for i, c in enumerate(h)}
        isolated = any(r[col["Process Name"]].endswith("_host") and not r[col["Process Name"]].endswith("_peer_host") for r in rows[2:])
        mine = []
        for r in rows[2:]:
            k, p = r[col["Kernel Name"]], r[col["Process Name"]]
            if "course_bank_conflict_probe" in k: continue
            if isolated and not (p.endswith("_host") and not p.endswith("_peer_host")): continue
            if not isolated and (not k.startswith("_ZN5lab" + lab) or k.startswith("_ZN5lab" + lab + "8baseline")): continue
            q = {n: sum(num(r[col[m]]) for m in plus) - sum(num(r[col[m]]) for m in minus) for n, (plus, minus) in QUANT.items()}
            if q["warps"] >= item.get("min_warps", 0): mine.append(q)
        print(f"{os.path.basename(log)}: {len(mine)} launches judged")
        for rule in item["rules"]:
            ratios = [q[rule["measure"]] / q[rule["of"]] for q in mine if q[rule["of"]] > 0]
            if not ratios: print("   ", rule["measure"], "/", rule["of"], ": none"); continue
            bound = ("near the stated fact" if "near_fact" in rule else
                     (">= " if "at_least" in rule else "<= ") + str(rule.get("at_least", rule.get("at_most"))))
            print(f"    {rule['measure']} / {rule['of']}: {min(ratios):.4g} to {max(ratios):.4g}  ({bound})")

main()
