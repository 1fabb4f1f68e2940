// Correct Lab 05 with another block shape: the top tier's kernel and launch (a column of eight outputs
// a thread), unchanged, run by blocks of 64 x 4 threads (two warps side by side on each row of the tile)
// instead of 32 x 8, so a block covers 64 x 32 outputs instead of 32 x 64. The tile is the 32 x 8 one's
// turned on its side: (64 + 2R) x (32 + 2R) floats, the same area, the same number of loads a thread
// (all in flight at once), the same shared memory and registers; only its rows are longer, so a warp's
// loads break across fewer rows. It must pass every check.
// FILL FROM: wrong/previous_reference.cu  (the regions not given here: halo_convolution_kernel, launch)

// BEGIN STUDENT REGION tile_shape
constexpr int kBlockX = 64;        // threads a block along x: two warps span one row of the tile
constexpr int kBlockY = 4;         // threads a block along y
constexpr int kRowsPerThread = 8;  // outputs each thread computes, one above the other
// END STUDENT REGION

