//! CUDA headers of one version from NVIDIA's pip wheels, cached in `.cuda-headers/`.

use std::path::PathBuf;
use std::process::Command;

use crate::Result;

/// The include directory holding `cuda.h` of `version` (`13.5` or an exact
/// wheel version such as `13.5.37`), fetched on first use.
pub fn include_dir(version: &str) -> Result<PathBuf> {
    let script = crate::root().join("scripts/cuda-headers");
    let out = Command::new(&script)
        .arg(version)
        .output()
        .map_err(|e| format!("{}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "fetching the CUDA {version} headers failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    if !dir.join("cuda.h").is_file() {
        return Err(format!("{} has no cuda.h", dir.display()));
    }
    Ok(dir)
}
