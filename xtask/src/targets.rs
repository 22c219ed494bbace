//! Test targets of libcuda-sys that the suites of `cargo xtask test` and of
//! the fallback checks treat apart: both run suites, neither owns the other.

/// The test target that makes each case's environment itself (variables
/// cleared, fake toolkit trees, libclang hidden through `LIBCLANG_PATH`) and
/// compiles the script with the features each case names: neither a suite's
/// features nor its sandbox change it, so only the workspace suite runs it
/// (a case that cannot run there says `skipped`, and why).
pub const OWN_ENVIRONMENT: &str = "build_script";

/// The test targets whose checks a feature of the crate does not change:
/// [`OWN_ENVIRONMENT`], and `c_enumerators`, which compares enumerators.
/// The suites of a feature build them but do not run them again.
pub const FEATURE_BLIND: &[&str] = &[OWN_ENVIRONMENT, "c_enumerators"];
