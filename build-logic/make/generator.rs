//! Everything of bindgen's run over `wrapper.h` but the run itself,
//! which is in `build.rs` (the script links bindgen; this crate does not, so
//! that it compiles beside it): libclang, the settings taken from the header,
//! the comments as Markdown, bindgen's failures as errors, and its output read
//! back as a syntax tree.

use std::collections::HashMap;
use std::path::Path;

use crate::model::panics::{self, caught};
use crate::model::{Error, Result};

/// The crate's MSRV; the generated code uses nothing newer.
pub const RUST_TARGET: (u64, u64) = (82, 0);

/// Header comments as rustdoc Markdown, so rustdoc shows `(value type = ...)`,
/// parameters and return values as the header's authors wrote them. The
/// conversion runs on a thread of its own while bindgen goes on: bindgen's
/// callback hands each comment over ([`Comments::stand_in`]) and writes a
/// stand-in, which [`Converter::fill`] replaces once bindgen is done.
#[derive(Debug)]
pub struct Comments {
    to_worker: std::sync::mpsc::Sender<(usize, String)>,
    next: std::sync::atomic::AtomicUsize,
}

/// The thread that converts the comments [`Comments`] hands it, and the
/// queue it takes them from.
pub struct Converter {
    queue: Queue,
    ready: Ready,
    worker: std::thread::JoinHandle<std::result::Result<Vec<(usize, String)>, String>>,
}

type Queue = std::sync::Arc<std::sync::Mutex<std::sync::mpsc::Receiver<(usize, String)>>>;

/// Comments converted so far, by their text: those [`convert_ahead`]
/// converted from the header's text before bindgen handed them on, and those
/// the converter did.
pub type Ready = std::sync::Arc<std::sync::Mutex<HashMap<String, String>>>;

/// `comment` as Markdown: converted already, or now (and kept).
pub fn converted(comment: &str, ready: &Ready) -> String {
    if let Some(done) = ready.lock().ok().and_then(|r| r.get(comment).cloned()) {
        return done;
    }
    let done = markdown(comment);
    if let Ok(mut r) = ready.lock() {
        r.insert(comment.to_string(), done.clone());
    }
    done
}

/// Converts `comments` (the functions' comments as the header's text has
/// them, which are bindgen's too) before bindgen hands them on: a thread with
/// nothing else to do while libclang parses does the converter's work ahead
/// of it, last first, so that the two meet instead of doing the same.
pub fn convert_ahead<'a>(comments: impl DoubleEndedIterator<Item = &'a str>, ready: &Ready) {
    for comment in comments.rev() {
        converted(comment, ready);
    }
}

/// Converts comments from `queue` until bindgen has sent its last.
fn convert(queue: &Queue, ready: &Ready) -> Vec<(usize, String)> {
    let mut done = Vec::new();
    // The lock is held while waiting for a comment, never while converting one.
    while let Ok(Ok((n, comment))) = queue.lock().map(|q| q.recv()) {
        done.push((n, converted(&comment, ready)));
    }
    done
}

const STAND_IN: &str = "libcuda-sys:comment:";

impl Comments {
    /// The converter started, with the comments `ready` holds converted already.
    pub fn start(ready: Ready) -> (Comments, Converter) {
        let (to_worker, from_bindgen) = std::sync::mpsc::channel::<(usize, String)>();
        let queue: Queue = std::sync::Arc::new(std::sync::Mutex::new(from_bindgen));
        let worker = std::thread::spawn({
            let (queue, ready) = (queue.clone(), ready.clone());
            move || caught(|| convert(&queue, &ready))
        });
        (Comments { to_worker, next: Default::default() }, Converter { queue, ready, worker })
    }

    /// What bindgen writes for `comment` until [`Converter::fill`].
    pub fn stand_in(&self, comment: &str) -> String {
        let n = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // A send fails only once the converter is gone, when nothing is filled in.
        let _ = self.to_worker.send((n, comment.to_string()));
        format!("{STAND_IN}{n}")
    }
}

