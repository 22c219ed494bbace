//! Running Cargo and reading what it says: its JSON messages and `cargo
//! metadata`, as cargo_metadata's types.

use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use cargo_metadata::camino::Utf8Path;
use cargo_metadata::diagnostic::DiagnosticLevel;
use cargo_metadata::{Artifact, CompilerMessage, Message, Metadata, MetadataCommand, Package};

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
    match workspace() {
        Ok(metadata) => metadata.target_directory.clone().into(),
        Err(_) => crate::root().join("target"),
    }
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
    /// Cargo's human output (errors, build-script warnings).
    pub stderr: String,
    /// Every message, with the seconds since the command started.
    pub timed: Vec<(f64, Message)>,
    pub wall: f64,
}

impl Build {
    pub fn messages(&self) -> impl Iterator<Item = &Message> {
        self.timed.iter().map(|(_, m)| m)
    }

    /// rustc's errors.
    pub fn errors(&self) -> impl Iterator<Item = &CompilerMessage> {
        self.messages().filter_map(|m| match m {
            Message::CompilerMessage(c) if c.message.level == DiagnosticLevel::Error => Some(c),
            _ => None,
        })
    }

    /// `OUT_DIR` of the build script of `name`, a package of the workspace
    /// (or the checkout as a path dependency, which has the same id).
    pub fn out_dir(&self, name: &str) -> Result<&Path> {
        let id = &package(name)?.id;
        let dir = self.messages().find_map(|m| match m {
            Message::BuildScriptExecuted(s) if s.package_id == *id => Some(s.out_dir.as_std_path()),
            _ => None,
        });
        dir.ok_or_else(|| format!("no build script of {name} ran:\n{}", self.stderr))
    }

    /// rustc's errors as it printed them, then Cargo's own output: with
    /// `--message-format=json` the errors are messages, and stderr says only
    /// that a crate could not be compiled.
    pub fn failure(&self) -> String {
        let rendered = self.errors().filter_map(|e| e.message.rendered.as_deref());
        rendered.chain([self.stderr.as_str()]).collect::<Vec<_>>().join("\n")
    }

