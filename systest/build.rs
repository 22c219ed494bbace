//! Writes the ABI check for the bindings libcuda-sys used (generated or
//! pregenerated), read from `DEP_CUDA_BINDINGS_DIR`, against the headers in
//! `DEP_CUDA_INCLUDE`, or, for pregenerated bindings, `SYSTEST_CUDA_INCLUDE_DIR`
//! (the headers of the version they were made from). Without headers the
//! tests say `skipped` and why. The interop modules the bindings have
//! (`DEP_CUDA_INTEROP`, systest's features `gl`, `egl`, `vdpau`) are checked
//! too, against their headers read after `cuda.h`.

// libcuda-sys's build logic, which reads the bindings and headers as systest must.
use libcuda_sys_build::make::{header, items, names};
use libcuda_sys_build::{env, interop, model, tables as rows};

mod abi;
mod layout;
mod tables;

use std::path::{Path, PathBuf};

use tables::Rename;

fn main() {
    if let Err(e) = run() {
        println!("cargo::warning={}", e.summary);
        eprintln!("\n{e}\n");
        std::process::exit(1);
    }
}

fn var(name: &str) -> String {
    env::var(name).map(|v| v.to_string_lossy().into_owned()).unwrap_or_default()
}

fn run() -> model::Result<()> {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=abi.rs");
    println!("cargo::rerun-if-changed=layout.rs");
    println!("cargo::rerun-if-changed=tables.rs");
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    let bindings_dir = PathBuf::from(var("DEP_CUDA_BINDINGS_DIR"));
    let found_by = var("DEP_CUDA_FOUND_BY");
    let include = match var("DEP_CUDA_INCLUDE") {
        dir if !dir.is_empty() => dir,
        _ => var("SYSTEST_CUDA_INCLUDE_DIR"),
    };
    if include.is_empty() {
        return skip(
            &out_dir,
            &format!(
                "the bindings are {found_by} ones and no headers were named to compare them with \
                 (set SYSTEST_CUDA_INCLUDE_DIR to the include directory of the CUDA version they were made from)"
            ),
        );
    }
    let per_thread_default_stream = var("DEP_CUDA_PER_THREAD_DEFAULT_STREAM") == "true";
    let defines = env::api_defines(per_thread_default_stream);
    let read = |name: &str| {
        let path = bindings_dir.join(name);
        println!("cargo::rerun-if-changed={}", path.display());
        std::fs::read_to_string(&path).map_err(|e| {
            model::Error::new(format!("cannot read {}", path.display()), e.to_string())
        })
    };
    let mut code = read("bindings.rs")? + &read("functions.rs")?;
    let mut renames = tables::renames(&items::parse(&read("renames.rs")?)?)?;
    // The interop modules bound (`gl`, `egl`, `vdpau`): their items are checked
    // as cuda.h's, against their headers; their plain names are read apart.
    let interop: Vec<&interop::Interop> = {
        let bound = var("DEP_CUDA_INTEROP");
        interop::MODULES.iter().filter(|m| bound.split(',').any(|b| b == m.feature)).collect()
    };
    // What each module binds, for the summary.
    let mut modules = serde_json::Map::new();
    for m in &interop {
        let (items, plain) = tables::module(&items::parse(&read(&format!("{}.rs", m.feature))?)?);
        let bound = items::read(items::parse(&items)?)?;
        modules.insert(
            m.feature.into(),
            serde_json::json!({
                "functions": bound.functions.len(),
                "plain_names": plain.len(),
                "types": bound.records.len() + bound.typedefs.len() + bound.enums.len(),
                "constants": bound.constants.len(),
            }),
        );
        code.push_str(&items);
        renames.extend(plain);
    }
    let bindings = items::parse(&code)?;
    let items = items::read(bindings.clone())?;
    let macro_file = items::parse(&read("macro_constants.rs")?)?;
    let macro_constants = tables::macro_constants(&macro_file)?;

    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let header = header::Header::new(
        manifest.join("../wrapper.h"),
        PathBuf::from(&include),
        defines,
        out_dir.clone(),
        std::env::var("TARGET").unwrap_or_default(),
        c_compiler,
    )?;
    // With the modules' headers after cuda.h, read as the build script read them.
    let header = match interop.is_empty() {
        true => header,
        false => {
            let mut flags: Vec<String> =
                interop::DEFINES.iter().map(|d| format!("-D{d}")).collect();
            let stand_ins = bindings_dir.join(interop::STAND_IN_DIR);
            flags.extend(["-idirafter".to_string(), stand_ins.display().to_string()]);
            header.with_module(interop.iter().map(|m| m.source()).collect(), flags)
        }
    };
    let (_, preprocessed) = header.expand(&[])?;
    // The enums the bindings treat as bit masks, from their `BITMASKS`.
    let bitmasks = tables::bitmasks(&items::parse(&read("value_types.rs")?)?)?;
    // The value type of every attribute, as the build script tabled it, or
    // as the pregenerated set has it for the release bound.
    let value_types = match found_by.as_str() {
        "pregenerated" => {
            let crate_dir = manifest.join("..");
            let name = "value_types.txt";
            let path = crate_dir.join(libcuda_sys_build::pregenerated::DIR).join(name);
            println!("cargo::rerun-if-changed={}", path.display());
            let set = libcuda_sys_build::pregenerated::Set {
                crate_dir: &crate_dir,
                per_thread: per_thread_default_stream,
            };
            set.section(name, var("DEP_CUDA_VERSION").parse().unwrap_or_default())?
        }
        _ => read("tables/value_types.txt")?,
    };
    let typed = rows::read_value_types(&value_types)
        .map_err(|e| model::Error::new("systest cannot read the value types", e))?;
    let checks = abi::checks(&items, &preprocessed, &bitmasks, &typed);
    // The run-time check's sources; its program runs only where the tests do
    // (the host), the static check below for any target.
    let run_time = abi::write(&header, &items, &renames, &macro_constants, &checks)?;
    let layout = layout::Layout::read([&bindings, &macro_file], &layout::Target::from_cargo());
    let statically =
        abi::check_statically(&header, &items, &renames, &macro_constants, &checks, &layout)?;
    // What the bindings leave out of the header's object-like CU* macros.
    let macros = header.macros()?;
    let unbound: Vec<String> = names::unbound(&macros, &items)
        .into_iter()
        // The feature's own -D is the build's setting, not the header's macro.
        .filter(|(name, _)| {
            !macro_constants.contains(name) && !header.defines.contains(&name.as_str())
        })
        .map(|(name, body)| format!("    ({name:?}, {body:?}),\n"))
        .collect();
    // The header's macro constants, found as libcuda-sys's build script finds
    // them: what `macro_constants.rs` must hold, all of it.
    let candidates: Vec<&str> = names::constant_candidates(&macros, &items).collect();
    let (expansions, _) = header.expand(&candidates)?;
    let of_header: Vec<String> =
        names::constants(&expansions, &macros, &items).into_iter().map(|c| c.name).collect();
    let pairs: Vec<(&str, &str)> =
        renames.iter().map(|r| (r.plain.as_str(), r.target.as_str())).collect();
    write(
        &out_dir,
        "read_tables.rs",
        &read_tables(&bitmasks, &pairs, &macro_constants, &of_header),
    )?;
    write(
        &out_dir,
        "unbound_macros.rs",
        &format!("pub const UNBOUND_MACROS: &[(&str, &str)] = &[\n{}];\n", unbound.concat()),
    )?;
    // abi.rs returns only its total; the parts come from the inputs it counts:
    // one mempool check per distinct attribute word of the header, and one
    // run-time check per macro constant on top of the compile-time ones.
    let pool_attributes = checks.iter().filter(|c| c.key.starts_with("mempool ")).count();
    let masks = checks.iter().filter(|c| c.key.starts_with("mask ")).count();
    let target = std::env::var("TARGET").unwrap_or_default();
    let summary = serde_json::json!({
        "target": target,
        "cuda_include": include,
        "bindings": found_by,
        "per_thread_default_stream": per_thread_default_stream,
        "functions": items.functions.len(),
        "plain_names": renames.len(),
        "pool_attributes": pool_attributes,
        "bitmasks": masks,
        "macro_constants": macro_constants.len(),
        "abi_items": run_time - macro_constants.len(),
        "interop": modules,
        "static": {
            "values": statically.values.len(),
            "functions": statically.functions,
            "macro_constants": statically.macro_constants,
            "plain_names": statically.plain_names,
        },
    });
    write(&out_dir, "summary.json", &format!("{summary:#}\n"))?;
    // Every value the static check compared, so that targets can be set side by side.
    let values: serde_json::Map<String, serde_json::Value> = statically
        .values
        .iter()
        .map(|(key, value)| {
            // 64-bit masks exceed i64; every value fits one of the two.
            let value = i64::try_from(*value)
                .map(serde_json::Value::from)
                .or_else(|_| u64::try_from(*value).map(serde_json::Value::from))
                .unwrap_or_else(|_| serde_json::Value::from(value.to_string()));
            (key.clone(), value)
        })
        .collect();
    write(&out_dir, "abi_values.json", &format!("{:#}\n", serde_json::Value::Object(values)))?;
    println!("cargo::rustc-env=SYSTEST_INCLUDE_DIR={include}");
    println!("cargo::rustc-env=SYSTEST_BINDINGS={found_by}");
    eprintln!(
        "systest: {run_time} run-time and {} static ABI checks for {target} against {include}",
        statically.values.len() + statically.functions + statically.plain_names
    );
    Ok(())
}

