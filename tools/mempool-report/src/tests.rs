//! The pieces a machine without a driver never exercises: the live rendering
//! (from a model built here), decoding, exit statuses and their documentation.

use libcuda_sys::{cudaError_enum, CUresult};

use super::*;
use crate::gather::{
    assemble, decoded, failure, flag_names, pointer_attributes, pool_attributes, reading, NoLive,
};
use crate::model::*;

fn json_value(r: &Report) -> serde_json::Value {
    serde_json::from_str(&render::json(r).expect("serialize")).expect("the JSON parses")
}

/// A report with no live values because `code` ended `cuInit`, as `gather`
/// builds one.
fn static_report(code: CUresult, load: Option<LoadFailure>) -> Report {
    let f = failure("cuInit(0)", code);
    assemble(Err(failure("cuDriverGetVersion", code)), load, Err(NoLive(Some(f))))
}

/// A live report of one device whose default pool gave every kind of reading:
/// values, a rejected attribute, one not read.
fn live_report() -> Report {
    let rejected = failure("cuMemPoolGetAttribute", cudaError_enum::CUDA_ERROR_INVALID_VALUE);
    let attributes: Vec<Reading> = pool_attributes()
        .map(|a| match a.value {
            // CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: UINT64_MAX.
            4 => reading(a, Ok(gather::Value::Read(Current::U64(u64::MAX)))),
            // CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: 32 MiB.
            5 => reading(a, Ok(gather::Value::Read(Current::U64(32 << 20)))),
            7 => reading(a, Ok(gather::Value::NotRead("not read: a test".to_owned()))),
            8 => reading(a, Err(rejected.clone())),
            _ => reading(a, Ok(gather::Value::Read(Current::Int(1)))),
        })
        .collect();
    // An allocation from it: its pointer attributes as a 13.0 driver gives them.
    let pointers: Vec<Reading> = pointer_attributes()
        .map(|a| {
            let value = match a.name {
                "CU_POINTER_ATTRIBUTE_HOST_POINTER" => return reading(a, Err(rejected.clone())),
                "CU_POINTER_ATTRIBUTE_MEMORY_TYPE" => Current::Unsigned(2),
                "CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL" => Current::Int(0),
                "CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES" => Current::U64(1),
                "CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE" => Current::Hex("0x5555deadbeef".into()),
                "CU_POINTER_ATTRIBUTE_MAPPING_SIZE" => Current::U64(32 << 20),
                _ => Current::Unsigned(1),
            };
            reading(a, Ok(gather::Value::Read(value)))
        })
        .collect();
    let allocation = Allocation {
        address: "0x302000000".into(),
        bytes: 1 << 20,
        driver_rejects: vec!["CU_POINTER_ATTRIBUTE_HOST_POINTER"],
        attributes: pointers,
    };
    let device = Device {
        ordinal: 0,
        name: Read::Value("NVIDIA Test GPU".to_owned()),
        compute_capability: Read::Value("9.0".to_owned()),
        total_memory: Read::Value(80 << 30),
        memory_pools_supported: Read::Value(true),
        pool_handle_types: Some(Read::Value(HandleTypes { raw: 1, names: flag_names(1) })),
        default_pool: Some(Read::Value(Pool {
            handle: "0x5555deadbeef".to_owned(),
            driver_rejects: attributes
                .iter()
                .filter(|r| r.error.is_some())
                .map(|r| r.declared.name)
                .collect(),
            attributes,
            allocation: Read::Value(allocation),
        })),
        cleanup_error: None,
        error: None,
    };
    assemble(Ok(13050), None, Ok(vec![device]))
}

#[test]
fn handle_type_flags_by_name() {
    assert_eq!(flag_names(0), "CU_MEM_HANDLE_TYPE_NONE");
    assert_eq!(flag_names(1), "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR");
    assert_eq!(flag_names(0x1 | 0x100), "CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR | 0x100");
}

