//! The ABI check: every enumerator, integer constant, size, alignment and field
//! offset the bindings declare, compared with what the C compiler computes for
//! the same header and defines; and every plain name resolved to the symbol a
//! C call of it resolves to.

use systest::{c_side, rust_side, FUNCTIONS};

#[test]
fn rust_and_c_agree_on_every_item() {
    if !systest::available() {
        return;
    }
    let c = c_side();
    let mut mismatches = Vec::new();
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    let rust_side = rust_side();
    for (check, rust) in &rust_side {
        *counts.entry(check.split(' ').next().unwrap()).or_default() += 1;
        match c.get(*check) {
            Some(v) if v.parse::<i128>().ok() == Some(*rust) => {}
            Some(v) => mismatches.push(format!("{check}: Rust {rust}, C {v}")),
            None => mismatches.push(format!("{check}: Rust {rust}, C printed nothing")),
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} of {} ABI checks differ:\n{}",
        mismatches.len(),
        rust_side.len(),
        mismatches.join("\n")
    );
    println!(
        "ABI checks: {} items agree ({counts:?}), {FUNCTIONS} functions declared; {} bindings against {}",
        rust_side.len(),
        systest::BINDINGS,
        systest::INCLUDE_DIR
    );
    assert!(rust_side.len() > 1000, "suspiciously few items: {}", rust_side.len());
}

#[test]
fn constants_defined_as_casts_and_aliases_agree_with_c() {
    if !systest::available() {
        return;
    }
    let c = c_side();
    let values = systest::macro_values();
    let wrong: Vec<String> = values
        .iter()
        .filter(|(key, rust)| c.get(*key).and_then(|v| v.parse::<i128>().ok()) != Some(*rust))
        .map(|(key, rust)| format!("{key}: Rust {rust}, C {:?}", c.get(*key)))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // CU_STREAM_LEGACY and CU_DEVICE_CPU exist in every supported header.
    for name in [
        "macro CU_STREAM_LEGACY",
        "macro CU_STREAM_PER_THREAD",
        "macro CU_DEVICE_CPU",
        "macro CU_LAUNCH_PARAM_END",
    ] {
        assert!(values.iter().any(|(k, _)| *k == name), "{name} not bound");
    }
    println!("{} constants defined as casts or aliases agree with C", values.len());
}

#[test]
fn every_object_like_macro_with_a_value_is_bound() {
    if !systest::available() {
        return;
    }
    // What is left has no value to bind: a flag (`CU_UUID_HAS_BEEN_DEFINED`) or
    // an attribute of declarations (`CUDAAPI`, `CUDA_CB`).
    let with_value: Vec<&(&str, &str)> =
        systest::UNBOUND_MACROS.iter().filter(|(_, body)| !body.is_empty()).collect();
    assert!(
        with_value.is_empty(),
        "object-like macros with a value but no binding: {with_value:?}"
    );
    let names: Vec<&str> = systest::UNBOUND_MACROS.iter().map(|(n, _)| *n).collect();
    println!("not bound, no value (flags and attribute macros): {names:?}");
}

#[test]
fn every_bound_function_is_declared_by_the_header() {
    if !systest::available() {
        return;
    }
    // abi_check.c takes `sizeof(&f)` of every bound function (it does not compile
    // if the header lacks one) and counts the statements it ran.
    assert_eq!(c_side().get("functions").map(String::as_str), Some(FUNCTIONS.to_string().as_str()));
}

