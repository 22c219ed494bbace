/* A no-op libcuda.so.1 (every function returns CUDA_SUCCESS at once), for
   `cargo xtask bench-calls-bundle --self-test`: the call benchmark then
   measures what the call path itself costs. */
#include <cuda.h>
#include <string.h>
CUresult CUDAAPI cuInit(unsigned int f) { (void)f; return CUDA_SUCCESS; }
CUresult CUDAAPI cuGetErrorName(CUresult e, const char **s) { (void)e; *s = "no-op"; return CUDA_SUCCESS; }
CUresult CUDAAPI cuDriverGetVersion(int *v) { *v = CUDA_VERSION; return CUDA_SUCCESS; }
CUresult CUDAAPI cuDeviceGetCount(int *c) { *c = 1; return CUDA_SUCCESS; }
CUresult CUDAAPI cuDeviceGet(CUdevice *d, int o) { *d = o; return CUDA_SUCCESS; }
CUresult CUDAAPI cuDeviceGetName(char *n, int len, CUdevice d) {
    (void)d; strncpy(n, "no-op stand-in libcuda", (size_t)len); n[len - 1] = 0; return CUDA_SUCCESS; }
CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) { (void)d; *c = (CUcontext)0x1000; return CUDA_SUCCESS; }
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice d) { (void)d; return CUDA_SUCCESS; }
CUresult CUDAAPI cuCtxSetCurrent(CUcontext c) { (void)c; return CUDA_SUCCESS; }
CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool *p, CUdevice d) { (void)d; *p = (CUmemoryPool)0x2000; return CUDA_SUCCESS; }
CUresult CUDAAPI cuStreamCreate(CUstream *s, unsigned int f) { (void)f; *s = (CUstream)0x3000; return CUDA_SUCCESS; }
CUresult CUDAAPI cuStreamDestroy(CUstream s) { (void)s; return CUDA_SUCCESS; }
CUresult CUDAAPI cuStreamSynchronize(CUstream s) { (void)s; return CUDA_SUCCESS; }
CUresult CUDAAPI cuStreamQuery(CUstream s) { (void)s; return CUDA_SUCCESS; }
CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool p, CUmemPool_attribute a, void *v) {
    (void)p; (void)a; *(cuuint64_t *)v = 0; return CUDA_SUCCESS; }
CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool p, CUmemPool_attribute a, void *v) {
    (void)p; (void)a; (void)v; return CUDA_SUCCESS; }
CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *d, size_t n, CUmemoryPool p, CUstream s) {
    (void)n; (void)p; (void)s; *d = 0x10000; return CUDA_SUCCESS; }
CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr d, CUstream s) { (void)d; (void)s; return CUDA_SUCCESS; }
