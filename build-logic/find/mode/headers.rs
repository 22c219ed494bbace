//! The release of headers that are not generated from: their `CUDA_VERSION`
//! through the target's C preprocessor, or from the text of `cuda.h` where it
//! needs none to read.

use super::*;

/// `CUDA_VERSION` of the headers of `toolkit`, which are not generated from,
/// as a C program that includes their `cuda.h` sees it: through the target's
/// C preprocessor. Where that cannot be run (a cross build without the
/// target's C compiler or C library headers: a build that links a driver's
/// libcuda or loads it at run time needs neither), from the text of `cuda.h`,
/// as long as its one `#define CUDA_VERSION` needs no preprocessor to read
/// (`from_text`).
pub fn of_headers(target: &Target, toolkit: &Toolkit) -> Result<CudaVersion> {
    let path = toolkit.include_dir.join("cuda.h");
    let unread = match preprocessed(target, &toolkit.include_dir, &path) {
        Ok(raw) => {
            // Unexpanded: no macro of that name is left after the header.
            let got = match raw.as_str() {
                "CUDA_VERSION" => "it is not defined after the header".to_string(),
                _ => format!("got `{raw}`"),
            };
            return plausible(raw.parse().ok(), &path)
                .map_err(|e| Error::new(format!("{} ({got})", e.summary), e.detail));
        }
        Err(why) => why,
    };
    log(format!("CUDA_VERSION read from the text of cuda.h, not by the C preprocessor: {unread}"));
    // The compiler does not care for the encoding of comments, nor does this.
    let bytes = std::fs::read(&path)
        .map_err(|e| Error::new(format!("cannot read {}: {e}", path.display()), ""))?;
    let number = from_text(&String::from_utf8_lossy(&bytes)).map_err(|found| {
        Error::new(
            format!("the CUDA_VERSION of {} cannot be read without the C preprocessor", path.display()),
            format!(
                "These headers are not generated from, so their CUDA_VERSION picks the pregenerated\n\
                 bindings. The C preprocessor would read it as a C program does, and could not:\n\
                 {unread}.\n\
                 Read as text, cuda.h does not say it plainly:\n{}\n\
                 Which of these counts is for a preprocessor to decide, and the build does not guess.\n\n\
                 Fix one of:\n\
                 - install a C compiler for {}, with its C library headers (or name it in CC_{} or CC)\n\
                 - name the release to bind with a feature (features = [\"cuda-13000\"] for CUDA 13.0)\n\
                 - point {} at headers as NVIDIA ships them (one #define CUDA_VERSION, outside every #if)",
                found.iter().map(|d| format!("  {d}")).collect::<Vec<_>>().join("\n"),
                target.triple,
                target.triple.replace('-', "_"),
                toolkit.found_by,
            ),
        )
    })?;
    plausible(number, &path)
}

/// The expansion of `CUDA_VERSION` after `path`, by the target's C
/// preprocessor (as `cuda.h` is included for generation, with the features'
/// defines), or why there is none to give it.
fn preprocessed(
    target: &Target,
    include_dir: &Path,
    path: &Path,
) -> std::result::Result<String, String> {
    let compiler =
        (target.c_compiler)(Some(include_dir), &target.defines()).map_err(|e| e.summary)?;
    const MARK: &str = "LIBCUDA_SYS_CUDA_VERSION";
    let source = format!("#include \"{}\"\n{MARK} CUDA_VERSION\n", path.display());
    let out = compiler.preprocess(&source, &[], &target.out_dir).map_err(|e| e.summary)?.map_err(
        |why| {
            let error = why.lines().find(|l| l.contains("error")).unwrap_or_default();
            format!("cuda.h does not preprocess for {} ({})", target.triple, error.trim())
        },
    )?;
    out.lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix(MARK))
        .map(|v| v.trim().to_string())
        .ok_or_else(|| format!("{} printed no line for CUDA_VERSION", compiler.path.display()))
}

