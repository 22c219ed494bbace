//! The model as text for people, or as JSON (the model serialized as it is).
//! Nothing here calls the driver or reads libcuda-sys: what is printed is what
//! the model holds.

use std::fmt::Write as _;

use crate::gather::{cuda_version_text, human_bytes};
use crate::model::*;
use crate::{EXIT_ERROR, EXIT_SETUP, EXIT_STATIC};

/// The `--json` output: one object, pretty-printed, with a final newline.
pub fn json(r: &Report) -> serde_json::Result<String> {
    let mut out = serde_json::to_string_pretty(r)?;
    out.push('\n');
    Ok(out)
}

pub fn text(r: &Report) -> String {
    let mut out = String::new();
    let b = &r.bindings;
    let header = i64::from(b.cuda_version);
    let _ = writeln!(out, "mempool-report (libcuda-sys {})", b.libcuda_sys_version);
    let _ =
        writeln!(out, "bindings:  CUDA {} headers (CUDA_VERSION {header})", b.cuda_version_text);
    match &b.include_dir {
        Some(dir) if !b.pregenerated => {
            let _ = writeln!(out, "headers:   {dir} (found by {})", b.found_by);
        }
        _ => {
            let _ = writeln!(
                out,
                "headers:   none: the pregenerated bindings of libcuda-sys (no CUDA headers or no libclang at build time, or asked for)"
            );
        }
    }
    let link_note = match b.link_kind.as_str() {
        "driver" => "the NVIDIA driver's libcuda",
        "toolkit-stub" => {
            "the toolkit's stub libcuda; the driver's replaces it at run time where installed"
        }
        "generated-stub" => {
            "libcuda-sys's stand-in; the driver's replaces it at run time where installed"
        }
        "dynamic-loading" => {
            "no link-time libcuda: LIBCUDA_SYS_DRIVER_PATH, else libcuda.so.1 (on WSL2 /usr/lib/wsl/lib's), is opened at the first call"
        }
        _ => "see libcuda-sys's documentation",
    };
    let _ = writeln!(out, "linked:    {} ({link_note})", b.link_kind);
    if let Some(path) = &r.loaded_libcuda {
        let _ = writeln!(out, "loaded:    {path}");
    }
    if let Some(load) = &r.driver.load_error {
        let _ = writeln!(
            out,
            "loaded:    nothing: {} could not be loaded: {}",
            load.tried, load.message
        );
    }
    match (&r.driver.cuda_version, &r.driver.error) {
        (Some(v), _) => {
            let v = i64::from(*v);
            let note = if v < header {
                format!("; older than the {} headers: attributes added since {} are expected to be rejected", b.cuda_version_text, cuda_version_text(v))
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "driver:    CUDA {} (cuDriverGetVersion {v}){note}",
                cuda_version_text(v)
            );
        }
        (None, Some(f)) => {
            let _ = writeln!(out, "driver:    none ({f})");
        }
        (None, None) => {
            let _ = writeln!(out, "driver:    none");
        }
    }
    out.push('\n');

    if !r.status.live {
        let label = match r.status.exit_code {
            EXIT_STATIC => "no live values",
            EXIT_SETUP => "setup failed",
            _ => "error",
        };
        let reason = r.status.reason.as_deref().unwrap_or_default();
        let cause = match &r.status.error {
            Some(f) => format!("{f}: {reason}"),
            None => reason.to_owned(),
        };
        let _ = writeln!(
            out,
            "{label}: {cause}; static table follows, exit status {}",
            r.status.exit_code
        );
        out.push('\n');
        static_table(&mut out, r);
        functions(&mut out, r);
        return out;
    }

    let _ = writeln!(out, "devices:   {}", r.devices.len());
    for d in &r.devices {
        device(&mut out, d);
    }
    let errors: Vec<String> = r
        .devices
        .iter()
        .filter_map(|d| d.error.as_ref().map(|f| format!("device {}: {f}", d.ordinal)))
        .collect();
    functions(&mut out, r);
    if !errors.is_empty() {
        let _ = writeln!(out, "\nerrors (exit status {EXIT_ERROR}): {}", errors.join("; "));
    }
    out
}

fn settable(s: Settable) -> &'static str {
    match s {
        Settable::Yes => "yes",
        Settable::ResetToZeroOnly => "reset to 0 only",
        Settable::No => "no",
    }
}

