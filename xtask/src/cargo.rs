//! Running Cargo and reading its JSON messages.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Instant, SystemTime};

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

/// The `libcuda-sys-*.crate` file under `dir` (a `cargo package` directory).
pub fn package_file(dir: &std::path::Path) -> Result<PathBuf> {
    fn find(dir: &std::path::Path) -> Option<PathBuf> {
        std::fs::read_dir(dir).ok()?.flatten().find_map(|e| {
            let path = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                find(&path)
            } else {
                (name.starts_with("libcuda-sys-") && name.ends_with(".crate")).then_some(path)
            }
        })
    }
    find(dir).ok_or_else(|| format!("no libcuda-sys-*.crate under {}", dir.display()))
}

/// What one `cargo build --message-format=json` said.
pub struct Build {
    pub success: bool,
    /// `OUT_DIR` of each build script run, by package name.
    pub out_dirs: Vec<(String, PathBuf)>,
    /// `rustc-link-lib` and `rustc-link-search` values of each build script run, by package name.
    pub links: Vec<(String, Vec<String>, Vec<String>)>,
    /// rustc's errors: `(package, error code, message)`.
    pub errors: Vec<(String, String, String)>,
    /// Cargo's human output (errors, build-script warnings).
    pub stderr: String,
    /// Every JSON message, in order.
    pub messages: Vec<serde_json::Value>,
}

impl Build {
    pub fn out_dir(&self, package: &str) -> Result<&PathBuf> {
        self.out_dirs
            .iter()
            .find(|(p, _)| p == package)
            .map(|(_, d)| d)
            .ok_or_else(|| format!("no build script of {package} ran:\n{}", self.stderr))
    }
}

/// Runs `cmd` (a cargo build with `--message-format=json`) and reads its messages.
pub fn build(mut cmd: Command) -> Result<Build> {
    let run = stream(&mut cmd)?;
    let mut out_dirs = Vec::new();
    let mut messages = Vec::new();
    let mut links = Vec::new();
    let mut errors = Vec::new();
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_string))
            .collect()
    };
    for (_, message) in run.messages {
        messages.push(message);
        let message = messages.last().expect("just pushed");
        let package = package_name(message["package_id"].as_str().unwrap_or_default());
        if message["reason"] == "build-script-executed" {
            if let Some(dir) = message["out_dir"].as_str() {
                out_dirs.push((package.clone(), PathBuf::from(dir)));
            }
            links.push((
                package,
                strings(&message["linked_libs"]),
                strings(&message["linked_paths"]),
            ));
        } else if message["reason"] == "compiler-message" && message["message"]["level"] == "error"
        {
            errors.push((
                package,
                message["message"]["code"]["code"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                message["message"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            ));
        }
    }
    Ok(Build {
        success: run.status.success(),
        out_dirs,
        links,
        errors,
        stderr: run.stderr,
        messages,
    })
}

/// The name in a package id: `path+file:///work/main#libcuda-sys@0.1.0` or
/// `registry+https://...#syn@3.0.10`, or `libcuda-sys 0.1.0 (path+...)` (old form).
pub fn package_name(id: &str) -> String {
    if let Some((_, tail)) = id.rsplit_once('#') {
        let name = tail.split('@').next().unwrap_or(tail);
        // `path+file:///x/libcuda-sys#0.1.0`: the name is the last path segment.
        if name.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            let (head, _) = id.rsplit_once('#').unwrap_or((id, ""));
            return head.rsplit('/').next().unwrap_or(head).to_string();
        }
        return name.to_string();
    }
    id.split(' ').next().unwrap_or(id).to_string()
}

/// The version of package `name` in a package id (`registry+...#syn@3.0.10`),
/// if the id is that package's.
pub fn package_version(id: &str, name: &str) -> Option<String> {
    id.split_once(&format!("#{name}@"))
        .map(|(_, v)| v.to_string())
}

/// The `libcuda-sys-<version>.crate` that `cargo package` (or `publish
/// --dry-run`) left under `dir`, unpacked into `into`: the directory a
/// dependent of the published crate gets.
pub fn unpack_package(dir: &std::path::Path, into: &std::path::Path) -> Result<PathBuf> {
    let crate_file = package_file(dir)?;
    std::fs::create_dir_all(into).map_err(|e| format!("{}: {e}", into.display()))?;
    let status = Command::new("tar")
        .arg("xzf")
        .arg(&crate_file)
        .arg("-C")
        .arg(into)
        .status()
        .map_err(|e| format!("tar: {e}"))?;
    if !status.success() {
        return Err(format!("tar could not unpack {}", crate_file.display()));
    }
    let stem = crate_file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(into.join(stem))
}

/// One build's messages, each with the seconds since the build started.
pub struct Timed {
    pub wall: f64,
    pub messages: Vec<(f64, Value)>,
    pub started: SystemTime,
}

/// Runs a cargo build with `--message-format=json`, stamping each message
/// as it arrives; a build that fails is an error.
pub fn timed(mut cmd: Command) -> Result<Timed> {
    cmd.arg("--message-format=json");
    let run = stream(&mut cmd)?;
    if !run.status.success() {
        return Err(format!(
            "{:?} failed ({}):\n{}",
            cmd.get_args().collect::<Vec<_>>(),
            run.status,
            run.stderr
        ));
    }
    Ok(Timed {
        wall: run.wall,
        messages: run.messages,
        started: run.started,
    })
}

/// One cargo command's JSON messages, each with the seconds since it started.
struct Stream {
    status: std::process::ExitStatus,
    wall: f64,
    started: SystemTime,
    messages: Vec<(f64, Value)>,
    stderr: String,
}

fn stream(cmd: &mut Command) -> Result<Stream> {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let started = SystemTime::now();
    let start = Instant::now();
    let mut child = cmd.spawn().map_err(|e| format!("cargo: {e}"))?;
    let mut stderr = child.stderr.take().expect("piped");
    // Read beside stdout, so that neither pipe fills while the other is read.
    let stderr = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut messages = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        let Ok(line) = line else { break };
        let t = start.elapsed().as_secs_f64();
        if let Ok(m) = serde_json::from_str::<Value>(&line) {
            messages.push((t, m));
        }
    }
    let status = child.wait().map_err(|e| format!("cargo: {e}"))?;
    Ok(Stream {
        status,
        wall: start.elapsed().as_secs_f64(),
        started,
        messages,
        stderr: stderr.join().unwrap_or_default(),
    })
}