impl Converter {
    /// `file` (bindgen's output `text`, written after every [`Comments`] is
    /// dropped, read back) with each stand-in replaced by its comment, as
    /// bindgen would have written that. The stand-ins are read, not the
    /// comments: the Markdown is not lexed as Rust text only to be read back.
    pub fn fill(self, file: &mut syn::File, text: &str) -> Result<()> {
        // The comments bindgen sent faster than one thread converts them are
        // converted by two once bindgen is done.
        let stopped = |panic: String| panics::error("converting a comment of cuda.h", &panic);
        let ours = caught(|| convert(&self.queue, &self.ready)).map_err(stopped)?;
        let theirs = panics::joined(self.worker.join()).map_err(stopped)?;
        let mut done = Vec::new();
        for (n, text) in ours.into_iter().chain(theirs) {
            done.resize(done.len().max(n + 1), String::new());
            done[n] = text;
        }
        let (mut lost, mut filled) = (None, 0);
        for item in &mut file.items {
            fill_item(item, &done, &mut lost, &mut filled);
        }
        // Each stand-in of the text is one the items' walk came to: those of
        // doc attributes, not a string constant that holds the same words.
        let written = text.matches(&format!("doc = \"{STAND_IN}")).count();
        match lost {
            None if filled == written => Ok(()),
            None => Err(Error::new(
                "a comment of the bindings was lost",
                format!("bindgen wrote {written} comments and {filled} were found where they go"),
            )),
            Some(n) => Err(Error::new(
                "a comment of the bindings was lost",
                format!("bindgen wrote {STAND_IN}{n} and no comment was converted for it"),
            )),
        }
    }
}

/// The stand-ins of an item's documentation, and of its members', filled:
/// where bindgen writes comments (items, fields, variants, the constants of
/// an `impl`, the functions of an `extern` block).
fn fill_item(item: &mut syn::Item, done: &[String], lost: &mut Option<String>, n: &mut usize) {
    let mut fill = |attrs: &mut Vec<syn::Attribute>| fill_attrs(attrs, done, lost, n);
    match item {
        syn::Item::Struct(s) => {
            fill(&mut s.attrs);
            s.fields.iter_mut().for_each(|f| fill(&mut f.attrs));
        }
        syn::Item::Union(u) => {
            fill(&mut u.attrs);
            u.fields.named.iter_mut().for_each(|f| fill(&mut f.attrs));
        }
        syn::Item::Enum(e) => {
            fill(&mut e.attrs);
            for v in &mut e.variants {
                fill(&mut v.attrs);
                v.fields.iter_mut().for_each(|f| fill(&mut f.attrs));
            }
        }
        syn::Item::Impl(i) => {
            fill(&mut i.attrs);
            for member in &mut i.items {
                match member {
                    syn::ImplItem::Const(c) => fill(&mut c.attrs),
                    syn::ImplItem::Fn(f) => fill(&mut f.attrs),
                    syn::ImplItem::Type(t) => fill(&mut t.attrs),
                    _ => {}
                }
            }
        }
        syn::Item::ForeignMod(m) => {
            fill(&mut m.attrs);
            for member in &mut m.items {
                match member {
                    syn::ForeignItem::Fn(f) => fill(&mut f.attrs),
                    syn::ForeignItem::Static(s) => fill(&mut s.attrs),
                    syn::ForeignItem::Type(t) => fill(&mut t.attrs),
                    _ => {}
                }
            }
        }
        syn::Item::Const(c) => fill(&mut c.attrs),
        syn::Item::Static(s) => fill(&mut s.attrs),
        syn::Item::Type(t) => fill(&mut t.attrs),
        syn::Item::Use(u) => fill(&mut u.attrs),
        syn::Item::Fn(f) => fill(&mut f.attrs),
        syn::Item::Mod(m) => {
            fill(&mut m.attrs);
            for item in m.content.iter_mut().flat_map(|(_, items)| items) {
                fill_item(item, done, lost, n);
            }
        }
        _ => {}
    }
}

/// Each `#[doc = "<stand-in>"]` of `attrs` with its comment (counted in
/// `filled`); one whose comment is empty removed (bindgen writes no attribute
/// for an empty comment).
fn fill_attrs(
    attrs: &mut Vec<syn::Attribute>,
    done: &[String],
    lost: &mut Option<String>,
    filled: &mut usize,
) {
    attrs.retain_mut(|attr| {
        let syn::Meta::NameValue(doc) = &mut attr.meta else { return true };
        let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(text), .. }) = &mut doc.value else {
            return true;
        };
        if !doc.path.is_ident("doc") {
            return true;
        }
        let value = text.value();
        let Some(n) = value.strip_prefix(STAND_IN) else { return true };
        *filled += 1;
        match n.parse::<usize>().ok().and_then(|n| done.get(n)) {
            Some(comment) if comment.is_empty() => false,
            Some(comment) => {
                *text = syn::LitStr::new(comment, text.span());
                true
            }
            None => {
                *lost = Some(n.to_string());
                true
            }
        }
    });
}

