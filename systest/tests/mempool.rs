//! The memory-pool constants against the header: every `CU_MEMPOOL_ATTR_*` the
//! header declares is bound with the C compiler's value, and the value-type
//! table agrees with the header's own comments where it comes from them.

use libcuda_sys::*;
use testkit::POOL_ATTRIBUTES as DOCUMENTED;

#[test]
fn every_header_attribute_is_bound_with_the_c_value() {
    // abi_check.c prints `mempool NAME value` for every CU_MEMPOOL_ATTR_* found
    // in the header text; the Rust side names each through the bindings.
    if !systest::available() {
        return;
    }
    let c = systest::c_side();
    let from_header: Vec<(&str, &str)> =
        c.iter().filter_map(|(k, v)| Some((k.strip_prefix("mempool ")?, v.as_str()))).collect();
    assert!(
        from_header.len() >= 8,
        "the header declares at least 8 pool attributes, found {}",
        from_header.len()
    );
    for (name, c_value) in &from_header {
        let entry = DOCUMENTED.iter().find(|d| d.0 == *name);
        let rust = VALUE_TYPES.iter().find(|e| e.name == *name).map(|e| e.value);
        assert_eq!(
            rust.map(|v| v.to_string()).as_deref(),
            Some(*c_value),
            "{name}: value table vs C"
        );
        if let Some((_, documented, _)) = entry {
            assert_eq!(c_value.parse::<i64>().unwrap(), *documented, "{name}");
        }
    }
    // The attributes this header version must have, with values 1..=15.
    for (name, value, since) in DOCUMENTED.iter().filter(|d| HEADER_VERSION >= d.2) {
        assert_eq!(
            from_header.iter().find(|h| h.0 == *name).map(|h| h.1),
            Some(value.to_string().as_str()),
            "{name} missing from CUDA {HEADER_VERSION} (since {since})"
        );
    }
    println!("{} memory-pool attributes bound with the header's values", from_header.len());
}

#[test]
fn value_type_table_agrees_with_the_header_text() {
    if !systest::available() {
        return;
    }
    // Every entry typed by its comment has a comment starting with its value
    // type in the header itself.
    let header =
        std::fs::read_to_string(std::path::Path::new(systest::INCLUDE_DIR).join("cuda.h")).unwrap();
    let commented: Vec<&TypedEnumerator> =
        VALUE_TYPES.iter().filter(|e| e.source == Source::Comment).collect();
    assert!(commented.len() >= 12, "{} entries typed by their comment", commented.len());
    for e in &commented {
        // The enumerator itself, not one whose name starts with it
        // (`CU_JIT_TARGET` of `CU_JIT_TARGET_FROM_CUCONTEXT`).
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let (at, _) = header
            .match_indices(&format!("    {}", e.name))
            .find(|(at, m)| !header[at + m.len()..].starts_with(ident))
            .unwrap_or_else(|| panic!("{} not in cuda.h", e.name));
        let comment = &header[..at][header[..at].rfind("/**").unwrap()..];
        // An attribute's `(value type = T)`, or an option's `Option type: T`.
        let option = matches!(e.value_type.shape, Shape::Slot | Shape::Out | Shape::InOut);
        let says = match option {
            true => format!("Option type: {}", e.value_type.c_name),
            false => format!("(value type = {})", e.value_type.c_name),
        };
        assert!(comment.contains(&says), "{}: {}", e.name, comment);
    }
    // And every enumerator comment that declares a type is in the table.
    let mut missing = Vec::new();
    let mut rest = header.as_str();
    while let Some(at) = rest.find("(value type =") {
        rest = &rest[at..];
        // An enumerator's comment ends with `*/` followed by the enumerator name.
        let after = rest[rest.find("*/").unwrap() + 2..].trim_start();
        let name: String =
            after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if name.starts_with("CU_") && !commented.iter().any(|e| e.name == name) {
            missing.push(name);
        }
        rest = &rest[1..];
    }
    assert!(missing.is_empty(), "declared in cuda.h but not in VALUE_TYPES: {missing:?}");
}
