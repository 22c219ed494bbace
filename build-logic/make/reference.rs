//! The facts of NVIDIA's documentation in `cuda.h`, read from its doxygen
//! markup: the group each function is declared in (a page of NVIDIA's online
//! reference), the result codes its `\return` list names, the functions its
//! `\sa` list names and the direction of each parameter its `\param` list
//! documents. Also each function's comment itself, for the functions
//! whose comment bindgen loses: libclang attaches no comment to a declaration
//! whose name a macro rewrites (`cuMemAlloc`, which `#define cuMemAlloc
//! cuMemAlloc_v2` renames).
//!
//! The header is read as text, not through the preprocessor: doxygen's
//! markup lives in comments, which the preprocessor drops. A declaration
//! is `CUresult CUDAAPI name(`, after `__CUDA_DEPRECATED` or a line break;
//! its comment is the `/** ... */` just before it, with nothing but blanks
//! and those words between. The first declaration of a name counts, and only
//! one in a group or with a comment, so that the legacy section at the end of
//! `cuda.h` (undocumented prototypes of the old ABIs) adds nothing.

use std::collections::BTreeMap;

use crate::model::{Direction, Documented, Reference};

/// What [`scan`] finds.
pub struct Scanned {
    pub reference: Reference,
    /// Each documented function's comment, as bindgen hands comments on
    /// (`comment_text`): for the renamed functions.
    comments: BTreeMap<String, String>,
}

impl Scanned {
    /// The comment of the function the header declares as `name`.
    pub fn comment(&self, name: &str) -> Option<&str> {
        self.comments.get(name).map(String::as_str)
    }

    /// Every function's comment, in the header's order.
    pub fn comments(&self) -> impl DoubleEndedIterator<Item = &str> {
        self.reference.functions.iter().filter_map(|f| self.comment(&f.name))
    }
}

/// The facts of every function `text` (a header) declares.
pub fn scan(text: &str) -> Scanned {
    let mut reference = Reference::default();
    let mut comments = BTreeMap::new();
    // The groups open at this point (`@{` ... `@}`), innermost last, and the
    // group a `\defgroup`/`\addtogroup` named that no `@{` has opened yet.
    let mut open: Vec<String> = Vec::new();
    let mut named: Option<String> = None;
    // The last comment, and where it ends.
    let mut last: Option<(&str, usize)> = None;
    let mut at = 0;
    while at < text.len() {
        let rest = &text[at..];
        if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(text.len(), |e| at + e + 2);
            let comment = &text[at..end];
            for line in comment.lines() {
                if let Some((command, id)) = group_command(line) {
                    if command == "defgroup" && !reference.groups.contains(&id) {
                        reference.groups.push(id.clone());
                    }
                    named = Some(id);
                }
                // `@{` opens the group named last; `@}` closes the innermost.
                for (i, _) in line.match_indices('@') {
                    match line[i + 1..].chars().next() {
                        Some('{') => open.extend(named.take()),
                        Some('}') => drop(open.pop()),
                        _ => {}
                    }
                }
            }
            // A comment of group markup (`/** @} */`) documents no function.
            let markup = comment.contains("@{")
                || comment.contains("@}")
                || comment.lines().any(|l| group_command(l).is_some());
            last = (comment.starts_with("/**") && !markup).then_some((comment, end));
            at = end;
        } else if rest.starts_with("//") {
            at += rest.find('\n').unwrap_or(rest.len());
        } else if let Some((name, start)) = declaration(rest) {
            let attached = last
                .filter(|(_, end)| {
                    text[*end..at + start].split_whitespace().all(|w| w == "__CUDA_DEPRECATED")
                })
                .map(|(c, _)| c);
            let group = open.last().cloned();
            // Only a function with something to say: not the legacy prototypes.
            let new = !reference.functions.iter().any(|f| f.name == name);
            if new && (group.is_some() || attached.is_some()) {
                let facts = attached.map(facts).unwrap_or_default();
                reference.functions.push(Documented {
                    name: name.to_string(),
                    group,
                    returns: facts.0,
                    refers: facts.1,
                    params: attached.map(directions).unwrap_or_default(),
                });
                if let Some(c) = attached {
                    comments.insert(name.to_string(), comment_text(c));
                }
            }
            last = None;
            at += rest.find(';').unwrap_or(rest.len());
        } else {
            // Nothing starts here: on to the next line or comment.
            let next = rest.char_indices().skip(1).find(|(_, c)| matches!(c, '\n' | '/'));
            at += next.map_or(rest.len(), |(i, _)| i);
        }
    }
    reference.pages = pages(text);
    Scanned { reference, comments }
}

