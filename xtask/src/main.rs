//! Automation of the libcuda-sys workspace, run as `cargo xtask <command>`.
//! Programs talk through data: Cargo's JSON messages, never its human output.

mod abi;
mod bench;
mod bundle;
mod cargo;
mod ci;
mod docs;
/// The report's exit statuses and its JSON error object: the report's own
/// file, so that the two programs cannot differ.
#[path = "../../tools/mempool-report/src/exit.rs"]
#[allow(dead_code)] // the statuses only the report itself ends with
mod exit;

mod fallback;
mod headers;
#[cfg(test)]
mod own_words;
mod pregenerate;
mod recipe;
mod regeneration_key;
pub use libcuda_sys_build::env::{shell_word, shown};
use libcuda_sys_build::model;
mod report;
mod semver;
mod setup;
mod summary;
mod targets;
mod test;

use std::process::ExitCode;

/// `(command, arguments, what it does)`.
const COMMANDS: &[(&str, &str, &str)] = &[
    ("report", "[--json]", "setup, then the memory-pool report (the static table without a GPU); exit status \
      the report's, 3 when setup fails, 64 for an unknown argument"),
    ("test", "", "setup, then every test; the last line is `tests: N passed, N failed, N skipped (N for want of a GPU or driver, N ignored, N for another reason)`; exit status \
      1 when any failed, 3 when setup fails, 64 for an argument"),
    ("setup", "", "install what is missing (libclang-dev, or libclang-common-N-dev where libclang lacks \
      clang's stddef.h, pkg-config; CUDA headers from pip where no toolkit is \
      installed, or XTASK_CUDA_HEADERS's version); exit status 3 when the headers cannot be had"),
    ("headers", "VERSION|curand|lib PACKAGE[==VERSION] ...", "fetch one release's headers (11.7, 11.8, 12.0-12.6, 12.8, 12.9, 13.x, or an exact \
      wheel version) into .cuda-headers/ and print the include directory; `lib`: NVIDIA's library packages \
      (e.g. nvidia-cuda-nvrtc, at 13.0.* unless given a version) with the runtime, crt and cccl headers of 13.0 \
      they include, one tree, its root; `curand`: `lib nvidia-curand==10.4.0.*`, CUDA 13.0's cuRAND"),
    ("ci", "", "what CI runs: setup, abi-matrix, cross-abi, fmt, clippy, doc, semver, rust-version, then test"),
    ("semver", "", "setup, then cargo-semver-checks (installed where missing): the public API, default features and \
      cuda-13000, against the last release's (semver-baseline in Cargo.toml)"),
    ("rust-version", "", "setup, then fresh dependents built by the toolchain of libcuda-sys's rust-version \
      (rustup installs it): the default mode, generating from CUDA 13.0's headers, and default-features = false \
      with dynamic-loading"),
    ("pregenerate", "[--check]", "regenerate the pregenerated set (pregenerated/); --check compares instead"),
    ("abi-matrix", "[VERSION ...]", "systest's checks of the pregenerated set of every release and of generated bindings"),
    ("cross-abi", "[--target T ...] [VERSION ...]", "the ABI check for aarch64 Linux and Windows (MinGW)"),
    ("fallback-tests", "[part of a check's name]", "builds without headers or libclang, docs.rs, the package, errors that stay errors"),
    ("recipe", "", "the crate docs' binding-crate recipe, as printed, in a fresh NVRTC crate (pip's, fetched): \
      built and tested generating, pregenerated and with dynamic-loading; no warning, no cuda.h item declared again"),
    ("gpu-bundle", "[VERSION [DIR]] [--features F] [--driver-floor V]", "the test binaries and a run.sh for a GPU machine"),
    ("bench-build", "[--rounds N] [--baseline REV] [--write]", "build costs beside cudarc, as fresh dependents"),
    ("bench-calls-bundle", "[VERSION [DIR]]", "the call benchmark and a run.sh for a GPU machine"),
    ("bench-calls", "FILE [--write]", "the call table of a run.sh results file"),
    ("help", "", "this list"),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = args.get(1..).unwrap_or_default();
    let result = match args.first().map(String::as_str) {
        // Arguments first: a typo costs no setup (a pip fetch) and no build.
        Some("report") => report::check(rest)
            .and_then(|()| setup::prepare())
            .and_then(|env| report::run(rest, &env)),
        Some("test") => test::check(rest)
            .and_then(|()| setup::prepare())
            .and_then(|env| test::run(&env.with_curand()).map_err(Error::from)),
        Some("semver") => semver::check(rest)
            .and_then(|()| setup::prepare())
            .and_then(|env| semver::run(&env).map_err(Error::from)),
        Some("rust-version") if !rest.is_empty() => {
            Err(Error::new(exit::EXIT_USAGE, "usage: cargo xtask rust-version".into()))
        }
        Some("rust-version") => {
            setup::prepare().and_then(|_| fallback::rust_version().map_err(Error::from))
        }
        Some("setup") => setup::run(rest),
        Some("headers") => headers::run(rest),
        Some("ci") => ci::run(rest),
        Some("pregenerate") => pregenerate::run(rest).map_err(Error::from),
        Some("abi-matrix") => {
            setup::tools();
            abi::matrix(rest).map_err(Error::from)
        }
        Some("cross-abi") => {
            setup::tools();
            abi::cross(rest).map_err(Error::from)
        }
        Some("fallback-tests") => fallback::run(rest).map_err(Error::from),
        Some("recipe") => {
            test::first_builds();
            recipe::run(rest).map_err(Error::from)
        }
        Some("gpu-bundle") => bundle::gpu(rest).map_err(Error::from),
        Some("bench-build") => bench::build(rest).map_err(Error::from),
        Some("bench-calls-bundle") => bundle::calls(rest).map_err(Error::from),
        Some("bench-calls") => bench::calls(rest).map_err(Error::from),
        Some("help") | None => {
            for (name, args, what) in COMMANDS {
                eprintln!("  {name} {args}\n      {what}");
            }
            Ok(())
        }
        Some(other) => {
            Err(format!("unknown command `{other}`; cargo xtask help lists them").into())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error { status, message }) => {
            if let Some(message) = message {
                eprintln!("xtask: {message}");
            }
            ExitCode::from(status)
        }
    }
}

