//! Step 0: where the bindings come from and for which CUDA release, by the
//! rules the crate docs give ("Where the bindings come from", "Choosing a
//! CUDA release").

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
    pub fn conflicts_with(&self, found: CudaVersion) -> bool {
        self.requested.is_some_and(|r| r != found.number)
    }
}

/// The `cuda-XXXXX` feature that is on, if any; two are an error.
pub fn release(pregenerated: &[u32], features: &[(u32, bool)]) -> Result<Release> {
    // A release in `releases.txt` without its feature here (or the reverse)
    // is a crate that was changed in one place only.
    let known: Vec<u32> = features.iter().map(|(n, _)| *n).collect();
    if known != pregenerated {
        return Err(Error::new(
            "the release features do not match pregenerated/releases.txt",
            format!(
                "build.rs knows the features of {known:?}, releases.txt lists {pregenerated:?}.\n\
                 Fix: give every release its `cuda-XXXXX` feature in Cargo.toml and in build.rs (FEATURES)"
            ),
        ));
    }
    let on: Vec<u32> = features.iter().filter(|(_, on)| *on).map(|(n, _)| *n).collect();
    let newest = *pregenerated.last().unwrap_or(&0);
    let feature = |n: &u32| format!("cuda-{n:05}");
    match on.as_slice() {
        [] => Ok(Release { requested: None, newest }),
        [one] => Ok(Release { requested: Some(*one), newest }),
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
        watch: Default::default(),
        release: None,
    }
}

/// The pregenerated release for headers of `found` that are not generated
/// from: their own where it is pregenerated, else the newest older one (a
/// subset of their API). Headers older than every pregenerated release are an
/// error rather than bindings of a newer one. Returns the release and what the
/// warning says of the choice.
pub fn release_of_headers(
    releases: &[u32],
    found: CudaVersion,
    toolkit: &Toolkit,
) -> Result<(u32, String)> {
    let oldest = CudaVersion { number: releases.first().copied().unwrap_or_default() };
    let Some(&number) = releases.iter().rev().find(|&&r| r <= found.number) else {
        return Err(Error::new(
            format!(
                "the headers found ({}) are CUDA {found}, older than every pregenerated release, and cannot be generated from",
                toolkit.source()
            ),
            format!(
                "Without generation (no libclang, the `bindgen` feature off, or LIBCUDA_SYS_BINDINGS=pregenerated)
                 the bindings are the pregenerated ones of the headers' release, or of the newest release
                 older than it. The pregenerated releases start at CUDA {oldest}, so none fits CUDA {found}.

                 Fix one of:
                 - install libclang (apt-get install libclang-dev) to generate the bindings of these headers
                 - name a release to bind: features = [\"cuda-{:05}\"] for CUDA {oldest}, whatever the headers
                 - point {} at headers of CUDA {oldest} or newer, or unset it",
                oldest.number, toolkit.found_by
            ),
        ));
    };
    let bound = CudaVersion { number };
    let note = if number == found.number {
        "the headers' own release".to_string()
    } else {
        format!("the newest pregenerated release not newer than the headers' CUDA {found}")
    };
    crate::env::log(format!("headers of CUDA {found}: pregenerated CUDA {bound}"));
    Ok((number, note))
}

/// Why the pregenerated set is used, and whether the user should hear of it.
pub struct Why {
    pub reason: String,
    /// A fallback the user did not ask for: said in a `cargo::warning`.
    pub warn: bool,
    /// How to have generated bindings instead.
    pub undo: &'static str,
    /// Where what the fallback lacks would appear: a change there re-runs the
    /// build script, so the fallback ends when they do.
    pub watch: crate::watch::Watch,
    /// How the release was chosen from headers that are not generated from
    /// (`mode::release_of_headers`).
    pub release: Option<String>,
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

/// `generator`: whether the build script has bindgen (the `bindgen` feature).
pub fn choose(generator: bool) -> Result<Mode> {
    let requested = env::var("LIBCUDA_SYS_BINDINGS")
        .map(|v| v.to_string_lossy().trim().to_string())
        .filter(|v| !v.is_empty());
    let pregenerated = |reason: &str, undo: &'static str| {
        Mode::Pregenerated(Why {
            reason: reason.to_string(),
            warn: false,
            undo,
            watch: Default::default(),
            release: None,
        })
    };
    match requested.as_deref() {
        Some("generate") if generator => Ok(Mode::Generate),
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
        None if env::docs_rs() => Ok(pregenerated(
            "DOCS_RS is set (a docs.rs build)",
            "unset DOCS_RS",
        )),
        None if !generator => Ok(pregenerated(
            "libcuda-sys was built without its `bindgen` feature",
            "enable libcuda-sys's `bindgen` feature (one of its default features)",
        )),
        None => Ok(Mode::Auto),
    }
}

/// The automatic mode's fallback: `missing` is the error generation would have
/// given, which becomes the reason in the warning. Headers, libclang and
/// `nvcc` installed later end the fallback where they can be watched.
pub fn fallback(missing: &Error, target: &crate::env::Target) -> Why {
    Why {
        reason: missing.summary.clone(),
        warn: true,
        undo: "install them (pip install nvidia-cuda-runtime, or a toolkit) and libclang (apt-get install libclang-dev)",
        watch: crate::watch::fallback(target, crate::discover::python()),
        release: None,
    }
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

/// Where the bindings come from, beside them (`output::Bindings`).
// Without the `bindgen` feature only the pregenerated set exists.
#[cfg_attr(not(feature = "generate"), allow(dead_code))]
pub enum Origin {
    /// From the headers of `toolkit`; `compiler` is the C compiler command
    /// that read them (with the include directory and defines).
    Generated {
        toolkit: Toolkit,
        compiler: Vec<String>,
        /// FNV-1a of the `cuda.h` read, passed on as `DEP_CUDA_CUDA_H_FNV1A64`.
        fingerprint: String,
    },
    /// The pregenerated set; `ignored` is a toolkit that was found or named but
    /// that these bindings do not come from.
    Pregenerated { why: Why, ignored: Option<Toolkit> },
}

impl Origin {
    /// The toolkit the bindings come from, or one found beside pregenerated bindings
    /// (its stub library can still be linked).
    pub fn toolkit(&self) -> Option<&Toolkit> {
        match self {
            Origin::Generated { toolkit, .. } => Some(toolkit),
            Origin::Pregenerated { ignored, .. } => ignored.as_ref(),
        }
    }

    /// The headers these bindings come from, where there are any.
    pub fn headers(&self) -> Option<&Toolkit> {
        match self {
            Origin::Generated { toolkit, .. } => Some(toolkit),
            Origin::Pregenerated { .. } => None,
        }
    }
}
