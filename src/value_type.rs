//! Value types of attribute enumerators, as data.

/// The C type of an attribute's value: what the pointer passed to its getter
/// must point to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ValueType {
    /// The C type as the header writes it: `int`, `cuuint64_t`, `CUcontext`,
    /// `char[1024]`; for a member of a union (launch attributes), the member's
    /// type (for a cluster's dimensions, a struct of three `unsigned int` members).
    pub c_name: &'static str,
    /// Its size in bytes: what the getter writes (of one element, for an
    /// [`Shape::Array`]). `None` where the bindings have no type of that name.
    pub size: Option<usize>,
    /// Its alignment in bytes, likewise.
    pub align: Option<usize>,
    /// For an integer, whether it is signed (`CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL`
    /// is, `CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES` is not); `None` for
    /// other types and for booleans.
    pub signed: Option<bool>,
    pub shape: Shape,
    /// For an integer whose values are an enum's, that enum's C name:
    /// `CU_DEVICE_ATTRIBUTE_COMPUTE_MODE` is an `int` holding a
    /// [`CUcomputemode`](crate::CUcomputemode), `CU_JIT_TARGET` an `unsigned int`
    /// holding a [`CUjit_target`](crate::CUjit_target). The enum converts to the
    /// integer with `.into()`.
    pub values: Option<&'static str>,
}

/// How many values of [`ValueType::c_name`] an attribute is, and how to read them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// One value.
    Scalar,
    /// One value, zero or not (4 bytes for the booleans of
    /// `cuPointerGetAttribute`, 1 byte for the C `bool` of `cuCoredumpGetAttribute`).
    Boolean,
    /// As many values as the buffer's size says (the getter takes it:
    /// `CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY`).
    Array,
    /// A NUL-terminated string in a buffer of [`ValueType::size`] bytes.
    String,
    /// An option's value (`CUjit_option`), held in the option's own slot of
    /// the `void *` values array beside the options: an integer in the slot's
    /// bits (`value as usize as *mut c_void`), a pointer as itself. The driver
    /// reads it.
    Slot,
    /// An option's value that the driver writes into the option's own slot
    /// of the `void *` values array when the call returns (`CU_JIT_WALL_TIME`,
    /// a `float`); what the slot held before is not read.
    Out,
    /// An option's value that the driver reads from its slot and then
    /// overwrites with a result (`CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES`: the
    /// buffer's size in, the bytes it filled out).
    InOut,
}

/// Whether an attribute can be set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Access {
    ReadOnly,
    /// With each of [`TypedEnumerator::setters`].
    Settable,
    /// Only back to zero (the high watermarks of memory pools).
    ResetOnly,
}

/// Where a value type comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// `(value type = T)` at the start of the enumerator's comment in `cuda.h`.
    Comment,
    /// The getter's signature (`int *` of `cuDeviceGetAttribute`); for a launch
    /// attribute, the member of its union that the header's comments name.
    Signature,
    /// This crate's facts table: the getter's documentation states the C type
    /// (or the member) at `line` of `cuda.h` (`"13.5:15932"`: CUDA 13.5's header).
    Documented { line: &'static str },
    /// This crate's facts table: the documentation at `line` says what the value
    /// is (a boolean, an integer) but not its C type; the width is the one the
    /// driver was measured to write (a CUDA 13.0 driver, 580.159.04).
    Measured { line: &'static str },
    /// Likewise, but no driver measured has the attribute yet: the C type is
    /// what `cuda.h` uses for such a value elsewhere, unconfirmed.
    Named { line: &'static str },
}

/// One attribute enumerator with its value type: an entry of [`VALUE_TYPES`](crate::VALUE_TYPES).
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
    /// For a launch attribute, the member of `CUlaunchAttributeValue` that
    /// holds it (`clusterDim`).
    pub member: Option<&'static str>,
    /// The functions that read it (`cuPointerGetAttribute`, `cuPointerGetAttributes`).
    pub getters: &'static [&'static str],
    /// The functions that set it: those whose documentation lists it, or for a
    /// launch attribute, those its comment says it is valid for
    /// (`cuLaunchKernelEx` for launches).
    pub setters: &'static [&'static str],
    pub access: Access,
    pub source: Source,
    /// What the attribute is, on one line: this crate's own sentence for a
    /// memory-pool or pointer attribute, with either kind of bindings; for
    /// another `(value type = T)` attribute, the header's description after
    /// the type with generated bindings, and empty with the pregenerated ones.
    pub description: &'static str,
}

/// The entry of `enumeration` (`"CUmemPool_attribute_enum"`) with value `value`.
pub fn typed_enumerator(enumeration: &str, value: i64) -> Option<&'static TypedEnumerator> {
    crate::VALUE_TYPES.iter().find(|e| e.enumeration == enumeration && e.value == value)
}

/// The entry with `value` among `VALUE_TYPES[from..to]`, one enum's entries.
pub(crate) const fn entry(from: usize, to: usize, value: i64) -> Option<&'static TypedEnumerator> {
    let mut i = from;
    while i < to {
        if crate::VALUE_TYPES[i].value == value {
            return Some(&crate::VALUE_TYPES[i]);
        }
        i += 1;
    }
    None
}
