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

use libcuda_sys_build::pregenerated::Set;

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
/// build script ran in `out_dir`; the counts, or every defect.
pub fn check(doc: &Path, out_dir: &Path, mode: Mode) -> Result<String> {
    // The tables of the bindings documented: generated ones the build script
    // wrote out; docs.rs's are the pregenerated set's newest release.
    let newest = crate::pregenerate::releases()?.last().map(|r| r.0).ok_or("no release")?;
    let table = |name: &str| -> Result<String> {
        match mode {
            Mode::Generated => {
                let path = out_dir.join("tables").join(name);
                Ok(std::fs::read_to_string(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))?)
            }
            Mode::DocsRs => {
                let set = Set { crate_dir: &crate::root(), per_thread: false };
                Ok(set.section(name, newest).map_err(|e| e.to_string())?)
            }
        }
    };
    let typed = libcuda_sys_build::tables::read_value_types(&table("value_types.txt")?)?;
    let renames: Vec<(String, String)> =
        libcuda_sys_build::tables::read_renames(&table("renames.txt")?)?
            .into_iter()
            .map(|r| (r.plain, r.target))
            .collect();
    let mut defects: Vec<String> = Vec::new();
    let (mut functions, mut summarized, mut coded, mut linked, mut anonymous) = (0, 0, 0, 0, 0);
    let mut untyped = Untyped::default();
    // Enumerators of this crate's tables and array parameters: all, those whose line shows.
    let (mut enumerators, mut arrays) = ((0, 0), (0, 0));
    // The crate root's pages, and each interop module's.
    let modules = libcuda_sys_build::interop::MODULES.map(|m| doc.join(m.feature));
    let mut pages: Vec<_> = std::iter::once(doc.to_path_buf())
        .chain(modules.into_iter().filter(|d| d.is_dir()))
        .map(|dir| std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display())))
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .flatten()
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
        untyped.fields(&file, &html);
        // Each enumerator on its enum's page: its line of ours shown.
        for (at, _) in html.match_indices("id=\"associatedconstant.") {
            let rest = &html[at + "id=\"associatedconstant.".len()..];
            let name = &rest[..rest.find('"').unwrap_or(0)];
            let Some(line) = libcuda_sys_build::sentences::enumerator(name) else { continue };
            enumerators.0 += 1;
            let shown = docblock(&html, &format!("associatedconstant.{name}"));
            match shown.iter().flatten().any(|p| same_within(p, &cut(&markdown_text(line)))) {
                true => enumerators.1 += 1,
                false => defects.push(format!("{file}: {name} without its line")),
            }
        }
        // Each array parameter in its function's list, with its length.
        if let Some(name) = file.strip_prefix("fn.").and_then(|f| f.strip_suffix(".html")) {
            let shown = renames.iter().find(|(p, _)| p == name).map_or(name, |(_, t)| t.as_str());
            // The signature, where the parameters are named.
            let decl = html.split("item-decl").nth(1).and_then(|d| d.split("</pre>").next());
            let decl = strip_tags(decl.unwrap_or_default());
            for a in libcuda_sys_build::sentences::arrays().iter() {
                let family = libcuda_sys_build::sentences::family(shown);
                let declared =
                    decl.split(['(', ',', ' ', '\n']).any(|w| w == format!("{}:", a.parameter));
                if a.function != family || !declared {
                    continue;
                }
                arrays.0 += 1;
                // Its list item: `name`: length. Text.
                let line = format!("{}. {}", a.length(), cut(&markdown_text(a.text)));
                let start = format!("<li><code>{}</code>: ", a.parameter);
                let mut items = html
                    .split(&start)
                    .skip(1)
                    .map(|rest| strip_tags(rest.split("</li>").next().unwrap_or_default()));
                match items.any(|item| same_within(&item, &line)) {
                    true => arrays.1 += 1,
                    false => defects.push(format!("{file}: {} without its length", a.parameter)),
                }
            }
        }
        if file == "struct.CUjit_option.html" {
            untyped.options(&html);
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
            None => {
                defects.push(format!("{file}: no summary in build-logic/sentences/summaries.txt"))
            }
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
        untyped.parameters(name, &html, accessor, &mut defects);
        let renamed = renames.iter().any(|(p, t)| p == name || t == name);
        if mode == Mode::Generated && renamed && !html.contains("id=\"returns") {
            defects.push(format!("{file}: a renamed function without the header's text"));
        }
    }
    if functions < 400 {
        defects.push(format!("only {functions} function pages in {}", doc.display()));
    }
    // Every contract shows on the page of its item, where these bindings have it.
    let contracts =
        std::fs::read_to_string(crate::root().join("build-logic/sentences/contracts.txt"))
            .map_err(|e| format!("contracts.txt: {e}"))?;
    let mut shown = 0;
    for (item, text) in
        contracts.lines().filter(|l| !l.starts_with('#')).filter_map(|l| l.split_once('\t'))
    {
        let anchor = format!("id=\"associatedconstant.{item}\"");
        let page = [format!("fn.{item}.html"), format!("struct.{item}.html")]
            .iter()
            .map(|p| doc.join(p))
            .chain(
                pages
                    .iter()
                    .filter(|p| {
                        p.file_name().is_some_and(|f| f.to_string_lossy().starts_with("struct."))
                            && std::fs::read_to_string(p).is_ok_and(|h| h.contains(&anchor))
                    })
                    .cloned(),
            )
            .find(|p| p.exists());
        let Some(page) = page else { continue };
        let html =
            std::fs::read_to_string(&page).map_err(|e| format!("{}: {e}", page.display()))?;
        match same_within(&strip_tags(&html), &cut(&markdown_text(text))) {
            true => shown += 1,
            false => defects.push(format!("{item}: its contract is not on {}", page.display())),
        }
    }
    if !defects.is_empty() {
        let n = defects.len();
        defects.truncate(20);
        return Err(format!("{n} defects, the first {}:\n{}", defects.len(), defects.join("\n")));
    }
    Ok(format!(
        "{functions} function pages: {summarized} with a summary, {coded} with result codes, \
         {linked} with their page of NVIDIA's reference; {untyped}; enumerators: {} of {} with \
         this crate's line; array parameters: {} of {} with their length; contracts: {shown} \
         shown on their items' pages; {anonymous} anonymous types, \
         each with its parent; no leaked `<`, doubled dash, description twice, \"enum enum\" or \
         \"1 bytes\"",
        enumerators.1, enumerators.0, arrays.1, arrays.0
    ))
}

