//! The value type of every attribute enumerator of the generated bindings.
//! An attribute enum is one a `cu*Get*Attribute*` function (or
//! `cuCtxGetLimit`) takes; each of its enumerators gets its type from, in
//! order:
//! 1. `(value type = T)` at the start of its comment (memory pools, graph memory);
//! 2. the getter's signature: `int *` of `cuDeviceGetAttribute`, `size_t *`
//!    of `cuCtxGetLimit`; a union (`CUlaunchAttributeValue *` of
//!    `cuStreamGetAttribute`) narrowed to the member that the enumerator's
//!    comment, or the member's own, names;
//! 3. this crate's facts table, `attribute_facts.txt`, where the getter takes
//!    `void *` and only its documentation says what it writes.
//!
//! The rest, `None`: an enum's end marker (`CU_DEVICE_ATTRIBUTE_MAX`), an
//! enumerator that takes no value (`CU_LAUNCH_ATTRIBUTE_IGNORE`), and one
//! the table does not know yet.
//!
//! Options are typed alike: an enum whose array a function takes beside an
//! array of `void *` values (`CUjit_option *options` of `cuModuleLoadDataEx`,
//! `cuLinkCreate`, ...). Each value sits in its pointer-sized slot; the
//! enumerator's comment gives its type (`Option type: unsigned int`) and
//! whether the driver writes a result back into the slot (`OUT:`).
//!
//! An integer value whose comment names an enum (`See ::CUcomputemode`, `for
//! enumerated type ::CUjit_target`) takes that enum's values.

use std::collections::BTreeMap;

use crate::make::c_types::{text, Field, Types};
use crate::make::items::Items;
use crate::model::{end_marker, Typed};
use crate::sentences::{facts, Fact, RESET_ONLY_MEASURED};

/// A function that reads or writes attributes of an enum, and how it takes them.
struct Accessor<'a> {
    name: &'a str,
    /// The first `*mut T` parameter, for a getter that takes the enum by value.
    out: Option<String>,
}

/// `cu*Get*Attribute*`, `cuCtxGetLimit` and their `Set` twins.
fn verb(name: &str) -> Option<bool> {
    let noun = name.contains("Attribute") || name.contains("Limit");
    match (name.contains("Get"), name.contains("Set")) {
        (true, false) if noun => Some(true),
        (false, true) if noun => Some(false),
        _ => None,
    }
}

