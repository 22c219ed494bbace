//! The build script's steps, in the order `build.rs` runs them: mode, discover,
//! the bindings (generated: preprocess, bindings, items and the derived tables;
//! pregenerated: pregenerated, sections), the driver floor, output, link, emit.

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
pub mod release;
// Without generation only the compiler it selects is used (the stand-in libcuda).
#[cfg_attr(not(feature = "bindgen"), allow(dead_code))]
pub mod preprocess;
pub mod renames;
pub mod sections;
pub mod since;
pub mod tables;
pub mod value_types;
#[cfg_attr(not(feature = "bindgen"), allow(dead_code))]
pub mod version;
pub mod watch;
pub mod write;

#[cfg(feature = "bindgen")]
pub mod bindings;
#[cfg(feature = "bindgen")]
pub mod items;
#[cfg(feature = "bindgen")]
pub mod macro_constants;
#[cfg(feature = "bindgen")]
pub mod members;