/// One header comment as rustdoc Markdown.
pub fn markdown(comment: &str) -> String {
    // `/**<` documents the member before it: bindgen keeps the `<`.
    let comment = comment.trim_start().strip_prefix('<').unwrap_or(comment);
    // NVIDIA's own doxygen commands (`\notefnerr`), which the converter
    // does not know and leaves glued to the next heading: a note of ours.
    let mut comment = comment.to_string();
    for (command, note) in crate::sentences::DOXYGEN_NOTES {
        comment = comment.replace(&format!("\\{command}"), &format!("\n\n{note}\n\n"));
    }
    // The converter keeps text it does not understand; where it refuses,
    // the raw comment is still better than none.
    let markdown = doxygen_bindgen::transform(&comment).unwrap_or(comment);
    punctuation_outside(&code_spans(&single_dashes(&markdown)))
}

/// `\p phStream.` becomes `` `phStream.` ``: the sentence's period (or comma)
/// belongs after the code span, not in it. Outside code blocks, a span of one
/// name and a trailing `.`, `,`, `;` or `:` gives it back to the sentence.
fn punctuation_outside(markdown: &str) -> String {
    let mut fenced = false;
    let lines = markdown.lines().map(|line| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return line.to_string();
        }
        if fenced || line.contains("``") {
            return line.to_string();
        }
        // Spans pair up: an odd count of backticks is not ours to read.
        let parts: Vec<&str> = line.split('`').collect();
        if parts.len() % 2 == 0 {
            return line.to_string();
        }
        let mut out = String::with_capacity(line.len());
        for (i, part) in parts.iter().enumerate() {
            if i % 2 == 0 {
                out.push_str(part);
                continue;
            }
            let name = part.strip_suffix(['.', ',', ';', ':']).filter(|n| {
                n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '*')
                    && n.chars().skip(1).all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
            let (code, after) = name.map_or((*part, ""), |n| (n, &part[n.len()..]));
            out.push('`');
            out.push_str(code);
            out.push('`');
            out.push_str(after);
        }
        out
    });
    lines.collect::<Vec<_>>().join("\n")
}

/// `* `pool` \\[in\\] -   - The pool`: the converter writes a dash after a
/// parameter's name, and the header's own follows it. One is enough.
fn single_dashes(markdown: &str) -> String {
    let lines = markdown.lines().map(|line| {
        let Some(at) = line.starts_with("* `").then(|| line.find(" - ")).flatten() else {
            return line.to_string();
        };
        let rest = line[at + 3..].trim_start();
        match rest.strip_prefix("- ").or_else(|| rest.strip_prefix('-').filter(|r| r.is_empty())) {
            Some(text) => format!("{} - {}", &line[..at], text.trim_start()),
            None => line.to_string(),
        }
    });
    lines.collect::<Vec<_>>().join("\n")
}

/// The C type of an integer macro whose expression is unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsigned {
    Int,
    LongLong,
}

/// Doxygen's `::name` cross-references (and the converter's `[`::a,`]` form of
/// the first one in a "see also" list) become code spans: many name runtime-API
/// or documentation-only items that have no Rust item to link to.
fn code_spans(text: &str) -> String {
    let text = text.replace("[`::", "`").replace(",`]", "`,").replace("`]", "`");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("::") {
        let (before, after) = rest.split_at(at);
        let name_len = after[2..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len() - 2);
        let name = &after[2..2 + name_len];
        out.push_str(before);
        if name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && !before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '`')
        {
            out.push('`');
            out.push_str(name);
            out.push('`');
            rest = &after[2 + name_len..];
        } else {
            out.push_str("::");
            rest = &after[2..];
        }
    }
    out.push_str(rest);
    out
}

const LIBCLANG_FIX: &str = "Fix one of:\n\
     - Debian/Ubuntu: apt-get install libclang-dev\n\
     - Fedora: dnf install clang-devel; Arch: pacman -S clang\n\
     - set LIBCLANG_PATH to the directory that holds libclang.so (e.g. /usr/lib/llvm-14/lib)";

