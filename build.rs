//! Build script of libcuda-sys. What it reads, decides and emits is documented
//! for users in the crate's rustdoc (`src/lib.rs`); this file only orders the
//! steps, each a module of `build/` that returns a plain value or an error:
//! mode (where the bindings come from, which CUDA release) -> discover (find
//! `cuda.h`) -> the bindings, generated from the headers (bindgen) or the
//! pregenerated release (`pregenerated/`) -> the driver floor -> link (which
//! libcuda) -> emit (every `cargo::` line). Besides `emit`, only the env
//! helper prints: each variable read with its `rerun-if-env-changed`, and the
//! `-vv` log on stderr.

// The steps, each a module of build/ (CONTRIBUTING has the map of what
// each does and may import); their `crate::` paths resolve through these imports.
#[path = "build/mod.rs"]
mod steps;

use steps::preprocess;
#[cfg(feature = "bindgen")]
use steps::{bindings, items, macro_constants, members};
use steps::{discover, docs, emit, env, error, floor, link, mode, output, pregenerated, release};
use steps::{renames, sections, since, tables, value_types, version, watch, write};

use mode::Mode;
use output::Bindings;

fn main() {
    if let Err(e) = run() {
        // One warning line that shows without -vv, then the whole story on
        // stderr, which Cargo prints when the script fails. No panic, no backtrace.
        println!("cargo::warning={}", e.summary.replace(['\n', '\r'], " "));
        eprintln!("\n{e}\n");
        std::process::exit(1);
    }
}

fn run() -> error::Result<()> {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=build");
    println!("cargo::rerun-if-changed=wrapper.h");
    println!("cargo::rerun-if-changed=pregenerated");
    let target = env::Target::from_cargo();
    // Passed on as DEP_CUDA_BINDINGS_DIR in every mode: whole, or not at all.
    env::directive_path("OUT_DIR", &target.out_dir)?;

    let releases = pregenerated::releases(&target)?;
    let release = mode::release(&releases)?;
    let mode = mode::choose()?;
    let floor = floor::from_env()?;
    // Checked in every mode: a typo in a variable is never hidden by the fallback.
    let lib_dir_override = discover::lib_dir_override(&target)?;
    let search = discover::discover(&target, mode.searches())?;

    // Headers in hand that are not generated from still decide the release,
    // unless a feature names one.
    let pregenerated = |mut why: mode::Why, toolkit: Option<discover::Toolkit>| {
        let number = match (&toolkit, release.requested) {
            (Some(toolkit), None) => {
                let found = version::of_headers(&toolkit.include_dir)?;
                let (number, note) = mode::release_of_headers(&releases, found, toolkit)?;
                why.release = Some(note);
                number
            }
            _ => release.pregenerated(),
        };
        pregenerated::load(&target, number, why, toolkit)
    };
    let mut bindings = match (mode, search) {
        (Mode::Pregenerated(why), search) => pregenerated(why, search.found())?,
        (Mode::Generate, discover::Search::NotFound(e)) => return Err(e),
        (Mode::Generate, discover::Search::Found(toolkit)) => {
            match generate(&target, toolkit, &release)? {
                Generated::Bindings(b) => *b,
                Generated::OtherRelease(toolkit, found) => {
                    return Err(mode::release_mismatch(&release, found, &toolkit))
                }
            }
        }
        (Mode::Auto, discover::Search::NotFound(e)) => {
            pregenerated(mode::fallback(&e, &target), None)?
        }
        (Mode::Auto, discover::Search::Found(toolkit)) => match mode::libclang() {
            Ok(()) => match generate(&target, toolkit, &release)? {
                Generated::Bindings(b) => *b,
                Generated::OtherRelease(toolkit, found) => {
                    let why = mode::other_release(&release, found, &toolkit);
                    pregenerated(why, Some(toolkit))?
                }
            },
            Err(e) => pregenerated(mode::fallback(&e, &target), Some(toolkit))?,
        },
    };
    floor::apply(&mut bindings, floor, &target)?;
    write::all(&bindings, &target.out_dir)?;

    // Linked: the linker resolves every function against libcuda (or a stand-in).
    // Dynamic loading: each function calls through a table filled at run time.
    let link = if target.dynamic_loading() {
        None
    } else {
        let stub_dirs = bindings.toolkit().map(|t| t.lib_dirs.as_slice());
        let link = link::choose(
            &target,
            lib_dir_override.as_deref(),
            stub_dirs.unwrap_or_default(),
            &bindings,
        )?;
        env::directive_path("the libcuda directory", &link.dir)?;
        Some(link)
    };
    emit::emit(&target, &bindings, link.as_ref(), floor);
    Ok(())
}

