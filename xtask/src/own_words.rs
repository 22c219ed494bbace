//! The own-words check: every text of this crate's (the tables of
//! `build-logic/sentences/`, the string literals of `sentences.rs` and its
//! modules, the crate docs in
//! `src/`, the group lines, README and `docs/`) against every comment of every
//! pregenerated release's headers, compared as a reader reads both. A text
//! fails on a run of [`OWN`] words shared with the comment of its own item (the
//! function, enumerator, field, constant or group it documents), and on a run
//! of [`ANY`] words shared with any comment at all ([`OWN`] for the tables
//! held to that before, [`STRICT`]). Before the words are cut,
//! what a reader never sees is dropped: soft hyphens and zero-width
//! characters, HTML comments, and emphasis and code-span marks inside words.
//! NVIDIA's text loses its doxygen commands (`\p`, `\ref`, `::`) the same way.

use std::collections::{HashMap, HashSet};

/// A run this long shared with the item's own comment is a copy.
const OWN: usize = 5;
/// A run this long shared with any comment of any release is a copy.
const ANY: usize = 8;

/// The tables held to a run of [`OWN`] words shared with any comment, as they
/// were before the rule above: none of their lines has such a run.
const STRICT: [&str; 5] =
    ["results.txt", "fields.txt", "constants.txt", "params.txt", "contracts.txt"];

/// Runs of [`ANY`] words that name API items only, which the check lets
/// through, each with why.
const ALLOWED: [(&str, &str); 0] = [];

/// Characters a reader never sees.
const INVISIBLE: [char; 6] = ['\u{ad}', '\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}'];

/// Text as a reader reads it: no invisible characters, no HTML comments, and
/// no emphasis or code-span marks (`*`, `` ` ``), which never split a word a
/// reader sees.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<!--") {
        out.push_str(&rest[..at]);
        rest = rest[at..].split_once("-->").map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out.retain(|c| !INVISIBLE.contains(&c) && c != '*' && c != '`');
    out
}

/// NVIDIA's text as a reader sees it: doxygen's commands (`\p`, `\e`,
/// `\ref`, `\brief`, ...) and `::` left out, so that `\p bytesize` is the
/// word a reader reads, not two.
pub fn reader(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let command = after.find(|c: char| !c.is_ascii_alphanumeric() && c != '_');
        let command = &after[..command.unwrap_or(after.len())];
        // `\param[out]`: the bracket is markup too.
        let after = &after[command.len()..];
        let after = match after.strip_prefix('[') {
            Some(a) => a.split_once(']').map_or(a, |(_, a)| a),
            None => after,
        };
        out.push(' ');
        rest = after;
    }
    out.push_str(rest);
    visible(&out.replace("::", " "))
}

/// The lowercase words of a text.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Every run of `n` of these words, each as one string.
fn runs(words: &[String], n: usize) -> impl Iterator<Item = String> + '_ {
    let count = (words.len() + 1).saturating_sub(n);
    (0..count).map(move |i| words[i..i + n].join(" "))
}

/// Every comment of a header, with the offset just past it.
pub fn comments(text: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = text[at..].find('/') {
        let start = at + i;
        let after = &text[start..];
        if let Some(body) = after.strip_prefix("/*") {
            let end = body.find("*/").unwrap_or(body.len());
            at = start + 2 + (end + 2).min(body.len());
            out.push((&body[..end], at));
        } else if let Some(body) = after.strip_prefix("//") {
            let end = body.find('\n').unwrap_or(body.len());
            at = start + 2 + end;
            out.push((&body[..end], at));
        } else {
            at = start + 1;
        }
    }
    out
}

