//! What the crate adds to the C enums: `Debug` by name, the bit operators of
//! the masks, `Display` and `Error` for `CUresult`.

use libcuda_sys::*;

#[test]
fn debug_shows_the_enumerator_under_the_typedef_name() {
    assert_eq!(
        format!("{:?}", CUresult::CUDA_ERROR_INVALID_DEVICE),
        "CUresult(CUDA_ERROR_INVALID_DEVICE)"
    );
    assert_eq!(format!("{:?}", CUresult(9999)), "CUresult(9999)");
    assert_eq!(
        format!("{:?}", CUmemPool_attribute::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD),
        "CUmemPool_attribute(CU_MEMPOOL_ATTR_RELEASE_THRESHOLD)"
    );
    // Two names, one value: the header's first, the current one.
    assert_eq!(CUctx_flags::CU_CTX_BLOCKING_SYNC, CUctx_flags::CU_CTX_SCHED_BLOCKING_SYNC);
    assert_eq!(
        format!("{:?}", CUctx_flags::CU_CTX_BLOCKING_SYNC),
        "CUctx_flags(CU_CTX_SCHED_BLOCKING_SYNC)"
    );
    // In a struct's derived Debug, too.
    let array =
        CUDA_ARRAY_DESCRIPTOR { Format: CUarray_format::CU_AD_FORMAT_FLOAT, ..Default::default() };
    assert!(
        format!("{array:?}").contains("Format: CUarray_format(CU_AD_FORMAT_FLOAT)"),
        "{array:?}"
    );
}

#[test]
fn display_and_error_of_cuda_result() {
    assert_eq!(
        CUresult::CUDA_ERROR_INVALID_DEVICE.to_string(),
        "CUDA_ERROR_INVALID_DEVICE (101): the device ordinal is not a valid GPU, or the device cannot do this"
    );
    assert_eq!(CUresult(9999).to_string(), "CUresult 9999");
    let boxed: Box<dyn std::error::Error> = Box::new(CUresult::CUDA_ERROR_OUT_OF_MEMORY);
    assert!(boxed.to_string().starts_with("CUDA_ERROR_OUT_OF_MEMORY (2): "), "{boxed}");
    // Every code of these bindings has a meaning of its own: none prints bare.
    let named: Vec<CUresult> = (0..1000).map(CUresult).filter(|r| r.name().is_some()).collect();
    assert!(named.len() > 90, "{}", named.len());
    for r in named {
        let meaning = r.meaning().unwrap_or_else(|| panic!("{r:?} has no meaning"));
        assert!(!meaning.is_empty() && !meaning.ends_with('.'), "{r:?}: {meaning}");
    }
}

#[test]
fn masks_combine_and_keep_their_type() {
    let mut flags = CUctx_flags::CU_CTX_SCHED_SPIN | CUctx_flags::CU_CTX_MAP_HOST;
    assert_eq!(flags.0, 0x1 | 0x8);
    assert!(flags.contains(CUctx_flags::CU_CTX_MAP_HOST));
    assert!(!flags.contains(CUctx_flags::CU_CTX_SCHED_YIELD));
    assert_eq!(format!("{flags:?}"), "CUctx_flags(CU_CTX_SCHED_SPIN | CU_CTX_MAP_HOST)");
    flags &= CUctx_flags::CU_CTX_SCHED_MASK;
    assert_eq!(flags, CUctx_flags::CU_CTX_SCHED_SPIN);
    flags |= CUctx_flags::CU_CTX_MAP_HOST;
    assert_eq!(flags & CUctx_flags::CU_CTX_MAP_HOST, CUctx_flags::CU_CTX_MAP_HOST);
    // Bits no enumerator names are shown as a number.
    assert_eq!(
        format!("{:?}", CUctx_flags(0x1 | 0x8000_0000)),
        "CUctx_flags(CU_CTX_SCHED_SPIN | 0x80000000)"
    );

    let mut props = CUmemPoolProps::default();
    #[cfg(cuda_12_3)]
    {
        props.handleTypes = CUmemAllocationHandleType::CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
            | CUmemAllocationHandleType::CU_MEM_HANDLE_TYPE_FABRIC;
        assert_eq!(props.handleTypes.0, 0x1 | 0x8);
    }
    #[cfg(not(cuda_12_3))]
    {
        props.handleTypes = CUmemAllocationHandleType::CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
            | CUmemAllocationHandleType::CU_MEM_HANDLE_TYPE_WIN32;
        assert_eq!(props.handleTypes.0, 0x1 | 0x2);
    }
    let _ = CUgraphInstantiate_flags::CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH
        | CUgraphInstantiate_flags::CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
    let _ = CUevent_flags::CU_EVENT_DISABLE_TIMING | CUevent_flags::CU_EVENT_INTERPROCESS;
}

