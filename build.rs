//! Build script of libcuda-sys. What it reads, decides and emits is documented
//! for users in the crate's rustdoc (`src/lib.rs`); this file runs the stages
//! of the libcuda-sys-build crate (`build-logic/`) in order, handing each the
//! plain values the one before gave, and holds what needs the crates that one
//! does not link, bindgen, cc and pkg-config (see Cargo.toml for why):
//! find (the mode and release asked for, the headers) -> make (the bindings,
//! generated from the headers or the pregenerated release, and the driver
//! floor applied) -> write (the files, the library to link, every `cargo::`
//! line). Besides `write::emit`, only the env helper prints: each variable read
//! with its `rerun-if-env-changed`, and the `-vv` log on stderr.

use libcuda_sys_build::env::{self, Compiler};
use libcuda_sys_build::find::{self, mode::Mode, toolkit::Search};
#[cfg(feature = "bindgen")]
use libcuda_sys_build::make::{attributes, generator, header, items, names, reference, since};
use libcuda_sys_build::model::{self, Bindings, Origin, Toolkit};
use libcuda_sys_build::{interop, make, pregenerated, write};

/// This crate's features, as the script was compiled with them.
const FEATURES: env::Features = env::Features {
    bindgen: cfg!(feature = "bindgen"),
    per_thread_default_stream: cfg!(feature = "per-thread-default-stream"),
    dynamic_loading: cfg!(feature = "dynamic-loading"),
    releases: &[
        (11070, cfg!(feature = "cuda-11070")),
        (11080, cfg!(feature = "cuda-11080")),
        (12000, cfg!(feature = "cuda-12000")),
        (12010, cfg!(feature = "cuda-12010")),
        (12020, cfg!(feature = "cuda-12020")),
        (12030, cfg!(feature = "cuda-12030")),
        (12040, cfg!(feature = "cuda-12040")),
        (12050, cfg!(feature = "cuda-12050")),
        (12060, cfg!(feature = "cuda-12060")),
        (12080, cfg!(feature = "cuda-12080")),
        (12090, cfg!(feature = "cuda-12090")),
        (13000, cfg!(feature = "cuda-13000")),
        (13010, cfg!(feature = "cuda-13010")),
        (13020, cfg!(feature = "cuda-13020")),
        (13030, cfg!(feature = "cuda-13030")),
        (13040, cfg!(feature = "cuda-13040")),
        (13050, cfg!(feature = "cuda-13050")),
    ],
    interop: &[
        ("gl", cfg!(feature = "gl")),
        ("egl", cfg!(feature = "egl")),
        ("vdpau", cfg!(feature = "vdpau")),
        ("d3d9", cfg!(feature = "d3d9")),
        ("d3d10", cfg!(feature = "d3d10")),
        ("d3d11", cfg!(feature = "d3d11")),
    ],
};

fn main() {
    model::panics::install();
    let ran = model::panics::caught(run).unwrap_or_else(|panic| {
        Err(model::panics::error("choosing and writing the bindings", &panic))
    });
    if let Err(e) = ran {
        // One warning line that shows without -vv, then the whole story on
        // stderr, which Cargo prints when the script fails. No panic, no backtrace.
        println!("cargo::warning={}", e.summary.replace(['\n', '\r'], " "));
        eprintln!("\n{e}\n");
        std::process::exit(1);
    }
}

