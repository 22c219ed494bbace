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
    let path = header.include_dir.join("cuda.h");
    let number = raw.trim().parse().ok();
    plausible(number, &path)
        .map_err(|e| Error::new(format!("{} (got `{raw}`)", e.summary), e.detail))
}

/// A `CUDA_VERSION` of a release that can exist (major 1 to 99): a damaged
/// header's `4294967295` would otherwise become four million cfgs.
fn plausible(number: Option<u32>, path: &Path) -> Result<CudaVersion> {
    match number {
        Some(number @ 1000..=99_999) => Ok(CudaVersion { number }),
        _ => Err(Error::new(
            format!("{} does not define CUDA_VERSION as a CUDA release", path.display()),
            "CUDA_VERSION is major * 1000 + minor * 10 (13000 for CUDA 13.0).\n\
             The header is not the CUDA driver API header, or is damaged.\n\
             Fix: point LIBCUDA_SYS_INCLUDE_DIR or CUDA_PATH at a CUDA toolkit 11.2 or newer, or unset them.",
        )),
    }
}

/// The lines of C text the compiler reads: comments removed, and the lines
/// of `#if 0` blocks left out (a `#define` there defines nothing).
fn live_lines(text: &str) -> Vec<String> {
    let mut code = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        match (rest.find("/*"), rest.find("//")) {
            (Some(b), l) if l.is_none_or(|l| b < l) => {
                code.push_str(&rest[..b]);
                rest = rest[b + 2..].find("*/").map_or("", |e| &rest[b + 2 + e + 2..]);
                code.push(' ');
            }
            (_, Some(l)) => {
                code.push_str(&rest[..l]);
                rest = rest[l..].find('\n').map_or("", |e| &rest[l + e..]);
            }
            _ => {
                code.push_str(rest);
                rest = "";
            }
        }
    }
    let mut out = Vec::new();
    // Depth of `#if`s inside a `#if 0`, while in one.
    let mut dead: Option<usize> = None;
    for line in code.lines() {
        let directive = line.trim().strip_prefix('#').map(str::trim_start);
        let word = directive.map(|d| d.split_whitespace().next().unwrap_or_default());
        match (dead, word) {
            (None, Some("if")) if directive.is_some_and(|d| d[2..].trim() == "0") => dead = Some(0),
            (None, _) => out.push(line.to_string()),
            (Some(n), Some("if" | "ifdef" | "ifndef")) => dead = Some(n + 1),
            (Some(0), Some("endif" | "else" | "elif")) => dead = None,
            (Some(n), Some("endif")) => dead = Some(n - 1),
            (Some(_), _) => {}
        }
    }
    out
}

/// `CUDA_VERSION` of the headers in `include_dir` that are not generated from,
/// read from `cuda.h`'s own `#define CUDA_VERSION` line: the pregenerated
/// bindings need no C compiler for the target (a cross build may have none).
pub fn of_headers(include_dir: &Path) -> Result<CudaVersion> {
    let path = include_dir.join("cuda.h");
    // The compiler does not care for the encoding of comments, nor does this.
    let bytes = std::fs::read(&path)
        .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display()), ""))?;
    let text = String::from_utf8_lossy(&bytes);
    let number = live_lines(&text).iter().find_map(|l| {
        let rest = l.trim().strip_prefix('#')?.trim_start().strip_prefix("define")?;
        rest.trim().strip_prefix("CUDA_VERSION")?.trim().parse::<u32>().ok()
    });
    plausible(number, &path)
}

/// The release bindgen bound (its `CUDA_VERSION` constant) is the one the
/// preprocessor read: a `-I` or `-include` of other headers in `CC`, `CFLAGS`
/// or `BINDGEN_EXTRA_CLANG_ARGS` gives one of them another `cuda.h`.
pub fn check_same(header: &Header, preprocessor: CudaVersion, bindgen: Option<i128>) -> Result<()> {
    if bindgen == Some(i128::from(preprocessor.number)) {
        return Ok(());
    }
    let bound = match bindgen.and_then(|n| u32::try_from(n).ok()) {
        Some(number) => format!("CUDA {} (CUDA_VERSION {number})", CudaVersion { number }),
        None => "no CUDA_VERSION".into(),
    };
    Err(Error::new(
        format!(
            "the C preprocessor and bindgen read two releases: CUDA {preprocessor} and {bound}"
        ),
        format!(
            "Both read {}, but the C preprocessor (`{}`, with CC and CFLAGS) found CUDA_VERSION\n\
             {} and bindgen (libclang, with BINDGEN_EXTRA_CLANG_ARGS) bound {bound}. A `-I` or\n\
             `-include` of other CUDA headers in one of those variables puts another cuda.h first;\n\
             one build must bind one release, or its plain names, metadata and declarations disagree.\n\n\
             Fix: remove the other headers' -I/-include from CC, CFLAGS and BINDGEN_EXTRA_CLANG_ARGS\n\
             (and their per-target forms), and name the headers with LIBCUDA_SYS_INCLUDE_DIR alone.",
            header.include_dir.join("cuda.h").display(),
            header.compiler_command().join(" "),
            preprocessor.number,
        ),
    ))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_define_in_a_comment_or_an_if_0_block_defines_nothing() {
        let text = "/* #define CUDA_VERSION 11080 */\n// #define CUDA_VERSION 11070\n\
                    #if 0\n#ifdef X\n#define CUDA_VERSION 12020\n#endif\n#define CUDA_VERSION 12010\n#endif\n\
                    #define CUDA_VERSION 13000 /* 13.0 */\n";
        let defines: Vec<String> =
            live_lines(text).into_iter().filter(|l| l.contains("CUDA_VERSION")).collect();
        assert_eq!(defines, ["#define CUDA_VERSION 13000  "]);
    }

    #[test]
    fn only_a_release_number_is_a_version() {
        let path = Path::new("cuda.h");
        assert_eq!(plausible(Some(13000), path).map(|v| v.number).ok(), Some(13000));
        for bad in [Some(4_294_967_295), Some(0), Some(999), Some(100_000), None] {
            assert!(plausible(bad, path).is_err(), "{bad:?}");
        }
    }
}
