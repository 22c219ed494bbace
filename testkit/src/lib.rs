//! Helpers shared by the tests of the libcuda-sys workspace (the crate's own
//! tests, systest and the dependent crate) and by `mempool-report`. Nothing
//! here depends on libcuda-sys, so every member can use it: libcuda-sys's own
//! tests take it as a dev-dependency, and a dependency back would build a
//! second copy of the crate.

use std::io::Write;

/// Says `skipped: <test>: <reason>` on the terminal, past libtest's output
/// capture, so a test that could not run is never mistaken for one that
/// passed. The test is the one running: libtest names the thread it runs a
/// test on after the test (`tests::name` in a module). Where
/// `LIBCUDA_SYS_SKIP_LOG` names a file, also appends `{"test":..,"reason":..}`
/// to it as one JSON line: how `cargo xtask test` and the GPU bundle collect
/// skips, as data. For what this machine lacks other than a GPU (a tool, a
/// layout, root); a test that wants a GPU or driver calls [`skip_gpu`].
pub fn skip(reason: &str) {
    log_skip(reason, false);
}

/// [`skip`] for a test that needs a GPU, a driver, or more of either than
/// this machine has (a second device, a newer driver, a device feature).
/// Its log line says `"gpu":true`: the test command counts these skips apart
/// from the others, which a machine like CI's should not have.
pub fn skip_gpu(reason: &str) {
    log_skip(reason, true);
}

fn log_skip(reason: &str, gpu: bool) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("main");
    // One write, so that libtest's own output cannot land inside the line.
    let _ = std::io::stderr().write_all(format!("skipped: {test}: {reason}\n").as_bytes());
    if let Some(log) = std::env::var_os(SKIP_LOG) {
        let gpu = if gpu { ",\"gpu\":true" } else { "" };
        let line =
            format!("{{\"test\":{},\"reason\":{}{gpu}}}\n", json_string(test), json_string(reason));
        // One write in append mode: lines of tests running at once stay whole.
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        if let Err(e) = written {
            let _ = std::io::stderr().write_all(
                format!("{SKIP_LOG}={}: {e}\n", std::path::Path::new(&log).display()).as_bytes(),
            );
        }
    }
}

/// For a test that reads the build tree (`OUT_DIR`, the sources, a temporary
/// directory of the target): `true` where `path` is there; where it is not (a
/// test binary copied to another machine, as the GPU bundle does), says
/// `skipped` and returns `false`.
pub fn build_tree(path: &str) -> bool {
    let there = std::path::Path::new(path).exists();
    if !there {
        skip(&format!(
            "reads the build tree ({path}), which is not on this machine: run it with cargo test where it was built"
        ));
    }
    there
}

/// The variable naming the file [`skip`] appends to.
pub const SKIP_LOG: &str = "LIBCUDA_SYS_SKIP_LOG";

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(unix)]
extern "C" {
    fn dlsym(
        handle: *mut std::ffi::c_void,
        symbol: *const std::ffi::c_char,
    ) -> *mut std::ffi::c_void;
}

/// The address of `name` among the libraries the process loaded (`dlsym` with
/// `RTLD_DEFAULT`, null on glibc): for a linked libcuda, the driver's or the
/// stand-in's symbol; null where none exports it.
#[cfg(unix)]
pub fn loaded_symbol(name: &str) -> *const () {
    let Ok(name) = std::ffi::CString::new(name) else {
        return std::ptr::null();
    };
    // SAFETY: RTLD_DEFAULT and a NUL-terminated name; only the address is read.
    unsafe { dlsym(std::ptr::null_mut(), name.as_ptr()) as *const () }
}

#[cfg(unix)]
#[repr(C)]
struct DlInfo {
    fname: *const std::ffi::c_char,
    fbase: *mut std::ffi::c_void,
    sname: *const std::ffi::c_char,
    saddr: *mut std::ffi::c_void,
}

#[cfg(unix)]
extern "C" {
    fn dladdr(addr: *const std::ffi::c_void, info: *mut DlInfo) -> std::ffi::c_int;
}

/// The file of the loaded library that defines `name` ([`loaded_symbol`]):
/// for a linked libcuda, which one the loader gave the program.
#[cfg(unix)]
pub fn loaded_from(name: &str) -> Option<std::path::PathBuf> {
    use std::os::unix::ffi::OsStrExt;
    let address = loaded_symbol(name);
    if address.is_null() {
        return None;
    }
    let mut info = DlInfo {
        fname: std::ptr::null(),
        fbase: std::ptr::null_mut(),
        sname: std::ptr::null(),
        saddr: std::ptr::null_mut(),
    };
    // SAFETY: an address inside a loaded object and a zeroed out-struct of
    // glibc's and musl's layout; the name is copied before anything unloads.
    let name = unsafe {
        if dladdr(address.cast(), &mut info) == 0 || info.fname.is_null() {
            return None;
        }
        std::ffi::CStr::from_ptr(info.fname)
    };
    Some(std::ffi::OsStr::from_bytes(name.to_bytes()).into())
}

