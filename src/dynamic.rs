//! Run-time resolution of the driver's functions (feature `dynamic-loading`).
//!
//! The library is opened at the first call of any driver function, or by
//! [`try_load`]: `LIBCUDA_SYS_DRIVER_PATH` if set (a full path), otherwise the
//! system loader's `libcuda.so.1` (`nvcuda.dll` on Windows), and on Linux, where
//! the loader finds none, WSL2's `/usr/lib/wsl/lib/libcuda.so.1`; the error
//! names each. Never `libcuda.so`:
//! that name is the development link, and in a toolkit's `stubs` folder it is
//! the stub.
//!
//! The library opened may be this crate's stand-in: a linked build's
//! `libcuda.so.1` for machines without a driver, which Cargo puts on the
//! library path of `cargo test` and `cargo run` (see
//! [the build](crate::building)). It is looked through: the calls,
//! [`driver_symbol`](crate::driver_symbol) and
//! [`driver_has`](crate::driver_has) go to the driver it found behind it,
//! as in a linked program; where it found none, there is no driver, as when
//! no library opens (WSL2's is tried next, and [`try_load`] names the
//! stand-in).
//!
//! Each function is resolved at its first call, once: the exact symbol the
//! header names (`cuMemAlloc_v2`, never the legacy plain `cuMemAlloc`), which is
//! the ABI these bindings declare; where the library does not export it and the
//! header renames a plain name to it, the driver's `cuGetProcAddress`
//! (`cuGetProcAddress_v2` on 12.0+ drivers) for that plain name at the
//! headers' `CUDA_VERSION` (with the per-thread default stream when the
//! `per-thread-default-stream` feature is on). `cuGetProcAddress` is not asked
//! for names the header declares unrenamed: for those its answer at a given
//! version can be a newer ABI than the header's (a 13.0 driver answers
//! `cuCtxSynchronize` at 13000 with the variant that takes a context, while
//! `cuda.h` declares `cuCtxSynchronize(void)`). After the first call a call is
//! one atomic load and an indirect call.
//!
//! A function whose ABI is newer than the driver (its [`since`](crate::since)
//! above the driver's `cuDriverGetVersion`) is absent without the driver being
//! asked: an older driver's `cuGetProcAddress` may answer a name with the
//! newest variant it has, whose signature is not the one declared here.
//!
//! Nothing panics:
//! - if the library cannot be opened, or is not the driver (it does not
//!   export `cuInit`), every function returns
//!   `CUDA_ERROR_SHARED_OBJECT_INIT_FAILED`; [`try_load`] says why (path tried,
//!   the loader's message);
//! - a function the driver lacks returns `CUDA_ERROR_NOT_FOUND`, that call alone,
//!   and [`last_missing`] names it (a code a module's symbol lookup returns too).

use core::ffi::{c_char, c_int, c_void};
use core::sync::atomic::{AtomicPtr, Ordering};

extern crate std;
use std::string::String;
use std::sync::OnceLock;

use crate::{cuuint64_t, CUresult};

/// Why the driver library could not be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The path or name handed to the system loader (where it is not UTF-8, as
    /// `to_string_lossy` shows it).
    pub tried: String,
    /// The loader's message (`dlerror`).
    pub message: String,
}

impl core::fmt::Display for LoadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "cannot load the CUDA driver library {}: {}", self.tried, self.message)
    }
}

struct Driver {
    library: libloading::Library,
    proc_address: ProcAddress,
    /// `cuDriverGetVersion`, where it answers.
    version: Option<u32>,
}

enum ProcAddress {
    /// 12.0+: `cuGetProcAddress_v2(symbol, pfn, version, flags, status)`.
    V2(
        unsafe extern "C" fn(
            *const c_char,
            *mut *mut c_void,
            c_int,
            cuuint64_t,
            *mut c_int,
        ) -> CUresult,
    ),
    /// 11.3-11.8: `cuGetProcAddress(symbol, pfn, version, flags)`.
    V1(unsafe extern "C" fn(*const c_char, *mut *mut c_void, c_int, cuuint64_t) -> CUresult),
    /// Older drivers: exact symbols only.
    None,
}

static DRIVER: OnceLock<Result<Driver, LoadError>> = OnceLock::new();

/// `CU_GET_PROC_ADDRESS_LEGACY_STREAM` / `CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM`.
const PROC_FLAGS: cuuint64_t = if cfg!(feature = "per-thread-default-stream") { 2 } else { 1 };