fn run() -> model::Result<()> {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=wrapper.h");
    println!("cargo::rerun-if-changed=pregenerated");
    let target = env::Target::from_cargo(FEATURES, c_compiler, pkg_config);
    target.check_pointer_width()?;
    // Passed on as DEP_CUDA_BINDINGS_DIR in every mode: whole, or not at all.
    env::directive_path("OUT_DIR", &target.out_dir)?;

    let modules = interop::enabled(FEATURES.interop, &target.os, env::docs_rs())?;
    let releases = pregenerated::releases(&target)?;
    let release = find::mode::release(&releases, FEATURES.releases)?;
    let mode = find::mode::choose(FEATURES.bindgen)?;
    let floor = find::mode::driver_floor()?;
    // Checked in every mode: a typo in a variable is never hidden by the fallback.
    let lib_dir_override = find::places::lib_dir_override(&target)?;
    let search =
        find::toolkit::discover(&target, mode.searches_everywhere(), &find::places::AUTOMATIC)?;

    // Headers in hand that are not generated from still decide the release,
    // unless a feature names one.
    let pregenerated = |mut why: model::Why, toolkit: Option<Toolkit>| {
        let number = match (&toolkit, release.requested) {
            (Some(toolkit), None) => {
                let found = find::mode::of_headers(&target, toolkit)?;
                let (number, note) = find::mode::release_of_headers(&releases, found, toolkit)?;
                why.release = Some(note);
                number
            }
            _ => release.pregenerated(),
        };
        let bindings = pregenerated::load(&target, number, &why.reason, &modules)?;
        Ok((bindings, Origin::Pregenerated { why, ignored: toolkit }))
    };
    let (mut bindings, origin) = match (mode, search) {
        (Mode::Pregenerated(why), search) => pregenerated(why, search.found())?,
        (Mode::Generate, Search::NotFound(e)) => return Err(e),
        (Mode::Generate, Search::Found(toolkit)) => {
            match generate(&target, toolkit, &release, &modules, true)? {
                Generated::Bindings(b) => *b,
                Generated::OtherRelease(toolkit, found) => {
                    return Err(find::mode::release_mismatch(&release, found, &toolkit))
                }
                Generated::WithoutLibclang(_, e)
                | Generated::WithoutClangHeaders(_, e)
                | Generated::Unreadable(_, e) => return Err(e),
            }
        }
        (Mode::Auto, Search::NotFound(e)) => {
            pregenerated(find::places::fallback(&e, &target), None)?
        }
        (Mode::Auto, Search::Found(toolkit)) => {
            match generate(&target, toolkit, &release, &modules, false)? {
                Generated::Bindings(b) => *b,
                Generated::OtherRelease(toolkit, found) => {
                    let why = find::mode::other_release(&release, found, &toolkit);
                    pregenerated(why, Some(toolkit))?
                }
                Generated::WithoutLibclang(toolkit, e) => {
                    pregenerated(find::places::fallback(&e, &target), Some(toolkit))?
                }
                Generated::WithoutClangHeaders(toolkit, e) => {
                    let why = find::places::fallback_for(&e, &target, "install that package");
                    pregenerated(why, Some(toolkit))?
                }
                Generated::Unreadable(toolkit, e) => {
                    let undo = "report the defect with the warning's text, or name other headers";
                    pregenerated(find::places::fallback_for(&e, &target, undo), Some(toolkit))?
                }
            }
        }
    };
    make::floor::apply(&mut bindings, &origin, floor, &target)?;

    // The files are rendered on a second thread while the library to link is
    // chosen, which without a driver means waiting for the C compiler to build
    // the stand-in: the one no longer waits for the other.
    let (files, link) = std::thread::scope(|scope| {
        let linked = !target.dynamic_loading();
        let (b, o, out_dir) = (&bindings, &origin, &target.out_dir);
        let files = scope.spawn(move || {
            model::panics::caught(|| {
                // Generated bindings are rendered here, their tables written out for
                // `cargo xtask pregenerate`; the pregenerated set's come rendered.
                #[cfg(feature = "bindgen")]
                let generated = match b.rendered.is_empty() {
                    true => {
                        write::render::tables(b, out_dir)?;
                        Some(write::render::files(b))
                    }
                    false => None,
                };
                #[cfg(not(feature = "bindgen"))]
                let generated: Option<Vec<(String, String)>> = None;
                write::files::all(b, generated.as_deref(), o, out_dir, linked)
            })
        });
        // Linked: the linker resolves every function against libcuda (or a stand-in).
        // Dynamic loading: each function calls through a table filled at run time.
        // docs.rs: rustdoc links nothing, for any target.
        let link = if !linked || env::docs_rs() {
            Ok(None)
        } else {
            write::link::choose(&target, lib_dir_override.as_deref(), &bindings, &origin).map(Some)
        };
        let files = model::panics::joined(files.join()).unwrap_or_else(|panic| {
            Err(model::panics::error("rendering the bindings' files", &panic))
        });
        (files, link)
    });
    files?;
    let link = link?;
    if let Some(link) = &link {
        env::directive_path("the libcuda directory", &link.dir)?;
    }
    write::emit::emit(&target, &bindings, &origin, link.as_ref(), floor);
    Ok(())
}

