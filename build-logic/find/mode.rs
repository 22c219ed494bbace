//! Where the bindings come from and for which CUDA release, by the
//! rules the crate docs give ("Where the bindings come from", "Choosing a
//! CUDA release").
//! The driver floor a user names is read here too, and the release of headers
//! that are not generated from, from their text.

use std::path::Path;

use crate::env::{self, log, Target};
use crate::model::{plausible, CudaVersion, Error, Result, Toolkit, Why};

mod headers;
pub use headers::of_headers;

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
                "Without generation (no libclang, the `bindgen` feature off, or LIBCUDA_SYS_BINDINGS=pregenerated)\n\
                 the bindings are the pregenerated ones of the headers' release, or of the newest release\n\
                 older than it. The pregenerated releases start at CUDA {oldest}, so none fits CUDA {found}.\n\n\
                 Fix one of:\n\
                 - install libclang (apt-get install libclang-dev) to generate the bindings of these headers\n\
                 - name a release to bind: features = [\"cuda-{:05}\"] for CUDA {oldest}, whatever the headers\n\
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

pub enum Mode {
    Generate,
    Pregenerated(Why),
    Auto,
}

impl Mode {
    /// The pregenerated set needs no headers: only variables that were set are checked.
    pub fn searches_everywhere(&self) -> bool {
        !matches!(self, Mode::Pregenerated(_))
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

/// `LIBCUDA_SYS_DRIVER_FLOOR` (`13.0`) as a `CUDA_VERSION` (`13000`): the
/// oldest driver a linked program must start on.
pub fn driver_floor() -> Result<Option<u32>> {
    let Some(value) = env::var("LIBCUDA_SYS_DRIVER_FLOOR").filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let text = value.to_string_lossy().trim().to_string();
    let why = match crate::model::parse_version(&text) {
        Some(floor) if (11000..100_000).contains(&floor) => return Ok(Some(floor)),
        Some(floor) if floor < 11000 => {
            "is older than any driver with the memory-pool API this crate binds (11.x)"
        }
        Some(_) => "is not a CUDA release (their major versions have two digits)",
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