/// The `CUresult`s that mean "no usable driver or device here", not a failure
/// of the code under test: `(code, name in cuda.h, why, with what to do)`.
/// By number, since this crate cannot see libcuda-sys's constants;
/// `mempool-report`'s tests check each name against the headers.
pub const NO_USABLE_DRIVER: &[(u32, &str, &str)] = &[
    (
        34,
        "CUDA_ERROR_STUB_LIBRARY",
        "the libcuda loaded is a stub, not the NVIDIA driver (no driver on this machine): run where one is installed",
    ),
    (
        100,
        "CUDA_ERROR_NO_DEVICE",
        "the NVIDIA driver is installed but finds no CUDA device; check nvidia-smi and CUDA_VISIBLE_DEVICES",
    ),
    (
        803,
        "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
        "the NVIDIA kernel module and the user-space driver (libcuda) are different versions; reinstall the driver or reboot",
    ),
    (
        804,
        "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
        "the forward-compatibility libcuda in use does not support this GPU; use the driver's own libcuda",
    ),
    (
        802,
        "CUDA_ERROR_SYSTEM_NOT_READY",
        "the system is not ready for CUDA (on NVSwitch systems: is the fabric manager running?)",
    ),
    (
        46,
        "CUDA_ERROR_DEVICE_UNAVAILABLE",
        "the CUDA devices are unavailable (busy in exclusive-process mode, or prohibited)",
    ),
];

/// Why `code` (a `CUresult`'s number, from `cuInit` or `cuDeviceGetCount`)
/// means there is no usable driver or device here; `None` for any other code,
/// which is a real failure.
pub fn no_usable_driver(code: u32) -> Option<&'static str> {
    NO_USABLE_DRIVER.iter().find(|(c, _, _)| *c == code).map(|(_, _, why)| *why)
}

/// `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED`: with the `dynamic-loading`
/// feature, what every call returns when `libcuda.so.1` cannot be opened.
pub const SHARED_OBJECT_INIT_FAILED: u32 = 303;

/// Why a test cannot run after `cuInit(0)` returned `code`: no usable driver
/// ([`no_usable_driver`]), or, in the dynamic-loading mode, no driver library
/// to open. `None`: a real failure, which fails the test.
pub fn no_driver_for_tests(code: u32) -> Option<&'static str> {
    if code == SHARED_OBJECT_INIT_FAILED {
        return Some("no NVIDIA driver: libcuda.so.1 could not be loaded");
    }
    no_usable_driver(code)
}

/// Why no GPU test can run here, from what `init` (`cuInit(0)`) and then
/// `count` (`cuDeviceGetCount`) return, a `CUresult` whose number `code`
/// gives: no usable driver ([`no_driver_for_tests`]), or no device; `None`
/// where a GPU is there. Panics, naming the call, on any other failure. A
/// crate's tests pass their own libcuda-sys's calls, since this crate cannot
/// depend on it: `no_gpu(|| unsafe { cuInit(0) }, |n| unsafe {
/// cuDeviceGetCount(n) }, |r| r.0)`.
pub fn no_gpu<R: std::fmt::Display>(
    init: impl FnOnce() -> R,
    count: impl FnOnce(&mut i32) -> R,
    code: impl Fn(&R) -> u32,
) -> Option<String> {
    let failed = |call: &str, r: R| {
        let why = no_driver_for_tests(code(&r)).unwrap_or_else(|| panic!("{call} returned {r}"));
        Some(format!("{call} returned {r}: {why}"))
    };
    let r = init();
    if code(&r) != 0 {
        return failed("cuInit(0)", r);
    }
    let mut devices = 0;
    let r = count(&mut devices);
    if code(&r) != 0 {
        return failed("cuDeviceGetCount", r);
    }
    (devices == 0).then(|| "the driver reports no CUDA device".to_owned())
}

/// The memory-pool attributes as NVIDIA documents them: name, value and the
/// first header (`CUDA_VERSION`) that declares it.
pub const POOL_ATTRIBUTES: &[(&str, i64, u32)] = &[
    ("CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES", 1, 11020),
    ("CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC", 2, 11020),
    ("CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES", 3, 11020),
    ("CU_MEMPOOL_ATTR_RELEASE_THRESHOLD", 4, 11020),
    ("CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT", 5, 11020),
    ("CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH", 6, 11020),
    ("CU_MEMPOOL_ATTR_USED_MEM_CURRENT", 7, 11020),
    ("CU_MEMPOOL_ATTR_USED_MEM_HIGH", 8, 11020),
    ("CU_MEMPOOL_ATTR_ALLOCATION_TYPE", 9, 13020),
    ("CU_MEMPOOL_ATTR_EXPORT_HANDLE_TYPES", 10, 13020),
    ("CU_MEMPOOL_ATTR_LOCATION_ID", 11, 13020),
    ("CU_MEMPOOL_ATTR_LOCATION_TYPE", 12, 13020),
    ("CU_MEMPOOL_ATTR_MAX_POOL_SIZE", 13, 13020),
    ("CU_MEMPOOL_ATTR_HW_DECOMPRESS_ENABLED", 14, 13020),
    ("CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID", 15, 13040),
];

