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
