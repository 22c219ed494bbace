//! The one error type of the build script: a one-line summary (shown as a
//! `cargo:warning`) and the long text that says what was tried and how to fix it.

use std::fmt;

#[derive(Debug)]
pub struct Error {
    pub summary: String,
    pub detail: String,
}

impl Error {
    pub fn new(summary: impl Into<String>, detail: impl Into<String>) -> Self {
        Error { summary: summary.into(), detail: detail.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "libcuda-sys: {}", self.summary)?;
        if !self.detail.is_empty() {
            writeln!(f)?;
            write!(f, "{}", self.detail.trim_end())?;
        }
        Ok(())
    }
}

pub type Result<T> = std::result::Result<T, Error>;