/// Marks a function the driver does not have, so it is looked up once only.
const ABSENT: *mut () = core::ptr::dangling_mut::<()>();

/// Where one function's address is kept: null until its first call.
#[doc(hidden)]
pub struct Slot {
    /// The bound symbol, NUL-terminated.
    symbol: &'static str,
    address: AtomicPtr<()>,
}

impl Slot {
    #[doc(hidden)]
    pub const fn new(symbol: &'static str) -> Slot {
        Slot { symbol, address: AtomicPtr::new(core::ptr::null_mut()) }
    }

    /// The function's address, resolved at the first call.
    #[doc(hidden)]
    #[inline(always)]
    pub fn get(&self) -> Result<*const (), CUresult> {
        let f = self.address.load(Ordering::Acquire);
        if !f.is_null() && f != ABSENT {
            return Ok(f);
        }
        self.resolve(f)
    }

    #[cold]
    #[inline(never)]
    fn resolve(&self, cached: *mut ()) -> Result<*const (), CUresult> {
        if cached == ABSENT {
            return Err(self.missing());
        }
        let Ok(driver) = driver() else {
            return Err(CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED);
        };
        // An ABI newer than the driver is absent, whatever the driver would
        // hand out for its name (an older driver's `cuGetProcAddress` may
        // answer with the newest variant it has, of another signature).
        let needed = crate::since(self.symbol.trim_end_matches('\0'));
        let too_new = matches!((needed, driver.version), (Some(n), Some(v)) if n > v);
        let f =
            if too_new { core::ptr::null_mut() } else { lookup(driver, self.symbol).cast::<()>() };
        // Racing first calls store the same answer; no lock needed.
        self.address.store(if f.is_null() { ABSENT } else { f }, Ordering::Release);
        if f.is_null() {
            Err(self.missing())
        } else {
            Ok(f)
        }
    }

    /// `CUDA_ERROR_NOT_FOUND`, with this function recorded for [`last_missing`].
    fn missing(&self) -> CUresult {
        if let Ok(mut last) = LAST_MISSING.lock() {
            *last = Some(self.symbol.trim_end_matches('\0'));
        }
        CUresult::CUDA_ERROR_NOT_FOUND
    }
}

/// The function of the last call that returned `CUDA_ERROR_NOT_FOUND` because
/// the loaded driver lacks it, on any thread.
static LAST_MISSING: std::sync::Mutex<Option<&'static str>> = std::sync::Mutex::new(None);

/// The driver function (its symbol: `cuMemGetDefaultMemPool`) whose call last
/// returned `CUDA_ERROR_NOT_FOUND` because the loaded driver does not have it,
/// or has only an older ABI of it (or that [`is_available`] last found
/// absent); `None` before any such call. The same code
/// also means a name a module or library does not define
/// (`cuModuleGetFunction`): this tells the two apart.
pub fn last_missing() -> Option<&'static str> {
    LAST_MISSING.lock().ok().and_then(|last| *last)
}
/// A path as the system has it: one that is not UTF-8 still names its file.
fn library_name() -> std::ffi::OsString {
    if let Some(path) = std::env::var_os("LIBCUDA_SYS_DRIVER_PATH").filter(|p| !p.is_empty()) {
        return path;
    }
    std::ffi::OsString::from(if cfg!(windows) { "nvcuda.dll" } else { "libcuda.so.1" })
}

fn open(name: &std::ffi::OsStr) -> Result<Driver, LoadError> {
    // SAFETY: loading the driver runs its initialisers, as linking it would.
    let library = unsafe { libloading::Library::new(name) }.map_err(|e| LoadError {
        tried: name.to_string_lossy().into_owned(),
        message: loader_text(&e),
    })?;
    // A library that is not the driver would load, and then answer every call
    // with CUDA_ERROR_NOT_FOUND: say so once, here.
    // SAFETY: only the presence of the symbol is asked.
    if unsafe { library.get::<*mut c_void>(b"cuInit\0") }.is_err() {
        return Err(LoadError {
            tried: name.to_string_lossy().into_owned(),
            message: String::from(
                "the library loads but does not export cuInit: it is not the CUDA driver library",
            ),
        });
    }
    #[cfg(target_os = "linux")]
    let library = behind_stand_in(library, name)?;
    // SAFETY: the signatures are those of cuda.h for these exact symbols.
    let proc_address = unsafe {
        if let Ok(f) = library.get(b"cuGetProcAddress_v2\0") {
            ProcAddress::V2(*f)
        } else if let Ok(f) = library.get(b"cuGetProcAddress\0") {
            ProcAddress::V1(*f)
        } else {
            ProcAddress::None
        }
    };
    // SAFETY: `cuDriverGetVersion(int *)`, callable before `cuInit`.
    let version = unsafe {
        library
            .get::<unsafe extern "C" fn(*mut c_int) -> CUresult>(b"cuDriverGetVersion\0")
            .ok()
            .and_then(|get| {
                let mut v = 0;
                (get(&mut v) == CUresult::CUDA_SUCCESS).then_some(v as u32)
            })
    };
    Ok(Driver { library, proc_address, version })
}

