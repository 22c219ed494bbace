//! The build logic of [libcuda-sys](https://docs.rs/libcuda-sys), and nothing
//! else: libcuda-sys's build script, its ABI test (`systest`) and its `xtask`
//! call it. libcuda-sys pins it exactly (`=` its own version); it has no API of
//! its own and no promise of stability between releases. It is a crate of its
//! own only so that it compiles beside bindgen, cc and pkg-config, which the
//! build script links and this crate does not.
//!
//! A spine and three stages. The spine: [`model`] (the bindings as data, the
//! version, the toolkit, where the bindings come from, the library to link,
//! the error), [`env`](mod@env) (every variable read, with its
//! `rerun-if-env-changed`; the C compiler), [`tables`] (the derived tables'
//! rows), `sentences` (the docs' own sentences and the attribute facts
//! table), [`interop`] (the graphics-interop modules as data), and
//! [`pregenerated`], the one reader of `pregenerated/`. The
//! stages, in the order `build.rs` runs them:
//! - [`find`]: where the bindings come from, which release, the headers, the
//!   driver floor's value, what a fallback watches;
//! - [`make`]: the bindings from the headers (the C preprocessor, bindgen's
//!   output read back, plain names, macro constants, the derived tables), and
//!   the floor applied to either kind of bindings;
//! - [`write`](mod@write): the files `src/` includes, the library to link, every `cargo::` line.
//!
//! What renders the bindings' files and documentation (`sentences`,
//! `write::docs`, `write::render`) and reads generated bindings back
//! (`make`, but the floor) compiles only with the `generate` feature: the
//! pregenerated set comes rendered, so a build without bindgen copies it.
//! What only the tools read back (the set's declarations as bindings, the
//! derived tables as rows) compiles only with `pregenerate`, which no build
//! turns on.
//!
//! A stage imports the spine and its own modules, never another stage: only
//! `build.rs` goes from one stage to the next, handing on plain values. Two
//! stages have a run that build.rs calls and no module imports,
//! `make::generate` and [`write::outputs`], which import their stage's
//! modules. Below them no chain of imports is longer than three modules:
//! [`model`] and `sentences` import nothing of this crate, [`env`](mod@env),
//! [`interop`] and [`tables`] only [`model`], and a stage's module imports none
//! of its own stage that imports more.

pub mod env;
pub mod interop;
pub mod model;
pub mod pregenerated;
#[cfg(feature = "generate")]
pub mod sentences;
pub mod tables;

pub mod find {
    //! Where the bindings come from: the mode and release asked for, the
    //! headers, the driver floor's value, and the watches of a fallback.
    pub mod mode;
    pub mod places;
    pub mod toolkit;
}

pub mod make {
    //! The bindings from the headers, and the driver floor applied to them.
    #[cfg(feature = "generate")]
    pub mod attributes;
    #[cfg(feature = "generate")]
    pub mod c_types;
    #[cfg(feature = "generate")]
    pub mod comments;
    pub mod floor;
    #[cfg(feature = "generate")]
    pub mod generate;
    #[cfg(feature = "generate")]
    pub mod generator;
    #[cfg(feature = "generate")]
    pub mod header;
    #[cfg(feature = "generate")]
    pub mod items;
    #[cfg(feature = "generate")]
    pub mod libclang;
    #[cfg(feature = "generate")]
    pub mod names;
    #[cfg(feature = "generate")]
    pub mod reference;
    #[cfg(feature = "generate")]
    pub mod since;
}

pub mod write {
    //! What the build leaves: the files in `OUT_DIR`, the library to link, the `cargo::` lines.
    #[cfg(feature = "generate")]
    pub mod docs;
    pub mod emit;
    pub mod files;
    pub mod link;
    pub mod outputs;
    #[cfg(feature = "generate")]
    pub mod render;
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    const STAGES: [&str; 3] = ["find", "make", "write"];
    /// The stages' runs, which build.rs calls: each imports its stage's modules.
    const RUNS: [&str; 2] = ["make::generate", "write::outputs"];