/// A `#define` or `#undef` of `CUDA_VERSION` in the text of `cuda.h`.
#[derive(Debug, PartialEq)]
struct Directive {
    line: usize,
    /// `#define CUDA_VERSION 13000`, `#undef CUDA_VERSION`.
    text: String,
    /// A define's value, where it is a plain number.
    value: Option<u32>,
    /// The conditional it sits in, besides an include guard (`#ifdef X`, `#elif 0`).
    under: Option<String>,
}

impl std::fmt::Display for Directive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.text)?;
        match &self.under {
            Some(under) => write!(f, " (under {under})"),
            None => Ok(()),
        }
    }
}

/// `CUDA_VERSION` read from the text of `cuda.h` where that needs no
/// preprocessor: one `#define CUDA_VERSION <number>`, in no conditional block
/// but the include guard, and no `#undef` of it. Anything else (a define
/// under any `#if`, `#ifdef`, `#elif` or `#else`, two defines, an `#undef`, a
/// value that is not a plain number) is handed back as the directives found,
/// for an error: which of them counts is the preprocessor's to say, and a
/// guess would bind another release silently. `None`: no define at all.
fn from_text(text: &str) -> std::result::Result<Option<u32>, Vec<Directive>> {
    let found = directives(text);
    match found.as_slice() {
        [] => Ok(None),
        [one] if one.under.is_none() && one.value.is_some() => Ok(one.value),
        _ => Err(found),
    }
}

/// The preprocessing directives of C text, as `(line, name, rest)`: comments
/// removed, lines continued with `\` joined (numbered by their first line).
fn lines_of_directives(text: &str) -> Vec<(usize, String, String)> {
    // Comments out, their line breaks kept so that lines keep their numbers.
    let mut code = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        match (rest.find("/*"), rest.find("//")) {
            (Some(b), l) if l.is_none_or(|l| b < l) => {
                code.push_str(&rest[..b]);
                let end = rest[b + 2..].find("*/").map_or(rest.len(), |e| b + 2 + e + 2);
                code.push(' ');
                code.extend(rest[b..end].chars().filter(|&c| c == '\n'));
                rest = &rest[end..];
            }
            (_, Some(l)) => {
                code.push_str(&rest[..l]);
                rest = rest[l..].find('\n').map_or("", |e| &rest[l + e..]);
            }
            _ => {
                code.push_str(rest);
                rest = "";
            }
        }
    }
    let mut out = Vec::new();
    let mut lines = code.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let mut line = line.to_string();
        while line.ends_with('\\') {
            line.pop();
            match lines.next() {
                Some((_, next)) => line.push_str(next),
                None => break,
            }
        }
        let Some(directive) = line.trim().strip_prefix('#').map(str::trim_start) else {
            continue;
        };
        let name: String = directive.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        let rest = directive[name.len()..].trim().to_string();
        out.push((n + 1, name, rest));
    }
    out
}

