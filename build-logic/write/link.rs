//! Which libcuda to link, in the order the crate docs give
//! ("Linking"): an override, the driver's directories, the toolkit's stubs,
//! else a stand-in built here from the bound function list.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::env::{command_line, cross_gcc_package, write_error};
use crate::env::{log, Target};
use crate::model::{Bindings, Error, Link, LinkKind, Origin, Result};

/// `CUDA_ERROR_STUB_LIBRARY`: what every function of a stub returns.
const STUB_RESULT: u32 = 34;

/// `lib_dir_override` is `LIBCUDA_SYS_LIB_DIR`; a toolkit found (`origin`)
/// has library directories whose `stubs` can be linked.
pub fn choose(
    target: &Target,
    lib_dir_override: Option<&Path>,
    bindings: &Bindings,
    origin: &Origin,
) -> Result<Link> {
    let toolkit_lib_dirs = origin.toolkit().map(|t| t.lib_dirs.as_slice()).unwrap_or_default();
    if let Some(dir) = lib_dir_override {
        return match library_in(target, dir) {
            Some((lib, LinkKind::Driver | LinkKind::ImportLibrary)) => {
                Ok(Link { dir: dir.to_path_buf(), lib, kind: LinkKind::Driver })
            }
            // A stub named by hand is still a stub: said so, and linked as one.
            Some((lib, LinkKind::GeneratedStub)) => {
                Ok(Link { dir: dir.to_path_buf(), lib, kind: LinkKind::GeneratedStub })
            }
            Some((lib, LinkKind::ToolkitStub { .. })) => {
                stand_in_or_stub(target, bindings, origin, Some((dir, lib)))
            }
            None => Err(Error::new(
                format!("LIBCUDA_SYS_LIB_DIR={} holds no libcuda", dir.display()),
                format!(
                    "Looked for {} in {} (a file of that name that is not a shared library does not count,\n\
                     nor one for another architecture than {}'s).\n\n\
                     Fix: point LIBCUDA_SYS_LIB_DIR at the driver's library directory (find it with\n\
                     `ldconfig -p | grep libcuda`), or unset it: unset LIBCUDA_SYS_LIB_DIR",
                    if target.is_windows() { "cuda.lib" } else { "libcuda.so, libcuda.so.1" },
                    dir.display(),
                    target.triple
                ),
            )),
        };
    }
    for dir in driver_dirs(target) {
        match library_in(target, &dir) {
            Some((lib, LinkKind::Driver)) => {
                log(format!("libcuda: driver library in {} taken", dir.display()));
                return Ok(Link { dir, lib, kind: LinkKind::Driver });
            }
            Some(_) => log(format!("libcuda: a stub in {}, passed over", dir.display())),
            None => log(format!("libcuda: nothing in {}", dir.display())),
        }
    }
    // On Windows the toolkit's cuda.lib is how every program links the driver:
    // an import library of nvcuda.dll, not a stub.
    if target.is_windows() {
        if let Some(dir) = toolkit_lib_dirs.iter().find(|d| library_in(target, d).is_some()) {
            log(format!("libcuda: import library {} taken", dir.join("cuda.lib").display()));
            return Ok(Link {
                dir: dir.clone(),
                lib: "cuda".into(),
                kind: LinkKind::ImportLibrary,
            });
        }
    }
    let stub = toolkit_lib_dirs
        .iter()
        .filter(|d| d.ends_with("stubs"))
        .find_map(|d| library_in(target, d).map(|(lib, _)| (d.as_path(), lib)));
    if stub.is_none() && target.os != "linux" {
        return Err(Error::new(
            "no libcuda to link",
            "No driver library (cuda.lib / libcuda) was found and a stand-in can only be built for Linux targets.\n\
             Fix one of:\n\
             - point CUDA_PATH at a CUDA toolkit (its lib\\x64\\cuda.lib), or install the headers and\n  \
               import library with pip (pip install nvidia-cuda-runtime: nvidia\\cu13\\lib\\x64\\cuda.lib)\n\
             - set LIBCUDA_SYS_LIB_DIR to the directory that holds cuda.lib\n\
             - or link nothing: the dynamic-loading feature opens nvcuda.dll at run time",
        ));
    }
    stand_in_or_stub(target, bindings, origin, stub)
}

