//! The value type of every attribute, measured on the driver: each getter of
//! [`VALUE_TYPES`] is called for every attribute it reads, on real objects (an
//! allocation from `cuMemAlloc`, from a memory pool, pinned host memory,
//! managed memory, a loaded function and kernel, a kernel node, a stream, the
//! context, the device), into a heap buffer filled with a sentinel byte, twice
//! with two sentinels. What the driver wrote is one past the last byte that
//! changed in either call, and it must be what the table says:
//! - a scalar or boolean: its size, or less by no more than the trailing
//!   padding of a struct (its size is the width rounded up to its alignment);
//! - an array: the size passed (three elements);
//! - a string: at most its buffer, and NUL-terminated in it; the size the
//!   getter asks for (`cuCoredumpGetAttribute` with a null value) is its size.
//!
//! An attribute the driver refuses (it predates the header, or the object
//! has no such value) is listed with the result, and counted as refused, never
//! as agreed. Without a driver the test says `skipped`.

#[macro_use]
#[path = "common/gpu.rs"]
mod gpu;

use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};
use std::ptr::null_mut;

use gpu::{name, visible, SUCCESS};
use libcuda_sys::*;

const SENTINELS: [u8; 2] = [0xA5, 0x5A];
/// Larger than any value type, so a write past one shows.
const BUFFER: usize = 4096;
/// Elements of an array attribute asked for.
const ELEMENTS: usize = 3;
const MIB: usize = 1 << 20;

/// What a getter wrote into `BUFFER` bytes of each sentinel: `Ok(width)`, or
/// the driver's refusal. `call` gets the buffer.
fn measure(mut call: impl FnMut(*mut c_void) -> CUresult) -> Result<(usize, Vec<u8>), CUresult> {
    let mut width = 0;
    let mut first = Vec::new();
    for sentinel in SENTINELS {
        let mut buf = vec![sentinel; BUFFER];
        let r = call(buf.as_mut_ptr().cast());
        if r != SUCCESS {
            return Err(r);
        }
        if let Some(last) = buf.iter().rposition(|b| *b != sentinel) {
            width = width.max(last + 1);
        }
        if first.is_empty() {
            first = buf;
        }
    }
    first.truncate(width.max(1));
    Ok((width, first))
}

/// Whether `width` bytes written agree with the entry's type.
fn agrees(e: &TypedEnumerator, width: usize, bytes: &[u8]) -> bool {
    let (Some(size), Some(align)) = (e.value_type.size, e.value_type.align) else {
        return false;
    };
    match e.value_type.shape {
        Shape::Array => width == ELEMENTS * size,
        Shape::String => width <= size && bytes.contains(&0),
        Shape::Scalar | Shape::Boolean => width <= size && width.next_multiple_of(align) == size,
        // Options: no getter writes them (the test leaves them out).
        Shape::Slot | Shape::Out | Shape::InOut => false,
    }
}

