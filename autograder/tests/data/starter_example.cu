// A starter with one student region (test data for region_sync).
__global__ void scale(float* x, int n) {
    // BEGIN STUDENT REGION scale
    // TODO (~2 lines): multiply x[i] by 2
    // END STUDENT REGION
}