/// Without a driver: the stand-in built here, which declares every bound
/// function (also those of a release newer than the toolkit's stub) and hands
/// calls over to a driver wherever there is one. The toolkit's `stub` (its
/// directory and the name to link) only where no stand-in can be built, and
/// then linked where it is: Cargo puts only directories inside the target
/// directory on the library path of `cargo run` and `cargo test`, so it never
/// comes between a program and the driver under the name `libcuda.so.1`.
fn stand_in_or_stub(
    target: &Target,
    bindings: &Bindings,
    origin: &Origin,
    stub: Option<(&Path, String)>,
) -> Result<Link> {
    let built = match target.os.as_str() {
        "linux" => build_stub(target, bindings, origin),
        _ => Err(Error::new("a stand-in is built for Linux targets only", "")),
    };
    match (built, stub) {
        (Ok(link), stub) => {
            if let Some((dir, _)) = stub {
                log(format!(
                    "libcuda: the toolkit's stub in {} passed over for the stand-in",
                    dir.display()
                ));
            }
            Ok(link)
        }
        (Err(e), Some((dir, lib))) => {
            log(format!("libcuda: toolkit stub in {} taken: {}", dir.display(), e.summary));
            let why = e.summary;
            Ok(Link { dir: dir.to_path_buf(), lib, kind: LinkKind::ToolkitStub { why } })
        }
        (Err(e), None) => Err(e),
    }
}

/// The libcuda in `dir`, as the name to link and what it is (`Driver`, or
/// one of the stubs), if there is one for the target.
fn library_in(target: &Target, dir: &Path) -> Option<(String, LinkKind)> {
    if target.is_windows() {
        return dir
            .join("cuda.lib")
            .is_file()
            .then(|| ("cuda".to_string(), LinkKind::ImportLibrary));
    }
    // Many driver installs have no `libcuda.so` development link.
    for (file, lib) in [("libcuda.so", "cuda"), ("libcuda.so.1", "libcuda.so.1")] {
        let path = dir.join(file);
        if !path.exists() {
            continue;
        }
        match elf_for(target, &path) {
            Ok(()) => return Some((lib.to_string(), kind_of(dir, &path))),
            Err(why) => log(format!("libcuda: {} {why}, passed over", path.display())),
        }
    }
    None
}

/// What the stand-in carries, so that it is told from a driver wherever it is found.
const STAND_IN_MARK: &str = "libcuda-sys stand-in: link only";

/// A stub, told by where the toolkit keeps it (`stubs/`, also behind a symlink) or by the stand-in's
/// mark; anything else is taken for the driver. Only small files are read:
/// the driver's library is tens of megabytes, the stubs a few hundred kilobytes.
fn kind_of(dir: &Path, path: &Path) -> LinkKind {
    // Through links too: CI images link the toolkit's stub as `libcuda.so.1`.
    let real = std::fs::canonicalize(path).ok();
    let real_dir = real.as_deref().and_then(Path::parent);
    if dir.ends_with("stubs") || real_dir.is_some_and(|d| d.ends_with("stubs")) {
        return LinkKind::ToolkitStub { why: String::new() };
    }
    let small = std::fs::metadata(path).is_ok_and(|m| m.len() < 16 << 20);
    let marked = small
        && std::fs::read(path).is_ok_and(|bytes| {
            bytes.windows(STAND_IN_MARK.len()).any(|w| w == STAND_IN_MARK.as_bytes())
        });
    if marked {
        LinkKind::GeneratedStub
    } else {
        LinkKind::Driver
    }
}

/// An ELF shared object for the target's architecture: a text file, a broken
/// link or a 32-bit driver under the library's name would be taken here and
/// fail only at link time, with a stranger message.
fn elf_for(target: &Target, path: &Path) -> std::result::Result<(), String> {
    use std::io::Read;
    let mut header = [0u8; 20];
    let read = std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut header));
    if read.is_err() || header[..4] != *b"\x7fELF" {
        return Err("is not a shared library (no ELF header)".into());
    }
    // e_ident[EI_CLASS] (2: 64-bit) and e_machine, little-endian on these targets.
    let machine = u16::from_le_bytes([header[18], header[19]]);
    let expected = match target.arch.as_str() {
        "x86_64" => Some((2, 62)),
        "aarch64" => Some((2, 183)),
        _ => None,
    };
    match expected {
        Some((class, m)) if (header[4], machine) != (class, m) => Err(format!(
            "is a library for another architecture (ELF class {}, machine {machine}), not {}",
            header[4], target.arch
        )),
        _ => Ok(()),
    }
}

fn driver_dirs(target: &Target) -> Vec<PathBuf> {
    if target.os != "linux" {
        return Vec::new();
    }
    let mut dirs = Vec::new();
    if target.is_native() {
        dirs.extend(ldconfig_dirs(target));
    }
    let fixed = [
        target.multiarch_lib_dir(),
        Some("/usr/lib64"),
        Some("/usr/local/nvidia/lib64"),
        Some("/usr/lib/wsl/lib"),
    ];
    for d in fixed.into_iter().flatten().map(PathBuf::from) {
        if !dirs.contains(&d) {
            dirs.push(d);
        }
    }
    dirs
}