/// `e` with its sources: libloading 0.8 puts `dlerror`'s text in its own
/// message, 0.9 in its source, under "dlopen failed".
fn loader_text(e: &libloading::Error) -> String {
    let mut text = std::string::ToString::to_string(e);
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let s_text = std::string::ToString::to_string(s);
        if !text.contains(&s_text) {
            text = std::format!("{text}: {s_text}");
        }
        source = s.source();
    }
    text
}

/// Where `library` is this crate's stand-in, the driver it hands calls to
/// (opened again by its path, so that this crate holds it), or that it has
/// none; any other library as it is.
#[cfg(target_os = "linux")]
fn behind_stand_in(
    library: libloading::Library,
    name: &std::ffi::OsStr,
) -> Result<libloading::Library, LoadError> {
    #[repr(C)]
    struct DlInfo {
        fname: *const c_char,
        fbase: *mut c_void,
        sname: *const c_char,
        saddr: *mut c_void,
    }
    // glibc before 2.34 keeps these in libdl.
    #[cfg_attr(target_env = "gnu", link(name = "dl"))]
    extern "C" {
        fn dladdr(address: *const c_void, info: *mut DlInfo) -> c_int;
        fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    }
    use std::os::unix::ffi::OsStrExt;
    // The file `address` is in, as the loader names it.
    let file = |address: *const c_void| {
        let mut info = DlInfo {
            fname: core::ptr::null(),
            fbase: core::ptr::null_mut(),
            sname: core::ptr::null(),
            saddr: core::ptr::null_mut(),
        };
        // SAFETY: `info` is written by dladdr; `fname` is a NUL-terminated
        // string of the loader's, valid while the library stays loaded.
        unsafe {
            (dladdr(address, &mut info) != 0 && !info.fname.is_null())
                .then(|| std::ffi::CString::from(std::ffi::CStr::from_ptr(info.fname)))
        }
    };
    // SAFETY: the stand-in's `void *libcuda_sys_stand_in_driver(void)`.
    let behind = match unsafe {
        library.get::<unsafe extern "C" fn() -> *mut c_void>(b"libcuda_sys_stand_in_driver\0")
    } {
        Ok(f) => (unsafe { f() }, file(*f as *const c_void)),
        Err(_) => return Ok(library),
    };
    let stand_in = behind.1.map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let error = |message: String| LoadError { tried: name.to_string_lossy().into_owned(), message };
    // SAFETY: a handle the stand-in opened and keeps open; only an address is taken.
    let init = match behind.0.is_null() {
        true => core::ptr::null_mut(),
        false => unsafe { dlsym(behind.0, c"cuInit".as_ptr()) },
    };
    let Some(driver) = (!init.is_null()).then(|| file(init)).flatten() else {
        return Err(error(std::format!(
            "the library loaded ({stand_in}) is libcuda-sys's stand-in, which found no NVIDIA \
             driver to hand calls over to"
        )));
    };
    let path = std::ffi::OsStr::from_bytes(driver.to_bytes());
    // SAFETY: a library already loaded, by the stand-in: no initialiser runs again.
    unsafe { libloading::Library::new(path) }.map_err(|e| {
        error(std::format!(
            "the stand-in {stand_in} hands calls to {}, which does not open again: {}",
            path.to_string_lossy(),
            loader_text(&e)
        ))
    })
}

/// WSL2's driver, which its loader configuration (`/etc/ld.so.conf.d/ld.wsl.conf`)
/// names, but which a distribution or container without that file does not find.
const WSL_DRIVER: &str = "/usr/lib/wsl/lib/libcuda.so.1";