/// libclang, loaded before bindgen because bindgen panics when it cannot
/// load it; this way the user gets the places searched and the fix. A
/// library that loads but is not libclang (no `clang_createIndex`) is refused
/// too, for the same reason. It loads on a thread of its own: opening it (and
/// the LLVM it links) takes a while, which the C preprocessor's runs and the
/// header's reading fill. [`Loading::finish`] makes it the calling thread's
/// libclang, as clang-sys keeps the loaded library per thread.
pub struct Loading<'scope> {
    /// `LIBCLANG_PATH` and what is wrong with it, for the error.
    named: Option<String>,
    thread: std::thread::ScopedJoinHandle<'scope, Loaded>,
}

type Loaded = std::result::Result<std::sync::Arc<clang_sys::SharedLibrary>, String>;

impl<'scope> Loading<'scope> {
    /// Starts loading libclang, on a thread of `scope`.
    pub fn start<'env>(scope: &'scope std::thread::Scope<'scope, 'env>) -> Self {
        // clang-sys searches only LIBCLANG_PATH when it is set, empty or not:
        // empty is unset here, as for every variable (before the loading
        // thread starts: the environment is changed while no other runs).
        let path = crate::env::var("LIBCLANG_PATH");
        if path.as_ref().is_some_and(|p| p.is_empty()) {
            std::env::remove_var("LIBCLANG_PATH");
        }
        let named = path.filter(|p| !p.is_empty()).map(|p| {
            let dir = std::path::Path::new(&p);
            let state = if !dir.exists() {
                "does not exist"
            } else if dir.is_dir() {
                "holds no libclang that loads"
            } else {
                "is a file, not a directory"
            };
            format!("LIBCLANG_PATH={} {state}", dir.display())
        });
        let load = || -> Loaded {
            caught(clang_sys::load).and_then(|loaded| loaded)?;
            clang_sys::get_library().ok_or_else(|| "clang-sys kept no library".to_string())
        };
        Loading { named, thread: scope.spawn(load) }
    }

    /// libclang loaded into the calling thread, or why not.
    pub fn finish(self) -> Result<()> {
        let loaded = self.thread.join().unwrap_or_else(|_| Err("clang-sys panicked".to_string()));
        let e = match loaded {
            Ok(library) => {
                clang_sys::set_library(Some(library));
                return is_libclang();
            }
            Err(e) => e,
        };
        let summary = match &self.named {
            Some(n) => format!("libclang not found ({n}; bindgen needs it to read cuda.h)"),
            None => "libclang not found (bindgen needs it to read cuda.h)".to_string(),
        };
        let fix = match &self.named {
            Some(_) => format!(
                "{LIBCLANG_FIX}\n- or unset LIBCLANG_PATH to let clang-sys search the usual places"
            ),
            None => LIBCLANG_FIX.to_string(),
        };
        Err(Error::new(summary, format!("{e}\n\n{fix}")))
    }
}

/// The loaded library exports `clang_createIndex`: it is libclang; and the
/// functions bindgen calls before any other, or it panics where no unwinding
/// is possible (inside a libclang callback, or a destructor).
fn is_libclang() -> Result<()> {
    use clang_sys as c;
    let path = clang_sys::get_library().map(|l| l.path().display().to_string()).unwrap_or_default();
    if !c::clang_createIndex::is_loaded() {
        return Err(Error::new(
            format!("{path} is not libclang (bindgen needs libclang to read cuda.h)"),
            format!(
                "clang-sys loaded {path}, which does not export clang_createIndex: it is some other\n\
                 library under a libclang name.\n\n{LIBCLANG_FIX}"
            ),
        ));
    }
    let needed = [
        ("clang_disposeIndex", c::clang_disposeIndex::is_loaded()),
        ("clang_parseTranslationUnit", c::clang_parseTranslationUnit::is_loaded()),
        ("clang_disposeTranslationUnit", c::clang_disposeTranslationUnit::is_loaded()),
        ("clang_getTranslationUnitCursor", c::clang_getTranslationUnitCursor::is_loaded()),
        ("clang_visitChildren", c::clang_visitChildren::is_loaded()),
        ("clang_getNumDiagnostics", c::clang_getNumDiagnostics::is_loaded()),
    ];
    let missing: Vec<&str> = needed.iter().filter(|(_, has)| !has).map(|(name, _)| *name).collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(Error::new(
        format!("{path} is an incomplete libclang (it lacks {})", missing.join(", ")),
        format!(
            "clang-sys loaded {path}, which exports clang_createIndex but not\n  {}\n\
             which bindgen calls first.\n\n{LIBCLANG_FIX}",
            missing.join("\n  ")
        ),
    ))
}

