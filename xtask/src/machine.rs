//! Facts about this machine and tree that benchmark records keep.

use std::process::Command;

/// The first line `program args` printed, when it ran and succeeded.
pub fn first_line(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .map(|l| l.trim().to_string())
}

/// `abc1234`, `+changes` where the tree differs from it.
pub fn commit() -> String {
    let root = crate::root();
    let root = root.to_str().unwrap_or(".");
    let head = first_line("git", &["-C", root, "rev-parse", "--short", "HEAD"])
        .unwrap_or_else(|| "unknown".into());
    let clean = Command::new("git")
        .args(["-C", root, "diff", "--quiet", "HEAD"])
        .status()
        .is_ok_and(|s| s.success());
    if clean {
        head
    } else {
        head + "+changes"
    }
}