fn driver() -> &'static Result<Driver, LoadError> {
    DRIVER.get_or_init(|| {
        let name = library_name();
        let opened = open(&name);
        match opened {
            Err(first) if cfg!(target_os = "linux") && name == "libcuda.so.1" => {
                open(WSL_DRIVER.as_ref()).map_err(|wsl| LoadError {
                    tried: std::format!("{}, then {WSL_DRIVER} (WSL2)", first.tried),
                    message: std::format!("{}; {}", first.message, wsl.message),
                })
            }
            opened => opened,
        }
    })
}

/// Opens the driver library now (it is otherwise opened at the first call) and
/// says why it could not be: the path tried and the loader's message.
pub fn try_load() -> Result<(), LoadError> {
    driver().as_ref().map(|_| ()).map_err(Clone::clone)
}

/// The address of `name` in the library this crate opened: see [`crate::driver_symbol`].
pub(crate) fn symbol(name: &core::ffi::CStr) -> Result<*mut c_void, CUresult> {
    let driver = driver().as_ref().map_err(|_| CUresult::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED)?;
    // SAFETY: only the address is taken.
    match unsafe { driver.library.get::<*mut c_void>(name.to_bytes_with_nul()) } {
        Ok(f) if !f.is_null() => Ok(*f),
        _ => Err(CUresult::CUDA_ERROR_NOT_FOUND),
    }
}

/// Whether the driver has the function `symbol` (a bound name, e.g.
/// `"cuMemGetDefaultMemPool"`, or a plain name such as `"cuMemAlloc"`, which
/// answers for the function it is an alias of), resolving it if needed. `None`
/// if no such function is bound.
pub fn is_available(symbol: &str) -> Option<bool> {
    let target = crate::alias_target(symbol);
    let slot = slots().find(|s| s.symbol.strip_suffix('\0') == Some(target))?;
    Some(slot.get().is_ok())
}

/// The slots of the interop module `$module`, none without its feature.
macro_rules! module_slots {
    ($feature:literal, $module:ident) => {{
        #[cfg(feature = $feature)]
        let slots: &'static [&'static Slot] = crate::$module::SLOTS;
        #[cfg(not(feature = $feature))]
        let slots: &'static [&'static Slot] = &[];
        slots
    }};
}

/// Every bound function's slot, the interop modules' too.
fn slots() -> impl Iterator<Item = &'static &'static Slot> {
    let modules = [
        module_slots!("gl", gl),
        module_slots!("egl", egl),
        module_slots!("vdpau", vdpau),
        module_slots!("d3d9", d3d9),
        module_slots!("d3d10", d3d10),
        module_slots!("d3d11", d3d11),
    ];
    crate::generated::SLOTS.iter().chain(modules.into_iter().flatten())
}

/// The address of `symbol` (NUL-terminated) in the driver, or null.
fn lookup(driver: &Driver, symbol: &str) -> *mut c_void {
    // The exact symbol the header names is the ABI these bindings declare.
    // SAFETY: only the address is taken; it is called with the header's signature.
    let f = unsafe { driver.library.get::<*mut c_void>(symbol.as_bytes()) }
        .map(|s| *s)
        .unwrap_or(core::ptr::null_mut());
    if !f.is_null() {
        return f;
    }
    // Where the library does not export it, ask cuGetProcAddress for the plain
    // name the header renames to it, at the header's CUDA_VERSION. Not for names
    // the header declares as they are: there the driver's answer for this
    // version can be a newer ABI than the header's (13.0 drivers answer
    // `cuCtxSynchronize` at 13000 with a function that takes a context).
    let name = symbol.trim_end_matches('\0');
    let Some(&(plain, _)) = crate::PLAIN_NAMES.iter().find(|(_, t)| *t == name) else {
        return core::ptr::null_mut();
    };
    let mut query = String::from(plain);
    query.push('\0');
    let version = crate::CUDA_VERSION as c_int;
    let mut f: *mut c_void = core::ptr::null_mut();
    // SAFETY: the name is NUL-terminated; `f` is a valid out-pointer.
    let found = unsafe {
        match driver.proc_address {
            ProcAddress::V2(get) => {
                let mut status = 0;
                get(query.as_ptr().cast(), &mut f, version, PROC_FLAGS, &mut status)
                    == CUresult::CUDA_SUCCESS
                    && status == 0
            }
            ProcAddress::V1(get) => {
                get(query.as_ptr().cast(), &mut f, version, PROC_FLAGS) == CUresult::CUDA_SUCCESS
            }
            ProcAddress::None => false,
        }
    };
    if found {
        f
    } else {
        core::ptr::null_mut()
    }
}
