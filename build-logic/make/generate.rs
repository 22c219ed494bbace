//! The make stage's generation: a toolkit's headers through the C
//! preprocessor, libclang and bindgen to [`Bindings`], the graphics-interop
//! modules included. bindgen itself is the build script's ([`Bindgen`]): this
//! crate does not link it, so that the two compile side by side.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::env::{self, Target};
use crate::interop::{self, Interop};
use crate::make::generator::{self, Unsigned};
use crate::make::{attributes, comments, header, items, libclang, names, reference, since};
use crate::model::Watch;
use crate::model::{
    self, panics, Bindings, CudaVersion, Error, Generated, Origin, Result, Toolkit,
};

/// One run of bindgen as the build script makes it ([`Bindgen`]).
pub struct Run<'a> {
    /// The source bindgen reads (`wrapper.h`, and a module's header).
    pub source: String,
    /// `-I`, `-D` and the module's flags, libclang's resource directory.
    pub clang_args: Vec<String>,
    /// `None` for `cuda.h`; for an interop module, keep only what its header declares.
    pub module: Option<&'a Interop>,
    /// What bindgen's parse callbacks answer.
    pub callbacks: Callbacks,
}

/// The build script's bindgen over a [`Run`] with the crate's settings: its
/// output's text, or bindgen's error as text; `Err` only for a setting bindgen
/// refuses.
pub type Bindgen = fn(Run<'_>) -> Result<std::result::Result<String, String>>;

/// What bindgen's parse callbacks answer, for the build script's `ParseCallbacks`.
#[derive(Debug)]
pub struct Callbacks {
    unsigned: HashMap<String, Unsigned>,
    comments: comments::Comments,
}

impl Callbacks {
    /// The C type of integer macro `name`, where `value` is its unsigned value read as signed.
    pub fn unsigned(&self, name: &str, value: i64) -> Option<Unsigned> {
        self.unsigned.get(name).filter(|_| value < 0).copied()
    }

    /// The stand-in bindgen writes for `comment`, filled once the converter is done.
    pub fn comment(&self, comment: &str) -> String {
        self.comments.stand_in(comment)
    }
}

/// The bindings from `toolkit`'s headers. `requested`: the release a feature
/// asks for; `watch`: what changes them besides the headers bindgen reads;
/// `asked`: generation was asked for (no fallback).
pub fn generate(
    target: &Target,
    toolkit: Toolkit,
    watch: Watch,
    requested: Option<u32>,
    modules: &[&Interop],
    asked: bool,
    bindgen: Bindgen,
) -> Result<Generated> {
    let extra_args = env::bindgen_extra_clang_args(&target.triple);
    // libclang loads on a second thread while the C preprocessor reads the
    // header's macros. A third reads and scans the header's text, reads
    // `cudaTypedefs.h`, expands the macros and converts the functions'
    // comments into `ready`, going on while bindgen runs. libclang that does
    // not load is said first: the automatic mode falls back from it whatever
    // the header holds.
    let ready = comments::Ready::default();
    std::thread::scope(|scope| {
        let loading = libclang::Loading::start(scope);
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
                    panics::caught(|| read(&header, &include_dir, candidates, &expandable, &ready))
                })
            };
            header.check_api_defines(&macros, &extra_args)?;
            let version = header::from_macros(&header, &macros)?;
            Ok::<_, Error>((header, macros, version, read))
        })();
        // Without libclang the automatic mode falls back whatever the header
        // holds; where generation was asked for, what is wrong with the header
        // or the C compiler, which needs no libclang to tell, is said first.
        let libclang = match (loading.finish(), asked) {
            (Err(e), false) => return Ok(Generated::Cannot(toolkit, e, model::INSTALL)),
            (libclang, _) => libclang,
        };
        let (header, macros, version, read) = prepared?;
        if requested.is_some_and(|r| r != version.number) {
            return Ok(Generated::OtherRelease(toolkit, version));
        }
        header::check_minimum(&header, version)?;
        if let Err(e) = libclang {
            return Ok(Generated::Cannot(toolkit, e, model::INSTALL));
        }
        let unsigned = generator::unsigned_macros(&macros);
        let parsed = run(bindgen, &header, &unsigned, &extra_args, None, &ready);
        let read = match panics::joined(read.join()) {
            Ok(read) => read,
            // A header this code cannot read: the automatic mode falls back from it.
            Err(panic) => {
                let doing = format!("reading {}", header.include_dir.join("cuda.h").display());
                return Ok(Generated::Cannot(toolkit, panics::error(&doing, &panic), UNREADABLE));
            }
        };
        let file = match parsed? {
            Parsed::File(file) => file,
            Parsed::Cannot(e, undo) => return Ok(Generated::Cannot(toolkit, e, undo)),
        };
        let prepared = Prepared { header, macros: &macros, version, extra_args, watch };
        generated(target, toolkit, modules, prepared, file, read?, bindgen)
    })
}

