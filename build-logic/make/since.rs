//! Which driver each bound function needs. `cudaTypedefs.h`, beside `cuda.h`,
//! declares one `PFN_<name>_v<version>` typedef per ABI variant of every
//! driver function (`PFN_cuCtxSynchronize_v2000` for `(void)`,
//! `PFN_cuCtxSynchronize_v13000` for `(CUcontext)`; `_ptsz`/`_ptds` for the
//! per-thread default stream); the version is the CUDA release that introduced
//! that ABI. A bound symbol `name[_vK][_ptsz|_ptds]` is the K-th ABI of `name`
//! (the plain symbol the first), so it takes the K-th of its variants in
//! version order; a variant whose parameter count differs from the binding's
//! is refused rather than guessed.

use std::collections::BTreeMap;

use crate::model::Error;

/// `PFN_` variants by `(plain name, suffix)`: `(version, parameter count)`.
pub type Variants = BTreeMap<(String, String), Vec<(u32, usize)>>;

/// The `PFN_` variants of the header set in `include_dir`, or `None` where it
/// has no `cudaTypedefs.h`. `typedefs`: more files of `PFN_` types beside it
/// (an interop module's `cudaGLTypedefs.h`). Apart from [`matched`], which
/// needs the bindings, so that it can run while bindgen does.
pub fn read(include_dir: &std::path::Path, typedefs: &[&str]) -> Result<Option<Variants>, Error> {
    // Absent is a header set without the table; present but unreadable is an error.
    let read = |name: &str| {
        let path = include_dir.join(name);
        // A stray Latin-1 byte in a comment is no reason to fail: the typedefs are ASCII.
        match std::fs::read(&path) {
            Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::new(
                format!("cannot read {}: {e}", path.display()),
                format!(
                    "{} says which driver each function needs; it is there but cannot be read ({e}).\n\n\
                     Fix: make it readable to the user that builds (chmod a+r), or use another include directory",
                    path.display()
                ),
            )),
        }
    };
    let Some(text) = read("cudaTypedefs.h")? else {
        crate::env::log(format!(
            "{} is absent: which driver each function needs is unavailable",
            include_dir.join("cudaTypedefs.h").display()
        ));
        return Ok(None);
    };
    // The profiler's functions are typed apart, in the same form.
    let mut text = text + &read("cudaProfilerTypedefs.h")?.unwrap_or_default();
    // The interop modules' functions are typed apart too, each in its own file.
    for name in typedefs {
        text += &read(name)?.unwrap_or_default();
    }
    Ok(Some(variants(&text)))
}

/// `(bound function, version)` of every function of `items` matched to one
/// of the `variants` ([`read`]); `None` without them.
pub fn matched(
    variants: Option<&Variants>,
    items: &crate::make::items::Items,
) -> Option<BTreeMap<String, u32>> {
    let variants = variants?;
    let mut versions = BTreeMap::new();
    let mut unmatched = Vec::new();
    for f in &items.functions {
        match version_of(&f.name, f.item.sig.inputs.len(), variants) {
            Some(v) => {
                versions.insert(f.name.clone(), v);
            }
            None => unmatched.push(f.name.as_str()),
        }
    }
    if !unmatched.is_empty() {
        crate::env::log(format!(
            "no PFN_ variant in cudaTypedefs.h for {} bound functions: {}",
            unmatched.len(),
            unmatched.join(", ")
        ));
    }
    Some(versions)
}

fn variants(text: &str) -> Variants {
    let mut out: Variants = BTreeMap::new();
    // Some 12.x headers type a function only as `PFN_name` and give its version
    // in `#define PFN_name PFN_name_v12040`: the count comes from the former.
    let mut unversioned: BTreeMap<String, usize> = BTreeMap::new();
    let mut defined: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.trim().strip_prefix("#define PFN_") {
            if let Some((name, target)) = rest.split_once(' ') {
                if let Some(target) = target.trim().strip_prefix("PFN_") {
                    defined.push((name.to_string(), target.to_string()));
                }
            }
            continue;
        }
        let Some(rest) = line.split("(CUDAAPI *PFN_").nth(1) else {
            continue;
        };
        let Some((name, params)) = rest.split_once(")(") else {
            continue;
        };
        let params = params.split(");").next().unwrap_or_default().trim();
        let count =
            if params.is_empty() || params == "void" { 0 } else { params.split(',').count() };
        match versioned(name) {
            Some((key, version)) => out.entry(key).or_default().push((version, count)),
            None => {
                unversioned.insert(name.to_string(), count);
            }
        }
    }
    for (name, target) in defined {
        let (Some(count), Some((key, version))) = (unversioned.get(&name), versioned(&target))
        else {
            continue;
        };
        let list = out.entry(key).or_default();
        if !list.iter().any(|(v, _)| *v == version) {
            list.push((version, *count));
        }
    }
    for list in out.values_mut() {
        list.sort_unstable();
    }
    out
}