/// `(tag, page)` of each `typedef struct TAG { ... } NAME;` (or `union`):
/// doxygen documents it under `NAME`, each `_` of it doubled in the page's name.
fn pages(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for kind in ["struct", "union"] {
        let marker = format!("typedef {kind} ");
        for (at, _) in text.match_indices(&marker) {
            let rest = &text[at + marker.len()..];
            let tag: &str =
                rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or("");
            let body = rest[tag.len()..].trim_start();
            if tag.is_empty() || !body.starts_with('{') {
                continue;
            }
            let Some(close) = closing_brace(body) else { continue };
            let name = body[close + 1..].trim_start();
            let name: &str =
                name.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or("");
            if !name.is_empty() && !out.iter().any(|(t, _)| t == tag) {
                out.push((tag.to_string(), format!("{kind}{}", name.replace('_', "__"))));
            }
        }
    }
    out
}

/// Where the brace that opens `text` closes, comments skipped. Byte by byte:
/// the text may hold any character (a comment's `’`), and the braces and
/// comment marks are ASCII, never part of another character in UTF-8.
fn closing_brace(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        if rest.starts_with(b"/*") {
            at += rest.windows(2).position(|w| w == b"*/")? + 2;
            continue;
        }
        if rest.starts_with(b"//") {
            at += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            continue;
        }
        match rest[0] {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// `(command, group)` of a `\\defgroup ID Title` or `\\addtogroup ID` line
/// (the title is NVIDIA's text: this crate gives its own, `sentences::group`).
fn group_command(line: &str) -> Option<(&'static str, String)> {
    let line = line.trim_start_matches([' ', '\t', '*', '/']);
    ["defgroup", "addtogroup"].into_iter().find_map(|command| {
        let rest = line.strip_prefix('\\')?.strip_prefix(command)?.trim();
        let id = rest.split(char::is_whitespace).next().unwrap_or(rest);
        Some((command, id.to_string()))
    })
}

/// The name of the function `text` starts by declaring, and where the
/// declaration starts: `[__CUDA_DEPRECATED] CUresult CUDAAPI name(`.
fn declaration(text: &str) -> Option<(&str, usize)> {
    let start = text.len() - text.trim_start().len();
    let mut words = text[start..].split_whitespace();
    let mut word = words.next()?;
    if word == "__CUDA_DEPRECATED" {
        word = words.next()?;
    }
    if word != "CUresult" || words.next()? != "CUDAAPI" {
        return None;
    }
    let name = words.next()?;
    let name = &name[..name.find('(')?];
    let rest = text[start..].split_once(name)?.1.trim_start();
    (rest.starts_with('(') && !name.is_empty()).then_some((name, start))
}

/// `(returns, refers)` of a comment: the `::CUDA_*` codes after `\return`,
/// and the `::cu*` functions after `\sa`, each up to the next command.
fn facts(comment: &str) -> (Vec<String>, Vec<String>) {
    let section = |command: &str| -> String {
        let mut text = String::new();
        for part in comment.split('\\').skip(1) {
            let word = part.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
            if word == command || word == format!("{command}s") {
                text.push_str(&part[word.len()..]);
                text.push(' ');
            }
        }
        text
    };
    let names = |text: &str, wanted: &dyn Fn(&str) -> bool| {
        let mut out: Vec<String> = Vec::new();
        for name in text.split("::").skip(1) {
            let end = name.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
            let name = &name[..end.unwrap_or(name.len())];
            if wanted(name) && !out.iter().any(|n| n == name) {
                out.push(name.to_string());
            }
        }
        out
    };
    let code = |n: &str| n == "CUDA_SUCCESS" || n.starts_with("CUDA_ERROR_");
    // A driver function: `cu` and a capital (`cudaMalloc` is the runtime's).
    let function =
        |n: &str| n.starts_with("cu") && n[2..].starts_with(|c: char| c.is_ascii_uppercase());
    (names(&section("return"), &code), names(&section("sa"), &function))
}

/// The direction of each parameter a comment's `\\param` lines document:
/// `\\param[out] name`, or `\\param name - Returned ...` (the header's way of
/// naming what a call writes). A parameter documented otherwise is left out.
fn directions(comment: &str) -> Vec<(String, Direction)> {
    let mut out = Vec::new();
    for part in comment.split("\\param").skip(1) {
        let (marker, rest) = match part.strip_prefix('[') {
            Some(r) => r.split_once(']').unwrap_or(("", r)),
            None => ("", part),
        };
        let mut words = rest.split_whitespace();
        let Some(name) = words.next() else { continue };
        let first = words.find(|w| *w != "-").unwrap_or("");
        let direction = match marker.replace(' ', "").as_str() {
            "in" => Some(Direction::In),
            "out" => Some(Direction::Out),
            "in,out" | "inout" => Some(Direction::InOut),
            _ if first == "Returned" || first == "Returns" => Some(Direction::Out),
            _ => None,
        };
        let name = name.trim_end_matches([',', ':']);
        if let Some(d) = direction.filter(|_| !out.iter().any(|(n, _)| n == name)) {
            out.push((name.to_string(), d));
        }
    }
    out
}

/// A comment as bindgen hands it to its callbacks: without `/**`, `*/` and
/// the `*` at the start of each line.
fn comment_text(comment: &str) -> String {
    let body = comment.trim_start_matches('/').trim_end_matches('/').trim_end_matches('*');
    let mut lines: Vec<&str> = body
        .lines()
        .map(|l| l.trim().trim_start_matches('*').trim_start_matches('!'))
        .skip_while(|l| l.trim().is_empty())
        .collect();
    if lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "
/**
 * \\defgroup CUDA_MEM Memory Management
 *
 * This section describes memory.
 * @{
 */
/**
 * \\brief Allocates.
 *
 * \\param dptr - Returned device pointer
 * \\param[in] bytesize - Requested size
 * \\param[in,out] state - Both ways
 * \\param other - A value
 *
 * \\return
 * ::CUDA_SUCCESS,
 * ::CUDA_ERROR_INVALID_VALUE
 * \\notefnerr
 *
 * \\sa ::cuMemFree,
 * ::cudaMalloc, ::cuMemFree
 */
CUresult CUDAAPI
cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
/** @} */ /* END CUDA_MEM */
/**
 * \\defgroup CUDA_OLD Old [DEPRECATED]
 * @{
 */
/** \\brief Old. \\returns ::CUDA_SUCCESS */
__CUDA_DEPRECATED CUresult CUDAAPI cuOld(int x);
/** @} */
CUresult CUDAAPI cuUndocumented(void);
typedef struct CUDA_MEMCPY2D_st {
    size_t srcXInBytes; /**< in bytes {not a brace} */
    union { int a; } u;
} CUDA_MEMCPY2D_v2;
typedef struct CUuuid_st CUuuid;
typedef union CUlaunchAttributeValue_union { int x; } CUlaunchAttributeValue;
#if defined(__CUDA_API_VERSION_INTERNAL)
    CUresult CUDAAPI cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize);
#endif
";

    /// A comment may hold a struct's declaration and any character after it
    /// (NVIDIA's 13.0 `cuda.h` has `typedef struct CUlaunchConfig_st {` in a
    /// sample and `’` in prose): the scan reads on, and finds the real ones.
    #[test]
    fn a_struct_in_a_comment_and_any_character_are_read_through() {
        let text = "/** e.g. typedef struct CUsample_st { int a; it’s … \u{e9} */\n\
                    typedef struct CUreal_st { int b; /* } ’ */ } CUreal;\n\
                    typedef struct CUopen_st { ’";
        assert_eq!(pages(text), [("CUreal_st".to_string(), "structCUreal".to_string())]);
        assert_eq!(closing_brace("} {"), None);
    }

    #[test]
    fn groups_returns_and_references_come_from_the_markup() {
        let s = scan(HEADER);
        assert_eq!(s.reference.groups, ["CUDA_MEM", "CUDA_OLD"]);
        let f = &s.reference.functions;
        let names: Vec<&str> = f.iter().map(|f| f.name.as_str()).collect();
        // Neither in a group nor documented: nothing to keep.
        assert_eq!(names, ["cuMemAlloc", "cuOld"]);
        assert_eq!(f[0].group.as_deref(), Some("CUDA_MEM"));
        assert_eq!(f[0].returns, ["CUDA_SUCCESS", "CUDA_ERROR_INVALID_VALUE"]);
        assert_eq!(f[0].refers, ["cuMemFree"]);
        let pages: Vec<(&str, &str)> =
            s.reference.pages.iter().map(|(t, p)| (t.as_str(), p.as_str())).collect();
        assert_eq!(
            pages,
            [
                ("CUDA_MEMCPY2D_st", "structCUDA__MEMCPY2D__v2"),
                ("CUlaunchAttributeValue_union", "unionCUlaunchAttributeValue")
            ]
        );
        let params: Vec<(&str, Direction)> =
            f[0].params.iter().map(|(n, d)| (n.as_str(), *d)).collect();
        let (i, o, io) = (Direction::In, Direction::Out, Direction::InOut);
        assert_eq!(params, [("dptr", o), ("bytesize", i), ("state", io)]);
        assert_eq!(f[1].group.as_deref(), Some("CUDA_OLD"));
        assert_eq!(f[1].returns, ["CUDA_SUCCESS"]);
        // As bindgen passes comments on: each line keeps its blank after the `*`.
        assert!(s
            .comment("cuMemAlloc")
            .unwrap()
            .starts_with(" \\brief Allocates.\n\n \\param dptr"));
        assert_eq!(s.comment("cuUndocumented"), None);
    }
}
