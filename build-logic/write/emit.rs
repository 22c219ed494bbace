//! Every `cargo::` line, in one place.

use crate::env::Target;
use crate::model::{all_cfgs, cfgs, items_file, Bindings, CudaVersion, Link, LinkKind, Origin};

/// `floor`: `LIBCUDA_SYS_DRIVER_FLOOR`, applied where `link` is some.
pub fn emit(
    target: &Target,
    bindings: &Bindings,
    origin: &Origin,
    link: Option<&Link>,
    floor: Option<u32>,
) {
    if let (Some(f), None) = (floor, link) {
        println!("cargo::warning={}", dynamic_warning(f));
    }
    let floor = floor.filter(|_| link.is_some());
    let headers = origin.headers();
    for w in origin.toolkit().map(|t| t.warnings.as_slice()).unwrap_or_default() {
        println!("cargo::warning={w}");
    }
    if let Some(w) = pregenerated_warning(bindings, origin) {
        println!("cargo::warning={w}");
    }
    if let Some(w) = undated_warning(bindings, origin) {
        println!("cargo::warning={w}");
    }
    // What can change the bindings besides the headers bindgen read (which its
    // callbacks name), or for a fallback where what it lacks would appear.
    let watched = match origin {
        Origin::Generated { watch, .. } => watch.paths.clone(),
        Origin::Pregenerated { why, .. } => why.watch.paths.clone(),
    };
    for dir in watched {
        if let Some(dir) = dir.to_str().filter(|d| !d.contains(['\n', '\r'])) {
            println!("cargo::rerun-if-changed={dir}");
        }
    }

    if let Some(link) = link {
        emit_link(link, &target.out_dir);
    }

    // cfgs for this crate, declared for check-cfg.
    let v = bindings.version;
    let names: Vec<String> = all_cfgs(v).into_iter().map(|(_, n)| n).collect();
    println!("cargo::rustc-check-cfg=cfg({})", names.join(", "));
    for cfg in cfgs(v) {
        println!("cargo::rustc-cfg={cfg}");
    }
    println!("cargo::rustc-check-cfg=cfg(libcuda_sys_pregenerated)");
    if headers.is_none() {
        println!("cargo::rustc-cfg=libcuda_sys_pregenerated");
    }

    // Pregenerated bindings have no headers: the include keys are empty, so that a
    // dependent that compiles C against them fails with its own message rather
    // than against headers the bindings do not come from.
    let include = headers.map(|t| t.include_dir.display().to_string()).unwrap_or_default();
    let root = headers
        .map(|t| t.root.as_ref().unwrap_or(&t.include_dir).display().to_string())
        .unwrap_or_default();
    let includes = headers
        .and_then(|t| std::env::join_paths([&t.include_dir]).ok())
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (found_by, fingerprint) = match origin {
        Origin::Generated { toolkit, fingerprint, .. } => {
            (toolkit.found_by.clone(), fingerprint.clone())
        }
        Origin::Pregenerated { .. } => ("pregenerated".to_string(), String::new()),
    };
    let lib_dir = link.map(|l| l.dir.display().to_string()).unwrap_or_default();

    // Metadata for dependents: DEP_CUDA_<KEY>.
    let items = target.out_dir.join("items.txt").display().to_string();
    let meta = [
        ("root", root),
        ("include", include.clone()),
        ("includes", includes),
        ("lib_dir", lib_dir.clone()),
        ("link_kind", link_kind(target, link).to_string()),
        ("found_by", found_by.clone()),
        ("version", v.number.to_string()),
        ("version_major", v.major().to_string()),
        ("version_minor", v.minor().to_string()),
        ("driver_version", v.number.to_string()),
        ("driver_version_major", v.major().to_string()),
        ("driver_version_minor", v.minor().to_string()),
        ("per_thread_default_stream", target.per_thread_default_stream().to_string()),
        ("bindings_dir", target.out_dir.display().to_string()),
        ("cuda_h_fnv1a64", fingerprint),
        ("driver_floor", floor.map(|f| f.to_string()).unwrap_or_default()),
        ("interop", bindings.modules.iter().map(|m| m.name).collect::<Vec<_>>().join(",")),
        ("items", items),
        // This crate's `cuda_X_Y` cfgs, for a dependent to emit as its own.
        ("cfgs", cfgs(v).join(",")),
        ("check_cfgs", names.join(",")),
    ];
    // DEP_CUDA_ITEMS_GL, ...: each interop module's items, as `items` is cuda.h's.
    let module_items = bindings.modules.iter().map(|m| {
        let path = target.out_dir.join(items_file(m.name)).display().to_string();
        (format!("items_{}", m.name), path)
    });
    let meta = meta.into_iter().map(|(k, v)| (k.to_string(), v)).chain(module_items);
    for (key, value) in meta {
        println!("cargo::metadata={key}={value}");
    }
    crate::env::log(format!(
        "CUDA {}.{} bindings from {} ({found_by}); {} functions, {} plain-name aliases; libcuda: {} ({})",
        v.major(),
        v.minor(),
        if include.is_empty() { "the pregenerated set" } else { &include },
        bindings.functions.len(),
        bindings.renames.len(),
        lib_dir,
        link_kind(target, link)
    ));
}