/// The value types of every attribute enumerator of `items`.
pub fn find(items: &Items) -> Result<Vec<Typed>, String> {
    let defined = |name: &str| items.has_item(name) || items.enums.iter().any(|e| e == name);
    let types = Types::new(&items.types, &items.aliases, &items.enums, &defined);
    let facts = facts();
    // enum -> (getters, setters)
    let mut accessors: BTreeMap<String, (Vec<Accessor>, Vec<Accessor>)> = BTreeMap::new();
    // The enums of option arrays, and the functions that take them.
    let mut options: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for f in &items.functions {
        for (name, ty) in f.item.sig.inputs.iter().filter_map(named) {
            let Some(pointee) = ty.strip_prefix("*mut") else { continue };
            let ty = types.resolve(pointee);
            if name.contains("ption") && items.enums.contains(&ty) {
                let list = options.entry(ty).or_default();
                if !list.contains(&f.name.as_str()) {
                    list.push(&f.name);
                }
            }
        }
        let Some(get) = verb(&f.name) else { continue };
        let params: Vec<String> = f
            .item
            .sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                syn::FnArg::Typed(p) => Some(text(&p.ty)),
                syn::FnArg::Receiver(_) => None,
            })
            .collect();
        for p in &params {
            let (by_value, ty) = match p.strip_prefix("*mut").or_else(|| p.strip_prefix("*const")) {
                Some(pointee) => (false, types.resolve(pointee)),
                None => (true, types.resolve(p)),
            };
            if !items.enums.contains(&ty) {
                continue;
            }
            let out = by_value
                .then(|| params.iter().find(|q| q.starts_with("*mut")))
                .flatten()
                .map(|q| q["*mut".len()..].to_string());
            let (getters, setters) = accessors.entry(ty).or_default();
            let list = if get { getters } else { setters };
            list.push(Accessor { name: &f.name, out });
            break;
        }
    }
    let launches: Vec<&str> = items
        .functions
        .iter()
        .map(|f| f.name.as_str())
        .filter(|n| n.starts_with("cuLaunchKernelEx"))
        .collect();
    let mut typed = Vec::new();
    let enumerators_of = |owner: &str| -> Vec<&crate::make::items::Constant> {
        items.constants.iter().filter(|k| k.owner.as_deref() == Some(owner)).collect()
    };
    let typedef = |e: &str| {
        items.aliases.iter().find(|(en, _)| en == e).map_or(e.to_string(), |(_, a)| a.clone())
    };
    // The enum an integer value takes the values of, as its comment names it.
    let values = |doc: &str, c_type: &str| -> Option<String> {
        let integer = types.rust_of(c_type).as_deref().and_then(Types::primitive);
        if integer.is_none_or(|p| p.3.is_none()) {
            return None;
        }
        let named = doc.split('`').skip(1).step_by(2);
        named.map(|n| types.resolve(n)).find(|n| items.enums.contains(n)).map(|e| typedef(&e))
    };
    for (owner, functions) in &options {
        let enumerators = enumerators_of(owner);
        let last = enumerators.iter().filter_map(|k| k.value).max();
        for k in enumerators.iter().filter(|k| !(end_marker(&k.name) && k.value == last)) {
            let Some((c_type, shape)) = option_type(&k.doc) else { continue };
            let rust_type = types.rust_of(c_type);
            let layout = rust_type.as_deref().and_then(|r| types.layout(r));
            typed.push(Typed {
                owner: owner.clone(),
                name: k.name.clone(),
                c_type: c_type.to_string(),
                layout: layout.map(|(size, align, _)| (size, align)),
                signed: layout.and_then(|l| l.2),
                rust_type,
                shape: shape.to_string(),
                values: values(&k.doc, c_type),
                member: None,
                // What the driver writes back comes out of the same call:
                // no function reads an option.
                getters: Vec::new(),
                setters: functions.iter().map(|f| f.to_string()).collect(),
                reset_only: false,
                source: "comment".into(),
                description: String::new(),
            });
        }
    }
    for (owner, (getters, setters)) in &accessors {
        if getters.is_empty() {
            continue;
        }
        let enumerators = enumerators_of(owner);
        let last = enumerators.iter().filter_map(|k| k.value).max();
        for k in &enumerators {
            let fact = facts.iter().find(|f| f.enumerator == k.name);
            let declared = declared_type(&k.doc);
            // The end marker of an enum, never an attribute.
            if declared.is_none() && end_marker(&k.name) && k.value == last {
                continue;
            }
            let Some(value) = value_of(&types, k, declared, getters, fact) else { continue };
            let valid = valid_for(&k.doc);
            let kind_of = |name: &str| {
                if name.contains("Stream") {
                    "streams"
                } else if name.contains("GraphKernelNode") {
                    "graph nodes"
                } else {
                    ""
                }
            };
            let allowed = |name: &str| valid.as_ref().is_none_or(|v| v.contains(&kind_of(name)));
            let mut readers: Vec<String> =
                getters.iter().map(|g| g.name).filter(|n| allowed(n)).map(str::to_string).collect();
            readers.dedup();
            let mut writers: Vec<String> = setters
                .iter()
                .map(|s| s.name)
                .filter(|n| {
                    if valid.is_some() || value.member.is_some() {
                        // Launch attributes: where their comment says they apply.
                        allowed(n)
                    } else {
                        // Others: the setter's documentation lists those it takes.
                        items.function(n).is_some_and(|f| f.doc.contains(&format!("`{}`", k.name)))
                    }
                })
                .map(str::to_string)
                .collect();
            if valid.as_ref().is_some_and(|v| v.contains(&"launches")) {
                writers.extend(launches.iter().map(|n| n.to_string()));
            }
            let lower = value.description.to_ascii_lowercase();
            let said =
                lower.contains("reset") && (lower.contains("to zero") || lower.contains("to 0"));
            let reset_only =
                !writers.is_empty() && (said || RESET_ONLY_MEASURED.contains(&k.name.as_str()));
            let rust_type = types.rust_of_value(&value);
            let values = values(&k.doc, &value.c_type);
            let layout = rust_type.as_deref().and_then(|r| types.layout(r));
            typed.push(Typed {
                owner: owner.clone(),
                name: k.name.clone(),
                c_type: value.c_type,
                layout: layout.map(|(size, align, _)| (size, align)),
                signed: layout.and_then(|l| l.2).filter(|_| value.shape != "boolean"),
                rust_type,
                shape: value.shape.to_string(),
                values,
                member: value.member,
                getters: readers,
                setters: writers,
                reset_only,
                source: value.source,
                // Ours where there is one, as the pregenerated set has it.
                description: crate::sentences::sentence(&k.name).map_or_else(
                    || value.description.split_whitespace().collect::<Vec<_>>().join(" "),
                    str::to_string,
                ),
            });
        }
    }
    // In the header's order, enum by enum as the bindings declare them.
    let position = |name: &str| items.constants.iter().position(|k| k.name == name);
    typed.sort_by_key(|t| position(&t.name));
    Ok(typed)
}

