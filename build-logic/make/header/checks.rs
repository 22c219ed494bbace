//! What must hold of the header as bindgen and the C preprocessor read it:
//! one release, not older than the minimum, the ABI the crate says it binds,
//! and the layouts libcuda was built with.

use super::*;
use crate::env::user_flags;

impl Header {
    /// Macros that change which ABI `cuda.h` declares, from any flags that
    /// reach the preprocessor (`CC`, `CFLAGS`: in its macro dump) or bindgen
    /// (`extra_args`): the two would see different headers, or the bindings
    /// would declare another ABI than the crate says (`PLAIN_NAMES`,
    /// `DEP_CUDA_PER_THREAD_DEFAULT_STREAM`), without a word.
    pub fn check_api_defines(
        &self,
        macros: &[(String, String)],
        extra_args: &[(String, Option<String>)],
    ) -> Result<()> {
        let ptds = "CUDA_API_PER_THREAD_DEFAULT_STREAM";
        let checks = [
            (
                ptds,
                !self.defines.contains(&ptds),
                "enable libcuda-sys's `per-thread-default-stream` feature instead, which defines it for\n\
                 the bindings and the preprocessor alike",
            ),
            (
                "__CUDA_API_VERSION_INTERNAL",
                true,
                "remove it: it is cuda.h's own switch to declare the legacy ABIs, not a user setting",
            ),
        ];
        let used = bindgen_args_used(extra_args);
        for (name, _, fix) in checks.into_iter().filter(|(_, forbidden, _)| *forbidden) {
            let by_bindgen =
                used.filter(|(_, v)| defines(v, name)).map(|(var, v)| format!("{var}={v}"));
            let by = match by_bindgen {
                Some(setting) => setting,
                None if macros.iter().any(|(n, _)| n == name) => {
                    let flags = user_flags();
                    if flags.is_empty() {
                        "the C flags".to_string()
                    } else {
                        format!("the C flags ({})", flags.join(", "))
                    }
                }
                None => continue,
            };
            return Err(Error::new(
                format!("{name} is defined by {by}"),
                format!(
                    "{name} changes which functions cuda.h declares under which names. Defined by hand,\n\
                     the bindings and the crate's account of them (the plain-name aliases, the per-thread\n\
                     default stream) would disagree without a word.\n\nFix: {fix}"
                ),
            ));
        }
        Ok(())
    }
    /// The size and alignment of each struct, union and enum bindgen laid out
    /// (`layouts`, from its layout assertions and enums' integers), against what the target's C
    /// compiler gives them without the user's CFLAGS ([`Compiler::natural`]):
    /// the layouts libcuda was built with. A flag in `BINDGEN_EXTRA_CLANG_ARGS`
    /// that changes a layout (`-fpack-struct`, `-malign-double`, `-fshort-enums`,
    /// a `#pragma pack` in an `-include`d file) would otherwise give declarations
    /// of another ABI than libcuda's without a word, and so would the same flag
    /// in CFLAGS as well, were CFLAGS the reference. One compile, of static
    /// assertions, where `BINDGEN_EXTRA_CLANG_ARGS` is set.
    pub fn check_layouts(
        &self,
        layouts: &std::collections::BTreeMap<String, (usize, usize)>,
        extra_args: &[(String, Option<String>)],
    ) -> Result<()> {
        // Without flags of its own, bindgen lays out as C does: CFLAGS never reach it.
        let Some((var, value)) = bindgen_args_used(extra_args) else { return Ok(()) };
        // Preprocessed: a comment's words (`\typedef enum CUdevResourceType`)
        // are not declarations.
        let (_, cuda_h) = self.expand(&[])?;
        const MARK: &str = "libcuda_sys_layout";
        let mut source = self.source();
        let word = |w: &str| {
            cuda_h.match_indices(w).any(|(at, _)| {
                let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
                let before = cuda_h[..at].chars().next_back().is_none_or(|c| !ident(c));
                before && !cuda_h[at + w.len()..].starts_with(ident)
            })
        };
        // A tag (`struct CUDA_MEMCPY2D_st`); a typedef of an anonymous record; or
        // a tag declared inside another record, which bindgen prefixes with its
        // name (`CUstreamBatchMemOpParams_union_CUstreamMemOpWaitValueParams_st`).
        let spelled = |name: &str| -> Option<String> {
            let tag = |name: &str| {
                ["struct", "union", "enum"]
                    .map(|kind| format!("{kind} {name}"))
                    .into_iter()
                    .find(|c| word(c))
            };
            tag(name)
                .or_else(|| word(name).then(|| name.to_string()))
                .or_else(|| name.match_indices('_').find_map(|(i, _)| tag(&name[i + 1..])))
        };
        for (name, (size, align)) in layouts.iter().filter(|(n, _)| !n.contains("__bindgen_")) {
            let Some(c) = spelled(name) else { continue };
            source.push_str(&format!(
                "_Static_assert(sizeof({c}) == {size} && _Alignof({c}) == {align}, \"{MARK} {name} {size} {align}\");\n"
            ));
        }
        let natural = self.compiler.natural();
        let why = match natural.check_syntax(&source, &self.out_dir)? {
            Ok(_) => return Ok(()),
            Err(why) => why,
        };
        let mut differ: Vec<String> = why
            .split(MARK)
            .skip(1)
            .filter_map(|rest| {
                let mut words = rest.split_whitespace();
                let name = words.next()?;
                let size = words.next()?;
                let align = words.next()?.trim_end_matches(['"', ')', ';']);
                let bytes = if size == "1" { "byte" } else { "bytes" };
                Some(format!("{name} (bindgen: {size} {bytes}, align {align})"))
            })
            .collect();
        differ.dedup();
        if differ.is_empty() {
            return Err(Error::new(
                "the C compiler could not check the layouts bindgen gave cuda.h's structs",
                format!("{}\n\nFix: check CC and CFLAGS, or unset {var}.", why.trim_end()),
            ));
        }
        let shown: Vec<&String> = differ.iter().take(5).collect();
        let user: Vec<_> = self.compiler.user_flags.iter().map(|w| w.to_string_lossy()).collect();
        let also = (!user.is_empty()).then(|| {
            format!(
                " (CFLAGS added `{}` to the C compiler's flags, which this check leaves out)",
                user.join(" ")
            )
        });
        Err(Error::new(
            format!("{var} changes the layout of {} of cuda.h's types", differ.len()),
            format!(
                "With {var}={value}, bindgen lays out types otherwise than the C compiler ({}{}) \
                 does without them, and than libcuda was built with:\n  {}{}\nBindings of that layout would read \
                 and write the driver's structs at the wrong offsets, and pass and return its \
                 enums at the wrong width.\n\n\
                 Fix: remove the flag that changes layouts (packing, alignment, -fshort-enums, \
                 -fshort-wchar, a #pragma pack in an -include'd file) from {var} and CFLAGS.",
                natural.path.display(),
                also.unwrap_or_default(),
                shown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n  "),
                if differ.len() > shown.len() { format!("\n  and {} more", differ.len() - shown.len()) } else { String::new() },
            ),
        ))
    }
    /// The ABI bindgen's declarations are of, against the one the crate says it
    /// binds (its features, `DEP_CUDA_PER_THREAD_DEFAULT_STREAM`, the plain-name
    /// aliases), however the macros that choose it reached libclang: a file that
    /// `BINDGEN_EXTRA_CLANG_ARGS` has it read first (`-include`, `-imacros`)
    /// defines them without any `-D` to see. `functions`: every function the
    /// bindings declare; `macros`: the preprocessor's dump of the header.
    pub fn check_abi(
        &self,
        functions: &[&str],
        macros: &[(String, String)],
        extra_args: &[(String, Option<String>)],
    ) -> Result<()> {
        // cuInit is in every release, under its own name: bindings without it
        // are not cuda.h's (a flag made libclang drop the declarations).
        if !functions.contains(&"cuInit") {
            let by = match bindgen_args_used(extra_args) {
                Some((var, value)) => format!(
                    "bindgen read cuda.h with\n  {var}={value}\n\
                     A flag there that changes the calling convention (-fdefault-calling-conv=...,\n\
                     -mrtd) or the target makes libclang drop declarations that bindgen cannot bind.\n\n\
                     Fix: remove it from {var}."
                ),
                None => format!(
                    "None of {} is set: check that {} holds NVIDIA's cuda.h.",
                    extra_args.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", "),
                    self.include_dir.display()
                ),
            };
            return Err(Error::new(
                format!(
                    "the bindings declare {} functions and not cuInit, which every cuda.h declares",
                    functions.len()
                ),
                by,
            ));
        }
        let ptds = "CUDA_API_PER_THREAD_DEFAULT_STREAM";
        let feature = self.defines.contains(&ptds);
        // The header renames each plain name to a versioned one (`#define
        // cuMemAlloc cuMemAlloc_v2`, also through `__CUDA_API_PTDS(...)`): a
        // declaration under the plain name is the legacy ABI, which cuda.h
        // declares only for `__CUDA_API_VERSION_INTERNAL`.
        let legacy: Vec<&str> = functions
            .iter()
            .copied()
            .filter(|f| macros.iter().any(|(n, body)| n == f && body.contains(&format!("{f}_v"))))
            .collect();
        let per_thread: Vec<&str> = functions
            .iter()
            .copied()
            .filter(|f| f.ends_with("_ptsz") || f.ends_with("_ptds"))
            .collect();
        let some = |names: &[&str]| {
            let shown: Vec<&str> = names.iter().copied().take(4).collect();
            let more = if names.len() > shown.len() { ", ..." } else { "" };
            format!("{}: {}{more}", names.len(), shown.join(", "))
        };
        // (summary, the macro, why it matters, the fix: `{from}` is where it is set)
        let (summary, name, why, fix) = if !legacy.is_empty() {
            (
                format!("the bindings declare the legacy ABI of plain names ({})", some(&legacy)),
                "__CUDA_API_VERSION_INTERNAL",
                "cuda.h declares functions under their plain names, with the ABI libcuda keeps for\n\
                 programs built before they were renamed, only where __CUDA_API_VERSION_INTERNAL is\n\
                 defined: cuda.h's own switch, not a user setting (it also turns on the per-thread\n\
                 default stream). The plain-name aliases would call other functions than C does.",
                "Fix: remove the define of __CUDA_API_VERSION_INTERNAL{from}.",
            )
        } else if !feature && !per_thread.is_empty() {
            (
                format!(
                    "the bindings declare per-thread default-stream functions ({}) without the \
                     `per-thread-default-stream` feature",
                    some(&per_thread)
                ),
                ptds,
                "cuda.h declares the `_ptsz`/`_ptds` functions where CUDA_API_PER_THREAD_DEFAULT_STREAM is\n\
                 defined. Without the `per-thread-default-stream` feature the crate says it binds the\n\
                 legacy default stream (DEP_CUDA_PER_THREAD_DEFAULT_STREAM=false), and its plain names\n\
                 would call these instead.",
                "Fix: remove the define{from}; for the per-thread default stream, enable libcuda-sys's\n\
                 `per-thread-default-stream` feature instead, which defines it for bindgen and the\n\
                 preprocessor alike.",
            )
        } else if feature && per_thread.is_empty() {
            (
                "the bindings declare no per-thread default-stream function, with the \
                 `per-thread-default-stream` feature on"
                    .to_string(),
                ptds,
                "The feature defines CUDA_API_PER_THREAD_DEFAULT_STREAM for bindgen, and it was\n\
                 undefined again: the bindings would call the legacy default stream where the crate\n\
                 says (DEP_CUDA_PER_THREAD_DEFAULT_STREAM=true) they call the per-thread one.",
                "Fix: remove what undefines it (an -U, or an #undef in a file read first){from}.",
            )
        } else {
            return Ok(());
        };
        let by = match bindgen_args_used(extra_args) {
            Some((var, value)) => format!(
                "bindgen read cuda.h with\n  {var}={value}\n\
                 A -D or -U there, a file it has libclang read first (-include, -imacros) or another\n\
                 cuda.h on one of its -I paths decides {name}.\n\n{}",
                fix.replace("{from}", &format!(" from {var} (or from the file it names)"))
            ),
            None => format!(
                "None of {} is set: libclang's own environment (CPATH, C_INCLUDE_PATH) or a changed\n\
                 cuda.h in {} decides {name}.\n\n{}",
                extra_args.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", "),
                self.include_dir.display(),
                fix.replace("{from}", "")
            ),
        };
        Err(Error::new(summary, format!("{why}\n\n{by}")))
    }
}