/// The version text of the libclang this machine loads ("Debian clang version
/// 14.0.6"): bindgen's output depends on it, so `cargo xtask pregenerate`
/// keeps it with what it generated.
#[cfg(feature = "pregenerate")]
pub fn libclang_version() -> Result<String> {
    std::thread::scope(|scope| Loading::start(scope).finish())?;
    // SAFETY: libclang is loaded into this thread; the string is copied, then disposed.
    unsafe {
        let version = clang_sys::clang_getClangVersion();
        let text = clang_sys::clang_getCString(version);
        let copied = match text.is_null() {
            true => String::new(),
            false => std::ffi::CStr::from_ptr(text).to_string_lossy().into_owned(),
        };
        clang_sys::clang_disposeString(version);
        Ok(copied)
    }
}

/// Unsigned integer macros, judged from their text as the preprocessor dumped it:
/// an integer literal with a `u` suffix or an `unsigned` cast makes the whole
/// expression unsigned in C (`long long`/`ll` suffixes make it 64-bit).
/// bindgen's own evaluation gets these wrong (`#define X (~0u)` as a signed `-1`).
pub fn unsigned_macros(macros: &[(String, String)]) -> HashMap<String, Unsigned> {
    let is_unsigned_literal = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_digit())
            && w.to_ascii_lowercase().trim_end_matches('l').ends_with('u')
    };
    macros
        .iter()
        .filter(|(name, _)| name.starts_with("CU"))
        .filter_map(|(name, body)| {
            let words: Vec<&str> = body
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            let unsigned =
                words.contains(&"unsigned") || words.iter().any(|w| is_unsigned_literal(w));
            let wide = body.to_ascii_lowercase().contains("ll") || words.contains(&"long");
            unsigned.then(|| (name.clone(), if wide { Unsigned::LongLong } else { Unsigned::Int }))
        })
        .collect()
}

/// bindgen writes a negative value it was told is `c_uint` as its 64-bit two's
/// complement, which does not compile; C's value is the same bits modulo 2^32.
fn wrap_unsigned(file: &mut syn::File, unsigned: &HashMap<String, Unsigned>) {
    for item in &mut file.items {
        let syn::Item::Const(c) = item else { continue };
        if !matches!(unsigned.get(&c.ident.to_string()), Some(Unsigned::Int)) {
            continue;
        }
        if let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(int), .. }) = &mut *c.expr {
            if let Ok(value) = int.base10_parse::<u64>() {
                let wrapped = (value & u64::from(u32::MAX)).to_string();
                *int = syn::LitInt::new(&wrapped, int.span());
            }
        }
    }
}

/// For a cross build, where libclang most often fails for want of the
/// target's C library headers: which package has them, and the variable that
/// names a sysroot elsewhere.
fn cross_hint(target: &str) -> String {
    if std::env::var("HOST").is_ok_and(|host| host == target) {
        return String::new();
    }
    let package = if target.starts_with("aarch64-") && target.contains("-linux-gnu") {
        "libc6-dev-arm64-cross (with gcc-aarch64-linux-gnu)"
    } else if target.ends_with("-windows-gnu") {
        "mingw-w64-x86-64-dev (with gcc-mingw-w64-x86-64)"
    } else if target.ends_with("-windows-msvc") {
        "none on Linux: libclang needs the Windows SDK and MSVC headers; build on Windows, or \
         use the pregenerated bindings (LIBCUDA_SYS_BINDINGS=pregenerated)"
    } else {
        "the C library development files for that target"
    };
    format!(
        "\n\nThis is a cross build for {target}: libclang parses cuda.h as that target and needs\n\
         the target's C library headers (stdlib.h). Debian/Ubuntu package: {package}.\n\
         Headers elsewhere: BINDGEN_EXTRA_CLANG_ARGS_{}=\"--sysroot=/path/to/sysroot\"",
        target.replace('-', "_")
    )
}