/// Directories of `libcuda.so*` in the dynamic loader's cache, as the loader
/// will find the driver at run time; on a multilib machine only entries of the
/// target's architecture (`(libc6,x86-64)`), not the 32-bit driver's.
fn ldconfig_dirs(target: &Target) -> Vec<PathBuf> {
    let arch_tag = match target.arch.as_str() {
        "x86_64" => Some("x86-64"),
        "aarch64" => Some("AArch64"),
        _ => None,
    };
    let out = ["ldconfig", "/sbin/ldconfig", "/usr/sbin/ldconfig"]
        .iter()
        .find_map(|cmd| Command::new(cmd).arg("-p").output().ok());
    let Some(out) = out else { return Vec::new() };
    let mut dirs = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let line = line.trim();
        if !line.starts_with("libcuda.so") {
            continue;
        }
        // `libcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1`;
        // a 32-bit entry's tag is plain `(libc6)`.
        let tag = line
            .split_once('(')
            .and_then(|(_, rest)| rest.split_once(')'))
            .map(|(tag, _)| tag)
            .unwrap_or_default();
        if let Some(arch) = arch_tag {
            if !tag.split(',').any(|t| t.trim() == arch) {
                log(format!(
                    "libcuda: ldconfig entry for another architecture passed over: {line}"
                ));
                continue;
            }
        }
        if let Some((_, path)) = line.rsplit_once("=> ") {
            if let Some(dir) = Path::new(path.trim()).parent() {
                if !dirs.iter().any(|d: &PathBuf| d == dir) && !dir.ends_with("stubs") {
                    dirs.push(dir.to_path_buf());
                }
            }
        }
    }
    dirs
}

/// The stand-in's C source: every symbol of the bindings' link list, with C
/// names whatever compiles it (`CC=g++` too). On x86-64 and aarch64 Linux each
/// is a jump through a slot that `stand_in.c` points, when the library is
/// loaded, at the same function of the driver the loader would have found
/// without the stand-in: a program built where there was no driver, run by
/// `cargo run` or `cargo test` (which put the stand-in first on the library
/// path) where one is now, reaches that driver. Without one, each returns
/// `CUDA_ERROR_STUB_LIBRARY`; a function that driver lacks, `CUDA_ERROR_NOT_FOUND`.
fn stand_in_source(target: &Target, bindings: &Bindings) -> String {
    let names: Vec<&str> = bindings.link_symbols().collect();
    // aarch64: `hint #34` is `bti c`, the landing pad a branch-protected
    // library's pages require of every indirect call's target (a no-op
    // elsewhere, and accepted by assemblers that predate the mnemonic).
    let jump = |i: usize| {
        match target.arch.as_str() {
        "x86_64" => Some(format!("\tjmp *libcuda_sys_slots+{}(%rip)\n", 8 * i)),
        "aarch64" => Some(format!(
            "\thint #34\n\tadrp x16, libcuda_sys_slots+{o}\n\tldr x16, [x16, #:lo12:libcuda_sys_slots+{o}]\n\tbr x16\n",
            o = 8 * i
        )),
        _ => None,
    }
    };
    let mut c = format!(
        "/* Stand-in for libcuda, generated by libcuda-sys: link only. */\n\
         #define _GNU_SOURCE\n#include <dlfcn.h>\n#include <fcntl.h>\n#include <limits.h>\n#include <stdint.h>\n\
         #include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <sys/stat.h>\n#include <unistd.h>\n\
         #ifdef __GLIBC__\n#include <gnu/libc-version.h>\n#include <link.h>\n#endif\n\
         #ifdef __cplusplus\nextern \"C\" {{\n#endif\n\
         __attribute__((used)) const char libcuda_sys_stand_in[] = \"{STAND_IN_MARK}\";\n"
    );
    if jump(0).is_none() || target.os != "linux" {
        for name in &names {
            c.push_str(&format!("int {name}(void) {{ return {STUB_RESULT}; }}\n"));
        }
        c.push_str("#ifdef __cplusplus\n}\n#endif\n");
        return c;
    }
    c.push_str(&format!(
        "#define LIBCUDA_SYS_COUNT {n}\n\
         __attribute__((visibility(\"hidden\"), used)) void *libcuda_sys_slots[{n}];\n\
         static const char *const libcuda_sys_names[{n}] = {{\n",
        n = names.len()
    ));
    for name in &names {
        c.push_str(&format!("  \"{name}\",\n"));
    }
    c.push_str("};\n");
    for (i, name) in names.iter().enumerate() {
        c.push_str(&format!(
            "__asm__(\".text\\n.globl {name}\\n.type {name},%function\\n{name}:\\n{}.size {name},.-{name}\\n\");\n",
            jump(i).unwrap_or_default().replace('\t', "\\t").replace('\n', "\\n")
        ));
    }
    c.push_str(include_str!("stand_in.c"));
    c.push_str("#ifdef __cplusplus\n}\n#endif\n");
    c
}

