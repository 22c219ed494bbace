//! `cargo xtask recipe`: the crate docs' recipe for a binding crate ("A
//! binding crate on libcuda-sys", `src/building.rs`) built as the docs print
//! it. Its `build.rs` and `lib.rs` are the section's first two code blocks,
//! read from the docs' own text; they make a fresh crate outside the
//! workspace, a binding crate of NVRTC, with a test of its own ([`TEST`]): a
//! kernel compiled to PTX, and where there is a GPU, loaded and launched
//! through libcuda-sys (elsewhere it says `skipped` and why). NVRTC comes
//! from NVIDIA's pip packages for CUDA 13.0 (`cargo xtask headers lib
//! nvidia-cuda-nvrtc`), fetched where the cache lacks them.
//!
//! The crate is built and tested three ways ([`MODES`]): libcuda-sys
//! generating from that tree's headers (the recipe finds NVRTC beside
//! them), with its pregenerated bindings (`default-features = false`, the
//! tree named by `NVRTC_ROOT`), and with `dynamic-loading`. Each build has
//! no warning (rustc's, from Cargo's JSON messages), and the generated
//! `nvrtc.rs` declares none of `DEP_CUDA_ITEMS`. Where there is no driver, a
//! linked build gets libcuda-sys's stand-in, which `cargo test` finds, as a
//! user's build does.

use std::path::{Path, PathBuf};

use cargo_metadata::diagnostic::DiagnosticLevel;
use cargo_metadata::Message;

use crate::summary::{Outcome, Report};
use crate::{cargo, headers, Result};

/// The heading of the recipe's section, in `src/building.rs`.
const SECTION: &str = "# A binding crate on libcuda-sys";

/// What the test command and `cargo xtask recipe` call the check.
pub const CHECK: &str = "the docs' binding-crate recipe: NVRTC from pip, built three ways";

/// The fresh crate's name, and its library's.
const CRATE: &str = "nvrtc-recipe";