/// `cuMemAlloc_v3020` -> ((`cuMemAlloc`, ``), 3020); `None` without a version.
fn versioned(name: &str) -> Option<((String, String), u32)> {
    let (base, suffix) = split_suffix(name);
    let (plain, version) = base.rsplit_once("_v")?;
    let version = version.parse::<u32>().ok().filter(|v| *v >= 1000)?;
    Some(((plain.to_string(), suffix.to_string()), version))
}

/// `cuMemcpyHtoD_v2_ptds` -> (`cuMemcpyHtoD_v2`, `_ptds`).
fn split_suffix(name: &str) -> (&str, &str) {
    for suffix in ["_ptsz", "_ptds"] {
        if let Some(base) = name.strip_suffix(suffix) {
            return (base, suffix);
        }
    }
    (name, "")
}

fn version_of(symbol: &str, params: usize, variants: &Variants) -> Option<u32> {
    let (base, suffix) = split_suffix(symbol);
    // `name_vK` is the K-th ABI; a plain name the first.
    let (plain, k) = match base.rsplit_once("_v") {
        Some((plain, k)) if k.parse::<usize>().is_ok_and(|k| k >= 2) => {
            (plain, k.parse::<usize>().ok()?)
        }
        _ => (base, 1),
    };
    let list = variants.get(&(plain.to_string(), suffix.to_string()))?;
    // Per-thread variants exist for the newest ABI only.
    let chosen = if list.len() == 1 { list[0] } else { *list.get(k - 1)? };
    (chosen.1 == params).then_some(chosen.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str, suffix: &str) -> (String, String) {
        (name.to_string(), suffix.to_string())
    }

    #[test]
    fn a_version_is_a_suffix_of_four_digits_or_more() {
        assert_eq!(versioned("cuMemAlloc_v3020"), Some((key("cuMemAlloc", ""), 3020)));
        assert_eq!(versioned("cuMemcpy_v3020_ptds"), Some((key("cuMemcpy", "_ptds"), 3020)));
        // `_v2` names an ABI, not a release.
        assert_eq!(versioned("cuMemAlloc_v2"), None);
        assert_eq!(split_suffix("cuMemcpyHtoD_v2_ptsz"), ("cuMemcpyHtoD_v2", "_ptsz"));
    }

    #[test]
    fn each_abi_of_a_function_has_the_release_of_its_typedef() {
        let text = "typedef CUresult (CUDAAPI *PFN_cuMemAlloc_v3020)(CUdeviceptr_v2 *dptr, size_t bytesize);\n\
                    typedef CUresult (CUDAAPI *PFN_cuMemAlloc_v2000)(CUdeviceptr_v1 *dptr, unsigned int bytesize);\n\
                    typedef CUresult (CUDAAPI *PFN_cuFoo)(void);\n\
                    #define PFN_cuFoo PFN_cuFoo_v12040\n";
        let variants = variants(text);
        assert_eq!(variants[&key("cuMemAlloc", "")], [(2000, 2), (3020, 2)]);
        assert_eq!(variants[&key("cuFoo", "")], [(12040, 0)]);
        // The K-th ABI is `name_vK`, the first the plain name; the count of parameters must agree.
        assert_eq!(version_of("cuMemAlloc", 2, &variants), Some(2000));
        assert_eq!(version_of("cuMemAlloc_v2", 2, &variants), Some(3020));
        assert_eq!(version_of("cuMemAlloc_v2", 3, &variants), None);
        assert_eq!(version_of("cuFoo", 0, &variants), Some(12040));
    }
}
