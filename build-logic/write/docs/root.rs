//! The crate root's paragraph on the release these docs show.

use crate::model::{Bindings, Origin};

use super::REFERENCE;

/// The crate root's paragraph on the release these docs show.
pub(crate) fn crate_root(b: &Bindings, origin: &Origin) -> String {
    let v = b.version;
    let how = match origin {
        Origin::Generated { .. } => format!(
            "These docs are of bindings generated from CUDA {v}'s headers (`CUDA_VERSION` {n}), \
             with the header's documentation after this crate's own.",
            n = v.number
        ),
        Origin::Pregenerated { .. } => format!(
            "These docs are of CUDA {v}'s bindings (`CUDA_VERSION` {n}) from the crate's \
             pregenerated set{newest}: docs.rs has no CUDA headers, so its page shows these, \
             with this crate's own documentation and none of the header's.",
            n = v.number,
            newest = match b.history.releases.last() == Some(&v.number) {
                true => ", its newest release",
                false => "",
            }
        ),
    };
    format!(
        "{how} Another release's items are its feature's (`cuda-12080` for 12.8, see [Choosing \
         a CUDA release](crate::building#choosing-a-cuda-release)): `cargo doc -p libcuda-sys --features \
         cuda-12080 --open` shows them, and a dependent's docs.rs page shows its release with \
         `[package.metadata.docs.rs] features = [\"libcuda-sys/cuda-12080\"]`. Each function's \
         page says what it does, the driver it needs, and links its page of [NVIDIA's driver \
         API reference]({REFERENCE}).\n"
    )
}
