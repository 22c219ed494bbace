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
    without_toolkit(&mut cmd);
    cmd
}

/// `cmd` without the variables that name this machine's toolkit or a mode.
pub fn without_toolkit(cmd: &mut Command) {
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
}

/// The target directory of the fallback checks and of the regeneration of the
/// pregenerated set: the suites' own (`cargo metadata`'s), so that what they
/// compiled, the dependencies and the build scripts' nested builds
/// (`CARGO_TARGET_TMPDIR`), is compiled once for all of them.
pub fn checks_target_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let metadata = workspace_metadata().unwrap_or_default();
        let dir = metadata["target_directory"].as_str().map(PathBuf::from);
        dir.unwrap_or_else(|| crate::root().join("target"))
    });
    dir.clone()
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

    /// rustc's errors as it printed them, then Cargo's own output: with
    /// `--message-format=json` the errors are messages, and stderr says only
    /// that a crate could not be compiled.
    pub fn failure(&self) -> String {
        let rendered = self
            .messages
            .iter()
            .filter(|m| m["reason"] == "compiler-message" && m["message"]["level"] == "error")
            .filter_map(|m| m["message"]["rendered"].as_str());
        rendered.chain([self.stderr.as_str()]).collect::<Vec<_>>().join("\n")
    }

    /// Removes the files this build compiled for `packages`, for builds whose
    /// outputs no later build reuses: each feature set of a matrix is compiled
    /// once, and would otherwise stay in the target directory until the disk
    /// is full. Cargo compiles a missing file again; it would not run a build
    /// script again for a missing `OUT_DIR`, so those stay.
    pub fn remove_outputs(&self, packages: &[&str]) {
        let ours = |m: &&Value| {
            packages.contains(&package_name(m["package_id"].as_str().unwrap_or_default()).as_str())
        };
        for m in self.messages.iter().filter(ours) {
            let files = m["filenames"].as_array().into_iter().flatten().chain([&m["executable"]]);
            for file in files.filter_map(Value::as_str) {
                let _ = std::fs::remove_file(file);
            }
        }
    }
}

/// Runs `cmd` (a cargo command with `--message-format=json`), reading its
/// messages as they arrive.
pub fn build(cmd: Command) -> Result<Build> {
    read_build(cmd, |_| false)
}

/// [`build`], stopped (with every process it started) at the first message
/// `enough` accepts, as a success: for a build whose outputs up to that
/// message are all that is wanted.
pub fn build_until(mut cmd: Command, enough: impl Fn(&Value) -> bool) -> Result<Build> {
    // A group of its own, to be stopped whole.
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    read_build(cmd, enough)
}

fn read_build(mut cmd: Command, enough: impl Fn(&Value) -> bool) -> Result<Build> {
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
    let mut stopped = false;
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        let Ok(line) = line else { break };
        if let Ok(m) = serde_json::from_str::<Value>(&line) {
            stopped = enough(&m);
            timed.push((start.elapsed().as_secs_f64(), m));
            if stopped {
                // The group: cargo and the rustc it runs. A unit stopped
                // half-way has no fingerprint, so a later build redoes it.
                let group = format!("-{}", child.id());
                let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
                break;
            }
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
        success: stopped || status.success(),
        errors,
        stderr: stderr.join().unwrap_or_default(),
        timed,
        messages,
        wall: start.elapsed().as_secs_f64(),
    })
}

/// The name in a package id: `path+file:///work/main#libcuda-sys@0.1.0`,
/// `registry+https://...#syn@3.0.10`, or `path+file:///x/libcuda-sys#0.1.0`.
/// An executable a build made (a `compiler-artifact` message with one).
pub struct Executable {
    pub package: String,
    /// The target's kind (`lib`, `test`, `bin`, ...) and name.
    pub kind: String,
    pub name: String,
    pub path: PathBuf,
    /// The directory of its package's manifest.
    pub package_dir: Option<PathBuf>,
}

/// The executables of `messages`; test harnesses only where `tests`.
pub fn executables(messages: &[Value], tests: bool) -> Vec<Executable> {
    messages
        .iter()
        .filter(|m| m["reason"] == "compiler-artifact" && (!tests || m["profile"]["test"] == true))
        .filter_map(|m| {
            Some(Executable {
                package: package_name(m["package_id"].as_str()?),
                kind: m["target"]["kind"][0].as_str().unwrap_or("?").to_string(),
                name: m["target"]["name"].as_str()?.to_string(),
                path: PathBuf::from(m["executable"].as_str()?),
                package_dir: m["manifest_path"]
                    .as_str()
                    .and_then(|p| Path::new(p).parent())
                    .map(Path::to_path_buf),
            })
        })
        .collect()
}

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

