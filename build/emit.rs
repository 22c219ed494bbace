//! Step 5: every `cargo::` line, in one place.

use crate::discover::Toolkit;
use crate::link::{Kind, Link};
use crate::version::{self, CudaVersion};

pub struct Summary<'a> {
    pub toolkit: &'a Toolkit,
    pub version: CudaVersion,
    /// `None` in the dynamic-loading mode: nothing is linked.
    pub link: Option<&'a Link>,
    pub renames: usize,
    pub functions: usize,
    pub abi_checks: usize,
    pub per_thread_default_stream: bool,
}

pub fn emit(s: &Summary) {
    let t = s.toolkit;
    for w in &t.warnings {
        println!("cargo::warning={w}");
    }

    if let Some(link) = s.link {
        emit_link(link);
    }

    // cfgs for this crate, declared for check-cfg.
    let names: Vec<String> = version::all_cfgs(s.version)
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    println!("cargo::rustc-check-cfg=cfg({})", names.join(", "));
    for cfg in version::cfgs(s.version) {
        println!("cargo::rustc-cfg={cfg}");
    }
    println!(
        "cargo::rustc-env=LIBCUDA_SYS_CUDA_VERSION={}",
        s.version.number
    );
    println!(
        "cargo::rustc-env=LIBCUDA_SYS_INCLUDE_DIR_USED={}",
        t.include_dir.display()
    );
    println!("cargo::rustc-env=LIBCUDA_SYS_FOUND_BY={}", t.found_by);
    println!(
        "cargo::rustc-env=LIBCUDA_SYS_LINK_KIND={}",
        link_kind(s.link)
    );

    // Metadata for dependents: DEP_CUDA_<KEY>.
    let lib_dir = s
        .link
        .map(|l| l.dir.display().to_string())
        .unwrap_or_default();
    let root = t.root.as_ref().unwrap_or(&t.include_dir);
    let v = s.version;
    let includes = std::env::join_paths([&t.include_dir])
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let meta = [
        ("root", root.display().to_string()),
        ("include", t.include_dir.display().to_string()),
        ("includes", includes),
        ("lib_dir", lib_dir.clone()),
        ("link_kind", link_kind(s.link).to_string()),
        ("found_by", t.found_by.clone()),
        ("version", v.number.to_string()),
        ("version_major", v.major().to_string()),
        ("version_minor", v.minor().to_string()),
        ("driver_version", v.number.to_string()),
        ("driver_version_major", v.major().to_string()),
        ("driver_version_minor", v.minor().to_string()),
        (
            "per_thread_default_stream",
            s.per_thread_default_stream.to_string(),
        ),
    ];
    for (key, value) in meta {
        println!("cargo::metadata={key}={value}");
    }
    crate::env::log(format!(
        "CUDA {}.{} headers from {} ({}); {} functions, {} plain-name aliases, {} ABI checks; libcuda: {} ({})",
        v.major(),
        v.minor(),
        t.include_dir.display(),
        t.found_by,
        s.functions,
        s.renames,
        s.abi_checks,
        lib_dir,
        link_kind(s.link)
    ));
}

fn emit_link(link: &Link) {
    println!("cargo::rustc-link-search=native={}", link.dir.display());
    if link.lib == "cuda" {
        println!("cargo::rustc-link-lib=dylib=cuda");
    } else {
        println!("cargo::rustc-link-lib=dylib:+verbatim={}", link.lib);
    }
    match link.kind {
        Kind::Driver => {}
        Kind::ToolkitStub => println!(
            "cargo::warning=linking the CUDA toolkit's stub libcuda ({}): no driver found; programs built here get CUDA_ERROR_STUB_LIBRARY until run where the NVIDIA driver is installed",
            link.dir.display()
        ),
        Kind::GeneratedStub => println!(
            "cargo::warning=no libcuda (NVIDIA driver) found: linking a stand-in built in OUT_DIR; programs built here get CUDA_ERROR_STUB_LIBRARY and need the driver to run (set LIBCUDA_SYS_LIB_DIR to link a real one)"
        ),
    }
}

fn link_kind(link: Option<&Link>) -> &'static str {
    let Some(link) = link else {
        return "dynamic-loading";
    };
    match link.kind {
        Kind::Driver => "driver",
        Kind::ToolkitStub => "toolkit-stub",
        Kind::GeneratedStub => "generated-stub",
    }
}
