//! The crate's own documentation lines, added to generated and pregenerated
//! bindings alike: the driver each function needs, and for each enumerator
//! with a value type its C type, size and whether it can be set. The
//! memory-pool attributes also get a sentence each, written for this crate:
//! the pregenerated set carries none of the header's text, and docs.rs renders it.

use crate::output::Typed;

/// One sentence per `CU_MEMPOOL_ATTR_*`, in the order of their values.
const POOL_ATTRIBUTES: [(&str, &str); 15] = [
    (
        "CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES",
        "Non-zero (the default): an allocation may take memory that another stream \
         freed, once the allocating stream is ordered after that free (by an event, say).",
    ),
    (
        "CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC",
        "Non-zero (the default): an allocation may take memory whose free has already \
         completed, even when nothing orders the two streams.",
    ),
    (
        "CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES",
        "Non-zero (the default): to reuse memory whose free is still pending, the \
         allocator may make the allocating stream wait for it.",
    ),
    (
        "CU_MEMPOOL_ATTR_RELEASE_THRESHOLD",
        "How many bytes of unused reservation the pool keeps through a synchronization: \
         at each stream, event or context synchronize it gives what it holds above this \
         back to the system (0 by default, so it keeps nothing).",
    ),
    (
        "CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT",
        "Bytes the pool has reserved from the system right now, in use or not.",
    ),
    (
        "CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH",
        "The peak of `CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT` since the pool was made \
         or since this value was last set back to 0.",
    ),
    ("CU_MEMPOOL_ATTR_USED_MEM_CURRENT", "Bytes of the pool that live allocations hold right now."),
    (
        "CU_MEMPOOL_ATTR_USED_MEM_HIGH",
        "The peak of `CU_MEMPOOL_ATTR_USED_MEM_CURRENT` since the pool was made or \
         since this value was last set back to 0.",
    ),
    (
        "CU_MEMPOOL_ATTR_ALLOCATION_TYPE",
        "What kind of memory the pool hands out (pinned or managed), as chosen when it \
         was made.",
    ),
    (
        "CU_MEMPOOL_ATTR_EXPORT_HANDLE_TYPES",
        "The OS handle kinds the pool can be shared through with other processes; none \
         (`CU_MEM_HANDLE_TYPE_NONE`) for a pool that was itself imported, which cannot be \
         passed on.",
    ),
    (
        "CU_MEMPOOL_ATTR_LOCATION_ID",
        "The device ordinal or host NUMA node the pool's memory is on; \
         `CU_DEVICE_INVALID` when that place is not visible to this process.",
    ),
    (
        "CU_MEMPOOL_ATTR_LOCATION_TYPE",
        "Where the pool's memory is (a device, the host, a host NUMA node, ...); \
         `CU_MEM_LOCATION_TYPE_INVISIBLE` for an imported pool whose device this process \
         cannot see.",
    ),
    (
        "CU_MEMPOOL_ATTR_MAX_POOL_SIZE",
        "The most bytes the pool may reserve, possibly rounded up from what was asked \
         for at creation; 0 means unlimited.",
    ),
    (
        "CU_MEMPOOL_ATTR_HW_DECOMPRESS_ENABLED",
        "Non-zero when the pool was made for the hardware decompression engine \
         (`CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS`).",
    ),
    (
        "CU_MEMPOOL_ATTR_LOCALITY_DOMAIN_ID",
        "For a pool confined to one locality domain of its device, that domain's ID; \
         -1 for a pool that spans the whole device.",
    ),
];

/// This crate's sentence for an enumerator, where it has one.
pub fn sentence(name: &str) -> Option<&'static str> {
    POOL_ATTRIBUTES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// The line each function's documentation gets.
pub fn since(version: u32) -> String {
    let version = crate::version::CudaVersion { number: version };
    format!("Needs a driver of CUDA {version} or newer (`cudaTypedefs.h`).")
}

/// Bytes of a value type on every target CUDA supports (64-bit), where known.
fn size(typed: &Typed) -> Option<usize> {
    match typed.c_type.as_str() {
        "int" | "unsigned int" | "cuuint32_t" => Some(4),
        "cuuint64_t" | "size_t" | "CUdeviceptr" => Some(8),
        // C enums are int-sized; bindgen's newtype holds a c_uint or c_int.
        t if t.starts_with("CU") && typed.size_type.is_some() => Some(4),
        _ => None,
    }
}

/// The lines of an enumerator with a value type: ours, then its sentence.
fn value_type_lines(typed: &Typed) -> Vec<String> {
    let size = size(typed).map_or(String::new(), |n| format!(" ({n} bytes)"));
    let access = match (&typed.setter, typed.reset_only) {
        (Some(f), true) => format!("read-only, except that [`{f}`] can reset it to 0"),
        (Some(f), false) => format!("settable with [`{f}`]"),
        (None, _) => "read-only".to_string(),
    };
    let mut lines = vec![format!("Value type `{}`{size}; {access}.", typed.c_type)];
    if let Some(s) = sentence(&typed.name) {
        lines.splice(0..0, [s.to_string(), String::new()]);
    }
    lines
}

/// `#[doc = "..."]` lines inserted in `text` just before `<keyword> <name>`
/// (after the item's own attributes, so that they follow its documentation).
pub fn insert_before(text: &str, keyword: &str, name: &str, line: &str) -> String {
    // A blank doc line first, so that ours is a paragraph of its own.
    insert_lines(text, keyword, name, &[String::new(), line.to_string()])
}

fn insert_lines(text: &str, keyword: &str, name: &str, lines: &[String]) -> String {
    let needle = format!("{keyword} {name}");
    let at = text.match_indices(&needle).map(|(i, _)| i).find(|&i| {
        !text[i + needle.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
    });
    let Some(at) = at else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len() + 200);
    out.push_str(&text[..at]);
    for line in lines {
        out.push_str(&format!("#[doc = {line:?}] "));
    }
    out.push_str(&text[at..]);
    out
}

/// The types with each typed enumerator documented.
pub fn with_value_types(types: &str, typed: &[Typed]) -> String {
    let mut out = types.to_string();
    for t in typed {
        // A blank doc line first, so that ours is a paragraph of its own.
        let mut lines = vec![String::new()];
        lines.extend(value_type_lines(t));
        out = insert_lines(&out, "pub const", &t.name, &lines);
    }
    out
}