/// What systest read of the tables, for the tests to compare with what the
/// crate exports (`libcuda_sys::BITMASKS`, `PLAIN_NAMES`) and with the header.
fn read_tables(
    bitmasks: &[String],
    plain_names: &[(&str, &str)],
    macro_constants: &[String],
    of_header: &[String],
) -> String {
    format!(
        "/// The masks whose `|` the ABI check compares, as read from `BITMASKS`.\n\
         pub const READ_BITMASKS: &[&str] = &{bitmasks:?};\n\
         /// `(plain name, target)` as read from `renames.rs`.\n\
         pub const READ_PLAIN_NAMES: &[(&str, &str)] = &{plain_names:?};\n\
         /// The constants read from `macro_constants.rs`.\n\
         pub const READ_MACRO_CONSTANTS: &[&str] = &{macro_constants:?};\n\
         /// The macro constants the header's macros give, found as the build script finds them.\n\
         pub const HEADER_MACRO_CONSTANTS: &[&str] = &{of_header:?};\n"
    )
}

fn write(out_dir: &Path, name: &str, text: &str) -> model::Result<()> {
    let path = out_dir.join(name);
    std::fs::write(&path, text).map_err(|e| env::write_error(&path, e))
}

/// Check sources that say why nothing is checked.
fn skip(out_dir: &Path, why: &str) -> model::Result<()> {
    let rs = format!(
        "pub const SKIPPED: Option<&str> = Some({why:?});\n\
         pub fn rust_side() -> Vec<(&'static str, i128)> {{ Vec::new() }}\n\
         pub fn plain_name_addresses() -> [(&'static str, *const ()); 0] {{ [] }}\n\
         pub fn macro_values() -> Vec<(&'static str, i128)> {{ Vec::new() }}\n\
         pub const FUNCTIONS: usize = 0;\n\
         pub const FUNCTION_NAMES: &[&str] = &[];\n\
         pub fn all_functions() -> [(&'static str, *const ()); 0] {{ [] }}\n"
    );
    write(out_dir, "abi_check.rs", &rs)?;
    write(out_dir, "summary.json", &format!("{:#}\n", serde_json::json!({ "skipped": why })))?;
    write(out_dir, "abi_values.json", "{}\n")?;
    write(out_dir, "unbound_macros.rs", "pub const UNBOUND_MACROS: &[(&str, &str)] = &[];\n")?;
    write(out_dir, "read_tables.rs", &read_tables(&[], &[], &[], &[]))?;
    println!("cargo::rustc-env=SYSTEST_INCLUDE_DIR=");
    println!(
        "cargo::rustc-env=SYSTEST_BINDINGS={}",
        std::env::var("DEP_CUDA_FOUND_BY").unwrap_or_default()
    );
    Ok(())
}

/// The C compiler libcuda-sys's build script uses: cc's choice for the target, with `CC`/`CFLAGS`.
fn c_compiler(include: Option<&Path>, defines: &[&str]) -> model::Result<env::Compiler> {
    let mut build = cc::Build::new();
    build.cargo_warnings(false).includes(include);
    for d in defines {
        build.define(d, None);
    }
    let tool = build.try_get_compiler().map_err(|e| env::no_compiler("", &e.to_string()))?;
    Ok(env::Compiler::from_command(&tool.to_command(), tool.path(), tool.is_like_msvc()))
}
