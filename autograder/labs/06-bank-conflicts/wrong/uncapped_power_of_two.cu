// Known-wrong Lab 06: the model answers with the power-of-two part of the stride (stride & -stride)
// and never caps it at the lanes of a pass, so stride 64 is called 64-way, and for 8-byte words
// stride 32 is called 32-way. Right for every stride up to 32 with 4-byte words: only the check up to
// 128 catches it. Expected: wrong_result.
//
// Region-overlay form: only the conflict_ways region (the skeleton checks the arguments before it);
// the kernel, its launch and the detector are the reference solution's.

// BEGIN STUDENT REGION conflict_ways
    return stride & -stride;  // BUG: a warp has only 32 lanes (16 a pass for 8-byte words)
// END STUDENT REGION
