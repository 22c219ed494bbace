/* The one header libcuda-sys binds: the CUDA driver API. */
#include <cuda.h>
