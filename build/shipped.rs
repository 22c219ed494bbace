//! The shipped bindings: `pregenerated/cuda-X.Y/`, made by `cargo xtask
//! pregenerate` with this crate's own generator from NVIDIA's pip headers of
//! that version. Declarations, values, names and types only: no documentation.
//!
//! Layout: `version` (the headers' `CUDA_VERSION`); `bindings.rs`,
//! `value_types.rs` and `macro_constants.rs`, the same for both variants; one folder per variant
//! (`default`, `per-thread-default-stream`) with `extern.rs` (the linked
//! functions), `dynamic.rs` (the dynamic-loading wrappers), `renames.rs`,
//! `dynamic_symbols.rs`, `since.rs` and `link_symbols.txt`.

use std::path::Path;

use crate::discover::Toolkit;
use crate::env::{log, Clock, Target};
use crate::error::{Error, Result};
use crate::mode::Why;
use crate::output::{self, Origin, Output};
use crate::version::CudaVersion;

/// The shipped set, relative to the crate's root.
pub const DIR: &str = "pregenerated/cuda-13.5";

pub fn load(
    target: &Target,
    why: Why,
    ignored: Option<Toolkit>,
    clock: &mut Clock,
) -> Result<Output> {
    log(format!("shipped bindings ({DIR}): {}", why.reason));
    let root = target.manifest_dir.join(DIR);
    let variant = root.join(if target.per_thread_default_stream() {
        "per-thread-default-stream"
    } else {
        "default"
    });
    let read = |dir: &Path, name: &str| {
        let path = dir.join(name);
        std::fs::read_to_string(&path).map_err(|e| {
            Error::new(
                format!("the shipped bindings are incomplete: {}", path.display()),
                format!(
                    "{e}\n\nThe crate's {DIR} folder should hold it. A copy of the crate that lacks it\n\
                     is damaged: fetch the crate again, or generate the bindings instead\n\
                     (LIBCUDA_SYS_BINDINGS=generate, with CUDA headers and libclang)."
                ),
            )
        })
    };
    let number = read(&root, "version")?;
    let version = CudaVersion {
        number: number.trim().parse().map_err(|_| {
            Error::new(
                format!(
                    "{DIR}/version is not a CUDA_VERSION number: `{}`",
                    number.trim()
                ),
                "The shipped bindings are damaged: fetch the crate again.",
            )
        })?,
    };
    let functions = if target.dynamic_loading() {
        "dynamic.rs"
    } else {
        "extern.rs"
    };
    let files = vec![
        (output::BINDINGS, read(&root, output::BINDINGS)?),
        (output::VALUE_TYPES, read(&root, output::VALUE_TYPES)?),
        (
            output::MACRO_CONSTANTS,
            read(&root, output::MACRO_CONSTANTS)?,
        ),
        (output::FUNCTIONS, read(&variant, functions)?),
        (output::RENAMES, read(&variant, output::RENAMES)?),
        (output::SYMBOLS, read(&variant, output::SYMBOLS)?),
        (output::LINK_SYMBOLS, read(&variant, output::LINK_SYMBOLS)?),
        (output::SINCE, read(&variant, output::SINCE)?),
    ];
    clock.step("shipped");
    let count = |name: &str, prefix: &str| {
        files
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0, |(_, text)| {
                text.lines().filter(|l| l.starts_with(prefix)).count()
            })
    };
    let renames = count(output::RENAMES, "pub use ");
    let symbols = count(output::LINK_SYMBOLS, "");
    Ok(Output {
        version,
        files,
        functions: symbols - renames,
        renames,
        origin: Origin::Shipped {
            why,
            dir: DIR.to_string(),
            ignored,
        },
    })
}
