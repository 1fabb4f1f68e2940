// Known-wrong Lab 06: the model works in bytes, in int. Lane l's word starts at byte
// l * stride * word_bytes, and the model counts the distinct words of one pass that start in lane 0's
// bank (a word several lanes read is read once and broadcast). Right for every stride from 1 to 128,
// but the byte offsets leave int for large strides (first at 2^26 with 4-byte words, where lane 31's
// passes 2^31): at stride 2^29, stride * word_bytes itself is 2^31, the offsets wrap to 0 and -2^31,
// the 32 lanes seem to read two words, and the answer is 2, not 32.
// What catches it now: the model checks also ask strides up to 2^31 - 1 (near 2^31 / 4 and 2^31 / 8,
// powers of two, random ones from the seed) and compare with the grader's model computed in 64 bits.
// Expected: wrong_result (both model checks).
//
// Region-overlay form: only the conflict_ways region (the skeleton checks the arguments before it);
// the kernel, its launch and the detector are the reference solution's.

// BEGIN STUDENT REGION conflict_ways
    // A pass serves 128 bytes: count the distinct words of one pass that start in lane 0's bank.
    const int lanes = kBanks * 4 / word_bytes;
    const int step = stride * word_bytes;  // BUG: bytes between neighbouring lanes, in int: wraps past 2^31
    int starts[kBanks] = {};
    int ways = 0;
    for (int lane = 0; lane < lanes; ++lane) {
        const int address = lane * step;
        if (address % (kBanks * 4) != 0) continue;  // another bank than lane 0's
        bool seen = false;
        for (int w = 0; w < ways; ++w) seen = seen || starts[w] == address;
        if (!seen) starts[ways++] = address;  // a new word: one more pass
    }
    return ways;
// END STUDENT REGION
