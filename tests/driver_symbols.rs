//! Which bound functions the installed driver lacks. This binary references no
//! driver function but `cuInit` and `cuDriverGetVersion` (present in every
//! driver), so it starts where a binary built against newer headers would not,
//! and lists what such a binary would miss: exact symbols in the linked mode,
//! what the resolver finds in the dynamic-loading mode.

use std::io::Write;

use libcuda_sys::*;

#[cfg(not(feature = "dynamic-loading"))]
#[path = "common/fake_driver.rs"]
mod fake_driver;

#[cfg(not(feature = "dynamic-loading"))]
fn has(symbol: &str) -> bool {
    // libcuda is loaded with the program. The crate's stand-in exports every
    // bound function and hands each call to the driver behind it: there, what
    // that driver has is what a call reaches.
    let loaded = !testkit::loaded_symbol(symbol).is_null();
    let stand_in = !testkit::loaded_symbol("libcuda_sys_stand_in_driver").is_null();
    loaded && (!stand_in || driver_has(symbol) == Ok(true))
}

#[cfg(feature = "dynamic-loading")]
fn has(symbol: &str) -> bool {
    libcuda_sys::dynamic::is_available(symbol) == Some(true)
}

#[test]
fn driver_has_every_bound_function() {
    const TEST: &str = "driver_has_every_bound_function";
    let r = unsafe { cuInit(0) };
    if r != CUresult::CUDA_SUCCESS {
        // Without a usable driver the presence check says so, never yes or no:
        // against a stub, in both modes, the stub's own answer.
        assert!(driver_has("cuInit").is_err(), "{:?}", driver_has("cuInit"));
        if r == CUresult::CUDA_ERROR_STUB_LIBRARY {
            assert_eq!(driver_has("cuInit"), Err(r));
        }
        let result = r.to_string();
        let why = testkit::no_driver_for_tests(r.0)
            .unwrap_or_else(|| panic!("cuInit(0) returned {result}"));
        return testkit::skip_gpu(&format!("cuInit(0) returned {result}: {why}"));
    }
    let mut driver = 0;
    assert_eq!(unsafe { cuDriverGetVersion(&mut driver) }, CUresult::CUDA_SUCCESS);
    let missing: Vec<&str> = FUNCTIONS.iter().copied().filter(|s| !has(s)).collect();
    let line = format!(
        "{TEST}: driver {}.{}, headers {}.{}: {} of {} bound functions present; missing ({}): {}\n",
        driver / 1000,
        driver % 1000 / 10,
        CUDA_VERSION / 1000,
        CUDA_VERSION % 1000 / 10,
        FUNCTIONS.len() - missing.len(),
        FUNCTIONS.len(),
        missing.len(),
        if missing.is_empty() { "none".to_string() } else { missing.join(", ") }
    );
    let _ = std::io::stderr().write_all(line.as_bytes());
    // What the loader lacks is what `since` says a driver of this version lacks,
    // and, on x86-64, the one EGL function the desktop driver does not export
    // (crate docs, "Graphics interop").
    let unexported = |s: &str| {
        cfg!(all(feature = "egl", target_arch = "x86_64")) && s == "cuEventCreateFromEGLSync"
    };
    if SINCE_AVAILABLE {
        let expected: Vec<&str> = FUNCTIONS
            .iter()
            .copied()
            .filter(|s| since(s).is_some_and(|v| v > driver as u32) || unexported(s))
            .collect();
        assert_eq!(
            missing, expected,
            "the driver lacks other functions than `since` predicts for CUDA {driver}"
        );
        let _ = std::io::stderr().write_all(
            format!(
                "{TEST}: the missing ones are exactly those `since` puts after driver {driver}\n"
            )
            .as_bytes(),
        );
    }
    // The presence check answers as the loader does, plain names for their target.
    if SINCE_AVAILABLE || cfg!(feature = "dynamic-loading") {
        let says_no: Vec<&str> =
            FUNCTIONS.iter().copied().filter(|f| driver_has(f) == Ok(false)).collect();
        assert_eq!(says_no, missing, "driver_has disagrees with the loader");
        assert_eq!(driver_has("cuMemAlloc"), driver_has("cuMemAlloc_v2"));
        assert_eq!(driver_has("no_such_function"), Ok(false));
        let _ = std::io::stderr().write_all(
            format!(
                "{TEST}: driver_has: {} yes, {} no\n",
                FUNCTIONS.len() - says_no.len(),
                says_no.len()
            )
            .as_bytes(),
        );
    }
    // A driver at least as new as the headers must have all of them.
    if driver >= CUDA_VERSION as i32 {
        let lacks: Vec<&&str> = missing.iter().filter(|s| !unexported(s)).collect();
        assert!(lacks.is_empty(), "the driver is as new as the headers yet lacks {lacks:?}");
    }
}

