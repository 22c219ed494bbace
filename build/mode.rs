//! Step 0: where the bindings come from and for which CUDA release, by the
//! rules the crate docs give ("Where the bindings come from", "Choosing a
//! CUDA release"); and the driver floor's value.

use std::path::PathBuf;

use crate::discover::{Scope, Toolkit};
use crate::env;
use crate::error::{Error, Result};
use crate::version::CudaVersion;

/// The CUDA release the bindings are for.
pub struct Release {
    /// The release a `cuda-XXXXX` feature asks for.
    pub requested: Option<u32>,
    /// The newest pregenerated release, which the pregenerated set binds without a feature.
    pub newest: u32,
}

impl Release {
    /// The release the pregenerated set is loaded for.
    pub fn pregenerated(&self) -> u32 {
        self.requested.unwrap_or(self.newest)
    }

    /// Headers of `found` cannot give the bindings of the requested release.
    #[cfg_attr(not(feature = "bindgen"), allow(dead_code))]
    pub fn conflicts_with(&self, found: CudaVersion) -> bool {
        self.requested.is_some_and(|r| r != found.number)
    }
}

/// The `cuda-XXXXX` feature that is on, if any (Cargo sets
/// `CARGO_FEATURE_CUDA_12080` for `cuda-12080`); two are an error.
pub fn release(pregenerated: &[u32]) -> Result<Release> {
    let mut on: Vec<u32> = std::env::vars_os()
        .filter_map(|(k, _)| {
            let number = k.to_str()?.strip_prefix("CARGO_FEATURE_CUDA_")?;
            number.parse().ok()
        })
        .collect();
    on.sort_unstable();
    let newest = *pregenerated.last().unwrap_or(&0);
    let feature = |n: &u32| format!("cuda-{n:05}");
    match on.as_slice() {
        [] => Ok(Release { requested: None, newest }),
        [one] if pregenerated.contains(one) => Ok(Release { requested: Some(*one), newest }),
        [one] => Err(Error::new(
            format!("feature {} names no pregenerated CUDA release", feature(one)),
            format!(
                "The release features are: {}.",
                pregenerated.iter().map(feature).collect::<Vec<_>>().join(", ")
            ),
        )),
        several => {
            let names: Vec<String> = several.iter().map(feature).collect();
            Err(Error::new(
                format!(
                    "libcuda-sys binds one CUDA release, and the features {} are all on",
                    names.join(" and ")
                ),
                format!(
                    "Each `cuda-XXXXX` feature asks for the bindings of one CUDA release; Cargo turns on\n\
                     every feature that any crate of the build asks for, so two crates of this build ask\n\
                     for different releases: {}.\n\n\
                     Fix: find who asks for which with `cargo tree -e features -i libcuda-sys`, and have\n\
                     them agree on one (or have the crate that sets a release leave it to the final binary)",
                    names.join(", ")
                ),
            ))
        }
    }
}

/// The headers found are another release than the feature asks for, and
/// generation was asked for: an error, never bindings of another release.
pub fn release_mismatch(release: &Release, found: CudaVersion, toolkit: &Toolkit) -> Error {
    let requested = release.pregenerated();
    Error::new(
        format!(
            "LIBCUDA_SYS_BINDINGS=generate: the headers found are CUDA {found}, the feature cuda-{requested:05} asks for CUDA {}",
            CudaVersion { number: requested }
        ),
        format!(
            "{}={} holds the cuda.h of CUDA {found}; the `cuda-{requested:05}` feature says the bindings\n\
             must be those of CUDA {}.\n\n\
             Fix one of:\n\
             - point LIBCUDA_SYS_INCLUDE_DIR or CUDA_PATH at headers of CUDA {2}\n\
             - unset LIBCUDA_SYS_BINDINGS: the pregenerated CUDA {2} bindings are then used",
            toolkit.found_by,
            toolkit.include_dir.display(),
            CudaVersion { number: requested }
        ),
    )
}

/// The automatic mode where the headers found are another release than the
/// feature asks for: the pregenerated set of the feature's release, said in a warning.
pub fn other_release(release: &Release, found: CudaVersion, toolkit: &Toolkit) -> Why {
    let requested = release.pregenerated();
    Why {
        reason: format!(
            "the feature cuda-{requested:05} asks for CUDA {} and the headers found ({}) are CUDA {found}",
            CudaVersion { number: requested },
            toolkit.source()
        ),
        warn: true,
        undo: "point LIBCUDA_SYS_INCLUDE_DIR or CUDA_PATH at headers of that release",
        watch: Vec::new(),
    }
}

/// Why the pregenerated set is used, and whether the user should hear of it.
pub struct Why {
    pub reason: String,
    /// A fallback the user did not ask for: said in a `cargo::warning`.
    pub warn: bool,
    /// How to have generated bindings instead.
    pub undo: &'static str,
    /// Directories where what the fallback lacks would appear: a change in
    /// one re-runs the build script, so the fallback ends when they do.
    pub watch: Vec<std::path::PathBuf>,
}

pub enum Mode {
    Generate,
    Pregenerated(Why),
    Auto,
}

