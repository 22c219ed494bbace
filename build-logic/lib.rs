//! The build logic of [libcuda-sys](https://docs.rs/libcuda-sys), and nothing
//! else: libcuda-sys's build script, its ABI test (`systest`) and its `xtask`
//! call it. libcuda-sys pins it exactly (`=` its own version); it has no API of
//! its own and no promise of stability between releases. It is a crate of its
//! own only so that it compiles beside bindgen, cc and pkg-config, which the
//! build script links and this crate does not.
//!
//! A spine and three stages. The spine: [`model`] (the bindings as data, the
//! version, the toolkit, where the bindings come from, the error), [`env`](mod@env)
//! (every variable read, with its `rerun-if-env-changed`; the C compiler),
//! [`tables`] and [`sentences`] (the derived tables and the docs' own
//! sentences), and [`pregenerated`], the one reader of `pregenerated/`. The
//! stages, in the order `build.rs` runs them:
//! - [`find`]: where the bindings come from, which release, the headers, the
//!   driver floor's value, what a fallback watches;
//! - [`make`]: the bindings from the headers (the C preprocessor, bindgen's
//!   output read back, plain names, macro constants, the derived tables), and
//!   the floor applied to either kind of bindings;
//! - [`write`](mod@write): the files `src/` includes, the library to link, every `cargo::` line.
//!
//! A stage imports the spine and its own modules, never another stage: only
//! `build.rs` goes from one stage to the next, handing on plain values.

pub mod env;
pub mod model;
pub mod pregenerated;
pub mod sentences;
pub mod tables;

pub mod find {
    //! Where the bindings come from: the mode and release asked for, the
    //! headers, the driver floor's value, and the watches of a fallback.
    pub mod mode;
    pub mod places;
    pub mod toolkit;
    pub mod watch;
}

pub mod make {
    //! The bindings from the headers, and the driver floor applied to them.
    #[cfg(feature = "generate")]
    pub mod attributes;
    #[cfg(feature = "generate")]
    pub mod c_types;
    pub mod floor;
    #[cfg(feature = "generate")]
    pub mod generator;
    #[cfg(feature = "generate")]
    pub mod header;
    #[cfg(feature = "generate")]
    pub mod items;
    #[cfg(feature = "generate")]
    pub mod names;
    #[cfg(feature = "generate")]
    pub mod since;
}

pub mod write {
    //! What the build leaves: the files in `OUT_DIR`, the library to link, the `cargo::` lines.
    pub mod docs;
    pub mod emit;
    pub mod files;
    pub mod link;
}
