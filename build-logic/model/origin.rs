//! Where the bindings come from: the toolkit found, why the pregenerated set
//! serves instead, what generation gave, the library linked, and what a
//! build watches.

use super::*;

/// Where the toolkit is, as found.
pub struct Toolkit {
    /// The toolkit root, where there is one (pip and override layouts may have none).
    pub root: Option<PathBuf>,
    /// The directory that holds `cuda.h`.
    pub include_dir: PathBuf,
    /// Library directories of the toolkit (for `lib64/stubs`), in search order.
    pub lib_dirs: Vec<PathBuf>,
    /// How it was found, for the log and the `DEP_CUDA_FOUND_BY` key.
    pub found_by: String,
    /// The value the user gave, where a variable named it (`CUDA_PATH=/opt/cuda`
    /// names the root, not the include directory).
    pub given: Option<PathBuf>,
    /// Warnings to pass on to the user (disagreeing variables).
    pub warnings: Vec<String>,
}

impl Toolkit {
    /// Where it came from, as the user would say it: `CUDA_PATH=/opt/cuda`
    /// (the value set), or `pip wheel /…/nvidia/cu13/include`.
    pub fn source(&self) -> String {
        match &self.given {
            Some(given) => format!("{}={}", self.found_by, given.display()),
            None => format!("{} {}", self.found_by, self.include_dir.display()),
        }
    }
}

/// Why the pregenerated set is used, and whether the user should hear of it.
pub struct Why {
    pub reason: String,
    /// A fallback the user did not ask for: said in a `cargo::warning`.
    pub warn: bool,
    /// How to have generated bindings instead.
    pub undo: &'static str,
    /// Where what the fallback lacks would appear: a change there re-runs the
    /// build script, so the fallback ends when they do.
    pub watch: crate::model::Watch,
    /// How the release was chosen from headers that are not generated from
    /// (`find::mode::release_of_headers`).
    pub release: Option<String>,
}

/// Where the bindings come from, beside them ([`Bindings`]).
// Without the `bindgen` feature only the pregenerated set exists.
#[cfg_attr(not(feature = "generate"), allow(dead_code))]
pub enum Origin {
    /// From the headers of `toolkit`; `compiler` is the C compiler command
    /// that read them (with the include directory and defines), without the
    /// user's CFLAGS.
    Generated {
        toolkit: Toolkit,
        compiler: Vec<String>,
        /// FNV-1a of the `cuda.h` read, passed on as `DEP_CUDA_CUDA_H_FNV1A64`.
        fingerprint: String,
        /// Their include directory, where a header that appears later changes them.
        watch: Watch,
    },
    /// The pregenerated set; `ignored` is a toolkit that was found or named but
    /// that these bindings do not come from.
    Pregenerated { why: Why, ignored: Option<Toolkit> },
}

impl Origin {
    /// The toolkit the bindings come from, or one found beside pregenerated bindings
    /// (its stub library can still be linked).
    pub(crate) fn toolkit(&self) -> Option<&Toolkit> {
        match self {
            Origin::Generated { toolkit, .. } => Some(toolkit),
            Origin::Pregenerated { ignored, .. } => ignored.as_ref(),
        }
    }

    /// The headers these bindings come from, where there are any.
    pub(crate) fn headers(&self) -> Option<&Toolkit> {
        match self {
            Origin::Generated { toolkit, .. } => Some(toolkit),
            Origin::Pregenerated { .. } => None,
        }
    }
}

/// What generation gives: the bindings, the headers' own release where a
/// release feature asks for another one, or why it cannot be done here, with
/// what the automatic mode's fallback warning says to do about it: libclang
/// could not be loaded ([`INSTALL`]) or could not parse C at all (it lacks
/// clang's own headers), or this code could not read a header (it panicked).
pub enum Generated {
    Bindings(Box<(Bindings, Origin)>),
    OtherRelease(Toolkit, CudaVersion),
    Cannot(Toolkit, Error, &'static str),
}

/// What gets bindings generated where there are none: the fallback's advice.
pub const INSTALL: &str = "install them (pip install nvidia-cuda-runtime, or a toolkit) and libclang (apt-get install libclang-dev)";

/// What a [`Link`] links.
pub enum LinkKind {
    /// The installed driver's library.
    Driver,
    /// The toolkit's link-only stub, linked where it is because no stand-in
    /// could be built (`why`; empty while only told apart from a driver).
    ToolkitStub { why: String },
    /// Built here: no libcuda at all on this machine.
    GeneratedStub,
    /// Windows: the toolkit's (or pip wheel's) `lib\x64\cuda.lib`, the import
    /// library of the driver's `nvcuda.dll`.
    ImportLibrary,
}

/// The libcuda the build links: the directory, the name and what it is.
pub struct Link {
    pub dir: PathBuf,
    /// `cuda` (there is a `libcuda.so`) or the verbatim `libcuda.so.1`.
    pub lib: String,
    pub kind: LinkKind,
}

#[derive(Default)]
pub struct Watch {
    /// The `rerun-if-changed` paths.
    pub paths: Vec<PathBuf>,
    /// Places the search looks that no cheap watch covers: headers appearing
    /// there are seen only after `cargo clean -p libcuda-sys`.
    pub unwatched: Vec<PathBuf>,
}

impl Watch {
    /// How the user ends the fallback, for its warning.
    pub(crate) fn advice(&self) -> String {
        if self.unwatched.is_empty() {
            return "the next build notices them".into();
        }
        let places: Vec<String> = self.unwatched.iter().map(|p| p.display().to_string()).collect();
        format!(
            "the next build notices them, except in {} (not watched: too large, written by the build, \
             or a Python site directory that any install changes), \
             where `cargo clean -p libcuda-sys` makes it look again",
            places.join(", ")
        )
    }
}