impl Mode {
    /// The pregenerated set needs no headers: only variables that were set are checked.
    pub fn searches(&self) -> Scope {
        match self {
            Mode::Pregenerated(_) => Scope::ExplicitOnly,
            Mode::Generate | Mode::Auto => Scope::Everywhere,
        }
    }
}

pub fn choose() -> Result<Mode> {
    let requested = env::var("LIBCUDA_SYS_BINDINGS")
        .map(|v| v.to_string_lossy().trim().to_string())
        .filter(|v| !v.is_empty());
    let pregenerated = |reason: &str, undo: &'static str| {
        Mode::Pregenerated(Why { reason: reason.to_string(), warn: false, undo, watch: Vec::new() })
    };
    match requested.as_deref() {
        Some("generate") if cfg!(feature = "bindgen") => Ok(Mode::Generate),
        Some("generate") => Err(needs_bindgen_feature()),
        Some("pregenerated") => Ok(pregenerated(
            "LIBCUDA_SYS_BINDINGS=pregenerated",
            "unset LIBCUDA_SYS_BINDINGS",
        )),
        Some(other) => Err(Error::new(
            format!("LIBCUDA_SYS_BINDINGS={other} is not a mode"),
            format!(
                "LIBCUDA_SYS_BINDINGS is set to `{other}`. It takes:\n  \
                 generate      the bindings of the CUDA headers found on this machine (bindgen, libclang)\n  \
                 pregenerated  the crate's pregenerated bindings\n\
                 Unset, the build generates where it can and uses the pregenerated bindings otherwise.\n\n\
                 Fix: set one of the two, or unset LIBCUDA_SYS_BINDINGS"
            ),
        )),
        // docs.rs sets DOCS_RS=1; empty (or 0) is unset, as for every variable.
        None if env::var("DOCS_RS").is_some_and(|v| !v.is_empty() && v != "0") => Ok(pregenerated(
            "DOCS_RS is set (a docs.rs build)",
            "unset DOCS_RS",
        )),
        None if !cfg!(feature = "bindgen") => Ok(pregenerated(
            "libcuda-sys was built without its `bindgen` feature",
            "enable libcuda-sys's `bindgen` feature (one of its default features)",
        )),
        None => Ok(Mode::Auto),
    }
}

/// `LIBCUDA_SYS_DRIVER_FLOOR` (`13.0`) as a `CUDA_VERSION` (`13000`): the
/// oldest driver a linked program must start on.
pub fn driver_floor() -> Result<Option<u32>> {
    let Some(value) = env::var("LIBCUDA_SYS_DRIVER_FLOOR").filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let text = value.to_string_lossy().trim().to_string();
    let why = match crate::sections::parse_version(&text) {
        Some(floor) if (11000..100_000).contains(&floor) => return Ok(Some(floor)),
        Some(_) => "is older than any driver with the memory-pool API this crate binds (11.x)",
        None => "is not a CUDA version",
    };
    Err(Error::new(
        format!("LIBCUDA_SYS_DRIVER_FLOOR={text} {why}"),
        "LIBCUDA_SYS_DRIVER_FLOOR names the oldest driver, as the CUDA release it supports:\n\
         major.minor from 11.0 on, the minor one digit (13.0 for driver 580, 12.8, 11.7). Functions\n\
         newer than it are left out of the linked bindings.\n\n\
         Fix: LIBCUDA_SYS_DRIVER_FLOOR=13.0 (or another X.Y), or unset it",
    ))
}

/// The automatic mode's fallback: `missing` is the error generation would have
/// given, which becomes the reason in the warning.
/// Headers, libclang and `nvcc` installed later end the fallback: the
/// directories they would appear in are watched.
pub fn fallback(missing: &Error, target: &crate::env::Target) -> Why {
    let mut watch = crate::discover::watched(target);
    let libclang = [
        target.multiarch_lib_dir().map(PathBuf::from),
        Some(PathBuf::from("/usr/lib64")),
        Some(PathBuf::from("/usr/local/lib")),
        std::env::var_os("LIBCLANG_PATH").map(PathBuf::from),
    ];
    for dir in libclang.into_iter().flatten() {
        if dir.is_absolute() && dir.is_dir() && !watch.contains(&dir) {
            watch.push(dir);
        }
    }
    Why {
        reason: missing.summary.clone(),
        warn: true,
        undo: "install them (pip install nvidia-cuda-runtime, or a toolkit) and libclang (apt-get install libclang-dev)",
        watch,
    }
}

/// Whether bindgen can run: libclang loads.
#[cfg(feature = "bindgen")]
pub fn libclang() -> Result<()> {
    crate::bindings::load_libclang()
}

#[cfg(not(feature = "bindgen"))]
pub fn libclang() -> Result<()> {
    Err(needs_bindgen_feature())
}

pub fn needs_bindgen_feature() -> Error {
    Error::new(
        "LIBCUDA_SYS_BINDINGS=generate needs libcuda-sys's `bindgen` feature",
        "Generating the bindings from the CUDA headers on this machine needs bindgen, which this\n\
         build left out (`default-features = false` without the `bindgen` feature).\n\n\
         Fix one of:\n\
         - enable it: libcuda-sys = { version = \"...\", features = [\"bindgen\"] }\n\
         - use the pregenerated bindings: unset LIBCUDA_SYS_BINDINGS (or set it to pregenerated)",
    )
}