/// Clang's own headers (`stddef.h`, `stdarg.h`, `mm_malloc.h`, ...), which
/// libclang reads from its resource directory (`clang/<version>/include`) and
/// which no target parses without: glibc's `stdlib.h` includes `stddef.h`,
/// which libclang takes from there alone (GCC's copy is in GCC's own
/// directory, which clang does not search), and a MinGW target
/// (`x86_64-pc-windows-gnu`) also needs `mm_malloc.h`. libclang looks for the
/// directory relative to its own file (`<dir>/../lib/clang/<major>`), which
/// misses where a distribution keeps libclang in the multiarch directory
/// (Debian: `/usr/lib/x86_64-linux-gnu`) and the headers elsewhere
/// (`/usr/lib/llvm-14/lib/clang/14.0.6`): this finds it for the libclang that
/// was loaded. Only an unambiguous match is used: with several installed
/// versions and no way to tell which is the loaded one, libclang keeps its own
/// choice.
pub fn resource_dir() -> Option<std::path::PathBuf> {
    let library = clang_sys::get_library()?;
    let major = major_version(library.path());
    let mut found: Vec<std::path::PathBuf> = clang_dirs(library.path())
        .iter()
        .filter_map(|versions| std::fs::read_dir(versions).ok())
        .flatten()
        .flatten()
        .filter(|e| {
            let version = e.file_name().to_string_lossy().into_owned();
            major.is_empty() || version == major || version.starts_with(&format!("{major}."))
        })
        .filter_map(|e| e.path().join("include/stddef.h").canonicalize().ok())
        .filter_map(|header| Some(header.parent()?.parent()?.to_path_buf()))
        .collect();
    found.sort();
    found.dedup();
    (found.len() == 1).then(|| found.remove(0))
}

/// The directories near `library` (a libclang) that hold clang's headers by
/// version (`clang/14`, `clang/14.0.6`): beside it, one level up, and in the
/// `lib` beside its directory (libclang's own rule; on Windows it is in
/// `bin`), for its path and for the one past its symlinks.
fn clang_dirs(library: &Path) -> Vec<std::path::PathBuf> {
    let mut dirs = Vec::new();
    for file in [library.to_path_buf(), library.canonicalize().unwrap_or_default()] {
        let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) else {
            continue;
        };
        let up = dir.parent().unwrap_or(dir);
        for candidate in [dir.join("clang"), up.join("clang"), up.join("lib").join("clang")] {
            if !dirs.contains(&candidate) {
                dirs.push(candidate);
            }
        }
    }
    dirs
}

/// The major version of a libclang, as its file names say it, past symlinks
/// (`libclang-14.so.1`, `libclang.so.17`, `/usr/lib/llvm-14/lib/libclang.so`);
/// empty where they do not (Debian's `libclang.so.1` numbers the ABI, not the release).
fn major_version(library: &Path) -> String {
    let digits = |s: &str| -> String { s.chars().take_while(char::is_ascii_digit).collect() };
    let paths = [library.to_path_buf(), library.canonicalize().unwrap_or_default()];
    let names: Vec<String> = paths
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    let dashed = names.iter().filter_map(|n| n.strip_prefix("libclang-")).map(digits);
    let numbered = names
        .iter()
        .filter_map(|n| n.split_once(".so.").map(|(_, v)| digits(v)))
        .filter(|v| v.parse::<u32>().is_ok_and(|n| n >= 3));
    let llvm = paths
        .iter()
        .flat_map(|p| p.ancestors())
        .filter_map(|a| a.file_name()?.to_str()?.strip_prefix("llvm-").map(digits));
    dashed.chain(numbered).chain(llvm).find(|v| !v.is_empty()).unwrap_or_default()
}

/// Clang's headers that no C library has: one of them "not found" means
/// libclang came without its resource directory.
const CLANG_ONLY_HEADERS: [&str; 4] = ["stddef.h", "stdarg.h", "stdbool.h", "mm_malloc.h"];

