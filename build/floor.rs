//! `LIBCUDA_SYS_DRIVER_FLOOR`, whole: reading it, leaving out of the linked
//! bindings what a driver older than it lacks (so that using one is a compile
//! error instead of a program that does not start), its errors, and its
//! warning where it has no effect.

use crate::env::{self, Target};
use crate::error::{Error, Result};
use crate::mode::Origin;
use crate::output::Bindings;
use crate::version::CudaVersion;

/// `LIBCUDA_SYS_DRIVER_FLOOR` (`13.0`) as a `CUDA_VERSION` (`13000`): the
/// oldest driver a linked program must start on.
pub fn from_env() -> Result<Option<u32>> {
    let Some(value) = env::var("LIBCUDA_SYS_DRIVER_FLOOR").filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let text = value.to_string_lossy().trim().to_string();
    let why = match crate::release::parse_version(&text) {
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

/// Applies `floor` where the linker resolves every function; with dynamic
/// loading a missing function fails alone, at run time ([`dynamic_warning`]).
pub fn apply(
    bindings: &mut Bindings,
    origin: &Origin,
    floor: Option<u32>,
    target: &Target,
) -> Result<()> {
    let Some(floor) = floor.filter(|_| !target.dynamic_loading()) else {
        return Ok(());
    };
    let where_ = match origin.headers() {
        Some(t) => t.include_dir.display().to_string(),
        None => format!("the pregenerated CUDA {} bindings", bindings.version),
    };
    let Some(since) = &bindings.since else {
        return Err(unavailable(&where_, floor));
    };
    let undated: Vec<&str> = bindings
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .filter(|name| !since.contains_key(*name))
        .collect();
    if !undated.is_empty() {
        return Err(undated_functions(&where_, floor, &undated));
    }
    let newer: Vec<String> = bindings
        .functions
        .iter()
        .filter(|f| since[&f.name] > floor)
        .map(|f| f.name.clone())
        .collect();
    bindings.functions.retain(|f| !newer.contains(&f.name));
    bindings.renames.retain(|r| !newer.contains(&r.target));
    for t in &mut bindings.typed {
        t.getters.retain(|f| !newer.contains(f));
        t.setters.retain(|f| !newer.contains(f));
    }
    env::log(format!(
        "driver floor {floor}: {} functions left out: {}",
        newer.len(),
        newer.join(", ")
    ));
    Ok(())
}

/// What a floor says with `dynamic-loading`, where it changes nothing.
pub fn dynamic_warning(floor: u32) -> String {
    format!(
        "LIBCUDA_SYS_DRIVER_FLOOR={} has no effect with dynamic-loading: every function is bound, \
         and one the driver lacks fails alone with CUDA_ERROR_NOT_FOUND (libcuda_sys::driver_has asks first)",
        text(floor)
    )
}

fn text(floor: u32) -> String {
    CudaVersion { number: floor }.to_string()
}

/// A floor where the bindings say nothing of the driver each function needs.
fn unavailable(where_: &str, floor: u32) -> Error {
    Error::new(
        format!("LIBCUDA_SYS_DRIVER_FLOOR={} needs cudaTypedefs.h beside cuda.h", text(floor)),
        format!(
            "{where_} has no cudaTypedefs.h, which says which driver each function needs.\n\n\
             Fix: use a complete toolkit include directory (the pip wheels have it), or unset\n\
             LIBCUDA_SYS_DRIVER_FLOOR"
        ),
    )
}

/// A floor that cannot date some bound functions would keep them, and the
/// program would not start on the driver it names: an error instead.
fn undated_functions(where_: &str, floor: u32, undated: &[&str]) -> Error {
    Error::new(
        format!(
            "LIBCUDA_SYS_DRIVER_FLOOR={}: cudaTypedefs.h does not say which driver {} bound functions need",
            text(floor),
            undated.len()
        ),
        format!(
            "The cudaTypedefs.h of {where_} has no PFN_ variant for these functions of cuda.h, so\n\
             the floor cannot tell whether a {} driver has them: {}.\n\n\
             cuda.h and cudaTypedefs.h are most likely from different CUDA releases (a mixed or\n\
             partial install).\n\n\
             Fix: use a complete include directory of one release (the pip wheels have both files),\n\
             or unset LIBCUDA_SYS_DRIVER_FLOOR",
            text(floor),
            undated.join(", ")
        ),
    )
}