    /// Removes the files this build compiled for `packages` (of the
    /// workspace), for builds whose outputs no later build reuses: each
    /// feature set of a matrix is compiled once, and would otherwise stay in
    /// the target directory until the disk is full. Cargo compiles a missing file again; it would not run a build
    /// script again for a missing `OUT_DIR`, so those stay.
    pub fn remove_outputs(&self, packages: &[&str]) {
        let ids: Vec<_> = packages.iter().filter_map(|p| package(p).ok()).map(|p| &p.id).collect();
        for m in self.messages() {
            let Message::CompilerArtifact(a) = m else { continue };
            if ids.contains(&&a.package_id) {
                for file in a.filenames.iter().chain(&a.executable) {
                    let _ = std::fs::remove_file(file);
                }
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
pub fn build_until(mut cmd: Command, enough: impl Fn(&Message) -> bool) -> Result<Build> {
    // A group of its own, to be stopped whole.
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    read_build(cmd, enough)
}

fn read_build(mut cmd: Command, enough: impl Fn(&Message) -> bool) -> Result<Build> {
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
    for m in parse(child.stdout.take().expect("piped")) {
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
    let status = child.wait().map_err(|e| format!("cargo: {e}"))?;
    Ok(Build {
        success: stopped || status.success(),
        stderr: stderr.join().unwrap_or_default(),
        timed,
        wall: start.elapsed().as_secs_f64(),
    })
}

/// Cargo's messages in `out`, a stream of them a line each; lines that are
/// none are left out.
pub fn parse(out: impl Read) -> impl Iterator<Item = Message> {
    let messages = Message::parse_stream(BufReader::new(out)).map_while(|m| m.ok());
    messages.filter(|m| !matches!(m, Message::TextLine(_)))
}

/// The artifacts of `messages` that are executables, with the executable;
/// test harnesses only where `tests`.
pub fn executables<'a>(
    messages: impl IntoIterator<Item = &'a Message>,
    tests: bool,
) -> impl Iterator<Item = (&'a Artifact, &'a Utf8Path)> {
    messages.into_iter().filter_map(move |m| match m {
        Message::CompilerArtifact(a) if !tests || a.profile.test => {
            Some((a, a.executable.as_deref()?))
        }
        _ => None,
    })
}

/// `cargo metadata --no-deps` of the workspace, read once.
pub fn workspace() -> Result<&'static Metadata> {
    static METADATA: std::sync::OnceLock<Result<Metadata>> = std::sync::OnceLock::new();
    let metadata = METADATA.get_or_init(|| {
        let mut cmd = MetadataCommand::new();
        cmd.no_deps().current_dir(crate::root());
        cmd.exec().map_err(|e| format!("cargo metadata: {e}"))
    });
    metadata.as_ref().map_err(Clone::clone)
}

/// The workspace's package `name`.
pub fn package(name: &str) -> Result<&'static Package> {
    let found = workspace()?.packages.iter().find(|p| p.name == name);
    found.ok_or_else(|| format!("cargo metadata lists no {name}"))
}

/// The workspace's package whose id `artifact` carries.
pub fn package_of(artifact: &Artifact) -> Result<&'static Package> {
    let found = workspace()?.packages.iter().find(|p| p.id == artifact.package_id);
    found.ok_or_else(|| format!("{} is of no package of the workspace", artifact.target.name))
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
pub fn messages(mut cmd: Command) -> Result<(bool, Vec<Message>)> {
    let shown = crate::shown(&cmd);
    let mut child = cmd.stdout(Stdio::piped()).spawn().map_err(|e| format!("{shown}: {e}"))?;
    let messages = parse(child.stdout.take().expect("piped")).collect();
    let status = child.wait().map_err(|e| format!("{shown}: {e}"))?;
    Ok((status.success(), messages))
}

#[cfg(test)]
pub mod tests {
    use std::path::Path;

    use serde_json::{json, Value};

    /// A target as Cargo describes one, of the package in `dir`.
    fn target(dir: &str, kind: &str, name: &str) -> Value {
        json!({
            "kind": [kind], "crate_types": ["lib"], "name": name,
            "src_path": format!("{dir}/src/lib.rs"), "edition": "2021",
            "doc": true, "doctest": true, "test": true
        })
    }

    /// A `compiler-artifact` message as Cargo writes it, of the package `id` in `dir`.
    pub fn artifact(
        id: &str,
        dir: &str,
        kind: &str,
        name: &str,
        test: bool,
        exe: Option<&str>,
    ) -> Value {
        json!({
            "reason": "compiler-artifact",
            "package_id": id,
            "manifest_path": format!("{dir}/Cargo.toml"),
            "target": target(dir, kind, name),
            "profile": {
                "opt_level": "0", "debuginfo": 0, "debug_assertions": true,
                "overflow_checks": true, "test": test
            },
            "features": [], "filenames": [], "executable": exe, "fresh": false
        })
    }

    /// A `build-script-executed` message as Cargo writes it.
    pub fn build_script(id: &str, linked_paths: &[&str], out_dir: &str) -> Value {
        json!({
            "reason": "build-script-executed", "package_id": id, "linked_libs": [],
            "linked_paths": linked_paths, "cfgs": [], "env": [], "out_dir": out_dir
        })
    }

    /// A `compiler-message` message: rustc's diagnostic at `level`.
    fn diagnostic(id: &str, level: &str, code: Option<&str>, text: &str) -> Value {
        json!({
            "reason": "compiler-message", "package_id": id, "manifest_path": "/w/Cargo.toml",
            "target": target("/w", "lib", "libcuda_sys"),
            "message": {
                "$message_type": "diagnostic", "message": text, "level": level, "spans": [],
                "children": [], "code": code.map(|c| json!({"code": c, "explanation": null})),
                "rendered": format!("{level}: {text}\n")
            }
        })
    }

    /// A package is known by its id, not its name: the build script of
    /// another package of the same name (a packaged copy, a dependency's)
    /// is not the workspace's.
    #[test]
    fn a_build_reads_the_workspace_packages_messages_by_id() {
        let ours = &super::package("libcuda-sys").unwrap().id.repr;
        let packaged = "path+file:///tmp/p/libcuda-sys-0.1.0#libcuda-sys@0.1.0";
        let messages = [
            build_script(packaged, &[], "/t/build/libcuda-sys-2/out"),
            build_script(ours, &[], "/t/build/libcuda-sys-1/out"),
            diagnostic(ours, "warning", None, "unused import"),
            diagnostic(ours, "error", Some("E0599"), "no associated item"),
        ];
        let mut stream: String = messages.iter().map(|m| format!("{m}\n")).collect();
        stream.push_str("not a message\n");
        let timed = super::parse(stream.as_bytes()).map(|m| (0.0, m)).collect();
        let stderr = "error: could not compile `libcuda-sys`".to_string();
        let build = super::Build { success: false, stderr, timed, wall: 0.0 };
        assert_eq!(build.messages().count(), 4);
        assert_eq!(build.out_dir("libcuda-sys").unwrap(), Path::new("/t/build/libcuda-sys-1/out"));
        assert!(build.out_dir("systest").unwrap_err().starts_with("no build script of systest"));
        let errors: Vec<_> = build.errors().map(|e| e.message.message.as_str()).collect();
        assert_eq!(errors, ["no associated item"]);
        assert_eq!(
            build.failure(),
            "error: no associated item\n\nerror: could not compile `libcuda-sys`"
        );
    }
}