/// The functions section: the driver each pool function needs, and what the
/// driver in use lacks.
fn functions(out: &mut String, r: &Report) {
    let f = &r.functions;
    if !f.since_available {
        let _ = writeln!(
            out,
            "\nfunctions: which driver each needs is unknown (the headers had no cudaTypedefs.h)"
        );
        return;
    }
    let _ = writeln!(out, "\nMemory-pool functions and the driver each needs:");
    let rows: Vec<Vec<String>> = f
        .pool_functions
        .iter()
        .map(|p| vec![p.name.to_owned(), format!("CUDA {}", cuda_version_text(i64::from(p.since)))])
        .collect();
    table(out, "", &["FUNCTION", "NEEDS"], &[false, false], &rows);
    if let (Some(lacks), Some(version)) = (&f.driver_lacks, r.driver.cuda_version) {
        let _ = writeln!(
            out,
            "\ndriver lacks: {} of {} bound functions (newer than CUDA {}){}{}",
            lacks.count,
            lacks.of,
            cuda_version_text(i64::from(version)),
            if lacks.names.is_empty() {
                String::new()
            } else {
                format!(": {}", lacks.names.join(", "))
            },
            if lacks.loader_agrees {
                "; the loader agrees".to_owned()
            } else {
                format!("; the loader disagrees on {}", lacks.loader_disagrees_on.join(", "))
            }
        );
    }
}

fn static_table(out: &mut String, r: &Report) {
    let _ = writeln!(
        out,
        "Memory-pool attributes (CUmemPool_attribute) in the CUDA {} headers: {}\n",
        r.bindings.cuda_version_text,
        r.attributes.len()
    );
    let rows: Vec<Vec<String>> = r
        .attributes
        .iter()
        .map(|a| {
            let d = &a.declared;
            let mut row = value_name_type(d);
            row.extend([
                d.size.map_or_else(|| "?".to_owned(), |s| s.to_string()),
                settable(d.settable).to_owned(),
                wrapped(a.description, 64),
            ]);
            row
        })
        .collect();
    table(
        out,
        "",
        &["VALUE", "ATTRIBUTE", "TYPE", "SIZE", "SETTABLE", "DESCRIPTION"],
        &[true, false, false, true],
        &rows,
    );
    if r.attributes.is_empty() {
        let _ =
            writeln!(out, "(none: the headers document no value type for any CUmemPool_attribute)");
    }
}

/// The first three cells of both attribute tables.
fn value_name_type(d: &Declared) -> Vec<String> {
    vec![d.value.to_string(), d.name.to_owned(), d.value_type.to_owned()]
}

fn or_error<T>(value: &Read<T>, show: impl Fn(&T) -> String) -> String {
    match value.as_result() {
        Ok(v) => show(v),
        Err(f) => format!("error: {f}"),
    }
}

fn device(out: &mut String, d: &Device) {
    let _ = writeln!(out, "\ndevice {}: {}", d.ordinal, or_error(&d.name, String::clone));
    let _ = writeln!(
        out,
        "  compute capability:      {}",
        or_error(&d.compute_capability, String::clone)
    );
    let _ = writeln!(
        out,
        "  total memory:            {}",
        or_error(&d.total_memory, |b| format!("{} ({b} bytes)", human_bytes(*b as u64)))
    );
    let _ = writeln!(
        out,
        "  memory pools supported:  {}",
        or_error(&d.memory_pools_supported, |s| if *s { "yes" } else { "no" }.to_owned())
    );
    let handle_types = match &d.pool_handle_types {
        None => {
            "unknown (CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES is not in these headers)"
                .to_owned()
        }
        Some(v) => or_error(v, |h| format!("{:#x} = {}", h.raw, h.names)),
    };
    let _ = writeln!(out, "  pool handle types:       {handle_types}");
    match d.default_pool.as_ref().map(Read::as_result) {
        None => {}
        Some(Err(f)) => {
            let _ = writeln!(out, "  default memory pool:     error: {f}");
        }
        Some(Ok(pool)) => {
            let _ = writeln!(out, "  default memory pool:     {}\n", pool.handle);
            let rows: Vec<Vec<String>> = pool
                .attributes
                .iter()
                .map(|a| {
                    let mut row = value_name_type(&a.declared);
                    row.extend([current(a), settable(a.declared.settable).to_owned()]);
                    row
                })
                .collect();
            table(
                out,
                "  ",
                &["VALUE", "ATTRIBUTE", "TYPE", "CURRENT", "SETTABLE"],
                &[true],
                &rows,
            );
            let rejected: Vec<String> = pool
                .attributes
                .iter()
                .filter_map(|a| {
                    a.error.as_ref().map(|f| format!("{} ({})", a.declared.name, f.name))
                })
                .collect();
            if !rejected.is_empty() {
                let _ = writeln!(out, "  driver rejects: {}", rejected.join(", "));
            }
            allocation(out, pool);
        }
    }
    if let Some(f) = &d.cleanup_error {
        let _ = writeln!(out, "  error releasing the primary context: {f}");
    }
}

