//! `pregenerated/key.txt`: what the committed set was last generated from,
//! and what it then held. A regeneration from the same inputs gives the same
//! bytes (the build script is deterministic), so where the inputs and the
//! files are still those of the key, the test command's check needs no new
//! regeneration of 19 releases; `cargo xtask pregenerate --check` always
//! regenerates. A passed regeneration writes the key.
//!
//! The inputs: the generator's sources (the build script, the build logic
//! with its tables, `xtask`, the manifests and `Cargo.lock`, which pins
//! bindgen and syn), `releases.txt` (which pins each release's pip wheel),
//! and the tools the output depends on (libclang, the C compilers, rustc).

use std::path::{Path, PathBuf};
use std::process::Command;

use libcuda_sys_build::make::header::fingerprint;
use libcuda_sys_build::make::libclang::libclang_version;

use crate::Result;

const KEY: &str = "key.txt";
const HEAD: &str =
    "# What `cargo xtask pregenerate` last generated this set from, and the hash of\n\
# what it wrote (xtask/src/regeneration_key.rs). Written by a regeneration; do not edit.\n";

/// `name hash` lines: every input, then `outputs`.
fn key(set: &Path) -> Result<Vec<(String, String)>> {
    let root = crate::root();
    let mut files = Vec::new();
    for dir in ["build-logic", "xtask/src"] {
        walk(&root.join(dir), &mut files)?;
    }
    for file in [
        "build.rs",
        "wrapper.h",
        "Cargo.toml",
        "Cargo.lock",
        "build-logic/Cargo.toml",
        "xtask/Cargo.toml",
    ] {
        files.push(root.join(file));
    }
    files.push(set.join("releases.txt"));
    files.sort();
    files.dedup();
    let mut sources = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&root).unwrap_or(file).to_string_lossy().into_owned();
        sources.extend(rel.bytes().chain([0]));
        sources.extend(std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?);
        sources.push(0);
    }
    let mut lines = vec![("sources".to_string(), fingerprint(&sources))];
    let first_line = |program: &str, arg: &str| {
        Command::new(program)
            .arg(arg)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8_lossy(&o.stdout).lines().next().map(str::to_string))
            .unwrap_or_else(|| "absent".into())
    };
    let tools = [
        ("libclang", libclang_version().map_err(|e| e.to_string())?),
        ("cc", first_line("cc", "--version")),
        ("mingw", first_line("x86_64-w64-mingw32-gcc", "--version")),
        ("rustc", first_line("rustc", "-V")),
    ];
    lines.extend(tools.map(|(name, version)| (name.to_string(), fingerprint(version.as_bytes()))));
    lines.push(("outputs".into(), outputs(set)?));
    Ok(lines)
}

/// The committed files of the set but the key, names and bytes.
fn outputs(set: &Path) -> Result<String> {
    let mut files = Vec::new();
    walk(set, &mut files)?;
    files.sort();
    let mut all = Vec::new();
    for file in files.iter().filter(|f| f.file_name().is_some_and(|n| n != KEY)) {
        let rel = file.strip_prefix(set).unwrap_or(file).to_string_lossy().into_owned();
        all.extend(rel.bytes().chain([0]));
        all.extend(std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?);
        all.push(0);
    }
    Ok(fingerprint(&all))
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result {
    for entry in std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        match path.is_dir() {
            true => walk(&path, files)?,
            false => files.push(path),
        }
    }
    Ok(())
}

fn text(lines: &[(String, String)]) -> String {
    let body: String = lines.iter().map(|(name, hash)| format!("{name} {hash}\n")).collect();
    format!("{HEAD}{body}")
}

/// `Ok(None)` where the set and its inputs are those of its key; else which
/// of them changed (or that there is no key).
pub fn changed(set: &Path) -> Result<Option<String>> {
    let Ok(committed) = std::fs::read_to_string(set.join(KEY)) else {
        return Ok(Some(format!("{KEY} is absent")));
    };
    let now = key(set)?;
    let differ: Vec<&str> = now
        .iter()
        .filter(|(name, hash)| !committed.lines().any(|l| l == format!("{name} {hash}")))
        .map(|(name, _)| name.as_str())
        .collect();
    Ok((!differ.is_empty()).then(|| format!("changed since its key: {}", differ.join(", "))))
}

/// Writes the key of the set as it is now (after a regeneration that equals it).
pub fn write(set: &Path) -> Result {
    let path = set.join(KEY);
    let text = text(&key(set)?);
    if std::fs::read_to_string(&path).is_ok_and(|t| t == text) {
        return Ok(());
    }
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    /// A set whose files or inputs changed since its key is regenerated:
    /// the key tells an edited file and a missing key, and nothing else.
    #[test]
    fn the_key_tells_an_edited_set_from_an_unchanged_one() {
        let set = tempfile::tempdir().unwrap();
        let releases = crate::root().join(super::super::pregenerate::RELEASES);
        std::fs::copy(releases, set.path().join("releases.txt")).unwrap();
        std::fs::write(set.path().join("types.rs"), "pub type A = u32;\n").unwrap();
        assert_eq!(super::changed(set.path()).unwrap().as_deref(), Some("key.txt is absent"));
        super::write(set.path()).unwrap();
        assert_eq!(super::changed(set.path()).unwrap(), None);
        std::fs::write(set.path().join("types.rs"), "pub type A = u64;\n").unwrap();
        let said = super::changed(set.path()).unwrap();
        assert_eq!(said.as_deref(), Some("changed since its key: outputs"));
    }
}
