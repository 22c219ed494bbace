/*
 * call_overhead.c: the loops of examples/call_overhead.rs in C, the baseline
 * the Rust bindings are compared with. Same calls, same batches, same output:
 *
 *   gcc -O2 -I/usr/local/cuda/include benches/call_overhead.c -o call_overhead-c -lcuda
 *   ./call_overhead-c       # '# ...' information lines, then 'bench <name> <ns_per_call>'
 *
 * BENCH_BATCH calls per batch (default 1000), BENCH_BATCHES timed batches
 * (default 200) after BENCH_WARMUP untimed ones (default 20), on device
 * BENCH_DEVICE (default 0). The figure is the median over batches of a batch's
 * time divided by its calls. The default pool's release threshold is raised
 * to UINT64_MAX for the run (and restored), as in the Rust programs.
 *
 * Exit status: 0 measured; 1 a driver call failed; 2 no driver or no device.
 */
#define _POSIX_C_SOURCE 199309L
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long env_long(const char *name, long fallback, long minimum) {
    const char *v = getenv(name);
    if (!v || !*v) return fallback;
    char *end;
    long n = strtol(v, &end, 10);
    return (*end || n < minimum) ? fallback : n;
}

static const char *err_name(CUresult r) {
    const char *s = NULL;
    if (cuGetErrorName(r, &s) != CUDA_SUCCESS || !s) s = "unknown CUresult";
    return s;
}

#define CHECK(call)                                                                    \
    do {                                                                               \
        CUresult r_ = (call);                                                          \
        if (r_ != CUDA_SUCCESS) {                                                      \
            fprintf(stderr, "call_overhead (c): %s returned %s (%d)\n", #call,         \
                    err_name(r_), (int)r_);                                            \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long batch, batches, warmup;
static CUmemoryPool pool;
static CUstream stream;
static double *per_call;

static void report(const char *bench) {
    qsort(per_call, (size_t)batches, sizeof *per_call, cmp_double);
#define AT(q) per_call[(long)((double)(batches - 1) * (q) + 0.5)]
    printf("# %s: min %.1f p10 %.1f median %.1f p90 %.1f ns over %ld batches\n", bench,
           AT(0.0), AT(0.1), AT(0.5), AT(0.9), batches);
    printf("bench %s %.2f\n", bench, AT(0.5));
#undef AT
    fflush(stdout);
}

static void fail(const char *what, long failed) {
    fprintf(stderr, "call_overhead (c): %s: %ld calls failed\n", what, failed);
    exit(1);
}

int main(void) {
    batch = env_long("BENCH_BATCH", 1000, 1);
    batches = env_long("BENCH_BATCHES", 200, 1);
    warmup = env_long("BENCH_WARMUP", 20, 0);
    int ordinal = (int)env_long("BENCH_DEVICE", 0, 0);

    CUresult r = cuInit(0);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "call_overhead (c): no driver: cuInit returned %s (%d)\n", err_name(r),
                (int)r);
        return 2;
    }
    int count = 0;
    r = cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS || count <= ordinal) {
        fprintf(stderr, "call_overhead (c): no driver: device %d asked for, %d present (%s)\n",
                ordinal, count, err_name(r));
        return 2;
    }
    int driver = 0;
    CHECK(cuDriverGetVersion(&driver));
    CUdevice dev;
    CHECK(cuDeviceGet(&dev, ordinal));
    char name[256];
    CHECK(cuDeviceGetName(name, (int)sizeof name, dev));
    CUcontext ctx;
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    CHECK(cuDeviceGetDefaultMemPool(&pool, dev));
    CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    /* Keep freed memory in the pool across the synchronizations between batches
     * (the default threshold, 0, hands it back to the OS there); restored at the end. */
    cuuint64_t saved = 0, keep = ~(cuuint64_t)0;
    CHECK(cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &saved));
    CHECK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &keep));

    printf("# variant c\n");
    printf("# device %d: %s; driver CUDA %d.%d; headers CUDA_VERSION %d\n", ordinal, name,
           driver / 1000, driver % 1000 / 10, CUDA_VERSION);
    printf("# batch %ld calls, %ld batches, %ld warm-up batches\n", batch, batches, warmup);

    per_call = malloc((size_t)batches * sizeof *per_call);
    if (!per_call) return 1;
    long failed = 0;

    cuuint64_t used = 0;
    for (long i = 0; i < warmup + batches; i++) {
        double start = now_ns();
        for (long k = 0; k < batch; k++)
            if (cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &used) !=
                CUDA_SUCCESS)
                failed++;
        double ns = now_ns() - start;
        if (i >= warmup) per_call[i - warmup] = ns / (double)batch;
    }
    if (failed) fail("cuMemPoolGetAttribute", failed);
    report("pool_get_attribute");

    for (long i = 0; i < warmup + batches; i++) {
        double start = now_ns();
        for (long k = 0; k < batch; k++) {
            CUdeviceptr p = 0;
            if (cuMemAllocFromPoolAsync(&p, 256, pool, stream) != CUDA_SUCCESS) failed++;
            if (cuMemFreeAsync(p, stream) != CUDA_SUCCESS) failed++;
        }
        double ns = now_ns() - start;
        CHECK(cuStreamSynchronize(stream));
        if (i >= warmup) per_call[i - warmup] = ns / (double)batch;
    }
    if (failed) fail("cuMemAllocFromPoolAsync + cuMemFreeAsync", failed);
    report("alloc_free_async_256");

    CHECK(cuStreamSynchronize(stream));
    for (long i = 0; i < warmup + batches; i++) {
        double start = now_ns();
        for (long k = 0; k < batch; k++)
            if (cuStreamQuery(stream) != CUDA_SUCCESS) failed++;
        double ns = now_ns() - start;
        if (i >= warmup) per_call[i - warmup] = ns / (double)batch;
    }
    if (failed) fail("cuStreamQuery", failed);
    report("stream_query");

    CHECK(cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &saved));
    CHECK(cuStreamDestroy(stream));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    free(per_call);
    return 0;
}