/// What generation gives: the bindings, or the headers' own release where a
/// release feature asks for another one.
#[cfg_attr(not(feature = "bindgen"), allow(dead_code))]
enum Generated {
    Bindings(Box<Bindings>),
    OtherRelease(discover::Toolkit, version::CudaVersion),
}

/// The bindings from the headers found, through bindgen.
#[cfg(feature = "bindgen")]
fn generate(
    target: &env::Target,
    toolkit: discover::Toolkit,
    release: &mode::Release,
) -> error::Result<Generated> {
    use quote::ToTokens;

    let header = preprocess::Header::new(
        target.manifest_dir.join("wrapper.h"),
        toolkit.include_dir.clone(),
        target.defines(),
        target.out_dir.clone(),
        target.triple.clone(),
    )?;
    let macros = header.macros()?;
    let extra_args = env::bindgen_extra_clang_args(&target.triple);
    header.check_api_defines(&macros, &extra_args)?;
    let version = version::from_macros(&header, &macros)?;
    if release.conflicts_with(version) {
        return Ok(Generated::OtherRelease(toolkit, version));
    }
    version::check_minimum(&header, version)?;
    let file = bindings::generate(&header, &macros, &extra_args)?;
    let mut items = items::read(file)?;
    let bitmasks = value_types::bitmasks(&items);
    items.drop_enum_debug();
    // One preprocessor run expands the macros both steps look at.
    let names: Vec<&str> =
        renames::candidates(&macros).chain(macro_constants::candidates(&macros, &items)).collect();
    let (expansions, _) = header.expand(&names)?;
    let renames = renames::find(&expansions, &items);
    let constants = macro_constants::find(&expansions, &macros, &items);
    Ok(Generated::Bindings(Box::new(Bindings {
        version,
        types: items.render_types(),
        functions: items
            .functions
            .iter()
            .map(|f| output::Function {
                name: f.name.clone(),
                decl: f.item.to_token_stream().to_string(),
            })
            .collect(),
        renames,
        macro_constants: macro_constants::render(&constants),
        since: since::find(&toolkit.include_dir, &items)?,
        typed: value_types::find(&items),
        enumerators: items
            .constants
            .iter()
            .filter_map(|k| {
                Some(output::Enumerator {
                    owner: k.owner.clone()?,
                    name: k.name.clone(),
                    value: k.value,
                })
            })
            .collect(),
        aliases: items.aliases.clone(),
        bitmasks,
        moved: moved_members(&items, target)?,
        history: pregenerated::history(target)?,
        origin: output::Origin::Generated {
            compiler: header.compiler_command(),
            fingerprint: header.fingerprint()?,
            toolkit,
        },
    })))
}

/// Where the generated bindings have each member that moved between releases;
/// one that is not an integer is left out, as its accessor could not read it
/// from a union safely.
#[cfg(feature = "bindgen")]
fn moved_members(items: &items::Items, target: &env::Target) -> error::Result<Vec<output::Moved>> {
    let wanted = pregenerated::moved_members(target)?;
    Ok(members::all(&items.types)
        .into_iter()
        .filter(|m| m.integer && wanted.iter().any(|(r, n)| *r == m.record && *n == m.name))
        .map(|m| output::Moved { record: m.record, member: m.name, path: m.path, ty: m.ty })
        .collect())
}

/// Without the `bindgen` feature `mode::choose` never asks for generation;
/// should it ever, the build says so instead of panicking.
#[cfg(not(feature = "bindgen"))]
fn generate(_: &env::Target, _: discover::Toolkit, _: &mode::Release) -> error::Result<Generated> {
    Err(mode::needs_bindgen_feature())
}
