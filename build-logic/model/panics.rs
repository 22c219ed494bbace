//! Panics as errors. A panic in the build script's code, or in bindgen,
//! clang-sys or doxygen-bindgen on an input they cannot handle, is a defect or
//! an unsupported input, never a reason for a silent exit: [`install`] (once,
//! before any thread starts; never swapped) prints each panic as one line with
//! its place, even one that then aborts (in a C callback), and [`caught`] turns
//! one on its own thread into the text of an error that says what was being read.

use std::cell::RefCell;

thread_local! {
    /// The last panic of this thread, with its place, for [`caught`].
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The panic hook of the build script's process: one line on stderr (which
/// Cargo shows when the script fails), no backtrace, and the line kept for
/// [`caught`] on the same thread.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let thread = std::thread::current();
        let place = info.location().map(|l| format!("{}:{}", l.file(), l.line()));
        let line = format!(
            "{} (at {}, thread {})",
            text(info.payload()).trim(),
            place.as_deref().unwrap_or("an unknown place"),
            thread.name().unwrap_or("unnamed"),
        );
        eprintln!("libcuda-sys: panic: {line}");
        LAST.with(|last| *last.borrow_mut() = Some(line));
    }));
}

/// `f`'s value, or its panic's message (with its place where [`install`]ed).
pub fn caught<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    LAST.with(|last| last.borrow_mut().take());
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .map_err(|payload| LAST.with(|last| last.borrow_mut().take()).unwrap_or(text(&*payload)))
}

/// A joined thread's [`caught`] value (its join fails only on a panic outside it).
pub fn joined<T>(joined: std::thread::Result<Result<T, String>>) -> Result<T, String> {
    joined.unwrap_or_else(|payload| Err(text(&*payload)))
}

/// A panic's message, as `panic!` leaves it.
fn text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into())
}

/// The error for a panic (`panic`, from [`caught`]) while `doing`.
pub fn error(doing: &str, panic: &str) -> super::Error {
    super::Error::new(
        format!("the build script stopped while {doing}: {}", panic.lines().next().unwrap_or("")),
        format!(
            "{panic}\n\n\
             This is a defect of libcuda-sys or of a crate it uses, not of your setup: please\n\
             report it with this text and the input named above.\n\n\
             Fix until then: build from the pregenerated bindings, LIBCUDA_SYS_BINDINGS=pregenerated."
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic on another thread reports its message and place there, and the
    /// hook stays the one installed while it does.
    #[test]
    fn a_panic_on_any_thread_is_caught_with_its_place() {
        install();
        let on = |name: &str| {
            std::thread::Builder::new()
                .name(name.into())
                .spawn(|| caught(|| -> u8 { panic!("forced") }))
                .unwrap()
                .join()
                .unwrap()
        };
        for name in ["reading the header", "rendering"] {
            let panic = on(name).unwrap_err();
            assert!(panic.starts_with("forced (at "), "{panic}");
            assert!(panic.contains("panics.rs:"), "{panic}");
            assert!(panic.ends_with(&format!("thread {name})")), "{panic}");
        }
        assert_eq!(caught(|| 7), Ok(7));
        let e = error("reading cuda.h", &on("x").unwrap_err());
        assert!(e.summary.starts_with("the build script stopped while reading cuda.h: forced"));
        assert!(e.detail.contains("LIBCUDA_SYS_BINDINGS=pregenerated"));
    }
}
