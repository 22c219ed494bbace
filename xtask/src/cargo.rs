//! Running Cargo and reading its JSON messages.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use serde_json::Value;

use crate::Result;

/// A `cargo` command in the workspace root, without the variables that would
/// let this machine's toolkit or an earlier mode leak into a build.
pub fn command(args: &[&str]) -> Command {
    let mut cmd = in_root(args);
    for var in [
        "LIBCUDA_SYS_BINDINGS",
        "LIBCUDA_SYS_INCLUDE_DIR",
        "LIBCUDA_SYS_LIB_DIR",
        "CUDA_PATH",
        "CUDA_HOME",
        "CUDA_ROOT",
        "CUDA_TOOLKIT_ROOT_DIR",
        "DOCS_RS",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// A `cargo` command in the workspace root, in this process's environment.
pub fn in_root(args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(crate::root()).args(args);
    cmd
}

/// What one cargo command with `--message-format=json` said.
pub struct Build {
    pub success: bool,
    /// rustc's errors: `(package, error code, message)`.
    pub errors: Vec<(String, String, String)>,
    /// Cargo's human output (errors, build-script warnings).
    pub stderr: String,
    /// Every JSON message, with the seconds since the command started.
    pub timed: Vec<(f64, Value)>,
    pub messages: Vec<Value>,
    pub wall: f64,
}

impl Build {
    /// `OUT_DIR` of `package`'s build script.
    pub fn out_dir(&self, package: &str) -> Result<&Path> {
        self.messages
            .iter()
            .filter(|m| m["reason"] == "build-script-executed")
            .filter(|m| package_name(m["package_id"].as_str().unwrap_or_default()) == package)
            .find_map(|m| m["out_dir"].as_str().map(Path::new))
            .ok_or_else(|| format!("no build script of {package} ran:\n{}", self.stderr))
    }
}

/// Runs `cmd` (a cargo command with `--message-format=json`), reading its
/// messages as they arrive.
pub fn build(mut cmd: Command) -> Result<Build> {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|e| format!("cargo: {e}"))?;
    let mut stderr = child.stderr.take().expect("piped");
    // Read beside stdout, so that neither pipe fills while the other is read.
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut timed = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        let Ok(line) = line else { break };
        if let Ok(m) = serde_json::from_str::<Value>(&line) {
            timed.push((start.elapsed().as_secs_f64(), m));
        }
    }
    let status = child.wait().map_err(|e| format!("cargo: {e}"))?;
    let messages: Vec<Value> = timed.iter().map(|(_, m)| m.clone()).collect();
    let errors = messages
        .iter()
        .filter(|m| m["reason"] == "compiler-message" && m["message"]["level"] == "error")
        .map(|m| {
            let field = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (
                package_name(m["package_id"].as_str().unwrap_or_default()),
                field(&m["message"]["code"]["code"]),
                field(&m["message"]["message"]),
            )
        })
        .collect();
    Ok(Build {
        success: status.success(),
        errors,
        stderr: stderr.join().unwrap_or_default(),
        timed,
        messages,
        wall: start.elapsed().as_secs_f64(),
    })
}

/// The name in a package id: `path+file:///work/main#libcuda-sys@0.1.0`,
/// `registry+https://...#syn@3.0.10`, or `path+file:///x/libcuda-sys#0.1.0`.
pub fn package_name(id: &str) -> String {
    let Some((head, tail)) = id.rsplit_once('#') else {
        return id.split(' ').next().unwrap_or(id).to_string();
    };
    let name = tail.split('@').next().unwrap_or(tail);
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        return head.rsplit('/').next().unwrap_or(head).to_string();
    }
    name.to_string()
}

/// `package`'s entry in `cargo metadata --no-deps`.
pub fn package_metadata(package: &str) -> Result<Value> {
    let out = command(&["metadata", "--no-deps", "--format-version", "1"])
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    let metadata: Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))?;
    metadata["packages"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == package))
        .cloned()
        .ok_or_else(|| format!("cargo metadata lists no {package}"))
}

/// The `libcuda-sys-*.crate` under `dir` (a `cargo package` directory).
pub fn package_file(dir: &Path) -> Result<PathBuf> {
    fn find(dir: &Path) -> Option<PathBuf> {
        std::fs::read_dir(dir).ok()?.flatten().find_map(|e| {
            let (path, name) = (e.path(), e.file_name().to_string_lossy().into_owned());
            if path.is_dir() {
                find(&path)
            } else {
                (name.starts_with("libcuda-sys-") && name.ends_with(".crate")).then_some(path)
            }
        })
    }
    find(dir).ok_or_else(|| format!("no libcuda-sys-*.crate under {}", dir.display()))
}

/// The package under `dir` unpacked into `into`: the directory a dependent
/// of the published crate gets.
pub fn unpack_package(dir: &Path, into: &Path) -> Result<PathBuf> {
    let crate_file = package_file(dir)?;
    std::fs::create_dir_all(into).map_err(|e| format!("{}: {e}", into.display()))?;
    let mut tar = Command::new("tar");
    tar.arg("xzf").arg(&crate_file).arg("-C").arg(into);
    crate::run(tar)?;
    let stem = crate_file.file_stem().unwrap_or_default().to_string_lossy().into_owned();
    Ok(into.join(stem))
}