#[test]
fn driver_symbol_finds_what_the_library_exports() {
    let init = match driver_symbol(c"cuInit") {
        Err(CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED)
            if cfg!(feature = "dynamic-loading") =>
        {
            return testkit::skip_gpu("no driver library to open (libcuda.so.1)");
        }
        Err(CUresult::CUDA_ERROR_STUB_LIBRARY) if cfg!(not(feature = "dynamic-loading")) => {
            return testkit::skip_gpu("linked against the stand-in, with no driver behind it");
        }
        other => other.expect("the libcuda this program runs with exports cuInit"),
    };
    assert!(!init.is_null());
    assert_eq!(driver_symbol(c"cuNoSuchFunction"), Err(CUresult::CUDA_ERROR_NOT_FOUND));
    // Linked, the library the loader gave the program: the address it resolved;
    // through the crate's stand-in, the driver behind it, not the stand-in's entry.
    #[cfg(not(feature = "dynamic-loading"))]
    match testkit::loaded_from("libcuda_sys_stand_in") {
        None => assert_eq!(init as *const (), testkit::loaded_symbol("cuInit")),
        Some(_) => assert_ne!(init as *const (), testkit::loaded_symbol("cuInit")),
    }
    let _ = std::io::stderr().write_all(
        format!("driver_symbol: cuInit at {init:?}, cuNoSuchFunction not found\n").as_bytes(),
    );
}

/// The dynamic-loading tests' fake driver (tests/dynamic_loading.rs), linked:
/// this binary runs again with the fake as its `libcuda.so.1` and must get the
/// same answers, but for a function the fake gives only through
/// `cuGetProcAddress`, which a linked program cannot call.
#[cfg(not(feature = "dynamic-loading"))]
#[test]
fn a_fake_driver_gets_the_answers_dynamic_loading_gives() {
    const TEST: &str = "a_fake_driver_gets_the_answers_dynamic_loading_gives";
    const CHILD: &str = "LIBCUDA_SYS_TEST_LINKED_FAKE";
    if std::env::var_os(CHILD).is_some() {
        let mut v = 0;
        assert_eq!(unsafe { cuDriverGetVersion(&mut v) }, CUresult::CUDA_SUCCESS);
        assert_eq!(v, 12345, "not the fake driver");
        fake_driver::assert_answers();
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fake-driver-linked");
    testkit::fake_driver(&dir, CUDA_VERSION, 1);
    run_again(TEST, CHILD, dir.as_os_str(), "the linked run with the fake");
}

/// This binary's test `test` run again alone, with `child` set and
/// `LD_LIBRARY_PATH` `path`; it must pass (`what` names the run when not).
#[cfg(not(feature = "dynamic-loading"))]
fn run_again(test: &str, child: &str, path: &std::ffi::OsStr, what: &str) {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(child, "1")
        .env("LD_LIBRARY_PATH", path)
        .output()
        .unwrap();
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && text.contains("1 passed"), "{what}:\n{text}");
}

/// Linked against the stand-in (a build without a driver) and run the way
/// `cargo test` runs it, with a driver past the stand-in on the library path:
/// the calls reach that driver, and `driver_symbol` and `driver_has` answer
/// for it, not for the stand-in, which exports every bound function. This
/// binary runs again with testkit's fake driver behind the stand-in.
#[cfg(all(target_os = "linux", not(feature = "dynamic-loading")))]
#[test]
fn behind_the_stand_in_the_answers_are_the_drivers() {
    const TEST: &str = "behind_the_stand_in_the_answers_are_the_drivers";
    const CHILD: &str = "LIBCUDA_SYS_TEST_BEHIND_STAND_IN";
    let Some(stand_in) = testkit::loaded_from("libcuda_sys_stand_in") else {
        return testkit::skip("linked against a driver, not the stand-in");
    };
    if std::env::var_os(CHILD).is_some() {
        let mut v = 0;
        assert_eq!(unsafe { cuDriverGetVersion(&mut v) }, CUresult::CUDA_SUCCESS);
        assert_eq!(v, 12345, "not the fake driver");
        fake_driver::assert_answers();
        // A symbol the bindings do not declare: the fake's legacy `cuMemAlloc`.
        let legacy = driver_symbol(c"cuMemAlloc").expect("the driver's own cuMemAlloc");
        // SAFETY: the fake's `int cuMemAlloc(unsigned *, unsigned)`, which reads neither.
        let legacy: extern "C" fn(*mut u32, u32) -> i32 = unsafe { std::mem::transmute(legacy) };
        assert_eq!(legacy(std::ptr::null_mut(), 0), 999);
        return;
    }
    let mut v = 0;
    match unsafe { cuDriverGetVersion(&mut v) } {
        // No driver behind it: nothing to name.
        CUresult::CUDA_ERROR_STUB_LIBRARY => {
            assert_eq!(driver_symbol(c"cuInit"), Err(CUresult::CUDA_ERROR_STUB_LIBRARY));
        }
        // A driver behind it (a GPU machine): its symbols, not the stand-in's entries.
        r => {
            assert_eq!(r, CUresult::CUDA_SUCCESS);
            let legacy = driver_symbol(c"cuMemAlloc");
            assert!(legacy.is_ok(), "{legacy:?}");
            let own = driver_symbol(c"cuMemAlloc_v2").unwrap();
            assert_ne!(own as *const (), testkit::loaded_symbol("cuMemAlloc_v2"));
            let _ = std::io::stderr().write_all(
                format!(
                    "{TEST}: driver {v} behind the stand-in {}: cuMemAlloc at {:?}\n",
                    stand_in.display(),
                    legacy.unwrap()
                )
                .as_bytes(),
            );
        }
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fake-driver-behind-stand-in");
    testkit::fake_driver(&dir, CUDA_VERSION, 1);
    let path = std::env::join_paths([stand_in.parent().unwrap(), &dir]).unwrap();
    run_again(TEST, CHILD, &path, "the run with the fake behind the stand-in");
}