/// bindgen's error `e` (for `include`'s `cuda.h`) where libclang lacks clang's
/// own headers, as the error that names the package that has them; `None`
/// for any other error.
pub fn without_clang_headers(include: &Path, e: &str) -> Option<Error> {
    let header =
        CLANG_ONLY_HEADERS.iter().find(|h| e.contains(&format!("'{h}' file not found")))?;
    let library = clang_sys::get_library().map(|l| l.path().to_path_buf()).unwrap_or_default();
    let major = major_version(&library);
    let (version, package) = match major.as_str() {
        "" => ("<version>".to_string(), "libclang-common-<version>-dev".to_string()),
        n => (n.to_string(), format!("libclang-common-{n}-dev")),
    };
    let looked: Vec<String> =
        clang_dirs(&library).iter().map(|d| format!("  {}", d.display())).collect();
    let versions = match major.as_str() {
        "" => "any version".to_string(),
        n => format!("{n} or {n}.*"),
    };
    Some(Error::new(
        format!(
            "libclang has no {header} of its own: clang's headers for it are not installed \
             (Debian/Ubuntu: {package}, or libclang-dev)"
        ),
        format!(
            "bindgen could not parse {}:\n{}\n\n\
             libclang ({})\n\
             reads clang's own headers (stddef.h, stdarg.h, mm_malloc.h, ...) from its resource\n\
             directory, and has none: no <version>/include/{header} ({versions}) in\n{}\n\
             No C library has these headers, and GCC's copies are not on libclang's path. Debian and\n\
             Ubuntu package libclang alone (libclang1-{version}) and its headers apart ({package},\n\
             which libclang-dev brings in).\n\n\
             Fix one of:\n\
             - Debian/Ubuntu: apt-get install {package} (or libclang-dev)\n\
             - elsewhere: install clang of libclang's version, whose package has these headers\n\
             - name a resource directory of that version, e.g.\n  \
               BINDGEN_EXTRA_CLANG_ARGS=\"-resource-dir=/usr/lib/llvm-{version}/lib/clang/{version}\"\n\
             - point LIBCLANG_PATH at the lib directory of a complete LLVM installation\n\
             - use the crate's pregenerated bindings: unset LIBCUDA_SYS_BINDINGS (or set it to pregenerated)",
            include.join("cuda.h").display(),
            e.trim_end(),
            library.display(),
            looked.join("\n"),
        ),
    ))
}

/// bindgen panicked (`panic`, its message) on `include`'s `cuda.h` for `target`.
/// `extra_args`: bindgen's own variables ([`crate::env::bindgen_extra_clang_args`]).
pub fn stopped(
    include: &Path,
    target: &str,
    panic: &str,
    extra_args: &[(String, Option<String>)],
) -> Error {
    let extra_values: Vec<String> = extra_args
        .iter()
        .map(|(name, value)| match value {
            Some(v) => format!("{name} = {v}"),
            None => format!("{name} unset"),
        })
        .collect();
    Error::new(
        format!(
            "bindgen stopped on {}: {}",
            include.join("cuda.h").display(),
            panic.lines().next().unwrap_or_default()
        ),
        format!(
            "bindgen gave up on the header with an internal assertion:\n{panic}\n\n\
             The settings that change what it does:\n  {}\n  libclang loaded: {}\n\n\
             Fix one of:\n\
             - remove flags from BINDGEN_EXTRA_CLANG_ARGS that change the target's ABI (-m32,\n  \
               --target=...): the bindings are for {}\n\
             - point LIBCLANG_PATH at another, complete libclang (11 or newer)\n\
             - use the crate's pregenerated bindings: unset LIBCUDA_SYS_BINDINGS (or set it to pregenerated)",
            extra_values.join("\n  "),
            clang_sys::get_library().map(|l| l.path().display().to_string()).unwrap_or_default(),
            target,
        ),
    )
}

/// bindgen returned `e` instead of bindings for `include`'s `cuda.h` and `target`.
pub fn unparsable(include: &Path, target: &str, e: &str) -> Error {
    Error::new(
        format!("bindgen could not parse {}", include.join("cuda.h").display()),
        format!(
            "{e}\n\n\
             The header did not parse with libclang. Fix one of:\n\
             - check that the toolkit's include directory is complete (cuda.h includes stdlib.h and stdint.h)\n\
             - point LIBCUDA_SYS_INCLUDE_DIR / CUDA_PATH at another toolkit\n\
             - pass extra clang flags with BINDGEN_EXTRA_CLANG_ARGS (e.g. a sysroot when cross-compiling){}",
            cross_hint(target),
        ),
    )
}

/// bindgen's output read back (for the build script, which links no syn).
pub type File = syn::File;

/// bindgen's output as a syntax tree, with the unsigned macros' values as C has them.
pub fn read(bindings: &str, unsigned: &HashMap<String, Unsigned>) -> Result<syn::File> {
    let mut file = syn::parse_file(bindings)
        .map_err(|e| Error::new("the generated bindings do not parse as Rust", e.to_string()))?;
    wrap_unsigned(&mut file, unsigned);
    inline_defaults(&mut file);
    Ok(file)
}