/// The items a comment documents: the names on its line for a trailing
/// comment (`X = 1, /**< ... */`), else on the first line of code after it;
/// for a `\defgroup ID` or `\addtogroup ID`, the group.
fn subjects<'a>(text: &'a str, comment: &'a str, end: usize) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for command in ["defgroup ", "addtogroup "] {
        out.extend(comment.split(command).skip(1).filter_map(|p| p.split_whitespace().next()));
    }
    let line_start = text[..end].rfind('\n').map_or(0, |i| i + 1);
    let code = if comment.starts_with("*<") || comment.starts_with("!<") {
        &text[line_start..end]
    } else {
        text[end..].lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("")
    };
    let code = code.split("/*").next().unwrap_or("");
    out.extend(
        code.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.len() > 2 && !w.starts_with(|c: char| c.is_ascii_digit())),
    );
    out
}

/// The headers of every pregenerated release, fetched where the cache lacks
/// them (a fresh clone): `cuda.h`, the interop headers beside it, and the
/// Direct3D ones of the Windows wheel, as one text per release.
pub fn headers() -> Vec<(String, String)> {
    use crate::headers::{include_dir, include_dir_for, Platform};
    let mut out = Vec::new();
    for (release, _) in crate::pregenerate::releases().unwrap() {
        let dotted = crate::pregenerate::dotted(release);
        let dir = include_dir(&dotted).unwrap_or_else(|e| panic!("{dotted}: {e}"));
        let windows = include_dir_for(&dotted, Platform::WindowsX86_64)
            .unwrap_or_else(|e| panic!("{dotted} (Windows): {e}"));
        let d3d = ["cudaD3D9.h", "cudaD3D10.h", "cudaD3D11.h"].map(|h| windows.join(h));
        let text: String = ["cuda.h", "cudaGL.h", "cudaEGL.h", "cudaVDPAU.h"]
            .iter()
            .map(|h| dir.join(h))
            .chain(d3d)
            .map(|h| std::fs::read_to_string(&h).unwrap_or_else(|e| panic!("{}: {e}", h.display())))
            .collect();
        out.push((dotted, text));
    }
    out
}

/// NVIDIA's text, as runs: each item's own (by its name: `cuMemAlloc`,
/// `CU_STREAM_NON_BLOCKING`, `srcPitch`, `CUDA_MEM`) and all of it.
#[derive(Default)]
pub struct Theirs {
    /// Each comment's text, numbered: most are the same in every release,
    /// and their runs are cut once.
    comments: HashMap<String, usize>,
    /// The comments documenting each item (by its family).
    documents: HashMap<String, HashSet<usize>>,
    /// Every run of [`OWN`] words, with the comments it is in.
    own: HashMap<String, Vec<usize>>,
    /// Every run of [`ANY`] words.
    any: HashSet<String>,
}

impl Theirs {
    pub fn add_header(&mut self, text: &str) {
        use libcuda_sys_build::sentences::family;
        for (comment, end) in comments(text) {
            let id = match self.comments.get(comment) {
                Some(&id) => id,
                None => {
                    let id = self.comments.len();
                    self.comments.insert(comment.to_string(), id);
                    let words = words(&reader(comment));
                    self.any.extend(runs(&words, ANY));
                    for run in runs(&words, OWN) {
                        self.own.entry(run).or_default().push(id);
                    }
                    id
                }
            };
            for subject in subjects(text, comment, end) {
                self.documents.entry(family(subject).to_string()).or_default().insert(id);
            }
        }
    }

    /// What `text` of ours (documenting `item`, where it documents one) shares
    /// with NVIDIA's: each run, and what kind; `strict`, any run of [`OWN`]
    /// words shared with any comment too.
    pub fn copies(&self, item: Option<&str>, text: &str, strict: bool) -> Vec<String> {
        use libcuda_sys_build::sentences::family;
        let words = words(&visible(text));
        let mut out = Vec::new();
        if let Some(documents) = item.and_then(|i| self.documents.get(family(i))) {
            let own = |r: &String| {
                self.own.get(r).is_some_and(|ids| ids.iter().any(|id| documents.contains(id)))
            };
            out.extend(runs(&words, OWN).filter(own).map(|r| format!("its own: `{r}`")));
        }
        out.extend(
            runs(&words, ANY)
                .filter(|r| self.any.contains(r) && !ALLOWED.iter().any(|(a, _)| a == r))
                .map(|r| format!("a comment's: `{r}`")),
        );
        if strict {
            let shared = runs(&words, OWN).filter(|r| self.own.contains_key(r));
            out.extend(shared.map(|r| format!("a comment's (strict table): `{r}`")));
        }
        out
    }
}