/// The header's text as read and scanned, the comments libclang loses,
/// `cudaTypedefs.h`'s versions, and the expansions of the macros that may
/// be plain names or constants.
struct Read {
    scanned: reference::Scanned,
    cuda_h: Vec<u8>,
    lost: HashMap<String, String>,
    typedefs: Option<since::Variants>,
    expanded: Vec<(String, String)>,
}

/// What the header-reading thread does beside bindgen.
fn read(
    header: &header::Header,
    include_dir: &Path,
    candidates: Vec<String>,
    expandable: &[String],
    ready: &comments::Ready,
) -> Result<Read> {
    let cuda_h = header.cuda_h()?;
    let scanned = reference::scan(&header.documented(&cuda_h));
    let typedefs = since::read(include_dir, &[])?;
    let names: Vec<&str> = expandable.iter().map(String::as_str).collect();
    let (expanded, _) = header.expand(&names)?;
    // libclang loses the comment of a declaration whose name a macro
    // rewrites: each is taken from the header's text, as Markdown.
    let lost = candidates
        .into_iter()
        .filter_map(|plain| {
            let markdown = comments::converted(scanned.comment(&plain)?, ready);
            Some((plain, markdown))
        })
        .collect();
    comments::convert_ahead(scanned.comments(), ready);
    Ok(Read { scanned, cuda_h, lost, typedefs, expanded })
}

/// The header, its macros and release, the extra clang flags, the watch.
struct Prepared<'a> {
    header: header::Header,
    macros: &'a [(String, String)],
    version: CudaVersion,
    extra_args: Vec<(String, Option<String>)>,
    watch: Watch,
}

/// The bindings from bindgen's output (`file`) and what was read beside it.
fn generated(
    target: &Target,
    mut toolkit: Toolkit,
    modules: &[&Interop],
    Prepared { header, macros, version, extra_args, watch }: Prepared<'_>,
    file: generator::File,
    read: Read,
    bindgen: Bindgen,
) -> Result<Generated> {
    toolkit.warnings.extend(header.nul_byte(&read.cuda_h));
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
    let expansions = names::expansions_of(&names, &read.expanded);
    let renames = names::renames(&expansions, &items);
    for r in &renames {
        if let Some(markdown) = read.lost.get(r.plain.as_str()) {
            items.document(&r.target, markdown);
        }
    }
    let constants = names::constants(&expansions, macros, &items);
    let mut since = since::matched(read.typedefs.as_ref(), &items);
    let mut bound = Vec::new();
    if !modules.is_empty() {
        let stand_ins = interop::write_stand_ins(modules, &target.out_dir)?;
        for m in modules {
            let (module, dated) = module(bindgen, &header, m, &items, &extra_args, &stand_ins)?;
            if let (Some(since), Some(dated)) = (since.as_mut(), dated) {
                since.extend(dated);
            }
            bound.push(module);
        }
    }
    let origin = Origin::Generated {
        compiler: header.natural_compiler_command(),
        fingerprint: header::fingerprint(&read.cuda_h),
        watch,
        toolkit,
    };
    let bindings = Bindings {
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
            .map_err(|e| Error::new("the attribute facts table is damaged", e))?,
        enumerators: items.model_enumerators(),
        aliases: items.aliases.clone(),
        bitmasks,
        moved: moved_members(&items, target)?,
        history: crate::pregenerated::history(target)?,
        reference: read.scanned.reference,
        modules: bound,
        rendered: Vec::new(),
    };
    Ok(Generated::Bindings(Box::new((bindings, origin))))
}