/// Bound functions no `*Typedefs.h` has a `PFN_` type for, told by the header
/// that should date them (`cudaTypedefs.h` for `cuda.h`'s, `cudaGLTypedefs.h`
/// for the `gl` module's): absent, or of another CUDA release than `cuda.h`
/// (a mixed install). `since()` cannot date them.
fn undated_warning(bindings: &Bindings, origin: &Origin) -> Option<String> {
    let undated = bindings.undated()?;
    let dir = origin.headers().map(|t| t.include_dir.clone());
    let mut by_header: Vec<(&str, Vec<&str>)> = Vec::new();
    for name in undated {
        let module = bindings.modules.iter().find(|m| m.functions.iter().any(|f| f.name == name));
        let header = module.map_or("cudaTypedefs.h", |m| m.typedefs);
        match by_header.iter_mut().find(|(h, _)| *h == header) {
            Some((_, names)) => names.push(name),
            None => by_header.push((header, vec![name])),
        }
    }
    let told: Vec<String> = by_header
        .iter()
        .map(|(header, names)| {
            let first: Vec<&str> = names.iter().take(3).copied().collect();
            let list =
                format!("{}{}", first.join(", "), if names.len() > 3 { ", ..." } else { "" });
            let path =
                dir.as_ref().map_or(header.to_string(), |d| d.join(header).display().to_string());
            let present = dir.as_ref().is_some_and(|d| d.join(header).is_file());
            match present {
                true => format!(
                    "{path} types no ABI for {} bound functions ({list}): it is most likely from \
                     another CUDA release than cuda.h",
                    names.len()
                ),
                false => format!(
                    "{path} is absent, which types the ABI of {} bound functions ({list})",
                    names.len()
                ),
            }
        })
        .collect();
    (!told.is_empty()).then(|| {
        format!(
            "{}; since() knows nothing of those: install the headers from one toolkit or wheel",
            told.join("; ")
        )
    })
}

/// The one line that says the pregenerated bindings are used where the user did not
/// ask for them, or that headers a variable names are not what the bindings
/// come from.
fn pregenerated_warning(bindings: &Bindings, origin: &Origin) -> Option<String> {
    let Origin::Pregenerated { why, ignored } = origin else {
        return None;
    };
    let v = bindings.version;
    let release = why.release.as_ref().map(|r| format!(", {r}")).unwrap_or_default();
    if why.warn {
        // The headers passed over are named here too: their release is what is bound.
        let release = match ignored {
            Some(t) if why.release.is_some() => format!("{release}: {}", t.source()),
            _ => release,
        };
        return Some(format!(
            "using the pregenerated bindings of libcuda-sys (CUDA {v}{release}) because {}; for bindings of your own \
             CUDA headers, {}: {}; LIBCUDA_SYS_BINDINGS=pregenerated silences this, \
             LIBCUDA_SYS_BINDINGS=generate makes it an error",
            why.reason,
            why.undo,
            why.watch.advice()
        ));
    }
    ignored.as_ref().map(|t| {
        format!(
            "{} is not used: {}, so the pregenerated bindings of libcuda-sys (CUDA {v}{release}) are; \
             for bindings of those headers, {}",
            t.source(),
            why.reason,
            why.undo
        )
    })
}

fn emit_link(link: &Link, out_dir: &std::path::Path) {
    println!("cargo::rustc-link-search=native={}", link.dir.display());
    if link.lib == "cuda" {
        println!("cargo::rustc-link-lib=dylib=cuda");
    } else {
        println!("cargo::rustc-link-lib=dylib:+verbatim={}", link.lib);
    }
    match &link.kind {
        LinkKind::Driver | LinkKind::ImportLibrary => {}
        LinkKind::ToolkitStub { why } => println!(
            "cargo::warning=no libcuda (NVIDIA driver) found: linking the CUDA toolkit's stub libcuda where it is ({}), as no stand-in could be built ({why}); programs built here start only where the driver is installed, and call it",
            link.dir.display()
        ),
        LinkKind::GeneratedStub if link.dir.starts_with(out_dir) => println!(
            "cargo::warning=no libcuda (NVIDIA driver) found: linking a stand-in built in OUT_DIR; programs built here call the driver wherever one is installed (under `cargo run` and `cargo test` the stand-in hands every call over to it) and get CUDA_ERROR_STUB_LIBRARY where there is none (set LIBCUDA_SYS_LIB_DIR to link a real one)"
        ),
        LinkKind::GeneratedStub => println!(
            "cargo::warning=LIBCUDA_SYS_LIB_DIR={} holds a stand-in that libcuda-sys built, not the driver: programs built here call the driver wherever one is installed, and get CUDA_ERROR_STUB_LIBRARY where there is none (point LIBCUDA_SYS_LIB_DIR at the driver's directory to link it)",
            link.dir.display()
        ),
    }
}

fn link_kind(target: &Target, link: Option<&Link>) -> &'static str {
    let Some(link) = link else {
        return if target.dynamic_loading() { "dynamic-loading" } else { "none" };
    };
    match link.kind {
        LinkKind::Driver => "driver",
        LinkKind::ToolkitStub { .. } => "toolkit-stub",
        LinkKind::GeneratedStub => "generated-stub",
        LinkKind::ImportLibrary => "import-library",
    }
}

/// What a floor says with `dynamic-loading`, where it changes nothing.
fn dynamic_warning(floor: u32) -> String {
    format!(
        "LIBCUDA_SYS_DRIVER_FLOOR={} has no effect with dynamic-loading: every function is bound, \
         and one the driver lacks fails alone with CUDA_ERROR_NOT_FOUND (libcuda_sys::driver_has asks first)",
        CudaVersion { number: floor }
    )
}
