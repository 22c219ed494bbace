//! The build logic of [libcuda-sys](https://docs.rs/libcuda-sys): its build
//! script's steps, in the order `build.rs` runs them: mode, discover, the
//! bindings (generated: preprocess, bindings, items and the derived tables;
//! pregenerated: pregenerated, sections), the driver floor, write, link, emit.
//! A separate crate only so that it compiles beside bindgen, cc and
//! pkg-config: it has no API of its own to keep stable, and its version is
//! always libcuda-sys's.

pub mod discover;
pub mod docs;
pub mod emit;
pub mod env;
pub mod error;
pub mod floor;
pub mod link;
pub mod mode;
pub mod output;
pub mod pregenerated;
pub mod preprocess;
pub mod release;
pub mod renames;
pub mod sections;
pub mod sentences;
pub mod since;
pub mod tables;
pub mod value_types;
pub mod version;
pub mod watch;
pub mod write;

#[cfg(feature = "generate")]
pub mod attributes;
#[cfg(feature = "generate")]
pub mod bindings;
#[cfg(feature = "generate")]
pub mod items;
#[cfg(feature = "generate")]
pub mod macro_constants;
#[cfg(feature = "generate")]
pub mod members;