/// What the pages say of what C leaves untyped, counted out of all.
#[derive(Default)]
struct Untyped {
    /// Integer flags or mode parameters (`sentences::untyped`): all, those
    /// whose item links their enum or family, those reserved (pass 0).
    flags: (usize, usize, usize),
    /// `void *` parameters: all, those that say what they point to.
    pointers: (usize, usize),
    /// Named fields of structs and unions: all, those with this crate's line.
    fields: (usize, usize),
    /// `CUjit_option`'s options (not its end marker): all, those with a value type.
    options: (usize, usize),
}

impl Untyped {
    /// A function page's parameters: each untyped one's list item, as the
    /// page shows it; one `params.txt` has a row for but the page lacks is a defect.
    fn parameters(
        &mut self,
        function: &str,
        html: &str,
        accessor: bool,
        defects: &mut Vec<String>,
    ) {
        let signature = html.split("<pre class=\"rust item-decl\"><code>").nth(1).unwrap_or("");
        let signature = strip_tags(signature.split("</code></pre>").next().unwrap_or(""));
        let Some(args) = signature.split_once('(').and_then(|(_, a)| a.rsplit_once(')')) else {
            return;
        };
        for (name, ty) in args.0.split(',').filter_map(|a| a.split_once(':')) {
            let name = name.trim();
            if !libcuda_sys_build::sentences::untyped(name, ty) {
                continue;
            }
            // Its list item: `name: ...` or `name (read by the driver): ...`.
            let item =
                html.split("<li>").skip(1).map(|i| i.split("</li>").next().unwrap_or("")).find(
                    |i| {
                        let text = strip_tags(i);
                        text.strip_prefix(name)
                            .is_some_and(|rest| rest.starts_with(':') || rest.starts_with(" ("))
                    },
                );
            let row = libcuda_sys_build::sentences::param(function, name);
            if row.is_some_and(|p| !p.text.is_empty() || p.family().is_some()) && item.is_none() {
                defects.push(format!("fn.{function}.html: no item for its parameter `{name}`"));
            }
            if ty.contains("c_void") {
                self.pointers.0 += 1;
                // An attribute's value: the lines of its value types say what it points to.
                let said =
                    item.is_some_and(|i| !strip_tags(i).trim_start_matches(':').trim().is_empty());
                self.pointers.1 += usize::from(said || accessor);
            } else {
                self.flags.0 += 1;
                let linked =
                    item.is_some_and(|i| ["struct.", "constant."].iter().any(|k| i.contains(k)));
                self.flags.1 += usize::from(linked);
                let reserved = |i: &str| i.contains("reserved: pass 0") || i.contains("(reserved)");
                self.flags.2 += usize::from(item.is_some_and(reserved));
            }
        }
    }

