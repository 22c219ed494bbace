//! Step 0: where the bindings come from.
//!
//! `LIBCUDA_SYS_BINDINGS=generate`: from the headers found here, through bindgen,
//! or an error. `LIBCUDA_SYS_BINDINGS=pregenerated`: the shipped set. Unset or
//! empty: generate when headers and libclang are found, else the shipped set with
//! one warning that says why. `DOCS_RS` (docs.rs has no CUDA headers) and a build
//! without the `bindgen` feature take the shipped set without searching. Set but
//! wrong toolkit variables are errors in every mode (see `discover`).

use crate::discover::Scope;
use crate::env;
use crate::error::{Error, Result};

/// Why the shipped set is used, and whether the user should hear of it.
pub struct Why {
    pub reason: String,
    /// A fallback the user did not ask for: said in a `cargo::warning`.
    pub warn: bool,
    /// How to have generated bindings instead.
    pub undo: &'static str,
}

pub enum Mode {
    Generate,
    Shipped(Why),
    Auto,
}

impl Mode {
    /// The shipped set needs no headers: only variables that were set are checked.
    pub fn searches(&self) -> Scope {
        match self {
            Mode::Shipped(_) => Scope::ExplicitOnly,
            Mode::Generate | Mode::Auto => Scope::Everywhere,
        }
    }
}

pub fn choose() -> Result<Mode> {
    let requested = env::var("LIBCUDA_SYS_BINDINGS")
        .map(|v| v.to_string_lossy().trim().to_string())
        .filter(|v| !v.is_empty());
    let shipped = |reason: &str, undo: &'static str| {
        Mode::Shipped(Why {
            reason: reason.to_string(),
            warn: false,
            undo,
        })
    };
    match requested.as_deref() {
        Some("generate") if cfg!(feature = "bindgen") => Ok(Mode::Generate),
        Some("generate") => Err(needs_bindgen_feature()),
        Some("pregenerated") => Ok(shipped(
            "LIBCUDA_SYS_BINDINGS=pregenerated",
            "unset LIBCUDA_SYS_BINDINGS",
        )),
        Some(other) => Err(Error::new(
            format!("LIBCUDA_SYS_BINDINGS={other} is not a mode"),
            format!(
                "LIBCUDA_SYS_BINDINGS is set to `{other}`. It takes:\n  \
                 generate      the bindings of the CUDA headers found on this machine (bindgen, libclang)\n  \
                 pregenerated  the bindings shipped with the crate\n\
                 Unset, the build generates where it can and uses the shipped bindings otherwise.\n\n\
                 Fix: set one of the two, or unset LIBCUDA_SYS_BINDINGS"
            ),
        )),
        None if env::var("DOCS_RS").is_some() => Ok(shipped(
            "DOCS_RS is set (a docs.rs build)",
            "unset DOCS_RS",
        )),
        None if !cfg!(feature = "bindgen") => Ok(shipped(
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
    let parsed = text
        .split_once('.')
        .and_then(|(major, minor)| Some((major.parse::<u32>().ok()?, minor.parse::<u32>().ok()?)))
        .filter(|(major, minor)| (11..=99).contains(major) && *minor <= 9);
    match parsed {
        Some((major, minor)) => Ok(Some(major * 1000 + minor * 10)),
        None => Err(Error::new(
            format!("LIBCUDA_SYS_DRIVER_FLOOR={text} is not a CUDA version"),
            "LIBCUDA_SYS_DRIVER_FLOOR names the oldest driver, as CUDA major.minor (e.g. 13.0 for\n\
             driver 580): functions newer than it are left out of the linked bindings.\n\n\
             Fix: LIBCUDA_SYS_DRIVER_FLOOR=13.0 (or another X.Y), or unset it",
        )),
    }
}

/// The shipped bindings bind every function: a floor needs generated ones.
pub fn floor_needs_generation(floor: u32, why: &Why) -> Error {
    Error::new(
        format!(
            "LIBCUDA_SYS_DRIVER_FLOOR={}.{} needs bindings generated from headers",
            floor / 1000,
            floor % 1000 / 10
        ),
        format!(
            "The build uses the bindings shipped with the crate ({}), which bind every function.\n\n\
             Fix one of:\n\
             - generate them: CUDA headers (with cudaTypedefs.h) and libclang, LIBCUDA_SYS_BINDINGS=generate\n\
             - use the dynamic-loading feature: functions the driver lacks then fail alone, at run time\n\
             - unset LIBCUDA_SYS_DRIVER_FLOOR",
            why.reason
        ),
    )
}

/// The automatic mode's fallback: `missing` is the error generation would have
/// given, which becomes the reason in the warning.
pub fn fallback(missing: &Error) -> Why {
    Why {
        reason: missing.summary.clone(),
        warn: true,
        undo: "install CUDA headers and libclang",
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
         - use the shipped bindings: unset LIBCUDA_SYS_BINDINGS (or set it to pregenerated)",
    )
}