/// `cargo metadata --no-deps`.
fn workspace_metadata() -> Result<Value> {
    let out = command(&["metadata", "--no-deps", "--format-version", "1"])
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata: {e}"))
}

/// `package`'s entry in `cargo metadata --no-deps`.
pub fn package_metadata(package: &str) -> Result<Value> {
    workspace_metadata()?["packages"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == package))
        .cloned()
        .ok_or_else(|| format!("cargo metadata lists no {package}"))
}

/// The packages published together, the build logic first: `cargo package`
/// and `cargo publish` are given both, as libcuda-sys depends on the other.
pub const PUBLISHED: [&str; 2] = ["libcuda-sys-build", "libcuda-sys"];

/// `cargo <verb> -p libcuda-sys-build -p libcuda-sys <args>` in `source`, a
/// checkout of the workspace (one from before the build logic had its own
/// crate packages libcuda-sys alone).
pub fn published(source: &Path, verb: &str, args: &[&str]) -> Command {
    let mut cmd = command(&[verb]);
    if ["build-logic", "build"].iter().any(|d| source.join(d).join("Cargo.toml").is_file()) {
        cmd.args(["-p", PUBLISHED[0]]);
    }
    cmd.args(["-p", PUBLISHED[1]]).args(args).current_dir(source);
    cmd
}

/// `<name>-<version>.crate` under `dir` (a `cargo package` directory).
pub fn package_file(dir: &Path, name: &str) -> Result<PathBuf> {
    fn find(dir: &Path, name: &str) -> Option<PathBuf> {
        std::fs::read_dir(dir).ok()?.flatten().find_map(|e| {
            let path = e.path();
            if path.is_dir() {
                return find(&path, name);
            }
            let file = e.file_name().to_string_lossy().into_owned();
            let version = file.strip_prefix(name)?.strip_prefix('-')?.strip_suffix(".crate")?;
            version.starts_with(|c: char| c.is_ascii_digit()).then_some(path)
        })
    }
    find(dir, name).ok_or_else(|| format!("no {name}-*.crate under {}", dir.display()))
}

/// The packages under `dir`, unpacked into `into`: what a dependent of the
/// published crates gets.
pub struct Unpacked {
    /// libcuda-sys's directory.
    pub sys: PathBuf,
    /// libcuda-sys-build's directory (none before it was a crate of its own).
    pub build: Option<PathBuf>,
}

impl Unpacked {
    /// The lines of a dependent's manifest that take libcuda-sys-build from
    /// here rather than from crates.io, until both are published.
    pub fn patch(&self) -> String {
        self.build.as_ref().map_or(String::new(), |dir| {
            format!(
                "\n[patch.crates-io]\nlibcuda-sys-build = {{ path = {:?} }}\n",
                dir.display().to_string()
            )
        })
    }
}

pub fn unpack_packages(dir: &Path, into: &Path) -> Result<Unpacked> {
    std::fs::create_dir_all(into).map_err(|e| format!("{}: {e}", into.display()))?;
    let unpack = |crate_file: PathBuf| -> Result<PathBuf> {
        let mut tar = Command::new("tar");
        tar.arg("xzf").arg(&crate_file).arg("-C").arg(into);
        crate::run(tar)?;
        let stem = crate_file.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        Ok(into.join(stem))
    };
    let build = package_file(dir, PUBLISHED[0]).ok().map(unpack).transpose()?;
    Ok(Unpacked { sys: unpack(package_file(dir, PUBLISHED[1])?)?, build })
}

/// Runs `cmd` (a cargo command with `--message-format=json-render-diagnostics`),
/// its human output shown as it comes: whether it succeeded, and its JSON messages.
pub fn messages(mut cmd: Command) -> Result<(bool, Vec<Value>)> {
    let shown = crate::shown(&cmd);
    let mut child = cmd.stdout(Stdio::piped()).spawn().map_err(|e| format!("{shown}: {e}"))?;
    let lines = BufReader::new(child.stdout.take().expect("piped")).lines();
    let messages = lines.map_while(|l| l.ok()).filter_map(|l| serde_json::from_str(&l).ok());
    let messages = messages.collect();
    let status = child.wait().map_err(|e| format!("{shown}: {e}"))?;
    Ok((status.success(), messages))
}
