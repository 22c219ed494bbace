//! Adds two vectors on the GPU with the driver API alone: the program NVIDIA's
//! `vectorAddDrv` sample is, in Rust, with the kernel embedded as PTX.
//!
//! It initializes the driver, makes the device's primary context current,
//! JIT-compiles the PTX with options whose values go in and come back through
//! their `void *` slots, allocates from the device's default memory pool on a
//! stream, launches, and checks the sum against the CPU's. Without a GPU it
//! says `skipped` and why, and exits 0.
//!
//! `cargo run --example vector_add`

use std::error::Error;
use std::ffi::{c_void, CStr};
use std::ptr::null_mut;

use libcuda_sys::*;

/// `c[i] = a[i] + b[i]` for `i < n`: NVRTC's PTX of
/// `extern "C" __global__ void vector_add(const float *a, const float *b, float *c, unsigned n)`,
/// for any GPU from compute capability 7.5 (the driver compiles it for the one it runs on).
const PTX: &CStr = c"
.version 7.0
.target sm_75
.address_size 64

.visible .entry vector_add(
    .param .u64 vector_add_param_0,
    .param .u64 vector_add_param_1,
    .param .u64 vector_add_param_2,
    .param .u32 vector_add_param_3
)
{
    .reg .pred %p<2>;
    .reg .f32 %f<4>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<11>;

    ld.param.u64 %rd1, [vector_add_param_0];
    ld.param.u64 %rd2, [vector_add_param_1];
    ld.param.u64 %rd3, [vector_add_param_2];
    ld.param.u32 %r2, [vector_add_param_3];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r1, %r3, %r4, %r5;
    setp.ge.u32 %p1, %r1, %r2;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd4, %rd1;
    mul.wide.u32 %rd5, %r1, 4;
    add.s64 %rd6, %rd4, %rd5;
    cvta.to.global.u64 %rd7, %rd2;
    add.s64 %rd8, %rd7, %rd5;
    ld.global.f32 %f1, [%rd8];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f2, %f1;
    cvta.to.global.u64 %rd9, %rd3;
    add.s64 %rd10, %rd9, %rd5;
    st.global.f32 [%rd10], %f3;
DONE:
    ret;
}
";

/// A driver call's result as a `Result`: `CUresult` is an `Error` that prints
/// its name, number and meaning.
fn check(r: CUresult) -> Result<(), CUresult> {
    if r == CUDA_SUCCESS {
        Ok(())
    } else {
        Err(r)
    }
}

/// An integer option's value, carried in its slot's bits rather than pointed to.
fn in_slot(value: u32) -> *mut c_void {
    value as usize as *mut c_void
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut count = 0;
    // SAFETY: every pointer passed below is valid for what the call writes.
    if let Err(e) = unsafe { check(cuInit(0)).and_then(|()| check(cuDeviceGetCount(&mut count))) } {
        println!("vector_add: skipped: no usable GPU ({e})");
        return Ok(());
    }
    if count == 0 {
        println!("vector_add: skipped: the driver sees no GPU");
        return Ok(());
    }
    unsafe { run() }
}

