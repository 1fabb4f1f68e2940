// A starter with one student region (test data for region_sync).
__global__ void scale(float* x, int n, float factor) {
    // BEGIN STUDENT REGION scale
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= factor;
    // END STUDENT REGION
}
