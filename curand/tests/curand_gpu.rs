//! With a GPU: cuRAND fills a libcuda-sys pool allocation on a libcuda-sys
//! stream, which goes to `curandSetStream` with no cast; the numbers copied
//! back equal those cuRAND's host generator computes on the CPU from the same
//! seed. Without a driver or device the test says `skipped: ...` and passes.
#![cfg(not(no_curand))]

use libcuda_sys::*;
use libcuda_sys_curand_example::*;

fn check(call: &str, r: CUresult) {
    assert_eq!(r, CUDA_SUCCESS, "{call}: {r}");
}

fn check_curand(call: &str, s: curandStatus_t) {
    assert_eq!(s, curandStatus::CURAND_STATUS_SUCCESS, "{call}: {s:?}");
}

/// `Some(reason)` when there is no usable driver or no device.
fn no_gpu() -> Option<String> {
    // SAFETY: flags by value; `n` is a valid int for the driver to write.
    testkit::no_gpu(|| unsafe { cuInit(0) }, |n| unsafe { cuDeviceGetCount(n) }, |r| r.0)
}

#[test]
fn curand_fills_a_pool_allocation_on_a_libcuda_sys_stream_as_the_cpu_does() {
    if let Some(reason) = no_gpu() {
        return testkit::skip_gpu(&reason);
    }
    const N: usize = 1 << 20;
    const SEED: u64 = 0x5eed_cafe;
    let rng = curandRngType::CURAND_RNG_PSEUDO_PHILOX4_32_10;
    // SAFETY: every pointer below is to a live local; the device buffer holds
    // N floats until it is freed, after the stream has finished with it.
    unsafe {
        let ctx = create_context(0).unwrap_or_else(|r| panic!("cuCtxCreate: {r}"));
        let mut stream: CUstream = std::ptr::null_mut();
        check("cuStreamCreate", cuStreamCreate(&mut stream, CU_STREAM_NON_BLOCKING.into()));
        let mut device: CUdeviceptr = 0;
        check("cuMemAllocAsync", cuMemAllocAsync(&mut device, N * 4, stream));

        let mut gpu: curandGenerator_t = std::ptr::null_mut();
        check_curand("curandCreateGenerator", curandCreateGenerator(&mut gpu, rng));
        check_curand(
            "curandSetPseudoRandomGeneratorSeed",
            curandSetPseudoRandomGeneratorSeed(gpu, SEED),
        );
        // libcuda-sys's CUstream is cuRAND's cudaStream_t.
        check_curand("curandSetStream", curandSetStream(gpu, stream));
        check_curand("curandGenerateUniform", curandGenerateUniform(gpu, device as *mut f32, N));
        let mut from_gpu = vec![0f32; N];
        check(
            "cuMemcpyDtoHAsync",
            cuMemcpyDtoHAsync(from_gpu.as_mut_ptr().cast(), device, N * 4, stream),
        );
        check("cuMemFreeAsync", cuMemFreeAsync(device, stream));
        check("cuStreamSynchronize", cuStreamSynchronize(stream));

        let mut cpu: curandGenerator_t = std::ptr::null_mut();
        check_curand("curandCreateGeneratorHost", curandCreateGeneratorHost(&mut cpu, rng));
        check_curand(
            "curandSetPseudoRandomGeneratorSeed",
            curandSetPseudoRandomGeneratorSeed(cpu, SEED),
        );
        let mut from_cpu = vec![0f32; N];
        check_curand(
            "curandGenerateUniform (host)",
            curandGenerateUniform(cpu, from_cpu.as_mut_ptr(), N),
        );

        let differ =
            from_gpu.iter().zip(&from_cpu).filter(|(g, c)| g.to_bits() != c.to_bits()).count();
        let mean = from_gpu.iter().map(|&x| f64::from(x)).sum::<f64>() / N as f64;
        eprintln!("{N} uniform floats from the GPU: {differ} differ from the CPU's; mean {mean:.5}; first {:?}", &from_gpu[..4]);
        assert_eq!(differ, 0, "GPU and CPU generators disagree");
        assert!(from_gpu.iter().all(|&x| x > 0.0 && x <= 1.0), "a value outside (0, 1]");
        assert!((mean - 0.5).abs() < 0.01, "mean {mean}");

        check_curand("curandDestroyGenerator", curandDestroyGenerator(gpu));
        check_curand("curandDestroyGenerator (host)", curandDestroyGenerator(cpu));
        check("cuStreamDestroy", cuStreamDestroy(stream));
        check("cuCtxDestroy", cuCtxDestroy(ctx));
    }
}