/// `(name, type)` of a named parameter.
fn named(arg: &syn::FnArg) -> Option<(String, String)> {
    match arg {
        syn::FnArg::Typed(p) => match &*p.pat {
            syn::Pat::Ident(i) => Some((i.ident.to_string(), text(&p.ty))),
            _ => None,
        },
        syn::FnArg::Receiver(_) => None,
    }
}

/// `(C type, shape)` of an option from its comment's `Option type: T`, up to
/// the end of that line (doxygen's `\n`) or ` for enumerated type`. The shape:
/// `inout` where the comment tells what goes `IN:` and what comes `OUT:`, `out`
/// where the driver only overwrites the slot, else `slot` (read from its slot).
/// `None` for an option that takes no value, or a comment that states no type.
fn option_type(doc: &str) -> Option<(&str, &'static str)> {
    let rest = &doc[doc.find("Option type:")? + "Option type:".len()..];
    let end = rest.find(['\\', '\n']).unwrap_or(rest.len());
    let ty = rest[..end].split(" for enumerated type").next()?.trim();
    if ty.is_empty() || ty.starts_with("No option value") {
        return None;
    }
    let shape = match (doc.contains("IN:"), doc.contains("OUT:")) {
        (true, true) => "inout",
        _ if doc.contains("Overwrites the option value") => "out",
        _ => "slot",
    };
    Some((ty, shape))
}

/// An enumerator's value as one of the three sources gives it.
struct Value<'a> {
    c_type: String,
    /// The Rust type, where it is not the C type's own.
    rust_type: Option<String>,
    shape: &'a str,
    member: Option<String>,
    source: String,
    description: &'a str,
}

impl Types<'_> {
    fn rust_of_value(&self, v: &Value) -> Option<String> {
        v.rust_type.clone().or_else(|| self.rust_of(&v.c_type))
    }
}

fn value_of<'a>(
    types: &Types,
    k: &'a crate::make::items::Constant,
    declared: Option<(&'a str, &'a str)>,
    getters: &[Accessor],
    fact: Option<&Fact<'a>>,
) -> Option<Value<'a>> {
    if let Some((ty, description)) = declared {
        return Some(Value {
            c_type: ty.to_string(),
            rust_type: None,
            shape: "scalar",
            member: None,
            source: "comment".into(),
            description,
        });
    }
    let from_fact = |f: &Fact<'a>| format!("{} {}", f.evidence, f.line);
    let out = getters.iter().find_map(|g| g.out.as_deref()).map(|t| types.resolve(t));
    match out {
        Some(t) if Types::primitive(&t).is_some_and(|p| p.2 == 0) => {}
        // A union: the member the comments or the facts name.
        Some(t) if types.records.get(&t).is_some_and(|r| r.is_union) => {
            let fields = &types.records[&t].fields;
            let aliases: Vec<&String> = types
                .aliases
                .iter()
                .filter(|(_, to)| types.resolve(to) == t)
                .map(|(from, _)| from)
                .chain([&t])
                .collect();
            let by_comment = named_member(&k.doc, &aliases, fields).or_else(|| {
                let mention = format!("`{}`", k.name);
                fields
                    .iter()
                    .find(|f| first_enumerator(&f.doc).as_deref() == Some(&mention))
                    .map(|f| f.name.clone())
            });
            let (member, source) = match (by_comment, fact) {
                (Some(m), _) => (m, "signature".to_string()),
                (None, Some(f)) if f.ty.starts_with('.') => (f.ty[1..].to_string(), from_fact(f)),
                _ => return None,
            };
            let ty = &fields.iter().find(|f| f.name == member)?.ty;
            return Some(Value {
                c_type: types.c_name(ty),
                rust_type: Some(ty.clone()),
                shape: "scalar",
                member: Some(member),
                source,
                description: "",
            });
        }
        Some(t) => {
            return Some(Value {
                c_type: types.c_name(&t),
                rust_type: Some(t),
                shape: "scalar",
                member: None,
                source: "signature".into(),
                description: "",
            })
        }
        None => {}
    }
    let f = fact.filter(|f| f.ty != "-" && !f.ty.starts_with('.'))?;
    Some(Value {
        c_type: f.ty.to_string(),
        rust_type: None,
        shape: f.shape,
        member: None,
        source: from_fact(f),
        description: "",
    })
}

