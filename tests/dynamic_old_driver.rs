//! The dynamic-loading mode against a fake driver older than the headers
//! (CUDA 12.1) whose `cuGetProcAddress_v2` answers every name with some
//! function, as an older driver may answer with the newest variant it has: a
//! function whose ABI is newer than the driver must be absent without the
//! driver being asked, so that no call reaches an older ABI with the newer
//! one's arguments. A process of its own: the library is opened once.
#![cfg(feature = "dynamic-loading")]

use libcuda_sys::*;

const DRIVER: u32 = 12010;

const FAKE: &str = r#"
typedef unsigned long long u64;
static int asked;
int fake_queries(void) { return asked; }
int cuInit(unsigned flags) { (void)flags; return 0; }
int cuDriverGetVersion(int *v) { *v = 12010; return 0; }
static int any_variant(void) { return 555; }
int cuGetProcAddress_v2(const char *symbol, void **pfn, int version, u64 flags, int *status) {
    (void)symbol; (void)version; (void)flags;
    asked++;
    *pfn = (void *)any_variant; *status = 0; return 0;
}
"#;

#[test]
fn an_abi_newer_than_the_driver_is_absent_without_asking() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("old-driver");
    std::fs::create_dir_all(&dir).unwrap();
    let so = testkit::compile_c(FAKE, &dir.join("libcuda-old.so"), &["-shared", "-fPIC"]);
    std::env::set_var("LIBCUDA_SYS_DRIVER_PATH", &so);
    libcuda_sys::dynamic::try_load().unwrap();
    let library = unsafe { libloading::Library::new(&so) }.unwrap();
    let queries =
        unsafe { library.get::<unsafe extern "C" fn() -> i32>(b"fake_queries\0") }.unwrap();

    if !SINCE_AVAILABLE {
        return testkit::skip("the headers had no cudaTypedefs.h: the bindings cannot tell which driver a function needs",
        );
    }
    let newer: Vec<&str> =
        FUNCTIONS.iter().copied().filter(|f| since(f).is_some_and(|v| v > DRIVER)).collect();
    assert!(!newer.is_empty() || HEADER_VERSION <= DRIVER);
    for f in &newer {
        assert_eq!(libcuda_sys::dynamic::is_available(f), Some(false), "{f}");
        assert_eq!(driver_has(f), Ok(false), "{f}");
    }
    assert_eq!(unsafe { queries() }, 0, "the driver was asked for a newer ABI");
    // 13.0 moved cuCtxCreate to its 12.5 ABI (`_v4`): a 12.1 driver has only older ones.
    #[cfg(cuda_13_0)]
    {
        let mut ctx = std::ptr::null_mut();
        // Another absent function asked for last, so that the call below must name its own.
        let other = newer.iter().find(|f| **f != "cuCtxCreate_v4").unwrap();
        assert_eq!(libcuda_sys::dynamic::is_available(other), Some(false));
        assert_eq!(libcuda_sys::dynamic::last_missing(), Some(*other));
        let r = unsafe { cuCtxCreate(&mut ctx, std::ptr::null_mut(), 0, 0) };
        assert_eq!(r, CUresult::CUDA_ERROR_NOT_FOUND);
        // The call's answer names what was missing: the 13.0 ABI's symbol.
        assert_eq!(libcuda_sys::dynamic::last_missing(), Some("cuCtxCreate_v4"));
        assert_eq!(unsafe { queries() }, 0);
    }
    // A function as old as the driver that it does not export by name is
    // asked for, through its plain name, and found.
    assert_eq!(libcuda_sys::dynamic::is_available("cuMemFree"), Some(true));
    assert_eq!(driver_has("cuMemFree"), Ok(true));
    assert_eq!(unsafe { queries() }, 1);
    println!(
        "{} functions newer than CUDA 12.1 absent without a query; cuMemFree found through one",
        newer.len()
    );
}
