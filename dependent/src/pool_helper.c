/* C side of libcuda-sys-dependent-example: compiled by build.rs against the
 * cuda.h that libcuda-sys generated its bindings from (DEP_CUDA_INCLUDE), and
 * linked against the libcuda that libcuda-sys links. */
#include <stddef.h>

#include <cuda.h>

/* CU_MEMPOOL_ATTR_USED_MEM_CURRENT of `pool` into *out; returns the CUresult. */
int pool_helper_used_mem(CUmemoryPool pool, unsigned long long *out)
{
    cuuint64_t value = 0;
    CUresult result = cuMemPoolGetAttribute(pool, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &value);
    if (result == CUDA_SUCCESS && out != NULL) {
        *out = (unsigned long long)value;
    }
    return (int)result;
}

/* sizeof(CUmemPoolProps) as this C compiler lays it out. */
size_t pool_helper_sizeof_pool_props(void)
{
    return sizeof(CUmemPoolProps);
}

/* CUDA_VERSION as this translation unit saw it. */
int pool_helper_cuda_version(void)
{
    return CUDA_VERSION;
}