/// A fake CUDA driver, in C: it has some functions, lacks others
/// (`cuDeviceGetDefaultMemPool`, `cuMemFree_v2`, which only its
/// `cuGetProcAddress_v2` gives, for `cuMemFree`), says it is CUDA 12.3 (12345),
/// and answers `cuGetProcAddress_v2` for two names at the expected version and
/// stream flag only.
pub const FAKE_DRIVER: &str = r#"
#include <string.h>
typedef unsigned long long u64;
int cuInit(unsigned flags) { (void)flags; return 0; }
int cuDriverGetVersion(int *v) { *v = 12345; return 0; }
/* The legacy plain symbol: must never be reached through the alias. */
int cuMemAlloc(unsigned *p, unsigned size) { (void)p; (void)size; return 999; }
int cuMemAlloc_v2(u64 *p, u64 size) { *p = 0x1000 + size; return 0; }
/* cuMemFree_v2 is not exported: only cuGetProcAddress knows it. */
static int free_via_proc_address(u64 p) { return p == 0x1007 ? 0 : 1; }
int cuCtxSynchronize(void) { return 0; }
/* A newer ABI the driver would hand out for the header's own name. */
static int synchronize_with_context(void *ctx) { (void)ctx; return 709; }
int cuGetProcAddress_v2(const char *symbol, void **pfn, int version, u64 flags, int *status) {
    if (version == LIBCUDA_SYS_EXPECT_VERSION && flags == LIBCUDA_SYS_EXPECT_FLAGS) {
        if (strcmp(symbol, "cuMemFree") == 0) { *pfn = (void *)free_via_proc_address; *status = 0; return 0; }
        if (strcmp(symbol, "cuCtxSynchronize") == 0) { *pfn = (void *)synchronize_with_context; *status = 0; return 0; }
    }
    *pfn = 0; *status = 1; return 500;
}
"#;

/// [`FAKE_DRIVER`] compiled in `dir` as `libcuda.so.1`, for `cuGetProcAddress`
/// asked at `version` with `flags`; its path.
pub fn fake_driver(dir: &std::path::Path, version: u32, flags: u32) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let (version, flags) = (
        format!("-DLIBCUDA_SYS_EXPECT_VERSION={version}"),
        format!("-DLIBCUDA_SYS_EXPECT_FLAGS={flags}"),
    );
    compile_c(FAKE_DRIVER, &dir.join("libcuda.so.1"), &["-shared", "-fPIC", &version, &flags])
}

/// C `source` compiled into `out` by the C compiler (`CC`, with its words, or
/// `cc`), its source written beside it (`out` with `.c` added), `args` after
/// the source (`-shared -fPIC` for a library, `-l` options); `out`. Panics,
/// naming `out`, where the compiler fails.
pub fn compile_c(source: &str, out: &std::path::Path, args: &[&str]) -> std::path::PathBuf {
    // Built from the OS string, not `display()`: a path that is not UTF-8
    // (the non-UTF-8 driver path's test) must stay the path it is.
    let mut c = out.as_os_str().to_owned();
    c.push(".c");
    let c = std::path::PathBuf::from(c);
    std::fs::write(&c, source).unwrap_or_else(|e| panic!("writing {}: {e}", c.display()));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let cmd: Vec<&str> = cc.split_whitespace().collect();
    let status = std::process::Command::new(cmd[0])
        .args(&cmd[1..])
        .arg("-o")
        .arg(out)
        .arg(&c)
        .args(args)
        .status()
        .unwrap();
    assert!(status.success(), "{cc} could not build {}", out.display());
    out.to_path_buf()
}

#[cfg(test)]
mod tests {
    #[test]
    fn skips_are_logged_as_json_lines() {
        let dir = std::env::temp_dir().join(format!("testkit-skip-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("skips.jsonl");
        // The only test of this crate that sets the variable: no other sees it.
        std::env::set_var(super::SKIP_LOG, &log);
        super::skip("no \"GPU\" here\\\n\tat all");
        super::skip_gpu("why");
        std::env::remove_var(super::SKIP_LOG);
        let text = std::fs::read_to_string(&log).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                r#"{"test":"tests::skips_are_logged_as_json_lines","reason":"no \"GPU\" here\\\n\u0009at all"}"#,
                r#"{"test":"tests::skips_are_logged_as_json_lines","reason":"why","gpu":true}"#,
            ]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
