//! `LIBCUDA_SYS_DRIVER_FLOOR`, whole: reading it, leaving out of the linked
//! bindings what a driver older than it lacks (so that using one is a compile
//! error instead of a program that does not start), its errors, and its
//! warning where it has no effect.

use crate::env::{self, Target};
use crate::model::{Bindings, CudaVersion, Error, Origin, Result};

/// Applies `floor` where the linker resolves every function; with dynamic
/// loading a missing function fails alone, at run time (`write::emit` says so).
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
    let (Some(since), Some(undated)) = (&bindings.since, bindings.undated()) else {
        return Err(unavailable(&where_, floor));
    };
    if !undated.is_empty() {
        return Err(undated_functions(&where_, floor, &undated));
    }
    let newer: Vec<String> = bindings
        .all_functions()
        .filter(|f| since[&f.name] > floor)
        .map(|f| f.name.clone())
        .collect();
    bindings.functions.retain(|f| !newer.contains(&f.name));
    bindings.renames.retain(|r| !newer.contains(&r.target));
    for m in &mut bindings.modules {
        m.functions.retain(|f| !newer.contains(&f.name));
        m.renames.retain(|r| !newer.contains(&r.target));
    }
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