    /// A struct's or union's page: its named fields, and those with this crate's line.
    fn fields(&mut self, file: &str, html: &str) {
        // The driver's records (`CUDA_MEMCPY2D_st`, `CUlaunchAttributeValue_union`),
        // not the crate's own (`ValueType`).
        let driver = ["struct.CU", "union.CU"].iter().any(|p| file.starts_with(p));
        if !driver {
            return;
        }
        for part in html.split("id=\"structfield.").skip(1) {
            let name = part.split('"').next().unwrap_or("");
            if name.starts_with('_') || name.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            self.fields.0 += 1;
            // Its docblock, before the next field's.
            let own = part.split("id=\"structfield.").next().unwrap_or("");
            let text = plain(&strip_tags(own));
            let ours = fields_text().iter().any(|line| text.contains(line.as_str()));
            self.fields.1 += usize::from(ours);
        }
    }

    /// `CUjit_option`'s page: each option, and those whose line gives the value type of its slot.
    fn options(&mut self, html: &str) {
        for part in html.split("id=\"associatedconstant.").skip(1) {
            let name = part.split('"').next().unwrap_or("");
            if name.ends_with("NUM_OPTIONS") {
                continue;
            }
            self.options.0 += 1;
            let own = part.split("id=\"associatedconstant.").next().unwrap_or("");
            self.options.1 += usize::from(own.contains("In its slot of the values array"));
        }
    }
}

impl std::fmt::Display for Untyped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (flags, pointers, fields, options) =
            (self.flags, self.pointers, self.fields, self.options);
        write!(
            f,
            "{} of {} flags parameters name their enum or family ({} more are reserved, pass 0); \
             {} of {} `void *` parameters say what they point to; {} of {} struct fields have \
             this crate's line; {} of {} `CUjit_option` values have a value type",
            flags.1,
            flags.0,
            flags.2,
            pointers.1,
            pointers.0,
            fields.1,
            fields.0,
            options.1,
            options.0
        )
    }
}

/// The lines of `fields.txt` as [`plain`] text, read once.
fn fields_text() -> &'static [String] {
    static LINES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    LINES.get_or_init(|| {
        let text = std::fs::read_to_string(crate::root().join("build-logic/sentences/fields.txt"))
            .unwrap_or_default();
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| Some(plain(l.split_once('\t')?.1)))
            .collect()
    })
}

/// Whether the page's `text` holds this Markdown `line`, as rustdoc renders it.
fn same_within(text: &str, line: &str) -> bool {
    plain(text).contains(&plain(line))
}

