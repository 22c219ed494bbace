//! The target's C compiler as the build script found it (through cc), and
//! its runs: the preprocessor, a syntax check, with or without the user's flags.

use super::*;

/// A C compiler as the `cc` crate selects it for the target, with the user's
/// `CC`/`CFLAGS`: a wrapper (`ccache`) or the compiler, its arguments and
/// environment. The build script makes it, as it links `cc` and this crate
/// does not (so that this crate compiles beside `cc`, not after it).
#[derive(Clone)]
pub struct Compiler {
    /// The program run: the compiler, or the wrapper in front of it.
    pub program: std::ffi::OsString,
    pub args: Vec<std::ffi::OsString>,
    pub env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    /// The compiler itself, for messages.
    pub path: PathBuf,
    /// MSVC's `cl`, which reads no source from stdin.
    pub msvc: bool,
    /// The words of `args` that CFLAGS and its per-target forms added.
    pub user_flags: Vec<std::ffi::OsString>,
}

impl Compiler {
    /// `cmd`: the command cc's `Tool::to_command` gives; `path`: `Tool::path`.
    pub fn from_command(cmd: &std::process::Command, path: &Path, msvc: bool) -> Compiler {
        Compiler {
            program: cmd.get_program().to_owned(),
            args: cmd.get_args().map(ToOwned::to_owned).collect(),
            env: cmd.get_envs().filter_map(|(k, v)| Some((k.to_owned(), v?.to_owned()))).collect(),
            path: path.to_owned(),
            msvc,
            user_flags: Vec::new(),
        }
    }

    /// `with_user`'s arguments are this compiler's and the user's CFLAGS,
    /// as cc adds them (`Build::try_flags_from_environment`): the words it
    /// has beyond this one's are theirs, whose place in [`Self::args`] is
    /// the last of each.
    pub fn with_user_flags(mut self, with_user: &std::process::Command) -> Compiler {
        let mut mine = self.args.clone();
        for word in with_user.get_args() {
            match mine.iter().position(|m| m == word) {
                Some(at) => drop(mine.remove(at)),
                None => self.user_flags.push(word.to_owned()),
            }
        }
        self
    }

    /// This compiler without the user's CFLAGS: C's natural layouts on the
    /// target, which libcuda was built with, whatever those flags change.
    pub fn natural(&self) -> Compiler {
        let mut args = self.args.clone();
        for word in self.user_flags.iter().rev() {
            if let Some(at) = args.iter().rposition(|a| a == word) {
                args.remove(at);
            }
        }
        Compiler { args, user_flags: Vec::new(), ..self.clone() }
    }

    pub(crate) fn to_command(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(&self.program);
        cmd.args(&self.args).envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }

    /// The C preprocessor's output for `source`, with `flags` (`-dM`) before
    /// `-E`. `Err` where the program cannot be run at all ([`no_compiler`]);
    /// the inner `Err` where it ran and failed: the command without its
    /// environment (a CI's secrets stay out of the log), its status and its
    /// diagnostics. The source goes through stdin: the build writes nothing but
    /// what the crate includes (MSVC's `cl` reads no stdin: a file in
    /// `out_dir` there).
    pub fn preprocess(
        &self,
        source: &str,
        flags: &[&str],
        out_dir: &Path,
    ) -> Result<std::result::Result<String, String>> {
        self.run(source, flags, "-E", out_dir)
    }

    /// Compiles `source` without writing anything (`-fsyntax-only`, MSVC's
    /// `/Zs`): its diagnostics where it fails, as [`Self::preprocess`].
    pub fn check_syntax(
        &self,
        source: &str,
        out_dir: &Path,
    ) -> Result<std::result::Result<String, String>> {
        self.run(source, &[], if self.msvc { "/Zs" } else { "-fsyntax-only" }, out_dir)
    }

    /// The compiler on `source` with `flags` and the step `step` (`-E`).
    fn run(
        &self,
        source: &str,
        flags: &[&str],
        step: &str,
        out_dir: &Path,
    ) -> Result<std::result::Result<String, String>> {
        // Run by hand rather than through cc's `expand`, which drops the
        // compiler's diagnostics (the missing include, the line) on failure.
        let mut cmd = self.to_command();
        cmd.args(flags).arg(step);
        let stdin = if self.msvc {
            let file = out_dir.join("libcuda_sys_preprocess.c");
            std::fs::write(&file, source).map_err(|e| write_error(&file, e))?;
            cmd.arg(&file);
            None
        } else {
            cmd.args(["-x", "c", "-"]);
            Some(source)
        };
        // The program that did not run: a wrapper (`CC="ccache gcc"`) or the compiler.
        let program = cmd.get_program().to_string_lossy().into_owned();
        let cannot_run = |e: std::io::Error| no_compiler(&program, &e.to_string());
        let out = match stdin {
            None => cmd.output().map_err(cannot_run)?,
            Some(source) => {
                use std::io::Write;
                use std::process::Stdio;
                let mut child = cmd
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .map_err(cannot_run)?;
                // A compiler that exits without reading (CC=true) closes the pipe: its status says why.
                let _ = child.stdin.take().map(|mut i| i.write_all(source.as_bytes()));
                child.wait_with_output().map_err(cannot_run)?
            }
        };
        if !out.status.success() {
            return Ok(Err(format!(
                "{} failed ({}):\n{}",
                shown(&cmd),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim_end()
            )));
        }
        Ok(Ok(String::from_utf8_lossy(&out.stdout).into_owned()))
    }
}
