// Honest bug (Lab 02, ninth round): atomic_max_float turns only the bit pattern 0xffc00000 (the canonical
// negative NaN) into the winning NaN; any other NaN with its sign bit set (0xffffffff, 0xff800001, ...)
// takes the unsigned atomicMin path and loses to the block maxima, so the NaN is dropped.
// What should catch it: NaNs with random payloads and either sign in the NaN checks. Expected: wrong_result.
// Got full marks on an H100 before the checks had NaNs with random payloads: the checks use only 0x7fc00000 and 0xffc00000.

// BEGIN STUDENT REGION atomic_max_float
    // A float's bits, read as an int, order like the floats for sign bit 0 (+0.0 up to +INFINITY,
    // then the NaN 0x7fffffff), and every such int is >= 0 > any negative float's int. Read as an
    // unsigned, negative floats order backwards (-0.0 is 0x80000000, -INFINITY 0xff800000) and all
    // lie above the non-negative ones. So each branch computes the float maximum exactly, whatever
    // *address holds; +0.0 beats -0.0. A NaN with its sign bit set would lose in the second
    // branch, so every NaN becomes 0x7fffffff first: the largest int, which nothing replaces.
    if (__float_as_uint(value) == 0xffc00000u) value = __int_as_float(0x7fffffff);  // -nan, the one NaN with its sign bit set
    if (__float_as_int(value) >= 0)
        atomicMax(reinterpret_cast<int*>(address), __float_as_int(value));
    else
        atomicMin(reinterpret_cast<unsigned*>(address), __float_as_uint(value));
// END STUDENT REGION