/// One interop module's pass: bindgen over `wrapper.h` and the module's
/// header, only the items that header declares (and what they use), less what
/// `bound` (the bindings of `cuda.h`) has; its plain names from the same
/// preprocessor steps as `cuda.h`'s, dated from its own `*Typedefs.h`
/// (`None` without it).
fn module(
    bindgen: Bindgen,
    header: &header::Header,
    m: &Interop,
    bound: &items::Items,
    extra_args: &[(String, Option<String>)],
    stand_ins: &Path,
) -> Result<(model::Module, Option<BTreeMap<String, u32>>)> {
    interop::check_header(m, &header.include_dir)?;
    let mut flags: Vec<String> = interop::DEFINES.iter().map(|d| format!("-D{d}")).collect();
    // After every other include directory, so that a header the system has
    // wins; or first, for a module whose system headers add nothing.
    let place = if m.reads_system_headers { "-idirafter" } else { "-I" };
    flags.extend([place.to_string(), stand_ins.display().to_string()]);
    let header = header.with_module(m.source(), flags);
    let macros = header.macros()?;
    let unsigned = generator::unsigned_macros(&macros);
    let ready = comments::Ready::default();
    let file = match run(bindgen, &header, &unsigned, extra_args, Some(m), &ready)? {
        Parsed::File(file) => file,
        // cuda.h's own pass has parsed: this module's header is what fails.
        Parsed::Cannot(e, _) => return Err(e),
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
            items.document(&r.target, &comments::markdown(comment));
        }
    }
    let since = since::matched(since::read(&header.include_dir, &[m.typedefs])?.as_ref(), &items);
    let module = model::Module {
        name: m.feature,
        header: m.header,
        typedefs: m.typedefs,
        types: items.render_types(),
        names: items::names(&items.types),
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
fn moved_members(items: &items::Items, target: &Target) -> Result<Vec<model::Moved>> {
    let wanted = crate::pregenerated::moved_members(target)?;
    Ok(items::all(&items.types)
        .into_iter()
        .filter(|m| m.integer && wanted.iter().any(|(r, n)| *r == m.record && *n == m.name))
        .map(|m| model::Moved { record: m.record, member: m.name, path: m.path, ty: m.ty })
        .collect())
}

/// What bindgen made of `wrapper.h`.
enum Parsed {
    /// The bindings read back as a syntax tree, with their comments.
    File(generator::File),
    /// Why bindgen gave none, with what the automatic mode's fallback says to
    /// do: libclang lacks clang's own headers (`stddef.h`), so no C parses, or
    /// bindgen or the comments' converter stopped on the header (a panic).
    Cannot(Error, &'static str),
}

/// The fallback's advice where the header stopped bindgen or this crate.
const UNREADABLE: &str = "report the defect with the warning's text, or name other headers";

/// bindgen over `header` (for an interop `module`, over its header too),
/// its output read back with the comments converted.
fn run(
    bindgen: Bindgen,
    header: &header::Header,
    unsigned: &HashMap<String, Unsigned>,
    extra_args: &[(String, Option<String>)],
    module: Option<&Interop>,
    ready: &comments::Ready,
) -> Result<Parsed> {
    let (comments, converter) = comments::Comments::start(ready.clone());
    let mut clang_args = vec![format!("-I{}", header.include_dir.display())];
    if module.is_some() {
        clang_args.extend(header.module_flags.iter().cloned());
    }
    clang_args.extend(header.defines.iter().map(|d| format!("-D{d}")));
    if let Some(dir) = libclang::resource_dir() {
        env::log(format!("clang resource directory {}", dir.display()));
        clang_args.push(format!("-resource-dir={}", dir.display()));
    }
    let callbacks = Callbacks { unsigned: unsigned.clone(), comments };
    let request = Run { source: header.source(), clang_args, module, callbacks };
    // The callbacks, and with them the converter's input, end with bindgen's run.
    let text = match panics::caught(|| bindgen(request)) {
        Ok(generated) => generated?,
        Err(panic) => {
            let (include, triple) = (&header.include_dir, &header.target_triple);
            let e = libclang::stopped(include, triple, &panic, extra_args);
            return Ok(Parsed::Cannot(e, UNREADABLE));
        }
    };
    let text = match text {
        Ok(text) => text,
        Err(e) => {
            return match libclang::without_clang_headers(&header.include_dir, &e) {
                Some(missing) => Ok(Parsed::Cannot(missing, "install that package")),
                None => Err(libclang::unparsable(&header.include_dir, &header.target_triple, &e)),
            };
        }
    };
    // Read back with the comments' stand-ins while the converter finishes.
    let mut file = generator::read(&text, unsigned)?;
    match converter.fill(&mut file, &text)? {
        Ok(()) => Ok(Parsed::File(file)),
        Err(stopped) => Ok(Parsed::Cannot(stopped, UNREADABLE)),
    }
}