/// How the crate is built: `(mode, the rest of libcuda-sys's dependency
/// line, whether libcuda-sys generates from the tree's headers)`. Where it
/// does not, `NVRTC_ROOT` names the tree.
pub const MODES: [(&str, &str, bool); 3] = [
    ("generated from 13.0's pip headers", "", true),
    ("pregenerated, NVRTC_ROOT", r#", default-features = false, features = ["cuda-13000"]"#, false),
    ("dynamic-loading", r#", features = ["dynamic-loading"]"#, true),
];

pub fn run(args: &[String]) -> Result {
    if !args.is_empty() {
        return Err("usage: cargo xtask recipe".into());
    }
    let mut report = Report::default();
    report.check(CHECK, check);
    report.finish()
}

/// NVRTC of CUDA 13.0 and the headers beside it, from pip.
pub fn nvrtc_root() -> Result<PathBuf> {
    headers::library_root(&[headers::requirement("nvidia-cuda-nvrtc")?])
}

/// The recipe's `build.rs` and `lib.rs`: the first two fenced blocks of its
/// section of `docs` (a module's source), less the `//! ` of each line.
fn recipe(docs: &str) -> Result<(String, String)> {
    let lines: Vec<&str> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .skip_while(|l| *l != SECTION)
        .collect();
    let (mut blocks, mut block): (Vec<String>, Option<String>) = (Vec::new(), None);
    for line in lines.iter().skip(1).take_while(|l| !l.starts_with("# ")) {
        match (&mut block, line.starts_with("```")) {
            (None, true) => block = Some(String::new()),
            (Some(_), true) => blocks.extend(block.take()),
            (Some(text), false) => text.push_str(&format!("{line}\n")),
            (None, false) => {}
        }
    }
    match blocks.as_slice() {
        [build, lib, ..] if build.contains("fn main()") => Ok((build.clone(), lib.clone())),
        _ => Err(format!("src/building.rs: no build.rs and lib.rs blocks under `{SECTION}`")),
    }
}

/// The recipe's `build.rs` and `lib.rs`, as `src/building.rs` prints them.
fn recipe_files() -> Result<(String, String)> {
    let docs = std::fs::read_to_string(crate::root().join("src/building.rs"))
        .map_err(|e| format!("src/building.rs: {e}"))?;
    recipe(&docs)
}

/// `cargo test args` of the recipe's crate, written into `dir` with
/// libcuda-sys's `dependency` (the rest of its line); libcuda-sys generates
/// from the NVRTC tree's headers, or where not, `NVRTC_ROOT` names the tree.
fn cargo_test(
    dir: &Path,
    dependency: &str,
    generates: bool,
    args: &[&str],
) -> Result<cargo::Build> {
    let (build_rs, lib_rs) = recipe_files()?;
    write_crate(dir, &build_rs, &lib_rs, dependency)?;
    let nvrtc = nvrtc_root()?;
    let mut cmd = cargo::command(&["test", "--message-format=json", "--manifest-path", CRATE_TOML]);
    // The suites' target directory: with the workspace's lockfile and its
    // bindgen, and under the workspace (its .cargo/config.toml), the crate's
    // dependencies are those compiled already. libcuda-sys's build script
    // runs again where the headers differ from a suite's, as for a user who
    // points it elsewhere.
    cmd.args(args).current_dir(dir).env("CARGO_TARGET_DIR", cargo::checks_target_dir());
    if generates {
        // NVRTC beside the headers it generated from, found through DEP_CUDA_ROOT.
        cmd.env("LIBCUDA_SYS_INCLUDE_DIR", nvrtc.join("include"))
            .env("LIBCUDA_SYS_BINDINGS", "generate")
            .env_remove("NVRTC_ROOT");
    } else {
        cmd.env("NVRTC_ROOT", &nvrtc);
    }
    cargo::build(cmd)
}

/// A new directory for the crate, removed when it is dropped: in the
/// suites' target directory, outside every workspace (the crate's manifest
/// says `[workspace]`) but under this one's `.cargo/config.toml`.
fn scratch() -> Result<tempfile::TempDir> {
    let target = cargo::checks_target_dir();
    std::fs::create_dir_all(&target).map_err(|e| format!("{}: {e}", target.display()))?;
    let dir = tempfile::Builder::new().prefix("libcuda-sys-recipe.").tempdir_in(&target);
    dir.map_err(|e| format!("a temporary directory: {e}"))
}

/// The test binary of the recipe's crate, built as [`check`] builds it
/// (libcuda-sys generating from 13.0's pip headers) with libcuda-sys's
/// `features`: for the GPU bundle, where NVRTC is the toolkit's.
pub fn test_binary(features: &[&str]) -> Result<PathBuf> {
    let scratch = scratch()?;
    let dependency = match features {
        [] => String::new(),
        f => format!(", features = {f:?}"),
    };
    let build = cargo_test(scratch.path(), &dependency, true, &["--no-run"])?;
    if !build.success {
        return Err(format!("the recipe's crate:\n{}", build.failure()));
    }
    let found = cargo::executables(build.messages(), true).find(|(a, _)| a.target.name == "nvrtc");
    Ok(found.ok_or("the recipe's crate built no test binary `nvrtc`")?.1.into())
}

/// Builds and tests the recipe's crate in each of [`MODES`].
pub fn check() -> Outcome {
    let scratch = scratch()?;
    let dir = scratch.path();
    let mut saw = Vec::new();
    for (mode, dependency, generates) in MODES {
        let build = cargo_test(dir, dependency, generates, &["--", "--nocapture"])?;
        let warnings: Vec<&str> = build
            .messages()
            .filter_map(|m| match m {
                Message::CompilerMessage(c) if c.message.level == DiagnosticLevel::Warning => {
                    Some(c.message.rendered.as_deref().unwrap_or(&c.message.message))
                }
                _ => None,
            })
            .collect();
        if !build.success {
            return Err(format!("{mode}:\n{}", build.failure()).into());
        }
        if !warnings.is_empty() {
            return Err(
                format!("{mode}: {} warnings\n{}", warnings.len(), warnings.join("\n")).into()
            );
        }
        let pregenerated = build.messages().any(|m| {
            matches!(m, Message::BuildScriptExecuted(s)
                if s.cfgs.iter().any(|c| c == "libcuda_sys_pregenerated"))
        });
        if pregenerated == generates {
            return Err(
                format!("{mode}: libcuda-sys's bindings pregenerated: {pregenerated}").into()
            );
        }
        let (declared, cuda, again) = declared_again(&build, dir)?;
        if !again.is_empty() {
            return Err(format!("{mode}: nvrtc.rs declares cuda.h's items again: {again:?}").into());
        }
        // What the test said: the PTX, and the launch or why it skipped.
        let said: Vec<&str> = build
            .stderr
            .lines()
            .filter(|l| ["nvrtc: ", "launched: ", "skipped: "].iter().any(|p| l.starts_with(p)))
            .collect();
        saw.push(format!(
            "{mode}: 0 warnings; nvrtc.rs declares {declared} items, 0 of DEP_CUDA_ITEMS's {cuda}; {}",
            said.join("; ")
        ));
    }
    Ok(saw.join("\n         "))
}

/// The fresh crate's manifest, in its directory.
const CRATE_TOML: &str = "Cargo.toml";

/// The fresh crate in `dir`: the recipe's files as printed, [`TEST`], and a
/// manifest with libcuda-sys by path (`dependency` the rest of its line)
/// and the workspace's bindgen, whose lockfile it starts from.
fn write_crate(dir: &Path, build_rs: &str, lib_rs: &str, dependency: &str) -> Result {
    let root = crate::root();
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| e.to_string())?;
    let bindgen = lock
        .split("[[package]]")
        .find_map(|p| p.strip_prefix("\nname = \"bindgen\"\nversion = \""))
        .and_then(|v| v.split('"').next())
        .ok_or("Cargo.lock has no bindgen")?;
    let manifest = format!(
        "[package]\nname = \"{CRATE}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\nlibcuda-sys = {{ path = {root:?}{dependency} }}\n\n\
         [build-dependencies]\n\
         bindgen = {{ version = \"{bindgen}\", default-features = false, features = [\"runtime\"] }}\n\n\
         [dev-dependencies]\ntestkit = {{ path = {:?} }}\n\n[workspace]\n",
        root.join("testkit"),
    );
    if !dir.join("Cargo.lock").exists() {
        std::fs::write(dir.join("Cargo.lock"), lock).map_err(|e| e.to_string())?;
    }
    for (name, text) in [
        (CRATE_TOML, manifest.as_str()),
        ("build.rs", build_rs),
        ("src/lib.rs", lib_rs),
        ("tests/nvrtc.rs", TEST),
    ] {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap_or(dir)).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// How many items the crate's `nvrtc.rs` (in its `OUT_DIR`) declares, how
/// many `DEP_CUDA_ITEMS` (libcuda-sys's `items.txt`) names, and those of the
/// first that the second names; an error where a line there is not a name
/// that `use libcuda_sys::NAME;` could take.
fn declared_again(build: &cargo::Build, dir: &Path) -> Result<(usize, usize, Vec<String>)> {
    let ours = build.messages().find_map(|m| match m {
        Message::BuildScriptExecuted(s) if s.package_id.repr.contains(&*dir.to_string_lossy()) => {
            Some(s.out_dir.join("nvrtc.rs"))
        }
        _ => None,
    });
    let path = ours.ok_or("no build script of the recipe's crate ran")?;
    let code = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let file = syn::parse_file(&code).map_err(|e| format!("{path}: {e}"))?;
    let items = libcuda_sys_build::make::items::read(file).map_err(|e| format!("{path}: {e}"))?;
    let mut declared = libcuda_sys_build::make::items::names(&items.types);
    declared.extend(items.functions.into_iter().map(|f| f.name));
    if !["nvrtcCompileProgram", "nvrtcGetPTX", "nvrtcProgram"]
        .iter()
        .all(|n| declared.contains(&n.to_string()))
    {
        return Err(format!("{path} lacks NVRTC's functions: {declared:?}"));
    }
    let items = build.out_dir("libcuda-sys")?.join("items.txt");
    let items = std::fs::read_to_string(&items).map_err(|e| format!("{}: {e}", items.display()))?;
    let cuda: Vec<&str> = items.lines().collect();
    if let Some(bad) = cuda.iter().find(|n| syn::parse_str::<syn::Ident>(n).is_err()) {
        return Err(format!("DEP_CUDA_ITEMS has {bad:?}, which is no item's name"));
    }
    let again = declared.iter().filter(|n| cuda.contains(&n.as_str())).cloned().collect();
    Ok((declared.len(), cuda.len(), again))
}

/// The test of the recipe's crate: NVRTC compiles a kernel to PTX, which
/// needs no GPU; with one, libcuda-sys loads and launches it.
const TEST: &str = r#"//! NVRTC, bound by the crate docs' recipe: a kernel compiled to PTX, and on a
//! GPU loaded and launched through libcuda-sys.

use std::ffi::{CStr, c_void};
use std::ptr::{null, null_mut};

use libcuda_sys::*;
use nvrtc_recipe::*;

const KERNEL: &CStr = c"extern \"C\" __global__ void scale(float *x, float a, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}";

fn nvrtc(call: &str, r: nvrtcResult) {
    // SAFETY: NVRTC's messages are static strings.
    let said = unsafe { CStr::from_ptr(nvrtcGetErrorString(r)) };
    assert!(r == nvrtcResult::NVRTC_SUCCESS, "{call}: {} ({said:?})", r.0);
}

fn cu(call: &str, r: CUresult) {
    assert_eq!(r, CUDA_SUCCESS, "{call}: {r}");
}

/// KERNEL's PTX, for the oldest architecture NVRTC 13 compiles for.
fn ptx() -> Vec<u8> {
    let mut program: nvrtcProgram = null_mut();
    // SAFETY: NUL-terminated strings, no headers; each buffer as large as NVRTC said.
    unsafe {
        let r = nvrtcCreateProgram(&mut program, KERNEL.as_ptr(), c"scale.cu".as_ptr(), 0, null(), null());
        nvrtc("nvrtcCreateProgram", r);
        let options = [c"--gpu-architecture=compute_75".as_ptr()];
        if nvrtcCompileProgram(program, 1, options.as_ptr()) != nvrtcResult::NVRTC_SUCCESS {
            let mut size = 0;
            nvrtc("nvrtcGetProgramLogSize", nvrtcGetProgramLogSize(program, &mut size));
            let mut log = vec![0u8; size];
            nvrtc("nvrtcGetProgramLog", nvrtcGetProgramLog(program, log.as_mut_ptr().cast()));
            panic!("nvrtcCompileProgram: {}", String::from_utf8_lossy(&log));
        }
        let mut size = 0;
        nvrtc("nvrtcGetPTXSize", nvrtcGetPTXSize(program, &mut size));
        let mut ptx = vec![0u8; size];
        nvrtc("nvrtcGetPTX", nvrtcGetPTX(program, ptx.as_mut_ptr().cast()));
        nvrtc("nvrtcDestroyProgram", nvrtcDestroyProgram(&mut program));
        ptx
    }
}

#[test]
fn nvrtc_compiles_a_kernel_to_ptx() {
    let ptx = ptx();
    let text = String::from_utf8_lossy(&ptx);
    assert!(text.contains(".entry scale("), "no `.entry scale(` in the PTX:\n{text}");
    eprintln!("nvrtc: {} bytes of PTX, with `.entry scale(`", ptx.len());
}

#[test]
fn the_ptx_runs_on_the_gpu_through_libcuda_sys() {
    // SAFETY: flags by value; `n` is a valid int for the driver to write.
    let no_gpu = testkit::no_gpu(|| unsafe { cuInit(0) }, |n| unsafe { cuDeviceGetCount(n) }, |r| r.0);
    if let Some(reason) = no_gpu {
        return testkit::skip_gpu(&reason);
    }
    const N: u32 = 1000;
    let ptx = ptx();
    let mut x: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let bytes = x.len() * 4;
    // SAFETY: every pointer is to a live local or to device memory of `bytes`,
    // freed after the context has finished with it.
    unsafe {
        let mut device: CUdevice = 0;
        cu("cuDeviceGet", cuDeviceGet(&mut device, 0));
        let mut ctx = null_mut();
        cu("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain(&mut ctx, device));
        cu("cuCtxSetCurrent", cuCtxSetCurrent(ctx));
        let mut module = null_mut();
        let r = cuModuleLoadDataEx(&mut module, ptx.as_ptr().cast(), 0, null_mut(), null_mut());
        cu("cuModuleLoadDataEx", r);
        let mut function = null_mut();
        cu("cuModuleGetFunction", cuModuleGetFunction(&mut function, module, c"scale".as_ptr()));
        let mut on_device: CUdeviceptr = 0;
        cu("cuMemAlloc", cuMemAlloc(&mut on_device, bytes));
        cu("cuMemcpyHtoD", cuMemcpyHtoD(on_device, x.as_ptr().cast(), bytes));
        let (mut a, mut n) = (3.0f32, N);
        let mut params: [*mut c_void; 3] =
            [(&raw mut on_device).cast(), (&raw mut a).cast(), (&raw mut n).cast()];
        let r = cuLaunchKernel(function, N.div_ceil(256), 1, 1, 256, 1, 1, 0, null_mut(), params.as_mut_ptr(), null_mut());
        cu("cuLaunchKernel", r);
        cu("cuCtxSynchronize", cuCtxSynchronize());
        cu("cuMemcpyDtoH", cuMemcpyDtoH(x.as_mut_ptr().cast(), on_device, bytes));
        cu("cuMemFree", cuMemFree(on_device));
        cu("cuModuleUnload", cuModuleUnload(module));
        cu("cuDevicePrimaryCtxRelease", cuDevicePrimaryCtxRelease(device));
    }
    for (i, v) in x.iter().enumerate() {
        assert_eq!(*v, 3.0 * i as f32, "x[{i}]");
    }
    eprintln!("launched: the PTX through libcuda-sys, {N} floats scaled as the CPU scales them");
}
"#;

#[cfg(test)]
mod tests {
    /// The recipe is found in the docs as they are, and only under its heading.
    #[test]
    fn the_recipe_is_the_sections_first_two_blocks() {
        let docs = std::fs::read_to_string(crate::root().join("src/building.rs")).unwrap();
        let (build, lib) = super::recipe(&docs).unwrap();
        assert!(build.contains("NVRTC_ROOT") && build.contains("fn main() {"), "{build}");
        assert!(lib.contains("include!(") && !lib.contains("//!"), "{lib}");
        let elsewhere = "//! # Other\n//!\n//! ```ignore\n//! fn main() {}\n//! ```\n";
        assert!(super::recipe(elsewhere).is_err());
    }
}
