//! The write stage's run: the files rendered and written, the library to
//! link chosen, and every `cargo::` line printed.

use std::path::Path;

use crate::env::{self, Target};
use crate::model::{self, panics, Bindings, Origin};
#[cfg(feature = "generate")]
use crate::write::render;
use crate::write::{emit, files, link};

/// Leaves `bindings` (from `origin`, with the driver floor `floor` applied)
/// for `target`: `lib_dir_override` is the libcuda directory the user named.
pub fn write(
    target: &Target,
    bindings: &Bindings,
    origin: &Origin,
    lib_dir_override: Option<&Path>,
    floor: Option<u32>,
) -> model::Result<()> {
    // The files are rendered on a second thread while the library to link is
    // chosen, which without a driver means waiting for the C compiler to build
    // the stand-in: the one no longer waits for the other.
    let linked = !target.dynamic_loading();
    let (written, link) = std::thread::scope(|scope| {
        let written = scope.spawn(|| panics::caught(|| rendered(bindings, origin, target, linked)));
        // Linked: the linker resolves every function against libcuda (or a stand-in).
        // Dynamic loading: each function calls through a table filled at run time.
        // docs.rs: rustdoc links nothing, for any target.
        let link = match !linked || env::docs_rs() {
            true => Ok(None),
            false => link::choose(target, lib_dir_override, bindings, origin).map(Some),
        };
        let written = panics::joined(written.join())
            .unwrap_or_else(|panic| Err(panics::error("rendering the bindings' files", &panic)));
        (written, link)
    });
    written?;
    let link = link?;
    if let Some(link) = &link {
        env::directive_path("the libcuda directory", &link.dir)?;
    }
    emit::emit(target, bindings, origin, link.as_ref(), floor);
    Ok(())
}

/// The files `src/` includes. Generated bindings are rendered here, their
/// tables written out for `cargo xtask pregenerate`; the pregenerated set's
/// come rendered.
fn rendered(b: &Bindings, origin: &Origin, target: &Target, linked: bool) -> model::Result<()> {
    #[cfg(feature = "generate")]
    let generated = match b.rendered.is_empty() {
        true => {
            render::tables(b, &target.out_dir)?;
            Some(render::files(b))
        }
        false => None,
    };
    #[cfg(not(feature = "generate"))]
    let generated: Option<Vec<(String, String)>> = None;
    files::all(b, generated.as_deref(), origin, &target.out_dir, linked)
}
