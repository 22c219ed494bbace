//! Value types of attribute enumerators, as data.

/// The C type of an attribute's value, as `cuda.h` documents it with
/// `(value type = T)` at the start of the enumerator's comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValueType {
    /// The C type's name as the header writes it: `int`, `cuuint64_t`,
    /// `CUmemAllocationType`, ...
    pub c_name: &'static str,
    /// Its size in bytes: the size of the buffer `cu*GetAttribute` writes.
    /// `None` if the bindings have no type of that name.
    pub size: Option<usize>,
}

/// One enumerator with a declared value type: an entry of [`VALUE_TYPES`](crate::VALUE_TYPES).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypedEnumerator {
    /// The C enum, e.g. `CUmemPool_attribute_enum`.
    pub enumeration: &'static str,
    /// The enumerator, e.g. `CU_MEMPOOL_ATTR_RELEASE_THRESHOLD`.
    pub name: &'static str,
    /// Its numeric value.
    pub value: i64,
    /// The C type of the attribute's value.
    pub value_type: ValueType,
    /// The `cu*Set*Attribute*` function whose documentation lists this
    /// enumerator as one it accepts, if any: the attribute is settable there.
    pub setter: Option<&'static str>,
    /// Settable only back to zero (the high watermarks), as the description
    /// says; kept apart so that bindings without descriptions still tell.
    pub reset_only: bool,
    /// The header's description, after the value type, on one line; with the
    /// pregenerated bindings, this crate's own sentence for a memory-pool
    /// attribute, and empty for others.
    pub description: &'static str,
}

/// The entry of `enumeration` (`"CUmemPool_attribute_enum"`) with value `value`.
pub fn typed_enumerator(enumeration: &str, value: i64) -> Option<&'static TypedEnumerator> {
    crate::VALUE_TYPES.iter().find(|e| e.enumeration == enumeration && e.value == value)
}