    /// Each module (`env`, `make::items`) with what its code (not its tests)
    /// names through `crate::`, generated code in its strings included.
    fn imports(dir: &Path, prefix: &str, out: &mut BTreeMap<String, Vec<String>>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                imports(&path, &format!("{prefix}{name}::"), out);
                continue;
            }
            if name == "lib" || path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
            let code: String =
                code.lines().map(|l| l.split("//").next().unwrap()).collect::<Vec<_>>().join("\n");
            let mut named: Vec<String> = code
                .split("crate::")
                .skip(1)
                .flat_map(|rest| {
                    let mut segments = rest.split("::");
                    let first = word(segments.next().unwrap_or_default());
                    if !STAGES.contains(&first) {
                        return vec![first.to_string()];
                    }
                    // `crate::make::{a, b::c}` names each module of the group.
                    let next = segments.next().unwrap_or_default();
                    let group = match next.strip_prefix('{') {
                        Some(_) => rest[rest.find('{').unwrap() + 1..].split('}').next().unwrap(),
                        None => next,
                    };
                    group.split(',').map(|m| format!("{first}::{}", word(m.trim()))).collect()
                })
                .filter(|m| *m != format!("{prefix}{name}"))
                .collect();
            named.sort();
            named.dedup();
            out.insert(format!("{prefix}{name}"), named);
        }
    }

    /// The module name a path segment starts with.
    fn word(segment: &str) -> &str {
        segment.split(|c: char| !c.is_ascii_lowercase() && c != '_').next().unwrap()
    }

    /// The longest chain of imports from `m`; a cycle counts as longer than any.
    fn depth(m: &str, graph: &BTreeMap<String, Vec<String>>, path: &mut Vec<String>) -> usize {
        if path.iter().any(|p| p == m) {
            return graph.len() + 1;
        }
        path.push(m.to_string());
        let below = graph[m].iter().map(|n| depth(n, graph, path)).max().unwrap_or(0);
        path.pop();
        1 + below
    }

    #[test]
    fn no_stage_imports_another_and_no_chain_is_longer_than_three_below_a_run() {
        let mut graph = BTreeMap::new();
        imports(Path::new(env!("CARGO_MANIFEST_DIR")), "", &mut graph);
        let modules: Vec<String> = graph.keys().cloned().collect();
        for named in graph.values_mut() {
            named.retain(|n| modules.contains(n));
        }
        assert!(graph["make::items"].contains(&"model".to_string()), "{graph:?}");
        assert!(graph["make::generate"].contains(&"make::since".to_string()), "{graph:?}");
        let stage = |m: &str| m.split_once("::").map(|(s, _)| s.to_string());
        for (m, named) in &graph {
            for n in named {
                let crosses = stage(n).is_some_and(|s| stage(m).is_none_or(|own| own != s));
                assert!(!crosses, "{m} imports {n}: only build.rs crosses stages");
                assert!(!RUNS.contains(&n.as_str()), "{m} imports {n}: only build.rs runs a stage");
            }
            let (depth, most) =
                (depth(m, &graph, &mut Vec::new()), 3 + RUNS.contains(&m.as_str()) as usize);
            assert!(depth <= most, "{m} starts a chain of {depth} modules (or a cycle): {graph:?}");
        }
    }

    /// Each file one responsibility: none grows past about 450 lines before
    /// it is split where its parts part.
    #[test]
    fn no_file_is_longer_than_about_450_lines() {
        fn walk(dir: &Path, long: &mut Vec<String>) {
            for path in std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()) {
                if path.is_dir() {
                    walk(&path, long);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let lines = std::fs::read_to_string(&path).unwrap().lines().count();
                    if lines > 480 {
                        long.push(format!("{}: {lines}", path.display()));
                    }
                }
            }
        }
        let mut long = Vec::new();
        walk(Path::new(env!("CARGO_MANIFEST_DIR")), &mut long);
        assert!(long.is_empty(), "split these where their responsibilities part: {long:?}");
    }
}
