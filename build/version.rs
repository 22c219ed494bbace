//! Step 2: the header's `CUDA_VERSION`, read through the preprocessor, and the
//! cumulative `cuda_X_Y` cfgs derived from it.

use crate::error::{Error, Result};
use std::path::Path;

use crate::preprocess::Header;

/// Memory pools (`cuMemPool*`, `CUmemPool_attribute`) arrived in 11.2.
pub const MINIMUM: u32 = 11020;

#[derive(Clone, Copy)]
pub struct CudaVersion {
    /// As in the header: `major * 1000 + minor * 10`, e.g. 13000.
    pub number: u32,
}

impl CudaVersion {
    pub fn major(self) -> u32 {
        self.number / 1000
    }
    pub fn minor(self) -> u32 {
        self.number % 1000 / 10
    }
}

impl std::fmt::Display for CudaVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::release::dotted(self.number))
    }
}

/// `CUDA_VERSION` from the preprocessor's macro dump of the header.
pub fn from_macros(header: &Header, macros: &[(String, String)]) -> Result<CudaVersion> {
    let raw = macros
        .iter()
        .find(|(name, _)| name == "CUDA_VERSION")
        .map(|(_, body)| body.as_str())
        .unwrap_or_default();
    let number: u32 = raw.trim().parse().map_err(|_| {
        Error::new(
            format!(
                "{} does not define CUDA_VERSION as a number (got `{raw}`)",
                header.include_dir.join("cuda.h").display()
            ),
            "The header is not the CUDA driver API header, or is damaged.\n\
             Fix: point LIBCUDA_SYS_INCLUDE_DIR or CUDA_PATH at a CUDA toolkit 11.2 or newer.",
        )
    })?;
    Ok(CudaVersion { number })
}

/// `CUDA_VERSION` of the headers in `include_dir` that are not generated from,
/// read from `cuda.h`'s own `#define CUDA_VERSION` line: the pregenerated
/// bindings need no C compiler for the target (a cross build may have none).
pub fn of_headers(include_dir: &Path) -> Result<CudaVersion> {
    let path = include_dir.join("cuda.h");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display()), ""))?;
    let number = text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix('#')?.trim_start().strip_prefix("define")?;
        rest.trim().strip_prefix("CUDA_VERSION")?.trim().parse::<u32>().ok()
    });
    number.map(|number| CudaVersion { number }).ok_or_else(|| {
        Error::new(
            format!("{} does not define CUDA_VERSION as a number", path.display()),
            "The header is not the CUDA driver API header, or is damaged.\n\
             Fix: point LIBCUDA_SYS_INCLUDE_DIR or CUDA_PATH at a CUDA toolkit 11.2 or newer, or unset them.",
        )
    })
}

/// Headers older than the memory-pool API are refused.
pub fn check_minimum(header: &Header, version: CudaVersion) -> Result<()> {
    let number = version.number;
    if number < MINIMUM {
        return Err(Error::new(
            format!(
                "cuda.h in {} is CUDA {}.{} (CUDA_VERSION {number}); libcuda-sys needs 11.2 or newer",
                header.include_dir.display(),
                version.major(),
                version.minor()
            ),
            "The stream-ordered memory pool API (cuMemPool*, cuMemAllocAsync) that this crate binds\n\
             first appeared in CUDA 11.2.\n\n\
             Fix one of:\n\
             - install a newer toolkit, or only its headers: pip install nvidia-cuda-runtime (13.x)\n  \
               or pip install nvidia-cuda-runtime-cu12 (12.x)\n\
             - point CUDA_PATH or LIBCUDA_SYS_INCLUDE_DIR at a newer toolkit\n\
             - use the crate's pregenerated bindings: LIBCUDA_SYS_BINDINGS=pregenerated",
        ));
    }
    Ok(())
}

/// Cumulative cfgs: `cuda_11_2` ... up to and including the header's version.
/// Pure, so dependents can compute the same from `DEP_CUDA_VERSION`.
pub fn cfgs(version: CudaVersion) -> Vec<String> {
    all_cfgs(version).into_iter().filter(|(n, _)| *n <= version.number).map(|(_, c)| c).collect()
}

/// Every cfg name this crate may emit, for `rustc-check-cfg`.
pub fn all_cfgs(version: CudaVersion) -> Vec<(u32, String)> {
    // The known releases; a header newer than them still gets its own cfg and
    // every one below it (each minor of a newer major).
    let mut releases: Vec<(u32, u32)> = crate::release::known().collect();
    let last_known = releases.last().map_or(0, |r| r.0);
    releases.extend((last_known + 1..=version.major()).flat_map(|m| (0..=9).map(move |n| (m, n))));
    let own = (version.major(), version.minor());
    if !releases.contains(&own) {
        releases.push(own);
        releases.sort_unstable();
    }
    releases
        .into_iter()
        .map(|(major, minor)| (major * 1000 + minor * 10, format!("cuda_{major}_{minor}")))
        .filter(|(number, _)| *number >= MINIMUM)
        .collect()
}
