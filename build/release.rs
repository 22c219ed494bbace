//! What a CUDA release is, in one place, for the build script and for xtask:
//! how one is written, and which exist, for the
//! searches that probe each (`/usr/local/cuda-X.Y`, `cuda-X.Y.pc`) and the
//! cumulative `cuda_X_Y` cfgs. The releases this crate has bindings of are
//! `pregenerated/releases.txt`, read through `sections::parse_releases`.

/// `12.8` -> 12080: a major without a leading zero and one digit of minor,
/// so that `13.05` is no way of writing 13.5.
pub fn parse_version(text: &str) -> Option<u32> {
    let (major, minor) = text.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(major) || major.starts_with('0') || !digits(minor) || minor.len() != 1 {
        return None;
    }
    Some(major.parse::<u32>().ok()? * 1000 + minor.parse::<u32>().ok()? * 10)
}

/// `13050` -> `13.5`.
pub fn dotted(number: u32) -> String {
    format!("{}.{}", number / 1000, number % 1000 / 10)
}

/// The releases with the memory-pool API, from 11.2: each major with its last
/// minor. A newer major or minor than these is still read from the headers
/// (`version`); only the searches and the cfgs go no further.
const MAJORS: [(u32, u32); 3] = [(11, 8), (12, 9), (13, 9)];
const FIRST: (u32, u32) = (11, 2);

/// Every release of `MAJORS` from `FIRST`, oldest first, as `(major, minor)`.
pub fn known() -> impl DoubleEndedIterator<Item = (u32, u32)> {
    MAJORS
        .iter()
        .flat_map(|&(major, last)| (0..=last).map(move |minor| (major, minor)))
        .filter(|&r| r >= FIRST)
}
