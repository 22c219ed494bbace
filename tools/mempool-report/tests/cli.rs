//! The built `mempool-report`, run as a user runs it: its JSON parses and
//! holds every pool attribute of these headers with its value type, the text
//! of the same run says the same, and the exit status is the documented one.
//! Where there is a driver and a GPU the report is live; here (no driver) it
//! is the static table with exit status 2.

use std::process::{Command, Output, Stdio};

use serde_json::Value;

/// The binary under test: the one Cargo built, or, for a test binary copied
/// to another machine with it (a GPU bundle), the copy `MEMPOOL_REPORT_EXE` names.
fn exe() -> String {
    std::env::var("MEMPOOL_REPORT_EXE")
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_mempool-report").to_string())
}

/// Whether the binary is here; says `skipped` where it is not.
fn built_here() -> bool {
    let exe = exe();
    let here = std::path::Path::new(&exe).is_file();
    if !here {
        testkit::skip(&format!("{exe} is not on this machine (MEMPOOL_REPORT_EXE names a copy)"));
    }
    here
}

/// Exit statuses, as `--help` documents them (checked against exit.rs's
/// `EXIT_*` by `exit_statuses_match_main` below).
const EXIT_LIVE: i32 = 0;
const EXIT_ERROR: i32 = 1;
const EXIT_STATIC: i32 = 2;
const EXIT_SETUP: i32 = 3;
const EXIT_USAGE: i32 = 64;

fn run(args: &[&str]) -> Output {
    let exe = exe();
    Command::new(&exe).args(args).output().unwrap_or_else(|e| panic!("running {exe}: {e}"))
}

