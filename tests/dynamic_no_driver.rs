//! The dynamic-loading mode where the driver library cannot be opened: the
//! program starts, says why, and every call returns an error; nothing panics.
#![cfg(feature = "dynamic-loading")]

use std::process::Command;

/// Runs `dynamic_loading`'s test binary again with a driver path that does not
/// exist, so this holds on machines that do have a driver.
#[test]
fn missing_driver_is_an_error_per_call() {
    let deps = std::env::current_exe()
        .unwrap()
        .parent()
        .unwrap()
        .to_path_buf();
    let exe = std::fs::read_dir(&deps)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("dynamic_loading-")
                && p.extension().is_none()
        })
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
        .expect("the dynamic_loading test binary is built with this one");
    let out = Command::new(exe)
        .args(["--exact", "missing_library_then_fake_driver", "--nocapture"])
        .env("LIBCUDA_SYS_TEST_MISSING_DRIVER", "1")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("try_load: cannot load the CUDA driver library /nonexistent/libcuda.so.1"),
        "{text}"
    );
    assert!(!text.contains("panicked"), "{text}");
}
