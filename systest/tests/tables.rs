//! systest's readers of libcuda-sys's rendered tables: a shape they do not
//! know is an error, not an empty table (whose checks would pass over nothing).

use libcuda_sys_build::model;
#[path = "../tables.rs"]
mod tables;

fn file(text: &str) -> syn::File {
    syn::parse_file(text).unwrap()
}

fn ok<T>(read: model::Result<T>) -> T {
    read.unwrap_or_else(|e| panic!("{e}"))
}

fn error<T>(read: model::Result<T>) -> String {
    match read {
        Ok(_) => panic!("read a shape it does not know"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_tables_as_the_build_script_writes_them() {
    let renames = ok(tables::renames(&file(
        "// Plain names.\n#[doc(inline)]\npub use self::cuMemAlloc_v2 as cuMemAlloc;\n",
    )));
    assert_eq!(
        (renames[0].plain.as_str(), renames[0].target.as_str()),
        ("cuMemAlloc", "cuMemAlloc_v2")
    );
    let constants = ok(tables::macro_constants(&file(
        "/// `#define CU_STREAM_LEGACY ((CUstream)0x1)` in `cuda.h`.\npub const CU_STREAM_LEGACY: CUstream = 1isize as CUstream;\n",
    )));
    assert_eq!(constants, ["CU_STREAM_LEGACY"]);
    let masks = ok(tables::bitmasks(&file(
        "pub const VALUE_TYPES: &[u8] = &[];\n/// Masks.\npub const BITMASKS: &[&str] = &[\"CUctx_flags_enum\", \"CUevent_flags_enum\"];\nbitmask!(CUctx_flags_enum, CUevent_flags_enum);\n",
    )));
    assert_eq!(masks, ["CUctx_flags_enum", "CUevent_flags_enum"]);
    // An empty table reads as empty: the tests compare its length with the crate's.
    assert!(ok(tables::renames(&file("// Plain names.\n"))).is_empty());
}

#[test]
fn another_shape_is_an_error_that_names_the_file() {
    for text in [
        "pub use cuMemAlloc_v2 as cuMemAlloc;",
        "pub use self::{cuMemAlloc_v2 as cuMemAlloc};",
        "pub use self::cuMemAlloc_v2;",
        "pub const cuMemAlloc: unsafe extern \"C\" fn() = cuMemAlloc_v2;",
    ] {
        let e = error(tables::renames(&file(text)));
        assert!(e.contains("systest cannot read renames.rs"), "{text}: {e}");
    }
    // The item is shown without its documentation.
    let e = error(tables::renames(&file("/// Plain name.\npub use cuMemAlloc_v2 as cuMemAlloc;")));
    assert!(e.contains("cuMemAlloc_v2 as cuMemAlloc") && !e.contains("Plain name"), "{e}");
    let e = error(tables::macro_constants(&file("pub static CU_STREAM_LEGACY: usize = 1;")));
    assert!(e.contains("cannot read macro_constants.rs") && e.contains("CU_STREAM_LEGACY"), "{e}");
    for text in [
        "pub const MASKS: &[&str] = &[\"CUctx_flags_enum\"];",
        "pub const BITMASKS: [&str; 1] = [\"CUctx_flags_enum\"];",
        "pub const BITMASKS: &[&str] = &[stringify!(CUctx_flags_enum)];",
    ] {
        let e = error(tables::bitmasks(&file(text)));
        assert!(e.contains("systest cannot read value_types.rs"), "{text}: {e}");
    }
}

#[test]
fn an_interop_module_gives_its_plain_names_apart_from_its_items() {
    let (items, renames) = tables::module(&file(
        "pub struct CUGLDeviceList_enum(pub ::core::ffi::c_uint);\n\
         pub use self::CUGLDeviceList_enum as CUGLDeviceList;\n\
         pub use self::cuGLGetDevices_v2 as cuGLGetDevices;\n",
    ));
    let pairs: Vec<(&str, &str)> =
        renames.iter().map(|r| (r.plain.as_str(), r.target.as_str())).collect();
    assert_eq!(pairs, [("cuGLGetDevices", "cuGLGetDevices_v2")]);
    // The enum's typedef is an item, checked as cuda.h's are.
    assert!(items.contains("CUGLDeviceList_enum as CUGLDeviceList"), "{items}");
    assert!(!items.contains("cuGLGetDevices"), "{items}");
}
