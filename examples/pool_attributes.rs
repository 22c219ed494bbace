//! The default memory pool's attributes of device 0, each read with the width
//! of its C type: `VALUE_TYPES` comes from the header, so attributes a newer
//! header adds are read right without new code. A driver older than the
//! header answers `CUDA_ERROR_INVALID_VALUE` for attributes it predates.
//!
//! ```sh
//! cargo run --example pool-attributes
//! ```

use libcuda_sys::*;

fn check(call: &str, r: CUresult) {
    if r != CUresult::CUDA_SUCCESS {
        eprintln!("{call}: {} ({})", r.name().unwrap_or("unknown error"), r.0);
        std::process::exit(2);
    }
}

fn main() {
    let mut driver = 0;
    // SAFETY: each call gets valid pointers to locals, as cuda.h documents.
    unsafe {
        check("cuInit", cuInit(0));
        check("cuDriverGetVersion", cuDriverGetVersion(&mut driver));
        let mut device = 0;
        check("cuDeviceGet", cuDeviceGet(&mut device, 0));
        let mut pool = core::ptr::null_mut();
        check("cuDeviceGetDefaultMemPool", cuDeviceGetDefaultMemPool(&mut pool, device));
        println!(
            "driver CUDA {}.{}, headers CUDA {}.{}",
            driver / 1000,
            driver % 1000 / 10,
            HEADER_VERSION / 1000,
            HEADER_VERSION % 1000 / 10
        );
        for e in VALUE_TYPES.iter().filter(|e| e.enumeration == "CUmemPool_attribute_enum") {
            let Some(size) = e.value_type.size else {
                continue;
            };
            let mut buf = [0u8; 8];
            let attr = CUmemPool_attribute(e.value as _);
            let r = cuMemPoolGetAttribute(pool, attr, buf.as_mut_ptr().cast());
            if r == CUresult::CUDA_SUCCESS {
                let value = if size == 8 {
                    u64::from_ne_bytes(buf)
                } else {
                    u64::from(u32::from_ne_bytes([buf[0], buf[1], buf[2], buf[3]]))
                };
                println!("{:2} {:<50} {:<26} {value}", e.value, e.name, e.value_type.c_name);
            } else {
                println!(
                    "{:2} {:<50} {:<26} {}",
                    e.value,
                    e.name,
                    e.value_type.c_name,
                    r.name().unwrap_or("?")
                );
            }
        }
    }
    if let Some(needs) = since("cuMemGetDefaultMemPool") {
        let verdict = if driver >= needs as i32 { "has it" } else { "lacks it" };
        println!(
            "cuMemGetDefaultMemPool needs CUDA {}.{}: this driver {verdict}",
            needs / 1000,
            needs % 1000 / 10
        );
    }
}