/// Every `#define` and `#undef` of `CUDA_VERSION` in C text, each with the
/// conditional block it sits in. An include guard (`#ifndef G`, `#define G`
/// first, its `#endif` last) is no condition: NVIDIA's headers define
/// `CUDA_VERSION` inside theirs.
fn directives(text: &str) -> Vec<Directive> {
    let all = lines_of_directives(text);
    let opens = |name: &str| matches!(name, "if" | "ifdef" | "ifndef");
    let first_word = |rest: &str| rest.split_whitespace().next().unwrap_or_default().to_string();
    // An include guard opens the file (`#ifndef G` then `#define G`) and its
    // `#endif` closes it: the depth first returns to zero at the last directive.
    let opens_guard = matches!(all.as_slice(),
        [(_, a, g), (_, b, d), ..] if a == "ifndef" && b == "define" && first_word(d) == first_word(g));
    let guarded = opens_guard && {
        let mut depth = 0usize;
        let closes = all.iter().position(|(_, name, _)| {
            if opens(name) {
                depth += 1;
            } else if name == "endif" {
                depth = depth.saturating_sub(1);
            }
            depth == 0
        });
        closes == Some(all.len() - 1)
    };
    let mut blocks: Vec<String> = Vec::new();
    let mut found = Vec::new();
    for (i, (line, name, rest)) in all.iter().enumerate() {
        let in_guard = guarded && (i == 0 || i == all.len() - 1);
        match name.as_str() {
            _ if in_guard => {}
            n if opens(n) => blocks.push(format!("#{n} {rest}")),
            "elif" | "elifdef" | "elifndef" | "else" => {
                if let Some(top) = blocks.last_mut() {
                    *top = format!("#{name} {rest}").trim_end().to_string();
                }
            }
            "endif" => {
                blocks.pop();
            }
            "define" | "undef" if first_word(rest) == "CUDA_VERSION" => {
                let value = rest["CUDA_VERSION".len()..].trim();
                found.push(Directive {
                    line: *line,
                    text: format!("#{name} {rest}"),
                    value: (name == "define"
                        && !value.is_empty()
                        && value.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| value.parse().ok())
                    .flatten(),
                    under: blocks.last().cloned(),
                });
            }
            _ => {}
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guarded(body: &str) -> String {
        format!("/* header */\n#ifndef __cuda_cuda_h__\n#define __cuda_cuda_h__\n{body}#endif /* __cuda_cuda_h__ */\n")
    }

    #[test]
    fn one_plain_define_in_the_include_guard_is_read() {
        let text = guarded("#include <stdlib.h>\n#if defined(X)\n#define Y 1\n#endif\n#  define CUDA_VERSION 13050 // 13.5\n");
        assert_eq!(from_text(&text), Ok(Some(13050)));
        assert_eq!(from_text("#define CUDA_VERSION \\\n 12080\n"), Ok(Some(12080)));
        assert_eq!(from_text("#define CUDA_VERSIONS 1\n"), Ok(None));
    }

    #[test]
    fn a_define_in_a_comment_is_none() {
        let text = "/* #define CUDA_VERSION 11080\n */\n// #define CUDA_VERSION 11070\n#define CUDA_VERSION 13000 /* 13.0 */\n";
        assert_eq!(from_text(text), Ok(Some(13000)));
    }

    #[test]
    fn what_needs_a_preprocessor_is_refused_with_what_was_found() {
        let refused = |body: &str| from_text(&guarded(body)).expect_err(body);
        let found = refused("#ifdef UNDEFINED\n#define CUDA_VERSION 12020\n#else\n#define CUDA_VERSION 13000\n#endif\n");
        let shown: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "line 5: #define CUDA_VERSION 12020 (under #ifdef UNDEFINED)",
                "line 7: #define CUDA_VERSION 13000 (under #else)"
            ]
        );
        let found = refused(
            "#if 0\n#define CUDA_VERSION 11080\n#elif 0\n#define CUDA_VERSION 12020\n#endif\n",
        );
        assert_eq!(found[1].under.as_deref(), Some("#elif 0"));
        let found = refused("#if (0)\n#define CUDA_VERSION 12020\n#endif\n");
        assert_eq!(found[0].under.as_deref(), Some("#if (0)"));
        let found = refused("#define CUDA_VERSION 12020\n#undef CUDA_VERSION\n");
        assert_eq!(found[1].text, "#undef CUDA_VERSION");
        refused("#define CUDA_VERSION (13000)\n");
        refused("#define CUDA_VERSION 13000\n#define CUDA_VERSION 13000\n");
        // Not a guard: its #endif does not close the file.
        let text = "#ifndef G\n#define G\n#endif\n#ifndef G\n#define CUDA_VERSION 13000\n#endif\n";
        assert!(from_text(text).is_err());
        let text = "#ifndef G\n#define G\n#endif\n#define CUDA_VERSION 13000\n";
        assert_eq!(from_text(text), Ok(Some(13000)));
    }
}