/// systest reads the bit masks, plain names and macro constants back from the
/// build script's output (and the functions with them): each table it checks
/// must be the crate's, whole. A reading that found nothing would leave its
/// checks nothing to check, and they would pass.
#[test]
fn every_table_the_checks_read_is_the_crates_whole() {
    if !systest::available() {
        return;
    }
    fn sorted<T: Ord + Clone>(items: &[T]) -> Vec<T> {
        let mut v = items.to_vec();
        v.sort();
        v
    }
    let masks = rust_side().iter().filter(|(check, _)| check.starts_with("mask ")).count();
    let plain_names: Vec<&str> = systest::plain_name_addresses().iter().map(|(p, _)| *p).collect();
    let macro_constants = systest::macro_values().len();
    assert_eq!(sorted(systest::READ_BITMASKS), sorted(libcuda_sys::BITMASKS), "bit masks");
    assert_eq!(masks, libcuda_sys::BITMASKS.len(), "masks whose `|` is compared with C's");
    assert_eq!(sorted(systest::READ_PLAIN_NAMES), sorted(libcuda_sys::PLAIN_NAMES), "plain names");
    let crate_plain_names: Vec<&str> = libcuda_sys::PLAIN_NAMES.iter().map(|(p, _)| *p).collect();
    assert_eq!(sorted(&plain_names), sorted(&crate_plain_names), "plain names resolved");
    assert_eq!(sorted(systest::FUNCTION_NAMES), sorted(libcuda_sys::FUNCTIONS), "functions");
    assert_eq!(FUNCTIONS, libcuda_sys::FUNCTIONS.len(), "functions declared in C");
    assert_eq!(
        sorted(systest::READ_MACRO_CONSTANTS),
        sorted(systest::HEADER_MACRO_CONSTANTS),
        "macro constants: read, and found in the header's macros"
    );
    assert_eq!(macro_constants, systest::HEADER_MACRO_CONSTANTS.len(), "macro constants compared");
    // Every supported header has some of each.
    for (table, n) in [
        ("bit masks", masks),
        ("plain names", plain_names.len()),
        ("macro constants", macro_constants),
        ("functions", FUNCTIONS),
    ] {
        assert!(n > 0, "no {table} to check");
    }
    println!(
        "checked whole: {masks} bit masks, {} plain names, {macro_constants} macro constants, {FUNCTIONS} functions",
        plain_names.len()
    );
}

#[cfg(not(feature = "dynamic-loading"))]
use testkit::loaded_symbol as symbol_address;

// Linked mode: the address the loader bound. (The dynamic-loading mode checks
// its resolution in tests/dynamic_loading.rs.)
#[cfg(not(feature = "dynamic-loading"))]
#[test]
fn plain_names_resolve_to_the_symbol_c_calls() {
    if !systest::available() {
        return;
    }
    let c = c_side();
    let aliases = systest::plain_name_addresses();
    let mut wrong = Vec::new();
    for (plain, rust_address) in aliases {
        let c_symbol = c
            .get(&format!("symbol {plain}"))
            .unwrap_or_else(|| panic!("C side has no expansion for {plain}"));
        assert_ne!(c_symbol, plain, "{plain} is not renamed in C, yet bound as an alias");
        let expected = symbol_address(c_symbol);
        assert!(!expected.is_null(), "libcuda has no {c_symbol}");
        if rust_address != expected {
            wrong.push(format!(
                "{plain}: Rust reaches {rust_address:?}, C calls {c_symbol} at {expected:?}"
            ));
        }
        let legacy = symbol_address(plain);
        assert!(legacy.is_null() || legacy != rust_address, "{plain} reaches the legacy symbol");
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    println!("{} plain names resolve to the symbols C calls", aliases.len());
}

/// The static check (what cross targets get: `_Static_assert`s compiled by the
/// target's C compiler) reads the Rust side from the bindings instead of asking
/// rustc. Here, where rustc's answer is at hand, the two must be the same for
/// every check, or the static check would pass or fail for the wrong reason.
#[test]
fn the_static_check_reads_what_rustc_computes() {
    if !systest::available() {
        return;
    }
    let read: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(systest::STATIC_VALUES_JSON).expect("abi_values.json");
    let as_i128 =
        |v: &serde_json::Value| v.as_i64().map(i128::from).or_else(|| v.as_u64().map(i128::from));
    let rustc: Vec<(&str, i128)> = rust_side().into_iter().chain(systest::macro_values()).collect();
    let wrong: Vec<String> = rustc
        .iter()
        .filter(|(key, value)| read.get(*key).and_then(as_i128) != Some(*value))
        .map(|(key, value)| format!("{key}: rustc {value}, read {:?}", read.get(*key)))
        .collect();
    assert!(wrong.is_empty(), "{} of {} differ:\n{}", wrong.len(), rustc.len(), wrong.join("\n"));
    assert_eq!(read.len(), rustc.len(), "the static check has other checks");
}
