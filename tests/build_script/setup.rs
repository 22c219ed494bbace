//! What the cases stand on: the target, the headers this crate was built
//! with, what this machine lacks (said as `skipped`), and the build script
//! compiled with each case's features.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{LazyLock, Mutex};

/// The target (and host) the build script is told about: the one these tests
/// were compiled for, so the build script behaves as in a native build.
#[cfg(target_arch = "x86_64")]
pub const TARGET: &str = "x86_64-unknown-linux-gnu";
#[cfg(target_arch = "aarch64")]
pub const TARGET: &str = "aarch64-unknown-linux-gnu";

/// The toolkit's `targets/<dir>` name for [`TARGET`] (conda keeps headers there).
#[cfg(target_arch = "x86_64")]
pub const TOOLKIT_TARGET_DIR: &str = "x86_64-linux";
#[cfg(target_arch = "aarch64")]
pub const TOOLKIT_TARGET_DIR: &str = "sbsa-linux";

/// The headers this crate itself was built with: every successful case links a
/// fake toolkit's `include` to them.
pub static REAL_INCLUDE: LazyLock<String> = LazyLock::new(|| {
    // The build script's recorded output for this build (`OUT_DIR/../output`),
    // its `DEP_CUDA_INCLUDE` (empty for the pregenerated bindings).
    let output = Path::new(env!("OUT_DIR")).with_file_name("output");
    let text = fs::read_to_string(&output).unwrap_or_else(|e| panic!("{}: {e}", output.display()));
    text.lines()
        .find_map(|l| l.strip_prefix("cargo::metadata=include="))
        .unwrap_or_default()
        .to_string()
});
/// Their `CUDA_VERSION` (13000 for the 13.0 headers).
pub static REAL_VERSION: LazyLock<String> =
    LazyLock::new(|| libcuda_sys::HEADER_VERSION.to_string());

/// Where this crate was itself built from its pregenerated bindings (no headers or
/// no libclang here), the cases that run bindgen to the end cannot run: says
/// `skipped` and returns true.
pub fn generation_unavailable() -> bool {
    if libcuda_sys::PREGENERATED {
        testkit::skip("libcuda-sys was built from its pregenerated bindings on this machine (no CUDA headers or no libclang): nothing to generate with",
        );
    }
    libcuda_sys::PREGENERATED
}

/// Where the script under test has `dynamic-loading` (as in that feature's
/// suite), it links nothing and applies no floor: cases about either say
/// `skipped` and return true (the default suite runs them).
pub fn linking_untestable() -> bool {
    let dynamic = cfg!(feature = "dynamic-loading");
    if dynamic {
        testkit::skip("the build script of this suite has dynamic-loading, which links nothing");
    }
    dynamic
}

/// The newest release of the pregenerated set (`pregenerated/releases.txt`), which
/// it binds without a release feature, as `CUDA_VERSION`.
pub fn newest_pregenerated() -> u32 {
    let releases =
        libcuda_sys_build::pregenerated::releases_in(Path::new(env!("CARGO_MANIFEST_DIR")));
    releases.unwrap_or_else(|e| panic!("{e}")).last().expect("a release").0
}

/// A file that starts like a shared library (the build script checks the ELF
/// header, not the rest): linking is not what these cases test. For the
/// target's architecture ([`elf_header`] for another).
pub const ELF_STAND_IN: &[u8] = &elf_header(ELF_MACHINE);