/// bindgen's `Default` of a struct or union (all bytes zero) marked
/// `#[inline]`: compiled where it is called, as a generic is, instead of
/// along with the bindings, which call none of them.
fn inline_defaults(file: &mut syn::File) {
    let inline: syn::Attribute = syn::parse_quote!(#[inline]);
    for item in &mut file.items {
        let syn::Item::Impl(i) = item else { continue };
        let Some((path, _)) = &i.trait_ else { continue };
        if !path.is_ident("Default") {
            continue;
        }
        for member in &mut i.items {
            if let syn::ImplItem::Fn(f) = member {
                if !f.attrs.iter().any(|a| a.path().is_ident("inline")) {
                    f.attrs.push(inline.clone());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_references_become_code_spans() {
        assert_eq!(code_spans("See ::cuMemAlloc."), "See `cuMemAlloc`.");
        assert_eq!(
            code_spans("\\sa [`::cuMemFree`], ::cuMemAlloc"),
            "\\sa `cuMemFree`, `cuMemAlloc`"
        );
        // Paths and a lone `::` stay as they are.
        assert_eq!(code_spans("std::vector and a :: b"), "std::vector and a :: b");
        assert_eq!(code_spans("`CUresult::CUDA_SUCCESS`"), "`CUresult::CUDA_SUCCESS`");
    }

    /// The converter's `` `phStream.` `` gives its period back to the sentence;
    /// code blocks, paths and unpaired backticks stay as they are.
    #[test]
    fn punctuation_leaves_code_spans() {
        assert_eq!(
            punctuation_outside("a handle in `phStream.` The `Flags,` and `*pctx;`"),
            "a handle in `phStream`. The `Flags`, and `*pctx`;"
        );
        let kept = "`a.b` and `x` `...` \n```\nint `c.`\n```\none ` alone.`";
        assert_eq!(punctuation_outside(kept), kept);
    }

    #[test]
    fn unsigned_macros_are_judged_from_their_text() {
        let macros: Vec<(String, String)> = [
            ("CU_A", "(~0u)"),
            ("CU_B", "0xffffffffffffffffULL"),
            ("CU_C", "((unsigned int)-1)"),
            ("CU_D", "5"),
            ("OTHER", "1u"),
        ]
        .iter()
        .map(|(n, b)| (n.to_string(), b.to_string()))
        .collect();
        let found = unsigned_macros(&macros);
        assert_eq!(found.get("CU_A"), Some(&Unsigned::Int));
        assert_eq!(found.get("CU_B"), Some(&Unsigned::LongLong));
        assert_eq!(found.get("CU_C"), Some(&Unsigned::Int));
        assert_eq!(found.len(), 3, "{found:?}");
    }

    #[test]
    fn stand_ins_are_filled_and_empty_comments_leave_no_attribute() {
        let (comments, converter) = Comments::start(Ready::default());
        let (a, empty) = (comments.stand_in("Returns ::CUDA_SUCCESS."), comments.stand_in(""));
        drop(comments);
        let text = format!(
            "# [doc = \"{a}\"] pub struct A {{ # [doc = \"{empty}\"] pub x : u32 , }} \
             # [doc = \"{empty}\"] pub struct B ;"
        );
        let mut file = syn::parse_file(&text).unwrap();
        converter.fill(&mut file, &text).unwrap();
        assert_eq!(
            quote::ToTokens::to_token_stream(&file).to_string(),
            "# [doc = \"Returns `CUDA_SUCCESS`.\"] pub struct A { pub x : u32 , } pub struct B ;"
        );
        let (comments, converter) = Comments::start(Ready::default());
        drop(comments);
        let text = format!("# [doc = \"{STAND_IN}7\"] pub struct C ;");
        let mut lost = syn::parse_file(&text).unwrap();
        assert!(converter.fill(&mut lost, &text).is_err());
        // A stand-in where no comment goes is found missing, not left in the docs.
        let (comments, converter) = Comments::start(Ready::default());
        let a = comments.stand_in("A.");
        drop(comments);
        let text = format!("pub const C : u32 = {{ # [doc = \"{a}\"] 1 }} ;");
        let mut file = syn::parse_file(&text).unwrap();
        assert!(converter.fill(&mut file, &text).is_err());
        // A string macro that holds the stand-in's words is a string, not a comment.
        let (comments, converter) = Comments::start(Ready::default());
        let a = comments.stand_in("A.");
        drop(comments);
        let text = format!("# [doc = \"{a}\"] pub const CU_S : & [u8 ; 22] = b\"{STAND_IN}\\0\" ;");
        let mut file = syn::parse_file(&text).unwrap();
        converter.fill(&mut file, &text).unwrap();
    }
}
