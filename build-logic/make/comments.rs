//! Header comments as rustdoc Markdown, converted on a thread of their own
//! while bindgen runs: bindgen's callback hands each over and writes a
//! stand-in, filled once bindgen is done.

use std::collections::HashMap;

use crate::model::panics::{self, caught};
use crate::model::{Error, Result};

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
    /// The inner error: the converter stopped on a comment of the header.
    pub fn fill(self, file: &mut syn::File, text: &str) -> Result<Result<()>> {
        // The comments bindgen sent faster than one thread converts them are
        // converted by two once bindgen is done.
        let stopped = |panic: String| panics::error("converting a comment of cuda.h", &panic);
        let ours = caught(|| convert(&self.queue, &self.ready)).map_err(stopped);
        let theirs = panics::joined(self.worker.join()).map_err(stopped);
        let (ours, theirs) = match (ours, theirs) {
            (Ok(ours), Ok(theirs)) => (ours, theirs),
            (Err(e), _) | (_, Err(e)) => return Ok(Err(e)),
        };
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
            None if filled == written => Ok(Ok(())),
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
    fn stand_ins_are_filled_and_empty_comments_leave_no_attribute() {
        let (comments, converter) = Comments::start(Ready::default());
        let (a, empty) = (comments.stand_in("Returns ::CUDA_SUCCESS."), comments.stand_in(""));
        drop(comments);
        let text = format!(
            "# [doc = \"{a}\"] pub struct A {{ # [doc = \"{empty}\"] pub x : u32 , }} \
             # [doc = \"{empty}\"] pub struct B ;"
        );
        let mut file = syn::parse_file(&text).unwrap();
        converter.fill(&mut file, &text).unwrap().unwrap();
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
        converter.fill(&mut file, &text).unwrap().unwrap();
    }
}
