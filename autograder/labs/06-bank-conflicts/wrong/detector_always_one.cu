// Known-wrong Lab 06: the detector never measures and always answers "conflict-free". Every mystery
// of 2 or more ways is misjudged. Expected: wrong_result.
//
// Region-overlay form: only the detect region; the model, the kernel and its launch are the
// reference solution's (the original took the same code from the former reference_parts.cuh).

// BEGIN STUDENT REGION detect
    return 1;  // BUG: a guess, not a measurement
// END STUDENT REGION
