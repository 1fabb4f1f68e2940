// Known-wrong Lab 06: the model uses the 4-byte rule gcd(stride, 32) for 8-byte words too, missing
// that a pass of 128 bytes serves only a half-warp of 8-byte words: stride 32 of doubles is 16-way,
// not 32-way. Expected: wrong_result (the 8-byte model check only).
//
// Region-overlay form: only the conflict_ways region (the skeleton checks the arguments before it);
// the kernel, its launch and the detector are the reference solution's.

// BEGIN STUDENT REGION conflict_ways
    return std::gcd(stride, 32);  // BUG: 16 lanes a pass for 8-byte words
// END STUDENT REGION
