//! The sections of the pregenerated set's files. Each file holds every release at
//! once: an item that is the same in several releases is written once, in a
//! section headed `//@ <releases>`, which runs to the next such line.
//! `<releases>` is a comma-separated list of `all`, `X.Y`, `X.Y-` (to the
//! newest), `X.Y-X.Y`, each optionally followed by `default` or `per-thread`
//! (the variant; both without). Loading a release keeps the lines of its
//! sections, so no Rust parser is needed. (`cargo xtask pregenerate` writes
//! the headings and checks that this reading gives back every release.)

/// `12.8` -> 12080: a major without a leading zero and one digit of minor,
/// so that `13.05` is no way of writing 13.5.
pub fn parse_version(text: &str) -> Option<u32> {
    let (major, minor) = text.split_once('.')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(major) || major.starts_with('0') || !digits(minor) || minor.len() != 1 {
        return None;
    }
    Some(major.parse::<u32>().ok()? * 1000 + minor.parse::<u32>().ok()? * 10)
}

/// `releases.txt`: `(CUDA_VERSION, wheel version)` of each `X.Y wheel-version`
/// line, oldest first; `#` lines and blank ones are comments.
pub fn parse_releases(text: &str) -> std::result::Result<Vec<(u32, String)>, String> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut words = line.split_whitespace();
        match (words.next().and_then(parse_version), words.next(), words.next()) {
            (Some(number), Some(wheel), None) => out.push((number, wheel.to_string())),
            _ => return Err(format!("`{line}` is not `X.Y wheel-version`")),
        }
    }
    out.sort();
    Ok(out)
}

/// Which release and variant a section heading includes.
fn includes(heading: &str, release: u32, per_thread: bool) -> std::result::Result<bool, String> {
    let mut any = false;
    for clause in heading.split(',').map(str::trim) {
        let (range, variant) = match clause.split_once(' ') {
            Some((range, variant)) => (range, Some(variant.trim())),
            None => (clause, None),
        };
        let bad = || format!("`//@ {heading}` is not a section heading");
        let (low, high) = match range {
            "all" => (0, u32::MAX),
            r => match r.split_once('-') {
                Some((low, "")) => (parse_version(low).ok_or_else(bad)?, u32::MAX),
                Some((low, high)) => {
                    (parse_version(low).ok_or_else(bad)?, parse_version(high).ok_or_else(bad)?)
                }
                None => {
                    let v = parse_version(r).ok_or_else(bad)?;
                    (v, v)
                }
            },
        };
        let variant_matches = match variant {
            None => true,
            Some("default") => !per_thread,
            Some("per-thread") => per_thread,
            Some(_) => return Err(bad()),
        };
        any |= variant_matches && (low..=high).contains(&release);
    }
    Ok(any)
}

/// The lines of `text` in the sections of `release` and the variant; what
/// comes before the first heading is the file's own header, left out.
pub fn select(text: &str, release: u32, per_thread: bool) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(text.len() / 2);
    let mut keep = false;
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("//@ ") {
            keep = includes(heading, release, per_thread)?;
        } else if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Each line of `text` with the releases of `releases` whose sections hold it
/// (in either variant): for a table of names, the releases that have each.
#[allow(dead_code)] // xtask, which shares this file, only writes the tables.
pub fn releases_of_lines(
    text: &str,
    releases: &[u32],
) -> std::result::Result<std::collections::BTreeMap<String, Vec<u32>>, String> {
    let mut out: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
    let mut current: Vec<u32> = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("//@ ") {
            current.clear();
            for &r in releases {
                if includes(heading, r, false)? || includes(heading, r, true)? {
                    current.push(r);
                }
            }
        } else if !current.is_empty() {
            let have = out.entry(line.to_string()).or_default();
            have.extend(&current);
            have.sort_unstable();
            have.dedup();
        }
    }
    Ok(out)
}