/// The stand-in's RUNPATH: a directory that cannot exist, which only marks a
/// place in its search list.
const RUNPATH_MARK: &str = "/libcuda-sys-stand-in/none";

/// A shared library with soname `libcuda.so.1` that exports every symbol of the
/// bindings' link list ([`stand_in_source`]).
fn build_stub(target: &Target, bindings: &Bindings, origin: &Origin) -> Result<Link> {
    let dir = target.out_dir.join("stub");
    std::fs::create_dir_all(&dir).map_err(|e| write_error(&dir, e))?;
    let source = stand_in_source(target, bindings);
    let c = dir.join("libcuda_stub.c");
    std::fs::write(&c, source).map_err(|e| write_error(&c, e))?;
    let so = dir.join("libcuda.so.1");
    // What an earlier run left must not pass for this run's output.
    let _ = std::fs::remove_file(&so);
    // The compiler that read the headers, or (pregenerated bindings) the one cc selects.
    // Without the user's CFLAGS, which are for their C, not for a library that
    // only has to link: a sanitizer or profiling flag would make the stand-in
    // need its runtime. The compiler and the target's own flags stay.
    let mut cmd = match origin {
        Origin::Generated { compiler, .. } => compiler.clone(),
        Origin::Pregenerated { .. } => command_line(&(target.c_compiler)(None, &[])?.natural()),
    };
    // -O0: identical bodies must stay distinct functions (no identical-code folding),
    // so that every name has its own address.
    cmd.extend(["-shared", "-fPIC", "-O0", "-Wl,-soname,libcuda.so.1", "-o"].map(String::from));
    cmd.push(so.display().to_string());
    cmd.push(c.display().to_string());
    // dlopen is in libdl before glibc 2.34. The RUNPATH marks where the
    // loader's default directories start in the stand-in's own search list
    // (`stand_in.c`, `libcuda_sys_find_driver`).
    if target.triple.ends_with("-gnu") {
        cmd.push("-ldl".into());
        cmd.push(format!("-Wl,--enable-new-dtags,-rpath,{RUNPATH_MARK}"));
        cmd.push(format!("-DLIBCUDA_SYS_RUNPATH_MARK=\"{RUNPATH_MARK}\""));
    }
    log(format!("stand-in libcuda: {}", cmd.join(" ")));
    let out = Command::new(&cmd[0]).args(&cmd[1..]).output().map_err(|e| {
        let package = if target.triple.ends_with("musl") {
            "musl-tools (musl-gcc), or a musl cross compiler".to_string()
        } else if target.is_native() {
            "gcc".to_string()
        } else {
            cross_gcc_package(&cmd[0], &target.triple)
        };
        Error::new(
            format!("cannot run the C compiler {} to build the stand-in libcuda for {}", cmd[0], target.triple),
            format!(
                "{}: {e}\n\n\
                 With no driver to link, the build compiles a stand-in libcuda for {} with the target's\n\
                 C compiler. Fix one of:\n\
                 - install it (Debian/Ubuntu: {package}), or name it: CC_{}=<compiler>\n\
                 - point LIBCUDA_SYS_LIB_DIR at a libcuda for {}\n\
                 - use the dynamic-loading feature, which links nothing and needs no C compiler",
                cmd[0],
                target.triple,
                target.triple.replace('-', "_"),
                target.triple
            ),
        )
    })?;
    if !out.status.success() {
        return Err(Error::new(
            "the C compiler failed to build the stand-in libcuda",
            format!("{}\n{}", cmd.join(" "), String::from_utf8_lossy(&out.stderr)),
        ));
    }
    // A "compiler" that exits 0 without compiling (`CC=cpp`, `CC=true`) leaves
    // no library, or text under its name: said here, not at link time.
    if elf_for(target, &so).is_err() {
        return Err(Error::new(
            format!(
                "the C compiler {} did not build a shared library for the stand-in libcuda",
                cmd[0]
            ),
            format!(
                "{}\nexited with success, but {} is not an ELF shared library.\n\n\
                 Fix: set CC (or CC_<target>) to a C compiler that links shared libraries (gcc, clang),\n\
                 or unset it",
                cmd.join(" "),
                so.display()
            ),
        ));
    }
    let link = dir.join("libcuda.so");
    let _ = std::fs::remove_file(&link);
    std::fs::copy(&so, &link).map_err(|e| write_error(&link, e))?;
    Ok(Link { dir, lib: "cuda".into(), kind: LinkKind::GeneratedStub })
}