/// The one of `extra_args` ([`crate::env::bindgen_extra_clang_args`]) that
/// bindgen uses, as `(name, value)`: the first set (empty counts) of
/// `BINDGEN_EXTRA_CLANG_ARGS_<triple>`, the same with the triple's dashes as
/// underscores, and `BINDGEN_EXTRA_CLANG_ARGS`; it ignores the others.
fn bindgen_args_used(extra_args: &[(String, Option<String>)]) -> Option<(&str, &str)> {
    let precedence = |name: &str| match name.strip_prefix("BINDGEN_EXTRA_CLANG_ARGS") {
        Some("") => 2,
        Some(triple) if triple.contains('-') => 0,
        _ => 1,
    };
    extra_args
        .iter()
        .filter_map(|(name, value)| Some((name.as_str(), value.as_deref()?)))
        .min_by_key(|(name, _)| precedence(name))
}

/// A value of `BINDGEN_EXTRA_CLANG_ARGS` as the words bindgen hands clang:
/// split by the crate bindgen splits it with, and one word where that finds
/// unbalanced quotes, as bindgen then takes it.
fn clang_words(value: &str) -> Vec<String> {
    shlex::split(value).unwrap_or_else(|| vec![value.to_string()])
}

/// Whether clang flags `args`, split into words as bindgen splits them, define `name`.
fn defines(args: &str, name: &str) -> bool {
    let words = clang_words(args);
    let mut words = words.iter().map(String::as_str);
    while let Some(word) = words.next() {
        let defined = match word {
            "-D" | "--define-macro" => words.next(),
            _ => word.strip_prefix("-D").or_else(|| word.strip_prefix("--define-macro=")),
        };
        if defined.is_some_and(|d| d.split('=').next() == Some(name)) {
            return true;
        }
    }
    false
}

