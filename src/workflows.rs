//! Workflows: the sequences of driver calls that only work as a whole.
//!
//! Most driver functions do one thing and say so on their own page. A few
//! only make sense as a chain: a virtual address is useless until memory is
//! mapped at it and a device is allowed to touch it, an exported file
//! descriptor is useless until another process imports it, a graph does
//! nothing until it is instantiated and launched. Leave out a link and the
//! chain often fails far from the step that was skipped, or does not fail at
//! all until a kernel touches memory. Each section below walks one chain: why
//! each step is there, what goes wrong without it, who owns each handle and
//! who gives it back, and in which order things are torn down.
//!
//! The examples compile against the crate's default bindings (CUDA 13.x) and
//! turn every `CUresult` into a `Result` with the `check` helper of
//! [A first program](crate#a-first-program). For brevity they return early on
//! the first error and leak what they had made by then; a program that goes
//! on after an error tears down what it created, in the order each section
//! gives. The error codes and sizes quoted were observed on an H100 with
//! driver 580.159.04 (CUDA 13.0), where the examples of the virtual memory,
//! graph and primary context sections also ran as written.
//!
//! - [Virtual memory](#virtual-memory)
//! - [Sharing memory between processes (IPC)](#sharing-memory-between-processes-ipc)
//! - [Graphs](#graphs)
//! - [Launch configuration](#launch-configuration)
//! - [JIT and linking](#jit-and-linking)
//! - [The primary context](#the-primary-context)
//!
//! # Virtual memory
//!
//! [`cuMemAlloc`](crate::cuMemAlloc) gives an address and the memory behind it
//! in one call. The virtual memory management functions take the two apart:
//! a range of addresses is reserved on its own, physical allocations are
//! created on their own, and a mapping joins a piece of one to a piece of the
//! other. That is what lets a buffer grow in place (reserve far more than
//! needed, map more memory at its end later, no copy, no new pointer), lets
//! one contiguous range be backed by memory of several devices, and lets an
//! allocation be exported to another process
//! ([IPC](#sharing-memory-between-processes-ipc)). Whether a device supports
//! it is `CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED`.
//!
//! The steps, in order:
//!
//! 1. **The granularity.** [`cuMemGetAllocationGranularity`](crate::cuMemGetAllocationGranularity)
//!    with the [`CUmemAllocationProp`](crate::CUmemAllocationProp) that
//!    `cuMemCreate` will get (pinned memory, on which device, which handle
//!    types it may be exported as). Every size and offset that follows (the
//!    reservation, each allocation, each mapping) must be a whole multiple of
//!    it, so round sizes up. `CU_MEM_ALLOC_GRANULARITY_MINIMUM` is what the
//!    driver requires; `CU_MEM_ALLOC_GRANULARITY_RECOMMENDED` may be larger,
//!    and is the better choice for speed. It is a power of two; for device
//!    memory on an H100 the minimum is 2 MiB, so a 3 MiB buffer takes 4 MiB.
//! 2. **The address range.** [`cuMemAddressReserve`](crate::cuMemAddressReserve)
//!    takes a range of the process's device address space and no memory at
//!    all. Alignment 0 means the granularity; a requested address of 0 lets
//!    the driver choose.
//! 3. **The memory.** [`cuMemCreate`](crate::cuMemCreate) allocates physical
//!    memory and returns a [`CUmemGenericAllocationHandle`](crate::CUmemGenericAllocationHandle),
//!    a `u64` that is not an address: nothing can read or write the memory
//!    yet. A handle can also come from another process, through
//!    [`cuMemImportFromShareableHandle`](crate::cuMemImportFromShareableHandle).
//! 4. **The mapping.** [`cuMemMap`](crate::cuMemMap) places the allocation
//!    at an address inside the reservation. From here on the address is part
//!    of the process's view of device memory, and
//!    [`cuMemGetAddressRange`](crate::cuMemGetAddressRange) knows it.
//! 5. **The access rights.** [`cuMemSetAccess`](crate::cuMemSetAccess) says
//!    which devices may read, or read and write, the mapped range, the device
//!    that holds the memory included. A mapping starts with no access for
//!    anyone, and nothing in the earlier steps complains: without this step
//!    `cuMemsetD32` on the range returns 1 (`CUDA_ERROR_INVALID_VALUE`), and a
//!    kernel that touches it faults, which shows at the next synchronization
//!    as 700 (`CUDA_ERROR_ILLEGAL_ADDRESS`), sticky for the rest of the
//!    process. For peer access give each further device a descriptor of its
//!    own in the same call.
//! 6. **Use.** The address is now a device pointer like any other: copies,
//!    memsets, kernel arguments. It never goes to `cuMemFree`.
//! 7. **Teardown, in reverse.** Once no queued work touches the range any
//!    more (synchronize first), [`cuMemUnmap`](crate::cuMemUnmap), then
//!    [`cuMemRelease`](crate::cuMemRelease) for the handle, then
//!    [`cuMemAddressFree`](crate::cuMemAddressFree) with the address and size
//!    that were reserved.
//!
//! **Who owns what.** The handle and each mapping are both references to the
//! physical memory, which goes back to the device when the last of them is
//! gone. `cuMemRelease` may therefore come right after `cuMemMap`: the
//! mapping keeps the memory alive until `cuMemUnmap`, and there is one handle
//! less to carry around. The reservation is the process's own, independent of
//! any allocation; give it back after everything mapped into it is unmapped.
//!
//! ```no_run
//! use libcuda_sys::*;
//! use std::ptr::null_mut;
//!
//! fn check(r: CUresult) -> Result<(), CUresult> {
//!     if r == CUDA_SUCCESS { Ok(()) } else { Err(r) }
//! }
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     unsafe {
//!         check(cuInit(0))?;
//!         let mut dev = 0;
//!         check(cuDeviceGet(&mut dev, 0))?;
//!         let mut ctx = null_mut();
//!         check(cuDevicePrimaryCtxRetain(&mut ctx, dev))?;
//!         check(cuCtxSetCurrent(ctx))?;
//!
//!         // Pinned memory of device `dev`. `set_id` reaches the location's id
//!         // in every release (a field up to 13.1, in a union from 13.2).
//!         let mut prop = CUmemAllocationProp { type_: CU_MEM_ALLOCATION_TYPE_PINNED, ..Default::default() };
//!         prop.location.type_ = CU_MEM_LOCATION_TYPE_DEVICE;
//!         prop.location.set_id(dev);
//!
//!         // 1. Every size below is a multiple of this (2 MiB on an H100).
//!         let mut granularity = 0;
//!         check(cuMemGetAllocationGranularity(&mut granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM))?;
//!         let size = (3usize << 20).next_multiple_of(granularity);
//!
//!         // 2. Addresses only.
//!         let mut va: CUdeviceptr = 0;
//!         check(cuMemAddressReserve(&mut va, size, 0, 0, 0))?;
//!         // 3. Memory only.
//!         let mut handle: CUmemGenericAllocationHandle = 0;
//!         check(cuMemCreate(&mut handle, size, &prop, 0))?;
//!         // 4. The memory at the addresses.
//!         check(cuMemMap(va, size, 0, handle, 0))?;
//!         // 5. Without this, the memset below returns CUDA_ERROR_INVALID_VALUE.
//!         let access = CUmemAccessDesc { location: prop.location, flags: CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
//!         check(cuMemSetAccess(va, size, &access, 1))?;
//!
//!         // 6. An ordinary device pointer now.
//!         check(cuMemsetD32(va, 0x1234_5678, size / 4))?;
//!         let mut host = vec![0u32; size / 4];
//!         check(cuMemcpyDtoH(host.as_mut_ptr().cast(), va, size))?;
//!         assert!(host.iter().all(|&w| w == 0x1234_5678));
//!
//!         // 7. In reverse. (`cuMemRelease` could also have come right after
//!         // `cuMemMap`: the mapping keeps the memory until it is unmapped.)
//!         check(cuMemUnmap(va, size))?;
//!         check(cuMemRelease(handle))?;
//!         check(cuMemAddressFree(va, size))?;
//!         check(cuDevicePrimaryCtxRelease(dev))?;
//!     }
//!     Ok(())
//! }
//! ```
//!
//! # Sharing memory between processes (IPC)
//!
//! Two processes share device memory by passing an operating-system handle
//! from one to the other: on Linux a POSIX file descriptor
//! (`CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR`). A descriptor is a small
//! integer that means something only inside the process that holds it, so it
//! cannot travel as plain bytes: send it over a Unix domain socket as
//! `SCM_RIGHTS` ancillary data (`sendmsg` and `recvmsg`; the repository's
//! `tests/gpu_mempool.rs` has a small helper for each). The receiver gets a
//! descriptor of its own, often with another number, for the same object.
//! Everything else the importer needs (sizes, the 64 bytes of a pool
//! pointer's export data) is plain data and may go along in the same message.
//!
//! The driver offers two ways to share, and each writes the descriptor
//! through a `void *` on export but takes it **by value**, cast to a pointer,
//! on import (`fd as usize as *mut c_void`). Passing `&fd` on import is a
//! pointer the driver takes for a descriptor: with a VMM handle it returned
//! 999 (`CUDA_ERROR_UNKNOWN`).
//!
//! **A memory pool.** The exporter creates a pool with
//! [`cuMemPoolCreate`](crate::cuMemPoolCreate) whose
//! `CUmemPoolProps::handleTypes` is `CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR`
//! (a pool made without it, the device's default pool among them, cannot be
//! exported; `CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES` says what a
//! device offers). [`cuMemPoolExportToShareableHandle`](crate::cuMemPoolExportToShareableHandle)
//! writes an `int` descriptor for the whole pool. Each allocation from it is
//! then shared by [`cuMemPoolExportPointer`](crate::cuMemPoolExportPointer),
//! which fills a [`CUmemPoolPtrExportData`](crate::CUmemPoolPtrExportData);
//! the allocation must have completed (synchronize its stream) before the
//! importer touches it. The importer calls
//! [`cuMemPoolImportFromShareableHandle`](crate::cuMemPoolImportFromShareableHandle)
//! once for the pool, then [`cuMemPoolImportPointer`](crate::cuMemPoolImportPointer)
//! once per allocation. An imported pool is reachable from the importer's
//! other devices only after [`cuMemPoolSetAccess`](crate::cuMemPoolSetAccess).
//! Teardown: the importer frees each imported pointer
//! ([`cuMemFree`](crate::cuMemFree) or [`cuMemFreeAsync`](crate::cuMemFreeAsync))
//! and destroys its imported pool; only then, told so by the importer, does
//! the exporter free the allocation and destroy the pool.
//!
//! **A VMM allocation.** The exporter sets
//! `CUmemAllocationProp::requestedHandleTypes` to
//! `CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR` before
//! [`cuMemCreate`](crate::cuMemCreate) (where
//! `CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED` is 1),
//! and [`cuMemExportToShareableHandle`](crate::cuMemExportToShareableHandle)
//! writes the descriptor. The importer turns it back into a handle with
//! [`cuMemImportFromShareableHandle`](crate::cuMemImportFromShareableHandle)
//! and from there follows [Virtual memory](#virtual-memory) steps 2 and 4-7
//! in its own address space: reserve, map, **set access** (the exporter's
//! access rights do not carry over), use, unmap, release, free the range.
//! Each process's handle and mappings are its own references: the memory
//! lives until the last of them, in either process, is gone.
//!
//! **Who closes each descriptor.** The exporter's descriptor belongs to the
//! exporter: close it once every importer has received its copy (the
//! memory does not depend on it). The importer closes the copy it received
//! as soon as the import call has returned. In Rust, hold each in an
//! `OwnedFd` and let it drop.
//!
//! ```no_run
//! use libcuda_sys::*;
//! use std::ffi::{c_int, c_void};
//! use std::ptr::null_mut;
//!
//! fn check(r: CUresult) -> Result<(), CUresult> {
//!     if r == CUDA_SUCCESS { Ok(()) } else { Err(r) }
//! }
//!
//! const FD: CUmemAllocationHandleType = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
//!
//! fn on_device(dev: CUdevice) -> CUmemLocation {
//!     let mut at = CUmemLocation { type_: CU_MEM_LOCATION_TYPE_DEVICE, ..Default::default() };
//!     at.set_id(dev);
//!     at
//! }
//!
//! /// Exporter, pool: the pool's descriptor and one allocation's export data,
//! /// both to be sent to the importer (the descriptor with SCM_RIGHTS).
//! unsafe fn export_pool(dev: CUdevice, stream: CUstream, bytes: usize)
//!     -> Result<(CUmemoryPool, CUdeviceptr, c_int, CUmemPoolPtrExportData), CUresult>
//! {
//!     let props = CUmemPoolProps {
//!         allocType: CU_MEM_ALLOCATION_TYPE_PINNED,
//!         handleTypes: FD,
//!         location: on_device(dev),
//!         ..Default::default()
//!     };
//!     let mut pool = null_mut();
//!     check(cuMemPoolCreate(&mut pool, &props))?;
//!     let mut fd: c_int = -1;
//!     // Written through the pointer: an `int`.
//!     check(cuMemPoolExportToShareableHandle((&mut fd as *mut c_int).cast(), pool, FD, 0))?;
//!     let mut p = 0;
//!     check(cuMemAllocFromPoolAsync(&mut p, bytes, pool, stream))?;
//!     check(cuStreamSynchronize(stream))?; // allocated before anyone imports it
//!     let mut data = CUmemPoolPtrExportData::default();
//!     check(cuMemPoolExportPointer(&mut data, p))?;
//!     Ok((pool, p, fd, data))
//! }
//!
//! /// Importer, pool: `fd` and `data` as received; `fd` is closed here.
//! unsafe fn import_pool(fd: c_int, mut data: CUmemPoolPtrExportData, bytes: usize) -> Result<(), CUresult> {
//!     let mut pool = null_mut();
//!     // Taken by value: the descriptor itself in the pointer.
//!     let r = cuMemPoolImportFromShareableHandle(&mut pool, fd as usize as *mut c_void, FD, 0);
//!     // The importer's copy is its own to close, whatever the import said.
//!     drop(<std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd));
//!     check(r)?;
//!     let mut p = 0;
//!     check(cuMemPoolImportPointer(&mut p, pool, &mut data))?;
//!     check(cuMemsetD32(p, 0xCAFE, bytes / 4))?;
//!     check(cuCtxSynchronize())?;
//!     check(cuMemFree(p))?; // the importer lets go first ...
//!     check(cuMemPoolDestroy(pool))?; // ... then tells the exporter, which frees and destroys its own
//!     Ok(())
//! }
//!
//! /// Exporter, VMM: a `size`-byte allocation (a multiple of the granularity)
//! /// and its descriptor. The exporter maps and uses the handle as usual.
//! unsafe fn export_vmm(dev: CUdevice, size: usize) -> Result<(CUmemGenericAllocationHandle, c_int), CUresult> {
//!     let prop = CUmemAllocationProp {
//!         type_: CU_MEM_ALLOCATION_TYPE_PINNED,
//!         requestedHandleTypes: FD, // or the export below fails
//!         location: on_device(dev),
//!         ..Default::default()
//!     };
//!     let mut handle = 0;
//!     check(cuMemCreate(&mut handle, size, &prop, 0))?;
//!     let mut fd: c_int = -1;
//!     check(cuMemExportToShareableHandle((&mut fd as *mut c_int).cast(), handle, FD, 0))?;
//!     Ok((handle, fd))
//! }
//!
//! /// Importer, VMM: `fd` and `size` as received; `fd` is closed here.
//! unsafe fn import_vmm(dev: CUdevice, fd: c_int, size: usize) -> Result<(), CUresult> {
//!     let mut handle = 0;
//!     // By value. `&mut fd as *mut c_int as *mut c_void` returned CUDA_ERROR_UNKNOWN (999).
//!     let r = cuMemImportFromShareableHandle(&mut handle, fd as usize as *mut c_void, FD);
//!     drop(<std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd));
//!     check(r)?;
//!     let mut va = 0;
//!     check(cuMemAddressReserve(&mut va, size, 0, 0, 0))?;
//!     check(cuMemMap(va, size, 0, handle, 0))?;
//!     check(cuMemRelease(handle))?; // the mapping keeps the memory
//!     // This process's own access rights: none until set.
//!     let access = CUmemAccessDesc { location: on_device(dev), flags: CU_MEM_ACCESS_FLAGS_PROT_READWRITE };
//!     check(cuMemSetAccess(va, size, &access, 1))?;
//!     check(cuMemsetD32(va, 0xBEEF, size / 4))?;
//!     check(cuMemUnmap(va, size))?;
//!     check(cuMemAddressFree(va, size))?;
//!     Ok(())
//! }
//! ```
//!
//! # Graphs
//!
//! A graph records a piece of GPU work once (kernels, copies, memsets,
//! allocations, their dependencies) so that it can be launched many times
//! for one call each, at far less cost per launch than issuing the work
//! again. It goes through three objects: a [`CUgraph`](crate::CUgraph),
//! which is a description that can be edited; a [`CUgraphExec`](crate::CUgraphExec),
//! an executable made from it; and the launches of that executable into
//! streams.
//!
//! **Building.** Either capture a stream or build node by node:
//!
//! - [`cuStreamBeginCapture`](crate::cuStreamBeginCapture) switches a stream
//!   (not the NULL stream) from running work to recording it; every call
//!   that queues work on it, and on streams that wait on it, adds nodes;
//!   [`cuStreamEndCapture`](crate::cuStreamEndCapture) hands over the graph.
//!   The mode says which calls are refused while the capture is open, since
//!   they could not be recorded: `CU_STREAM_CAPTURE_MODE_GLOBAL` checks every
//!   thread's calls, `CU_STREAM_CAPTURE_MODE_THREAD_LOCAL` this thread's,
//!   `CU_STREAM_CAPTURE_MODE_RELAXED` none. A refused call (a synchronous
//!   copy, a synchronize, `cuMemAlloc` under the stricter modes) returns 900
//!   (`CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED`) and spoils the capture;
//!   `cuStreamEndCapture` must still be called, to take the stream out of
//!   capture, and then returns 901 (`CUDA_ERROR_STREAM_CAPTURE_INVALIDATED`)
//!   and a null graph.
//! - [`cuGraphCreate`](crate::cuGraphCreate) makes an empty graph and the
//!   `cuGraphAdd*Node` functions ([`cuGraphAddKernelNode`](crate::cuGraphAddKernelNode),
//!   [`cuGraphAddMemsetNode`](crate::cuGraphAddMemsetNode),
//!   [`cuGraphAddMemcpyNode`](crate::cuGraphAddMemcpyNode), ...) add one node
//!   each, after the nodes listed as its dependencies.
//!
//! **Instantiating.** [`cuGraphInstantiate`](crate::cuGraphInstantiate) (the
//! plain name of `cuGraphInstantiateWithFlags` from CUDA 12.0 on) checks the
//! graph and makes the executable; flags are the
//! [`CUgraphInstantiate_flags`](crate::CUgraphInstantiate_flags), `.into()` a
//! `u64`. The executable is a snapshot: edits of the `CUgraph` afterwards
//! (new nodes, new node parameters) do not reach it, and the `CUgraph` may
//! even be destroyed while the executable is used.
//!
//! **Launching.** [`cuGraphLaunch`](crate::cuGraphLaunch) queues the whole
//! graph into a stream, ordered like any other work there. Launches of one
//! executable never overlap: each waits for the previous launch of the same
//! executable to finish, even when it went to another stream. An executable
//! is not safe to use from two threads at once (launch, update or destroy):
//! a wrapper may be `Send` but not `Sync`.
//!
//! **Updating.** To change parameters without instantiating again, build or
//! edit a `CUgraph` of the same shape and pass it to
//! [`cuGraphExecUpdate`](crate::cuGraphExecUpdate): the executable takes the
//! new node parameters. A change of topology (a node more or less, other
//! dependencies, another node type) cannot be applied: the call returns 910
//! (`CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE`) and
//! [`CUgraphExecUpdateResultInfo`](crate::CUgraphExecUpdateResultInfo)'s
//! `result` says why (`CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED` for a
//! topology change). Then instantiate the new graph instead.
//!
//! **Memory nodes.** [`cuGraphAddMemAllocNode`](crate::cuGraphAddMemAllocNode)
//! allocates as part of the graph; its parameters' `dptr` returns the
//! address, the same on every launch. Freed within the graph (a
//! [`cuGraphAddMemFreeNode`](crate::cuGraphAddMemFreeNode) node), each launch
//! allocates and frees. Left unfreed, the memory outlives the launch, and the
//! executable cannot be launched again while it is allocated: the second
//! launch returns 1 (`CUDA_ERROR_INVALID_VALUE`) until the memory is freed
//! (`cuMemFreeAsync`, `cuMemFree`, or a free node of another graph). Instantiated
//! with `CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH`, a launch first frees
//! what the previous launch left allocated, and relaunching works.
//!
//! **Teardown.** After the last launch has completed,
//! [`cuGraphExecDestroy`](crate::cuGraphExecDestroy) for each executable and
//! [`cuGraphDestroy`](crate::cuGraphDestroy) for each graph (in either order:
//! neither depends on the other), then the streams and memory they used.
//!
//! ```no_run
//! use libcuda_sys::*;
//! use std::ptr::{null, null_mut};
//!
//! fn check(r: CUresult) -> Result<(), CUresult> {
//!     if r == CUDA_SUCCESS { Ok(()) } else { Err(r) }
//! }
//!
//! /// A graph of one memset node per value, each after the one before.
//! unsafe fn memsets(dst: CUdeviceptr, words: usize, values: &[u32], ctx: CUcontext) -> Result<CUgraph, CUresult> {
//!     let mut graph = null_mut();
//!     check(cuGraphCreate(&mut graph, 0))?;
//!     let mut last: Option<CUgraphNode> = None;
//!     for &value in values {
//!         let params = CUDA_MEMSET_NODE_PARAMS { dst, value, elementSize: 4, width: words, height: 1, ..Default::default() };
//!         let mut node = null_mut();
//!         let (deps, n) = match &last { Some(l) => (l as *const CUgraphNode, 1), None => (null(), 0) };
//!         check(cuGraphAddMemsetNode(&mut node, graph, deps, n, &params, ctx))?;
//!         last = Some(node);
//!     }
//!     Ok(graph)
//! }
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     unsafe {
//!         check(cuInit(0))?;
//!         let mut dev = 0;
//!         check(cuDeviceGet(&mut dev, 0))?;
//!         let mut ctx = null_mut();
//!         check(cuDevicePrimaryCtxRetain(&mut ctx, dev))?;
//!         check(cuCtxSetCurrent(ctx))?;
//!         let mut stream = null_mut();
//!         check(cuStreamCreate(&mut stream, CU_STREAM_NON_BLOCKING.into()))?;
//!         const WORDS: usize = 1 << 20;
//!         let mut buf = 0;
//!         check(cuMemAlloc(&mut buf, WORDS * 4))?;
//!
//!         // Capture: the memset is recorded, not run.
//!         check(cuStreamBeginCapture(stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL))?;
//!         check(cuMemsetD32Async(buf, 1, WORDS, stream))?;
//!         let mut captured = null_mut();
//!         check(cuStreamEndCapture(stream, &mut captured))?;
//!         let mut exec = null_mut();
//!         check(cuGraphInstantiate(&mut exec, captured, 0))?;
//!         for _ in 0..100 {
//!             check(cuGraphLaunch(exec, stream))?; // one after another
//!         }
//!
//!         // Same shape, another value: the executable takes it over.
//!         let same = memsets(buf, WORDS, &[2], ctx)?;
//!         let mut info = CUgraphExecUpdateResultInfo::default();
//!         check(cuGraphExecUpdate(exec, same, &mut info))?;
//!         check(cuGraphLaunch(exec, stream))?;
//!
//!         // Another shape: refused, so instantiate it instead.
//!         let other = memsets(buf, WORDS, &[3, 4], ctx)?;
//!         let r = cuGraphExecUpdate(exec, other, &mut info);
//!         assert_eq!(r, CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
//!         assert_eq!(info.result, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
//!         check(cuStreamSynchronize(stream))?; // the old executable's launches are done
//!         check(cuGraphExecDestroy(exec))?;
//!         check(cuGraphInstantiate(&mut exec, other, 0))?;
//!         check(cuGraphLaunch(exec, stream))?;
//!
//!         // An allocation node without a free node: relaunching needs AUTO_FREE_ON_LAUNCH.
//!         let mut g = null_mut();
//!         check(cuGraphCreate(&mut g, 0))?;
//!         let mut alloc = CUDA_MEM_ALLOC_NODE_PARAMS {
//!             poolProps: CUmemPoolProps { allocType: CU_MEM_ALLOCATION_TYPE_PINNED, ..Default::default() },
//!             bytesize: WORDS * 4,
//!             ..Default::default()
//!         };
//!         alloc.poolProps.location.type_ = CU_MEM_LOCATION_TYPE_DEVICE;
//!         alloc.poolProps.location.set_id(dev);
//!         let mut node = null_mut();
//!         check(cuGraphAddMemAllocNode(&mut node, g, null(), 0, &mut alloc))?;
//!         let fill = CUDA_MEMSET_NODE_PARAMS { dst: alloc.dptr, value: 5, elementSize: 4, width: WORDS, height: 1, ..Default::default() };
//!         let mut set = null_mut();
//!         check(cuGraphAddMemsetNode(&mut set, g, &node, 1, &fill, ctx))?;
//!         let mut keeps = null_mut();
//!         check(cuGraphInstantiate(&mut keeps, g, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH.into()))?;
//!         check(cuGraphLaunch(keeps, stream))?;
//!         check(cuGraphLaunch(keeps, stream))?; // without the flag: CUDA_ERROR_INVALID_VALUE
//!         check(cuMemFreeAsync(alloc.dptr, stream))?; // what the last launch left
//!         check(cuStreamSynchronize(stream))?;
//!
//!         for e in [exec, keeps] {
//!             check(cuGraphExecDestroy(e))?;
//!         }
//!         for g in [captured, same, other, g] {
//!             check(cuGraphDestroy(g))?;
//!         }
//!         check(cuMemFree(buf))?;
//!         check(cuStreamDestroy(stream))?;
//!         check(cuDevicePrimaryCtxRelease(dev))?;
//!     }
//!     Ok(())
//! }
//! ```
//!
//! # Launch configuration
//!
//! [`cuLaunchKernel`](crate::cuLaunchKernel) takes the kernel's arguments in
//! one of two forms, never both (both returns 1, `CUDA_ERROR_INVALID_VALUE`):
//!
//! - `kernelParams`: an array with one pointer per argument, each pointing to
//!   a value of that argument's C type (a `CUdeviceptr` for a `float *`, a
//!   `u32` for an `unsigned`). The driver copies the values during the call,
//!   so they may change or go away once it returns.
//! - `extra`: one buffer with all arguments packed at their C alignment, given
//!   as a list of keys and values: `CU_LAUNCH_PARAM_BUFFER_POINTER`, the
//!   buffer, `CU_LAUNCH_PARAM_BUFFER_SIZE`, a pointer to its `usize` size,
//!   `CU_LAUNCH_PARAM_END`.
//!
//! **Shared memory.** A block may use up to 48 KiB of shared memory, static
//! and dynamic together, without asking. A kernel that wants more dynamic
//! shared memory must be allowed first, once per function, with
//! [`cuFuncSetAttribute`](crate::cuFuncSetAttribute)`(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes)`;
//! without it a launch asking for more returns 1. The most a block can opt
//! into is `CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN` (232,448
//! bytes on an H100), less the kernel's static shared memory
//! (`CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES`).
//!
//! **Errors, early and late.** What is wrong with the launch itself comes
//! back from the launch: a block larger than the device allows (4096 threads
//! where `CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK` is 1024) returns 1, and
//! the context stays usable. What goes wrong inside the kernel comes back
//! later: the launch returns 0, and a fault (a store to a bad address, say)
//! shows at the next synchronization as 700 (`CUDA_ERROR_ILLEGAL_ADDRESS`).
//! That error is sticky: every later call returns it, on every context of
//! the process, new ones included; only a new process can use the GPU again.
//!
//! **Cooperative launches.** A kernel that synchronizes its whole grid (a
//! cooperative-groups grid sync) needs every block resident at once.
//! [`cuLaunchCooperativeKernel`](crate::cuLaunchCooperativeKernel) guarantees
//! that, or refuses: the grid may have at most as many blocks as the device
//! holds at once for this kernel, which is
//! [`cuOccupancyMaxActiveBlocksPerMultiprocessor`](crate::cuOccupancyMaxActiveBlocksPerMultiprocessor)
//! (for this block size and dynamic shared memory) times
//! `CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT`. One block more returns 720
//! (`CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE`). The device must report
//! `CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH`.
//!
//! **Clusters and other launch attributes.** [`cuLaunchKernelEx`](crate::cuLaunchKernelEx)
//! takes the grid, block, shared memory and stream in a
//! [`CUlaunchConfig`](crate::CUlaunchConfig), with an array of
//! [`CUlaunchAttribute`](crate::CUlaunchAttribute)s for what `cuLaunchKernel`
//! cannot say. Thread block clusters (compute capability 9.0 and later,
//! `CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH`) are one:
//! `CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION` with the cluster's shape in
//! `value.clusterDim`. Each grid dimension has to divide evenly by the
//! cluster's; clusters of more than 8 blocks also need
//! `CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED` set on the function.
//! `CU_LAUNCH_ATTRIBUTE_COOPERATIVE` makes the same call a cooperative launch.
//!
//! ```no_run
//! use libcuda_sys::*;
//! use std::ffi::c_void;
//! use std::ptr::null_mut;
//!
//! fn check(r: CUresult) -> Result<(), CUresult> {
//!     if r == CUDA_SUCCESS { Ok(()) } else { Err(r) }
//! }
//!
//! fn attribute(dev: CUdevice, attr: CUdevice_attribute) -> Result<i32, CUresult> {
//!     let mut v = 0;
//!     check(unsafe { cuDeviceGetAttribute(&mut v, attr, dev) })?;
//!     Ok(v)
//! }
//!
//! /// `f` is `__global__ void k(float *data, unsigned n)`, from a loaded
//! /// module; `data` holds `n` floats.
//! unsafe fn launches(f: CUfunction, dev: CUdevice, stream: CUstream, mut data: CUdeviceptr, mut n: u32)
//!     -> Result<(), CUresult>
//! {
//!     // One pointer per argument, to a value of its C type.
//!     let mut args = [
//!         &mut data as *mut CUdeviceptr as *mut c_void,
//!         &mut n as *mut u32 as *mut c_void,
//!     ];
//!     check(cuLaunchKernel(f, n.div_ceil(256), 1, 1, 256, 1, 1, 0, stream, args.as_mut_ptr(), null_mut()))?;
//!
//!     // 64 KiB of dynamic shared memory: over 48 KiB, so opt in first.
//!     let most = attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?;
//!     let smem = 64 * 1024;
//!     assert!(smem <= most);
//!     check(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem))?;
//!     check(cuLaunchKernel(f, 1, 1, 1, 256, 1, 1, smem as u32, stream, args.as_mut_ptr(), null_mut()))?;
//!
//!     // Cooperative: the largest grid whose blocks are all resident at once.
//!     if attribute(dev, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH)? == 1 {
//!         let mut per_sm = 0;
//!         check(cuOccupancyMaxActiveBlocksPerMultiprocessor(&mut per_sm, f, 256, 0))?;
//!         let blocks = (per_sm * attribute(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?) as u32;
//!         // `blocks + 1` would return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE (720).
//!         check(cuLaunchCooperativeKernel(f, blocks, 1, 1, 256, 1, 1, 0, stream, args.as_mut_ptr()))?;
//!     }
//!
//!     // Clusters of 2 blocks along x; the grid's x is a multiple of 2.
//!     if attribute(dev, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH)? == 1 {
//!         let mut cluster = CUlaunchAttribute { id: CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, ..Default::default() };
//!         cluster.value.clusterDim.x = 2;
//!         cluster.value.clusterDim.y = 1;
//!         cluster.value.clusterDim.z = 1;
//!         let config = CUlaunchConfig {
//!             gridDimX: 8, gridDimY: 1, gridDimZ: 1,
//!             blockDimX: 256, blockDimY: 1, blockDimZ: 1,
//!             sharedMemBytes: 0,
//!             hStream: stream,
//!             attrs: &mut cluster,
//!             numAttrs: 1,
//!         };
//!         check(cuLaunchKernelEx(&config, f, args.as_mut_ptr(), null_mut()))?;
//!     }
//!     // Faults inside the kernels show here (700, sticky), not above.
//!     check(cuStreamSynchronize(stream))
//! }
//! ```
//!
//! # JIT and linking
//!
//! The driver compiles PTX for the GPU it runs on when the code is loaded
//! ([`cuModuleLoadData`](crate::cuModuleLoadData)). To see what the compiler
//! said, or to steer it, load with
//! [`cuModuleLoadDataEx`](crate::cuModuleLoadDataEx), which takes two arrays
//! of the same length: the [`CUjit_option`](crate::CUjit_option)s, and one
//! `*mut c_void` slot per option. What a slot holds depends on its option
//! (the option's page says):
//!
//! - `CU_JIT_INFO_LOG_BUFFER` and `CU_JIT_ERROR_LOG_BUFFER`: a pointer to a
//!   buffer the driver writes the log into (text, NUL-terminated).
//! - `CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES` and `CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES`:
//!   the buffer's size **by value**, cast to a pointer (`len as *mut c_void`).
//!   After the call the slot holds how many bytes the driver wrote.
//! - `CU_JIT_LOG_VERBOSE`: 1 by value, for the compiler's statistics
//!   (registers, spills) in the info log.
//! - `CU_JIT_WALL_TIME`: an output. The driver writes the compile time, in
//!   milliseconds, as an `f32` into the first 4 bytes of the slot and leaves
//!   the rest of the slot as it was: start the slot at null and read those
//!   4 bytes, not the whole pointer.
//!
//! The error log is what to show when loading fails with
//! `CUDA_ERROR_INVALID_PTX` or `CUDA_ERROR_INVALID_IMAGE`.
//!
//! **Linking** several inputs (PTX, cubins, fatbins, libraries of relocatable
//! device code) into one image: [`cuLinkCreate`](crate::cuLinkCreate) with
//! options like the above, which apply to the whole link; the buffers and
//! values they point to are used by the later calls, so they must stay valid
//! until `cuLinkDestroy`. Then [`cuLinkAddData`](crate::cuLinkAddData) (from
//! memory) or [`cuLinkAddFile`](crate::cuLinkAddFile) (from a path) once per
//! input, each with its [`CUjitInputType`](crate::CUjitInputType), and
//! [`cuLinkComplete`](crate::cuLinkComplete), which returns a pointer to the
//! linked cubin and its size. That cubin belongs to the link state: load it
//! (`cuModuleLoadData`) or copy it before [`cuLinkDestroy`](crate::cuLinkDestroy),
//! which frees it. The module loaded from it is independent of the link state.
//!
//! **Libraries.** A module lives in the context that loaded it and is
//! unloaded with it. [`cuLibraryLoadData`](crate::cuLibraryLoadData) (CUDA 12.0 and
//! later) loads code without a context: the driver puts it into each
//! context that needs it. [`cuLibraryGetKernel`](crate::cuLibraryGetKernel)
//! gives a [`CUkernel`](crate::CUkernel) valid in every context, and
//! [`cuKernelGetFunction`](crate::cuKernelGetFunction) the `CUfunction` for
//! the current one; [`cuLibraryUnload`](crate::cuLibraryUnload) ends it. It
//! takes the same JIT options, plus library options of its own.
//!
//! ```no_run
//! use libcuda_sys::*;
//! use std::ffi::{c_void, CStr};
//! use std::ptr::null_mut;
//!
//! fn check(r: CUresult) -> Result<(), CUresult> {
//!     if r == CUDA_SUCCESS { Ok(()) } else { Err(r) }
//! }
//!
//! /// The kernel as PTX text, NUL-terminated.
//! const PTX: &CStr = c"...";
//!
//! /// The text a log buffer holds, up to its NUL.
//! fn text(buf: &[u8]) -> String {
//!     CStr::from_bytes_until_nul(buf).map_or_else(|_| String::from_utf8_lossy(buf).into(), |s| s.to_string_lossy().into())
//! }
//!
//! /// With a context current.
//! unsafe fn load() -> Result<CUmodule, CUresult> {
//!     let mut info = vec![0u8; 16 * 1024];
//!     let mut error = vec![0u8; 16 * 1024];
//!     let mut options = [
//!         CU_JIT_INFO_LOG_BUFFER,
//!         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
//!         CU_JIT_ERROR_LOG_BUFFER,
//!         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
//!         CU_JIT_LOG_VERBOSE,
//!         CU_JIT_WALL_TIME,
//!     ];
//!     let mut values: [*mut c_void; 6] = [
//!         info.as_mut_ptr().cast(),
//!         info.len() as *mut c_void, // sizes and integers: by value
//!         error.as_mut_ptr().cast(),
//!         error.len() as *mut c_void,
//!         1 as *mut c_void,
//!         null_mut(), // written: an f32 in the first 4 bytes
//!     ];
//!     let mut module = null_mut();
//!     let r = cuModuleLoadDataEx(&mut module, PTX.as_ptr().cast(), options.len() as u32,
//!         options.as_mut_ptr(), values.as_mut_ptr());
//!     let written = values[3] as usize; // the error log's bytes, after the call
//!     if r != CUDA_SUCCESS {
//!         eprintln!("the PTX did not load ({r}): {}", text(&error[..written.min(error.len())]));
//!         return Err(r);
//!     }
//!     let slot = (values[5] as usize).to_ne_bytes();
//!     let ms = f32::from_ne_bytes([slot[0], slot[1], slot[2], slot[3]]);
//!     println!("compiled in {ms} ms: {}", text(&info[..(values[1] as usize).min(info.len())]));
//!     Ok(module)
//! }
//!
//! /// Links the PTX (and whatever else is added) into a cubin, loads it.
//! unsafe fn link() -> Result<CUmodule, CUresult> {
//!     let mut error = vec![0u8; 16 * 1024]; // used until cuLinkDestroy
//!     let mut options = [CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
//!     let mut values = [error.as_mut_ptr().cast(), error.len() as *mut c_void];
//!     let mut state = null_mut();
//!     check(cuLinkCreate(options.len() as u32, options.as_mut_ptr(), values.as_mut_ptr(), &mut state))?;
//!     let bytes = PTX.to_bytes_with_nul();
//!     let added = cuLinkAddData(state, CU_JIT_INPUT_PTX, bytes.as_ptr() as *mut c_void, bytes.len(),
//!         c"kernel.ptx".as_ptr(), 0, null_mut(), null_mut());
//!     let (mut cubin, mut size) = (null_mut(), 0);
//!     let mut r = added;
//!     if r == CUDA_SUCCESS {
//!         r = cuLinkComplete(state, &mut cubin, &mut size);
//!     }
//!     let mut module = null_mut();
//!     if r == CUDA_SUCCESS {
//!         // The cubin is the link state's: load it before cuLinkDestroy frees it.
//!         r = cuModuleLoadData(&mut module, cubin);
//!     } else {
//!         eprintln!("link failed ({r}): {}", text(&error));
//!     }
//!     check(cuLinkDestroy(state))?;
//!     check(r)?;
//!     Ok(module)
//! }
//!
//! /// Context-independent: one load for every context.
//! unsafe fn library() -> Result<(CUlibrary, CUkernel), CUresult> {
//!     let mut lib = null_mut();
//!     check(cuLibraryLoadData(&mut lib, PTX.as_ptr().cast(), null_mut(), null_mut(), 0, null_mut(), null_mut(), 0))?;
//!     let mut kernel = null_mut();
//!     check(cuLibraryGetKernel(&mut kernel, lib, c"vector_add".as_ptr()))?;
//!     // In a context: the function to launch there.
//!     let mut f = null_mut();
//!     check(cuKernelGetFunction(&mut f, kernel))?;
//!     Ok((lib, kernel)) // cuLibraryUnload(lib) when no context uses it any more
//! }
//! ```
//!
//! # The primary context
//!
//! Every call that allocates, loads code or launches works in the calling
//! thread's current context. There are two ways to get one.
//!
//! **The primary context** of a device: one per device and process, shared
//! by everything in the process that uses that device, the CUDA runtime
//! (`cudart`) and the libraries built on it (cuBLAS, cuDNN, ...) included.
//! [`cuDevicePrimaryCtxRetain`](crate::cuDevicePrimaryCtxRetain) creates it
//! on first use and counts a reference; it does **not** make it current (the
//! thread's current context stays NULL, and the next allocation returns
//! `CUDA_ERROR_INVALID_CONTEXT`), so follow it with
//! [`cuCtxSetCurrent`](crate::cuCtxSetCurrent) on each thread that calls the
//! driver. [`cuDevicePrimaryCtxRelease`](crate::cuDevicePrimaryCtxRelease)
//! gives the reference back, once per retain; when the last reference goes,
//! the context and everything in it (allocations, modules, streams) goes too.
//! Set the thread's current context to NULL before the last release, so no
//! thread is left with a destroyed one.
//!
//! **A context of its own**, from [`cuCtxCreate`](crate::cuCtxCreate): each
//! call makes a new context, pushes it as the calling thread's current one,
//! and has its own memory, modules and streams; pointers and handles of one
//! context mean nothing in another. Creating one is slow and takes device
//! memory, and the CUDA runtime never sees it: a library that goes through
//! the runtime works in the primary context, not in yours. It lives until
//! [`cuCtxDestroy`](crate::cuCtxDestroy). The signature changed with the
//! release: up to CUDA 12.9 the plain name is `cuCtxCreate_v2(&mut ctx,
//! flags, dev)`, from 13.0 `cuCtxCreate_v4(&mut ctx, params, flags, dev)`,
//! whose [`CUctxCreateParams`](crate::CUctxCreateParams) pointer may be null
//! (or point to a default, all-null value) for an ordinary context.
//! Code that builds against both tests the crate's `cuda_13_0` cfg
//! ([A binding crate on libcuda-sys](crate::building#a-binding-crate-on-libcuda-sys)
//! says how a dependent gets it).
//!
//! Most programs want the primary context: it costs nothing extra, it is
//! what every other CUDA user in the process works in, so memory and streams
//! pass freely between them, and it survives as long as anyone holds it.
//! A context of one's own is for code whose settings (limits, scheduling
//! flags, cache configuration) must stay apart from the rest of the process,
//! and is rarely worth its cost. It does not contain failures: a sticky
//! error such as 700 reaches every context of the process.
//!
//! **`fork()`.** A child forked from a process that had called `cuInit` cannot
//! use CUDA: there `cuInit` and `cuDeviceGetCount` return 3
//! (`CUDA_ERROR_NOT_INITIALIZED`), while `cuDriverGetVersion` still succeeds
//! (it only asks the library), so it proves nothing. Either initialize CUDA
//! in the children only, never in the parent before the fork, or have the
//! child `exec` a fresh program (`std::process::Command` does), which starts
//! with a clean driver.
//!
//! ```no_run
//! use libcuda_sys::*;
//! use std::ptr::null_mut;
//!
//! fn check(r: CUresult) -> Result<(), CUresult> {
//!     if r == CUDA_SUCCESS { Ok(()) } else { Err(r) }
//! }
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     unsafe {
//!         check(cuInit(0))?;
//!         let mut dev = 0;
//!         check(cuDeviceGet(&mut dev, 0))?;
//!
//!         // The primary context: retained, then made current.
//!         let mut primary = null_mut();
//!         check(cuDevicePrimaryCtxRetain(&mut primary, dev))?;
//!         let mut current = null_mut();
//!         check(cuCtxGetCurrent(&mut current))?;
//!         assert!(current.is_null()); // retaining made nothing current
//!         check(cuCtxSetCurrent(primary))?;
//!         let mut p = 0;
//!         check(cuMemAlloc(&mut p, 1 << 20))?; // in the primary context
//!         check(cuMemFree(p))?;
//!
//!         // A context of its own, current from here on (13.0 and later: a
//!         // parameters pointer first; up to 12.9 `cuCtxCreate(&mut ctx, 0, dev)`).
//!         let mut own = null_mut();
//!         let mut params = CUctxCreateParams::default();
//!         check(cuCtxCreate(&mut own, &mut params, 0, dev))?;
//!         check(cuCtxDestroy(own))?; // also pops it: the primary is current again
//!
//!         check(cuCtxSetCurrent(null_mut()))?;
//!         check(cuDevicePrimaryCtxRelease(dev))?; // once per retain
//!     }
//!     Ok(())
//! }
//! ```