/// An allocation from the default pool and its pointer attributes, each with
/// the width its value type has; the pool handle it names, checked.
fn allocation(out: &mut String, pool: &Pool) {
    let a = match pool.allocation.as_result() {
        Ok(a) => a,
        Err(f) => {
            let _ = writeln!(out, "\n  an allocation from it:   error: {f}");
            return;
        }
    };
    let _ = writeln!(
        out,
        "\n  an allocation from it:   {} ({}), its pointer attributes:\n",
        a.address,
        human_bytes(a.bytes as u64)
    );
    let rows: Vec<Vec<String>> = a
        .attributes
        .iter()
        .map(|r| {
            let mut row = value_name_type(&r.declared);
            let mut value = current(r);
            if r.declared.name == "CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE" {
                let this = r.current.as_ref().is_some_and(|v| v.to_string() == pool.handle);
                value.push_str(if this { " (this pool)" } else { " (not this pool)" });
            }
            row.extend([r.declared.size.map_or_else(|| "?".into(), |s| s.to_string()), value]);
            row
        })
        .collect();
    table(
        out,
        "  ",
        &["VALUE", "ATTRIBUTE", "TYPE", "BYTES", "CURRENT"],
        &[true, false, false, true],
        &rows,
    );
    if !a.driver_rejects.is_empty() {
        let rejected: Vec<String> = a
            .attributes
            .iter()
            .filter_map(|r| r.error.as_ref().map(|f| format!("{} ({})", r.declared.name, f.name)))
            .collect();
        let _ = writeln!(out, "  driver rejects: {}", rejected.join(", "));
    }
}

/// The CURRENT cell: the value, and its name where it has one; the reason it
/// was not read; or the driver's error.
fn current(a: &Reading) -> String {
    if let Some(f) = &a.error {
        return f.name.clone();
    }
    if let Some(why) = &a.not_read {
        return why.clone();
    }
    let raw = a.current.as_ref().map(|v| v.to_string()).unwrap_or_default();
    match &a.current_decoded {
        Some(name) if *name != raw => format!("{raw} ({name})"),
        _ => raw,
    }
}

/// `text` whole, its words on lines of at most `width` characters (a longer
/// word on a line of its own), joined by newlines.
pub fn wrapped(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines.join("\n")
}

/// Columns padded to their widest cell; `right[i]` right-aligns column `i`.
/// The last column's cells may hold several lines ([`wrapped`]): the lines
/// after the first start under the first.
fn table(out: &mut String, indent: &str, header: &[&str], right: &[bool], rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.lines().map(|l| l.chars().count()).max().unwrap_or(0));
        }
    }
    let under_last = indent.chars().count()
        + widths[..widths.len().saturating_sub(1)].iter().map(|w| w + 2).sum::<usize>();
    let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::from(indent);
        let mut more = "";
        for (i, cell) in row.iter().enumerate() {
            let last = i + 1 == row.len();
            let cell = match cell.split_once('\n') {
                Some((first, rest)) if last => {
                    more = rest;
                    first
                }
                _ => cell.as_str(),
            };
            let pad = widths[i].saturating_sub(cell.chars().count());
            if right.get(i).copied().unwrap_or(false) {
                line.extend(std::iter::repeat_n(' ', pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                if !last {
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            if !last {
                line.push_str("  ");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        for line in more.lines() {
            out.extend(std::iter::repeat_n(' ', under_last));
            out.push_str(line);
            out.push('\n');
        }
    }
}
