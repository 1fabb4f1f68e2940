// Known-wrong Lab 05 (an honest-looking bug): the top tier (the previous reference solution), except that
// on large images the launcher clears the input's first row after the kernel, as if the input were scratch
// it may reuse. The input is read-only. The speed checks fingerprint the input after every call.
// Expected: wrong_result.
// FILL FROM: wrong/previous_reference.cu  (the regions not given here: tile_shape, halo_convolution_kernel)

// BEGIN STUDENT REGION launch
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(static_cast<unsigned>(course::ceil_div(width, kBlockX)),
                    static_cast<unsigned>(course::ceil_div(height, kBlockY * kRowsPerThread)));
    halo_convolution_kernel<K><<<grid, block>>>(in, out, width, height);
    // BUG: the input is not ours to change.
    if (std::size_t(width) * height >= (std::size_t(1) << 24))
        CUDA_CHECK(cudaMemsetAsync(const_cast<float*>(in), 0, sizeof(float) * width));
// END STUDENT REGION