/// A stream, a module's function, a library's kernel and a graph with one
/// kernel node; destroyed on drop.
struct Objects {
    stream: CUstream,
    module: CUmodule,
    function: CUfunction,
    #[cfg(cuda_12_0)]
    library: CUlibrary,
    #[cfg(cuda_12_0)]
    kernel: CUkernel,
    graph: CUgraph,
    node: CUgraphNode,
    pool: CUmemoryPool,
    allocations: Vec<(&'static str, CUdeviceptr)>,
    pooled: CUdeviceptr,
    host: *mut c_void,
}

/// A kernel that does nothing, for the driver to compile for any GPU.
const PTX: &std::ffi::CStr =
    c".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry nothing(.param .u64 p)\n{\n ret;\n}\n";

impl Objects {
    fn new(dev: CUdevice) -> Objects {
        let mut stream = null_mut();
        ck!(cuStreamCreate(&mut stream, CUstream_flags::CU_STREAM_NON_BLOCKING.0));
        let mut module = null_mut();
        ck!(cuModuleLoadData(&mut module, PTX.as_ptr().cast()));
        let mut function = null_mut();
        ck!(cuModuleGetFunction(&mut function, module, c"nothing".as_ptr()));
        #[cfg(cuda_12_0)]
        let (library, kernel) = {
            let mut library = null_mut();
            ck!(cuLibraryLoadData(
                &mut library,
                PTX.as_ptr().cast(),
                null_mut(),
                null_mut(),
                0,
                null_mut(),
                null_mut(),
                0
            ));
            let mut kernel = null_mut();
            ck!(cuLibraryGetKernel(&mut kernel, library, c"nothing".as_ptr()));
            (library, kernel)
        };
        let mut graph = null_mut();
        ck!(cuGraphCreate(&mut graph, 0));
        let mut device_memory = 0;
        ck!(cuMemAlloc(&mut device_memory, MIB));
        let mut arg: *mut c_void = (&mut device_memory as *mut CUdeviceptr).cast();
        let params = CUDA_KERNEL_NODE_PARAMS {
            func: function,
            gridDimX: 1,
            gridDimY: 1,
            gridDimZ: 1,
            blockDimX: 1,
            blockDimY: 1,
            blockDimZ: 1,
            kernelParams: &mut arg,
            ..Default::default()
        };
        let mut node = null_mut();
        ck!(cuGraphAddKernelNode(&mut node, graph, std::ptr::null(), 0, &params));
        let mut pool = null_mut();
        ck!(cuDeviceGetDefaultMemPool(&mut pool, dev));
        let mut pooled = 0;
        ck!(cuMemAllocFromPoolAsync(&mut pooled, MIB, pool, stream));
        ck!(cuStreamSynchronize(stream));
        let mut host = null_mut();
        ck!(cuMemHostAlloc(&mut host, MIB, CU_MEMHOSTALLOC_DEVICEMAP));
        let mut managed = 0;
        ck!(cuMemAllocManaged(&mut managed, MIB, CUmemAttach_flags::CU_MEM_ATTACH_GLOBAL.0));
        Objects {
            stream,
            module,
            function,
            #[cfg(cuda_12_0)]
            library,
            #[cfg(cuda_12_0)]
            kernel,
            graph,
            node,
            pool,
            allocations: vec![
                ("cuMemAlloc", device_memory),
                ("pool", pooled),
                ("pinned host", host as CUdeviceptr),
                ("managed", managed),
            ],
            pooled,
            host,
        }
    }
}

impl Drop for Objects {
    fn drop(&mut self) {
        use gpu::cleanup;
        unsafe {
            for (what, p) in &self.allocations {
                match *what {
                    "cuMemAlloc" | "managed" => cleanup("cuMemFree", cuMemFree(*p)),
                    "pool" => cleanup("cuMemFreeAsync", cuMemFreeAsync(self.pooled, self.stream)),
                    _ => cleanup("cuMemFreeHost", cuMemFreeHost(self.host)),
                }
            }
            cleanup("cuStreamSynchronize", cuStreamSynchronize(self.stream));
            cleanup("cuGraphDestroy", cuGraphDestroy(self.graph));
            #[cfg(cuda_12_0)]
            cleanup("cuLibraryUnload", cuLibraryUnload(self.library));
            cleanup("cuModuleUnload", cuModuleUnload(self.module));
            cleanup("cuStreamDestroy", cuStreamDestroy(self.stream));
        }
    }
}

/// One call of a getter on one object: what it measured, and the size the
/// getter asks for where it says (`cuCoredumpGetAttribute`).
struct Call {
    on: String,
    result: Result<(usize, Vec<u8>), CUresult>,
    asks: Option<usize>,
}

/// Every call of `getter` for attribute `e`; `None` where this test does not
/// know the getter (a newer header's).
fn calls(
    e: &TypedEnumerator,
    getter: &str,
    o: &Objects,
    dev: CUdevice,
    devices: c_int,
) -> Option<Vec<Call>> {
    let size = e.value_type.size.unwrap_or(0);
    let v = e.value as i32;
    let one = |on: &str, result| vec![Call { on: on.to_string(), result, asks: None }];
    Some(match getter {
        "cuPointerGetAttribute" => o
            .allocations
            .iter()
            .map(|(on, p)| Call {
                on: on.to_string(),
                result: measure(|b| unsafe {
                    cuPointerGetAttribute(b, CUpointer_attribute(v as _), *p)
                }),
                asks: None,
            })
            .collect(),
        "cuPointerGetAttributes" => o
            .allocations
            .iter()
            .map(|(on, p)| Call {
                on: on.to_string(),
                result: measure(|mut b| unsafe {
                    let mut attr = CUpointer_attribute(v as _);
                    cuPointerGetAttributes(1, &mut attr, &mut b, *p)
                }),
                asks: None,
            })
            .collect(),
        "cuMemRangeGetAttribute" | "cuMemRangeGetAttributes" => {
            let managed = o.allocations.iter().find(|a| a.0 == "managed")?.1;
            let mut n = if e.value_type.shape == Shape::Array { ELEMENTS * size } else { size };
            let mut attr = CUmem_range_attribute(v as _);
            let one_of_many = getter.ends_with('s');
            one(
                "managed",
                measure(|mut b| unsafe {
                    if one_of_many {
                        cuMemRangeGetAttributes(&mut b, &mut n, &mut attr, 1, managed, MIB)
                    } else {
                        cuMemRangeGetAttribute(b, n, attr, managed, MIB)
                    }
                }),
            )
        }
        #[cfg(cuda_12_1)]
        "cuCoredumpGetAttribute" | "cuCoredumpGetAttributeGlobal" => {
            let global = getter.ends_with("Global");
            let get = |value: *mut c_void, n: &mut usize| unsafe {
                let attr = CUcoredumpSettings(v as _);
                if global {
                    cuCoredumpGetAttributeGlobal(attr, value, n)
                } else {
                    cuCoredumpGetAttribute(attr, value, n)
                }
            };
            // Asked with a null value, the getter says the size it expects.
            let mut expected = 0;
            let asks = (get(null_mut(), &mut expected) == SUCCESS).then_some(expected);
            let on = if global { "the process" } else { "the context" };
            vec![Call { on: on.into(), result: measure(|b| get(b, &mut size.clone())), asks }]
        }
        "cuStreamGetAttribute" => one(
            "a stream",
            measure(|b| unsafe {
                cuStreamGetAttribute(o.stream, CUstreamAttrID(v as _), b.cast())
            }),
        ),
        "cuGraphKernelNodeGetAttribute" => one(
            "a kernel node",
            measure(|b| unsafe {
                cuGraphKernelNodeGetAttribute(o.node, CUkernelNodeAttrID(v as _), b.cast())
            }),
        ),
        "cuDeviceGetAttribute" => one(
            "device 0",
            measure(|b| unsafe { cuDeviceGetAttribute(b.cast(), CUdevice_attribute(v as _), dev) }),
        ),
        "cuFuncGetAttribute" => one(
            "a module's function",
            measure(|b| unsafe {
                cuFuncGetAttribute(b.cast(), CUfunction_attribute(v as _), o.function)
            }),
        ),
        #[cfg(cuda_12_0)]
        "cuKernelGetAttribute" => one(
            "a library's kernel",
            measure(|b| unsafe {
                cuKernelGetAttribute(b.cast(), CUfunction_attribute(v as _), o.kernel, dev)
            }),
        ),
        "cuCtxGetLimit" => {
            one("the context", measure(|b| unsafe { cuCtxGetLimit(b.cast(), CUlimit(v as _)) }))
        }
        "cuDeviceGetP2PAttribute" if devices < 2 => Vec::new(),
        "cuDeviceGetP2PAttribute" => one(
            "devices 0 and 1",
            measure(|b| unsafe {
                cuDeviceGetP2PAttribute(
                    b.cast(),
                    CUdevice_P2PAttribute(v as _),
                    dev,
                    gpu::device(1),
                )
            }),
        ),
        "cuMemPoolGetAttribute" => one(
            "the default pool",
            measure(|b| unsafe { cuMemPoolGetAttribute(o.pool, CUmemPool_attribute(v as _), b) }),
        ),
        "cuDeviceGetGraphMemAttribute" => one(
            "device 0",
            measure(|b| unsafe {
                cuDeviceGetGraphMemAttribute(dev, CUgraphMem_attribute(v as _), b)
            }),
        ),
        _ => return None,
    })
}

/// Per enum: attributes measured, agreed, refused, not readable (set at
/// launch only) or not reached (two GPUs), and the calls.
#[derive(Default)]
struct Count {
    attributes: usize,
    measured: usize,
    agreed: usize,
    refused: usize,
    unreadable: usize,
    unreached: usize,
    calls: usize,
}

#[test]
fn every_attribute_has_the_width_of_its_value_type() {
    let Some(gpu) = gpu::gpu() else { return };
    let objects = Objects::new(gpu.dev);
    let mut counts: BTreeMap<&str, Count> = BTreeMap::new();
    let mut unknown = Vec::new();
    let mut wrong = Vec::new();
    let mut two_gpus = Vec::new();
    // Attributes: options (`CUjit_option`) are passed in, never read back by a getter.
    let options = |e: &&TypedEnumerator| {
        matches!(e.value_type.shape, Shape::Slot | Shape::Out | Shape::InOut)
    };
    for e in VALUE_TYPES.iter().filter(|e| !options(e)) {
        let count = counts.entry(e.enumeration).or_default();
        count.attributes += 1;
        let mut all = Vec::new();
        for getter in e.getters {
            match calls(e, getter, &objects, gpu.dev, gpu.devices) {
                Some(c) if c.is_empty() => two_gpus.push(e.name),
                Some(c) => all.extend(c.into_iter().map(|c| (*getter, c))),
                None => unknown.push(format!("{} ({getter})", e.name)),
            }
        }
        if e.getters.is_empty() {
            count.unreadable += 1;
        }
        if all.is_empty() {
            count.unreached += usize::from(!e.getters.is_empty());
            continue;
        }
        count.calls += all.len();
        let mut answered = false;
        let mut agreed = true;
        for (getter, call) in &all {
            match &call.result {
                Ok((width, bytes)) => {
                    answered = true;
                    let ok = agrees(e, *width, bytes)
                        && call.asks.is_none_or(|asks| Some(asks) == e.value_type.size);
                    agreed &= ok;
                    let head: String = bytes.iter().take(16).map(|b| format!("{b:02x}")).collect();
                    visible(&format!(
                        "{} {} via {getter} on {}: {width} bytes written{} [{head}]",
                        if ok { "agreed:" } else { "WRONG:" },
                        e.name,
                        call.on,
                        if ok {
                            String::new()
                        } else {
                            format!(
                                ", getter asks for {:?}, table says {:?}",
                                call.asks, e.value_type
                            )
                        },
                    ));
                    if !ok {
                        wrong
                            .push(format!("{} via {getter} on {}: {width} bytes", e.name, call.on));
                    }
                }
                Err(r) => visible(&format!(
                    "refused: {} via {getter} on {}: {}",
                    e.name,
                    call.on,
                    name(*r)
                )),
            }
        }
        if answered {
            count.measured += 1;
            count.agreed += usize::from(agreed);
        } else {
            count.refused += 1;
        }
    }
    if !two_gpus.is_empty() {
        testkit::skip_gpu(&format!(
            "one GPU: {} attributes of two devices ({}) not measured",
            two_gpus.len(),
            two_gpus.join(", ")
        ));
    }
    let line = |c: &Count| {
        format!(
            "{} attributes, {} measured, {} agreed, {} refused, {} set at launch only, {} need two GPUs ({} calls)",
            c.attributes, c.measured, c.agreed, c.refused, c.unreadable, c.unreached, c.calls
        )
    };
    let mut total = Count::default();
    for (enumeration, c) in &counts {
        visible(&format!("{enumeration}: {}", line(c)));
        total.attributes += c.attributes;
        total.measured += c.measured;
        total.agreed += c.agreed;
        total.refused += c.refused;
        total.unreadable += c.unreadable;
        total.unreached += c.unreached;
        total.calls += c.calls;
    }
    let mut version = 0;
    ck!(cuDriverGetVersion(&mut version));
    visible(&format!("all (driver {version}, CUDA {HEADER_VERSION} bindings): {}", line(&total)));
    assert!(unknown.is_empty(), "getters this test does not call: {unknown:?}");
    assert!(wrong.is_empty(), "widths that disagree with the table: {wrong:?}");
    assert!(total.measured > 0, "the driver answered no attribute");
}

/// The coredump file and pipe names with buffers shorter than 1024 bytes: how
/// many bytes each getter writes when `*size` says less, measured in a heap
/// buffer of `BUFFER` bytes whose bytes past `*size` are the guard. The crate's
/// docs of both getters say what was found (driver 580.159.04: the global
/// getter writes all 1024 bytes, the per-context one `*size + 1`); this test
/// prints what this driver does and fails if either writes past 1024 bytes,
/// the buffer the docs tell callers to pass.
#[cfg(cuda_12_1)]
#[test]
fn coredump_names_with_short_buffers() {
    let Some(_gpu) = gpu::gpu() else { return };
    let mut driver = 0;
    ck!(cuDriverGetVersion(&mut driver));
    for (attr_name, attr) in [
        ("CU_COREDUMP_FILE", CUcoredumpSettings::CU_COREDUMP_FILE),
        ("CU_COREDUMP_PIPE", CUcoredumpSettings::CU_COREDUMP_PIPE),
    ] {
        for global in [true, false] {
            let getter =
                if global { "cuCoredumpGetAttributeGlobal" } else { "cuCoredumpGetAttribute" };
            let mut widths = Vec::new();
            for asked in [1usize, 8, 64, 1024] {
                let measured = measure(|b| {
                    let mut size = asked;
                    unsafe {
                        if global {
                            cuCoredumpGetAttributeGlobal(attr, b, &mut size)
                        } else {
                            cuCoredumpGetAttribute(attr, b, &mut size)
                        }
                    }
                });
                match measured {
                    Ok((width, _)) => {
                        assert!(
                            width <= 1024,
                            "{getter}({attr_name}) with *size {asked} wrote {width} bytes"
                        );
                        widths.push(format!("*size {asked}: wrote {width}"));
                    }
                    Err(r) => widths.push(format!("*size {asked}: {}", name(r))),
                }
            }
            visible(&format!(
                "coredump_names_with_short_buffers: driver {driver}, {getter}({attr_name}): {}",
                widths.join(", ")
            ));
        }
    }
}

/// `CU_GRAPH_MEM_ATTR_USED_MEM_HIGH` and `CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH`,
/// set to 0 and to another value: what the driver accepts must be what the
/// value-type table says (`Access::ResetOnly` where only 0 is).
#[test]
fn graph_memory_watermarks_are_set_as_the_table_says() {
    let Some(gpu) = gpu::gpu() else { return };
    for (attr_name, attr) in [
        ("CU_GRAPH_MEM_ATTR_USED_MEM_HIGH", CUgraphMem_attribute::CU_GRAPH_MEM_ATTR_USED_MEM_HIGH),
        (
            "CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH",
            CUgraphMem_attribute::CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH,
        ),
    ] {
        let entry = VALUE_TYPES
            .iter()
            .find(|e| e.name == attr_name)
            .expect("the table has the graph-memory attributes");
        let set = |value: u64| {
            let mut v = value;
            unsafe { cuDeviceSetGraphMemAttribute(gpu.dev, attr, (&mut v as *mut u64).cast()) }
        };
        let zero = set(0);
        let other = set(1 << 20);
        visible(&format!(
            "graph_memory_watermarks_are_set_as_the_table_says: {attr_name}: set to 0 -> {}, to 1 MiB -> {}; the table says {:?}",
            name(zero),
            name(other),
            entry.access
        ));
        assert_eq!(zero, SUCCESS, "{attr_name} set to 0");
        let measured = if other == SUCCESS { Access::Settable } else { Access::ResetOnly };
        assert_eq!(
            entry.access,
            measured,
            "{attr_name}: the driver answered {} for 1 MiB",
            name(other)
        );
    }
}