fn json_run() -> (Value, i32) {
    let out = run(&["--json"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "--json printed no JSON ({e}):\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (json, out.status.code().expect("an exit status"))
}

#[test]
fn exit_statuses_match_main() {
    let source = include_str!("../src/exit.rs");
    for (name, value) in [
        ("LIVE", EXIT_LIVE),
        ("ERROR", EXIT_ERROR),
        ("STATIC", EXIT_STATIC),
        ("SETUP", EXIT_SETUP),
        ("USAGE", EXIT_USAGE),
    ] {
        let line = format!("pub const EXIT_{name}: u8 = {value};");
        assert!(source.contains(&line), "src/exit.rs has no `{line}`");
    }
}

#[test]
fn json_holds_every_pool_attribute_with_its_value_type() {
    if !built_here() {
        return;
    }
    let (json, _) = json_run();
    assert_eq!(json["report"], "mempool-report");
    let header = libcuda_sys::HEADER_VERSION;
    assert_eq!(json["bindings"]["cuda_version"], header);
    assert_eq!(json["bindings"]["pregenerated"], libcuda_sys::PREGENERATED);
    let attributes = json["attributes"].as_array().expect("attributes");
    let expected: Vec<(&str, i64)> = testkit::POOL_ATTRIBUTES
        .iter()
        .filter(|(_, _, since)| *since <= header)
        .map(|(name, value, _)| (*name, *value))
        .collect();
    let got: Vec<(&str, i64)> = attributes
        .iter()
        .map(|a| (a["name"].as_str().unwrap(), a["value"].as_i64().unwrap()))
        .collect();
    assert_eq!(got, expected);
    if header >= 13040 {
        assert_eq!(attributes.len(), 15);
    }
    for a in attributes {
        let ty = a["value_type"].as_str().expect("value_type is a string");
        let size = a["size"].as_u64().expect("size is a number");
        match ty {
            "int" | "CUmemAllocationType" | "CUmemLocationType" | "CUmemAllocationHandleType" => {
                assert_eq!(size, 4, "{a}")
            }
            "cuuint64_t" => assert_eq!(size, 8, "{a}"),
            other => panic!("{}: unexpected value type {other}", a["name"]),
        }
        let settable = a["settable"].as_str().expect("settable");
        assert!(["yes", "reset_to_zero_only", "no"].contains(&settable), "{a}");
        assert_eq!(settable != "no", a["setter"].is_string(), "{a}");
    }
}

#[test]
fn exit_status_is_the_documented_one() {
    if !built_here() {
        return;
    }
    let (json, code) = json_run();
    let status = &json["status"];
    assert_eq!(status["exit_code"], code, "{status}");
    if status["live"] == true {
        // A driver and a GPU: every device read, or an error named per device.
        let devices = json["devices"].as_array().expect("devices");
        assert!(!devices.is_empty());
        let errors = devices.iter().filter(|d| !d["error"].is_null()).count();
        assert_eq!(code, if errors == 0 { EXIT_LIVE } else { EXIT_ERROR });
        return;
    }
    // No driver here: the reason is one of the documented "no usable driver"
    // codes, exit status 2, no devices.
    let error = status["error"]["code"].as_u64().expect("the failing call's code") as u32;
    let why = if json["bindings"]["link_kind"] == "dynamic-loading" && error == 303 {
        // libcuda.so.1 could not be opened: no driver, or (with
        // LIBCUDA_SYS_DRIVER_PATH set) a setup mistake.
        None
    } else {
        Some(testkit::no_usable_driver(error).unwrap_or_else(|| panic!("{status}")))
    };
    if let Some(why) = why {
        assert_eq!(status["reason"], why);
    }
    let expected = if std::env::var_os("LIBCUDA_SYS_DRIVER_PATH").is_some_and(|p| !p.is_empty())
        && why.is_none()
    {
        EXIT_SETUP
    } else {
        EXIT_STATIC
    };
    assert_eq!(code, expected, "{status}");
    assert_eq!(json["devices"], serde_json::json!([]));
}

/// Text and JSON come from the same model: the text of a run says what the
/// JSON of a run holds.
#[test]
fn text_says_what_json_holds() {
    if !built_here() {
        return;
    }
    let (json, json_code) = json_run();
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(json_code));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let b = &json["bindings"];
    let first =
        format!("mempool-report (libcuda-sys {})", b["libcuda_sys_version"].as_str().unwrap());
    assert!(text.starts_with(&first), "{text}");
    assert!(
        text.contains(&format!(
            "bindings:  CUDA {} headers (CUDA_VERSION {})",
            b["cuda_version_text"].as_str().unwrap(),
            b["cuda_version"]
        )),
        "{text}"
    );
    match b["include_dir"].as_str() {
        Some(dir) => assert!(
            text.contains(&format!(
                "headers:   {dir} (found by {})",
                b["found_by"].as_str().unwrap()
            )),
            "{text}"
        ),
        None => assert!(text.contains("headers:   none: the pregenerated bindings"), "{text}"),
    }
    assert!(text.contains(&format!("linked:    {} (", b["link_kind"].as_str().unwrap())), "{text}");
    if let Some(loaded) = json["loaded_libcuda"].as_str() {
        assert!(text.contains(&format!("loaded:    {loaded}")), "{text}");
    }
    let status = &json["status"];
    if status["live"] == false {
        let line = text
            .lines()
            .find(|l| l.ends_with(&format!("; static table follows, exit status {json_code}")))
            .unwrap_or_else(|| panic!("no status line in\n{text}"));
        assert!(line.contains(status["reason"].as_str().unwrap()), "{line}");
        for a in json["attributes"].as_array().unwrap() {
            let row = format!("{}  {}", a["value"], a["name"].as_str().unwrap());
            assert!(text.contains(&row), "no row `{row}` in\n{text}");
        }
    } else {
        for d in json["devices"].as_array().unwrap() {
            assert!(text.contains(&format!("\ndevice {}: ", d["ordinal"])), "{text}");
            // The pointer attributes of an allocation from its default pool name
            // that pool and this device, read with the widths of their value types.
            let Some(pool) = d["default_pool"].as_object() else { continue };
            let read = |name: &str| {
                let attributes = pool["allocation"]["attributes"].as_array().unwrap();
                attributes.iter().find(|a| a["name"] == name).unwrap()["current"].clone()
            };
            assert_eq!(read("CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE"), pool["handle"], "{text}");
            assert_eq!(read("CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL"), d["ordinal"], "{text}");
            assert_eq!(read("CU_POINTER_ATTRIBUTE_RANGE_SIZE"), 1 << 20, "{text}");
            assert!(text.contains("(this pool)"), "{text}");
            // Each device's default pool is on that device, where the driver says.
            let attributes = pool["attributes"].as_array().unwrap();
            if let Some(id) = attributes.iter().find(|a| a["name"] == "CU_MEMPOOL_ATTR_LOCATION_ID")
            {
                if id["error"].is_null() {
                    assert_eq!(id["current"], d["ordinal"], "{text}");
                }
            }
        }
    }
    for f in json["functions"]["pool_functions"].as_array().unwrap() {
        assert!(text.contains(f["name"].as_str().unwrap()), "{text}");
    }
}

#[test]
fn help_and_unknown_arguments() {
    if !built_here() {
        return;
    }
    let help = run(&["--help"]);
    assert_eq!(help.status.code(), Some(EXIT_LIVE));
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("usage: cargo run -p mempool-report"), "{help}");
    let bad = run(&["--frobnicate"]);
    assert_eq!(bad.status.code(), Some(EXIT_USAGE));
    let err = String::from_utf8(bad.stderr).unwrap();
    assert!(err.contains("unknown argument \"--frobnicate\""), "{err}");
    assert!(bad.stdout.is_empty());
}