/// The text Markdown shows: a link's words without its brackets and target
/// (`[words](target)`, `` [`item`] ``); other brackets are text.
fn markdown_text(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut rest = markdown;
    while let Some(at) = rest.find("](") {
        let words = &rest[..at];
        match words.rfind('[') {
            Some(open) => out.push_str(&format!("{}{}", &words[..open], &words[open + 1..])),
            None => out.push_str(words),
        }
        rest = rest[at + 2..].split_once(')').map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out.replace("[`", "`").replace("`]", "`")
}

/// Whether the text of a page's paragraph is this Markdown's.
fn same(text: &str, markdown: &str) -> bool {
    plain(text) == plain(markdown)
}

/// Text as rustdoc shows Markdown: without the backticks, the quotes and
/// ellipses it makes typographic written back, one blank between words.
fn plain(s: &str) -> String {
    s.replace(['`'], "")
        .replace(['\u{2019}', '\u{2018}'], "'")
        .replace(['\u{201c}', '\u{201d}'], "\"")
        .replace('\u{2026}', "...")
        .replace('\u{2013}', "--")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
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
    use crate::own_words::headers;

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

    /// Every parameter C leaves untyped (`sentences::untyped`) of every function of
    /// every pregenerated release has its row of `params.txt`, every row names a
    /// parameter of some release, and the enum or `#define` family a row names is
    /// one that the header's documentation of that function, or of a function
    /// it refers to, names: by the enum's name or one of its values.
    #[test]
    fn every_untyped_parameter_has_its_row_and_each_family_is_the_headers() {
        use libcuda_sys_build::sentences::{family, param, params, untyped};
        let read =
            |f: &str| std::fs::read_to_string(crate::root().join("pregenerated").join(f)).unwrap();
        let (mut missing, mut seen) = (Vec::new(), std::collections::BTreeSet::new());
        for text in in_every_release("functions.rs", &[false, true]) {
            for (name, params) in declarations(&text) {
                for (p, ty) in params {
                    seen.insert((family(name).to_string(), p.to_string()));
                    if untyped(p, &ty) && param(name, p).is_none() {
                        missing.push(format!("{name} {p}"));
                    }
                }
            }
        }
        missing.sort();
        missing.dedup();
        assert!(missing.is_empty(), "untyped parameters without a row of params.txt: {missing:?}");
        // The families: named where the header documents the function.
        let headers = headers();
        let mut docs: std::collections::BTreeMap<String, String> = Default::default();
        for (_, text) in &headers {
            let scanned = libcuda_sys_build::make::reference::scan(text);
            for f in &scanned.reference.functions {
                let c = scanned.comment(&f.name).unwrap_or_default().to_string();
                let entry = docs.entry(family(&f.name).to_string()).or_default();
                entry.push_str(&c);
                // What the functions it refers to say counts too (`\\sa ::cuCtxCreate`,
                // `see ::cuCtxCreate()`).
                let named = c.split("::cu").skip(1).filter_map(|n| {
                    let end = n.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
                    Some(format!("cu{}", &n[..end]))
                });
                for r in f.refers.iter().cloned().chain(named) {
                    if let Some(c) = scanned.comment(&r) {
                        entry.push_str(c);
                    }
                }
            }
        }
        let types: String = ["types.rs".to_string(), "macro_constants.rs".to_string()]
            .into_iter()
            .chain(libcuda_sys_build::interop::MODULES.map(|m| format!("{}/types.rs", m.feature)))
            .map(|f| read(&f))
            .collect();
        let mut unsupported = Vec::new();
        for p in params() {
            assert!(
                seen.contains(&(p.function.to_string(), p.parameter.to_string())),
                "{} {}: no such parameter",
                p.function,
                p.parameter
            );
            let Some(named) = p.family() else { continue };
            let doc = docs.get(p.function).map_or("", String::as_str);
            let says = match named.strip_suffix('*') {
                Some(prefix) => doc.contains(prefix),
                // The enum, or any of its values (`CU_STREAM_NON_BLOCKING`).
                None => {
                    doc.contains(named) || enumerators_of(&types, named).any(|e| doc.contains(e))
                }
            };
            if !says {
                unsupported.push(format!("{} {}: {named}", p.function, p.parameter));
            }
        }
        assert!(unsupported.is_empty(), "families the header does not name there: {unsupported:?}");
        println!("{} rows, each family named by its function's documentation", params().len());
    }

    /// Every row of `arrays.txt` names a parameter of a function of some
    /// pregenerated release, and every parameter that looks like an array has a
    /// row: a `char` pointer (a C string or a buffer), `kernelParams` and `extra`,
    /// and a pointer to a non-`void` type in a function with a count parameter
    /// (`num*`, `nb*`, `count`, `*Count`, `*Rank`, `len`, `bufferSize`), where the
    /// pointer's name is plural or it points to pointers.
    #[test]
    fn every_array_parameter_has_its_length() {
        use libcuda_sys_build::sentences::{array, arrays, family};
        // Found by the rule, but one value each.
        const NOT_ARRAYS: [(&str, &str, &str); 1] = [(
            "cuDeviceGetTexture1DLinearMaxWidth",
            "maxWidthInElements",
            "one width, written by the driver: its name ends in `s`",
        )];
        let integer = |ty: &str| {
            let ty = ty.trim_start_matches("*mut").trim_start_matches("*const").trim();
            let ty = ty.rsplit("::").next().unwrap_or(ty);
            [
                "c_uint",
                "c_int",
                "c_ulong",
                "c_long",
                "c_ulonglong",
                "usize",
                "cuuint32_t",
                "cuuint64_t",
            ]
            .contains(&ty)
        };
        let counting = |n: &str| {
            let upper_after = |prefix: &str| {
                n.strip_prefix(prefix)
                    .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
            };
            upper_after("num")
                || upper_after("nb")
                || ["count", "len", "bufferSize"].contains(&n)
                || n.ends_with("Count")
                || n.ends_with("Rank")
        };
        let (mut seen, mut missing) = (std::collections::BTreeSet::new(), Vec::new());
        for text in in_every_release("functions.rs", &[false]) {
            for (name, params) in declarations(&text) {
                let counts: Vec<&str> = params
                    .iter()
                    .filter(|(p, ty)| counting(p) && integer(ty))
                    .map(|(p, _)| *p)
                    .collect();
                for (p, ty) in &params {
                    seen.insert((family(name).to_string(), p.to_string()));
                    let Some(pointee) =
                        ty.strip_prefix("*mut ").or_else(|| ty.strip_prefix("*const "))
                    else {
                        continue;
                    };
                    let base = p.strip_suffix("_out").unwrap_or(p);
                    let plural = ["s", "array", "list", "data", "dim", "corner", "info"]
                        .iter()
                        .any(|end| base.to_ascii_lowercase().ends_with(end))
                        || ["from", "to", "desc", "map", "result"].contains(&base);
                    let single = base.ends_with("Params") || base.ends_with("Status");
                    let found = ty.ends_with("c_char")
                        || (["kernelParams", "extra"].contains(p) && pointee.contains("c_void"))
                        || (!pointee.ends_with("c_void")
                            && !counts.is_empty()
                            && !counts.contains(p)
                            && (pointee.starts_with('*') || (plural && !single)));
                    let excepted = NOT_ARRAYS.iter().any(|(f, q, _)| *f == family(name) && q == p);
                    if found && !excepted && array(name, p).is_none() {
                        missing.push(format!("{name} {p}"));
                    }
                }
            }
        }
        missing.sort();
        missing.dedup();
        assert!(missing.is_empty(), "array parameters without a row of arrays.txt: {missing:?}");
        for a in arrays() {
            let known = seen.contains(&(a.function.to_string(), a.parameter.to_string()));
            assert!(known, "arrays.txt: {} {}: no such parameter", a.function, a.parameter);
            assert!(!a.count.is_empty() && !a.text.is_empty(), "{} {}", a.function, a.parameter);
        }
        println!("{} array parameters, each with its length", arrays().len());
    }

    /// The enumerators of the enum whose typedef is `typedef`, in `types`.
    fn enumerators_of<'a>(types: &'a str, typedef: &str) -> impl Iterator<Item = &'a str> {
        let alias = format!(" as {typedef};");
        let owner = types
            .lines()
            .find_map(|l| l.strip_prefix("pub use self::").filter(|l| l.ends_with(&alias)))
            .map(|l| l.split(' ').next().unwrap_or_default().to_string())
            .unwrap_or_else(|| typedef.to_string());
        let marker = format!(": {owner} = {owner}(");
        types
            .lines()
            .filter(move |l| l.contains(&marker))
            .filter_map(|l| l.trim().strip_prefix("pub const ")?.split(':').next())
    }

    /// Every named field of every struct and union of every pregenerated
    /// release has its line of `fields.txt`, and every line a field; every
    /// `#define` constant has its line.
    #[test]
    fn every_field_and_constant_of_every_release_has_its_line() {
        use libcuda_sys_build::write::docs::{constants, field_paths};
        let (mut paths, mut unnamed) = (std::collections::BTreeSet::new(), Vec::new());
        // The macro constants are cuda.h's alone: no module has a file of them.
        let macro_constants =
            std::fs::read_to_string(crate::root().join("pregenerated").join("macro_constants.rs"))
                .unwrap();
        let mut texts = in_every_release("types.rs", &[false, true]);
        for (release, _) in crate::pregenerate::releases().unwrap() {
            for per_thread in [false, true] {
                let text = &macro_constants;
                texts.push(
                    libcuda_sys_build::pregenerated::select(text, release, per_thread).unwrap(),
                );
            }
        }
        for text in &texts {
            paths.extend(field_paths(text));
            unnamed.extend(
                constants(text).into_iter().filter(|(_, has)| !has).map(|(n, _)| n.to_string()),
            );
        }
        let ours: std::collections::BTreeSet<String> =
            std::fs::read_to_string(crate::root().join("build-logic/sentences/fields.txt"))
                .unwrap()
                .lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|l| Some(l.split_once('\t')?.0.to_string()))
                .collect();
        let without: Vec<&String> = paths.difference(&ours).collect();
        let stale: Vec<&String> = ours.difference(&paths).collect();
        assert!(without.is_empty(), "fields without a line of fields.txt: {without:?}");
        assert!(stale.is_empty(), "lines of fields.txt of no field: {stale:?}");
        unnamed.sort();
        unnamed.dedup();
        assert!(unnamed.is_empty(), "constants without a line of constants.txt: {unnamed:?}");
        println!("{} fields, each with its line", paths.len());
    }

    /// Every enumerator of every enum of every pregenerated release and interop
    /// module has its line in one home: `enumerators.txt`, or for the `CUresult`
    /// codes `results.txt`, or for the pool and pointer attributes their
    /// sentences; and every line of `enumerators.txt` is an enumerator's.
    #[test]
    fn every_enumerator_of_every_release_has_its_line() {
        use libcuda_sys_build::sentences::{enumerator, enumerator_row, result, sentence};
        let names: std::collections::BTreeSet<String> =
            in_every_release("types.rs", &[false]).iter().flat_map(|t| enumerators(t)).collect();
        let without: Vec<&String> = names.iter().filter(|n| enumerator(n).is_none()).collect();
        // A line in enumerators.txt and another home: two lines, one of them stale.
        let twice: Vec<&String> = names
            .iter()
            .filter(|n| {
                enumerator_row(n).is_some() && (sentence(n).or(result(n).map(|r| r.0))).is_some()
            })
            .collect();
        let rows =
            std::fs::read_to_string(crate::root().join("build-logic/sentences/enumerators.txt"))
                .unwrap();
        let stale: Vec<&str> = rows
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once('\t').map(|(n, _)| n))
            .filter(|n| !names.contains(*n))
            .collect();
        assert!(without.is_empty(), "{} enumerators without a line: {without:?}", without.len());
        assert!(twice.is_empty(), "enumerators with a line in two homes: {twice:?}");
        assert!(stale.is_empty(), "lines of enumerators.txt of no enumerator: {stale:?}");
        println!("{} enumerators, each with its line", names.len());
    }

    /// Every group of NVIDIA's reference in every pregenerated release and
    /// interop module has this crate's title and line, and every line a group.
    #[test]
    fn every_group_has_its_title_and_line() {
        let ids: std::collections::BTreeSet<String> = in_every_release("groups.txt", &[false])
            .iter()
            .flat_map(|t| t.lines().filter(|l| !l.starts_with("//")).map(str::to_string))
            .collect();
        let without: Vec<&String> =
            ids.iter().filter(|g| libcuda_sys_build::sentences::group_row(g).is_none()).collect();
        assert!(without.is_empty(), "groups without a line of groups.txt: {without:?}");
        let rows = std::fs::read_to_string(crate::root().join("build-logic/sentences/groups.txt"))
            .unwrap();
        for line in rows.lines().filter(|l| !l.starts_with('#')) {
            let id = line.split('\t').next().unwrap();
            assert!(ids.contains(id), "build-logic/sentences/groups.txt: {id} is no group");
        }
        println!("{} groups, each with its title and line", ids.len());
    }

    /// The pregenerated `name` (`types.rs`) and each interop module's, as
    /// every release has them, in the variants `per_thread` asks for.
    fn in_every_release(name: &str, per_thread: &[bool]) -> Vec<String> {
        let read =
            |f: &str| std::fs::read_to_string(crate::root().join("pregenerated").join(f)).unwrap();
        let files: Vec<String> = std::iter::once(name.to_string())
            .chain(libcuda_sys_build::interop::MODULES.map(|m| format!("{}/{name}", m.feature)))
            .map(|f| read(&f))
            .collect();
        let mut out = Vec::new();
        for (release, _) in crate::pregenerate::releases().unwrap() {
            for &variant in per_thread {
                for file in &files {
                    out.push(
                        libcuda_sys_build::pregenerated::select(file, release, variant).unwrap(),
                    );
                }
            }
        }
        out
    }

    /// Each function a functions text declares, with its parameters and
    /// their types (one blank between words).
    fn declarations(text: &str) -> Vec<(&str, Vec<(&str, String)>)> {
        let decls = text.split("pub fn ").skip(1).filter_map(|decl| {
            let (name, rest) = decl.split_once('(')?;
            let args = rest.rsplit_once(')')?.0;
            let params = args
                .split(',')
                .filter_map(|a| a.split_once(':'))
                .map(|(p, ty)| (p.trim(), ty.split_whitespace().collect::<Vec<_>>().join(" ")))
                .collect();
            Some((name, params))
        });
        decls.collect()
    }

    /// The enumerators a types text declares (`pub const X: E = E(...)`).
    fn enumerators(types: &str) -> impl Iterator<Item = String> + '_ {
        types.lines().filter_map(|l| {
            let (name, rest) = l.trim().strip_prefix("pub const ")?.split_once(": ")?;
            let (owner, value) = rest.split_once(" = ")?;
            value.starts_with(&format!("{owner}(")).then(|| name.to_string())
        })
    }

    #[test]
    fn a_block_ends_at_its_own_div() {
        let page =
            "<div class=\"docblock\"><p>one</p><div><p>two</p></div><p>three</p></div><p>out</p>";
        assert_eq!(docblocks(page), [["one", "two", "three"]]);
        assert!(same("It\u{2019}s `x`", "It's `x`"));
    }
}