#[test]
fn enum_values_are_decoded_by_value_type() {
    assert_eq!(
        decoded(Current::Unsigned(1), "CUmemAllocationType").as_deref(),
        Some("CU_MEM_ALLOCATION_TYPE_PINNED")
    );
    assert_eq!(
        decoded(Current::Unsigned(1), "CUmemLocationType").as_deref(),
        Some("CU_MEM_LOCATION_TYPE_DEVICE")
    );
    assert_eq!(decoded(Current::Unsigned(77), "CUmemLocationType"), None);
    assert_eq!(decoded(Current::Int(1), "int"), None);
    assert_eq!(decoded(Current::U64(32 << 20), "cuuint64_t").as_deref(), Some("32.0 MiB"));
    assert_eq!(decoded(Current::U64(u64::MAX), "cuuint64_t").as_deref(), Some("UINT64_MAX"));
}

#[test]
fn high_watermarks_are_reset_only() {
    // The pregenerated bindings, without descriptions, must tell it too.
    for a in pool_attributes() {
        let expected = match a.value {
            1..=4 => Settable::Yes,
            6 | 8 => Settable::ResetToZeroOnly,
            _ => Settable::No,
        };
        assert_eq!(gather::settable(a), expected, "{}", a.name);
    }
}

#[test]
fn the_no_driver_codes_are_the_headers() {
    for (code, name, _) in testkit::NO_USABLE_DRIVER {
        assert_eq!(cudaError_enum(*code).name(), Some(*name), "code {code}");
    }
    assert_eq!(testkit::no_usable_driver(1), None, "CUDA_ERROR_INVALID_VALUE");
}

#[test]
fn exit_statuses_are_distinct_and_documented() {
    // (status, its first words in --help, in the top comment)
    let codes = [
        (EXIT_LIVE, "live report", "live report"),
        (EXIT_ERROR, "error", "error"),
        (EXIT_STATIC, "static table only", "no driver"),
        (EXIT_SETUP, "setup failed", "setup failed"),
        (EXIT_USAGE, "usage error", "usage error"),
    ];
    let source = include_str!("main.rs");
    let top: String = source
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .map(|l| l.trim_start_matches("//!"))
        .collect::<Vec<_>>()
        .join("");
    for (i, (code, help, doc)) in codes.iter().enumerate() {
        assert!(
            codes[..i].iter().all(|(c, _, _)| c != code),
            "exit status {code} has two meanings"
        );
        let line = HELP
            .lines()
            .find(|l| l.starts_with(&format!("  {code}  ")))
            .unwrap_or_else(|| panic!("--help does not document exit status {code}"));
        assert!(line.contains(help), "--help: exit status {code} is not '{help}'");
        assert!(
            top.contains(&format!("{code} {doc}")),
            "the top comment does not document exit status {code} ({doc})"
        );
    }
}

#[test]
fn a_failed_write_is_said_and_is_an_error() {
    let mut err = Vec::new();
    let broken = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
    assert_eq!(exit_status(Err(broken), EXIT_STATIC, &mut err), EXIT_ERROR);
    let err = String::from_utf8(err).unwrap();
    assert!(err.contains("cannot write the report to stdout"), "{err}");
    let mut err = Vec::new();
    assert_eq!(exit_status(Ok(()), EXIT_STATIC, &mut err), EXIT_STATIC);
    assert!(err.is_empty());
}

#[test]
fn a_driver_path_that_does_not_load_is_named_with_the_loaders_message() {
    let load = LoadFailure {
        tried: "/opt/not-a-driver".to_owned(),
        message: "/opt/not-a-driver: cannot read file data: Is a directory".to_owned(),
        from: LoadFrom::DriverPathVariable,
    };
    let r = static_report(cudaError_enum::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, Some(load));
    assert_eq!(r.status.exit_code, EXIT_SETUP);
    let text = render::text(&r);
    assert!(text.contains("setup failed: "), "{text}");
    assert!(text.contains("LIBCUDA_SYS_DRIVER_PATH=/opt/not-a-driver"), "{text}");
    assert!(text.contains("cannot read file data: Is a directory"), "{text}");
    assert!(!text.contains("libcuda.so.1 could not"), "{text}");
    let json = json_value(&r);
    assert_eq!(json["driver"]["load_error"]["tried"], "/opt/not-a-driver");
    assert_eq!(json["driver"]["load_error"]["from"], "LIBCUDA_SYS_DRIVER_PATH");
    assert!(json["status"]["reason"]
        .as_str()
        .unwrap()
        .contains("cannot read file data: Is a directory"));
    assert_eq!(json["status"]["exit_code"], EXIT_SETUP);
}