/// What generation gives: the bindings, the headers' own release where a
/// release feature asks for another one, or why libclang could not be loaded
/// or could not parse C at all (it lacks clang's own headers), or a header
/// this code could not read (it panicked), which the automatic mode falls back from.
#[cfg_attr(not(feature = "bindgen"), allow(dead_code))]
enum Generated {
    Bindings(Box<(Bindings, Origin)>),
    OtherRelease(Toolkit, model::CudaVersion),
    WithoutLibclang(Toolkit, model::Error),
    WithoutClangHeaders(Toolkit, model::Error),
    Unreadable(Toolkit, model::Error),
}

/// The bindings from the headers found, through bindgen.
#[cfg(feature = "bindgen")]
fn generate(
    target: &env::Target,
    toolkit: Toolkit,
    release: &find::mode::Release,
    modules: &[&interop::Interop],
    asked: bool,
) -> model::Result<Generated> {
    let extra_args = env::bindgen_extra_clang_args(&target.triple);
    // libclang loads on a second thread while the C preprocessor reads the
    // header's macros. A third reads and scans the header's text, reads
    // `cudaTypedefs.h`, expands the macros and converts the functions'
    // comments into `ready`, going on while bindgen runs. libclang that does
    // not load is said first: the automatic mode falls back from it whatever
    // the header holds.
    let ready = generator::Ready::default();
    std::thread::scope(|scope| {
        let loading = generator::Loading::start(scope);
        let prepared = (|| {
            let header = header::Header::new(
                target.manifest_dir.join("wrapper.h"),
                toolkit.include_dir.clone(),
                target.defines(),
                target.out_dir.clone(),
                target.triple.clone(),
                target.c_compiler,
            )?;
            let macros = header.macros()?;
            let candidates: Vec<String> =
                names::rename_candidates(&macros).map(str::to_string).collect();
            // One preprocessor run expands the macros both plain names and
            // macro constants look at, before the bindings say which those are.
            let expandable: Vec<String> = candidates
                .iter()
                .map(String::as_str)
                .chain(names::expandable(&macros))
                .map(str::to_string)
                .collect();
            let read = {
                let (header, include_dir) = (header.clone(), toolkit.include_dir.clone());
                let ready = ready.clone();
                scope.spawn(move || {
                    model::panics::caught(|| {
                        let cuda_h = header.cuda_h()?;
                        let scanned = reference::scan(&header.documented(&cuda_h));
                        let typedefs = since::read(&include_dir, &[])?;
                        let names: Vec<&str> = expandable.iter().map(String::as_str).collect();
                        let (expanded, _) = header.expand(&names)?;
                        // libclang loses the comment of a declaration whose name a macro
                        // rewrites: each is taken from the header's text, as Markdown.
                        let lost: std::collections::HashMap<String, String> = candidates
                            .into_iter()
                            .filter_map(|plain| {
                                let markdown =
                                    generator::converted(scanned.comment(&plain)?, &ready);
                                Some((plain, markdown))
                            })
                            .collect();
                        generator::convert_ahead(scanned.comments(), &ready);
                        Ok::<_, model::Error>((scanned, cuda_h, lost, typedefs, expanded))
                    })
                })
            };
            header.check_api_defines(&macros, &extra_args)?;
            let version = header::from_macros(&header, &macros)?;
            Ok::<_, model::Error>((header, macros, version, read))
        })();
        // Without libclang the automatic mode falls back whatever the header
        // holds; where generation was asked for, what is wrong with the header
        // or the C compiler, which needs no libclang to tell, is said first.
        let libclang = match (loading.finish(), asked) {
            (Err(e), false) => return Ok(Generated::WithoutLibclang(toolkit, e)),
            (libclang, _) => libclang,
        };
        let (header, macros, version, read) = prepared?;
        if release.conflicts_with(version) {
            return Ok(Generated::OtherRelease(toolkit, version));
        }
        header::check_minimum(&header, version)?;
        if let Err(e) = libclang {
            return Ok(Generated::WithoutLibclang(toolkit, e));
        }
        let unsigned = generator::unsigned_macros(&macros);
        let parsed = run_bindgen(&header, &unsigned, &extra_args, None, &ready);
        let read = match model::panics::joined(read.join()) {
            Ok(read) => read,
            // A header this code cannot read: the automatic mode falls back from it.
            Err(panic) => {
                let doing = format!("reading {}", header.include_dir.join("cuda.h").display());
                return Ok(Generated::Unreadable(toolkit, model::panics::error(&doing, &panic)));
            }
        };
        let prepared = (header, &macros[..], version, extra_args);
        generated(target, toolkit, modules, prepared, parsed, read)
    })
}

