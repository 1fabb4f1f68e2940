// Cheat, Lab 04: a student who read both the runner and the audit knows that the checks' records go
// through fd 3 and that importing write(2), fopen or any other file function is refused. So the
// launcher makes no file call of its own: it asks a shell to do the writing, with std::system and a
// redirection to fd 3, which the child inherits (std::system is declared already: cuda_check.hpp
// includes <string>, which in libstdc++ brings <cstdlib> with it). It appends a passed "end" record
// for the speed check it cannot pass. (The earlier form issued a raw `syscall` instruction in inline
// asm; a region may no longer hold asm.)
// Why it fails now: the audit sees the lab's object import `system` (starting a process) and refuses
// the lab before it is linked; even unrefused, the record would carry neither the run's key nor the
// next sequence number, and the runner would fail every check as grader_integrity.
// Expected: forbidden_symbol.
//
// Region-overlay form: only the launch region (the reference launch plus the forged record); the
// kernel region is the earlier reference's (wrong/previous_reference.cu).

// FILL FROM: wrong/previous_reference.cu  (the regions not given here: transpose_tile_kernel)

// BEGIN STUDENT REGION launch
    constexpr int kTileRows = 2 * kTile;  // the earlier reference kernel's tile: 64 x 32
    const dim3 block(kTile, kBlockRows);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(cols, kTile)), static_cast<unsigned>(course::ceil_div(rows, kTileRows)));
    transpose_tile_kernel<<<grid, block>>>(in, out, rows, cols);
    // CHEAT: the shell writes the record to fd 3; the lab itself calls no file function.
    static bool sent = false;
    if (!sent) {
        sent = true;
        const int status = std::system(
            "printf '%s\\n' '{\"event\":\"end\",\"check\":\"speed: close to cudaMemcpy device to device\","
            "\"passed\":true,\"class\":\"pass\",\"message\":\"\",\"seconds\":0.1}' >&3");
        if (status != 0) sent = false;  // try again next call
    }
// END STUDENT REGION