/// The release bindgen bound (its `CUDA_VERSION` constant) is the one the
/// preprocessor read: a `-I` or `-include` of other headers in `CC`, `CFLAGS`
/// or `BINDGEN_EXTRA_CLANG_ARGS` gives one of them another `cuda.h`.
pub fn check_same(header: &Header, preprocessor: CudaVersion, bindgen: Option<i128>) -> Result<()> {
    if bindgen == Some(i128::from(preprocessor.number)) {
        return Ok(());
    }
    let bound = match bindgen.and_then(|n| u32::try_from(n).ok()) {
        Some(number) => format!("CUDA {} (CUDA_VERSION {number})", CudaVersion { number }),
        None => "no CUDA_VERSION".into(),
    };
    Err(Error::new(
        format!(
            "the C preprocessor and bindgen read two releases: CUDA {preprocessor} and {bound}"
        ),
        format!(
            "Both read {}, but the C preprocessor (`{}`, with CC and CFLAGS) found CUDA_VERSION\n\
             {} and bindgen (libclang, with BINDGEN_EXTRA_CLANG_ARGS) bound {bound}. A `-I` or\n\
             `-include` of other CUDA headers in one of those variables puts another cuda.h first;\n\
             one build must bind one release, or its plain names, metadata and declarations disagree.\n\n\
             Fix: remove the other headers' -I/-include from CC, CFLAGS and BINDGEN_EXTRA_CLANG_ARGS\n\
             (and their per-target forms), and name the headers with LIBCUDA_SYS_INCLUDE_DIR alone.",
            header.include_dir.join("cuda.h").display(),
            header.compiler_command().join(" "),
            preprocessor.number,
        ),
    ))
}

