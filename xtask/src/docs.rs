//! The docs check: rustdoc's pages of libcuda-sys, as users read them, in
//! both modes (docs.rs's pregenerated bindings, and bindings generated from
//! CUDA 13.0 headers). It fails on a function page without this crate's
//! summary first, a leaked `<` (doxygen's trailing-member marker), a doubled
//! dash or a description twice, a renamed function without the header's text
//! (generated mode), an attribute getter or setter without its link to the
//! value types, an anonymous type that does not name its parent, and "enum
//! enum" or "1 bytes"; and it counts the pages with result codes and with
//! their page of NVIDIA's reference.

use std::path::Path;

use crate::Result;

/// Which bindings the pages document.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// docs.rs: the pregenerated set, none of the header's text.
    DocsRs,
    /// Generated from headers: the header's text after ours.
    Generated,
}

/// Checks the pages in `doc` (`target/doc/libcuda_sys`) of the bindings whose
/// build script wrote its tables into `out_dir`; the counts, or every defect.
pub fn check(doc: &Path, out_dir: &Path, mode: Mode) -> Result<String> {
    let table = |name: &str| {
        let path = out_dir.join("tables").join(name);
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let typed = libcuda_sys_build::tables::read_value_types(&table("value_types.txt")?)?;
    let renames: Vec<(String, String)> =
        libcuda_sys_build::tables::read_renames(&table("renames.txt")?)?
            .into_iter()
            .map(|r| (r.plain, r.target))
            .collect();
    let mut defects: Vec<String> = Vec::new();
    let (mut functions, mut summarized, mut coded, mut linked, mut anonymous) = (0, 0, 0, 0, 0);
    let mut pages: Vec<_> = std::fs::read_dir(doc)
        .map_err(|e| format!("{}: {e}", doc.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    for path in &pages {
        let file = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
        let html = std::fs::read_to_string(path).map_err(|e| format!("{file}: {e}"))?;
        let blocks = docblocks(&html);
        let text: Vec<&String> = blocks.iter().flatten().collect();
        if let Some(p) = text.iter().find(|p| p.starts_with('<')) {
            defects.push(format!("{file}: a leaked `<`: {}", cut(p)));
        }
        for bad in ["enum enum", " 1 bytes"] {
            if let Some(p) = text.iter().find(|p| p.contains(bad)) {
                defects.push(format!("{file}: `{bad}`: {}", cut(p)));
            }
        }
        // The item's own text (its first block, list items too): no argument
        // with two dashes, its first paragraph not again.
        let own = html.split("<div class=\"docblock").nth(1).map(block).unwrap_or_default();
        let own_text: String = strip_tags(own).split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(at) = own_text.find(" - - ") {
            defects.push(format!(
                "{file}: a doubled dash: {}",
                cut(&own_text[at.saturating_sub(40)..])
            ));
        }
        if let Some([first, rest @ ..]) = blocks.first().map(Vec::as_slice) {
            if rest.contains(first) {
                defects.push(format!("{file}: its description twice: {}", cut(first)));
            }
        }
        if file.contains("__bindgen_ty_") {
            anonymous += 1;
            let named = text.iter().any(|p| p.contains(" C declares in"));
            if !named {
                defects.push(format!("{file}: an anonymous type that does not name its parent"));
            }
        }
        let Some(name) = file.strip_prefix("fn.").and_then(|f| f.strip_suffix(".html")) else {
            continue;
        };
        if !name.starts_with("cu") {
            continue;
        }
        functions += 1;
        let first = blocks.first().and_then(|b| b.first()).map(String::as_str).unwrap_or("");
        // A plain name's page shows the documentation of the function it is.
        let shown = renames.iter().find(|(p, _)| p == name).map_or(name, |(_, t)| t.as_str());
        match libcuda_sys_build::sentences::summary(shown) {
            Some(s) if same(first, s) => summarized += 1,
            Some(_) => defects.push(format!("{file}: the summary is not first: {}", cut(first))),
            None => defects.push(format!("{file}: no summary in build-logic/summaries.txt")),
        }
        if html.contains("#associatedconstant.CUDA_") {
            coded += 1;
        }
        if html.contains("https://docs.nvidia.com/cuda/cuda-driver-api/group__") {
            linked += 1;
        }
        let accessor = typed.iter().any(|t| t.getters.contains(&name.to_string()))
            || typed.iter().any(|t| t.setters.contains(&name.to_string()));
        if accessor && !html.contains("#value-types\"") {
            defects.push(format!("{file}: an attribute getter or setter without its value types"));
        }
        let renamed = renames.iter().any(|(p, t)| p == name || t == name);
        if mode == Mode::Generated && renamed && !html.contains("id=\"returns") {
            defects.push(format!("{file}: a renamed function without the header's text"));
        }
    }
    if functions < 400 {
        defects.push(format!("only {functions} function pages in {}", doc.display()));
    }
    if !defects.is_empty() {
        let n = defects.len();
        defects.truncate(20);
        return Err(format!("{n} defects, the first {}:\n{}", defects.len(), defects.join("\n")));
    }
    Ok(format!(
        "{functions} function pages: {summarized} with a summary, {coded} with result codes, \
         {linked} with their page of NVIDIA's reference; {anonymous} anonymous types, each \
         with its parent; no leaked `<`, doubled dash, description twice, \"enum enum\" or \"1 bytes\""
    ))
}

/// Whether the text of a page's paragraph is this Markdown's: rustdoc drops
/// the backticks and curls the quotes.
fn same(text: &str, markdown: &str) -> bool {
    let plain = |s: &str| -> String {
        s.replace(['`'], "")
            .replace(['\u{2019}', '\u{2018}'], "'")
            .replace(['\u{201c}', '\u{201d}'], "\"")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    plain(text) == plain(markdown)
}

fn cut(text: &str) -> String {
    text.chars().take(100).collect()
}

/// The paragraphs of each docblock of a page, as text.
fn docblocks(page: &str) -> Vec<Vec<String>> {
    page.split("<div class=\"docblock").skip(1).map(|b| paragraphs(block(b))).collect()
}

/// A `<div>`'s content, up to its own `</div>`.
fn block(html: &str) -> &str {
    let mut depth = 0;
    let mut at = 0;
    while let Some(i) = html[at..].find("div") {
        let i = at + i;
        if html[..i].ends_with("</") {
            if depth == 0 {
                return &html[..i - 2];
            }
            depth -= 1;
        } else if html[..i].ends_with('<') {
            depth += 1;
        }
        at = i + 3;
    }
    html
}

/// The text of each `<p>` of an HTML fragment.
pub fn paragraphs(block: &str) -> Vec<String> {
    block
        .split("<p>")
        .skip(1)
        .map(|p| strip_tags(p.split("</p>").next().unwrap_or_default()))
        .collect()
}

/// The paragraphs of the first docblock after `id="{id}"`.
pub fn docblock(page: &str, id: &str) -> Option<Vec<String>> {
    let rest = &page[page.find(&format!("id=\"{id}\""))?..];
    Some(paragraphs(block(rest.split_once("<div class=\"docblock\">")?.1)))
}

/// The text of an HTML fragment, trimmed.
pub fn strip_tags(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every function any pregenerated release binds has this crate's summary,
    /// every versioned ABI its note, and every `CUresult` its meaning.
    #[test]
    fn every_function_and_result_of_every_release_is_explained() {
        use libcuda_sys_build::sentences::{abi_note, family, result, summary};
        let read = |name: &str| {
            std::fs::read_to_string(crate::root().join("pregenerated").join(name)).unwrap()
        };
        // cuda.h's functions, and every interop module's.
        let modules =
            libcuda_sys_build::interop::MODULES.map(|m| format!("{}/functions.rs", m.feature));
        let files: Vec<String> =
            std::iter::once("functions.rs".to_string()).chain(modules).map(|f| read(&f)).collect();
        let names: Vec<&str> = files
            .iter()
            .flat_map(|f| f.lines())
            .filter_map(|l| l.strip_prefix("pub fn "))
            .filter_map(|l| l.split('(').next())
            .collect();
        assert!(names.len() > 600, "{}", names.len());
        for name in &names {
            assert!(summary(name).is_some(), "{name}: no summary");
            if family(name) != name.trim_end_matches("_ptsz").trim_end_matches("_ptds") {
                assert!(abi_note(name).is_some(), "{name}: no note on its ABI");
            }
        }
        for module in ["cuGLGetDevices_v2", "cuVDPAUCtxCreate_v2", "cuD3D11CtxCreate_v2"] {
            assert!(names.contains(&module), "{module} is in no pregenerated module");
        }
        let types = read("types.rs");
        let codes: Vec<&str> = types
            .split("pub const ")
            .skip(1)
            .filter_map(|rest| rest.split_once(": cudaError_enum"))
            .map(|(name, _)| name)
            .collect();
        assert!(codes.len() > 100, "{}", codes.len());
        for code in codes {
            assert!(result(code).is_some_and(|(m, a)| !m.is_empty() && a.ends_with('.')), "{code}");
        }
    }

    /// No summary, note or meaning of this crate shares a run of five words
    /// with NVIDIA's comment of that function (any release in the header cache)
    /// or with any `\brief` line: they are this crate's own words.
    #[test]
    fn the_summaries_are_our_own_words() {
        use libcuda_sys_build::make::reference::scan;
        use libcuda_sys_build::sentences::family;
        const RUN: usize = 5;
        let words = |text: &str| -> Vec<String> {
            text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .map(str::to_ascii_lowercase)
                .collect()
        };
        let runs = |text: &str| -> std::collections::BTreeSet<Vec<String>> {
            words(text).windows(RUN).map(<[String]>::to_vec).collect()
        };
        let mut theirs: std::collections::BTreeMap<
            String,
            std::collections::BTreeSet<Vec<String>>,
        > = Default::default();
        let mut briefs = std::collections::BTreeSet::new();
        let mut read = 0;
        for (release, _) in crate::pregenerate::releases().unwrap() {
            let dotted = crate::pregenerate::dotted(release);
            if crate::headers::needs_fetch(&dotted) {
                continue;
            }
            let dir = crate::headers::include_dir(&dotted).unwrap();
            // cuda.h, and the interop headers beside it (the `gl`, `egl`, `vdpau`
            // modules), and the Direct3D ones of the Windows wheel where cached.
            let windows = crate::headers::cached_include_dir_for(
                &dotted,
                crate::headers::Platform::WindowsX86_64,
            );
            let d3d = ["cudaD3D9.h", "cudaD3D10.h", "cudaD3D11.h"];
            let text: String = ["cuda.h", "cudaGL.h", "cudaEGL.h", "cudaVDPAU.h"]
                .iter()
                .map(|h| dir.join(h))
                .chain(windows.iter().flat_map(|w| d3d.map(|h| w.join(h))))
                .filter_map(|h| std::fs::read_to_string(h).ok())
                .collect();
            let scanned = scan(&text);
            for f in &scanned.reference.functions {
                if let Some(c) = scanned.comment(&f.name) {
                    theirs.entry(family(&f.name).to_string()).or_default().extend(runs(c));
                }
            }
            for line in text
                .lines()
                .filter_map(|l| l.trim_start_matches([' ', '*']).strip_prefix("\\brief"))
            {
                briefs.extend(runs(line));
            }
            read += 1;
        }
        if read == 0 {
            testkit::skip(
                "no release's headers are in the cache: `cargo xtask headers 13.5` fetches them",
            );
            return;
        }
        let ours = ["summaries.txt", "results.txt"]
            .map(|f| std::fs::read_to_string(crate::root().join("build-logic").join(f)).unwrap());
        let mut checked = 0;
        for line in ours.iter().flat_map(|t| t.lines()).filter(|l| !l.starts_with('#')) {
            let (name, text) = line.split_once('\t').unwrap();
            let own = theirs.get(family(name));
            for run in runs(text) {
                let shared = own.is_some_and(|t| t.contains(&run)) || briefs.contains(&run);
                assert!(!shared, "{name}: `{}` is NVIDIA's", run.join(" "));
            }
            checked += 1;
        }
        println!("{checked} lines of ours against the comments of {read} releases' headers");
    }

    #[test]
    fn a_block_ends_at_its_own_div() {
        let page =
            "<div class=\"docblock\"><p>one</p><div><p>two</p></div><p>three</p></div><p>out</p>";
        assert_eq!(docblocks(page), [["one", "two", "three"]]);
        assert!(same("It\u{2019}s `x`", "It's `x`"));
    }
}
