// Known-wrong Lab 02: the finish across blocks is atomicMax on the float's bits read as an int,
// for every value. That orders non-negative floats correctly but negative ones backwards (-2.0
// reads as a larger int than -1.0, and -INFINITY larger than both), so an input of negative
// numbers keeps -INFINITY or the wrong block's maximum. Expected: wrong_result.
//
// Region-overlay form: only atomic_max_float is given (the bug); the kernel and launch regions are
// the reference solution's. The original used the basic tier (one element per thread) around the
// same atomic_max_float. The class holds: *out starts at -INFINITY, whose int is above that of
// every other negative float, so whatever tier feeds the atomic, an all-negative input (the
// "all-negative inputs" check) comes back as -INFINITY.

// BEGIN STUDENT REGION atomic_max_float
    if (isnan(value)) value = __int_as_float(0x7fffffff);
    atomicMax(reinterpret_cast<int*>(address), __float_as_int(value));  // BUG: wrong for negative floats
// END STUDENT REGION