/// Headers older than the memory-pool API are refused.
pub fn check_minimum(header: &Header, version: CudaVersion) -> Result<()> {
    let number = version.number;
    if number < MINIMUM {
        return Err(Error::new(
            format!(
                "cuda.h in {} is CUDA {}.{} (CUDA_VERSION {number}); libcuda-sys needs 11.2 or newer",
                header.include_dir.display(),
                version.major(),
                version.minor()
            ),
            "The stream-ordered memory pool API (cuMemPool*, cuMemAllocAsync) that this crate binds\n\
             first appeared in CUDA 11.2.\n\n\
             Fix one of:\n\
             - install a newer toolkit, or only its headers: pip install nvidia-cuda-runtime (13.x)\n  \
               or pip install nvidia-cuda-runtime-cu12 (12.x)\n\
             - point CUDA_PATH or LIBCUDA_SYS_INCLUDE_DIR at a newer toolkit\n\
             - use the crate's pregenerated bindings: LIBCUDA_SYS_BINDINGS=pregenerated",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clang_flags_are_split_as_bindgen_splits_them() {
        let words = |v: &str| clang_words(v);
        assert_eq!(words(" -DA  -I/x\t-DB\n"), ["-DA", "-I/x", "-DB"]);
        assert_eq!(words(r#"-D"A" -D 'B=1 2' -I"/a b""#), ["-DA", "-D", "B=1 2", "-I/a b"]);
        assert_eq!(words(r#"-DA=\"x\" "\$\`\"\\\q""#), [r#"-DA="x""#, r#"$`"\\q"#]);
        assert_eq!(words("-I/x \\\n-DA # -DB\n-DC a#b"), ["-I/x", "-DA", "-DC", "a#b"]);
        // Unbalanced: one word, as bindgen hands it on.
        assert_eq!(words("-DA 'B"), ["-DA 'B"]);
        assert_eq!(words("-DA \\"), ["-DA \\"]);
        assert!(words("").is_empty());
    }

    #[test]
    fn defines_are_found_in_every_spelling() {
        let name = "CUDA_API_PER_THREAD_DEFAULT_STREAM";
        for args in [
            format!("-D{name}"),
            format!("-D \"{name}\""),
            format!("-D'{name}=1'"),
            format!("--define-macro={name}"),
            format!("-I/x --define-macro \"{name}\""),
        ] {
            assert!(defines(&args, name), "{args}");
        }
        for args in [format!("-U{name}"), format!("-D{name}X"), format!("'-D{name}")] {
            assert!(!defines(&args, name), "{args}");
        }
    }

    #[test]
    fn the_variable_bindgen_uses_is_the_most_specific_one_set() {
        let args = |values: [Option<&str>; 3]| -> Vec<(String, Option<String>)> {
            [
                "BINDGEN_EXTRA_CLANG_ARGS",
                "BINDGEN_EXTRA_CLANG_ARGS_a-b-c",
                "BINDGEN_EXTRA_CLANG_ARGS_a_b_c",
            ]
            .iter()
            .zip(values)
            .map(|(n, v)| (n.to_string(), v.map(str::to_string)))
            .collect()
        };
        let used =
            |values| bindgen_args_used(&args(values)).map(|(n, v)| (n.to_string(), v.to_string()));
        assert_eq!(
            used([Some("1"), None, Some("3")]),
            Some(("BINDGEN_EXTRA_CLANG_ARGS_a_b_c".into(), "3".into()))
        );
        assert_eq!(
            used([Some("1"), Some(""), Some("3")]),
            Some(("BINDGEN_EXTRA_CLANG_ARGS_a-b-c".into(), "".into()))
        );
        assert_eq!(
            used([Some("1"), None, None]),
            Some(("BINDGEN_EXTRA_CLANG_ARGS".into(), "1".into()))
        );
        assert_eq!(used([None, None, None]), None);
    }
}