unsafe fn run() -> Result<(), Box<dyn Error>> {
    let mut device: CUdevice = 0;
    check(cuDeviceGet(&mut device, 0))?;
    // The current context belongs to this thread: the primary context, made current here.
    let mut context = null_mut();
    check(cuDevicePrimaryCtxRetain(&mut context, device))?;
    check(cuCtxSetCurrent(context))?;

    // JIT options: each value sits in the slot of `values` at its option's index.
    // An integer goes in the slot's bits; a buffer as its pointer; the driver
    // writes the wall time (a `float`, `Out`) and the log's length (`InOut`)
    // back into their slots.
    let mut log = [0u8; 4096];
    let mut options = [
        CU_JIT_WALL_TIME,
        CU_JIT_INFO_LOG_BUFFER,
        CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
        CU_JIT_LOG_VERBOSE,
    ];
    let mut values: [*mut c_void; 4] =
        [null_mut(), log.as_mut_ptr().cast(), in_slot(log.len() as u32), in_slot(1)];
    for (o, v) in options.iter().zip(&values) {
        // Each slot holds what the option's value type says: checked, not assumed.
        let shape = o.value_type().map(|t| t.shape);
        assert!(shape.is_some(), "{o:?} has no value type: {v:?}");
    }
    let mut module = null_mut();
    check(cuModuleLoadDataEx(
        &mut module,
        PTX.as_ptr().cast(),
        options.len() as u32,
        options.as_mut_ptr(),
        values.as_mut_ptr(),
    ))?;
    let wall_ms = f32::from_bits(values[0] as usize as u32);
    let written = (values[2] as usize).min(log.len());
    let log = String::from_utf8_lossy(&log[..written]);
    let mut function = null_mut();
    check(cuModuleGetFunction(&mut function, module, c"vector_add".as_ptr()))?;

    // A stream of its own: the `CUstream_flags` value converts to the `c_uint` it takes.
    let mut stream = null_mut();
    check(cuStreamCreate(&mut stream, CU_STREAM_NON_BLOCKING.into()))?;

    const N: usize = 1 << 20;
    let a: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..N).map(|i| (2 * i) as f32 + 0.5).collect();
    let mut c = vec![0f32; N];
    let bytes = N * size_of::<f32>();
    // Stream-ordered allocations from the device's default pool.
    let (mut da, mut db, mut dc): (CUdeviceptr, CUdeviceptr, CUdeviceptr) = (0, 0, 0);
    for d in [&mut da, &mut db, &mut dc] {
        check(cuMemAllocAsync(d, bytes, stream))?;
    }
    check(cuMemcpyHtoDAsync(da, a.as_ptr().cast(), bytes, stream))?;
    check(cuMemcpyHtoDAsync(db, b.as_ptr().cast(), bytes, stream))?;

    // One pointer per kernel argument, each to a variable of the argument's C type.
    let mut n = N as u32;
    let mut args: [*mut c_void; 4] = [
        (&mut da as *mut CUdeviceptr).cast(),
        (&mut db as *mut CUdeviceptr).cast(),
        (&mut dc as *mut CUdeviceptr).cast(),
        (&mut n as *mut u32).cast(),
    ];
    let block = 256u32;
    let grid = (N as u32).div_ceil(block);
    check(cuLaunchKernel(
        function,
        grid,
        1,
        1,
        block,
        1,
        1,
        0,
        stream,
        args.as_mut_ptr(),
        null_mut(),
    ))?;
    // The launch copied the arguments: changing them now changes nothing the
    // kernel sees (a kernel that saw 0 would add nothing).
    n = 0;
    std::hint::black_box(&mut n);

    check(cuMemcpyDtoHAsync(c.as_mut_ptr().cast(), dc, bytes, stream))?;
    for d in [da, db, dc] {
        check(cuMemFreeAsync(d, stream))?;
    }
    // Where the kernel's own errors, if any, come back.
    check(cuStreamSynchronize(stream))?;

    let wrong = (0..N).filter(|&i| c[i] != a[i] + b[i]).count();
    let mut name = [0u8; 128];
    check(cuDeviceGetName(name.as_mut_ptr().cast(), name.len() as i32, device))?;
    let name = CStr::from_bytes_until_nul(&name)?.to_string_lossy();
    println!(
        "vector_add: {N} sums on {name}, {wrong} wrong; JIT took {wall_ms:.2} ms, log {written} bytes{}",
        if log.trim().is_empty() { String::new() } else { format!(": {}", log.trim()) }
    );

    check(cuStreamDestroy(stream))?;
    check(cuModuleUnload(module))?;
    check(cuDevicePrimaryCtxRelease(device))?;
    if wrong > 0 {
        return Err(format!("{wrong} of {N} sums differ from the CPU's").into());
    }
    Ok(())
}