/// The ELF header of a 64-bit little-endian shared object for `machine`.
pub const fn elf_header(machine: u16) -> [u8; 20] {
    let m = machine.to_le_bytes();
    [0x7f, b'E', b'L', b'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, m[0], m[1]]
}

/// ELF's `e_machine` of x86-64 and AArch64.
pub const EM_X86_64: u16 = 62;
pub const EM_AARCH64: u16 = 183;
#[cfg(target_arch = "x86_64")]
pub const ELF_MACHINE: u16 = EM_X86_64;
#[cfg(target_arch = "aarch64")]
pub const ELF_MACHINE: u16 = EM_AARCH64;

/// What the C compiler needs on `PATH` (the driver, the assembler, the linker).
pub const COMPILER_TOOLS: [&str; 4] = ["cc", "gcc", "as", "ld"];

/// `X86_64_UNKNOWN_LINUX_GNU_<name>`.
pub fn prefixed(name: &str) -> String {
    libcuda_sys_build::env::target_prefixed(TARGET, name)
}

/// The variables the build script reads first in every run.
pub fn always_read() -> Vec<String> {
    vec![
        prefixed("LIBCUDA_SYS_LIB_DIR"),
        "LIBCUDA_SYS_LIB_DIR".into(),
        prefixed("LIBCUDA_SYS_INCLUDE_DIR"),
        "LIBCUDA_SYS_INCLUDE_DIR".into(),
    ]
}

pub use libcuda_sys_build::find::toolkit::ROOT_VARS;

/// The variables read on the way to bindgen, once a header was found.
pub fn generation_vars() -> Vec<String> {
    vec![
        "LIBCLANG_PATH".into(),
        "BINDGEN_EXTRA_CLANG_ARGS".into(),
        format!("BINDGEN_EXTRA_CLANG_ARGS_{TARGET}"),
    ]
}

/// The features this test was compiled with, which the script under test
/// has too (a release feature of the test build is not passed on: no suite sets one).
pub fn own_features() -> Vec<&'static str> {
    [
        ("bindgen", cfg!(feature = "bindgen")),
        ("dynamic-loading", cfg!(feature = "dynamic-loading")),
        ("per-thread-default-stream", cfg!(feature = "per-thread-default-stream")),
    ]
    .into_iter()
    .filter_map(|(name, on)| on.then_some(name))
    .collect()
}

/// The build script compiled with [`own_features`] and `extra`: it reads its
/// features from how it was compiled, so a case that needs another feature
/// needs another binary. Cargo builds each once, in a target directory of its
/// own, and names it in its JSON messages. `cargo test` holds the lock of the
/// suite's target directory while the tests run; a runner that does not (`cargo
/// xtask test`) names that directory in `LIBCUDA_SYS_TEST_SCRIPTS_TARGET_DIR`,
/// whose dependencies then serve the scripts too.
pub fn build_script(extra: &[String]) -> PathBuf {
    static SCRIPTS: LazyLock<Mutex<BTreeMap<Vec<String>, PathBuf>>> =
        LazyLock::new(Default::default);
    let mut features: Vec<String> = own_features().into_iter().map(String::from).collect();
    features.extend_from_slice(extra);
    features.sort_unstable();
    features.dedup();
    let mut scripts = SCRIPTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(script) = scripts.get(&features) {
        return script.clone();
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "build",
            "--offline",
            "--locked",
            "--message-format=json-render-diagnostics",
            "-p",
            "libcuda-sys",
        ])
        .args(["--no-default-features", "--features", &features.join(",")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CARGO_TARGET_DIR", scripts_target_dir())
        // Only the compiled script is wanted: its run stops at once.
        .env("LIBCUDA_SYS_BINDINGS", "compile-only")
        .output()
        .expect("run cargo");
    let script = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["kind"][0] == "custom-build")
        .filter(|m| m["package_id"].as_str().is_some_and(|id| id.contains("libcuda-sys")))
        .find_map(|m| Some(PathBuf::from(m["filenames"][0].as_str()?)))
        .unwrap_or_else(|| {
            panic!(
                "cargo built no build script for features {features:?}:\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    scripts.insert(features, script.clone());
    script
}

fn scripts_target_dir() -> PathBuf {
    std::env::var_os("LIBCUDA_SYS_TEST_SCRIPTS_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("build-scripts"))
}

/// `name` on this process's own `PATH`.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// The real interpreter behind `python3` (not a pyenv or asdf shim, which would
/// need its own setup on `PATH`).
pub fn python3() -> Option<PathBuf> {
    let out =
        Command::new("python3").args(["-c", "import sys; print(sys.executable)"]).output().ok()?;
    let exe = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    (out.status.success() && exe.is_file()).then_some(exe)
}

/// A copy of `from` (a file, or a directory and all under it), readable by every user.
pub fn copy_tree(from: &Path, to: &Path) {
    if !from.is_dir() {
        fs::copy(from, to).unwrap();
        fs::set_permissions(to, fs::Permissions::from_mode(0o644)).unwrap();
        return;
    }
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap().flatten() {
        copy_tree(&entry.path(), &to.join(entry.file_name()));
    }
}