/// The header's text as read and scanned, the comments libclang loses,
/// `cudaTypedefs.h`'s versions, and the expansions of the macros that may
/// be plain names or constants.
#[cfg(feature = "bindgen")]
type Read = (
    reference::Scanned,
    Vec<u8>,
    std::collections::HashMap<String, String>,
    Option<since::Variants>,
    Vec<(String, String)>,
);

/// The header, its macros and release, and the extra clang flags.
#[cfg(feature = "bindgen")]
type Prepared<'a> =
    (header::Header, &'a [(String, String)], model::CudaVersion, Vec<(String, Option<String>)>);

/// The bindings from bindgen's output and what was read beside it.
#[cfg(feature = "bindgen")]
fn generated(
    target: &env::Target,
    mut toolkit: Toolkit,
    modules: &[&interop::Interop],
    (header, macros, version, extra_args): Prepared<'_>,
    parsed: model::Result<Parsed>,
    read: model::Result<Read>,
) -> model::Result<Generated> {
    let file = match parsed? {
        Parsed::File(file) => file,
        Parsed::WithoutClangHeaders(e) => return Ok(Generated::WithoutClangHeaders(toolkit, e)),
    };
    let (scanned, cuda_h, lost, typedefs, expanded) = read?;
    toolkit.warnings.extend(header.nul_byte(&cuda_h));
    let mut items = items::read(file)?;
    let functions: Vec<&str> = items.functions.iter().map(|f| f.name.as_str()).collect();
    // Another release's cuda.h first is the likelier cause of missing functions.
    header::check_same(&header, version, items.define("CUDA_VERSION"))?;
    header.check_abi(&functions, macros, &extra_args)?;
    // Flags that reach bindgen alone must not change a layout either.
    header.check_layouts(&items.layouts(), &extra_args)?;
    let bitmasks = items::bitmasks(&items);
    items.drop_enum_debug();
    let names: Vec<&str> = names::rename_candidates(macros)
        .chain(names::constant_candidates(macros, &items))
        .collect();
    let expansions = names::expansions_of(&names, &expanded);
    let renames = names::renames(&expansions, &items);
    for r in &renames {
        if let Some(markdown) = lost.get(r.plain.as_str()) {
            items.document(&r.target, markdown);
        }
    }
    let constants = names::constants(&expansions, macros, &items);
    let mut since = since::matched(typedefs.as_ref(), &items);
    let mut bound = Vec::new();
    if !modules.is_empty() {
        let stand_ins = interop::write_stand_ins(modules, &target.out_dir)?;
        for m in modules {
            let (module, dated) = generate_module(&header, m, &items, &extra_args, &stand_ins)?;
            if let (Some(since), Some(dated)) = (since.as_mut(), dated) {
                since.extend(dated);
            }
            bound.push(module);
        }
    }
    let origin = Origin::Generated {
        compiler: header.natural_compiler_command(),
        fingerprint: header::fingerprint(&cuda_h),
        watch: find::places::generated(target, &toolkit.include_dir),
        toolkit,
    };
    Ok(Generated::Bindings(Box::new((
        Bindings {
            version,
            types: items.render_types(),
            functions: items.model_functions(),
            renames,
            names: items::names(&items.types)
                .into_iter()
                .chain(constants.iter().map(|c| c.name.clone()))
                .collect(),
            macro_constants: names::render_constants(&constants),
            since,
            typed: attributes::find(&items)
                .map_err(|e| model::Error::new("the attribute facts table is damaged", e))?,
            enumerators: items.model_enumerators(),
            aliases: items.aliases.clone(),
            bitmasks,
            moved: moved_members(&items, target)?,
            history: pregenerated::history(target)?,
            reference: scanned.reference,
            modules: bound,
            rendered: Vec::new(),
        },
        origin,
    ))))
}

/// What one interop module's pass gives: the module, and its functions'
/// versions (`None` without `cudaTypedefs.h`).
#[cfg(feature = "bindgen")]
type ModulePass = (model::Module, Option<std::collections::BTreeMap<String, u32>>);

/// One interop module's pass: bindgen over `wrapper.h` and the module's
/// header, only the items that header declares (and what they use), less what
/// `bound` (the bindings of `cuda.h`) has; its plain names from the same
/// preprocessor steps as `cuda.h`'s, dated from its own `*Typedefs.h`.
#[cfg(feature = "bindgen")]
fn generate_module(
    header: &header::Header,
    m: &interop::Interop,
    bound: &items::Items,
    extra_args: &[(String, Option<String>)],
    stand_ins: &std::path::Path,
) -> model::Result<ModulePass> {
    interop::check_header(m, &header.include_dir)?;
    let mut flags: Vec<String> = interop::DEFINES.iter().map(|d| format!("-D{d}")).collect();
    // After every other include directory, so that a header the system has
    // wins; or first, for a module whose system headers add nothing.
    let place = if m.reads_system_headers { "-idirafter" } else { "-I" };
    flags.extend([place.to_string(), stand_ins.display().to_string()]);
    let header = header.with_module(m.source(), flags);
    let macros = header.macros()?;
    let unsigned = generator::unsigned_macros(&macros);
    let ready = generator::Ready::default();
    let file = match run_bindgen(&header, &unsigned, extra_args, Some(m), &ready)? {
        Parsed::File(file) => file,
        // cuda.h's own pass has parsed: libclang has its headers.
        Parsed::WithoutClangHeaders(e) => return Err(e),
    };
    let file = items::without(file, bound);
    let mut items = items::read(file)?;
    // Its enums' `Debug` is the crate's, by name, as for cuda.h's.
    items.drop_enum_debug();
    // The ABI check over cuda.h's functions and the module's together: a module
    // of no per-thread function (EGL) is no sign that the define was lost.
    let functions: Vec<&str> =
        bound.functions.iter().chain(&items.functions).map(|f| f.name.as_str()).collect();
    header.check_abi(&functions, &macros, extra_args)?;
    let names: Vec<&str> = names::rename_candidates(&macros).collect();
    let (expansions, _) = header.expand(&names)?;
    let renames = names::renames(&expansions, &items);
    let scanned = reference::scan(&header.module_text(m.header));
    for r in &renames {
        if let Some(comment) = scanned.comment(&r.plain) {
            items.document(&r.target, &generator::markdown(comment));
        }
    }
    let since = since::matched(since::read(&header.include_dir, &[m.typedefs])?.as_ref(), &items);
    let module = model::Module {
        name: m.feature,
        header: m.header,
        typedefs: m.typedefs,
        types: items.render_types(),
        functions: items.model_functions(),
        renames,
        enumerators: items.model_enumerators(),
        aliases: items.aliases.clone(),
        reference: scanned.reference,
    };
    Ok((module, since))
}

/// Where the generated bindings have each member that moved between releases;
/// one that is not an integer is left out, as its accessor could not read it
/// from a union safely.
#[cfg(feature = "bindgen")]
fn moved_members(items: &items::Items, target: &env::Target) -> model::Result<Vec<model::Moved>> {
    let wanted = pregenerated::moved_members(target)?;
    Ok(items::all(&items.types)
        .into_iter()
        .filter(|m| m.integer && wanted.iter().any(|(r, n)| *r == m.record && *n == m.name))
        .map(|m| model::Moved { record: m.record, member: m.name, path: m.path, ty: m.ty })
        .collect())
}

/// Without the `bindgen` feature `find::mode::choose` never asks for generation;
/// should it ever, the build says so instead of panicking.
#[cfg(not(feature = "bindgen"))]
fn generate(
    _: &env::Target,
    _: Toolkit,
    _: &find::mode::Release,
    _: &[&interop::Interop],
    _: bool,
) -> model::Result<Generated> {
    Err(find::mode::needs_bindgen_feature())
}

/// What bindgen made of `wrapper.h`.
#[cfg(feature = "bindgen")]
enum Parsed {
    /// The bindings read back as a syntax tree, with their comments.
    File(generator::File),
    /// libclang lacks clang's own headers (`stddef.h`): no C parses.
    WithoutClangHeaders(model::Error),
}

/// bindgen over `wrapper.h` with the crate's settings; for an interop
/// `module`, over its header too, keeping only what that header declares.
#[cfg(feature = "bindgen")]
fn run_bindgen(
    header: &header::Header,
    unsigned: &std::collections::HashMap<String, generator::Unsigned>,
    extra_args: &[(String, Option<String>)],
    module: Option<&interop::Interop>,
    ready: &generator::Ready,
) -> model::Result<Parsed> {
    use bindgen::callbacks::{IntKind, ParseCallbacks};

    #[derive(Debug)]
    struct Callbacks {
        unsigned: std::collections::HashMap<String, generator::Unsigned>,
        comments: generator::Comments,
    }
    impl ParseCallbacks for Callbacks {
        fn int_macro(&self, name: &str, value: i64) -> Option<IntKind> {
            match self.unsigned.get(name).filter(|_| value < 0)? {
                generator::Unsigned::Int => Some(IntKind::UInt),
                generator::Unsigned::LongLong => Some(IntKind::ULongLong),
            }
        }
        fn process_comment(&self, comment: &str) -> Option<String> {
            Some(self.comments.stand_in(comment))
        }
    }

    let (comments, converter) = generator::Comments::start(ready.clone());
    let (major, minor) = generator::RUST_TARGET;
    let builder = bindgen::Builder::default()
        .header_contents("libcuda_sys.h", &header.source())
        .clang_arg(format!("-I{}", header.include_dir.display()));
    let builder = match module {
        None => builder
            .allowlist_function("cu.*")
            .allowlist_type("CU.*|cuuint(32|64)_t|cudaError_enum")
            .allowlist_var("CU.*|CUDA_.*"),
        // The header's items and what they use (`MAX_PLANES` is no `CU*`
        // name); the window system's types are the crate's own, and opaque to
        // bindgen, so that it does not follow them (MinGW's COM interfaces
        // would bring their vtables and Direct3D's structs).
        Some(m) => builder
            .allowlist_file(m.allowlist_file())
            .blocklist_type(interop::blocklist())
            .opaque_type(interop::blocklist())
            .clang_args(&header.module_flags),
    };
    let mut builder =
        builder
            // A C enum value the Rust enum does not list would be undefined
            // behaviour, and newer drivers do return new values.
            .default_enum_style(bindgen::EnumVariation::NewType {
                is_bitfield: false,
                is_global: false,
            })
            .must_use_type("CUresult")
            .must_use_type("cudaError_enum")
            .derive_default(true)
            .layout_tests(true)
            .use_core()
            .ctypes_prefix("::core::ffi")
            .generate_comments(true)
            // Nobody reads the file: the compiler does. (The pregenerated set is formatted by xtask.)
            .formatter(bindgen::Formatter::None)
            .rust_target(bindgen::RustTarget::stable(major, minor).map_err(|e| {
                model::Error::new("bindgen rejected the Rust target", e.to_string())
            })?)
            .parse_callbacks(Box::new(bindgen::CargoCallbacks::new()))
            .parse_callbacks(Box::new(Callbacks { unsigned: unsigned.clone(), comments }));
    for d in &header.defines {
        builder = builder.clang_arg(format!("-D{d}"));
    }
    if let Some(dir) = generator::resource_dir() {
        env::log(format!("clang resource directory {}", dir.display()));
        builder = builder.clang_arg(format!("-resource-dir={}", dir.display()));
    }
    let generated = model::panics::caught(|| builder.generate()).map_err(|panic| {
        generator::stopped(&header.include_dir, &header.target_triple, &panic, extra_args)
    })?;
    let bindings = match generated {
        Ok(bindings) => bindings,
        Err(e) => {
            let e = e.to_string();
            return match generator::without_clang_headers(&header.include_dir, &e) {
                Some(missing) => Ok(Parsed::WithoutClangHeaders(missing)),
                None => Err(generator::unparsable(&header.include_dir, &header.target_triple, &e)),
            };
        }
    };
    let text = bindings.to_string();
    // The callbacks, and with them the converter's input, end with the bindings.
    drop(bindings);
    // Read back with the comments' stand-ins while the converter finishes.
    let mut file = generator::read(&text, unsigned)?;
    converter.fill(&mut file, &text)?;
    Ok(Parsed::File(file))
}

/// The target's C compiler as cc selects it, with the user's `CC`/`CFLAGS`,
/// and `include`/`defines` where given.
fn c_compiler(include: Option<&std::path::Path>, defines: &[&str]) -> model::Result<Compiler> {
    let mut build = cc::Build::new();
    // cc's metadata is its `rerun-if-env-changed` lines for CC, CFLAGS, ...;
    // it prints link lines only from `compile()`, which is never called.
    build.cargo_metadata(true).cargo_warnings(false);
    if let Some(dir) = include {
        build.include(dir);
    }
    for d in defines {
        build.define(d, None);
    }
    let tool = build.try_get_compiler().map_err(|e| env::no_compiler("", &e.to_string()))?;
    let compiler = Compiler::from_command(&tool.to_command(), tool.path(), tool.is_like_msvc());
    // The same compiler with CFLAGS twice tells which words are the user's
    // (cc splits them): the layout check leaves them out. None set: an error.
    Ok(match build.try_flags_from_environment("CFLAGS").map(|b| b.try_get_compiler()) {
        Ok(Ok(with_user)) => compiler.with_user_flags(&with_user.to_command()),
        _ => compiler,
    })
}

/// pkg-config's include paths for `name`.
#[cfg(feature = "bindgen")]
fn pkg_config(name: &str, register: bool) -> Result<Vec<std::path::PathBuf>, env::Probe> {
    let mut config = pkg_config::Config::new();
    match config.cargo_metadata(false).env_metadata(register).probe(name) {
        Ok(lib) => Ok(lib.include_paths),
        Err(pkg_config::Error::Command { .. }) => Err(env::Probe::NotInstalled),
        Err(e) => Err(env::Probe::Failed(e.to_string())),
    }
}

/// Without the `bindgen` feature the build never searches the machine (the
/// pregenerated set needs no headers; `find::mode::Mode::searches_everywhere`),
/// and pkg-config is not compiled.
#[cfg(not(feature = "bindgen"))]
fn pkg_config(_: &str, _: bool) -> Result<Vec<std::path::PathBuf>, env::Probe> {
    Err(env::Probe::NotInstalled)
}