/// Every text of ours, `(where, item, text)`: the item is what the text
/// documents, where it documents one (a table's first column, as it names it:
/// `CUDA_MEMCPY2D_st.srcPitch` documents `srcPitch`).
pub fn ours() -> Vec<(String, Option<String>, String)> {
    let root = crate::root();
    let read = |p: &std::path::Path| {
        std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    };
    // The files of `build-logic/sentences/` whose names end in `.ext`.
    let sentences = |ext: &str| -> Vec<std::path::PathBuf> {
        let dir = std::fs::read_dir(root.join("build-logic/sentences")).unwrap();
        let paths = dir.map(|e| e.unwrap().path());
        paths.filter(|p| p.extension().is_some_and(|x| x == ext)).collect()
    };
    let mut out = Vec::new();
    // The tables: each row's columns after the first, its item.
    let mut tables = sentences("txt");
    tables.push(root.join("pregenerated/groups.txt"));
    tables.sort();
    for path in tables {
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        for line in read(&path).lines().filter(|l| !l.starts_with(['#', '/'])) {
            let mut columns = line.split('\t');
            let item = columns.next().unwrap_or_default();
            let item = item.rsplit('.').next().unwrap_or(item).to_string();
            for text in columns {
                out.push((format!("{name} {item}"), Some(item.clone()), text.to_string()));
            }
        }
    }
    // sentences.rs and its modules: their string literals; one that is a name,
    // the item of the next.
    let mut sources = sentences("rs");
    sources.push(root.join("build-logic/sentences.rs"));
    sources.sort();
    for path in sources {
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let mut item: Option<String> = None;
        for literal in literals(&read(&path)) {
            let is_name = !literal.is_empty()
                && literal.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if is_name {
                item = Some(literal);
                continue;
            }
            out.push((name.clone(), item.take(), literal));
        }
    }
    // The crate docs: each file's doc comments, paragraph by paragraph.
    let mut sources: Vec<_> = std::fs::read_dir(root.join("src"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    sources.sort();
    for path in sources {
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let docs: String = read(&path)
            .lines()
            .map(str::trim_start)
            .filter_map(|l| l.strip_prefix("//!").or_else(|| l.strip_prefix("///")))
            .map(|l| format!("{}\n", l.trim()))
            .collect();
        out.extend(docs.split("\n\n").map(|p| (name.clone(), None, p.to_string())));
    }
    for md in ["README.md", "docs/troubleshooting.md", "docs/platforms.md"] {
        for p in read(&root.join(md)).split("\n\n") {
            out.push((md.to_string(), None, p.to_string()));
        }
    }
    out
}

/// The string literals of Rust source, each with its escapes and line
/// continuations read.
fn literals(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = source.chars().peekable();
    let mut in_comment = false;
    while let Some(c) = chars.next() {
        match c {
            '\n' => in_comment = false,
            '/' if chars.peek() == Some(&'/') => in_comment = true,
            '"' if !in_comment => {
                let mut s = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => match chars.next() {
                            Some('\n') => {
                                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                                    chars.next();
                                }
                            }
                            Some('n') => s.push('\n'),
                            Some('t') => s.push('\t'),
                            Some(other) => s.push(other),
                            None => {}
                        },
                        c => s.push(c),
                    }
                }
                out.push(s);
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text of this crate's against every comment of every pregenerated
    /// release's headers, fetched where missing.
    #[test]
    fn every_text_of_ours_is_in_our_own_words() {
        let headers = headers();
        let mut theirs = Theirs::default();
        for (_, text) in &headers {
            theirs.add_header(text);
        }
        let ours = ours();
        let mut copied = Vec::new();
        for (place, item, text) in &ours {
            let strict =
                STRICT.iter().any(|t| place.starts_with(&format!("build-logic/sentences/{t} ")));
            for copy in theirs.copies(item.as_deref(), text, strict) {
                copied.push(format!("{place}: {copy}"));
            }
        }
        assert!(
            copied.is_empty(),
            "{} runs of NVIDIA's words (own item {OWN}, any comment {ANY}):\n{}",
            copied.len(),
            copied.join("\n")
        );
        println!(
            "{} texts of ours against the comments of {} releases' headers",
            ours.len(),
            headers.len()
        );
    }

    /// The comparison is with what a reader reads: a copied sentence is found
    /// whatever doxygen commands NVIDIA's text has in it, and whatever a
    /// reader of ours cannot see (a soft hyphen, a zero-width space, an HTML
    /// comment, emphasis or a code span inside a word).
    #[test]
    fn a_copy_is_found_through_markup_either_side() {
        let header = "/**\n * \\brief Creates a stream\n *\n * Creates a stream and returns a handle \
                      in \\p phStream. The \\p Flags argument determines behaviors of the stream.\n */\n\
                      CUresult CUDAAPI cuStreamCreate(CUstream *phStream, unsigned int Flags);\n\
                      CUresult CUDAAPI cuInit(unsigned int Flags);\n";
        let mut theirs = Theirs::default();
        theirs.add_header(header);
        let pasted = "the Flags argument determines behaviors of the stream";
        // Into its own function's line: both rules.
        let copies = theirs.copies(Some("cuStreamCreate"), pasted, false);
        assert_eq!(copies.len(), 4 + 1, "{copies:?}");
        // Into another function's line: the run of eight.
        assert_eq!(theirs.copies(Some("cuInit"), pasted, false).len(), 1);
        for hidden in [
            "the Flags argu\u{ad}ment determines behaviors of the stream",
            "the Flags argu\u{200b}ment determines behav\u{2060}iors of the stream",
            "the Flags argu<!-- -->ment determines *behaviors* of the stream",
            "the `Flags` argu*ment* determines behav`iors` of the stream",
        ] {
            assert_eq!(theirs.copies(Some("cuInit"), hidden, false).len(), 1, "{hidden}");
        }
        assert!(theirs
            .copies(Some("cuStreamCreate"), "Makes a stream; see `phStream`.", true)
            .is_empty());
        // A strict table's line: five words of any comment are a copy.
        let five = "returns a handle in phStream";
        assert!(theirs.copies(Some("cuInit"), five, false).is_empty());
        assert_eq!(theirs.copies(Some("cuInit"), five, true).len(), 1);
        assert!(reader("\\param[out] ptr - x ::CUDA_SUCCESS").contains(" ptr - x  CUDA_SUCCESS"));
    }

    /// A trailing comment documents the names on its line; one before code,
    /// the names on the next line of code; a group command, its group.
    #[test]
    fn each_comment_documents_its_items() {
        let text = "/** \\defgroup CUDA_MEM Memory */\ntypedef enum X_enum {\n    A_ONE = 1, /**< First */\n    \
                    /** Second */\n    A_TWO = 2\n} X;\n";
        let found: Vec<(String, Vec<&str>)> = comments(text)
            .into_iter()
            .map(|(c, end)| (c.trim().to_string(), subjects(text, c, end)))
            .collect();
        assert_eq!(found[0].1, ["CUDA_MEM", "typedef", "enum", "X_enum"]);
        assert_eq!(found[1].1, ["A_ONE"]);
        assert_eq!(found[2].1, ["A_TWO"]);
        assert_eq!(literals("(\"A\", \"one \\\n     two\"), // \"not\"\n"), ["A", "one two"]);
        assert_eq!(visible("a<!-- x -->b\u{ad}c `d`e *f*g"), "abc de fg");
    }
}
