//! The driver floor.

use crate::harness::*;

// ---------------------------------------------------------------------------
// 11. The driver floor, on the pregenerated releases.

#[test]
fn a_driver_floor_works_with_the_pregenerated_set() {
    if linking_untestable() {
        return;
    }
    let mut case = Case::new("floor_pregenerated");
    let run = case
        .env("LIBCUDA_SYS_BINDINGS", "pregenerated")
        .env("LIBCUDA_SYS_DRIVER_FLOOR", "12.0")
        .run();
    assert_pregenerated(&run, &case, newest_pregenerated());
    assert_eq!(run.metadata("driver_floor"), "12000");
    let functions = fs::read_to_string(case.out_dir().join("functions.rs")).unwrap();
    assert!(functions.contains("pub fn cuMemPoolGetAttribute("), "pool API left out");
    assert!(
        !functions.contains("pub fn cuMemGetDefaultMemPool("),
        "a 13.0 function bound under a 12.0 floor"
    );
    // The stand-in exports what is bound, no more.
    if run.metadata("link_kind") == "generated-stub" {
        let stub = fs::read_to_string(case.out_dir().join("stub/libcuda_stub.c")).unwrap();
        assert!(!stub.contains("cuMemGetDefaultMemPool"));
    }
    run.assert_reruns(&["LIBCUDA_SYS_DRIVER_FLOOR"]);
}

/// The functions a run bound (`FUNCTIONS` of its `since.rs`).
fn bound_functions(case: &Case) -> BTreeSet<String> {
    let since = fs::read_to_string(case.out_dir().join("since.rs")).unwrap();
    let list = since.split("pub const FUNCTIONS: &[&str] = &[").nth(1).unwrap();
    let list = list.split("];").next().unwrap();
    list.split('"').skip(1).step_by(2).map(str::to_string).collect()
}

#[test]
fn a_floor_binds_what_the_older_release_binds() {
    if linking_untestable() {
        return;
    }
    // For each pair of pregenerated releases: the newer one with the older as floor
    // binds the functions the older binds that the newer still declares:
    // nothing newer than the floor, nothing of the floor's lost.
    for (old, new, floor) in [("13000", "13050", "13.0"), ("12000", "12090", "12.0")] {
        let bound = |release: &str, floor: Option<&str>| {
            let mut case = Case::new("floor_pairs");
            case.env("LIBCUDA_SYS_BINDINGS", "pregenerated").feature(format!("cuda-{release}"));
            if let Some(floor) = floor {
                case.env("LIBCUDA_SYS_DRIVER_FLOOR", floor);
            }
            let run = case.run();
            assert_eq!(run.code, Some(0), "{}", run.report());
            bound_functions(&case)
        };
        let (older, newer, floored) = (bound(old, None), bound(new, None), bound(new, Some(floor)));
        let expected: BTreeSet<String> = older.intersection(&newer).cloned().collect();
        assert_eq!(floored, expected, "{new} with LIBCUDA_SYS_DRIVER_FLOOR={floor}");
        assert!(floored.len() < newer.len(), "the floor left nothing out of {new}");
    }
}

#[test]
fn a_driver_floor_must_be_a_cuda_version() {
    for floor in ["thirteen", "13", "13.0.1", "13.05", "013.0", "13.x"] {
        let run = Case::new("floor_malformed").env("LIBCUDA_SYS_DRIVER_FLOOR", floor).run();
        run.failure(&format!("LIBCUDA_SYS_DRIVER_FLOOR={floor} is not a CUDA version"));
        run.assert_stderr_has(&["from 11.0 on, the minor one digit"]);
    }
    for floor in ["9.2", "10.0"] {
        let run = Case::new("floor_too_old").env("LIBCUDA_SYS_DRIVER_FLOOR", floor).run();
        run.failure(&format!("LIBCUDA_SYS_DRIVER_FLOOR={floor} is older than any driver"));
    }
    let run = Case::new("floor_too_new").env("LIBCUDA_SYS_DRIVER_FLOOR", "100.0").run();
    run.failure("LIBCUDA_SYS_DRIVER_FLOOR=100.0 is not a CUDA release (their major versions have two digits)");
}

#[test]
fn a_driver_floor_is_passed_on() {
    if linking_untestable() || generation_unavailable() {
        return;
    }
    let mut case = Case::new("floor_metadata");
    let root = case.toolkit("toolkit");
    let run = case.env("CUDA_PATH", &root).env("LIBCUDA_SYS_DRIVER_FLOOR", "11.2").run();
    run.found(&root.join("include"), "CUDA_PATH");
    assert_eq!(run.metadata("driver_floor"), "11020");
    // Everything newer than 11.2 is gone from the linked functions, the pool API is not.
    let functions = fs::read_to_string(case.out_dir().join("functions.rs")).unwrap();
    assert!(functions.contains("cuMemPoolGetAttribute"), "pool API left out");
    assert!(
        !functions.contains("cuMemGetDefaultMemPool"),
        "a 13.0 function bound under an 11.2 floor"
    );
}