#[test]
fn contains_of_a_zero_enumerator_is_whether_no_bit_is_set() {
    use CUctx_flags as F;
    use CUmemAllocationHandleType as H;
    assert!(!F::CU_CTX_MAP_HOST.contains(F::CU_CTX_SCHED_AUTO));
    assert!(!(F::CU_CTX_SCHED_SPIN | F::CU_CTX_MAP_HOST).contains(F::CU_CTX_SCHED_AUTO));
    assert!(F(0).contains(F::CU_CTX_SCHED_AUTO));
    // The scheduling mode within other flags: compare the field.
    assert_eq!(F::CU_CTX_MAP_HOST & F::CU_CTX_SCHED_MASK, F::CU_CTX_SCHED_AUTO);
    assert!(!H::CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR.contains(H::CU_MEM_HANDLE_TYPE_NONE));
    assert!(H::CU_MEM_HANDLE_TYPE_NONE.contains(H::CU_MEM_HANDLE_TYPE_NONE));
    // Nonzero enumerators as before.
    assert!(H::CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
        .contains(H::CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    assert!(!H::CU_MEM_HANDLE_TYPE_NONE.contains(H::CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
}

/// `CUstreamWaitValue_flags` holds a comparison (GEQ 0, EQ 1, AND 2, NOR 3)
/// beside the FLUSH bit: read as bits, NOR | FLUSH would show as EQ | AND |
/// FLUSH. Such enums are no masks; their values combine through `.0`.
#[test]
fn an_enum_of_modes_is_no_mask_and_shows_a_combination_as_its_number() {
    use CUstreamWaitValue_flags as W;
    for mode in [
        "CUstreamWaitValue_flags_enum",
        "CUmemAccess_flags_enum",
        "CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS_enum",
    ] {
        assert!(!BITMASKS.contains(&mode), "{mode} is in BITMASKS");
    }
    let nor_flush = W(W::CU_STREAM_WAIT_VALUE_NOR.0 | W::CU_STREAM_WAIT_VALUE_FLUSH.0);
    assert_eq!(format!("{nor_flush:?}"), "CUstreamWaitValue_flags(1073741827)");
    assert_eq!(
        format!("{:?}", W::CU_STREAM_WAIT_VALUE_NOR),
        "CUstreamWaitValue_flags(CU_STREAM_WAIT_VALUE_NOR)"
    );
    assert_eq!(
        format!("{:?}", CUmemAccess_flags::CU_MEM_ACCESS_FLAGS_PROT_READWRITE),
        "CUmemAccess_flags(CU_MEM_ACCESS_FLAGS_PROT_READWRITE)"
    );
}

/// `CU_COREDUMP_LOG_ONLY` is `1 << 31` of an `int` enum (13.3 and newer).
#[cfg(cuda_13_3)]
#[test]
fn the_top_bit_of_an_int_mask_is_a_bit_not_a_sign() {
    use CUCoredumpGenerationFlags as C;
    assert!(BITMASKS.contains(&"CUCoredumpGenerationFlags"));
    let flags = C::CU_COREDUMP_SKIP_ABORT | C::CU_COREDUMP_LOG_ONLY;
    assert!(flags.contains(C::CU_COREDUMP_LOG_ONLY));
    assert_eq!(
        format!("{flags:?}"),
        "CUCoredumpGenerationFlags(CU_COREDUMP_SKIP_ABORT | CU_COREDUMP_LOG_ONLY)"
    );
    assert_eq!(
        format!("{:?}", C::CU_COREDUMP_LOG_ONLY),
        "CUCoredumpGenerationFlags(CU_COREDUMP_LOG_ONLY)"
    );
}

/// An enum whose values a parameter or attribute takes as a plain integer
/// converts to that integer with `.into()`, as C converts it: no `.0 as`.
#[test]
fn enums_convert_to_the_integer_their_parameters_take() {
    // cuStreamCreate's `c_uint Flags`.
    let flags: std::ffi::c_uint = CU_STREAM_NON_BLOCKING.into();
    assert_eq!(flags, CU_STREAM_NON_BLOCKING.0);
    // cuCtxCreate's `flags`, a mask combined before the conversion.
    let ctx: u32 = (CUctx_flags::CU_CTX_SCHED_BLOCKING_SYNC | CUctx_flags::CU_CTX_MAP_HOST).into();
    assert_eq!(ctx, 0x4 | 0x8);
    // CU_DEVICE_ATTRIBUTE_COMPUTE_MODE's `int` holds a CUcomputemode: compared without casts.
    let mode: i32 = 3;
    assert_eq!(mode, CUcomputemode::CU_COMPUTEMODE_EXCLUSIVE_PROCESS.into());
    let t = CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_MODE.value_type().unwrap();
    assert_eq!((t.c_name, t.values), ("int", Some("CUcomputemode")));
    // cuGraphInstantiateWithFlags' `unsigned long long flags`.
    let graph: u64 =
        CUgraphInstantiate_flags::CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH.into();
    assert_eq!(graph, 1);
}

/// Each JIT option has the type of the value its slot holds, whether the
/// driver reads it or writes a result back, and the enum an integer one holds.
#[test]
fn jit_options_say_what_their_slot_holds() {
    let t = CU_JIT_MAX_REGISTERS.value_type().unwrap();
    assert_eq!((t.c_name, t.size, t.shape), ("unsigned int", Some(4), Shape::Slot));
    let t = CU_JIT_WALL_TIME.value_type().unwrap();
    assert_eq!((t.c_name, t.shape), ("float", Shape::Out));
    let t = CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES.value_type().unwrap();
    assert_eq!((t.c_name, t.shape), ("unsigned int", Shape::InOut));
    let t = CU_JIT_INFO_LOG_BUFFER.value_type().unwrap();
    assert_eq!((t.c_name, t.size), ("char *", Some(8)));
    let t = CU_JIT_TARGET.value_type().unwrap();
    assert_eq!(t.values, Some("CUjit_target"));
    let target: u32 = CUjit_target::CU_TARGET_COMPUTE_90.into();
    assert_eq!(target, 90);
    // An option that takes no value, and the count that ends the enum, have none.
    assert_eq!(CU_JIT_TARGET_FROM_CUCONTEXT.value_type(), None);
    assert_eq!(CU_JIT_NUM_OPTIONS.value_type(), None);
    let e = CU_JIT_MAX_REGISTERS.typed().unwrap();
    assert!(e.getters.is_empty() && e.setters.contains(&"cuModuleLoadDataEx"));
}

/// The stub result names both stubs that give it: the toolkit's, and the
/// crate's own stand-in where it finds no driver.
#[test]
fn the_stub_result_names_the_stand_in_too() {
    let shown = CUresult::CUDA_ERROR_STUB_LIBRARY.to_string();
    assert!(shown.contains("toolkit's link-time stub") && shown.contains("stand-in"), "{shown}");
}
