//! What the crate adds to the C enums: readable `Debug`, the bit operators of
//! the enums `cuda.h` uses as masks, and `Display`/`Error` for `CUresult`.

use core::fmt;

/// `|`, `|=`, `&`, `&=` and `contains` for a C enum used as a bit mask
/// (see [`BITMASKS`](crate::BITMASKS)): a combination keeps the enum's type,
/// so it can be stored where the C API takes the enum.
macro_rules! bitmask {
    ($($name:ident),* $(,)?) => {$(
        impl ::core::ops::BitOr for $name {
            type Output = Self;
            #[inline]
            fn bitor(self, other: Self) -> Self {
                Self(self.0 | other.0)
            }
        }
        impl ::core::ops::BitOrAssign for $name {
            #[inline]
            fn bitor_assign(&mut self, other: Self) {
                self.0 |= other.0;
            }
        }
        impl ::core::ops::BitAnd for $name {
            type Output = Self;
            #[inline]
            fn bitand(self, other: Self) -> Self {
                Self(self.0 & other.0)
            }
        }
        impl ::core::ops::BitAndAssign for $name {
            #[inline]
            fn bitand_assign(&mut self, other: Self) {
                self.0 &= other.0;
            }
        }
        impl $name {
            /// Whether every bit of `other` is set in `self`. An enumerator of
            /// value 0 (`CU_CTX_SCHED_AUTO`, `CU_MEM_HANDLE_TYPE_NONE`) has no bit
            /// to look for: `contains` of it is whether `self` is 0 too, no bit
            /// set at all. (For a zero value within a field, such as the
            /// scheduling mode of `CUctx_flags`, compare the field:
            /// `flags & CU_CTX_SCHED_MASK == CU_CTX_SCHED_AUTO`.)
            #[inline]
            pub const fn contains(self, other: Self) -> bool {
                if other.0 == 0 {
                    self.0 == 0
                } else {
                    self.0 & other.0 == other.0
                }
            }
        }
    )*};
}

/// A mask's value as the bits of its `T` (`1 << 31` of an `int` enum, not a
/// negative number).
pub(crate) const fn bits<T>(value: i64) -> i64 {
    match core::mem::size_of::<T>() {
        size @ 1..=7 => value & ((1 << (size * 8)) - 1),
        _ => value,
    }
}

/// The name of `value` in `names` (`(value, name)` in the header's order): the
/// first, where two share a value.
pub(crate) const fn name_of(value: i64, names: &[(i64, &'static str)]) -> Option<&'static str> {
    let mut i = 0;
    while i < names.len() {
        if names[i].0 == value {
            return Some(names[i].1);
        }
        i += 1;
    }
    None
}

/// `Debug` of a C enum: `CUresult(CUDA_ERROR_INVALID_DEVICE)`, or the number
/// for a value the header does not list (`CUresult(9999)`). A mask whose value
/// is no single enumerator lists its bits: `CUctx_flags(CU_CTX_SCHED_SPIN |
/// CU_CTX_MAP_HOST)`. `enumerators` is empty for an enum that is no mask.
pub(crate) fn fmt_enumerator(
    f: &mut fmt::Formatter<'_>,
    ty: &str,
    name: Option<&str>,
    value: i64,
    enumerators: &[(&str, i64)],
) -> fmt::Result {
    if let Some(name) = name {
        return write!(f, "{ty}({name})");
    }
    if enumerators.is_empty() || value <= 0 {
        return write!(f, "{ty}({value})");
    }
    write!(f, "{ty}(")?;
    let mut rest = value;
    let mut separator = "";
    for (name, bit) in enumerators {
        if bit.count_ones() == 1 && rest & bit != 0 {
            write!(f, "{separator}{name}")?;
            rest &= !bit;
            separator = " | ";
        }
    }
    if rest != 0 {
        write!(f, "{separator}{rest:#x}")?;
    }
    write!(f, ")")
}

/// The name, the value and what it means, in the crate's own words:
/// `CUDA_ERROR_INVALID_DEVICE (101): ...`; `CUresult 9999` for a value the
/// header does not list. It never calls the driver (`cuGetErrorString` needs
/// one, and an error may be the driver's absence). Only this crate can give
/// `CUresult` `Display` and `Error`, so it does: a wrapper's `Result<T,
/// CUresult>` then works with `?` into `Box<dyn Error>` and error-reporting
/// crates. (`CUDA_SUCCESS` is a value of the type too: an API that returns
/// `Err` only for other values is the wrapper's to write.)
impl fmt::Display for crate::CUresult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.name(), self.meaning()) {
            (Some(name), Some(meaning)) => write!(f, "{name} ({}): {meaning}", self.0),
            (Some(name), None) => write!(f, "{name} ({})", self.0),
            (None, _) => write!(f, "CUresult {}", self.0),
        }
    }
}

impl core::error::Error for crate::CUresult {}