#[test]
fn no_libcuda_to_open_is_static_only_and_named() {
    let load = LoadFailure {
        tried: "libcuda.so.1".to_owned(),
        message: "libcuda.so.1: cannot open shared object file: No such file or directory"
            .to_owned(),
        from: LoadFrom::Default,
    };
    let r = static_report(cudaError_enum::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, Some(load));
    assert_eq!(r.status.exit_code, EXIT_STATIC);
    let text = render::text(&r);
    assert!(text.contains("no live values: "), "{text}");
    assert!(text.contains("No such file or directory"), "{text}");
    assert_eq!(json_value(&r)["status"]["exit_code"], EXIT_STATIC);
}

#[test]
fn json_exit_code_is_the_exit_status() {
    use cudaError_enum as E;
    for (code, status) in [
        (E::CUDA_ERROR_STUB_LIBRARY, EXIT_STATIC),
        (E::CUDA_ERROR_NO_DEVICE, EXIT_STATIC),
        (E::CUDA_ERROR_SYSTEM_NOT_READY, EXIT_STATIC),
        // Loaded, and then failing: the driver's own error, not a setup one.
        (E::CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, EXIT_ERROR),
        (E::CUDA_ERROR_INVALID_VALUE, EXIT_ERROR),
    ] {
        let r = static_report(code, None);
        assert_eq!(r.status.exit_code, status, "{code:?}");
        let json = json_value(&r);
        assert_eq!(json["status"]["exit_code"], status, "{code:?}");
        assert_eq!(json["status"]["live"], false, "{code:?}");
        assert_eq!(json["status"]["error"]["code"], code.0, "{code:?}");
    }
}

#[test]
fn no_device_is_static_only_without_a_failure() {
    let r = assemble(Ok(13050), None, Err(NoLive(None)));
    assert_eq!(r.status.exit_code, EXIT_STATIC);
    let text = render::text(&r);
    assert!(
        text.contains("no live values: the NVIDIA driver is installed but reports no CUDA device"),
        "{text}"
    );
    assert!(text.contains("driver:    CUDA 13.5 (cuDriverGetVersion 13050)"), "{text}");
    assert_eq!(json_value(&r)["status"]["error"], serde_json::Value::Null);
}