/// Why a command failed, and xtask's exit status for it.
#[derive(Debug)]
pub struct Error {
    status: u8,
    /// `None` where the failing program said why itself.
    message: Option<String>,
}

impl Error {
    pub fn new(status: u8, message: String) -> Error {
        Error { status, message: Some(message) }
    }

    pub fn quiet(status: u8) -> Error {
        Error { status, message: None }
    }
}

impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::new(1, message)
    }
}

pub type Result<T = ()> = std::result::Result<T, String>;

/// Runs `cmd` with its output shown; an error that names it where it fails.
pub fn run(mut cmd: std::process::Command) -> Result {
    let shown = shown(&cmd);
    eprintln!("+ {shown}");
    match cmd.status() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(format!("`{shown}` failed ({status})")),
        Err(e) => Err(format!("{shown}: {e}")),
    }
}

/// The workspace root (xtask lives one level below it).
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

#[cfg(test)]
mod tests {
    /// A POSIX shell reads each word back as it was.
    #[test]
    fn shell_words_read_back_as_they_were() {
        for word in ["plain/path-1.0", "", "a b", "x'; touch y; '", "$HOME `true` \\ \"\n*", "'"] {
            let line = format!("printf %s {}", super::shell_word(word));
            let out = std::process::Command::new("sh").arg("-c").arg(&line).output().unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stdout), word, "{line}");
        }
        assert_eq!(super::shell_word("plain/path-1.0"), "plain/path-1.0");
    }

    /// The modules `crate::m` names in `text`, a module's source: paths that
    /// start at the crate, and the first segment of each path of a
    /// `crate::{...}` group.
    fn named(text: &str, modules: &[String]) -> Vec<String> {
        let ident = |s: &str| -> String {
            s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
        };
        let mut found = Vec::new();
        for (at, _) in text.match_indices("crate::") {
            let rest = &text[at + "crate::".len()..];
            let Some(group) = rest.strip_prefix('{') else {
                found.push(ident(rest));
                continue;
            };
            let mut depth = 1;
            let mut first = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 1 => break,
                    '}' => depth -= 1,
                    ',' if depth == 1 => first = true,
                    c if first && depth == 1 && !c.is_whitespace() => {
                        found.push(ident(&group[i..]));
                        first = false;
                    }
                    _ => {}
                }
            }
        }
        found.retain(|m| modules.contains(m));
        found.sort();
        found.dedup();
        found
    }

    /// A module that another imports does not import it back, through any
    /// chain: each command's module sits above what it uses. The crate root
    /// declares them all and lends its helpers to all, so it is left out.
    #[test]
    fn modules_import_one_another_one_way() {
        let src = super::root().join("xtask/src");
        let main = std::fs::read_to_string(src.join("main.rs")).unwrap();
        let modules: Vec<String> = main
            .lines()
            .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
            .filter(|m| src.join(format!("{m}.rs")).is_file())
            .map(String::from)
            .collect();
        assert!(modules.len() > 10, "{modules:?}");
        let graph: std::collections::BTreeMap<&str, Vec<String>> = modules
            .iter()
            .map(|m| {
                let text = std::fs::read_to_string(src.join(format!("{m}.rs"))).unwrap();
                let mut uses = named(&text, &modules);
                uses.retain(|u| u != m);
                (m.as_str(), uses)
            })
            .collect();
        fn cycle<'a>(
            m: &'a str,
            graph: &'a std::collections::BTreeMap<&str, Vec<String>>,
            path: &mut Vec<&'a str>,
        ) -> Option<String> {
            if let Some(i) = path.iter().position(|p| *p == m) {
                return Some([&path[i..], &[m]].concat().join(" -> "));
            }
            path.push(m);
            let found = graph[m].iter().find_map(|n| cycle(n, graph, path));
            path.pop();
            found
        }
        for m in graph.keys() {
            assert_eq!(cycle(m, &graph, &mut Vec::new()), None, "{graph:?}");
        }
        assert!(graph["test"].contains(&"fallback".to_string()), "{graph:?}");
    }
}