/// With `--json`, stdout is one JSON object whatever the other arguments:
/// the report, help, or an error with the exit status in `status.exit_code`.
#[test]
fn json_is_json_with_help_and_with_a_usage_error() {
    if !built_here() {
        return;
    }
    let json = |args: &[&str]| {
        let out = run(args);
        let value: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!("{args:?}: no JSON ({e}): {}", String::from_utf8_lossy(&out.stdout))
        });
        assert_eq!(value["report"], "mempool-report", "{args:?}: {value}");
        assert_eq!(value["status"]["exit_code"], out.status.code().unwrap(), "{args:?}: {value}");
        (value, out.status.code().unwrap())
    };
    for args in [&["--json", "--frobnicate"][..], &["--frobnicate", "--json", "--help"][..]] {
        let (value, code) = json(args);
        assert_eq!(code, EXIT_USAGE, "{args:?}: {value}");
        let message = value["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("unknown argument \"--frobnicate\""), "{args:?}: {value}");
        assert!(value["error"]["usage"].as_str().is_some_and(|u| u.starts_with("usage: ")));
    }
    for args in [&["--json", "-h"][..], &["--help", "--json"][..]] {
        let (value, code) = json(args);
        assert_eq!(code, EXIT_LIVE, "{args:?}: {value}");
        let help = value["help"].as_str().unwrap_or_default();
        assert!(help.contains("usage: cargo run -p mempool-report"), "{args:?}: {value}");
    }
}

/// A report that cannot be written is an error said on stderr, not a panic,
/// whatever stdout is and whatever is printed.
#[cfg(target_os = "linux")]
#[test]
fn the_report_says_when_stdout_cannot_be_written() {
    if !built_here() {
        return;
    }
    type Stdout = fn() -> Option<Stdio>;
    let cases: [(&str, Stdout); 3] = [
        ("a pipe whose reader has gone", || {
            let (reader, writer) = std::io::pipe().ok()?;
            drop(reader);
            Some(writer.into())
        }),
        ("a descriptor open for reading only", || {
            Some(std::fs::File::open("/dev/null").ok()?.into())
        }),
        ("a full device", || {
            Some(std::fs::OpenOptions::new().write(true).open("/dev/full").ok()?.into())
        }),
    ];
    for (what, stdout) in cases {
        for args in [&[][..], &["--json"][..], &["--help"][..]] {
            let Some(stdout) = stdout() else {
                testkit::skip(&format!("cannot make {what} here"));
                continue;
            };
            let out = Command::new(exe()).args(args).stdout(stdout).output().expect("run");
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(EXIT_ERROR), "{what} {args:?}: {stderr}");
            assert!(
                stderr.contains("mempool-report: cannot write the report to stdout"),
                "{what} {args:?}: {stderr}"
            );
            assert!(!stderr.contains("panicked"), "{what} {args:?}: {stderr}");
        }
    }
}

/// `LIBCUDA_SYS_DRIVER_PATH` naming what cannot be loaded (a directory, a
/// missing file, a file that is not a library): setup failed, in JSON and in
/// text, with the path tried and the loader's message; without the variable,
/// where the system has no libcuda.so.1, the static table with the same.
#[cfg(dynamic_loading)]
#[test]
fn the_report_names_the_driver_library_it_could_not_load() {
    if !built_here() {
        return;
    }
    let dir =
        std::env::temp_dir().join(format!("mempool-report-driver-path-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let not_a_library = dir.join("libcuda.so.1");
    std::fs::write(&not_a_library, "not an ELF file\n").unwrap();
    let report = |path: Option<&str>, args: &[&str]| {
        let mut cmd = Command::new(exe());
        cmd.args(args).env_remove("LIBCUDA_SYS_DRIVER_PATH");
        if let Some(path) = path {
            cmd.env("LIBCUDA_SYS_DRIVER_PATH", path);
        }
        cmd.output().expect("run")
    };
    for path in [dir.clone(), dir.join("missing/libcuda.so.1"), not_a_library] {
        let path = path.to_str().unwrap();
        let out = report(Some(path), &["--json"]);
        let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(out.status.code(), Some(EXIT_SETUP), "{path}: {json}");
        assert_eq!(json["status"]["exit_code"], EXIT_SETUP);
        let load = &json["driver"]["load_error"];
        assert_eq!(load["from"], "LIBCUDA_SYS_DRIVER_PATH", "{path}: {load}");
        assert_eq!(load["tried"], path, "{path}: {load}");
        let message = load["message"].as_str().unwrap_or_default();
        assert!(!message.is_empty(), "{path}: no loader message: {load}");

        let out = report(Some(path), &[]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(EXIT_SETUP), "{path}: {stdout}");
        assert!(
            stdout.contains(&format!("LIBCUDA_SYS_DRIVER_PATH={path} ")),
            "{path}: the path tried is not named: {stdout}"
        );
        assert!(
            stdout.contains(message),
            "{path}: the loader's message {message:?} is not shown: {stdout}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);

    // The system loader's libcuda.so.1, where there is none: no driver here.
    let out = report(None, &["--json"]);
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let load = &json["driver"]["load_error"];
    if load.is_null() {
        return testkit::skip(
            "libcuda.so.1 loads here: no load failure to show without LIBCUDA_SYS_DRIVER_PATH",
        );
    }
    assert_eq!(out.status.code(), Some(EXIT_STATIC));
    // The loader's, then WSL2's driver directory (crate docs, `dynamic`).
    assert_eq!(load["tried"], "libcuda.so.1, then /usr/lib/wsl/lib/libcuda.so.1 (WSL2)");
    let message = load["message"].as_str().unwrap_or_default();
    assert!(!message.is_empty());
    assert!(json["status"]["reason"].as_str().is_some_and(|r| r.contains(message)));
}