/// The live path, which only a GPU reaches: every reading the model holds is
/// in the text and in the JSON, the same.
#[test]
fn a_live_device_reads_the_same_in_text_and_json() {
    let r = live_report();
    assert_eq!(r.status.exit_code, EXIT_LIVE);
    let text = render::text(&r);
    let json = json_value(&r);
    let device = &json["devices"][0];
    assert_eq!(device["name"], "NVIDIA Test GPU");
    assert!(text.contains("device 0: NVIDIA Test GPU"), "{text}");
    assert_eq!(device["compute_capability"], "9.0");
    assert!(text.contains("compute capability:      9.0"), "{text}");
    assert_eq!(device["total_memory"], 80u64 << 30);
    assert!(text.contains("80.0 GiB (85899345920 bytes)"), "{text}");
    assert_eq!(device["pool_handle_types"]["raw"], 1);
    assert!(text.contains("0x1 = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR"), "{text}");
    let pool = &device["default_pool"];
    assert_eq!(pool["handle"], "0x5555deadbeef");
    assert!(text.contains("default memory pool:     0x5555deadbeef"), "{text}");

    let readings = pool["attributes"].as_array().expect("attributes");
    assert_eq!(readings.len(), pool_attributes().count());
    let Read::Value(model_pool) = r.devices[0].default_pool.as_ref().unwrap() else {
        panic!("the pool is a value");
    };
    for (row, a) in readings.iter().zip(model_pool.attributes.iter().map(|r| &r.declared)) {
        assert_eq!(row["name"], a.name);
        // The table row of this attribute, which starts with its value and name.
        let line = text
            .lines()
            .find(|l| {
                let mut cells = l.split_whitespace();
                cells.next() == Some(&a.value.to_string()) && cells.next() == Some(a.name)
            })
            .unwrap_or_else(|| panic!("no row for {} in\n{text}", a.name));
        match (&row["current"], &row["error"], &row["not_read"]) {
            (serde_json::Value::Number(n), serde_json::Value::Null, serde_json::Value::Null) => {
                assert!(line.contains(&n.to_string()), "{line} has not {n}");
                if let Some(name) = row["current_decoded"].as_str() {
                    assert!(line.contains(name), "{line} has not {name}");
                }
            }
            (serde_json::Value::Null, error, serde_json::Value::Null) => {
                let name = error["name"].as_str().expect("an error has a name");
                assert!(line.contains(name), "{line} has not {name}");
            }
            (serde_json::Value::Null, serde_json::Value::Null, why) => {
                let why = why.as_str().expect("not_read is a reason");
                assert!(line.contains(why), "{line} has not {why}");
            }
            other => panic!("{}: current, error and not_read at once: {other:?}", a.name),
        }
    }
    assert!(text.contains("18446744073709551615 (UINT64_MAX)"), "{text}");
    assert!(text.contains("33554432 (32.0 MiB)"), "{text}");
    assert_eq!(pool["driver_rejects"][0], "CU_MEMPOOL_ATTR_USED_MEM_HIGH");
    assert!(
        text.contains("driver rejects: CU_MEMPOOL_ATTR_USED_MEM_HIGH (CUDA_ERROR_INVALID_VALUE)"),
        "{text}"
    );
    assert!(!text.contains("static table follows"), "{text}");
    // The allocation's pointer attributes, each with the width of its value type.
    let allocation = &pool["allocation"];
    assert_eq!(allocation["address"], "0x302000000");
    assert_eq!(allocation["attributes"].as_array().unwrap().len(), pointer_attributes().count());
    assert!(text.contains("an allocation from it:   0x302000000 (1.0 MiB)"), "{text}");
    // A row's cells, one space apart.
    let row = |name: &str| {
        let line = text.lines().find(|l| l.split_whitespace().nth(1) == Some(name));
        line.unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let expect = [
        ("CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL", "int 4 0"),
        (
            "CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES",
            "8 1 (CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)",
        ),
        ("CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE", "0x5555deadbeef (this pool)"),
        ("CU_POINTER_ATTRIBUTE_MEMORY_TYPE", "2 (CU_MEMORYTYPE_DEVICE)"),
        ("CU_POINTER_ATTRIBUTE_IS_MANAGED", "1 (yes)"),
        ("CU_POINTER_ATTRIBUTE_MAPPING_SIZE", "33554432 (32.0 MiB)"),
    ];
    for (name, cells) in expect {
        assert!(row(name).ends_with(cells), "{name}: `{}`, not `...{cells}`", row(name));
    }
    assert!(
        text.contains(
            "driver rejects: CU_POINTER_ATTRIBUTE_HOST_POINTER (CUDA_ERROR_INVALID_VALUE)"
        ),
        "{text}"
    );
}

#[test]
fn a_device_error_is_exit_status_1_and_listed() {
    let mut r = live_report();
    let f = failure("cuDevicePrimaryCtxRelease", cudaError_enum::CUDA_ERROR_INVALID_CONTEXT);
    r.devices[0].cleanup_error = Some(f.clone());
    r.devices[0].error = Some(f);
    let r = assemble(Ok(13050), None, Ok(r.devices));
    assert_eq!(r.status.exit_code, EXIT_ERROR);
    let text = render::text(&r);
    assert!(
        text.contains("error releasing the primary context: cuDevicePrimaryCtxRelease returned CUDA_ERROR_INVALID_CONTEXT (201)"),
        "{text}"
    );
    assert!(text.contains("errors (exit status 1): device 0: "), "{text}");
    let json = json_value(&r);
    assert_eq!(json["status"]["exit_code"], EXIT_ERROR);
    assert_eq!(json["devices"][0]["error"]["code"], 201);
}

#[test]
fn descriptions_are_printed_whole_and_wrapped() {
    assert_eq!(render::wrapped("One. Two three.", 9), "One. Two\nthree.");
    assert_eq!(render::wrapped("a verylongword b", 4), "a\nverylongword\nb");
    assert_eq!(render::wrapped("", 9), "");
}