/// The first `Union::member` an enumerator's comment names, of the union's
/// members (the comment converter writes some as `` `Union``member` ``).
fn named_member(doc: &str, unions: &[&String], fields: &[Field]) -> Option<String> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut start = None;
    for (i, c) in doc.char_indices().chain([(doc.len(), ' ')]) {
        match (word(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                words.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    words.windows(2).find_map(|w| {
        let (union, gap, member) =
            (&doc[w[0].0..w[0].1], &doc[w[0].1..w[1].0], &doc[w[1].0..w[1].1]);
        let joined = gap.contains("::") || gap == "``";
        (joined && unions.iter().any(|u| *u == union) && fields.iter().any(|f| f.name == member))
            .then(|| member.to_string())
    })
}

/// The first `` `CU_...` `` a member's documentation names.
fn first_enumerator(doc: &str) -> Option<String> {
    let at = doc.find("`CU_")?;
    let end = doc[at + 1..].find('`')?;
    Some(doc[at..at + end + 2].to_string())
}

/// `Valid for streams, graph nodes, launches.` of a launch attribute's comment.
fn valid_for(doc: &str) -> Option<Vec<&'static str>> {
    let rest = &doc[doc.find("Valid for ")? + "Valid for ".len()..];
    let sentence = &rest[..rest.find('.').unwrap_or(rest.len())];
    Some(
        ["streams", "graph nodes", "launches"]
            .into_iter()
            .filter(|kind| sentence.contains(kind))
            .collect(),
    )
}

/// `(value type = T)` at the start of a comment.
fn declared_type(doc: &str) -> Option<(&str, &str)> {
    let rest = doc.trim_start().strip_prefix("(value type")?.trim_start().strip_prefix('=')?;
    let (ty, description) = rest.split_once(')')?;
    Some((ty.trim(), description))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_facts_table_reads() {
        let facts = facts();
        assert!(facts.iter().any(|f| f.enumerator == "CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES"));
        for f in facts {
            assert!(
                ["scalar", "boolean", "array", "string"].contains(&f.shape),
                "{}",
                f.enumerator
            );
            assert!(["documented", "measured", "named"].contains(&f.evidence), "{}", f.enumerator);
            assert!(crate::model::parse_version(f.line.split(':').next().unwrap()).is_some());
        }
    }

    #[test]
    fn comments_name_members_and_validity() {
        let field = |name: &str| Field { name: name.into(), ty: String::new(), doc: String::new() };
        let fields = vec![field("clusterDim"), field("preferredClusterDim")];
        let union = "CUlaunchAttributeValue".to_string();
        let doc =
            "Valid for graph nodes, launches. Set `CUlaunchAttributeValue::preferredClusterDim` \
                   beside `CUlaunchAttributeValue::clusterDim`.";
        assert_eq!(named_member(doc, &[&union], &fields).as_deref(), Some("preferredClusterDim"));
        let doc = "Valid for graph nodes, launches. See `CUlaunchAttributeValue``clusterDim`.";
        assert_eq!(named_member(doc, &[&union], &fields).as_deref(), Some("clusterDim"));
        assert_eq!(
            named_member("`CUlaunchAttributeValue` and clusterDim", &[&union], &fields),
            None
        );
        assert_eq!(valid_for(doc), Some(vec!["graph nodes", "launches"]));
        assert_eq!(valid_for("Ignored entry"), None);
        assert_eq!(
            first_enumerator(
                "Value of launch attribute `CU_LAUNCH_ATTRIBUTE_PRIORITY`. See `CU_X`"
            )
            .as_deref(),
            Some("`CU_LAUNCH_ATTRIBUTE_PRIORITY`")
        );
        assert_eq!(
            option_type("Max registers\\n Option type: unsigned int\\n Applies to: compiler"),
            Some(("unsigned int", "slot"))
        );
        let target = "Target.\\n Option type: unsigned int for enumerated type `CUjit_target`";
        assert_eq!(option_type(target), Some(("unsigned int", "slot")));
        let wall = "Overwrites the option value with the time\\n Option type: float\\n Applies";
        assert_eq!(option_type(wall), Some(("float", "out")));
        let log = "IN: Log buffer size\\n OUT: Amount filled\\n Option type: unsigned int\\n";
        assert_eq!(option_type(log), Some(("unsigned int", "inout")));
        assert_eq!(option_type("Option type: No option value needed\\n"), None);
        assert_eq!(option_type("Specifies that code is kept."), None);
        assert!(end_marker("CU_JIT_NUM_OPTIONS") && !end_marker("CU_JIT_TARGET"));
        assert_eq!(verb("cuDeviceGetAttribute"), Some(true));
        assert_eq!(verb("cuCtxSetLimit"), Some(false));
        assert_eq!(verb("cuMemGetAllocationGranularity"), None);
    }
}
