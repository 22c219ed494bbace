//! `LIBCUDA_SYS_DRIVER_PATH` naming a library under a directory whose name is
//! not UTF-8 (a Latin-1 `é`): the library there is the one opened, as the
//! system spells the path. A process of its own: the library is opened once.
#![cfg(all(feature = "dynamic-loading", target_os = "linux"))]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use libcuda_sys::*;

#[test]
fn a_driver_path_that_is_not_utf8_is_opened_as_it_is() {
    let tmp = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let dir = tmp.join(OsStr::from_bytes(b"caf\xe9-driver"));
    let so = testkit::fake_driver(&dir, 12000, 1);
    assert!(so.to_str().is_none(), "the path must not be UTF-8: {}", so.display());
    std::env::set_var("LIBCUDA_SYS_DRIVER_PATH", &so);
    libcuda_sys::dynamic::try_load().unwrap();
    assert_eq!(unsafe { cuInit(0) }, CUresult::CUDA_SUCCESS);
}
